// The sandbox payout provider: pays at once, in memory, for development, demos and tests. It is
// deterministic so that a failed payout can be shown: the UPI ID `failure@razorpay` (Razorpay's own
// test ID) and an account number of only zeros are refused, like a beneficiary bank refusing them.
// One key is paid once (a second send answers the first result). It has no callbacks.
import { WebhookSignatureError } from '../providers/types.ts'
import type { PayoutProvider, PayoutResult } from './types.ts'

export const SANDBOX_FAILING_VPA = 'failure@razorpay'

export function createSandboxPayouts(): PayoutProvider {
  const paid = new Map<string, PayoutResult>()
  return {
    name: 'sandbox',
    async payout(request) {
      const earlier = paid.get(request.key)
      if (earlier) return earlier
      const refused =
        request.account.method === 'UPI' ? request.account.vpa.toLowerCase() === SANDBOX_FAILING_VPA : /^0+$/.test(request.account.accountNumber)
      const result: PayoutResult = refused
        ? { providerPayoutId: `spout_${request.key}`, status: 'FAILED', failureReason: "The beneficiary's bank refused the payout (sandbox)" }
        : { providerPayoutId: `spout_${request.key}`, status: 'SUCCEEDED', failureReason: null }
      paid.set(request.key, result)
      return result
    },
    parseWebhook() {
      throw new WebhookSignatureError('The sandbox payout provider sends no callbacks')
    },
  }
}
