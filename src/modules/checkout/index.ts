// The checkout module: delivery zones and their pincodes, pricing of a cart (quotes and orders),
// coupons and partner pricing settings (tables delivery_zones, zone_pincodes, coupons,
// coupon_redemptions, partner_pricing). What other modules and app.ts use of it is exported here.
import { and, eq, inArray } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { checkoutRepo } from './repo.ts'
import { coupons, deliveryZones, partnerPricing } from './schema.sql.ts'

export { CheckoutService, type DeliveryMethod } from './service.ts'
export { retaxBySupplier } from './cart-tax.ts'
export { CartLines } from './schemas.ts'
export { checkoutRoutes } from './routes.ts'
export { CheckoutAdminService } from './admin-service.ts'
export { checkoutAdminRoutes } from './admin-routes.ts'
export { createCoupon, redeemCoupon, releaseCoupon } from './coupons.ts'
export { stateMismatch, type ZoneOfPincode } from './pincode-state.ts'
export { seedDeliveryZones } from './seed-zones.ts'

export type PartnerPricing = typeof partnerPricing.$inferSelect

/** A partner's pricing settings (points, return window), or undefined when it has none (the defaults apply). */
export async function partnerPricingOf(db: Executor, partnerId: string): Promise<PartnerPricing | undefined> {
  const [row] = await db.select().from(partnerPricing).where(eq(partnerPricing.partnerId, partnerId)).limit(1)
  return row
}

/** The id of a partner's coupon with this (stored, upper-case) code, or null. */
export async function findCouponId(db: Executor, partnerId: string, code: string): Promise<string | null> {
  const [row] = await db.select({ id: coupons.id }).from(coupons).where(and(eq(coupons.partnerId, partnerId), eq(coupons.code, code))).limit(1)
  return row?.id ?? null
}

/** The delivery zone serving a pincode (its longest matching prefix), as `{id, name}`; null when none does. */
export async function zoneOfPincode(db: Executor, pincode: string): Promise<{ id: string; name: string } | null> {
  const found = await checkoutRepo.zoneForPincode(db, pincode)
  return found ? { id: found.zone.id, name: found.zone.name } : null
}

/** The names of delivery zones, by id (an unknown id is left out). */
export async function zoneNames(db: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db.select({ id: deliveryZones.id, name: deliveryZones.name }).from(deliveryZones).where(inArray(deliveryZones.id, ids))
  return new Map(rows.map((r) => [r.id, r.name]))
}
