// Demo serviceability: metro cities with express delivery, tier-2 cities, remote areas without COD,
// and one unserviceable island. Charges in paise; slabs by parcel weight.
import type { Executor } from '../../db/client.ts'
import { newId } from '../../lib/ids.ts'
import { checkoutRepo } from './repo.ts'
import type { WeightSlab } from './schema.sql.ts'

const STANDARD: WeightSlab[] = [
  { upToGrams: 500, charge: 4000 },
  { upToGrams: 2000, charge: 6900 },
  { upToGrams: 5000, charge: 9900 },
  { upToGrams: 20_000, charge: 19_900 },
]
const EXPRESS: WeightSlab[] = [
  { upToGrams: 500, charge: 9900 },
  { upToGrams: 2000, charge: 14_900 },
  { upToGrams: 5000, charge: 19_900 },
  { upToGrams: 20_000, charge: 39_900 },
]

const ZONES = [
  {
    name: 'Metro',
    zone: { standardMinDays: 2, standardMaxDays: 3, expressAvailable: true, expressMinDays: 1, expressMaxDays: 1, freeShippingThreshold: 49_900n, cutoffHour: 14, codAvailable: true, codLimit: 5_000_000n, codFee: 4900n },
    pincodes: [
      ['110', 'New Delhi', 'Delhi'],
      ['400', 'Mumbai', 'Maharashtra'],
      ['560', 'Bengaluru', 'Karnataka'],
      ['600', 'Chennai', 'Tamil Nadu'],
      ['700', 'Kolkata', 'West Bengal'],
      ['500', 'Hyderabad', 'Telangana'],
      ['411', 'Pune', 'Maharashtra'],
      ['380', 'Ahmedabad', 'Gujarat'],
      ['122', 'Gurugram', 'Haryana'],
      ['201', 'Noida', 'Uttar Pradesh'],
    ],
  },
  {
    name: 'Tier 2',
    zone: { standardMinDays: 3, standardMaxDays: 5, expressAvailable: false, freeShippingThreshold: 99_900n, cutoffHour: 12, codAvailable: true, codLimit: 2_000_000n, codFee: 5900n },
    pincodes: [
      ['302', 'Jaipur', 'Rajasthan'],
      ['226', 'Lucknow', 'Uttar Pradesh'],
      ['682', 'Kochi', 'Kerala'],
      ['452', 'Indore', 'Madhya Pradesh'],
      ['160', 'Chandigarh', 'Chandigarh'],
      ['751', 'Bhubaneswar', 'Odisha'],
      ['641', 'Coimbatore', 'Tamil Nadu'],
      ['440', 'Nagpur', 'Maharashtra'],
    ],
  },
  {
    name: 'Remote',
    zone: { standardMinDays: 6, standardMaxDays: 10, expressAvailable: false, freeShippingThreshold: null, cutoffHour: 11, codAvailable: false, codLimit: 0n, codFee: 0n },
    pincodes: [
      ['744', 'Port Blair', 'Andaman and Nicobar Islands'],
      ['194', 'Leh', 'Ladakh'],
      ['781', 'Guwahati', 'Assam'],
    ],
  },
  {
    name: 'Not serviceable',
    zone: { serviceable: false, standardMinDays: 0, standardMaxDays: 0, expressAvailable: false, freeShippingThreshold: null, codAvailable: false, codLimit: 0n, codFee: 0n },
    pincodes: [['682555', 'Lakshadweep', 'Lakshadweep']],
  },
] as const

export async function seedDeliveryZones(db: Executor): Promise<boolean> {
  if ((await checkoutRepo.countZones(db)) > 0) return false
  for (const z of ZONES) {
    const id = newId('zon')
    await checkoutRepo.insertZone(
      db,
      { id, name: z.name, standardSlabs: STANDARD, expressSlabs: z.zone.expressAvailable ? EXPRESS : [], ...z.zone },
      z.pincodes.map(([prefix, city, state]) => ({ prefix, zoneId: id, city, state })),
    )
  }
  return true
}
