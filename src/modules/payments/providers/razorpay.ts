// The Razorpay provider: a Razorpay order per payment, paid in Razorpay Checkout on the client, and
// confirmed by Razorpay's signed webhooks (payment.captured / order.paid). Talks to the REST API
// (Orders, Payments, Refunds) with HTTP Basic auth; every call has a timeout, and every failure
// becomes a ProviderError whose message never carries the key secret. Amounts are integer paise.
import { createHash, createHmac } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { safeEqual } from '../../../lib/hashing.ts'
import { type PaymentProvider, type ProviderEvent, ProviderError, type ProviderStatus, WebhookSignatureError } from './types.ts'

export const RAZORPAY_SIGNATURE_HEADER = 'x-razorpay-signature'
export const RAZORPAY_EVENT_ID_HEADER = 'x-razorpay-event-id'
/** The bound of every Razorpay call (`RAZORPAY_TIMEOUT_MS`; the reliability plan's API10 asks for at most 5 s). */
const DEFAULT_TIMEOUT_MS = 5_000
/** Razorpay error descriptions are quoted in our errors, cut to this length. */
const MAX_DESCRIPTION = 200

export interface RazorpayOptions {
  keyId: string
  keySecret: string
  webhookSecret: string
  /** The secret being replaced, accepted as well while a rotation is under way (`RAZORPAY_WEBHOOK_SECRET_PREVIOUS`). */
  previousWebhookSecret?: string | null
  /** Without a trailing slash, e.g. https://api.razorpay.com */
  apiBase: string
  /** Shown in Checkout. */
  merchantName?: string
  timeoutMs?: number
  fetch?: typeof fetch
}

/** The parts of Razorpay's entities that we read. */
interface RazorpayOrder {
  id: string
}
interface RazorpayPayment {
  id: string
  order_id: string | null
  amount: number
  currency: string
  status: string
  error_description?: string | null
}
interface RazorpayRefund {
  id: string
  status: string
  receipt?: string | null
  notes?: Record<string, unknown> | unknown[]
}
interface RazorpayWebhook {
  event: string
  payload?: { payment?: { entity?: RazorpayPayment }; refund?: { entity?: RazorpayRefund } }
}

