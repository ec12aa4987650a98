// Tax invoices, bills of supply and credit notes (decisions 0022, 0029), issued inside the
// transaction of the change that calls for them, read top to bottom:
//
//   issueInvoices      when an order is confirmed (COD, or nothing left to pay) or paid: for each GST
//                      registration its catalogs sell under, a tax invoice for the taxable lines and a
//                      bill of supply for the nil-rated ones, from the figures stored on the order at
//                      the time of sale (never recomputed); shipping and the COD fee on the document
//                      of the principal supply, as they were taxed.
//   issueCreditNotes   when a sale is reversed after invoicing: a cancellation credits all that is
//                      left of each document; a refunded return, or a partial cancellation,
//                      credits exactly its units (less what the merchant kept of a reduced
//                      refund); a COD order paid online credits its COD fee line alone. A credit
//                      note is issued by the registration of the document it reverses.
//
// Numbers come from a counter row per registration, series and financial year: gapless and unique
// across catalogs and processes. A credit note takes its number in its own transaction
// (documentRepo.insertNumbered); a tax invoice or bill of supply is stored with its order's change
// and numbered just after it commits, in batches (numberWaiting, decision 0045), so a seller's
// orders do not queue on the counter row.
// Each document is stored as answered (seller's and buyer's details of its time) with an event
// (invoice.created, bill_of_supply.created, credit_note.created) carrying the GSTIN. Part of a line is credited by cumulative proportion of
// its quantity, so the credit notes of a line that is returned a unit at a time add up to the line
// to the paisa.
import { afterCommit, type Db, type Executor } from '../../db/client.ts'
import { amountInWords } from '../../lib/amount-in-words.ts'
import { GST_STATE_CODES } from '../../lib/gstin.ts'
import { newId } from '../../lib/ids.ts'
import { splitInclusive, splitTax } from '../../lib/gst.ts'
import { allocate, formatPaise as rupees, type Paise, parseRupees, sumPaise } from '../../lib/money.ts'
import { sameState } from '../../lib/pincode-states.ts'
import { ecoGstinOf } from '../partners/index.ts'
import type { TaxDocument } from './document.ts'
import { documentRepo, type RegistrationRow, registrationRepo, type TaxDocumentLineRow, type TaxDocumentRow, taxRepo } from './repo.ts'
import type { DocumentSeries, TaxDocumentLineKind, TaxDocumentType } from './schema.sql.ts'
import { financialYearOf, indiaDay } from './calendar.ts'

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
    /** The variant sold (`M / Red`), on the document after the name; null for a product without options. */
    variantTitle: string | null
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
    /** The registration that supplies the line when a stock location under its own does (null: the catalog's seller's). */
    gstRegistrationId?: string | null
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

const SERIES_OF: Record<TaxDocumentType, DocumentSeries> = { TAX_INVOICE: 'IN', BILL_OF_SUPPLY: 'BS', CREDIT_NOTE: 'CN' }
const EVENT_OF = { TAX_INVOICE: 'invoice.created', BILL_OF_SUPPLY: 'bill_of_supply.created', CREDIT_NOTE: 'credit_note.created' } as const

/** The registration's prefix of a series (`IN`, or the one it set). */
export function seriesPrefix(registration: Pick<RegistrationRow, 'invoicePrefix' | 'billOfSupplyPrefix' | 'creditNotePrefix'>, series: DocumentSeries): string {
  return series === 'IN' ? registration.invoicePrefix : series === 'BS' ? registration.billOfSupplyPrefix : registration.creditNotePrefix
}

/** Rule 46 allows 16 characters: prefix, `/26-27/` and the serial's digits fill them. */
export const serialWidth = (prefix: string) => 16 - prefix.length - 7

/** `IN/26-27/0000123`: 16 characters, the most rule 46 allows (letters, digits, `-` and `/`). */
export function documentNumber(prefix: string, financialYear: string, serial: number): string {
  return `${prefix}/${financialYear.slice(2)}/${String(serial).padStart(serialWidth(prefix), '0')}`
}

/**
 * Issues the order's documents: for each GST registration its lines' catalogs sell under, a tax
 * invoice for the taxable lines and a bill of supply (rule 49) for the nil-rated ones. Shipping and
 * the COD fee go with the principal supply (they were taxed at its rate). Called once per order, by
 * the move to CONFIRMED (which the order machine allows once); a second call would break the unique
 * index of one document of a kind per order and registration, and roll back. The documents are
 * stored without their numbers and numbered once the transaction commits (decision 0045).
 */
