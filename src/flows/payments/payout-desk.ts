// Refunds of cash collected on delivery, paid out to a customer's UPI ID or bank account (issue #25,
// decision 0025): the accounts (the number sealed, shown masked), the sends, and the provider's
// callbacks. A payout refund is a refunds row (method UPI_PAYOUT or BANK_PAYOUT) settled like a
// provider refund (PaymentService.settleRefund: events, the order's refund status, the return).
//
//   send           claimed by one node, sent under the refund's payout key (the provider dedupes
//                  on it); the answer settles it (SUCCEEDED or FAILED with the provider's reason) or
//                  leaves it PENDING for the callback
//   provider down  the send is counted and tried again by the job, waiting twice as long each time
//                  (one job interval first); after PAYOUT_MAX_ATTEMPTS it ends FAILED, outcome
//                  unknown: a retry then reuses the key, so a send that did go through is not paid again
//   refused        the provider turned the request down (a bad account, say): FAILED with its words
//   callback       payout.processed / failed / rejected / reversed settle the PENDING refund; a
//                  success for one given up on (outcome unknown) is recorded after all
import type { IncomingHttpHeaders } from 'node:http'
import type { Db, Executor } from '../../db/client.ts'
import type { ServiceDeps } from '../../deps.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { createSecretBox } from '../../lib/secret-box.ts'
import { findCustomer } from '../../modules/customers/index.ts'
import { findOrderById } from '../../modules/orders/index.ts'
import {
  findPayoutAccount,
  insertPayoutAccount,
  lockPayoutForCallback,
  lockRefund,
  maskAccountNumber,
  type PayoutAccount,
  type PayoutAccountInput,
  type PayoutAccountRow,
  type PayoutEvent,
  type PayoutProvider,
  ProviderError,
  recordWebhook,
  type RefundRow,
  updateRefund,
  WebhookSignatureError,
} from '../../modules/payments/index.ts'

export type SettleRefund = (
  tx: Executor,
  refund: RefundRow,
  status: 'SUCCEEDED' | 'FAILED',
  changes: { providerRefundId: string | null; failureReason?: string | null; outcomeUnknown?: boolean },
  at: Date,
) => Promise<void>

export const PAYOUT_METHODS: readonly RefundRow['method'][] = ['UPI_PAYOUT', 'BANK_PAYOUT']
/** A claim older than this was left by a node that stopped mid-send: the job sends that payout again (same key). */
const STALE_CLAIM_MS = 10 * 60_000

/** The settings the payout desk reads. */
export type PayoutSettings = 'authSecret' | 'jobIntervalMs' | 'payoutMaxAttempts'

export class PayoutDesk {
  readonly #db: Db
  readonly #box
  readonly #deps: Pick<ServiceDeps<PayoutSettings>, 'database' | 'clock' | 'logger' | 'config'>
  readonly #settle: SettleRefund
  readonly provider: PayoutProvider | null

  constructor(deps: Pick<ServiceDeps<PayoutSettings>, 'database' | 'clock' | 'logger' | 'config'>, provider: PayoutProvider | null, settle: SettleRefund) {
    this.#deps = deps
    this.provider = provider
    this.#settle = settle
    this.#db = deps.database.db
    this.#box = createSecretBox(deps.config.authSecret, 'payout-account')
  }

  /** A customer's UPI ID or bank account, the number sealed. 400 when no payout provider is configured. */
  async openAccount(tx: Executor, owner: { userId: string; partnerId: string }, input: PayoutAccountInput, at: Date): Promise<PayoutAccountRow> {
    if (!this.provider) {
      throw new AppError('BAD_REQUEST', 'refundTo: refunds to a UPI ID or a bank account are not available; leave refundTo out for Wallet Cash')
    }
    const base = { id: newId('pya', at.getTime()), partnerId: owner.partnerId, userId: owner.userId, createdAt: at }
    if (input.method === 'UPI') return insertPayoutAccount(tx, { ...base, method: 'UPI', vpa: input.vpa.trim().toLowerCase() })
    return insertPayoutAccount(tx, {
      ...base,
      method: 'BANK',
      accountHolderName: input.accountHolderName.trim().replace(/\s+/g, ' '),
      ifsc: input.ifsc.toUpperCase(),
      accountNumberSealed: this.#box.seal(input.accountNumber),
      accountNumberLast4: input.accountNumber.slice(-4),
    })
  }

