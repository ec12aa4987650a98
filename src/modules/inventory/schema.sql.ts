// The inventory module's tables (decision 0043, step 5): a catalog's stock locations, the units each
// holds of each variant, the append-only ledger of every move, and which location gave each order
// its units (so a cancellation or a return gives them back there).
import { sql } from 'drizzle-orm'
import { bigint, boolean, check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { catalogs } from '../catalog/schema.sql.ts'
import { gstRegistrations } from '../tax/schema.sql.ts'

/** A place that holds stock: a warehouse, a store, a pickup point. */
export const locations = pgTable(
  'locations',
  {
    id: text('id').primaryKey(),
    catalogId: text('catalog_id')
      .notNull()
      .references(() => catalogs.id),
    name: text('name').notNull(),
    addressLine1: text('address_line1').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    pincode: text('pincode').notNull(),
    /** The GST registration (GSTIN) its goods ship under: in its own state (null: the catalog's seller). */
    registrationId: text('registration_id').references(() => gstRegistrations.id),
    /** The carrier's name for it as a pickup location (Shiprocket's `pickup_location`, Delhivery's warehouse). */
    pickupName: text('pickup_name'),
    isActive: boolean('is_active').notNull().default(true),
    /** Its place among the catalog's locations: the tie-break of allocation. */
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('locations_catalog_idx').on(t.catalogId, t.position)],
)

/** The units of a variant a location holds, not yet given to an order: always the sum of its moves. */
export const inventoryLevels = pgTable(
  'inventory_levels',
  {
    locationId: text('location_id')
      .notNull()
      .references(() => locations.id),
    productId: text('product_id').notNull(),
    /** The variant (a product without options: its default variant, `var_` + the product id's suffix). */
    variantId: text('variant_id').notNull(),
    onHand: integer('on_hand').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.variantId] }), index('inventory_levels_variant_idx').on(t.variantId), check('inventory_levels_on_hand_check', sql`${t.onHand} >= 0`)],
)

export const MOVE_KINDS = ['RECEIVE', 'ADJUST', 'TRANSFER_OUT', 'TRANSFER_IN', 'SALE', 'RELEASE', 'RETURN'] as const
export type MoveKind = (typeof MOVE_KINDS)[number]

/** Every change of a level, never updated or deleted: who moved how many units where, and why. */
export const inventoryMoves = pgTable(
  'inventory_moves',
  {
    id: text('id').primaryKey(),
    /** The ledger's order: every move after the ones written before it. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    catalogId: text('catalog_id').notNull(),
    locationId: text('location_id')
      .notNull()
      .references(() => locations.id),
    productId: text('product_id').notNull(),
    variantId: text('variant_id').notNull(),
    kind: text('kind').$type<MoveKind>().notNull(),
    /** Signed: what the level gained (negative: lost). */
    quantity: integer('quantity').notNull(),
    /** The back-office user (`adm_…`), or `system` for orders and returns. */
    actor: text('actor').notNull(),
    reason: text('reason').notNull(),
    /** The order, return or transfer it belongs to (null: a receipt or an adjustment). */
    reference: text('reference'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('inventory_moves_catalog_idx').on(t.catalogId, t.seq),
    index('inventory_moves_level_idx').on(t.locationId, t.variantId),
    check('inventory_moves_quantity_check', sql`${t.quantity} <> 0`),
  ],
)

/** The units an order took from each location, less those given back since. */
export const inventoryAllocations = pgTable(
  'inventory_allocations',
  {
    orderId: text('order_id').notNull(),
    locationId: text('location_id')
      .notNull()
      .references(() => locations.id),
    productId: text('product_id').notNull(),
    variantId: text('variant_id').notNull(),
    quantity: integer('quantity').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.variantId, t.locationId] }), check('inventory_allocations_quantity_check', sql`${t.quantity} >= 0`)],
)
