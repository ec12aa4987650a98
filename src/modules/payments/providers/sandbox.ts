// The sandbox provider: a checkout page served by the service itself. Its Pay, Fail and Close
// buttons produce provider events signed exactly as a real provider signs its webhooks, and those
// reach the order through the same webhook handler. Nothing leaves the machine.
import { createHmac, randomBytes } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { safeEqual } from '../../../lib/hashing.ts'
import { type PaymentProvider, type ProviderEvent, WebhookSignatureError } from './types.ts'
import { jsonObject } from '../../../lib/json.ts'

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature'
/** Signed events older than this are refused, so a captured callback cannot be replayed later. */
const TOLERANCE_SECONDS = 300

export type SandboxAction = 'pay' | 'fail' | 'close'

export interface SandboxEventBody {
  id: string
  type: 'payment.succeeded' | 'payment.failed' | 'payment.closed' | 'refund.succeeded'
  sessionId?: string
  paymentId?: string
  refundId?: string
  /** Paise. */
  amount?: number
  currency?: string
}

const random = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`

export function createSandboxProvider(options: { secret: string; publicBaseUrl: string; now?: () => number }) {
  const now = options.now ?? Date.now
  const failedOnce = new Set<string>()
  const sign = (timestamp: number, body: string) => createHmac('sha256', options.secret).update(`${timestamp}.${body}`).digest('hex')

  const provider: PaymentProvider & {
    signedEvent(body: SandboxEventBody): { rawBody: Buffer; headers: IncomingHttpHeaders }
    eventFor(action: SandboxAction, session: { sessionId: string; amount: bigint; currency: string }): SandboxEventBody
  } = {
    name: 'sandbox',

    async createSession(request) {
      const sessionId = random('sbx')
      return {
        sessionId,
        clientAction: {
          type: 'REDIRECT',
          payload: { url: `${options.publicBaseUrl}/api/v1/sandbox/checkout/${sessionId}`, sessionId, provider: 'sandbox', amount: Number(request.amount), currency: request.currency },
        },
      }
    },

    parseWebhook(rawBody, headers): ProviderEvent {
      const header = headers[SANDBOX_SIGNATURE_HEADER]
      // `t=<unix seconds>,v1=<hex>`, with one more `,v1=` per secret while a secret is rotated: one must match.
      const match = typeof header === 'string' ? /^t=(\d+)((?:,v1=[0-9a-f]{64}){1,4})$/.exec(header) : null
      if (!match) throw new WebhookSignatureError('Missing or malformed signature')
      const timestamp = Number(match[1])
      if (Math.abs(now() / 1000 - timestamp) > TOLERANCE_SECONDS) throw new WebhookSignatureError('Signature timestamp is too old')
      const expected = sign(timestamp, rawBody.toString('utf8'))
      const signatures = match[2]!.slice(1).split(',').map((part) => part.slice('v1='.length))
      if (!signatures.some((signature) => safeEqual(expected, signature))) throw new WebhookSignatureError('Signature does not match')
      const body = jsonObject(rawBody.toString('utf8')) as SandboxEventBody | null
      if (!body) throw new WebhookSignatureError('Body is not a JSON object')
      // The amount is whole paise; anything else (1.5, "abc") would throw in BigInt.
      if (body.amount !== undefined && !Number.isSafeInteger(body.amount)) throw new WebhookSignatureError('amount must be whole paise')
      switch (body.type) {
        case 'payment.succeeded':
          return { kind: 'PAYMENT_SUCCEEDED', eventId: body.id, sessionId: body.sessionId!, providerPaymentId: body.paymentId!, amount: BigInt(body.amount ?? 0), currency: body.currency ?? '' }
        case 'payment.failed':
          return { kind: 'PAYMENT_FAILED', eventId: body.id, sessionId: body.sessionId!, providerPaymentId: body.paymentId ?? null, reason: 'Payment declined in the sandbox' }
        case 'payment.closed':
          return { kind: 'PAYMENT_USER_DROPPED', eventId: body.id, sessionId: body.sessionId! }
        case 'refund.succeeded':
          return { kind: 'REFUND_SUCCEEDED', eventId: body.id, providerRefundId: body.refundId!, refundId: null, reason: null }
        default:
          return { kind: 'IGNORED', eventId: String(body.id), type: String(body.type) }
      }
    },

    /** The sandbox reports only through its callbacks. */
    async fetchStatus() {
      return { status: 'PENDING' }
    },

    /**
     * Sandbox refunds succeed at once, except the test case: a refund of an amount ending in 13 paise
     * (₹x.13) fails the first time it is tried for a payment, and succeeds when tried again.
     */
    async refund(request) {
      if (request.amount % 100n === 13n && !failedOnce.has(request.providerPaymentId)) {
        failedOnce.add(request.providerPaymentId)
        return { providerRefundId: random('sbxrf'), status: 'FAILED' }
      }
      return { providerRefundId: random('sbxrf'), status: 'SUCCEEDED' }
    },

    eventFor(action, session) {
      const base = { id: random('sbxevt'), sessionId: session.sessionId }
      if (action === 'pay') return { ...base, type: 'payment.succeeded', paymentId: random('sbxpay'), amount: Number(session.amount), currency: session.currency }
      if (action === 'fail') return { ...base, type: 'payment.failed', paymentId: random('sbxpay') }
      return { ...base, type: 'payment.closed' }
    },

    signedEvent(body) {
      const raw = JSON.stringify(body)
      const timestamp = Math.floor(now() / 1000)
      return { rawBody: Buffer.from(raw), headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: `t=${timestamp},v1=${sign(timestamp, raw)}` } }
    },
  }
  return provider
}

export type SandboxProvider = ReturnType<typeof createSandboxProvider>
