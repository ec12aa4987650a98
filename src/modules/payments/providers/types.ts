// What a payment provider does for us. Orders never call a provider's API directly: they go through
// this interface, and provider callbacks come back through parseWebhook, signature checked.
import type { IncomingHttpHeaders } from 'node:http'
import type { ClientAction } from '../schema.sql.ts'

export interface SessionRequest {
  paymentId: string
  orderId: string
  orderNumber: string
  /** Paise. */
  amount: bigint
  currency: 'INR'
  customer: { name: string; phone: string; email: string }
  returnUrl: string | null
}

export interface ProviderSession {
  sessionId: string
  clientAction: ClientAction
}

/**
 * A provider callback, verified and translated. `eventId` is unique per provider event. `refundId`
 * is our own refund id when the provider echoes it back (it may call back before its refund id is
 * stored on our side).
 */
export type ProviderEvent =
  | { kind: 'PAYMENT_SUCCEEDED'; eventId: string; sessionId: string; providerPaymentId: string; amount: bigint; currency: string }
  | { kind: 'PAYMENT_FAILED'; eventId: string; sessionId: string; providerPaymentId: string | null; reason: string }
  | { kind: 'PAYMENT_USER_DROPPED'; eventId: string; sessionId: string }
  | { kind: 'REFUND_SUCCEEDED'; eventId: string; providerRefundId: string; refundId: string | null; reason: string | null }
  | { kind: 'REFUND_FAILED'; eventId: string; providerRefundId: string; refundId: string | null; reason: string | null }
  | { kind: 'IGNORED'; eventId: string; type: string }

export interface ProviderStatus {
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED'
  providerPaymentId?: string
  amount?: bigint
  currency?: string
}

export interface ProviderRefund {
  providerRefundId: string
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED'
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'razorpay'
  createSession(request: SessionRequest): Promise<ProviderSession>
  /** Verifies the signature (throws WebhookSignatureError) and translates the event. */
  parseWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): ProviderEvent
  /** Asks the provider about a session, for when a callback is late or lost. */
  fetchStatus(sessionId: string): Promise<ProviderStatus>
  refund(request: { refundId: string; providerPaymentId: string; amount: bigint }): Promise<ProviderRefund>
}

export class WebhookSignatureError extends Error {}

/**
 * A provider's API failed or could not be reached. `answer` is set when the provider answered with
 * an error status: its description, in the provider's words and without our credentials.
 */
export class ProviderError extends Error {
  readonly answer: { status: number; description: string } | null

  constructor(message: string, answer: { status: number; description: string } | null = null) {
    super(message)
    this.answer = answer
  }

  /** The provider refused the request itself (a 4xx other than 408 and 429): sending it again cannot help. */
  get refused(): boolean {
    const status = this.answer?.status ?? 0
    return status >= 400 && status < 500 && status !== 408 && status !== 429
  }
}
