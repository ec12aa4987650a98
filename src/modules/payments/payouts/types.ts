// What a payout provider does for us: pays cash collected on delivery back to a customer's UPI ID or
// bank account (issue #25). Like payment providers, it sits behind this interface: a sandbox that
// pays at once (sandbox.ts) and RazorpayX (razorpayx.ts). Failures are ProviderErrors (from
// providers/types.ts): `refused` when the provider turned the request down, otherwise an outage
// that is retried under the same key.
import type { IncomingHttpHeaders } from 'node:http'

/** A destination with its account number in the clear: only ever in memory, on its way to the provider. */
export type PayoutAccount = { method: 'UPI'; vpa: string } | { method: 'BANK'; accountHolderName: string; ifsc: string; accountNumber: string }

export interface PayoutRequest {
  /** The provider dedupes on it: every send of one payout, retries included, carries the same key. */
  key: string
  /** Paise. */
  amount: bigint
  account: PayoutAccount
  customer: { id: string; name: string; phone: string; email: string }
  orderNumber: string
}

export interface PayoutResult {
  providerPayoutId: string
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED'
  /** Why it FAILED, in the provider's words. */
  failureReason: string | null
}

/** A payout callback, verified and translated; `key` is ours, echoed back as the payout's reference. */
export type PayoutEvent =
  | { kind: 'PAYOUT_SUCCEEDED'; eventId: string; providerPayoutId: string; key: string | null }
  | { kind: 'PAYOUT_FAILED'; eventId: string; providerPayoutId: string; key: string | null; reason: string }
  | { kind: 'IGNORED'; eventId: string; type: string }

export interface PayoutProvider {
  readonly name: 'sandbox' | 'razorpayx'
  payout(request: PayoutRequest): Promise<PayoutResult>
  /** Verifies the signature (throws WebhookSignatureError) and translates the event. */
  parseWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): PayoutEvent
}
