// GSTR-1 of one GST registration (GSTIN) for a return period (decisions 0022, 0029), from the documents
// that registration issued on its days (India). Every buyer here is unregistered (B2C), so:
//   b2cs      Table 7: taxed lines summed by place of supply, supply type and rate, credit notes
//             netted off (except those of B2CL invoices);
//   b2cl      Table 5: inter-state invoices above the B2C (large) limit of their date, one by one;
//   cdnur     Table 9B: credit notes against those invoices, one by one;
//   nil       Table 8: nil-rated lines (bills of supply, and 0 % lines of older invoices), less their
//             credit notes, by intra- and inter-state;
//   hsn       Table 12: by HSN code and rate, quantity and values, credit notes netted off (all B2C);
//   docIssue  Table 13: each series' first and last number, count and cancelled (none: a document is
//             never cancelled here, a credit note reverses it);
//   supeco    Table 14(a): taxable sales made through e-commerce operators that collect the payment
//             (TCS), by the operator's GSTIN (the partner's, recorded on each document when it was
//             issued); nil-rated goods are exempt supplies and collect no TCS.
// So the period's net sales = b2cs + b2cl + nil - cdnur, to the paisa (tested).
// `gstr1PortalJson` writes the same figures as the GST portal's offline tool imports them.
import { type SQL, sql } from 'drizzle-orm'
import { stringify } from 'csv-stringify/sync'
import type { Executor } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { GST_STATE_CODES } from '../../lib/gstin.ts'
import { formatPaise as rupees } from '../../lib/money.ts'
import { GST_BEGAN } from './calendar.ts'
import { reportRepo, type RegistrationRow } from './repo.ts'

/**
 * The B2C (large) limit by the invoice's date: an inter-state invoice to an unregistered buyer above
 * it is reported invoice by invoice. Data with dates, newest last: ₹2,50,000 until 31 July 2024,
 * ₹1,00,000 from 1 August 2024 (Notification 12/2024-Central Tax). A change is a new row.
 */
export const B2CL_LIMITS: readonly { from: string; abovePaise: bigint }[] = [
  { from: '2017-07-01', abovePaise: 2_50_000_00n },
  { from: '2024-08-01', abovePaise: 1_00_000_00n },
]

/**
 * Table 12 is split into B2B and B2C parts for return periods from May 2025 (the portal's JSON then
 * has `hsn.hsn_b2b` and `hsn.hsn_b2c` instead of `hsn.data`). Dated data.
 */
export const HSN_SPLIT_FROM = '2025-05-01'

/** The offline tool's file version this JSON follows (decision 0029 says what is and is not confirmed). */
export const PORTAL_JSON_VERSION = 'GST3.2.4'

/** A return period: `fp` (MMYYYY) and its days; `fp` null for a free date range (the catalog report). */
export interface ReturnPeriod {
  fp: string | null
  from: string
  to: string
}

/**
 * `fp` checked: MMYYYY; for a quarterly (QRMP) filer the last month of a quarter (03, 06, 09, 12), the
 * portal's period of a quarterly return; not before July 2017 (GST began); not a period that has not
 * begun by today in India (the current one is given as it stands).
 */
export function checkReturnPeriod(fp: string, frequency: 'MONTHLY' | 'QUARTERLY', today: string): ReturnPeriod {
  const m = /^(0[1-9]|1[0-2])(\d{4})$/.exec(fp)
  if (!m) throw new AppError('BAD_REQUEST', 'fp must be the return period as MMYYYY, such as 112026')
  const month = Number(m[1])
  const year = Number(m[2])
  if (frequency === 'QUARTERLY' && month % 3 !== 0) throw new AppError('BAD_REQUEST', `fp ${fp}: a quarterly (QRMP) filer's period is the quarter's last month: 03, 06, 09 or 12`)
  const firstMonth = frequency === 'QUARTERLY' ? month - 2 : month
  const pad = (n: number) => String(n).padStart(2, '0')
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate()
  const to = `${year}-${pad(month)}-${pad(lastDay)}`
  if (to < GST_BEGAN) throw new AppError('BAD_REQUEST', `fp ${fp} is before July 2017, when GST began`)
  const from = `${year}-${pad(firstMonth)}-01`
  if (from.slice(0, 7) > today.slice(0, 7)) throw new AppError('BAD_REQUEST', `fp ${fp} is in the future`)
  return { fp, from: from < GST_BEGAN ? GST_BEGAN : from, to }
}