export function createRazorpayProvider(options: RazorpayOptions): PaymentProvider {
  const fetchImpl = options.fetch ?? fetch
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const basicToken = Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')

  /** Whatever Razorpay or the network said, without our credentials in it. */
  const redact = (text: string) =>
    [options.keySecret, basicToken].reduce((out, secret) => (secret ? out.replaceAll(secret, '[redacted]') : out), text)

  async function call<T>(method: 'GET' | 'POST', path: string, body?: object, extraHeaders: Record<string, string> = {}): Promise<T> {
    const what = `Razorpay ${method} ${path}`
    let status: number
    let text: string
    try {
      const response = await fetchImpl(`${options.apiBase}${path}`, {
        method,
        headers: {
          authorization: `Basic ${basicToken}`,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...extraHeaders,
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      })
      status = response.status
      text = await response.text()
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError'
      const detail = timedOut ? `timed out after ${timeoutMs} ms` : `could not be reached (${errorText(error)})`
      throw new ProviderError(redact(`${what} ${detail}`))
    }
    if (status < 200 || status > 299) {
      throw new ProviderError(redact(`${what} answered ${status}: ${describeError(text)}`))
    }
    try {
      return JSON.parse(text) as T
    } catch {
      throw new ProviderError(`${what} answered ${status} with a body that is not JSON`)
    }
  }

  return {
    name: 'razorpay',

    async createSession(request) {
      const amount = paise(request.amount)
      const notes = { paymentId: request.paymentId, orderId: request.orderId }
      const order = await call<RazorpayOrder>('POST', '/v1/orders', { amount, currency: request.currency, receipt: request.orderNumber, notes })
      if (typeof order?.id !== 'string' || order.id === '') throw new ProviderError('Razorpay POST /v1/orders answered without an order id')
      return {
        sessionId: order.id,
        clientAction: {
          type: 'RAZORPAY_CHECKOUT',
          payload: {
            key: options.keyId,
            order_id: order.id,
            amount,
            currency: request.currency,
            name: options.merchantName ?? 'Commerce API',
            description: `Order ${request.orderNumber}`,
            prefill: { name: request.customer.name, contact: request.customer.phone, email: request.customer.email },
            notes,
            ...(request.returnUrl !== null ? { callback_url: request.returnUrl } : {}),
          },
        },
      }
    },

    parseWebhook(rawBody, headers): ProviderEvent {
      const signature = header(headers, RAZORPAY_SIGNATURE_HEADER)
      if (signature === undefined) throw new WebhookSignatureError('Missing signature')
      const secrets = options.previousWebhookSecret ? [options.webhookSecret, options.previousWebhookSecret] : [options.webhookSecret]
      const matches = secrets.map((secret) => safeEqual(createHmac('sha256', secret).update(rawBody).digest('hex'), signature))
      if (!matches.includes(true)) throw new WebhookSignatureError('Signature does not match')

      let body: RazorpayWebhook
      try {
        body = JSON.parse(rawBody.toString('utf8')) as RazorpayWebhook
      } catch {
        throw new WebhookSignatureError('Body is not JSON')
      }
      if (typeof body?.event !== 'string') throw new WebhookSignatureError('Body has no event type')
      const eventId = header(headers, RAZORPAY_EVENT_ID_HEADER) ?? createHash('sha256').update(rawBody).digest('hex')

      switch (body.event) {
        // Both arrive for one captured payment, with different event ids; applying either is enough.
        case 'payment.captured':
        case 'order.paid': {
          const payment = paymentOf(body)
          if (!payment.order_id) return { kind: 'IGNORED', eventId, type: body.event }
          return { kind: 'PAYMENT_SUCCEEDED', eventId, sessionId: payment.order_id, providerPaymentId: payment.id, amount: BigInt(payment.amount), currency: payment.currency }
        }
        case 'payment.failed': {
          const payment = paymentOf(body)
          if (!payment.order_id) return { kind: 'IGNORED', eventId, type: body.event }
          return { kind: 'PAYMENT_FAILED', eventId, sessionId: payment.order_id, providerPaymentId: payment.id, reason: payment.error_description || 'Payment failed' }
        }
        case 'refund.processed':
          return { kind: 'REFUND_SUCCEEDED', eventId, providerRefundId: refundOf(body).id, refundId: ourRefundId(refundOf(body)), reason: null }
        case 'refund.failed':
          return { kind: 'REFUND_FAILED', eventId, providerRefundId: refundOf(body).id, refundId: ourRefundId(refundOf(body)), reason: 'Refund failed' }
        default:
          return { kind: 'IGNORED', eventId, type: body.event }
      }
    },

    async fetchStatus(sessionId): Promise<ProviderStatus> {
      const list = await call<{ items?: RazorpayPayment[] }>('GET', `/v1/orders/${encodeURIComponent(sessionId)}/payments`)
      const payments = Array.isArray(list?.items) ? list.items : []
      const captured = payments.find((p) => p.status === 'captured')
      if (captured) return { status: 'SUCCEEDED', providerPaymentId: captured.id, amount: BigInt(captured.amount), currency: captured.currency }
      if (payments.length > 0 && payments.every((p) => p.status === 'failed')) return { status: 'FAILED' }
      return { status: 'PENDING' }
    },

    async refund(request) {
      const path = `/v1/payments/${encodeURIComponent(request.providerPaymentId)}/refund`
      // The same refundId always sends the same body, so a retried call cannot refund twice.
      const refund = await call<RazorpayRefund>('POST', path, { amount: paise(request.amount), receipt: request.refundId, notes: { refundId: request.refundId } }, { 'x-refund-idempotency': request.refundId })
      if (typeof refund?.id !== 'string' || refund.id === '') throw new ProviderError(`Razorpay POST ${path} answered without a refund id`)
      const status = refund.status === 'processed' ? 'SUCCEEDED' : refund.status === 'failed' ? 'FAILED' : 'PENDING'
      return { providerRefundId: refund.id, status }
    },
  }
}

/** Razorpay takes amounts as JSON numbers. */
function paise(amount: bigint): number {
  const value = Number(amount)
  if (!Number.isSafeInteger(value) || value <= 0) throw new ProviderError(`Amount ${amount} cannot be sent to Razorpay`)
  return value
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** The payment a signed payment event carries; an event without one cannot be applied. */
function paymentOf(body: RazorpayWebhook): RazorpayPayment {
  const payment = body.payload?.payment?.entity
  if (typeof payment?.id !== 'string') throw new WebhookSignatureError(`Event ${body.event} carries no payment`)
  return payment
}

function refundOf(body: RazorpayWebhook): RazorpayRefund {
  const refund = body.payload?.refund?.entity
  if (typeof refund?.id !== 'string') throw new WebhookSignatureError(`Event ${body.event} carries no refund`)
  return refund
}

/** Razorpay answers errors as {error: {code, description}}. */
function describeError(text: string): string {
  let description = text
  try {
    const parsed = JSON.parse(text) as { error?: { code?: string; description?: string } }
    if (parsed?.error?.description) description = [parsed.error.code, parsed.error.description].filter(Boolean).join(': ')
  } catch {
    // Not JSON: quote the start of the text.
  }
  description = description.replace(/\s+/g, ' ').trim()
  if (description === '') return 'no details'
  return description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION)}…` : description
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return `${error.message}${cause}`
}

/** Our refund id, sent as receipt and in notes when the refund was made. */
function ourRefundId(refund: RazorpayRefund): string | null {
  const fromNotes = Array.isArray(refund.notes) ? undefined : refund.notes?.refundId
  if (typeof fromNotes === 'string') return fromNotes
  return typeof refund.receipt === 'string' ? refund.receipt : null
}
