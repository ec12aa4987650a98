import { sql } from 'drizzle-orm'
import { check, date, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { catalogs } from '../catalog/schema.sql.ts'

/**
 * GST rate slabs as data with their dates (decision 0021): a rate in basis points is in force on a
 * day when effective_from <= day < effective_to (null: no end yet). A change of rates is new rows
 * and an end date on the old ones, by migration; nothing in code lists the rates.
 */
export const gstRateSlabs = pgTable(
  'gst_rate_slabs',
  {
    id: text('id').primaryKey(),
    rateBps: integer('rate_bps').notNull(),
    /** Compensation cess on top, where the slab carries one (null: none, or it varies by item). */
    cessBps: integer('cess_bps'),
    label: text('label').notNull(),
    effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
    effectiveTo: date('effective_to', { mode: 'string' }),
  },
  (t) => [
    uniqueIndex('gst_rate_slabs_rate_from_uq').on(t.rateBps, t.effectiveFrom),
    index('gst_rate_slabs_from_idx').on(t.effectiveFrom),
    check('gst_rate_slabs_rate_check', sql`${t.rateBps} between 0 and 10000 and (${t.cessBps} is null or ${t.cessBps} between 0 and 100000)`),
    check('gst_rate_slabs_dates_check', sql`${t.effectiveTo} is null or ${t.effectiveTo} > ${t.effectiveFrom}`),
  ],
)

/** The GST-registered seller of a catalog (decision 0021): who issues its invoices. */
export const gstSellers = pgTable('gst_sellers', {
  catalogId: text('catalog_id')
    .primaryKey()
    .references(() => catalogs.id),
  legalName: text('legal_name').notNull(),
  tradeName: text('trade_name'),
  gstin: text('gstin').notNull(),
  /** The GST state code, the GSTIN's first two digits. */
  stateCode: text('state_code').notNull(),
  addressLine1: text('address_line1').notNull(),
  addressLine2: text('address_line2'),
  city: text('city').notNull(),
  state: text('state').notNull(),
  pincode: text('pincode').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})
