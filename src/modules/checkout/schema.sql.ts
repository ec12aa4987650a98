import { sql } from 'drizzle-orm'
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

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

/** Coupons are issued per partner; codes are stored upper-cased and unique within a partner. */
export const coupons = pgTable(
  'coupons',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id').notNull(),
    code: text('code').notNull(),
    kind: text('kind').$type<'PERCENT' | 'FLAT'>().notNull(),
    /** PERCENT: whole percent; FLAT: paise. */
    value: bigint('value', { mode: 'bigint' }).notNull(),
    maxDiscount: bigint('max_discount', { mode: 'bigint' }),
    minOrderValue: bigint('min_order_value', { mode: 'bigint' }).notNull().default(sql`0`),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validUntil: timestamp('valid_until', { withTimezone: true }),
    totalUsageLimit: integer('total_usage_limit'),
    perCustomerLimit: integer('per_customer_limit'),
    usedCount: integer('used_count').notNull().default(0),
    categoryIds: jsonb('category_ids').$type<string[] | null>(),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('coupons_partner_code_uq').on(t.partnerId, t.code)],
)

/** One row per use of a coupon by a customer (written by order creation). */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    id: text('id').primaryKey(),
    couponId: text('coupon_id')
      .notNull()
      .references(() => coupons.id),
    userId: text('user_id').notNull(),
    orderId: text('order_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('coupon_redemptions_coupon_user_idx').on(t.couponId, t.userId)],
)

/** Per-partner settings: Reward Points earn rate and redeem cap, return window, prepaid discount. */
export const partnerPricing = pgTable(
  'partner_pricing',
  {
    partnerId: text('partner_id').primaryKey(),
    rewardEarnPercent: integer('reward_earn_percent').notNull().default(1),
    rewardRedeemCapPercent: integer('reward_redeem_cap_percent').notNull().default(10),
    paisePerPoint: integer('paise_per_point').notNull().default(100),
    /** Days after delivery during which a return may be requested. */
    returnWindowDays: integer('return_window_days').notNull().default(7),
    /** Discount for turning a COD order into a prepaid one (docs/orders.md, "COD to prepaid"): whole percent of the items' paid value. */
    prepaidDiscountPercent: integer('prepaid_discount_percent').notNull().default(0),
    /** The most that discount may be, paise; null: no cap. */
    prepaidDiscountCap: bigint('prepaid_discount_cap', { mode: 'bigint' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('partner_pricing_prepaid_discount_range', sql`${t.prepaidDiscountPercent} between 0 and 50 and (${t.prepaidDiscountCap} is null or ${t.prepaidDiscountCap} >= 0)`)],
)

/**
 * A partner's cash-on-delivery risk rules (issue #25), edited by the back office; null is "no
 * limit", and no row at all is no rule. Values are the merchant's choice: no law sets them.
 * Amounts in paise.
 */
export const partnerCodRules = pgTable(
  'partner_cod_rules',
  {
    partnerId: text('partner_id').primaryKey(),
    /** At most this many COD orders of a customer not yet DELIVERED, CANCELLED or RTO, the new one included. */
    maxOpenCodOrders: integer('max_open_cod_orders'),
    /** The amountPayable of those open COD orders plus the new one's, at most. */
    maxCodValue: bigint('max_cod_value', { mode: 'bigint' }),
    /** COD refused once this many of the customer's orders ended RTO within rtoWindowDays (both or neither). */
    rtoLimit: integer('rto_limit'),
    rtoWindowDays: integer('rto_window_days'),
    /** COD refused once this many of the customer's parcels were refused at the door within refusedWindowDays (both or neither). */
    maxRefusedDeliveries: integer('max_refused_deliveries'),
    refusedWindowDays: integer('refused_window_days'),
    /** A customer with no delivered order may not place a COD order collecting more. */
    firstOrderCap: bigint('first_order_cap', { mode: 'bigint' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'partner_cod_rules_in_range',
      sql`coalesce(${t.maxOpenCodOrders}, 1) >= 1 and coalesce(${t.maxCodValue}, 0) >= 0 and coalesce(${t.rtoLimit}, 1) >= 1 and coalesce(${t.rtoWindowDays}, 1) >= 1 and coalesce(${t.firstOrderCap}, 0) >= 0`,
    ),
    check('partner_cod_rules_rto_pair', sql`(${t.rtoLimit} is null) = (${t.rtoWindowDays} is null)`),
    check(
      'partner_cod_rules_refused_pair',
      sql`(${t.maxRefusedDeliveries} is null) = (${t.refusedWindowDays} is null) and coalesce(${t.maxRefusedDeliveries}, 1) >= 1 and coalesce(${t.refusedWindowDays}, 1) >= 1`,
    ),
  ],
)

/** Pincodes where a partner does not offer cash on delivery (its customers' RTOs, fraud), whatever the zone says. */
export const codBlockedPincodes = pgTable(
  'cod_blocked_pincodes',
  {
    partnerId: text('partner_id').notNull(),
    pincode: text('pincode').notNull(),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.pincode] })],
)
