// Tax invoices and credit notes (decision 0022), issued inside the transaction of the change that
// calls for them, read top to bottom:
//
//   issueInvoices      when an order is confirmed (COD, or nothing left to pay) or paid: one
//                      invoice per seller of its taxed lines, from the figures stored on the order
//                      at the time of sale (never recomputed); shipping and the COD fee on the
//                      invoice of the principal supply's seller, as they were taxed.
//   issueCreditNotes   when a sale is reversed after invoicing: a cancellation credits all that is
//                      left of each invoice; a refunded return, or a partial cancellation,
//                      credits exactly its units; a COD order paid online credits its
//                      COD fee line alone.
//
// Numbers come from a counter row per seller, series and financial year, incremented in the same
// transaction (documentRepo.insertNumbered): gapless and unique across processes. Each document is
// stored as answered (seller's and buyer's details of its time) with an event
// (invoice.created, credit_note.created). Part of a line is credited by cumulative proportion of
// its quantity, so the credit notes of a line that is returned a unit at a time add up to the line
// to the paisa.
import type { Executor } from '../../db/client.ts'
import { amountInWords } from '../../lib/amount-in-words.ts'
import { GST_STATE_CODES } from '../../lib/gstin.ts'
import { newId } from '../../lib/ids.ts'
import { splitTax } from '../../lib/gst.ts'
import { formatPaise as rupees, type Paise, parseRupees, sumPaise } from '../../lib/money.ts'
import { sameState } from '../../lib/pincode-states.ts'
import type { TaxDocument } from './document.ts'
import { documentRepo, type SellerRow, type TaxDocumentLineRow, type TaxDocumentRow, taxRepo } from './repo.ts'
import type { TaxDocumentLineKind } from './schema.sql.ts'
import { indiaDay } from './service.ts'

/** What an invoice needs of an order: its taxed figures as stored at the time of sale. */
export interface InvoicedOrder {
  id: string
  orderNumber: string
  partnerId: string
  placeOfSupplyStateCode: string | null
  placeOfSupplyState: string | null
  shippingAddress: { name: string; phone: string; line1: string; line2: string; landmark: string; city: string; state: string; pincode: string }
  /** Shipping and the COD fee as taxed (paise as decimal strings). */
  taxCharges: { kind: 'SHIPPING' | 'COD_FEE'; hsnCode: string; gstRateBps: number; amount: string; taxableValue: string; cgst: string; sgst: string; igst: string }[] | null
  items: {
    id: string
    catalogId: string | null
    position: number
    name: string
    quantity: number
    unitPrice: Paise
    lineTotal: Paise
    couponDiscount: Paise
    hsnCode: string | null
    gstRateBps: number | null
    taxableValue: Paise | null
    cgst: Paise | null
    sgst: Paise | null
    igst: Paise | null
  }[]
}

/** A line being issued: the figures stored and those shown. */
interface IssuedLine {
  kind: TaxDocumentLineKind
  orderItemId: string | null
  description: string
  hsnCode: string
  quantity: number
  unitPrice: Paise
  gstRateBps: number
  amount: Paise
  discount: Paise
  taxableValue: Paise
  cgst: Paise
  sgst: Paise
  igst: Paise
}

type Party = TaxDocument['seller']
const CHARGE_NAMES = { SHIPPING: 'Shipping and handling', COD_FEE: 'Cash on delivery fee' } as const

