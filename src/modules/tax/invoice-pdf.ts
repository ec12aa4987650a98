// A GST tax invoice or credit note (document.ts) as a PDF: the same value that the API answers as
// JSON, laid out like an Indian tax invoice on A4, in Noto Sans (lib/pdf-fonts.ts: embedded, so ₹
// needs no font on the reader's machine). The output is deterministic for the same documents: the
// PDF's dates are the documents' issuedAt.
import { formatPaiseIndian, parseRupees } from '../../lib/money.ts'
import { pdfBuffer } from '../../lib/pdf-buffer.ts'
import { notoSansPdf } from '../../lib/pdf-fonts.ts'
import type { DocumentLine, TaxDocument } from './document.ts'

type Pdf = PDFKit.PDFDocument
type Party = TaxDocument['seller']
type Align = 'left' | 'right' | 'center'
interface Column { title: string; width: number; align: Align; cell: (line: DocumentLine) => string }

const MARGIN = 36
const BOTTOM = 54 // room for the footer below the content
const TABLE_SIZE = 7.5
const PAD = 3
const GREY = '#666666'
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** "1299.50" -> "1,299.50" (Indian grouping); the documents' money is always a valid rupee string. */
function rupees(amount: string): string {
  const paise = parseRupees(amount)
  if (paise === null) throw new RangeError(`not a rupee amount: ${amount}`)
  return formatPaiseIndian(paise)
}
/** "2026-05-04" -> "04 May 2026": no day/month ambiguity. */
function day(date: string): string {
  const [y, m, d] = date.split('-')
  return `${d} ${MONTHS[Number(m) - 1] ?? m} ${y}`
}
const NAMES = { TAX_INVOICE: ['Tax Invoice', 'Invoice', 'invoice'], BILL_OF_SUPPLY: ['Bill of Supply', 'Bill of supply', 'bill of supply'], CREDIT_NOTE: ['Credit Note', 'Credit note', 'credit note'] } as const
const titleOf = (doc: TaxDocument) => NAMES[doc.type][0]
/** A bill of supply, or a credit note reversing one: no tax is charged, so no tax is shown. */
const untaxed = (doc: TaxDocument) => doc.type === 'BILL_OF_SUPPLY' || (doc.type === 'CREDIT_NOTE' && doc.invoice !== null && doc.totals.tax === '0.00' && doc.lines.every((l) => l.gstRateBps === 0))
const stateLine = (p: { state: string }, code: string | null) => `State: ${p.state}${code ? `, Code: ${code}` : ''}`

function columns(doc: TaxDocument, width: number): Column[] {
  const taxes: Column[] = untaxed(doc)
    ? []
    : doc.intraState
    ? [{ title: 'CGST (₹)', width: 42, align: 'right', cell: (l) => rupees(l.cgst) }, { title: 'SGST (₹)', width: 42, align: 'right', cell: (l) => rupees(l.sgst) }]
    : [{ title: 'IGST (₹)', width: 54, align: 'right', cell: (l) => rupees(l.igst) }]
  const fixed: Column[] = [
    { title: 'HSN', width: 48, align: 'left', cell: (l) => l.hsnCode },
    { title: 'Qty', width: 22, align: 'right', cell: (l) => String(l.quantity) },
    { title: 'Unit', width: 24, align: 'left', cell: (l) => l.unit },
    { title: 'Unit price (₹)', width: 48, align: 'right', cell: (l) => rupees(l.unitPrice) },
    { title: 'Discount (₹)', width: 42, align: 'right', cell: (l) => rupees(l.discount) },
    { title: 'Taxable value (₹)', width: 52, align: 'right', cell: (l) => rupees(l.taxableValue) },
    ...(untaxed(doc) ? [] : [{ title: 'Rate', width: 26, align: 'right', cell: (l: DocumentLine) => l.gstRate } as Column]),
    ...taxes,
    { title: 'Total (₹)', width: 54, align: 'right', cell: (l) => rupees(l.total) },
  ]
  const number: Column = { title: '#', width: 20, align: 'right', cell: (l) => String(l.position) }
  const used = number.width + fixed.reduce((sum, c) => sum + c.width, 0)
  return [number, { title: 'Description', width: width - used, align: 'left', cell: (l) => l.description }, ...fixed]
}