/** SQL: the invoice `sale` (a table alias) is B2C (large) by the limit of its own date. */
function largeCondition(): SQL {
  const cases = [...B2CL_LIMITS].reverse().map((l) => sql`when sale.issue_date >= ${l.from}::date then sale.total > ${l.abovePaise.toString()}::bigint`)
  return sql`(not sale.intra_state and case ${sql.join(cases, sql` `)} else false end)`
}

const stateName = (code: string) => GST_STATE_CODES[code] ?? code
const placeOf = (code: string) => ({ stateCode: code, state: stateName(code), label: `${code}-${stateName(code)}` })
const rateOf = (bps: number) => `${bps / 100}%`
const supplyType = (intraState: boolean) => (intraState ? ('INTRA_STATE' as const) : ('INTER_STATE' as const))

interface Money4 {
  taxableValue: bigint
  cgst: bigint
  sgst: bigint
  igst: bigint
}
const zero = (): Money4 => ({ taxableValue: 0n, cgst: 0n, sgst: 0n, igst: 0n })
function addTo(into: Money4, from: Money4, sign: bigint) {
  into.taxableValue += sign * from.taxableValue
  into.cgst += sign * from.cgst
  into.sgst += sign * from.sgst
  into.igst += sign * from.igst
}
const moneyOf = (t: Money4) => ({ taxableValue: rupees(t.taxableValue), cgst: rupees(t.cgst), sgst: rupees(t.sgst), igst: rupees(t.igst) })
/** Rows grouped by a key, in first-seen order (Map.groupBy needs Node 21). */
function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>()
  for (const row of rows) entry(groups, key(row), () => []).push(row)
  return groups
}
/** Map get-or-create. */
function entry<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key)
  if (v === undefined) map.set(key, (v = make()))
  return v
}

