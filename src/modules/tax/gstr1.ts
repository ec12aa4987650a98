// The GST report of a seller for a date range (decision 0022), shaped like the B2C parts of GSTR-1
// that an accountant files. Every buyer here is unregistered (no buyer GSTIN is taken), so:
//   B2CL   inter-state invoices above the B2C (large) limit, one by one (with their rates);
//   CDNUR  credit notes against those invoices, one by one;
//   B2CS   everything else summed by place of supply, supply type and rate, credit notes netted off.
// Documents count on their day of issue in India. The totals are the sums of the invoices less the
// credit notes of the range, and equal B2CS + B2CL - CDNUR.
import { type SQL, sql } from 'drizzle-orm'
import { stringify } from 'csv-stringify/sync'
import type { Executor } from '../../db/client.ts'
import { GST_STATE_CODES } from '../../lib/gstin.ts'
import { formatPaise as rupees } from '../../lib/money.ts'
import { reportRepo } from './repo.ts'

/**
 * The B2C (large) limit by the invoice's date: an inter-state invoice to an unregistered buyer above
 * it is reported invoice by invoice. Data with dates, newest last: ₹2,50,000 until 31 July 2024,
 * ₹1,00,000 from 1 August 2024 (Notification 12/2024-Central Tax). A change is a new row.
 */
export const B2CL_LIMITS: readonly { from: string; abovePaise: bigint }[] = [
  { from: '2017-07-01', abovePaise: 2_50_000_00n },
  { from: '2024-08-01', abovePaise: 1_00_000_00n },
]

/** SQL: the invoice `sale` (a table alias) is B2C (large) by the limit of its own date. */
function largeCondition(): SQL {
  const cases = [...B2CL_LIMITS].reverse().map((l) => sql`when sale.issue_date >= ${l.from}::date then sale.total > ${l.abovePaise.toString()}::bigint`)
  return sql`(not sale.intra_state and case ${sql.join(cases, sql` `)} else false end)`
}

const stateName = (code: string) => GST_STATE_CODES[code] ?? code
const placeOf = (code: string) => ({ stateCode: code, state: stateName(code), label: `${code}-${stateName(code)}` })
const rateOf = (bps: number) => `${bps / 100}%`

export async function gstr1Report(db: Executor, catalogId: string, from: string, to: string) {
  const large = largeCondition()
  const [summed, listed, totals] = await Promise.all([reportRepo.summed(db, catalogId, from, to, large), reportRepo.listed(db, catalogId, from, to, large), reportRepo.totals(db, catalogId, from, to)])

  // B2CS: invoices less credit notes, by place of supply, supply type and rate.
  const b2cs = new Map<string, { stateCode: string; intraState: boolean; rateBps: number; taxableValue: bigint; cgst: bigint; sgst: bigint; igst: bigint }>()
  for (const s of summed) {
    const key = `${s.stateCode}|${s.intraState}|${s.rateBps}`
    const row = b2cs.get(key) ?? { stateCode: s.stateCode, intraState: s.intraState, rateBps: s.rateBps, taxableValue: 0n, cgst: 0n, sgst: 0n, igst: 0n }
    const sign = s.type === 'CREDIT_NOTE' ? -1n : 1n
    row.taxableValue += sign * s.taxableValue
    row.cgst += sign * s.cgst
    row.sgst += sign * s.sgst
    row.igst += sign * s.igst
    b2cs.set(key, row)
  }
  const byType = (type: string) => totals.find((t) => t.type === type)
  const sums = (type: string) => {
    const t = byType(type)
    return { count: t?.count ?? 0, taxableValue: BigInt(t?.taxableValue ?? 0), cgst: BigInt(t?.cgst ?? 0), sgst: BigInt(t?.sgst ?? 0), igst: BigInt(t?.igst ?? 0), total: BigInt(t?.total ?? 0) }
  }
  const invoices = sums('TAX_INVOICE')
  const notes = sums('CREDIT_NOTE')
  const money = (t: typeof invoices) => ({ taxableValue: rupees(t.taxableValue), cgst: rupees(t.cgst), sgst: rupees(t.sgst), igst: rupees(t.igst), total: rupees(t.total) })
  const net = {
    count: invoices.count + notes.count,
    taxableValue: invoices.taxableValue - notes.taxableValue,
    cgst: invoices.cgst - notes.cgst,
    sgst: invoices.sgst - notes.sgst,
    igst: invoices.igst - notes.igst,
    total: invoices.total - notes.total,
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
  return {
    catalogId,
    from,
    to,
    b2cs: [...b2cs.values()].map((r) => ({
      type: 'OE' as const,
      placeOfSupply: placeOf(r.stateCode),
      supplyType: r.intraState ? ('INTRA_STATE' as const) : ('INTER_STATE' as const),
      rateBps: r.rateBps,
      rate: rateOf(r.rateBps),
      taxableValue: rupees(r.taxableValue),
      cgst: rupees(r.cgst),
      sgst: rupees(r.sgst),
      igst: rupees(r.igst),
      cess: '0.00',
    })),
    b2cl: listed.filter((l) => l.type === 'TAX_INVOICE').map(listedRow),
    cdnur: listed.filter((l) => l.type === 'CREDIT_NOTE').map((l) => ({ ...listedRow(l), invoiceNumber: l.invoiceNumber, invoiceDate: l.invoiceDate })),
    totals: { invoices: { count: invoices.count, ...money(invoices) }, creditNotes: { count: notes.count, ...money(notes) }, net: { count: net.count, ...money(net) } },
  }
}

export type Gstr1Report = Awaited<ReturnType<typeof gstr1Report>>

/** The report as one CSV table: a `section` column (B2CS, B2CL, CDNUR, TOTAL) and the figures. */
export function gstr1Csv(report: Gstr1Report): string {
  const rows: (string | number)[][] = []
  for (const r of report.b2cs) rows.push(['B2CS', r.placeOfSupply.label, r.supplyType, r.rate, r.taxableValue, r.cgst, r.sgst, r.igst, r.cess, '', '', '', '', ''])
  for (const r of report.b2cl) rows.push(['B2CL', r.placeOfSupply.label, 'INTER_STATE', r.rate, r.taxableValue, '0.00', '0.00', r.igst, '0.00', r.number, r.date, r.value, '', ''])
  for (const r of report.cdnur) rows.push(['CDNUR', r.placeOfSupply.label, 'INTER_STATE', r.rate, r.taxableValue, '0.00', '0.00', r.igst, '0.00', r.number, r.date, r.value, r.invoiceNumber, r.invoiceDate])
  const n = report.totals.net
  rows.push(['TOTAL', '', '', '', n.taxableValue, n.cgst, n.sgst, n.igst, '0.00', '', '', n.total, '', ''])
  return stringify(rows, {
    header: true,
    columns: ['section', 'place_of_supply', 'supply_type', 'rate', 'taxable_value', 'cgst', 'sgst', 'igst', 'cess', 'document_number', 'document_date', 'document_value', 'invoice_number', 'invoice_date'],
  })
}