  /** Sends one claimed payout refund (see the top of this file). */
  async send(claimed: RefundRow) {
    const now = () => this.#deps.clock.now()
    const account = claimed.payoutAccountId ? await findPayoutAccount(this.#db, claimed.payoutAccountId) : null
    if (!this.provider || !account) {
      const reason = this.provider ? 'The refund has no UPI ID or bank account to pay' : 'Refunds to a UPI ID or a bank account are not configured'
      await this.#db.transaction(async (tx) => this.#settle(tx, await lockRefund(tx, claimed.id), 'FAILED', { providerRefundId: null, failureReason: reason }, now()))
      return
    }
    const clear = this.#open(account)
    if (!clear) {
      const reason = 'The bank account can no longer be read (AUTH_SECRET changed since it was given); the customer gives it again with PUT /returns/{id}/refund-to'
      await this.#db.transaction(async (tx) => this.#settle(tx, await lockRefund(tx, claimed.id), 'FAILED', { providerRefundId: null, failureReason: reason }, now()))
      return
    }
    const order = (await findOrderById(this.#db, claimed.orderId))!
    const customer = await findCustomer(this.#db, order.userId)
    try {
      const result = await this.provider.payout({
        key: claimed.payoutKey ?? claimed.id,
        amount: claimed.amount,
        account: clear,
        customer: { id: order.userId, name: customer?.name ?? '', phone: customer?.phone ?? '', email: customer?.email ?? '' },
        orderNumber: order.orderNumber,
      })
      await this.#db.transaction(async (tx) => {
        // Locked again: the callback may have settled it while we waited for the answer.
        const locked = await lockRefund(tx, claimed.id)
        if (result.status !== 'PENDING') return this.#settle(tx, locked, result.status, { providerRefundId: result.providerPayoutId, failureReason: result.failureReason }, now())
        if (locked.status === 'PENDING') await updateRefund(tx, claimed.id, { providerRefundId: result.providerPayoutId, updatedAt: now() })
      })
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err
      await this.#sendFailed(claimed, err, clear)
    }
  }

  async #sendFailed(claimed: RefundRow, err: ProviderError, clear: PayoutAccount) {
    const at = this.#deps.clock.now()
    // A provider's message may quote what it was sent: never the account number.
    const words = (text: string) => (clear.method === 'BANK' ? text.replaceAll(clear.accountNumber, maskAccountNumber(clear.accountNumber.slice(-4))) : text)
    if (err.refused) {
      this.#deps.logger.warn({ err: words(err.message), refundId: claimed.id }, 'the payout provider refused a payout')
      await this.#db.transaction(async (tx) =>
        this.#settle(tx, await lockRefund(tx, claimed.id), 'FAILED', { providerRefundId: null, failureReason: `The payout provider refused the payout: ${words(err.answer!.description)}` }, at),
      )
      return
    }
    const attempts = claimed.attempts + 1
    const max = this.#deps.config.payoutMaxAttempts
    this.#deps.logger.warn({ err: words(err.message), refundId: claimed.id, attempts, max }, 'payout could not be sent; it will be retried')
    if (attempts >= max) {
      await this.#db.transaction(async (tx) => {
        await updateRefund(tx, claimed.id, { attempts })
        const reason = `The payout provider could not be reached in ${attempts} attempts; a retry sends the same payout again, never a second one`
        await this.#settle(tx, await lockRefund(tx, claimed.id), 'FAILED', { providerRefundId: null, failureReason: reason, outcomeUnknown: true }, at)
      })
      return
    }
    const wait = this.#deps.config.jobIntervalMs * 2 ** (attempts - 1)
    await updateRefund(this.#db, claimed.id, { providerRefundId: null, attempts, nextAttemptAt: new Date(at.getTime() + wait), updatedAt: at })
  }

  /** POST /payouts/webhooks/{provider}: verify, apply once per provider event id. */
  async handleWebhook(rawBody: Buffer, headers: IncomingHttpHeaders) {
    let event: PayoutEvent
    try {
      event = this.provider!.parseWebhook(rawBody, headers)
    } catch (err) {
      if (err instanceof WebhookSignatureError) throw new AppError('UNAUTHORIZED', 'Invalid webhook signature')
      throw err
    }
    const at = this.#deps.clock.now()
    return this.#db.transaction(async (tx) => {
      const first = await recordWebhook(tx, { provider: this.provider!.name, eventId: event.eventId, type: event.kind, receivedAt: at })
      if (!first) return { received: true, duplicate: true }
      if (event.kind === 'IGNORED') return { received: true, duplicate: false }
      const refund = await lockPayoutForCallback(tx, event.providerPayoutId, event.key)
      if (refund) {
        const changes = { providerRefundId: event.providerPayoutId, failureReason: event.kind === 'PAYOUT_FAILED' ? event.reason : null }
        await this.#settle(tx, refund, event.kind === 'PAYOUT_SUCCEEDED' ? 'SUCCEEDED' : 'FAILED', changes, at)
      }
      return { received: true, duplicate: false }
    })
  }

  /** When a payout's claim is old enough to be taken again. */
  staleClaimsBefore(now: Date) {
    return new Date(now.getTime() - STALE_CLAIM_MS)
  }

  /** The account with its number in the clear; null when the number cannot be unsealed (AUTH_SECRET changed). */
  #open(account: PayoutAccountRow): PayoutAccount | null {
    if (account.method === 'UPI') return { method: 'UPI', vpa: account.vpa! }
    let accountNumber: string
    try {
      accountNumber = this.#box.open(account.accountNumberSealed!)
    } catch {
      return null
    }
    return { method: 'BANK', accountHolderName: account.accountHolderName!, ifsc: account.ifsc!, accountNumber }
  }
}

