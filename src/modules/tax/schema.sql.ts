import { sql } from 'drizzle-orm'
import { bigint, boolean, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { catalogs } from '../catalog/schema.sql.ts'
import type { TaxDocument } from './document.ts'

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

export type TaxDocumentType = 'TAX_INVOICE' | 'CREDIT_NOTE'
export type TaxDocumentLineKind = 'GOODS' | 'SHIPPING' | 'COD_FEE'

/**
 * The last serial number issued in each series (decision 0022): per seller (catalog), series (`IN`
 * invoices, `CN` credit notes) and financial year. The row is incremented in the transaction that
 * issues the document and stays locked until it commits; a rollback takes the number back, so the
 * series has no gap and no duplicate across processes and nodes.
 */
export const taxDocumentSeries = pgTable(
  'tax_document_series',
  {
    catalogId: text('catalog_id')
      .notNull()
      .references(() => catalogs.id),
    series: text('series').$type<'IN' | 'CN'>().notNull(),
    financialYear: text('financial_year').notNull(),
    lastSerial: integer('last_serial').notNull(),
  },
  (t) => [primaryKey({ columns: [t.catalogId, t.series, t.financialYear] }), check('tax_document_series_serial_check', sql`${t.lastSerial} between 1 and 9999999`)],
)

/** Tax invoices and credit notes as issued: the answered document and the figures the GST report sums. */
export const taxDocuments = pgTable(
  'tax_documents',
  {
    id: text('id').primaryKey(),
    type: text('type').$type<TaxDocumentType>().notNull(),
    /** The seller: the catalog whose GST registration issued it. */
    catalogId: text('catalog_id')
      .notNull()
      .references(() => catalogs.id),
    partnerId: text('partner_id').notNull(),
    financialYear: text('financial_year').notNull(),
    serial: integer('serial').notNull(),
    number: text('number').notNull(),
    orderId: text('order_id').notNull(),
    /** A credit note's invoice. */
    invoiceId: text('invoice_id'),
    /** A credit note for a return: the return. */
    returnId: text('return_id'),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    /** The day of issue in India: what the report's date range and the financial year read. */
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    placeOfSupplyStateCode: text('place_of_supply_state_code').notNull(),
    intraState: boolean('intra_state').notNull(),
    taxableValue: bigint('taxable_value', { mode: 'bigint' }).notNull(),
    cgst: bigint('cgst', { mode: 'bigint' }).notNull(),
    sgst: bigint('sgst', { mode: 'bigint' }).notNull(),
    igst: bigint('igst', { mode: 'bigint' }).notNull(),
    total: bigint('total', { mode: 'bigint' }).notNull(),
    /** The document as answered (TaxDocument), with the seller's and buyer's details of its time. */
    document: jsonb('document').$type<TaxDocument>().notNull(),
  },
  (t) => [
    uniqueIndex('tax_documents_series_uq').on(t.catalogId, t.type, t.financialYear, t.serial),
    uniqueIndex('tax_documents_invoice_per_order_uq').on(t.orderId, t.catalogId).where(sql`type = 'TAX_INVOICE'`),
    index('tax_documents_order_idx').on(t.orderId),
    index('tax_documents_report_idx').on(t.catalogId, t.issueDate),
    check('tax_documents_adds_up', sql`${t.taxableValue} + ${t.cgst} + ${t.sgst} + ${t.igst} = ${t.total} and ${t.taxableValue} >= 0 and ${t.cgst} >= 0 and ${t.sgst} >= 0 and ${t.igst} >= 0`),
    check('tax_documents_credit_note_has_invoice', sql`(${t.type} = 'TAX_INVOICE') = (${t.invoiceId} is null)`),
  ],
)

/** A document's lines: what later credit notes and the report read (the answered lines are in `document`). */
export const taxDocumentLines = pgTable(
  'tax_document_lines',
  {
    documentId: text('document_id')
      .notNull()
      .references(() => taxDocuments.id),
    position: integer('position').notNull(),
    kind: text('kind').$type<TaxDocumentLineKind>().notNull(),
    /** Goods: the order line. */
    orderItemId: text('order_item_id'),
    quantity: integer('quantity').notNull(),
    gstRateBps: integer('gst_rate_bps').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    discount: bigint('discount', { mode: 'bigint' }).notNull(),
    taxableValue: bigint('taxable_value', { mode: 'bigint' }).notNull(),
    cgst: bigint('cgst', { mode: 'bigint' }).notNull(),
    sgst: bigint('sgst', { mode: 'bigint' }).notNull(),
    igst: bigint('igst', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.position] }),
    check('tax_document_lines_adds_up', sql`${t.taxableValue} + ${t.cgst} + ${t.sgst} + ${t.igst} = ${t.amount} - ${t.discount} and ${t.quantity} >= 1`),
  ],
)
