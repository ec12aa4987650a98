// The Razorpay provider: a Razorpay order per payment, paid in Razorpay Checkout on the client, and
// confirmed by Razorpay's signed webhooks (payment.captured / order.paid). Talks to the REST API
// (Orders, Payments, Refunds) with HTTP Basic auth; every call has a timeout, and every failure
// becomes a ProviderError whose message never carries the key secret. Amounts are integer paise.
import { createHash } from 'node:crypto'
import { header, paise, RAZORPAY_EVENT_ID_HEADER, razorpayHttp, verifyRazorpaySignature } from './razorpay-http.ts'
import { type PaymentProvider, type ProviderEvent, ProviderError, type ProviderStatus, WebhookSignatureError } from './types.ts'

export { RAZORPAY_EVENT_ID_HEADER, RAZORPAY_SIGNATURE_HEADER } from './razorpay-http.ts'

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
  const call = razorpayHttp('Razorpay', options)

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
      verifyRazorpaySignature(rawBody, headers, [options.webhookSecret, options.previousWebhookSecret])
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

/** The payment a signed payment event carries; an event without one cannot be applied. */
function paymentOf(body: RazorpayWebhook): RazorpayPayment {
  const payment = body.payload?.payment?.entity
  if (typeof payment?.id !== 'string') throw new WebhookSignatureError(`Event ${body.event} carries no payment`)
  // Paise, a whole number (BigInt of 1.5 or "abc" throws): anything else is not Razorpay's.
  if (!Number.isSafeInteger(payment.amount)) throw new WebhookSignatureError(`Event ${body.event} carries an amount that is not whole paise`)
  return payment
}

function refundOf(body: RazorpayWebhook): RazorpayRefund {
  const refund = body.payload?.refund?.entity
  if (typeof refund?.id !== 'string') throw new WebhookSignatureError(`Event ${body.event} carries no refund`)
  return refund
}

/** Our refund id, sent as receipt and in notes when the refund was made. */
function ourRefundId(refund: RazorpayRefund): string | null {
  const fromNotes = Array.isArray(refund.notes) ? undefined : refund.notes?.refundId
  if (typeof fromNotes === 'string') return fromNotes
  return typeof refund.receipt === 'string' ? refund.receipt : null
}
