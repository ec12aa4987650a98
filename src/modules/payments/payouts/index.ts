// The configured payout provider: RazorpayX when RAZORPAYX_* is set, else the sandbox where it is
// allowed (PAYOUT_SANDBOX, on outside production), else none (refunds to a UPI ID or bank account
// are then refused when asked for; Wallet Cash is always there).
import type { Config } from '../../../config.ts'
import { createRazorpayXPayouts } from './razorpayx.ts'
import { createSandboxPayouts } from './sandbox.ts'
import type { PayoutProvider } from './types.ts'

export function createPayoutProvider(config: Config): PayoutProvider | null {
  if (config.razorpayx) return createRazorpayXPayouts(config.razorpayx)
  return config.payoutSandbox ? createSandboxPayouts() : null
}
