import { sql } from 'drizzle-orm'
import { bigint, boolean, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

export interface WeightSlab {
  /** Up to this weight (grams, inclusive); the last slab also covers anything heavier. */
  upToGrams: number
  /** Charge in paise. */
  charge: number
}

/**
 * A delivery zone: how a set of pincodes is served. Data the back office edits, not constants.
 * Times are Indian Standard Time.
 */
export const deliveryZones = pgTable('delivery_zones', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  serviceable: boolean('serviceable').notNull().default(true),
  standardSlabs: jsonb('standard_slabs').$type<WeightSlab[]>().notNull(),
  standardMinDays: integer('standard_min_days').notNull(),
  standardMaxDays: integer('standard_max_days').notNull(),
  expressAvailable: boolean('express_available').notNull().default(false),
  expressSlabs: jsonb('express_slabs').$type<WeightSlab[]>().notNull().default([]),
  expressMinDays: integer('express_min_days').notNull().default(1),
  expressMaxDays: integer('express_max_days').notNull().default(1),
  /** Orders at or above this items total ship STANDARD free (paise); null: never free. */
  freeShippingThreshold: bigint('free_shipping_threshold', { mode: 'bigint' }),
  /** Hour of the day (IST) after which an order is dispatched the next working day. */
  cutoffHour: integer('cutoff_hour').notNull().default(14),
  codAvailable: boolean('cod_available').notNull().default(true),
  codLimit: bigint('cod_limit', { mode: 'bigint' }).notNull().default(sql`5000000`),
  codFee: bigint('cod_fee', { mode: 'bigint' }).notNull().default(sql`4900`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Pincode prefixes (1 to 6 digits) mapped to zones; the longest matching prefix wins. */
export const zonePincodes = pgTable('zone_pincodes', {
  prefix: text('prefix').primaryKey(),
  zoneId: text('zone_id')
    .notNull()
    .references(() => deliveryZones.id),
  city: text('city').notNull(),
  state: text('state').notNull(),
})