export async function gstr1Report(db: Executor, registration: RegistrationRow & { catalogId?: string }, period: ReturnPeriod) {
  const { from, to } = period
  const large = largeCondition()
  const [sums, listed, totals, series] = await Promise.all([
    reportRepo.summed(db, registration.id, from, to, large),
    reportRepo.listed(db, registration.id, from, to, large),
    reportRepo.totals(db, registration.id, from, to),
    reportRepo.series(db, registration.id, from, to),
  ])

  const b2cs = new Map<string, Money4 & { stateCode: string; intraState: boolean; rateBps: number }>()
  const nil = new Map<boolean, bigint>()
  const hsn = new Map<string, Money4 & { hsnCode: string; rateBps: number; quantity: number; description: string | null }>()
  const eco = new Map<string, Money4>()
  for (const s of sums) {
    const sign = s.type === 'CREDIT_NOTE' ? -1n : 1n
    if (s.rateBps === 0) nil.set(s.intraState, (nil.get(s.intraState) ?? 0n) + sign * s.taxableValue)
    else if (!s.large) addTo(entry(b2cs, `${s.stateCode}|${s.intraState}|${s.rateBps}`, () => ({ stateCode: s.stateCode, intraState: s.intraState, rateBps: s.rateBps, ...zero() })), s, sign)
    const row = entry(hsn, `${s.hsnCode}|${s.rateBps}`, () => ({ hsnCode: s.hsnCode, rateBps: s.rateBps, quantity: 0, description: null, ...zero() }))
    addTo(row, s, sign)
    row.quantity += Number(sign) * s.quantity
    if (s.description !== null && (row.description === null || s.description < row.description)) row.description = s.description
    // TCS is collected on taxable supplies: nil-rated goods (exempt supplies) are not in Table 14.
    if (s.ecoGstin !== null && s.rateBps > 0) addTo(entry(eco, s.ecoGstin, zero), s, sign)
  }

  const sumsOf = (type: string) => {
    const t = totals.find((r) => r.type === type)
    return { count: t?.count ?? 0, taxableValue: BigInt(t?.taxableValue ?? 0), cgst: BigInt(t?.cgst ?? 0), sgst: BigInt(t?.sgst ?? 0), igst: BigInt(t?.igst ?? 0), total: BigInt(t?.total ?? 0) }
  }
  const invoices = sumsOf('TAX_INVOICE')
  const bills = sumsOf('BILL_OF_SUPPLY')
  const notes = sumsOf('CREDIT_NOTE')
  const withTotal = (t: typeof invoices) => ({ count: t.count, ...moneyOf(t), total: rupees(t.total) })
  const net = {
    count: invoices.count + bills.count + notes.count,
    taxableValue: invoices.taxableValue + bills.taxableValue - notes.taxableValue,
    cgst: invoices.cgst + bills.cgst - notes.cgst,
    sgst: invoices.sgst + bills.sgst - notes.sgst,
    igst: invoices.igst + bills.igst - notes.igst,
    total: invoices.total + bills.total - notes.total,
  }
  const listedRow = (l: (typeof listed)[number]) => ({
    number: l.number,
    date: l.issueDate,
    value: rupees(l.total),
    placeOfSupply: placeOf(l.stateCode),
    rateBps: l.rateBps,
    rate: rateOf(l.rateBps),
    taxableValue: rupees(l.taxableValue),
    igst: rupees(l.igst),
  })
  const docSeries = (types: string[]) =>
    series
      .filter((s) => types.includes(s.type))
      .map((s) => ({ documentType: s.type, from: s.first, to: s.last, total: s.count, cancelled: 0, netIssued: s.count }))
  return {
    gstin: registration.gstin,
    legalName: registration.legalName,
    catalogId: registration.catalogId ?? null,
    fp: period.fp,
    from,
    to,
    b2cs: [...b2cs.values()]
      .sort((a, b) => a.stateCode.localeCompare(b.stateCode) || a.rateBps - b.rateBps || Number(b.intraState) - Number(a.intraState))
      .map((r) => ({ type: 'OE' as const, placeOfSupply: placeOf(r.stateCode), supplyType: supplyType(r.intraState), rateBps: r.rateBps, rate: rateOf(r.rateBps), ...moneyOf(r), cess: '0.00' })),
    b2cl: listed.filter((l) => l.type === 'TAX_INVOICE').map(listedRow),
    cdnur: listed.filter((l) => l.type === 'CREDIT_NOTE').map((l) => ({ ...listedRow(l), invoiceNumber: l.invoiceNumber, invoiceDate: l.invoiceDate })),
    nil: [true, false]
      .filter((intra) => nil.has(intra))
      .map((intra) => ({ supplyType: supplyType(intra), nilRated: rupees(nil.get(intra)!), exempted: '0.00', nonGst: '0.00' })),
    hsn: {
      b2b: [] as never[],
      b2c: [...hsn.values()]
        .sort((a, b) => a.hsnCode.localeCompare(b.hsnCode) || a.rateBps - b.rateBps)
        .map((r) => ({ hsnCode: r.hsnCode, description: (r.description ?? '').slice(0, 30), uqc: uqcOf(r.hsnCode), quantity: uqcOf(r.hsnCode) === 'NA' ? 0 : r.quantity, rateBps: r.rateBps, rate: rateOf(r.rateBps), ...moneyOf(r), cess: '0.00' })),
    },
    documentsIssued: [
      { docNum: 1, nature: 'Invoices for outward supply', series: docSeries(['TAX_INVOICE', 'BILL_OF_SUPPLY']) },
      { docNum: 5, nature: 'Credit Note', series: docSeries(['CREDIT_NOTE']) },
    ].filter((d) => d.series.length > 0),
    ecoSupplies: [...eco.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([ecoGstin, m]) => ({ ecoGstin, netValue: rupees(m.taxableValue), igst: rupees(m.igst), cgst: rupees(m.cgst), sgst: rupees(m.sgst), cess: '0.00' })),
    totals: { invoices: withTotal(invoices), billsOfSupply: withTotal(bills), creditNotes: withTotal(notes), net: withTotal(net) },
  }
}