/** A table row's height: every cell wraps within its column. */
function rowHeight(pdf: Pdf, cols: Column[], cells: string[], header = false): number {
  pdf.font(header ? 'bold' : 'regular').fontSize(TABLE_SIZE)
  return Math.max(...cols.map((c, i) => pdf.heightOfString(cells[i]!, { width: c.width - 2 * PAD }))) + 2 * PAD
}

/** One table row at y; returns its bottom. */
function row(pdf: Pdf, cols: Column[], cells: string[], y: number, header: boolean): number {
  const height = rowHeight(pdf, cols, cells, header)
  if (header) pdf.rect(MARGIN, y, pdf.page.width - 2 * MARGIN, height).fill('#eeeeee').fillColor('black')
  let x = MARGIN
  cols.forEach((c, i) => {
    pdf.text(cells[i]!, x + PAD, y + PAD, { width: c.width - 2 * PAD, align: c.align })
    x += c.width
  })
  pdf.moveTo(MARGIN, y + height).lineTo(pdf.page.width - MARGIN, y + height).lineWidth(0.5).strokeColor('#999999').stroke()
  return y + height
}

/** Lines of text from (x, y) within width, the first bold; returns the bottom. */
function block(pdf: Pdf, x: number, y: number, width: number, heading: string, lines: string[]): number {
  pdf.font('bold').fontSize(8).fillColor(GREY).text(heading, x, y, { width })
  pdf.fillColor('black').fontSize(9.5).text(lines[0]!, { width })
  pdf.font('regular').fontSize(8.5)
  for (const line of lines.slice(1)) pdf.text(line, { width })
  return pdf.y
}

function partyLines(p: Party, seller: boolean): string[] {
  const a = p.address
  return [
    p.name,
    ...(p.tradeName ? [`Trade name: ${p.tradeName}`] : []),
    a.line1,
    ...(a.line2 ? [a.line2] : []),
    `${a.city}, ${a.state} ${a.pincode}`,
    ...(p.phone ? [`Phone: ${p.phone}`] : []),
    ...(p.gstin ? [`GSTIN: ${p.gstin}`] : seller ? [] : ['GSTIN: Unregistered']),
    stateLine(a, p.stateCode),
  ]
}

/** The document's first page down to the table; returns where the table starts. */
function heading(pdf: Pdf, doc: TaxDocument): number {
  const width = pdf.page.width - 2 * MARGIN
  const half = (width - 16) / 2
  pdf.font('bold').fontSize(18).text(titleOf(doc), MARGIN, MARGIN, { width: half })
  const label = NAMES[doc.type][1]
  const meta = [`${label} no: ${doc.number}`, `Date: ${day(doc.date)}`, `Order no: ${doc.orderNumber}`]
  if (doc.invoice) meta.push(`Against ${untaxed(doc) ? 'bill of supply' : 'invoice'}: ${doc.invoice.number} dated ${day(doc.invoice.date)}`)
  if (doc.type === 'BILL_OF_SUPPLY') meta.push('Nil-rated goods: no tax is charged (rule 49)')
  pdf.font('regular').fontSize(9).text(meta.join('\n'), MARGIN + half + 16, MARGIN, { width: half, align: 'right' })
  let y = Math.max(pdf.y, MARGIN + 30) + 10
  if (doc.reason) {
    pdf.font('bold').fontSize(9).text('Reason: ', MARGIN, y, { continued: true }).font('regular').text(doc.reason, { width })
    y = pdf.y + 8
  }
  const left = block(pdf, MARGIN, y, half, 'Sold by', partyLines(doc.seller, true))
  const right = block(pdf, MARGIN + half + 16, y, half, 'Bill to / Ship to', partyLines(doc.buyer, false))
  y = Math.max(left, right) + 8
  const supply = `Place of supply: ${doc.placeOfSupply.state} (State code: ${doc.placeOfSupply.stateCode})`
  pdf.font('regular').fontSize(9).text(`${supply}     Reverse charge: ${doc.reverseCharge ? 'Yes' : 'No'}`, MARGIN, y, { width })
  return pdf.y + 8
}

