// The carriers this service books with: Shiprocket and Delhivery when configured, and the sandbox
// (served by the service itself; off in production unless SHIPPING_SANDBOX=true). A shipment names
// its carrier; without a name it goes with the first configured, in that order.
import { createHmac } from 'node:crypto'
import type { Config } from '../../../config.ts'
import { createDelhiveryCarrier } from './delhivery.ts'
import { createSandboxCarrier, type SandboxCarrier } from './sandbox.ts'
import { createShiprocketCarrier } from './shiprocket.ts'
import type { Carrier } from './types.ts'

export function createCarriers(config: Config): { carriers: Map<string, Carrier>; sandbox: SandboxCarrier | null } {
  const carriers = new Map<string, Carrier>()
  if (config.shiprocket) carriers.set('shiprocket', createShiprocketCarrier(config.shiprocket))
  if (config.delhivery) carriers.set('delhivery', createDelhiveryCarrier(config.delhivery))
  if (!config.shippingSandbox) return { carriers, sandbox: null }
  // The sandbox signs its callbacks with a key derived from AUTH_SECRET: stable across nodes and restarts.
  const secret = createHmac('sha256', config.authSecret).update('sandbox-carrier').digest('hex')
  const sandbox = createSandboxCarrier({ secret, publicBaseUrl: config.publicBaseUrl })
  carriers.set(sandbox.name, sandbox)
  return { carriers, sandbox }
}
