// The payments flow: provider sessions, provider callbacks, refunds and the reservation sweeper. The
// payment, refund and webhook rows are the payments module's (below orders); the orders they move
// are orders'. This flow is the one place that calls both on a payment's news (decision 0035).
//
// Callbacks are applied in one transaction each, recorded by provider event id first so a repeat
// delivery changes nothing. Payment states only move forward: a success wins over a failure or a
// drop that arrives later (or earlier), and nothing overrides a success. A success for an order
// that is no longer waiting (cancelled, or already paid by another session) is refunded. On a COD
// order the payment is its conversion to prepaid (flows/cod-conversion/): applied while the
// order may still convert at that amount, refunded once it was shipped, cancelled or converted.
import { randomBytes } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { AppError, isDatabaseUnavailable } from '../../lib/errors.ts'
import { formatPaise } from '../../lib/money.ts'
import { findCustomer } from '../../modules/customers/index.ts'
import {
  confirmPaidOrder,
  emit,
  expiredReservations,
  lockOrder,
  type OrderRow,
  purgeExpiredIdempotencyKeys,
  refreshRefundStatus,
} from '../../modules/orders/index.ts'
import { convertPaidCodOrder } from '../cod-conversion/index.ts'
import { cancelOrder, queueProviderRefund } from '../order-moves/index.ts'
import { settleProviderRefund } from '../return-settlement/index.ts'
import {
  claimRefund,
  findPayment,
  findPaymentBySession,
  lockPaymentBySession,
  lockRefund,
  lockRefundForCallback,
  type PaymentProvider,
  type PaymentRow,
  paymentsOf,
  type PayoutProvider,
  ProviderError,
  type ProviderEvent,
  recordWebhook,
  type RefundRow,
  unsentRefunds,
  updatePayment,
  updateRefund,
  WebhookSignatureError,
} from '../../modules/payments/index.ts'
import { PAYOUT_METHODS, PayoutDesk, type PayoutSettings } from './payout-desk.ts'
import type { Db, Executor } from '../../db/client.ts'

const ACTIVE: PaymentRow['status'][] = ['CREATED', 'PENDING', 'USER_DROPPED']

export class PaymentService {
  readonly providerName: string
  readonly #db: Db
  readonly #clock: Deps['clock']
  readonly #logger: Deps['logger']
  readonly #config: ServiceDeps<'reservationMinutes' | PayoutSettings>['config']
  /** Order id -> when checking its payment with the provider last failed (this process; see the sweeper). */
  readonly #failedChecks = new Map<string, number>()

  /** Refunds of cash collected on delivery to a UPI ID or bank account. */
  readonly payouts: PayoutDesk

