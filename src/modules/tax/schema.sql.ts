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

/**
 * A GST registration (decision 0029): one GSTIN, whoever's catalogs sell under it. It owns the document
 * series: invoices, bills of supply and credit notes are numbered per registration and financial year,
 * however many catalogs use it. The state is the GSTIN's (its first two digits).
 */
export const gstRegistrations = pgTable(
  'gst_registrations',
  {
    id: text('id').primaryKey(),
    gstin: text('gstin').notNull(),
    legalName: text('legal_name').notNull(),
    tradeName: text('trade_name'),
    /** The GST state code, the GSTIN's first two digits. */
    stateCode: text('state_code').notNull(),
    addressLine1: text('address_line1').notNull(),
    addressLine2: text('address_line2'),
    city: text('city').notNull(),
    state: text('state').notNull(),
    pincode: text('pincode').notNull(),
    /** What each series' numbers start with: `IN/26-27/0000123`. 1-4 characters, so a number stays within 16. */
    invoicePrefix: text('invoice_prefix').notNull().default('IN'),
    billOfSupplyPrefix: text('bill_of_supply_prefix').notNull().default('BS'),
    creditNotePrefix: text('credit_note_prefix').notNull().default('CN'),
    /** GSTR-1 is filed every month, or every quarter under QRMP. */
    filingFrequency: text('filing_frequency').$type<'MONTHLY' | 'QUARTERLY'>().notNull().default('MONTHLY'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('gst_registrations_gstin_uq').on(t.gstin),
    check('gst_registrations_prefixes_check', sql`${t.invoicePrefix} ~ '^[A-Z0-9-]{1,4}$' and ${t.billOfSupplyPrefix} ~ '^[A-Z0-9-]{1,4}$' and ${t.creditNotePrefix} ~ '^[A-Z0-9-]{1,4}$'`),
    check('gst_registrations_frequency_check', sql`${t.filingFrequency} in ('MONTHLY', 'QUARTERLY')`),
  ],
)

/** The GST registration a catalog sells under (decision 0029); a catalog without a row sells unregistered (no tax). */
export const gstSellers = pgTable('gst_sellers', {
  catalogId: text('catalog_id')
    .primaryKey()
    .references(() => catalogs.id),
  registrationId: text('registration_id')
    .notNull()
    .references(() => gstRegistrations.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * The last serial number issued in each series (decisions 0022, 0029, 0045): per registration, series
 * (`IN` invoices, `BS` bills of supply, `CN` credit notes) and financial year. The row is moved by the
 * transaction that numbers documents (a batch of invoices after their orders commit, or a credit
 * note) and stays locked until it commits; a rollback takes the numbers back, so the series has no
 * gap and no duplicate across catalogs, processes and nodes.
 */
export const gstDocumentSeries = pgTable(
  'gst_document_series',
  {
    registrationId: text('registration_id')
      .notNull()
      .references(() => gstRegistrations.id),
    series: text('series').$type<DocumentSeries>().notNull(),
    financialYear: text('financial_year').notNull(),
    lastSerial: integer('last_serial').notNull(),
  },
  (t) => [primaryKey({ columns: [t.registrationId, t.series, t.financialYear] }), check('gst_document_series_serial_check', sql`${t.lastSerial} between 1 and 9999999`)],
)

export type TaxDocumentType = 'TAX_INVOICE' | 'BILL_OF_SUPPLY' | 'CREDIT_NOTE'
export type DocumentSeries = 'IN' | 'BS' | 'CN'
export type TaxDocumentLineKind = 'GOODS' | 'SHIPPING' | 'COD_FEE'

/** Tax invoices, bills of supply and credit notes as issued: the answered document and the figures the GST report sums. */
export const taxDocuments = pgTable(
  'tax_documents',
  {
    id: text('id').primaryKey(),
    type: text('type').$type<TaxDocumentType>().notNull(),
    /** The catalog whose goods it is for (the seller is the registration). */
    catalogId: text('catalog_id')
      .notNull()
      .references(() => catalogs.id),
    /** The registration that issued it (its GSTIN): a credit note is issued by its invoice's registration. */
    registrationId: text('registration_id')
      .notNull()
      .references(() => gstRegistrations.id),
    partnerId: text('partner_id').notNull(),
    /** The e-commerce operator the sale went through (the partner's GSTIN as operator at the time), for GSTR-1 Table 14. */
    ecoGstin: text('eco_gstin'),
    /**
     * Numbered before registrations existed (migration 0021) under a serial that another catalog of the
     * same GSTIN had also issued: kept as printed on the customer's document, outside the unique index.
     */
    duplicateSerial: boolean('duplicate_serial').notNull().default(false),
    /** Of its issue; a document waiting for its number has its order's, until it is numbered. */
    financialYear: text('financial_year').notNull(),
    /**
     * Null while the document waits for its number: a tax invoice or bill of supply is stored with its
     * order's change and numbered just after it commits, in batches, by the numberer (decision 0045).
     */
    serial: integer('serial'),
    number: text('number'),
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
    uniqueIndex('tax_documents_registration_series_uq').on(t.registrationId, t.type, t.financialYear, t.serial).where(sql`not duplicate_serial`),
    uniqueIndex('tax_documents_sale_per_order_uq').on(t.orderId, t.registrationId, t.type).where(sql`type <> 'CREDIT_NOTE'`),
    index('tax_documents_order_idx').on(t.orderId),
    index('tax_documents_registration_report_idx').on(t.registrationId, t.issueDate),
    index('tax_documents_unnumbered_idx').on(t.issuedAt).where(sql`serial is null`),
    check('tax_documents_numbered_whole', sql`(${t.serial} is null) = (${t.number} is null) and (${t.serial} is not null or ${t.type} <> 'CREDIT_NOTE')`),
    check('tax_documents_number_length', sql`char_length(${t.number}) <= 16`),
    check('tax_documents_adds_up', sql`${t.taxableValue} + ${t.cgst} + ${t.sgst} + ${t.igst} = ${t.total} and ${t.taxableValue} >= 0 and ${t.cgst} >= 0 and ${t.sgst} >= 0 and ${t.igst} >= 0`),
    check('tax_documents_credit_note_reverses_a_sale', sql`(${t.type} = 'CREDIT_NOTE') = (${t.invoiceId} is not null)`),
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
