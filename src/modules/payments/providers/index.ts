// The configured payment provider.
import { createHmac } from 'node:crypto'
import type { Config } from '../../../config.ts'
import { createRazorpayProvider } from './razorpay.ts'
import { createSandboxProvider, type SandboxProvider } from './sandbox.ts'
import type { PaymentProvider } from './types.ts'

export function createPaymentProvider(config: Config): { provider: PaymentProvider; sandbox: SandboxProvider | null } {
  if (config.paymentProvider === 'razorpay' && config.razorpay) {
    return { provider: createRazorpayProvider(config.razorpay), sandbox: null }
  }
  // The sandbox signs its callbacks with a key derived from AUTH_SECRET: stable across nodes and restarts.
  const secret = createHmac('sha256', config.authSecret).update('sandbox-webhook').digest('hex')
  const sandbox = createSandboxProvider({ secret, publicBaseUrl: config.publicBaseUrl })
  return { provider: sandbox, sandbox }
}