/** The totals block and the amount in words after the table; returns the bottom. */
function totals(pdf: Pdf, doc: TaxDocument, y: number): number {
  const t = doc.totals
  const rows: Array<[string, string]> = [
    ...(untaxed(doc)
      ? []
      : ([['Taxable value', t.taxableValue], ...(doc.intraState ? [['CGST', t.cgst], ['SGST', t.sgst]] : [['IGST', t.igst]]), ['Total tax', t.tax]] as Array<[string, string]>)),
    [doc.type === 'CREDIT_NOTE' ? 'Total credit' : 'Total', t.total],
  ]
  const x = pdf.page.width - MARGIN - 220
  rows.forEach(([label, amount], i) => {
    const last = i === rows.length - 1
    pdf.font(last ? 'bold' : 'regular').fontSize(last ? 10.5 : 9)
    pdf.text(label, x, y, { width: 110 }).text(`₹${rupees(amount)}`, x + 110, y, { width: 110, align: 'right' })
    y = pdf.y + 2
  })
  const width = pdf.page.width - 2 * MARGIN
  pdf.font('bold').fontSize(9).text('Amount in words: ', MARGIN, y + 8, { continued: true }).font('regular').text(doc.amountInWords, { width })
  return pdf.y
}

/** One document from a new page on. */
function renderDocument(pdf: Pdf, doc: TaxDocument): void {
  const limit = () => pdf.page.height - BOTTOM
  const cols = columns(doc, pdf.page.width - 2 * MARGIN)
  const titles = cols.map((c) => c.title)
  // A following page says whose it is; returns where its content starts.
  const continued = () => {
    pdf.addPage()
    pdf.font('bold').fontSize(10).text(`${titleOf(doc)} ${doc.number} (continued)`, MARGIN, MARGIN)
    return pdf.y + 6
  }
  let y = row(pdf, cols, titles, heading(pdf, doc), true)
  for (const line of doc.lines) {
    const cells = cols.map((c) => c.cell(line))
    if (y + rowHeight(pdf, cols, cells) > limit()) y = row(pdf, cols, titles, continued(), true)
    y = row(pdf, cols, cells, y, false)
  }
  // The totals and the words stay together: about 120 pt.
  if (y + 120 > limit()) y = continued()
  totals(pdf, doc, y + 10)
}

/** The footer of every page of a document: what it is, and "Page i of n" when it runs over one. */
function footers(pdf: Pdf, doc: TaxDocument, first: number, count: number): void {
  for (let i = 0; i < count; i++) {
    pdf.switchToPage(first + i)
    const bottom = pdf.page.margins.bottom
    pdf.page.margins.bottom = 0 // writing below the bottom margin would otherwise add a page
    const y = pdf.page.height - MARGIN - 8
    const width = pdf.page.width - 2 * MARGIN
    const what = NAMES[doc.type][2]
    pdf.font('regular').fontSize(7.5).fillColor(GREY).text(`This is a computer-generated ${what}`, MARGIN, y, { width, lineBreak: false })
    if (count > 1) pdf.text(`Page ${i + 1} of ${count}`, MARGIN, y, { width, align: 'right', lineBreak: false })
    pdf.fillColor('black')
    pdf.page.margins.bottom = bottom
  }
}

/** The documents in one PDF, each from a new A4 page. Rejects with a RangeError for none. */
export async function renderTaxDocumentsPdf(docs: TaxDocument[]): Promise<Buffer> {
  if (docs.length === 0) throw new RangeError('renderTaxDocumentsPdf: no documents')
  const created = new Date(Math.max(...docs.map((d) => Date.parse(d.issuedAt))))
  const pdf = await notoSansPdf({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM },
    bufferPages: true,
    autoFirstPage: false,
    info: { Title: docs.map((d) => `${titleOf(d)} ${d.number}`).join(', '), Author: docs[0]!.seller.name, CreationDate: created, ModDate: created },
  })
  const done = pdfBuffer(pdf)
  const ranges: Array<[TaxDocument, number, number]> = []
  for (const doc of docs) {
    const first = pdf.bufferedPageRange().count
    pdf.addPage()
    renderDocument(pdf, doc)
    ranges.push([doc, first, pdf.bufferedPageRange().count - first])
  }
  for (const [doc, first, count] of ranges) footers(pdf, doc, first, count)
  pdf.end()
  return done
}