export async function issueInvoices(tx: Executor, order: InvoicedOrder, at: Date): Promise<TaxDocument[]> {
  if (order.placeOfSupplyStateCode === null || order.placeOfSupplyState === null) return []
  const taxed = order.items.filter((i) => i.taxableValue !== null && i.catalogId !== null).sort((a, b) => a.position - b.position)
  if (taxed.length === 0) return []
  // Shipping and the COD fee were taxed as part of the principal supply: the taxed line with the
  // highest taxable value, ties to the earlier line (checkout/cart-tax.ts).
  let principal = taxed[0]!
  for (const item of taxed) if (item.taxableValue! > principal.taxableValue!) principal = item
  const [registrations, ecoGstin] = await Promise.all([taxRepo.registrationsOfCatalogs(tx, [...new Set(taxed.map((i) => i.catalogId!))]), ecoGstinOf(tx, order.partnerId)])
  // A line from a stock location under its own registration is that registration's supply (decision 0043).
  const byId = new Map([...registrations.values()].map((r) => [r.id, r]))
  for (const id of new Set(taxed.map((i) => i.gstRegistrationId ?? null))) if (id !== null && !byId.has(id)) byId.set(id, (await registrationRepo.find(tx, id))!)
  const supplierOf = (item: InvoicedOrder['items'][number]) => byId.get(item.gstRegistrationId ?? registrations.get(item.catalogId!)?.id ?? '')
  const place = { state: order.placeOfSupplyState, stateCode: order.placeOfSupplyStateCode }
  const issued: TaxDocument[] = []
  for (const registration of [...new Set(taxed.map(supplierOf))].filter((r) => r !== undefined).sort((a, b) => a.gstin.localeCompare(b.gstin))) {
    const mine = taxed.filter((i) => supplierOf(i)?.id === registration.id)
    for (const type of ['TAX_INVOICE', 'BILL_OF_SUPPLY'] as const) {
      const nil = type === 'BILL_OF_SUPPLY'
      const goods = mine.filter((i) => (i.gstRateBps === 0) === nil)
      if (goods.length === 0) continue
      const lines: IssuedLine[] = goods.map((i) => ({
        kind: 'GOODS',
        orderItemId: i.id,
        description: i.variantTitle ? `${i.name} (${i.variantTitle})` : i.name,
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
      if (goods.includes(principal)) lines.push(...chargeLines(order))
      const seller = sellerParty(registration)
      issued.push(
        await issue(tx, { type, registration, catalogId: goods[0]!.catalogId!, partnerId: order.partnerId, ecoGstin, order, seller, buyer: buyerParty(order), place, intraState: isIntraState(lines, registration.state, place.state), lines, invoice: null, reason: null, returnId: null }, at),
      )
    }
  }
  return issued
}

/** Shipping and the COD fee as they were taxed at the time of sale. */
function chargeLines(order: InvoicedOrder): IssuedLine[] {
  return (order.taxCharges ?? []).map((c) => {
    const amount = BigInt(c.amount)
    return {
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
    }
  })
}

export interface CreditRequest {
  reason: string
  /**
   * A return: its id, the units it takes back, and `kept`: what the merchant kept of their price (a
   * refund approved for less than was asked): the credit note reduces the value by what is refunded,
   * not by the whole units. Without it (or `cancelled`), all that is left of each document is credited.
   */
  returned?: { returnId: string; items: { orderItemId: string; quantity: number }[]; kept?: Paise }
  /** Units cancelled before shipping (a partial cancellation): credited like a return's, with no return id; `reason` names it. */
  cancelled?: { items: { orderItemId: string; quantity: number }[] }
  /** Only these charges, each in full (a COD order paid online: its COD fee is never charged); no goods line. */
  charges?: ('SHIPPING' | 'COD_FEE')[]
}

/**
 * Credit notes reversing the order's documents (tax invoices and bills of supply), as far as
 * `request` says; none when nothing was invoiced. Each is issued by the registration of the
 * document it reverses, whatever the catalog sells under now.
 */
export async function issueCreditNotes(tx: Executor, order: Pick<InvoicedOrder, 'id' | 'orderNumber' | 'partnerId'>, request: CreditRequest, at: Date): Promise<TaxDocument[]> {
  // The order's invoices may still wait for their numbers (decision 0045): the credit note prints them.
  await numberWaiting(tx, order.id)
  const documents = await documentRepo.ofOrder(tx, order.id)
  const sales = documents.filter((d) => d.type !== 'CREDIT_NOTE')
  if (sales.length === 0) return []
  const allLines = await documentRepo.linesOf(
    tx,
    documents.map((d) => d.id),
  )
  const units = request.returned?.items ?? request.cancelled?.items
  const returning = units && new Map(units.map((i) => [i.orderItemId, i.quantity]))
  const notes: { sale: TaxDocumentRow; lines: IssuedLine[] }[] = []
  for (const sale of sales) {
    const creditNoteIds = new Set(documents.filter((d) => d.invoiceId === sale.id).map((d) => d.id))
    const credited = (line: TaxDocumentLineRow) =>
      allLines.filter((l) => creditNoteIds.has(l.documentId) && l.kind === line.kind && l.orderItemId === line.orderItemId).reduce((n, l) => n + l.quantity, 0)
    const shown = new Map(sale.document.lines.map((l) => [l.position, l]))
    const lines: IssuedLine[] = []
    for (const line of allLines.filter((l) => l.documentId === sale.id)) {
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
    if (lines.length > 0) notes.push({ sale, lines })
  }
  const kept = request.returned?.kept ?? 0n
  if (kept > 0n) keepFromCredit(notes.flatMap((n) => n.lines), kept)
  const issued: TaxDocument[] = []
  for (const { sale, lines } of notes) {
    // Nothing refunded of this document's units (a return approved for nothing): its value is not reduced.
    if (kept > 0n && lines.every((l) => l.amount === l.discount)) continue
    const doc = sale.document
    issued.push(
      await issue(
        tx,
        {
          type: 'CREDIT_NOTE',
          registration: (await registrationRepo.find(tx, sale.registrationId))!,
          catalogId: sale.catalogId,
          partnerId: order.partnerId,
          ecoGstin: sale.ecoGstin,
          order,
          seller: doc.seller,
          buyer: doc.buyer,
          place: doc.placeOfSupply,
          intraState: doc.intraState,
          lines,
          invoice: { id: sale.id, number: sale.number!, date: sale.issueDate },
          reason: request.reason,
          returnId: request.returned?.returnId ?? null,
        },
        at,
      ),
    )
  }
  return issued
}

/**
 * A refund approved for less than the returned units' price: the merchant kept `kept`, so the supply's
 * value is reduced only by what is refunded (CGST Act s. 34: the credit note for the taxable value
 * actually reduced). `kept` is spread over the goods lines in proportion to what they would credit
 * (largest remainder), never more than a line's value; each line's tax is worked out again from
 * what is left of it, tax-inclusive at its rate, and split as the document split it.
 */
function keepFromCredit(lines: IssuedLine[], kept: Paise) {
  const goods = lines.filter((l) => l.kind === 'GOODS')
  const values = goods.map((l) => l.amount - l.discount)
  const shares = allocate(kept < sumPaise(values) ? kept : sumPaise(values), values)
  goods.forEach((line, i) => {
    const value = values[i]! - shares[i]!
    const { taxable, tax } = splitInclusive(value, line.gstRateBps)
    const parts = line.igst > 0n || line.cgst + line.sgst === 0n ? { cgst: 0n, sgst: 0n, igst: tax } : splitTax(tax, 'INTRA_STATE')
    Object.assign(line, { discount: line.discount + shares[i]!, taxableValue: taxable, ...parts })
  })
}

/**
 * The order's documents as issued: tax invoices, bills of supply, credit notes; and whether some
 * still wait for their number (not issued yet: numbered within moments of their order's commit).
 */
export async function taxDocumentsOf(db: Executor, orderId: string): Promise<{ invoices: TaxDocument[]; billsOfSupply: TaxDocument[]; creditNotes: TaxDocument[]; numbering: boolean }> {
  const all = await documentRepo.ofOrder(db, orderId)
  const rows = all.filter((r) => r.serial !== null)
  const of = (type: TaxDocumentType) => rows.filter((r) => r.type === type).map((r) => r.document)
  return { invoices: of('TAX_INVOICE'), billsOfSupply: of('BILL_OF_SUPPLY'), creditNotes: of('CREDIT_NOTE'), numbering: rows.length < all.length }
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
  type: TaxDocumentType
  registration: RegistrationRow
  catalogId: string
  partnerId: string
  ecoGstin: string | null
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

/**
 * Stores one document: a tax invoice or bill of supply to be numbered once the transaction commits
 * (its returned `number` is empty), a credit note numbered and announced in one statement
 * (documentRepo.insertNumbered).
 */
async function issue(tx: Executor, d: ToIssue, at: Date): Promise<TaxDocument> {
  const day = indiaDay(at)
  const financialYear = financialYearOf(day)
  const series = SERIES_OF[d.type]
  const prefix = seriesPrefix(d.registration, series)
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
  const row = {
    id,
    type: d.type,
    catalogId: d.catalogId,
    registrationId: d.registration.id,
    partnerId: d.partnerId,
    ecoGstin: d.ecoGstin,
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
  }
  const lines = d.lines.map((l, i) => ({
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
  }))
  if (d.type !== 'CREDIT_NOTE') {
    // Numbered once the order's change has committed (decision 0045): see numberWaiting.
    await documentRepo.insertUnnumbered(tx, row, lines)
    await numberAfterCommit(tx)
    return document
  }
  const serial = await documentRepo.insertNumbered(tx, series, `${prefix}/${financialYear.slice(2)}/`, serialWidth(prefix), row, lines, {
    partnerId: d.partnerId,
    type: EVENT_OF[d.type],
    subjectId: d.order.id,
    data: { orderId: d.order.id, orderNumber: d.order.orderNumber, documentId: id, gstin: d.seller.gstin!, number: '', total: document.totals.total, document },
    at,
    })
  document.number = documentNumber(prefix, financialYear, serial)
  return document
}

/** How many waiting documents one numbering transaction takes. */
const NUMBERING_BATCH = 500

/**
 * Numbers documents waiting for their number (decision 0045), oldest first, in one statement
 * (documentRepo.numberWaiting): `orderId`'s (a credit note must print its invoice's number, so its
 * transaction numbers them first), or up to a batch of any that no other numberer holds. Per series
 * the serials are taken at once from its counter row: gapless, and a seller's orders meet on that
 * row once per batch instead of once per order. Returns how many it numbered.
 */
export function numberWaiting(db: Executor, orderId?: string): Promise<number> {
  return documentRepo.numberWaiting(db, NUMBERING_BATCH, { TAX_INVOICE: EVENT_OF.TAX_INVOICE, BILL_OF_SUPPLY: EVENT_OF.BILL_OF_SUPPLY }, orderId)
}

/**
 * One numberer per database, in this process: whoever asks is answered once a numbering transaction
 * that began after the ask has committed (an order's request waits for its invoice's number, so its
 * customer reads it numbered), and asks that come while one runs share the next. Many orders, one
 * transaction: that is what takes a seller's orders off its counter row.
 */
class Numberer {
  readonly #db: Db
  #running: Promise<void> | null = null
  #next: Promise<void> | null = null
  constructor(db: Db) {
    this.#db = db
  }

  ask(): Promise<void> {
    if (this.#next) return this.#next
    if (!this.#running) return this.#start()
    this.#next = this.#running.catch(() => undefined).then(() => {
      this.#next = null
      return this.#start()
    })
    return this.#next
  }

  #start(): Promise<void> {
    const run = this.#drain().finally(() => {
      if (this.#running === run) this.#running = null
    })
    this.#running = run
    return run
  }

  async #drain() {
    // One statement: its own transaction.
    while ((await numberWaiting(this.#db)) === NUMBERING_BATCH);
  }
}

const numberers = new WeakMap<Db, Numberer>()
const numbererOf = (db: Db) => numberers.get(db) ?? numberers.set(db, new Numberer(db)).get(db)!

/**
 * Numbers every document still waiting: those whose transaction's own numbering failed (the
 * database went away just after the commit) or whose process stopped first. The server runs it on
 * its job timer; it throws what the numbering threw.
 */
export const numberWaitingDocuments = (db: Db): Promise<void> => numbererOf(db).ask()

/** Transactions that already number their documents once they commit. */
const numbering = new WeakSet<object>()

/**
 * Numbers the transaction's waiting documents once it has committed, before its caller gets its
 * result. A failure is left to the server's job timer (numberWaitingDocuments): the order stands.
 */
async function numberAfterCommit(tx: Executor) {
  if (numbering.has(tx)) return
  numbering.add(tx)
  await afterCommit(tx, (db) => numbererOf(db).ask().catch(() => undefined))
}

/** CGST + SGST when no line carries IGST and some carries CGST, or (all at nil rate) when the seller is in the place of supply's state. */
function isIntraState(lines: IssuedLine[], sellerState: string, placeState: string): boolean {
  if (lines.some((l) => l.igst > 0n)) return false
  if (lines.some((l) => l.cgst + l.sgst > 0n)) return true
  return sameState(sellerState, placeState)
}

function sellerParty(s: RegistrationRow): Party {
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
