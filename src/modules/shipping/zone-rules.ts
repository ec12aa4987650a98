// Which carrier, and by which rule its courier, a delivery zone's parcels go with (decision 0030): the
// back office's rule per zone, between the booking's own choice and the deployment's default
// (SHIPPING_COURIER_RULE). Zones are the checkout module's; this module keeps only the rule.
import { asc, eq } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { zoneNames, zoneOfPincode } from '../checkout/index.ts'
import { MANUAL_CARRIER } from './carriers/manual.ts'
import { type CourierRuleName, zoneCourierRules } from './schema.sql.ts'

export type ZoneCourierRuleRow = typeof zoneCourierRules.$inferSelect

export interface ZoneRuleInput {
  carrier: string | null
  courierRule: CourierRuleName | null
}

const view = (row: ZoneCourierRuleRow, zoneName: string | null) => ({
  zoneId: row.zoneId,
  zoneName,
  carrier: row.carrier,
  courierRule: row.courierRule,
  updatedBy: row.updatedBy,
  updatedAt: row.updatedAt.toISOString(),
})

/** Every zone's rule, by zone name (a zone deleted since: its id, last). */
export async function listZoneRules(db: Executor) {
  const rows = await db.select().from(zoneCourierRules).orderBy(asc(zoneCourierRules.zoneId))
  const names = await zoneNames(db, rows.map((r) => r.zoneId))
  return rows.map((r) => view(r, names.get(r.zoneId) ?? null)).sort((a, b) => (a.zoneName ?? '\uffff').localeCompare(b.zoneName ?? '\uffff'))
}

/**
 * Sets a zone's rule (404 for a zone that does not exist; 400 for a carrier this service does not
 * ship with, naming those it does, or for a rule that says nothing).
 */
export async function putZoneRule(db: Executor, zoneId: string, input: ZoneRuleInput, carriers: string[], by: string, at: Date) {
  const name = (await zoneNames(db, [zoneId])).get(zoneId)
  if (name === undefined) throw notFound('Delivery zone')
  const problems: string[] = []
  if (input.carrier !== null && !carriers.includes(input.carrier)) problems.push(`carrier: ${input.carrier} is not a carrier of this service; it ships with ${carriers.join(', ')}`)
  if (input.carrier === MANUAL_CARRIER && input.courierRule !== null) problems.push("courierRule: carrier manual (the merchant's own delivery) has no couriers to choose")
  if (input.carrier === null && input.courierRule === null) problems.push('carrier and courierRule are both null: a rule names one or both (DELETE removes the rule)')
  if (problems.length > 0) throw new AppError('BAD_REQUEST', 'Validation failed', problems)
  const row = { zoneId, carrier: input.carrier, courierRule: input.courierRule, updatedBy: by, updatedAt: at }
  const [saved] = await db.insert(zoneCourierRules).values(row).onConflictDoUpdate({ target: zoneCourierRules.zoneId, set: row }).returning()
  return view(saved!, name)
}

/** Removes a zone's rule, answered as it was: its parcels go by the default again (404 when it had none). */
export async function deleteZoneRule(db: Executor, zoneId: string) {
  const [gone] = await db.delete(zoneCourierRules).where(eq(zoneCourierRules.zoneId, zoneId)).returning()
  if (!gone) throw notFound('Zone rule')
  return view(gone, (await zoneNames(db, [zoneId])).get(zoneId) ?? null)
}

/** The rule of the zone serving a pincode, when the zone has one. */
export async function zoneRuleFor(db: Executor, pincode: string): Promise<(ZoneCourierRuleRow & { zoneName: string }) | null> {
  const zone = await zoneOfPincode(db, pincode)
  if (!zone) return null
  const [row] = await db.select().from(zoneCourierRules).where(eq(zoneCourierRules.zoneId, zone.id))
  return row ? { ...row, zoneName: zone.name } : null
}
