// Does an address's state match its pincode? The serviceability data (zone_pincodes: prefix ->
// city, state) knows the pincodes the merchant delivers to; where it does not, the postal circle
// of the pincode's first digits does (src/lib/pincode-states.ts). Used for every address that
// carries a pincode: the address book (create, update) and an order's inline shipping address.
import type { Executor } from '../../db/client.ts'
import { normalizeStateName, statesForPincodePrefix } from '../../lib/pincode-states.ts'
import { checkoutRepo } from './repo.ts'

/** The serviceability entry of the longest matching prefix, or null (checkoutRepo.zoneForPincode, or its cached form). */
export type ZoneOfPincode = (pincode: string) => Promise<{ prefix: string; state: string } | null>

/**
 * The states `pincode` may be in: the serviceability data's state for it, and when that entry is a
 * prefix rather than the whole pincode, also the states of its postal circle (a prefix such as
 * 682 covers Kochi and Lakshadweep). Empty when neither knows it.
 */
export async function statesOfPincode(zoneOf: ZoneOfPincode, pincode: string): Promise<string[]> {
  const zone = await zoneOf(pincode)
  const circle = statesForPincodePrefix(pincode)
  if (!zone) return [...circle]
  if (zone.prefix.length >= pincode.length) return [zone.state]
  return [zone.state, ...circle.filter((s) => normalizeStateName(s) !== normalizeStateName(zone.state))]
}

/**
 * Null when `state` may be the state of `pincode` (or the pincode's state is unknown); otherwise
 * the validation message, naming both: `state Tamil Nadu does not match pincode 560001 (Karnataka)`.
 * `field` names the state field in the message (`shippingAddress.state` in an order).
 */
export async function stateMismatch(
  db: Executor,
  address: { state: string; pincode: string },
  field = 'state',
  zoneOf: ZoneOfPincode = (pincode) => checkoutRepo.zoneForPincode(db, pincode),
): Promise<string | null> {
  const states = await statesOfPincode(zoneOf, address.pincode)
  if (states.length === 0) return null
  const given = normalizeStateName(address.state)
  if (states.some((s) => normalizeStateName(s) === given)) return null
  return `${field} ${address.state.trim()} does not match pincode ${address.pincode} (${states.join(' or ')})`
}