/** The financial year (April to March) of a day in India: `2026-27`. */
export function financialYearOf(day: string): string {
  const year = Number(day.slice(0, 4))
  const start = Number(day.slice(5, 7)) >= 4 ? year : year - 1
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`
}

/** `IN/26-27/`: what a series' numbers start with. */
const numberPrefix = (series: 'IN' | 'CN', financialYear: string) => `${series}/${financialYear.slice(2)}/`

/** `IN/26-27/0000123`: 16 characters, the most rule 46 allows (letters, digits, `-` and `/`). */
export function documentNumber(series: 'IN' | 'CN', financialYear: string, serial: number): string {
  return `${numberPrefix(series, financialYear)}${String(serial).padStart(7, '0')}`
}

/**
 * Issues the order's tax invoices: one per seller of its taxed lines. Called once per order, by the
 * move to CONFIRMED (which the order machine allows once); a second call would break the unique
 * index of one invoice per order and seller, and roll back.
 */
export async function issueInvoices(tx: Executor, order: InvoicedOrder, at: Date): Promise<TaxDocument[]> {
  if (order.placeOfSupplyStateCode === null || order.placeOfSupplyState === null) return []
  const taxed = order.items.filter((i) => i.taxableValue !== null && i.catalogId !== null).sort((a, b) => a.position - b.position)
  if (taxed.length === 0) return []
  // Shipping and the COD fee were taxed as part of the principal supply: the taxed line with the
  // highest taxable value, ties to the earlier line (checkout/cart-tax.ts).
  let principal = taxed[0]!
  for (const item of taxed) if (item.taxableValue! > principal.taxableValue!) principal = item
  const issued: TaxDocument[] = []
  for (const catalogId of [...new Set(taxed.map((i) => i.catalogId!))].sort()) {
    const seller = await taxRepo.findSeller(tx, catalogId)
    if (!seller) continue
    const lines: IssuedLine[] = taxed
      .filter((i) => i.catalogId === catalogId)
      .map((i) => ({
        kind: 'GOODS',
        orderItemId: i.id,
        description: i.name,
        hsnCode: i.hsnCode!,
        quantity: i.quantity,
        unitPrice: i.unitPrice,
        gstRateBps: i.gstRateBps!,
        amount: i.lineTotal,
        discount: i.couponDiscount,
        taxableValue: i.taxableValue!,
        cgst: i.cgst!,
        sgst: i.sgst!,
        igst: i.igst!,
      }))
    if (principal.catalogId === catalogId) {
      for (const c of order.taxCharges ?? []) {
        const amount = BigInt(c.amount)
        lines.push({
          kind: c.kind,
          orderItemId: null,
          description: CHARGE_NAMES[c.kind],
          hsnCode: c.hsnCode,
          quantity: 1,
          unitPrice: amount,
          gstRateBps: c.gstRateBps,
          amount,
          discount: 0n,
          taxableValue: BigInt(c.taxableValue),
          cgst: BigInt(c.cgst),
          sgst: BigInt(c.sgst),
          igst: BigInt(c.igst),
        })
      }
    }
    const place = { state: order.placeOfSupplyState, stateCode: order.placeOfSupplyStateCode }
    issued.push(
      await issue(tx, { type: 'TAX_INVOICE', catalogId, partnerId: order.partnerId, order, seller: sellerParty(seller), buyer: buyerParty(order), place, intraState: isIntraState(lines, seller.state, place.state), lines, invoice: null, reason: null, returnId: null }, at),
    )
  }
  return issued
}

export interface CreditRequest {
  reason: string
  /** A return: its id and the units it takes back. Without it (or `cancelled`), all that is left of each invoice is credited (a cancellation). */
  returned?: { returnId: string; items: { orderItemId: string; quantity: number }[] }
  /** Units cancelled before shipping (a partial cancellation): credited like a return's, with no return id; `reason` names it. */
  cancelled?: { items: { orderItemId: string; quantity: number }[] }
  /** Only these charges, each in full (a COD order paid online: its COD fee is never charged); no goods line. */
  charges?: ('SHIPPING' | 'COD_FEE')[]
}

/** Credit notes reversing the order's invoices, as far as `request` says; none when nothing was invoiced. */
export async function issueCreditNotes(tx: Executor, order: Pick<InvoicedOrder, 'id' | 'orderNumber' | 'partnerId'>, request: CreditRequest, at: Date): Promise<TaxDocument[]> {
  const documents = await documentRepo.ofOrder(tx, order.id)
  const invoices = documents.filter((d) => d.type === 'TAX_INVOICE')
  if (invoices.length === 0) return []
  const allLines = await documentRepo.linesOf(
    tx,
    documents.map((d) => d.id),
  )
  const units = request.returned?.items ?? request.cancelled?.items
  const returning = units && new Map(units.map((i) => [i.orderItemId, i.quantity]))
  const issued: TaxDocument[] = []
  for (const invoice of invoices) {
    const creditNoteIds = new Set(documents.filter((d) => d.invoiceId === invoice.id).map((d) => d.id))
    const credited = (line: TaxDocumentLineRow) =>
      allLines.filter((l) => creditNoteIds.has(l.documentId) && l.kind === line.kind && l.orderItemId === line.orderItemId).reduce((n, l) => n + l.quantity, 0)
    const shown = new Map(invoice.document.lines.map((l) => [l.position, l]))
    const lines: IssuedLine[] = []
    for (const line of allLines.filter((l) => l.documentId === invoice.id)) {
      const before = credited(line)
      const left = line.quantity - before
      const take = request.charges
        ? (request.charges as string[]).includes(line.kind) ? left : 0
        : returning
          ? Math.min(left, line.orderItemId ? (returning.get(line.orderItemId) ?? 0) : 0)
          : left
      if (take <= 0) continue
      const part = creditedPart(line, before, before + take)
      const answered = shown.get(line.position)!
      lines.push({ ...part, kind: line.kind, orderItemId: line.orderItemId, description: answered.description, hsnCode: answered.hsnCode, quantity: take, unitPrice: parseRupees(answered.unitPrice)!, gstRateBps: line.gstRateBps })
    }
    if (lines.length === 0) continue
    const doc = invoice.document
    issued.push(
      await issue(
        tx,
        {
          type: 'CREDIT_NOTE',
          catalogId: invoice.catalogId,
          partnerId: order.partnerId,
          order,
          seller: doc.seller,
          buyer: doc.buyer,
          place: doc.placeOfSupply,
          intraState: doc.intraState,
          lines,
          invoice: { id: invoice.id, number: invoice.number, date: invoice.issueDate },
          reason: request.reason,
          returnId: request.returned?.returnId ?? null,
        },
        at,
      ),
    )
  }
  return issued
}

/** The order's documents as issued: invoices, then credit notes. */
export async function taxDocumentsOf(db: Executor, orderId: string): Promise<{ invoices: TaxDocument[]; creditNotes: TaxDocument[] }> {
  const rows = await documentRepo.ofOrder(db, orderId)
  return { invoices: rows.filter((r) => r.type === 'TAX_INVOICE').map((r) => r.document), creditNotes: rows.filter((r) => r.type === 'CREDIT_NOTE').map((r) => r.document) }
}

/**
 * Units `from`..`to` of a line, as differences of cumulative shares rounded half-up, so the parts of
 * a line credited a unit at a time add up to the line to the paisa: the amount less discount
 * (gross), the discount and the tax each by proportion; taxable value = gross - tax; an intra-state
 * tax split as on the invoice (odd paisa to CGST), cumulatively. Every share only grows with the
 * units, so no part is negative.
 */
export function creditedPart(line: Pick<TaxDocumentLineRow, 'quantity' | 'amount' | 'discount' | 'taxableValue' | 'cgst' | 'sgst' | 'igst'>, from: number, to: number) {
  const share = (value: Paise, units: number) => (value * BigInt(units) * 2n + BigInt(line.quantity)) / (2n * BigInt(line.quantity))
  const slice = (value: Paise) => share(value, to) - share(value, from)
  const lineTax = line.cgst + line.sgst + line.igst
  const gross = slice(line.amount - line.discount)
  const discount = slice(line.discount)
  const tax = slice(lineTax)
  const parts = { amount: gross + discount, discount, taxableValue: gross - tax }
  if (line.igst > 0n || lineTax === 0n) return { ...parts, cgst: 0n, sgst: 0n, igst: tax }
  const cgstUpTo = (units: number) => splitTax(share(lineTax, units), 'INTRA_STATE').cgst
  const cgst = cgstUpTo(to) - cgstUpTo(from)
  return { ...parts, cgst, sgst: tax - cgst, igst: 0n }
}

interface ToIssue {
  type: 'TAX_INVOICE' | 'CREDIT_NOTE'
  catalogId: string
  partnerId: string
  order: Pick<InvoicedOrder, 'id' | 'orderNumber'>
  seller: Party
  buyer: Party
  place: { state: string; stateCode: string }
  intraState: boolean
  lines: IssuedLine[]
  invoice: TaxDocument['invoice']
  reason: string | null
  returnId: string | null
}

/** Numbers, stores and announces one document, in one statement (documentRepo.insertNumbered). */
async function issue(tx: Executor, d: ToIssue, at: Date): Promise<TaxDocument> {
  const day = indiaDay(at)
  const financialYear = financialYearOf(day)
  const series = d.type === 'TAX_INVOICE' ? 'IN' : 'CN'
  const total = (field: 'taxableValue' | 'cgst' | 'sgst' | 'igst') => sumPaise(d.lines.map((l) => l[field]))
  const totals = { taxableValue: total('taxableValue'), cgst: total('cgst'), sgst: total('sgst'), igst: total('igst') }
  const tax = totals.cgst + totals.sgst + totals.igst
  const id = newId('doc', at.getTime())
  const document: TaxDocument = {
    id,
    type: d.type,
    number: '', // given with the serial, in the statement that takes it
    financialYear,
    issuedAt: at.toISOString(),
    date: day,
    orderId: d.order.id,
    orderNumber: d.order.orderNumber,
    invoice: d.invoice,
    reason: d.reason,
    seller: d.seller,
    buyer: d.buyer,
    placeOfSupply: d.place,
    intraState: d.intraState,
    reverseCharge: false,
    lines: d.lines.map((l, i) => ({
      position: i + 1,
      kind: l.kind,
      description: l.description,
      hsnCode: l.hsnCode,
      quantity: l.quantity,
      unit: l.kind === 'GOODS' ? 'NOS' : 'OTH',
      unitPrice: rupees(l.unitPrice),
      amount: rupees(l.amount),
      discount: rupees(l.discount),
      taxableValue: rupees(l.taxableValue),
      gstRateBps: l.gstRateBps,
      gstRate: `${l.gstRateBps / 100}%`,
      cgst: rupees(l.cgst),
      sgst: rupees(l.sgst),
      igst: rupees(l.igst),
      total: rupees(l.taxableValue + l.cgst + l.sgst + l.igst),
    })),
    totals: {
      taxableValue: rupees(totals.taxableValue),
      cgst: rupees(totals.cgst),
      sgst: rupees(totals.sgst),
      igst: rupees(totals.igst),
      tax: rupees(tax),
      total: rupees(totals.taxableValue + tax),
    },
    amountInWords: amountInWords(totals.taxableValue + tax),
  }
  const serial = await documentRepo.insertNumbered(
    tx,
    series,
    numberPrefix(series, financialYear),
    {
      id,
      type: d.type,
      catalogId: d.catalogId,
      partnerId: d.partnerId,
      financialYear,
      orderId: d.order.id,
      invoiceId: d.invoice?.id ?? null,
      returnId: d.returnId,
      issuedAt: at,
      issueDate: day,
      placeOfSupplyStateCode: d.place.stateCode,
      intraState: d.intraState,
      ...totals,
      total: totals.taxableValue + tax,
      document,
    },
    d.lines.map((l, i) => ({
      position: i + 1,
      kind: l.kind,
      orderItemId: l.orderItemId,
      quantity: l.quantity,
      gstRateBps: l.gstRateBps,
      amount: l.amount,
      discount: l.discount,
      taxableValue: l.taxableValue,
      cgst: l.cgst,
      sgst: l.sgst,
      igst: l.igst,
    })),
    {
      partnerId: d.partnerId,
      type: d.type === 'TAX_INVOICE' ? 'invoice.created' : 'credit_note.created',
      subjectId: d.order.id,
      data: { orderId: d.order.id, orderNumber: d.order.orderNumber, documentId: id, number: '', total: document.totals.total, document },
      at,
    },
  )
  document.number = documentNumber(series, financialYear, serial)
  return document
}

/** CGST + SGST when no line carries IGST and some carries CGST, or (all at nil rate) when the seller is in the place of supply's state. */
function isIntraState(lines: IssuedLine[], sellerState: string, placeState: string): boolean {
  if (lines.some((l) => l.igst > 0n)) return false
  if (lines.some((l) => l.cgst + l.sgst > 0n)) return true
  return sameState(sellerState, placeState)
}

function sellerParty(s: SellerRow): Party {
  return {
    name: s.legalName,
    tradeName: s.tradeName,
    gstin: s.gstin,
    phone: null,
    address: { line1: s.addressLine1, line2: s.addressLine2, city: s.city, state: GST_STATE_CODES[s.stateCode] ?? s.state, pincode: s.pincode },
    stateCode: s.stateCode,
  }
}

function buyerParty(order: InvoicedOrder): Party {
  const a = order.shippingAddress
  const line2 = [a.line2, a.landmark].map((p) => p.trim()).filter(Boolean).join(', ')
  return { name: a.name, tradeName: null, gstin: null, phone: a.phone, address: { line1: a.line1, line2: line2 || null, city: a.city, state: a.state, pincode: a.pincode }, stateCode: order.placeOfSupplyStateCode }
}

export type { TaxDocumentRow }
