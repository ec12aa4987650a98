// Queries of the tax module's tables: rate slabs, sellers, and the documents with their series.
import { and, asc, count, eq, gt, gte, ilike, inArray, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm'
import { type Executor, queryRows } from '../../db/client.ts'
import { containing } from '../../db/like.ts'
import { eventInsertSql, eventsInsertFromSql, type NewEvent } from '../events/index.ts'
import { type DocumentSeries, gstRateSlabs, gstRegistrations, gstSellers, taxDocumentLines, taxDocuments } from './schema.sql.ts'

export type RateSlabRow = typeof gstRateSlabs.$inferSelect
export type RegistrationRow = typeof gstRegistrations.$inferSelect
/** A catalog's seller: its registration, with when the catalog was pointed at it. */
export type SellerRow = RegistrationRow & { catalogId: string; linkedAt: Date; linkUpdatedAt: Date }

export const taxRepo = {
  /** The slabs in force on `day` (YYYY-MM-DD): from <= day < to. */
  slabsInForce(db: Executor, day: string) {
    return db
      .select()
      .from(gstRateSlabs)
      .where(and(lte(gstRateSlabs.effectiveFrom, day), or(isNull(gstRateSlabs.effectiveTo), gt(gstRateSlabs.effectiveTo, day))))
      .orderBy(asc(gstRateSlabs.rateBps), asc(gstRateSlabs.effectiveFrom))
  },
  /** The registration a catalog sells under, or null. */
  async findSeller(db: Executor, catalogId: string): Promise<SellerRow | null> {
    const [row] = await db
      .select({ registration: gstRegistrations, linkedAt: gstSellers.createdAt, linkUpdatedAt: gstSellers.updatedAt })
      .from(gstSellers)
      .innerJoin(gstRegistrations, eq(gstRegistrations.id, gstSellers.registrationId))
      .where(eq(gstSellers.catalogId, catalogId))
      .limit(1)
    return row ? { ...row.registration, catalogId, linkedAt: row.linkedAt, linkUpdatedAt: row.linkUpdatedAt } : null
  },
  /** The registrations of these catalogs (catalog id -> registration), for an order's lines. */
  async registrationsOfCatalogs(db: Executor, catalogIds: string[]): Promise<Map<string, RegistrationRow>> {
    if (catalogIds.length === 0) return new Map()
    const rows = await db
      .select({ catalogId: gstSellers.catalogId, registration: gstRegistrations })
      .from(gstSellers)
      .innerJoin(gstRegistrations, eq(gstRegistrations.id, gstSellers.registrationId))
      .where(inArray(gstSellers.catalogId, catalogIds))
    return new Map(rows.map((r) => [r.catalogId, r.registration]))
  },
  /** Points a catalog at a registration (a later document of the catalog is issued by it; past ones stay). */
  async linkCatalog(db: Executor, catalogId: string, registrationId: string, at: Date) {
    await db
      .insert(gstSellers)
      .values({ catalogId, registrationId, createdAt: at, updatedAt: at })
      .onConflictDoUpdate({ target: gstSellers.catalogId, set: { registrationId, updatedAt: at } })
  },
}

/** GST registrations (decision 0029). */
export const registrationRepo = {
  async find(db: Executor, id: string) {
    const [row] = await db.select().from(gstRegistrations).where(eq(gstRegistrations.id, id)).limit(1)
    return row ?? null
  },
  async findByGstin(db: Executor, gstin: string) {
    const [row] = await db.select().from(gstRegistrations).where(eq(gstRegistrations.gstin, gstin)).limit(1)
    return row ?? null
  },
  /** Inserts a registration; null when its GSTIN is taken (by a concurrent writer too). */
  async insert(db: Executor, row: typeof gstRegistrations.$inferInsert) {
    const [saved] = await db.insert(gstRegistrations).values(row).onConflictDoNothing({ target: gstRegistrations.gstin }).returning()
    return saved ?? null
  },
  async update(db: Executor, id: string, changes: Partial<typeof gstRegistrations.$inferInsert>) {
    const [saved] = await db.update(gstRegistrations).set(changes).where(eq(gstRegistrations.id, id)).returning()
    return saved!
  },
  /** A page of registrations by GSTIN, a search matching part of the GSTIN or of a name. */
  async page(db: Executor, search: string | undefined, page: { limit: number; offset: number }) {
    const where = search ? or(ilike(gstRegistrations.gstin, containing(search)), ilike(gstRegistrations.legalName, containing(search)), ilike(gstRegistrations.tradeName, containing(search))) : undefined
    const [rows, [total]] = await Promise.all([
      db.select().from(gstRegistrations).where(where).orderBy(asc(gstRegistrations.gstin)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(gstRegistrations).where(where),
    ])
    return { rows, total: total!.n }
  },
  /** The catalogs selling under each registration now. */
  async catalogsOf(db: Executor, registrationIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(registrationIds.map((id) => [id, []]))
    if (registrationIds.length === 0) return out
    const rows = await db.select({ catalogId: gstSellers.catalogId, registrationId: gstSellers.registrationId }).from(gstSellers).where(inArray(gstSellers.registrationId, registrationIds)).orderBy(asc(gstSellers.catalogId))
    for (const r of rows) out.get(r.registrationId)!.push(r.catalogId)
    return out
  },
  /** The highest serial issued this financial year in each series (what a shorter prefix must leave room for). */
  async lastSerials(db: Executor, registrationId: string, financialYear: string): Promise<Map<DocumentSeries, number>> {
    const rows = await queryRows<{ series: DocumentSeries; last: number }>(db, sql`select series, last_serial as last from gst_document_series where registration_id = ${registrationId} and financial_year = ${financialYear}`)
    return new Map(rows.map((r) => [r.series, Number(r.last)]))
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
    series: DocumentSeries,
    /** What the number starts with (`IN/26-27/`), and the serial's digits: the number is at most 16 characters. */
    prefix: string,
    width: number,
    row: Omit<typeof taxDocuments.$inferInsert, 'serial' | 'number'>,
    lines: Omit<typeof taxDocumentLines.$inferInsert, 'documentId'>[],
    event: Omit<NewEvent, 'data'> & { data: Record<string, unknown> & { number: string; document: { number: string } } },
  ): Promise<number> {
    // A serial wider than `width` is written whole, so the number's length check refuses it rather than lpad cutting it.
    const number = sql`${prefix} || lpad(s.last_serial::text, greatest(${width}::int, length(s.last_serial::text)), '0')`
    const eventData = sql`(select jsonb_set(jsonb_set(${JSON.stringify(event.data)}::jsonb, '{number}', to_jsonb(${number})), '{document,number}', to_jsonb(${number})) from s)`
    const lineRows = lines.map(
      (l) =>
        sql`(${row.id}, ${l.position}::int, ${l.kind}, ${l.orderItemId ?? null}, ${l.quantity}::int, ${l.gstRateBps}::int, ${String(l.amount)}::bigint, ${String(l.discount)}::bigint, ${String(l.taxableValue)}::bigint, ${String(l.cgst)}::bigint, ${String(l.sgst)}::bigint, ${String(l.igst)}::bigint)`,
    )
    const [result] = await queryRows<{ serial: number }>(
      tx,
      sql`with s as (
            insert into gst_document_series (registration_id, series, financial_year, last_serial) values (${row.registrationId}, ${series}, ${row.financialYear}, 1)
            on conflict (registration_id, series, financial_year) do update set last_serial = gst_document_series.last_serial + 1
            returning last_serial
          ), d as (
            insert into tax_documents (id, type, catalog_id, registration_id, partner_id, eco_gstin, financial_year, serial, number, order_id, invoice_id, return_id, issued_at, issue_date,
                                       place_of_supply_state_code, intra_state, taxable_value, cgst, sgst, igst, total, document)
            select ${row.id}, ${row.type}, ${row.catalogId}, ${row.registrationId}, ${row.partnerId}, ${row.ecoGstin ?? null}, ${row.financialYear}, s.last_serial, ${number}, ${row.orderId}, ${row.invoiceId ?? null}, ${row.returnId ?? null},
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
  /**
   * Stores a tax invoice or bill of supply without its number, with its lines, in one statement: the
   * numberer gives it its serial once the transaction has committed (decision 0045), so an order of
   * a seller never waits for another's commit.
   */
  async insertUnnumbered(tx: Executor, row: Omit<typeof taxDocuments.$inferInsert, 'serial' | 'number'>, lines: Omit<typeof taxDocumentLines.$inferInsert, 'documentId'>[]): Promise<void> {
    const lineRows = lines.map(
      (l) =>
        sql`(${row.id}, ${l.position}::int, ${l.kind}, ${l.orderItemId ?? null}, ${l.quantity}::int, ${l.gstRateBps}::int, ${String(l.amount)}::bigint, ${String(l.discount)}::bigint, ${String(l.taxableValue)}::bigint, ${String(l.cgst)}::bigint, ${String(l.sgst)}::bigint, ${String(l.igst)}::bigint)`,
    )
    await tx.execute(sql`with d as (
        insert into tax_documents (id, type, catalog_id, registration_id, partner_id, eco_gstin, financial_year, order_id, invoice_id, return_id, issued_at, issue_date,
                                   place_of_supply_state_code, intra_state, taxable_value, cgst, sgst, igst, total, document)
        values (${row.id}, ${row.type}, ${row.catalogId}, ${row.registrationId}, ${row.partnerId}, ${row.ecoGstin ?? null}, ${row.financialYear}, ${row.orderId}, ${row.invoiceId ?? null}, ${row.returnId ?? null},
                ${row.issuedAt.toISOString()}::timestamptz, ${row.issueDate}::date, ${row.placeOfSupplyStateCode}, ${row.intraState}, ${String(row.taxableValue)}::bigint,
                ${String(row.cgst)}::bigint, ${String(row.sgst)}::bigint, ${String(row.igst)}::bigint, ${String(row.total)}::bigint, ${JSON.stringify(row.document)}::jsonb)
        returning id
      )
      insert into tax_document_lines (document_id, position, kind, order_item_id, quantity, gst_rate_bps, amount, discount, taxable_value, cgst, sgst, igst)
      values ${sql.join(lineRows, sql`, `)}`)
  },
  /**
   * Numbers documents waiting for their number, oldest first, in one statement (decision 0045):
   * `orderId`'s alone (waiting for a numberer that holds them), or up to `limit` of any, skipping
   * those another numberer holds. Per series (registration, `IN` or `BS`, financial year) the serials
   * are taken at once from its counter row, which moves by the count and stays locked until the
   * statement's transaction ends (series taken in one order: no cycle between two numberers); each
   * number (the registration's prefix as it is now) goes into the row and its JSON, and each document
   * is announced (`events`: the event type of each document type; the event's id is the document's,
   * `doc_` replaced by `evt_`). Returns how many it numbered.
   */
  async numberWaiting(db: Executor, limit: number, events: Record<'TAX_INVOICE' | 'BILL_OF_SUPPLY', string>, orderId?: string): Promise<number> {
    const rows = await queryRows<{ numbered: number }>(
      db,
      sql`with w as (
            select d.id, d.registration_id, d.financial_year, d.issued_at, case d.type when 'TAX_INVOICE' then 'IN' else 'BS' end as series
              from tax_documents d
             where d.serial is null ${orderId === undefined ? sql`` : sql`and d.order_id = ${orderId}`}
             order by d.issued_at, d.id
             limit ${limit}
               for update ${orderId === undefined ? sql`skip locked` : sql``}
          ), g as (
            select registration_id, series, financial_year, count(*)::int as n from w group by 1, 2, 3
          ), c as (
            insert into gst_document_series as s (registration_id, series, financial_year, last_serial)
            select registration_id, series, financial_year, n from g order by 1, 2, 3
            on conflict (registration_id, series, financial_year) do update set last_serial = s.last_serial + excluded.last_serial
            returning registration_id, series, financial_year, last_serial
          ), v as (
            select w.id, c.last_serial - g.n + row_number() over (partition by w.registration_id, w.series, w.financial_year order by w.issued_at, w.id) as serial,
                   case w.series when 'IN' then r.invoice_prefix else r.bill_of_supply_prefix end as prefix, w.financial_year
              from w
              join g using (registration_id, series, financial_year)
              join c using (registration_id, series, financial_year)
              join gst_registrations r on r.id = w.registration_id
          ), n as (
            select id, serial::int as serial,
                   prefix || '/' || substr(financial_year, 3) || '/' || lpad(serial::text, greatest(16 - length(prefix) - 7, length(serial::text)), '0') as number
              from v
          ), d as (
            update tax_documents t set serial = n.serial, number = n.number, document = jsonb_set(t.document, '{number}', to_jsonb(n.number))
              from n where t.id = n.id
            returning t.id, t.partner_id, t.type, t.order_id, t.issued_at, t.number, t.document
          ), e as (
            select 'evt_' || substr(id, 5) as id, partner_id, case type when 'TAX_INVOICE' then ${events.TAX_INVOICE} else ${events.BILL_OF_SUPPLY} end as type, order_id as subject_id,
                   jsonb_build_object('orderId', order_id, 'orderNumber', document->'orderNumber', 'documentId', id, 'gstin', document->'seller'->'gstin',
                                      'number', number, 'total', document->'totals'->'total', 'document', document) as data,
                   issued_at as at
              from d
          ), announced as (${eventsInsertFromSql(sql`e`)} returning 1)
          select count(*)::int as numbered from d`,
    )
    return Number(rows[0]!.numbered)
  },
  /** An order's documents: tax invoices, bills of supply, credit notes, each series in its order. */
  ofOrder(db: Executor, orderId: string) {
    return db.select().from(taxDocuments).where(eq(taxDocuments.orderId, orderId)).orderBy(sql`case ${taxDocuments.type} when 'TAX_INVOICE' then 0 when 'BILL_OF_SUPPLY' then 1 else 2 end`, asc(taxDocuments.issuedAt), asc(taxDocuments.serial))
  },
  linesOf(db: Executor, documentIds: string[]) {
    if (documentIds.length === 0) return Promise.resolve([])
    return db.select().from(taxDocumentLines).where(inArray(taxDocumentLines.documentId, documentIds)).orderBy(asc(taxDocumentLines.documentId), asc(taxDocumentLines.position))
  },
}

/** A sum of document lines for the GST report, by what its tables group on. */
export interface ReportSums {
  type: 'TAX_INVOICE' | 'BILL_OF_SUPPLY' | 'CREDIT_NOTE'
  stateCode: string
  intraState: boolean
  rateBps: number
  /** The sale (the document, or a credit note's) is B2C (large). */
  large: boolean
  ecoGstin: string | null
  hsnCode: string
  /** The first goods description under the HSN code (for Table 12), null for charges alone. */
  description: string | null
  /** Units of goods (charges count none). */
  quantity: number
  taxableValue: bigint
  cgst: bigint
  sgst: bigint
  igst: bigint
}

/**
 * The GSTR-1 figures of a registration for days from..to (India, inclusive). `large` is a SQL
 * condition on `sale` (the invoice: the document itself, or a credit note's invoice) that marks a B2C
 * (large) invoice, reported one by one. A document still waiting for its number (decision 0045) is not issued yet and is left out. A line's HSN code and description are the document's as
 * issued (its JSON, by position).
 */
export const reportRepo = {
  async summed(db: Executor, registrationId: string, from: string, to: string, large: SQL): Promise<ReportSums[]> {
    const shown = sql`d.document->'lines'->(l.position - 1)`
    const rows = await queryRows<Record<string, string | boolean | number | null>>(db, sql`
      select d.type, d.place_of_supply_state_code as "stateCode", d.intra_state as "intraState", l.gst_rate_bps as "rateBps", (${large}) as large,
             d.eco_gstin as "ecoGstin", ${shown}->>'hsnCode' as "hsnCode",
             min(case when l.kind = 'GOODS' then ${shown}->>'description' end) as description,
             sum(case when l.kind = 'GOODS' then l.quantity else 0 end)::int as quantity,
             sum(l.taxable_value)::text as "taxableValue", sum(l.cgst)::text as cgst, sum(l.sgst)::text as sgst, sum(l.igst)::text as igst
        from tax_documents d
        join tax_document_lines l on l.document_id = d.id
        join tax_documents sale on sale.id = coalesce(d.invoice_id, d.id)
       where d.registration_id = ${registrationId} and d.issue_date between ${from} and ${to} and d.serial is not null
       group by 1, 2, 3, 4, 5, 6, 7`)
    return rows.map((r) => ({
      ...(r as unknown as ReportSums),
      rateBps: Number(r.rateBps),
      quantity: Number(r.quantity),
      taxableValue: BigInt(r.taxableValue as string),
      cgst: BigInt(r.cgst as string),
      sgst: BigInt(r.sgst as string),
      igst: BigInt(r.igst as string),
    }))
  },
  /** The taxed lines of large invoices and of their credit notes, per document and rate. */
  async listed(db: Executor, registrationId: string, from: string, to: string, large: SQL) {
    const rows = await queryRows<Record<string, string | number>>(db, sql`
      select d.type, d.number, d.issue_date::text as "issueDate", d.total::text as total, sale.number as "invoiceNumber", sale.issue_date::text as "invoiceDate",
             d.place_of_supply_state_code as "stateCode", l.gst_rate_bps as "rateBps",
             sum(l.taxable_value)::text as "taxableValue", sum(l.igst)::text as igst
        from tax_documents d
        join tax_document_lines l on l.document_id = d.id
        join tax_documents sale on sale.id = coalesce(d.invoice_id, d.id)
       where d.registration_id = ${registrationId} and d.issue_date between ${from} and ${to} and d.serial is not null and (${large}) and l.gst_rate_bps > 0
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
  totals(db: Executor, registrationId: string, from: string, to: string) {
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
      .where(and(eq(taxDocuments.registrationId, registrationId), gte(taxDocuments.issueDate, from), lte(taxDocuments.issueDate, to), isNotNull(taxDocuments.serial)))
      .groupBy(taxDocuments.type)
  },
  /**
   * Each series (type, financial year and the number's prefix) of the documents issued on the days:
   * its first and last number and how many (Table 13).
   */
  async series(db: Executor, registrationId: string, from: string, to: string) {
    const rows = await queryRows<{ type: string; first: string; last: string; count: number }>(db, sql`
      select type, (array_agg(number order by serial, issued_at))[1] as first, (array_agg(number order by serial desc, issued_at desc))[1] as last, count(*)::int as count
        from tax_documents
       where registration_id = ${registrationId} and issue_date between ${from} and ${to} and serial is not null
       group by type, financial_year, substring(number from '^(.*/)')
       order by case type when 'TAX_INVOICE' then 0 when 'BILL_OF_SUPPLY' then 1 else 2 end, min(issued_at)`)
    return rows.map((r) => ({ ...r, type: r.type as 'TAX_INVOICE' | 'BILL_OF_SUPPLY' | 'CREDIT_NOTE', count: Number(r.count) }))
  },
}
