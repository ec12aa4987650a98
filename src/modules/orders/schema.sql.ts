import { sql } from 'drizzle-orm'
import type { CarrierAddress } from '../shipping/index.ts'
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

export type OrderStatus = 'PENDING_PAYMENT' | 'CONFIRMED' | 'PACKED' | 'SHIPPED' | 'OUT_FOR_DELIVERY' | 'DELIVERED' | 'DELIVERY_FAILED' | 'RTO' | 'CANCELLED'
export type OrderPaymentStatus = 'PENDING' | 'PAID' | 'COD_PENDING' | 'REFUNDED' | 'PARTIALLY_REFUNDED'

/** Where the order goes: the address its parcels are booked to (the shipping module's shape). */
export type ShippingAddress = CarrierAddress

/**
 * Shipping or the COD fee as taxed at the time of sale (decision 0021): at the rate and HSN code of
 * the order's principal supply. Paise as decimal strings (JSON has no bigint).
 */
export interface TaxedChargeRecord {
  kind: 'SHIPPING' | 'COD_FEE'
  hsnCode: string
  gstRateBps: number
  intraState: boolean
  amount: string
  taxableValue: string
  cgst: string
  sgst: string
  igst: string
}

/** Amounts are integer paise; Reward Points are whole points. */
export const orders = pgTable(
  'orders',
  {
    id: text('id').primaryKey(),
    orderNumber: text('order_number').notNull(),
    partnerId: text('partner_id').notNull(),
    userId: text('user_id').notNull(),
    status: text('status').$type<OrderStatus>().notNull(),
    paymentStatus: text('payment_status').$type<OrderPaymentStatus>().notNull(),
    paymentMode: text('payment_mode').$type<'PREPAID' | 'COD'>().notNull(),
    deliveryMethod: text('delivery_method').$type<'STANDARD' | 'EXPRESS'>().notNull(),
    shippingAddress: jsonb('shipping_address').$type<ShippingAddress>().notNull(),
    alternatePhone: text('alternate_phone'),
    paymentReturnUrl: text('payment_return_url'),
    couponId: text('coupon_id'),
    couponCode: text('coupon_code'),
    itemsTotal: bigint('items_total', { mode: 'bigint' }).notNull(),
    mrpTotal: bigint('mrp_total', { mode: 'bigint' }).notNull(),
    couponDiscount: bigint('coupon_discount', { mode: 'bigint' }).notNull(),
    shippingCharge: bigint('shipping_charge', { mode: 'bigint' }).notNull(),
    codFee: bigint('cod_fee', { mode: 'bigint' }).notNull(),
    totalAmount: bigint('total_amount', { mode: 'bigint' }).notNull(),
    rewardPointsUsed: bigint('reward_points_used', { mode: 'bigint' }).notNull(),
    rewardPointsValue: bigint('reward_points_value', { mode: 'bigint' }).notNull(),
    walletCashUsed: bigint('wallet_cash_used', { mode: 'bigint' }).notNull(),
    /**
     * The discount given when a COD order was turned into a prepaid one (docs/orders.md, "COD to
     * prepaid"); 0 otherwise. totalAmount = itemsTotal - couponDiscount - prepaidDiscount + shippingCharge + codFee.
     */
    prepaidDiscount: bigint('prepaid_discount', { mode: 'bigint' }).notNull().default(sql`0`),
    /** What is left to pay to the provider (PREPAID) or on delivery (COD). */
    amountPayable: bigint('amount_payable', { mode: 'bigint' }).notNull(),
    rewardPointsEarned: bigint('reward_points_earned', { mode: 'bigint' }).notNull().default(sql`0`),
    /** A PENDING_PAYMENT order holds its stock until then. */
    reservationExpiresAt: timestamp('reservation_expires_at', { withTimezone: true }),
    /** Set once, when stock, coupon and ledgers are given back: the guard against releasing twice. */
    releasedAt: timestamp('released_at', { withTimezone: true }),
    cancelReason: text('cancel_reason'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    // GST at the time of sale (decision 0021); all null when nothing was taxed (no registered
    // seller, or an order from before GST was computed). Totals are sums of lines and charges.
    placeOfSupplyStateCode: text('place_of_supply_state_code'),
    placeOfSupplyState: text('place_of_supply_state'),
    taxIntraState: boolean('tax_intra_state'),
    taxableValue: bigint('taxable_value', { mode: 'bigint' }),
    cgst: bigint('cgst', { mode: 'bigint' }),
    sgst: bigint('sgst', { mode: 'bigint' }),
    igst: bigint('igst', { mode: 'bigint' }),
    taxCharges: jsonb('tax_charges').$type<TaxedChargeRecord[]>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('orders_order_number_uq').on(t.orderNumber),
    index('orders_customer_idx').on(t.userId, t.createdAt),
    index('orders_partner_idx').on(t.partnerId, t.createdAt),
    // The back office's lists (every partner, newest first; by status; a search by order number or
    // phone) and the dashboard's counts, fast at 100,000s of orders (bench/admin-lists.ts).
    index('orders_created_idx').on(t.createdAt, t.id),
    index('orders_status_created_idx').on(t.status, t.createdAt, t.id),
    index('orders_phone_idx').on(sql`(${t.shippingAddress} ->> 'phone')`),
    // The back office's search (issue #39): a whole alternate phone, and either phone by its last digits
    // (reversed, a prefix lookup: '%43210' cannot use a plain index).
    index('orders_alternate_phone_idx').on(t.alternatePhone).where(sql`alternate_phone is not null`),
    index('orders_phone_reversed_idx').on(sql`reverse(${t.shippingAddress} ->> 'phone') text_pattern_ops`),
    index('orders_alternate_phone_reversed_idx').on(sql`reverse(${t.alternatePhone}) text_pattern_ops`).where(sql`alternate_phone is not null`),
    index('orders_number_trgm_idx').using('gin', sql`${t.orderNumber} gin_trgm_ops`),
    index('orders_reservation_idx').on(t.reservationExpiresAt).where(sql`status = 'PENDING_PAYMENT'`),
    check('orders_amounts_non_negative', sql`${t.totalAmount} >= 0 and ${t.amountPayable} >= 0 and ${t.walletCashUsed} >= 0 and ${t.rewardPointsUsed} >= 0`),
  ],
)

/** Order lines keep a snapshot of the product and of how the order's discounts fell on them. */
export const orderItems = pgTable(
  'order_items',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id),
    productId: text('product_id').notNull(),
    /** The variant sold (decision 0043); a product without options: its default variant's id. */
    variantId: text('variant_id').notNull(),
    /** The variant as sold: its option values joined (`M / Red`) and named; null and none for a product without options. */
    variantTitle: text('variant_title'),
    variantOptions: jsonb('variant_options').$type<{ name: string; value: string }[]>().notNull().default([]),
    /** The product's catalog: whose seller invoices the line (null for lines from before). */
    catalogId: text('catalog_id'),
    name: text('name').notNull(),
    sku: text('sku').notNull(),
    imageUrl: text('image_url'),
    quantity: integer('quantity').notNull(),
    /** Units cancelled before shipping (partial cancellation); the line keeps what was ordered. */
    cancelledQuantity: integer('cancelled_quantity').notNull().default(0),
    /**
     * Units in returns not rejected: the returns module counts them here when a return is asked for
     * and gives them back when it is rejected (`countReturnedUnits`), so the order's answer reads its
     * own table (issue #40).
     */
    returnedQuantity: integer('returned_quantity').notNull().default(0),
    unitPrice: bigint('unit_price', { mode: 'bigint' }).notNull(),
    unitMrp: bigint('unit_mrp', { mode: 'bigint' }).notNull(),
    lineTotal: bigint('line_total', { mode: 'bigint' }).notNull(),
    couponDiscount: bigint('coupon_discount', { mode: 'bigint' }).notNull(),
    rewardPointsDiscount: bigint('reward_points_discount', { mode: 'bigint' }).notNull(),
    /** The line's share of the order's prepaidDiscount (a COD order turned prepaid); paidAmount is net of it. */
    prepaidDiscount: bigint('prepaid_discount', { mode: 'bigint' }).notNull().default(sql`0`),
    paidAmount: bigint('paid_amount', { mode: 'bigint' }).notNull(),
    position: integer('position').notNull(),
    // GST of the line at the time of sale (decision 0021), on line_total - coupon_discount; null
    // when the line was not taxed (no registered seller).
    hsnCode: text('hsn_code'),
    gstRateBps: integer('gst_rate_bps'),
    taxableValue: bigint('taxable_value', { mode: 'bigint' }),
    cgst: bigint('cgst', { mode: 'bigint' }),
    sgst: bigint('sgst', { mode: 'bigint' }),
    igst: bigint('igst', { mode: 'bigint' }),
    /**
     * The GST registration that supplies the line when its units come from a stock location under
     * its own (decision 0043): its invoice's GSTIN and the state that made it CGST + SGST or IGST.
     * Null: the catalog's seller's, as for a catalog without locations.
     */
    gstRegistrationId: text('gst_registration_id'),
  },
  (t) => [
    index('order_items_order_idx').on(t.orderId, t.position),
    check('order_items_quantity_range', sql`${t.quantity} between 1 and 9999`),
    check('order_items_cancelled_range', sql`${t.cancelledQuantity} between 0 and ${t.quantity}`),
    check('order_items_returned_range', sql`${t.returnedQuantity} between 0 and ${t.quantity}`),
    check(
      'order_items_tax_adds_up',
      sql`${t.taxableValue} is null or (${t.taxableValue} >= 0 and ${t.cgst} >= 0 and ${t.sgst} >= 0 and ${t.igst} >= 0 and ${t.taxableValue} + ${t.cgst} + ${t.sgst} + ${t.igst} = ${t.lineTotal} - ${t.couponDiscount})`,
    ),
  ],
)

export const orderStatusHistory = pgTable(
  'order_status_history',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id),
    fromStatus: text('from_status').$type<OrderStatus>(),
    toStatus: text('to_status').$type<OrderStatus>().notNull(),
    /** CUSTOMER, ADMIN:<id>, SYSTEM or PROVIDER:<name>. */
    actor: text('actor').notNull(),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('order_status_history_order_idx').on(t.orderId, t.createdAt)],
)

/**
 * Idempotency records: scoped to partner, customer, route and key. A record is written in the same
 * transaction as the effect it guards, so a rolled-back attempt leaves no record and can be retried.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    partnerId: text('partner_id').notNull(),
    userId: text('user_id').notNull(),
    route: text('route').notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    /** IN_PROGRESS between the order's commit and the stored answer (a provider call in between). */
    state: text('state').$type<'IN_PROGRESS' | 'DONE'>().notNull(),
    resourceId: text('resource_id'),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.userId, t.route, t.key] }), index('idempotency_keys_expiry_idx').on(t.expiresAt)],
)
