import { eq, inArray, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { deliveryZones, zonePincodes } from './schema.sql.ts'

export type DeliveryZone = typeof deliveryZones.$inferSelect

export const checkoutRepo = {
  /** The zone of the longest pincode prefix that matches (primary-key lookups of each prefix). */
  async zoneForPincode(db: Executor, pincode: string) {
    const prefixes = Array.from({ length: pincode.length }, (_, i) => pincode.slice(0, i + 1))
    const [row] = await db
      .select({ zone: deliveryZones, prefix: zonePincodes.prefix, city: zonePincodes.city, state: zonePincodes.state })
      .from(zonePincodes)
      .innerJoin(deliveryZones, eq(deliveryZones.id, zonePincodes.zoneId))
      .where(inArray(zonePincodes.prefix, prefixes))
      .orderBy(sql`length(${zonePincodes.prefix}) desc`)
      .limit(1)
    return row ?? null
  },
  async countZones(db: Executor) {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(deliveryZones)
    return row?.n ?? 0
  },
  async insertZone(db: Executor, zone: typeof deliveryZones.$inferInsert, pincodes: (typeof zonePincodes.$inferInsert)[]) {
    await db.insert(deliveryZones).values(zone)
    if (pincodes.length) await db.insert(zonePincodes).values(pincodes)
  },
}
