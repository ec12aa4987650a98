// The payments module's tables (decision 0035): payments, provider callbacks already applied, payout
// accounts and refunds. A payment or refund names its order by id, with no foreign key across modules;
// they are written only by the orders module and the payments flow, in the transaction that holds
// the order's row lock.
import { sql } from 'drizzle-orm'
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

export type PaymentStatus = 'CREATED' | 'PENDING' | 'USER_DROPPED' | 'SUCCEEDED' | 'FAILED' | 'EXPIRED'
export type RefundStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED'
/** ORIGINAL_PAYMENT: back to the provider payment. WALLET_CREDIT: Wallet Cash. *_PAYOUT: cash collected on delivery, paid out to a UPI ID or a bank account. */
export type RefundMethod = 'ORIGINAL_PAYMENT' | 'WALLET_CREDIT' | 'UPI_PAYOUT' | 'BANK_PAYOUT'
/** Where a payout went, as shown: the account number's last four digits only (the whole number is sealed in payout_accounts). */
export type PayoutTo = { method: 'UPI'; vpa: string } | { method: 'BANK'; accountHolderName: string; ifsc: string; accountNumberLast4: string }

/** What the client does to pay: the provider's checkout (a redirect, a widget's options). */
export interface ClientAction {
  type: string
  payload: Record<string, unknown> | null
}

export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    /** The order it pays (orders' row, named by id: no foreign key across modules, decision 0035). */
    orderId: text('order_id').notNull(),
    partnerId: text('partner_id').notNull(),
    provider: text('provider').notNull(),
    /** The provider's checkout session (sandbox session, Razorpay order id). */
    providerSessionId: text('provider_session_id'),
    /** The provider's id of the captured payment, needed for refunds. */
    providerPaymentId: text('provider_payment_id'),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull().default('INR'),
    status: text('status').$type<PaymentStatus>().notNull(),
    clientAction: jsonb('client_action').$type<ClientAction>(),
    failureReason: text('failure_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('payments_order_idx').on(t.orderId, t.createdAt),
    uniqueIndex('payments_provider_session_uq').on(t.provider, t.providerSessionId),
    check('payments_amount_positive', sql`${t.amount} > 0`),
  ],
)

/** Provider callbacks already applied: a webhook delivered again is recognised and ignored. */
export const paymentWebhookEvents = pgTable(
  'payment_webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    paymentId: text('payment_id'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
)

/**
 * A customer's UPI ID or bank account that cash collected on delivery is refunded to (issue #25).
 * The account number is sealed (AES-256-GCM under AUTH_SECRET, lib/secret-box.ts); only its last four
 * digits are kept readable, for masked answers.
 */
export const payoutAccounts = pgTable(
  'payout_accounts',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id').notNull(),
    userId: text('user_id').notNull(),
    method: text('method').$type<'UPI' | 'BANK'>().notNull(),
    vpa: text('vpa'),
    accountHolderName: text('account_holder_name'),
    ifsc: text('ifsc'),
    accountNumberSealed: text('account_number_sealed'),
    accountNumberLast4: text('account_number_last4'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('payout_accounts_user_idx').on(t.userId),
    check(
      'payout_accounts_method_fields',
      sql`(${t.method} = 'UPI' and ${t.vpa} is not null) or (${t.method} = 'BANK' and ${t.ifsc} is not null and ${t.accountNumberSealed} is not null and ${t.accountNumberLast4} is not null and ${t.accountHolderName} is not null)`,
    ),
  ],
)

/**
 * Money going back to the customer. ORIGINAL_PAYMENT goes through the provider (PENDING until it
 * reports); WALLET_CREDIT lands in the Wallet Cash ledger at once; UPI_PAYOUT and BANK_PAYOUT go
 * through the payout provider (PENDING until it reports), sent under `payoutKey` so that no retry
 * pays twice.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: text('id').primaryKey(),
    /** The order it refunds (orders' row, named by id, decision 0035). */
    orderId: text('order_id').notNull(),
    paymentId: text('payment_id').references(() => payments.id),
    returnRequestId: text('return_request_id'),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    method: text('method').$type<RefundMethod>().notNull(),
    status: text('status').$type<RefundStatus>().notNull(),
    providerRefundId: text('provider_refund_id'),
    reason: text('reason').notNull(),
    /** Payouts only: the account paid, where it is (masked), and the key the provider dedupes on. */
    payoutAccountId: text('payout_account_id').references(() => payoutAccounts.id),
    payoutTo: jsonb('payout_to').$type<PayoutTo>(),
    payoutKey: text('payout_key'),
    /** Why a refund FAILED, in words the back office and the customer can act on. */
    failureReason: text('failure_reason'),
    /** Sends that could not reach the provider, and when the next one may go (payouts back off). */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** FAILED without knowing: the provider could not be reached, and a send may have gone through. A retry reuses the payout key. */
    outcomeUnknown: boolean('outcome_unknown').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('refunds_order_idx').on(t.orderId),
    index('refunds_payment_idx').on(t.paymentId),
    // A return is refunded once per method; only a FAILED refund may be tried again.
    uniqueIndex('refunds_return_method_uq').on(t.returnRequestId, t.method).where(sql`return_request_id is not null and status <> 'FAILED'`),
    // One live payout per key: a retry after an unknown outcome reuses the key, so the provider dedupes it.
    uniqueIndex('refunds_payout_key_uq').on(t.payoutKey).where(sql`payout_key is not null and status <> 'FAILED'`),
    check('refunds_amount_positive', sql`${t.amount} > 0`),
  ],
)