  readonly #provider: PaymentProvider
  constructor(
    { database, clock, logger, config }: ServiceDeps<'reservationMinutes' | PayoutSettings>,
    provider: PaymentProvider,
    payoutProvider: PayoutProvider | null = null,
  ) {
    this.#provider = provider
    this.payouts = new PayoutDesk({ database, clock, logger, config }, payoutProvider, (tx, refund, status, changes, at) => this.#settleRefund(tx, refund, status, changes, at))
    this.#db = database.db
    this.#clock = clock
    this.#logger = logger
    this.#config = config
    this.providerName = provider.name
  }

  /** Opens the provider session of a CREATED payment; a provider failure marks the payment FAILED. */
  async startSession(payment: PaymentRow, order: OrderRow): Promise<PaymentRow> {
    const customer = await findCustomer(this.#db, order.userId)
    try {
      const session = await this.#provider.createSession({
        paymentId: payment.id,
        orderId: order.id,
        orderNumber: order.orderNumber,
        amount: payment.amount,
        currency: 'INR',
        customer: { name: customer?.name ?? '', phone: customer?.phone ?? '', email: customer?.email ?? '' },
        returnUrl: order.paymentReturnUrl,
      })
      const updated = await updatePayment(
        this.#db,
        payment.id,
        { status: 'PENDING', providerSessionId: session.sessionId, clientAction: session.clientAction, updatedAt: this.#clock.now() },
        ['CREATED'],
      )
      return updated ?? (await findPayment(this.#db, payment.id))!
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err
      this.#logger.warn({ err: err.message, paymentId: payment.id }, 'payment provider could not open a session')
      const failed = await updatePayment(this.#db, payment.id, { status: 'FAILED', failureReason: 'The payment provider could not be reached; start a new payment', updatedAt: this.#clock.now() }, ['CREATED'])
      return failed ?? (await findPayment(this.#db, payment.id))!
    }
  }

  /**
   * A refund's outcome: its status, the order's refund status, refund.succeeded / refund.failed, and
   * the return it belongs to follows it (return-settlement flow). Only a PENDING refund settles, but for a success
   * arriving for a payout given up on while its provider could not be reached (it went through after all).
   */
  async #settleRefund(
    tx: Executor,
    refund: RefundRow,
    status: 'SUCCEEDED' | 'FAILED',
    changes: { providerRefundId: string | null; failureReason?: string | null; outcomeUnknown?: boolean },
    at: Date,
  ) {
    const lateSuccess = refund.status === 'FAILED' && refund.outcomeUnknown && status === 'SUCCEEDED'
    if (refund.status !== 'PENDING' && !lateSuccess) return
    const settled = await updateRefund(tx, refund.id, {
      status,
      providerRefundId: changes.providerRefundId,
      failureReason: status === 'FAILED' ? (changes.failureReason ?? 'The provider refused the refund') : null,
      outcomeUnknown: changes.outcomeUnknown ?? false,
      updatedAt: at,
    })
    const order = (await lockOrder(tx, refund.orderId))!
    if (status === 'SUCCEEDED') await refreshRefundStatus(tx, order, at)
    const data = { refundId: refund.id, amount: formatPaise(refund.amount), ...(status === 'FAILED' ? { failureReason: settled.failureReason } : {}) }
    await emit(tx, order, status === 'SUCCEEDED' ? 'refund.succeeded' : 'refund.failed', data, at)
    await settleProviderRefund(tx, settled, at)
  }

  /**
   * Sends queued refunds: provider refunds here, payouts through the payout desk. Each is claimed
   * first, so two nodes never send one refund twice.
   */
  async sendRefunds(refunds: RefundRow[]) {
    const now = this.#clock.now()
    for (const refund of refunds) {
      const payout = PAYOUT_METHODS.includes(refund.method)
      const claimed = await claimRefund(this.#db, refund.id, `claim:${randomBytes(8).toString('hex')}`, now, payout ? this.payouts.staleClaimsBefore(now) : null)
      if (!claimed) continue
      if (payout) {
        await this.payouts.send(claimed)
        continue
      }
      const payment = claimed.paymentId ? await findPayment(this.#db, claimed.paymentId) : null
      if (!payment?.providerPaymentId) {
        await updateRefund(this.#db, claimed.id, { status: 'FAILED', providerRefundId: null, failureReason: 'The payment has no provider payment id to refund', updatedAt: this.#clock.now() })
        continue
      }
      try {
        const result = await this.#provider.refund({ refundId: claimed.id, providerPaymentId: payment.providerPaymentId, amount: claimed.amount })
        await this.#db.transaction(async (tx) => {
          if (result.status === 'PENDING') await updateRefund(tx, claimed.id, { providerRefundId: result.providerRefundId, updatedAt: this.#clock.now() })
          // Locked again: the provider's callback may have settled it while we waited for the answer.
          else await this.#settleRefund(tx, await lockRefund(tx, claimed.id), result.status, { providerRefundId: result.providerRefundId }, this.#clock.now())
        })
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err
        this.#logger.warn({ err: err.message, refundId: claimed.id }, 'refund could not be sent; it will be retried')
        await updateRefund(this.#db, claimed.id, { providerRefundId: null, updatedAt: this.#clock.now() })
      }
    }
  }

  /** Applies one verified provider event; returns refunds to send after commit. */
  async #applyEvent(event: ProviderEvent): Promise<{ duplicate: boolean; refunds: RefundRow[] }> {
    const at = this.#clock.now()
    return this.#db.transaction(async (tx) => {
      const first = await recordWebhook(tx, { provider: this.#provider.name, eventId: event.eventId, type: event.kind, receivedAt: at })
      if (!first) return { duplicate: true, refunds: [] }
      if (event.kind === 'IGNORED') return { duplicate: false, refunds: [] }
      if (event.kind === 'REFUND_SUCCEEDED' || event.kind === 'REFUND_FAILED') {
        const refund = await lockRefundForCallback(tx, event.providerRefundId, event.refundId)
        if (refund) await this.#settleRefund(tx, refund, event.kind === 'REFUND_SUCCEEDED' ? 'SUCCEEDED' : 'FAILED', { providerRefundId: event.providerRefundId, failureReason: event.reason }, at)
        return { duplicate: false, refunds: [] }
      }
      const found = await findPaymentBySession(tx, this.#provider.name, event.sessionId)
      if (!found) {
        this.#logger.warn({ provider: this.#provider.name, sessionId: event.sessionId }, 'provider event for an unknown session')
        return { duplicate: false, refunds: [] }
      }
      // Order first, then payment: the same lock order as cancellation and the sweeper.
      const order = (await lockOrder(tx, found.orderId))!
      const payment = (await lockPaymentBySession(tx, this.#provider.name, event.sessionId))!
      if (event.kind === 'PAYMENT_SUCCEEDED') return { duplicate: false, refunds: await this.#applySuccess(tx, order, payment, event, at) }
      if (!ACTIVE.includes(payment.status)) return { duplicate: false, refunds: [] }
      if (event.kind === 'PAYMENT_FAILED') {
        await updatePayment(tx, payment.id, { status: 'FAILED', failureReason: event.reason, providerPaymentId: event.providerPaymentId, updatedAt: at })
        await emit(tx, order, 'payment.failed', { paymentId: payment.id, reason: event.reason }, at)
      } else if (payment.status !== 'USER_DROPPED') {
        await updatePayment(tx, payment.id, { status: 'USER_DROPPED', updatedAt: at })
        await emit(tx, order, 'payment.user_dropped', { paymentId: payment.id }, at)
      }
      return { duplicate: false, refunds: [] }
    })
  }

  async #applySuccess(
    tx: Executor,
    order: OrderRow,
    payment: PaymentRow,
    event: Extract<ProviderEvent, { kind: 'PAYMENT_SUCCEEDED' }>,
    at: Date,
  ): Promise<RefundRow[]> {
    if (payment.status === 'SUCCEEDED') return []
    if (event.amount !== payment.amount || event.currency !== payment.currency) {
      this.#logger.error({ paymentId: payment.id, expected: String(payment.amount), got: String(event.amount), currency: event.currency }, 'payment amount or currency mismatch: not marked paid')
      await updatePayment(tx, payment.id, {
        status: 'FAILED',
        providerPaymentId: event.providerPaymentId,
        failureReason: `Provider reported ${event.currency} ${formatPaise(event.amount)}, expected ${payment.currency} ${formatPaise(payment.amount)}; needs review`,
        updatedAt: at,
      })
      return []
    }
    const succeeded = (await updatePayment(tx, payment.id, { status: 'SUCCEEDED', providerPaymentId: event.providerPaymentId, failureReason: null, updatedAt: at }))!
    if (order.status === 'PENDING_PAYMENT') {
      await confirmPaidOrder(tx, order, succeeded, this.#provider.name, at)
      return []
    }
    if (order.paymentMode === 'COD' && (await convertPaidCodOrder(tx, order, succeeded, at))) return []
    // The order was cancelled (or paid through another session, or shipped cash on delivery) before this payment arrived.
    await emit(tx, order, 'payment.succeeded', { paymentId: payment.id, amount: formatPaise(payment.amount) }, at)
    const reason =
      order.status === 'CANCELLED'
        ? 'Payment arrived after the order was cancelled'
        : order.paymentMode === 'COD'
          ? 'Payment to convert the order to prepaid arrived after it could no longer convert at that amount (shipped, or changed); it stays cash on delivery'
          : 'Order was already paid'
    return [await queueProviderRefund(tx, order, succeeded, reason, at)]
  }

  /** POST /payments/webhooks/{provider}: verify, apply once, then send any refund it caused. */
  async handleWebhook(rawBody: Buffer, headers: IncomingHttpHeaders) {
    let event: ProviderEvent
    try {
      event = this.#provider.parseWebhook(rawBody, headers)
    } catch (err) {
      if (err instanceof WebhookSignatureError) throw new AppError('UNAUTHORIZED', 'Invalid webhook signature')
      throw err
    }
    const result = await this.#applyEvent(event)
    await this.sendRefunds(result.refunds)
    return { received: true, duplicate: result.duplicate }
  }

  /**
   * Cancels unpaid orders whose reservation ran out and releases what they held. Before that,
   * asks the provider about their open sessions, so a payment whose callback is late still counts.
   * Rows are locked with SKIP LOCKED: sweepers on several nodes share the work without overlap.
   */
  async sweepExpiredReservations(limit = 100): Promise<number> {
    const now = this.#clock.now()
    const candidates = await this.#db.transaction((tx) => expiredReservations(tx, now, limit))
    // Orders whose payment could not be checked: kept for a later run, for up to one more
    // reservation period past their expiry, so a customer who paid while the provider could not
    // be asked is not cancelled for it. Past that they are cancelled; a payment that then
    // succeeds is handled as one after the cancellation (confirmed if the stock allows, else refunded).
    const unchecked = new Set<string>()
    const reservationMs = this.#config.reservationMinutes * 60_000
    // After one failed check the run asks no more (an outage costs one call a run, not one an
    // order). Orders whose check failed before are asked last, so an outage's first call goes to
    // a fresh one, and a session that fails on its own does not hold the others back.
    let providerDown = false
    const ordered = [...candidates].sort((a, b) => (this.#failedChecks.get(a.id) ?? 0) - (this.#failedChecks.get(b.id) ?? 0))
    for (const order of ordered) {
      const keep = now.getTime() - order.reservationExpiresAt!.getTime() < reservationMs
      let payments: Awaited<ReturnType<typeof paymentsOf>>
      try {
        payments = await paymentsOf(this.#db, order.id)
      } catch (err) {
        // Out of connections (a burst of payment callbacks holds the pool): this order is not
        // cancelled unasked; the next run asks about it.
        if (!isDatabaseUnavailable(err)) throw err
        unchecked.add(order.id)
        continue
      }
      for (const payment of payments) {
        // A customer who closed the checkout may still have paid in it: ask about those too.
        if ((payment.status !== 'PENDING' && payment.status !== 'USER_DROPPED') || !payment.providerSessionId) continue
        if (providerDown) {
          if (keep) unchecked.add(order.id)
          continue
        }
        try {
          const status = await this.#provider.fetchStatus(payment.providerSessionId)
          if (status.status === 'SUCCEEDED' && status.providerPaymentId) {
            await this.#applyEvent({
              kind: 'PAYMENT_SUCCEEDED',
              eventId: `poll:${status.providerPaymentId}`,
              sessionId: payment.providerSessionId,
              providerPaymentId: status.providerPaymentId,
              amount: status.amount ?? payment.amount,
              currency: status.currency ?? payment.currency,
            })
          }
        } catch (err) {
          // The provider said paid but the confirmation could not be written (out of connections):
          // not cancelled; the next run asks again, or the provider's webhook confirms it first.
          if (isDatabaseUnavailable(err)) {
            unchecked.add(order.id)
            continue
          }
          if (!(err instanceof ProviderError)) throw err
          providerDown = true
          this.#failedChecks.set(order.id, Date.now())
          if (keep) unchecked.add(order.id)
          this.#logger.warn(
            { err: err.message, paymentId: payment.id, orderId: order.id },
            keep ? 'could not ask the provider about a payment: the order is kept for the next run' : 'could not ask the provider about a payment: the order is cancelled',
          )
        }
      }
    }
    for (const order of candidates) if (!unchecked.has(order.id)) this.#failedChecks.delete(order.id)
    if (this.#failedChecks.size > 10_000) this.#failedChecks.clear()
    let cancelled = 0
    const refunds: RefundRow[] = []
    const cancelling = this.#db.transaction(async (tx) => {
      // Only the orders asked about above: one that ran out since, or that the first read did not
      // reach, waits for the next run instead of being cancelled unasked.
      const asked = candidates.map((o) => o.id).filter((id) => !unchecked.has(id))
      for (const order of asked.length ? await expiredReservations(tx, now, limit, asked) : []) {
        const result = await cancelOrder(tx, order, { name: 'SYSTEM', reason: 'Payment was not completed within the reservation period' }, now)
        refunds.push(...result.refunds)
        cancelled++
      }
    })
    try {
      await cancelling
    } catch (err) {
      // Out of connections: nothing was cancelled (one transaction); the next run does it.
      if (!isDatabaseUnavailable(err)) throw err
      this.#logger.warn({ err: (err as Error).message }, 'the database is busy: expired reservations are cancelled at the next run')
      return 0
    }
    await this.sendRefunds(refunds)
    return cancelled
  }

  /** Housekeeping: refunds whose send failed, and idempotency keys past their 24 hours. */
  async retryRefundsAndPurgeKeys() {
    const now = this.#clock.now()
    await this.sendRefunds(await unsentRefunds(this.#db, 100, now, this.payouts.staleClaimsBefore(now)))
    return purgeExpiredIdempotencyKeys(this.#db, this.#clock.now())
  }
}


