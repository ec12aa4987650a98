// RazorpayX payouts: a contact for the customer, a fund account for the UPI ID or bank account, and a
// payout from the merchant's RazorpayX account (POST /v1/contacts, /v1/fund_accounts, /v1/payouts,
// HTTP Basic auth), settled by signed webhooks (payout.processed, payout.failed, payout.rejected,
// payout.reversed). RazorpayX answers a repeated contact or fund account with the existing one.
//
// Never paid twice: the payout's key is its `reference_id` and its `X-Payout-Idempotency` header.
// Before creating a payout the adapter asks for one with that reference (an earlier send may have
// reached RazorpayX and lost its answer, even longer ago than the idempotency header is kept), and
// answers that one if it exists and has not failed.
import { createHash } from 'node:crypto'
import { header, paise, RAZORPAY_EVENT_ID_HEADER, razorpayHttp, verifyRazorpaySignature } from '../providers/razorpay-http.ts'
import { ProviderError, WebhookSignatureError } from '../providers/types.ts'
import type { PayoutEvent, PayoutProvider, PayoutRequest, PayoutResult } from './types.ts'

export interface RazorpayXOptions {
  keyId: string
  keySecret: string
  /** The merchant's RazorpayX account number that payouts are paid from. */
  accountNumber: string
  webhookSecret: string
  previousWebhookSecret?: string | null
  apiBase: string
  timeoutMs?: number
  fetch?: typeof fetch
}

/** IMPS carries at most ₹5,00,000; above it a bank payout goes by NEFT. */
const IMPS_LIMIT = 50_000_000n
const FAILED = new Set(['failed', 'rejected', 'reversed', 'cancelled'])

interface RazorpayXPayout {
  id: string
  status: string
  reference_id?: string | null
  failure_reason?: string | null
  status_details?: { description?: string | null; reason?: string | null } | null
}

export function createRazorpayXPayouts(options: RazorpayXOptions): PayoutProvider {
  const call = razorpayHttp('RazorpayX', options)

  async function fundAccountFor(request: PayoutRequest): Promise<string> {
    const contact = await call<{ id?: string }>('POST', '/v1/contacts', {
      name: request.account.method === 'BANK' ? request.account.accountHolderName : request.customer.name || 'Customer',
      ...(request.customer.email ? { email: request.customer.email } : {}),
      ...(request.customer.phone ? { contact: request.customer.phone } : {}),
      type: 'customer',
      reference_id: request.customer.id.slice(0, 40),
    })
    if (typeof contact?.id !== 'string') throw new ProviderError('RazorpayX POST /v1/contacts answered without a contact id')
    const account =
      request.account.method === 'UPI'
        ? { account_type: 'vpa', vpa: { address: request.account.vpa } }
        : { account_type: 'bank_account', bank_account: { name: request.account.accountHolderName, ifsc: request.account.ifsc, account_number: request.account.accountNumber } }
    const fund = await call<{ id?: string }>('POST', '/v1/fund_accounts', { contact_id: contact.id, ...account })
    if (typeof fund?.id !== 'string') throw new ProviderError('RazorpayX POST /v1/fund_accounts answered without a fund account id')
    return fund.id
  }

  return {
    name: 'razorpayx',

    async payout(request) {
      const earlier = await call<{ items?: RazorpayXPayout[] }>('GET', `/v1/payouts?account_number=${encodeURIComponent(options.accountNumber)}&reference_id=${encodeURIComponent(request.key)}`)
      const live = (earlier?.items ?? []).find((p) => !FAILED.has(p.status))
      if (live) return resultOf(live)
      const fundAccountId = await fundAccountFor(request)
      const mode = request.account.method === 'UPI' ? 'UPI' : request.amount <= IMPS_LIMIT ? 'IMPS' : 'NEFT'
      const payout = await call<RazorpayXPayout>(
        'POST',
        '/v1/payouts',
        {
          account_number: options.accountNumber,
          fund_account_id: fundAccountId,
          amount: paise(request.amount),
          currency: 'INR',
          mode,
          purpose: 'refund',
          queue_if_low_balance: true,
          reference_id: request.key,
          // At most 30 letters, digits and spaces.
          narration: `Refund ${request.orderNumber}`.replace(/[^A-Za-z0-9 ]/g, '').slice(0, 30),
          notes: { key: request.key },
        },
        { 'x-payout-idempotency': request.key },
      )
      if (typeof payout?.id !== 'string' || payout.id === '') throw new ProviderError('RazorpayX POST /v1/payouts answered without a payout id')
      return resultOf(payout)
    },

    parseWebhook(rawBody, headers): PayoutEvent {
      verifyRazorpaySignature(rawBody, headers, [options.webhookSecret, options.previousWebhookSecret])
      let body: { event?: unknown; payload?: { payout?: { entity?: RazorpayXPayout } } }
      try {
        body = JSON.parse(rawBody.toString('utf8')) as typeof body
      } catch {
        throw new WebhookSignatureError('Body is not JSON')
      }
      if (typeof body?.event !== 'string') throw new WebhookSignatureError('Body has no event type')
      const eventId = header(headers, RAZORPAY_EVENT_ID_HEADER) ?? createHash('sha256').update(rawBody).digest('hex')
      if (!body.event.startsWith('payout.')) return { kind: 'IGNORED', eventId, type: body.event }
      const payout = body.payload?.payout?.entity
      if (typeof payout?.id !== 'string') throw new WebhookSignatureError(`Event ${body.event} carries no payout`)
      const result = resultOf(payout)
      const key = typeof payout.reference_id === 'string' && payout.reference_id !== '' ? payout.reference_id : null
      if (result.status === 'SUCCEEDED') return { kind: 'PAYOUT_SUCCEEDED', eventId, providerPayoutId: payout.id, key }
      if (result.status === 'FAILED') return { kind: 'PAYOUT_FAILED', eventId, providerPayoutId: payout.id, key, reason: result.failureReason! }
      return { kind: 'IGNORED', eventId, type: body.event }
    },
  }
}

function resultOf(payout: RazorpayXPayout): PayoutResult {
  if (payout.status === 'processed') return { providerPayoutId: payout.id, status: 'SUCCEEDED', failureReason: null }
  if (FAILED.has(payout.status)) {
    const reason = payout.status_details?.description || payout.failure_reason || `The payout was ${payout.status}`
    return { providerPayoutId: payout.id, status: 'FAILED', failureReason: reason.slice(0, 300) }
  }
  return { providerPayoutId: payout.id, status: 'PENDING', failureReason: null }
}
