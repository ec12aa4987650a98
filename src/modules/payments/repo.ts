// Data access of the payments module: payments, provider callbacks already applied, payout accounts
// and refunds. Handed out by name through index.ts (never this object), with the fragment orders'
// one-statement order insert takes its first payment from.
import { and, asc, desc, eq, inArray, lt, lte, ne, or, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { type PaymentStatus, payments, paymentWebhookEvents, payoutAccounts, refunds } from './schema.sql.ts'

export type PaymentRow = typeof payments.$inferSelect
export type RefundRow = typeof refunds.$inferSelect
export type PayoutAccountRow = typeof payoutAccounts.$inferSelect

/**
 * The insert of an order's first payment as a CTE, for orders' one-statement order insert (decision
 * 0016: one round trip): the SQL of this module's table, without handing out the table.
 */
export const newPaymentCte = (tx: Executor, row: PaymentRow) => tx.$with('new_payment').as(tx.insert(payments).values(row).returning({ id: payments.id }))

export const paymentRepo = {
  async insertPayment(tx: Executor, row: typeof payments.$inferInsert) {
    const [created] = await tx.insert(payments).values(row).returning()
    return created!
  },
  async updatePayment(db: Executor, id: string, changes: Partial<typeof payments.$inferInsert>, onlyFrom?: PaymentStatus[]) {
    const condition = onlyFrom ? and(eq(payments.id, id), inArray(payments.status, onlyFrom)) : eq(payments.id, id)
    const [row] = await db.update(payments).set(changes).where(condition).returning()
    return row ?? null
  },
  async findPayment(db: Executor, id: string) {
    const [row] = await db.select().from(payments).where(eq(payments.id, id)).limit(1)
    return row ?? null
  },
  async lockPaymentBySession(tx: Executor, provider: string, sessionId: string) {
    const [row] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.provider, provider), eq(payments.providerSessionId, sessionId)))
      .for('update')
    return row ?? null
  },
  async findPaymentBySession(db: Executor, provider: string, sessionId: string) {
    const [row] = await db.select().from(payments).where(and(eq(payments.provider, provider), eq(payments.providerSessionId, sessionId))).limit(1)
    return row ?? null
  },
  paymentsOf(db: Executor, orderId: string) {
    return db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(desc(payments.createdAt), desc(payments.id))
  },
  async expireActivePayments(tx: Executor, orderId: string, at: Date) {
    await tx
      .update(payments)
      .set({ status: 'EXPIRED', updatedAt: at })
      .where(and(eq(payments.orderId, orderId), inArray(payments.status, ['CREATED', 'PENDING', 'USER_DROPPED'])))
  },

  /** True the first time a provider event id is seen; false for a repeat delivery. */
  async recordWebhook(tx: Executor, row: typeof paymentWebhookEvents.$inferInsert) {
    const inserted = await tx.insert(paymentWebhookEvents).values(row).onConflictDoNothing().returning({ eventId: paymentWebhookEvents.eventId })
    return inserted.length === 1
  },

  async insertRefund(tx: Executor, row: typeof refunds.$inferInsert) {
    const [created] = await tx.insert(refunds).values(row).returning()
    return created!
  },
  refundsOf(db: Executor, orderId: string) {
    return db.select().from(refunds).where(eq(refunds.orderId, orderId)).orderBy(asc(refunds.createdAt), asc(refunds.id))
  },
  /**
   * Claims a refund to send for one caller: sets the marker only where no call was made yet. A
   * payout's claim left by a crashed sender is taken again once older than `staleClaimsBefore`: its
   * payout key makes the provider dedupe a second send (a provider refund's claim stays; see unsentRefunds).
   */
  async claimRefund(db: Executor, id: string, marker: string, at: Date, staleClaimsBefore: Date | null = null) {
    const unclaimed = sql`${refunds.providerRefundId} is null`
    const stale = staleClaimsBefore
      ? sql`(${unclaimed} or (${refunds.method} in ('UPI_PAYOUT', 'BANK_PAYOUT') and ${refunds.providerRefundId} like 'claim:%' and ${refunds.updatedAt} < ${staleClaimsBefore}))`
      : unclaimed
    const [row] = await db
      .update(refunds)
      .set({ providerRefundId: marker, updatedAt: at })
      .where(and(eq(refunds.id, id), eq(refunds.status, 'PENDING'), stale))
      .returning()
    return row ?? null
  },
  async updateRefund(db: Executor, id: string, changes: Partial<typeof refunds.$inferInsert>) {
    const [row] = await db.update(refunds).set(changes).where(eq(refunds.id, id)).returning()
    return row!
  },
  async lockRefund(tx: Executor, id: string) {
    const [row] = await tx.select().from(refunds).where(eq(refunds.id, id)).for('update')
    return row!
  },
  /** The refund a provider callback is about: by the provider's refund id, else by our own id. */
  async lockRefundForCallback(tx: Executor, providerRefundId: string, refundId: string | null) {
    const [row] = await tx
      .select()
      .from(refunds)
      .where(refundId ? or(eq(refunds.providerRefundId, providerRefundId), eq(refunds.id, refundId)) : eq(refunds.providerRefundId, providerRefundId))
      .for('update')
    return row ?? null
  },
  /**
   * The payout refund a payout callback is about: by the provider's payout id, else by its payout
   * key (the live refund first; else one given up on while the provider could not be reached, whose
   * payout may have gone through after all).
   */
  async lockPayoutForCallback(tx: Executor, providerPayoutId: string, payoutKey: string | null) {
    const [row] = await tx
      .select()
      .from(refunds)
      .where(
        payoutKey
          ? or(eq(refunds.providerRefundId, providerPayoutId), and(eq(refunds.payoutKey, payoutKey), or(ne(refunds.status, 'FAILED'), sql`${refunds.providerRefundId} is null`)))
          : eq(refunds.providerRefundId, providerPayoutId),
      )
      .orderBy(sql`${refunds.providerRefundId} = ${providerPayoutId} desc nulls last`, sql`${refunds.status} = 'FAILED'`, desc(refunds.createdAt))
      .limit(1)
      .for('update')
    return row ?? null
  },
  async insertPayoutAccount(tx: Executor, row: typeof payoutAccounts.$inferInsert) {
    const [created] = await tx.insert(payoutAccounts).values(row).returning()
    return created!
  },
  async findPayoutAccount(db: Executor, id: string) {
    const [row] = await db.select().from(payoutAccounts).where(eq(payoutAccounts.id, id))
    return row ?? null
  },
  /**
   * Refunds not yet sent. A provider refund whose send was interrupted by a crash keeps its claim
   * marker and is not re-sent automatically (that could refund twice): the back office sees it as
   * PENDING. A payout is: once its back-off has passed (`next_attempt_at`), or once its claim is older
   * than `staleClaimsBefore` (its payout key makes the provider dedupe the second send).
   */
  unsentRefunds(db: Executor, limit: number, now: Date, staleClaimsBefore: Date) {
    const payout = sql`${refunds.method} in ('UPI_PAYOUT', 'BANK_PAYOUT')`
    return db
      .select()
      .from(refunds)
      .where(
        and(
          eq(refunds.status, 'PENDING'),
          or(
            and(eq(refunds.method, 'ORIGINAL_PAYMENT'), sql`${refunds.providerRefundId} is null`),
            and(payout, sql`${refunds.providerRefundId} is null`, or(sql`${refunds.nextAttemptAt} is null`, lte(refunds.nextAttemptAt, now))),
            and(payout, sql`${refunds.providerRefundId} like 'claim:%'`, lt(refunds.updatedAt, staleClaimsBefore)),
          ),
        ),
      )
      .limit(limit)
  },
}