/** Goods are counted in numbers (products carry no unit yet); a SAC (services, 99…) has none. */
const uqcOf = (hsnCode: string) => (hsnCode.startsWith('99') ? 'NA' : 'NOS')

export type Gstr1Report = Awaited<ReturnType<typeof gstr1Report>>

/** Rupees as the portal's JSON wants them: a number with at most two decimals. */
const amount = (rupeeString: string) => Number(rupeeString)
/** A row's rate and figures under the portal's keys (no cess is charged here). */
const portalAmounts = (r: { rateBps: number; taxableValue: string; igst: string; cgst: string; sgst: string }) => ({
  rt: r.rateBps / 100,
  txval: amount(r.taxableValue),
  iamt: amount(r.igst),
  camt: amount(r.cgst),
  samt: amount(r.sgst),
  csamt: 0,
})
/** `2026-11-23` -> `23-11-2026`. */
const portalDate = (day: string) => `${day.slice(8, 10)}-${day.slice(5, 7)}-${day.slice(0, 4)}`

/**
 * The report as the GST portal's offline tool imports it: `gstin`, `fp`, then the tables under their
 * portal keys, empty tables left out. Amounts are numbers in rupees; dates dd-mm-yyyy; credit notes
 * in positive figures (their type says they reduce). Only for a return period (`fp`).
 */
export function gstr1PortalJson(report: Gstr1Report & { fp: string }) {
  const file: Record<string, unknown> = { gstin: report.gstin, fp: report.fp, version: PORTAL_JSON_VERSION, hash: 'hash' }
  if (report.b2cs.length > 0) {
    file.b2cs = report.b2cs.map((r) => ({ sply_ty: r.supplyType === 'INTRA_STATE' ? 'INTRA' : 'INTER', pos: r.placeOfSupply.stateCode, typ: 'OE', ...portalAmounts(r) }))
  }
  const items = (rows: Gstr1Report['b2cl']) => rows.map((r, i) => ({ num: i + 1, itm_det: { rt: r.rateBps / 100, txval: amount(r.taxableValue), iamt: amount(r.igst), csamt: 0 } }))
  const byNumber = <T extends Gstr1Report['b2cl'][number]>(rows: T[]) => [...groupBy(rows, (r) => r.number).values()]
  if (report.b2cl.length > 0) {
    const byPlace = groupBy(byNumber(report.b2cl), (rows) => rows[0]!.placeOfSupply.stateCode)
    file.b2cl = [...byPlace.entries()].map(([pos, invoices]) => ({
      pos,
      inv: invoices.map((rows) => ({ inum: rows[0]!.number, idt: portalDate(rows[0]!.date), val: amount(rows[0]!.value), itms: items(rows) })),
    }))
  }
  if (report.cdnur.length > 0) {
    file.cdnur = byNumber(report.cdnur).map((rows) => ({ typ: 'B2CL', ntty: 'C', nt_num: rows[0]!.number, nt_dt: portalDate(rows[0]!.date), val: amount(rows[0]!.value), pos: rows[0]!.placeOfSupply.stateCode, itms: items(rows) }))
  }
  if (report.nil.length > 0) {
    file.nil = { inv: report.nil.map((r) => ({ sply_ty: r.supplyType === 'INTRA_STATE' ? 'INTRAB2C' : 'INTRB2C', nil_amt: amount(r.nilRated), expt_amt: 0, ngsup_amt: 0 })) }
  }
  if (report.hsn.b2c.length > 0) {
    const rows = report.hsn.b2c.map((r, i) => ({ num: i + 1, hsn_sc: r.hsnCode, desc: r.description, uqc: r.uqc, qty: r.quantity, ...portalAmounts(r) }))
    file.hsn = report.from >= HSN_SPLIT_FROM ? { hsn_b2b: [], hsn_b2c: rows } : { data: rows }
  }
  if (report.documentsIssued.length > 0) {
    file.doc_issue = {
      doc_det: report.documentsIssued.map((d) => ({
        doc_num: d.docNum,
        doc_typ: d.nature,
        docs: d.series.map((s, i) => ({ num: i + 1, from: s.from, to: s.to, totnum: s.total, cancel: s.cancelled, net_issue: s.netIssued })),
      })),
    }
  }
  if (report.ecoSupplies.length > 0) {
    file.supeco = { clttx: report.ecoSupplies.map((e) => ({ etin: e.ecoGstin, suppval: amount(e.netValue), igst: amount(e.igst), cgst: amount(e.cgst), sgst: amount(e.sgst), cess: 0 })) }
  }
  return file
}

