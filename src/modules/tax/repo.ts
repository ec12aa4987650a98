// Queries of the tax module's tables: rate slabs, sellers, and the documents with their series.
import { and, asc, desc, eq, gt, gte, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm'
import { type Executor, queryRows } from '../../db/client.ts'
import { gstRateSlabs, gstSellers, taxDocumentLines, taxDocuments, taxDocumentSeries } from './schema.sql.ts'

export type RateSlabRow = typeof gstRateSlabs.$inferSelect
export type SellerRow = typeof gstSellers.$inferSelect

export const taxRepo = {
  /** The slabs in force on `day` (YYYY-MM-DD): from <= day < to. */
  slabsInForce(db: Executor, day: string) {
    return db
      .select()
      .from(gstRateSlabs)
      .where(and(lte(gstRateSlabs.effectiveFrom, day), or(isNull(gstRateSlabs.effectiveTo), gt(gstRateSlabs.effectiveTo, day))))
      .orderBy(asc(gstRateSlabs.rateBps), asc(gstRateSlabs.effectiveFrom))
  },
  async findSeller(db: Executor, catalogId: string) {
    const [row] = await db.select().from(gstSellers).where(eq(gstSellers.catalogId, catalogId)).limit(1)
    return row ?? null
  },
  async upsertSeller(db: Executor, row: typeof gstSellers.$inferInsert) {
    const { catalogId: _c, createdAt: _a, ...changes } = row
    const [saved] = await db.insert(gstSellers).values(row).onConflictDoUpdate({ target: gstSellers.catalogId, set: changes }).returning()
    return saved!
  },
}

export type TaxDocumentRow = typeof taxDocuments.$inferSelect
export type TaxDocumentLineRow = typeof taxDocumentLines.$inferSelect

/** Tax invoices, credit notes and their series (decision 0022). */
export const documentRepo = {
  /**
   * The next serial of a series, taken in the caller's transaction: the counter row stays locked
   * until it commits (a concurrent issuer of the same series waits), and a rollback gives the
   * number back. Gapless and unique across processes.
   */
  async nextSerial(tx: Executor, catalogId: string, series: 'IN' | 'CN', financialYear: string): Promise<number> {
    const [row] = await tx
      .insert(taxDocumentSeries)
      .values({ catalogId, series, financialYear, lastSerial: 1 })
      .onConflictDoUpdate({ target: [taxDocumentSeries.catalogId, taxDocumentSeries.series, taxDocumentSeries.financialYear], set: { lastSerial: sql`${taxDocumentSeries.lastSerial} + 1` } })
      .returning({ serial: taxDocumentSeries.lastSerial })
    return row!.serial
  },
  async insert(tx: Executor, row: typeof taxDocuments.$inferInsert, lines: (typeof taxDocumentLines.$inferInsert)[]) {
    await tx.insert(taxDocuments).values(row)
    if (lines.length > 0) await tx.insert(taxDocumentLines).values(lines)
  },
  /** An order's documents, invoices first, each series in its order. */
  ofOrder(db: Executor, orderId: string) {
    return db.select().from(taxDocuments).where(eq(taxDocuments.orderId, orderId)).orderBy(desc(taxDocuments.type), asc(taxDocuments.issuedAt), asc(taxDocuments.serial))
  },
  linesOf(db: Executor, documentIds: string[]) {
    if (documentIds.length === 0) return Promise.resolve([])
    return db.select().from(taxDocumentLines).where(inArray(taxDocumentLines.documentId, documentIds)).orderBy(asc(taxDocumentLines.documentId), asc(taxDocumentLines.position))
  },
  /** A seller's documents issued on days from..to (inclusive, India), with their lines. */
  issuedBetween(db: Executor, catalogId: string, from: string, to: string) {
    return db
      .select()
      .from(taxDocuments)
      .where(and(eq(taxDocuments.catalogId, catalogId), gte(taxDocuments.issueDate, from), lte(taxDocuments.issueDate, to)))
      .orderBy(asc(taxDocuments.issueDate), asc(taxDocuments.type), asc(taxDocuments.serial))
  },
  async byIds(db: Executor, ids: string[]) {
    if (ids.length === 0) return []
    return db.select().from(taxDocuments).where(inArray(taxDocuments.id, ids))
  },
}

/** A sum of document lines for the GST report, grouped as the caller's SQL says. */
export interface ReportSums {
  type: 'TAX_INVOICE' | 'CREDIT_NOTE'
  stateCode: string
  intraState: boolean
  rateBps: number
  taxableValue: bigint
  cgst: bigint
  sgst: bigint
  igst: bigint
}

/**
 * The GSTR-1 B2C figures of a seller for days from..to (India, inclusive). `large` is a SQL condition
 * on `sale` (the invoice: the document itself, or a credit note's invoice) that marks a B2C (large)
 * invoice, reported one by one; every other document is summed by place of supply and rate (B2CS).
 */
export const reportRepo = {
  async summed(db: Executor, catalogId: string, from: string, to: string, large: SQL): Promise<ReportSums[]> {
    const rows = await queryRows<Record<string, string | boolean | number>>(db, sql`
      select d.type, d.place_of_supply_state_code as "stateCode", d.intra_state as "intraState", l.gst_rate_bps as "rateBps",
             sum(l.taxable_value)::text as "taxableValue", sum(l.cgst)::text as cgst, sum(l.sgst)::text as sgst, sum(l.igst)::text as igst
        from tax_documents d
        join tax_document_lines l on l.document_id = d.id
        join tax_documents sale on sale.id = coalesce(d.invoice_id, d.id)
       where d.catalog_id = ${catalogId} and d.issue_date between ${from} and ${to} and not (${large})
       group by 1, 2, 3, 4
       order by 2, 4, 1 desc`)
    return rows.map((r) => ({ ...(r as unknown as ReportSums), taxableValue: BigInt(r.taxableValue as string), cgst: BigInt(r.cgst as string), sgst: BigInt(r.sgst as string), igst: BigInt(r.igst as string), rateBps: Number(r.rateBps) }))
  },
  /** The large invoices and their credit notes, per document and rate. */
  async listed(db: Executor, catalogId: string, from: string, to: string, large: SQL) {
    const rows = await queryRows<Record<string, string | number>>(db, sql`
      select d.type, d.number, d.issue_date::text as "issueDate", d.total::text as total, sale.number as "invoiceNumber", sale.issue_date::text as "invoiceDate",
             d.place_of_supply_state_code as "stateCode", l.gst_rate_bps as "rateBps",
             sum(l.taxable_value)::text as "taxableValue", sum(l.igst)::text as igst
        from tax_documents d
        join tax_document_lines l on l.document_id = d.id
        join tax_documents sale on sale.id = coalesce(d.invoice_id, d.id)
       where d.catalog_id = ${catalogId} and d.issue_date between ${from} and ${to} and (${large})
       group by d.id, sale.id, l.gst_rate_bps
       order by d.type desc, d.issue_date, d.serial, l.gst_rate_bps`)
    return rows.map((r) => ({
      type: r.type as 'TAX_INVOICE' | 'CREDIT_NOTE',
      number: r.number as string,
      issueDate: r.issueDate as string,
      total: BigInt(r.total as string),
      invoiceNumber: r.invoiceNumber as string,
      invoiceDate: r.invoiceDate as string,
      stateCode: r.stateCode as string,
      rateBps: Number(r.rateBps),
      taxableValue: BigInt(r.taxableValue as string),
      igst: BigInt(r.igst as string),
    }))
  },
  /** Count and totals of each type of document issued on the days. */
  totals(db: Executor, catalogId: string, from: string, to: string) {
    return db
      .select({
        type: taxDocuments.type,
        count: sql<number>`count(*)::int`,
        taxableValue: sql<string>`coalesce(sum(${taxDocuments.taxableValue}), 0)::text`,
        cgst: sql<string>`coalesce(sum(${taxDocuments.cgst}), 0)::text`,
        sgst: sql<string>`coalesce(sum(${taxDocuments.sgst}), 0)::text`,
        igst: sql<string>`coalesce(sum(${taxDocuments.igst}), 0)::text`,
        total: sql<string>`coalesce(sum(${taxDocuments.total}), 0)::text`,
      })
      .from(taxDocuments)
      .where(and(eq(taxDocuments.catalogId, catalogId), gte(taxDocuments.issueDate, from), lte(taxDocuments.issueDate, to)))
      .groupBy(taxDocuments.type)
  },
}
