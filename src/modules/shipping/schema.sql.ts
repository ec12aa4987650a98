// The shipping module's own table: which carrier, and by which rule its courier, a delivery zone's
// parcels go with (decision 0030). Zones are the checkout module's; a rule names one by id.
import { sql } from 'drizzle-orm'
import { check, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

export type CourierRuleName = 'RECOMMENDED' | 'CHEAPEST' | 'FASTEST'

export const zoneCourierRules = pgTable(
  'zone_courier_rules',
  {
    /** The checkout module's delivery zone. */
    zoneId: text('zone_id').primaryKey(),
    /** The carrier the zone's parcels are booked with; null: the default carrier (or every carrier, by rate). */
    carrier: text('carrier'),
    /** How the courier is chosen; null: SHIPPING_COURIER_RULE. */
    courierRule: text('courier_rule').$type<CourierRuleName>(),
    updatedBy: text('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check('zone_courier_rules_something', sql`${t.carrier} is not null or ${t.courierRule} is not null`),
    check('zone_courier_rules_rule', sql`${t.courierRule} is null or ${t.courierRule} in ('RECOMMENDED', 'CHEAPEST', 'FASTEST')`),
  ],
)