/** The report as one CSV table: a `section` column (B2CS, B2CL, CDNUR, NIL, HSN, DOCS, ECO, TOTAL) and the figures. */
export function gstr1Csv(report: Gstr1Report): string {
  const columns = [
    'section', 'place_of_supply', 'supply_type', 'rate', 'taxable_value', 'cgst', 'sgst', 'igst', 'cess', 'document_number', 'document_date', 'document_value',
    'invoice_number', 'invoice_date', 'hsn', 'description', 'uqc', 'quantity', 'eco_gstin', 'series_from', 'series_to', 'total_documents', 'cancelled',
  ] as const
  const rows: Partial<Record<(typeof columns)[number], string | number>>[] = []
  for (const r of report.b2cs) rows.push({ section: 'B2CS', place_of_supply: r.placeOfSupply.label, supply_type: r.supplyType, rate: r.rate, taxable_value: r.taxableValue, cgst: r.cgst, sgst: r.sgst, igst: r.igst, cess: r.cess })
  for (const r of report.b2cl) rows.push({ section: 'B2CL', place_of_supply: r.placeOfSupply.label, supply_type: 'INTER_STATE', rate: r.rate, taxable_value: r.taxableValue, cgst: '0.00', sgst: '0.00', igst: r.igst, cess: '0.00', document_number: r.number, document_date: r.date, document_value: r.value })
  for (const r of report.cdnur) {
    rows.push({ section: 'CDNUR', place_of_supply: r.placeOfSupply.label, supply_type: 'INTER_STATE', rate: r.rate, taxable_value: r.taxableValue, cgst: '0.00', sgst: '0.00', igst: r.igst, cess: '0.00', document_number: r.number, document_date: r.date, document_value: r.value, invoice_number: r.invoiceNumber, invoice_date: r.invoiceDate })
  }
  for (const r of report.nil) rows.push({ section: 'NIL', supply_type: r.supplyType, rate: '0%', taxable_value: r.nilRated })
  for (const r of report.hsn.b2c) rows.push({ section: 'HSN', rate: r.rate, taxable_value: r.taxableValue, cgst: r.cgst, sgst: r.sgst, igst: r.igst, cess: r.cess, hsn: r.hsnCode, description: r.description, uqc: r.uqc, quantity: r.quantity })
  for (const d of report.documentsIssued) for (const s of d.series) rows.push({ section: 'DOCS', description: d.nature, series_from: s.from, series_to: s.to, total_documents: s.total, cancelled: s.cancelled })
  for (const e of report.ecoSupplies) rows.push({ section: 'ECO', taxable_value: e.netValue, cgst: e.cgst, sgst: e.sgst, igst: e.igst, cess: e.cess, eco_gstin: e.ecoGstin })
  const n = report.totals.net
  rows.push({ section: 'TOTAL', taxable_value: n.taxableValue, cgst: n.cgst, sgst: n.sgst, igst: n.igst, cess: '0.00', document_value: n.total })
  return stringify(rows, { header: true, columns: [...columns] })
}
