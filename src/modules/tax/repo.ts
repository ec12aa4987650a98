// Queries of the tax module's tables: rate slabs, sellers, and the documents with their series.
import { and, asc, desc, eq, gt, gte, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm'
import { type Executor, queryRows } from '../../db/client.ts'
import { eventInsertSql, type NewEvent } from '../events/index.ts'
import { gstRateSlabs, gstSellers, taxDocumentLines, taxDocuments } from './schema.sql.ts'

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
   * Numbers, stores and announces a document in one statement: the series' counter row is incremented (and
   * stays locked until the caller's transaction ends: a concurrent issuer of the series waits, and a
   * rollback gives the number back, so the series is gapless and unique across processes), the
   * document is inserted with `prefix` + the serial padded to 7 digits as its number (also written
   * into `document.number`), its lines, and its event with the number in `data.number` and
   * `data.document.number`. One statement, so the lock is held for the least time: this statement's
   * round trip and the commit. Returns the serial.
   */
  async insertNumbered(
    tx: Executor,
    series: 'IN' | 'CN',
    prefix: string,
    row: Omit<typeof taxDocuments.$inferInsert, 'serial' | 'number'>,
    lines: Omit<typeof taxDocumentLines.$inferInsert, 'documentId'>[],
    event: Omit<NewEvent, 'data'> & { data: Record<string, unknown> & { number: string; document: { number: string } } },
  ): Promise<number> {
    const number = sql`${prefix} || lpad(s.last_serial::text, 7, '0')`
    const eventData = sql`(select jsonb_set(jsonb_set(${JSON.stringify(event.data)}::jsonb, '{number}', to_jsonb(${number})), '{document,number}', to_jsonb(${number})) from s)`
    const lineRows = lines.map(
      (l) =>
        sql`(${row.id}, ${l.position}::int, ${l.kind}, ${l.orderItemId ?? null}, ${l.quantity}::int, ${l.gstRateBps}::int, ${String(l.amount)}::bigint, ${String(l.discount)}::bigint, ${String(l.taxableValue)}::bigint, ${String(l.cgst)}::bigint, ${String(l.sgst)}::bigint, ${String(l.igst)}::bigint)`,
    )
    const [result] = await queryRows<{ serial: number }>(
      tx,
      sql`with s as (
            insert into tax_document_series (catalog_id, series, financial_year, last_serial) values (${row.catalogId}, ${series}, ${row.financialYear}, 1)
            on conflict (catalog_id, series, financial_year) do update set last_serial = tax_document_series.last_serial + 1
            returning last_serial
          ), d as (
            insert into tax_documents (id, type, catalog_id, partner_id, financial_year, serial, number, order_id, invoice_id, return_id, issued_at, issue_date,
                                       place_of_supply_state_code, intra_state, taxable_value, cgst, sgst, igst, total, document)
            select ${row.id}, ${row.type}, ${row.catalogId}, ${row.partnerId}, ${row.financialYear}, s.last_serial, ${number}, ${row.orderId}, ${row.invoiceId ?? null}, ${row.returnId ?? null},
                   ${row.issuedAt.toISOString()}::timestamptz, ${row.issueDate}::date, ${row.placeOfSupplyStateCode}, ${row.intraState}, ${String(row.taxableValue)}::bigint,
                   ${String(row.cgst)}::bigint, ${String(row.sgst)}::bigint, ${String(row.igst)}::bigint, ${String(row.total)}::bigint,
                   jsonb_set(${JSON.stringify(row.document)}::jsonb, '{number}', to_jsonb(${number}))
              from s
            returning serial
          )${lineRows.length > 0 ? sql`, l as (
            insert into tax_document_lines (document_id, position, kind, order_item_id, quantity, gst_rate_bps, amount, discount, taxable_value, cgst, sgst, igst)
            values ${sql.join(lineRows, sql`, `)}
          )` : sql``}, e as (${eventInsertSql(event, eventData)})
          select serial from d`,
    )
    return Number(result!.serial)
  },
  /** An order's documents, invoices first, each series in its order. */
  ofOrder(db: Executor, orderId: string) {
    return db.select().from(taxDocuments).where(eq(taxDocuments.orderId, orderId)).orderBy(desc(taxDocuments.type), asc(taxDocuments.issuedAt), asc(taxDocuments.serial))
  },
  linesOf(db: Executor, documentIds: string[]) {
    if (documentIds.length === 0) return Promise.resolve([])
    return db.select().from(taxDocumentLines).where(inArray(taxDocumentLines.documentId, documentIds)).orderBy(asc(taxDocumentLines.documentId), asc(taxDocumentLines.position))
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
