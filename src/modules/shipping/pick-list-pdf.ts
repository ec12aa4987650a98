// The pick list: what the warehouse takes off the shelves for one day's shipments, one line per SKU
// with the total quantity and the orders it goes into (to sort picked units into parcels), on A4
// for an office printer. Every page repeats the title, the date and the table's header, and says
// "Page i of n", so a dropped page can be put back; the totals come last. A line whose orders do
// not fit on one page goes on over the next in "(continued)" rows. Pure: the same list gives the
// same bytes (the PDF's dates are generatedAt).
import { type Column, count, drawRow, fitColumns, MARGIN, plural, type Row, rowHeight, tableSheet, TICK } from './pdf-table.ts'
import { istDateTime, printedDay } from './print-dates.ts'

type Pdf = PDFKit.PDFDocument

export interface PickListLine {
  sku: string
  name: string
  /** Units to pick, over all the orders. */
  quantity: number
  /** The order numbers the units go into. */
  orders: string[]
}

export interface PickList {
  /** The dispatch day, YYYY-MM-DD. */
  date: string
  generatedAt: Date
  lines: PickListLine[]
  /** The shipments the list covers. */
  shipments: number
}

function columns(width: number): Column[] {
  return fitColumns(
    [
      { title: '#', width: 26, align: 'right' },
      { title: 'SKU', width: 96, align: 'left' },
      { title: 'Name', width: 0, align: 'left' },
      { title: 'Qty', width: 36, align: 'right' },
      { title: 'Orders', width: 170, align: 'left' },
      { title: 'Picked', width: TICK, align: 'center', tick: true },
    ],
    width,
  )
}

/** A line's row with these of its orders; the first row of a line has its position, quantity and box. */
function lineRow(line: PickListLine, position: number, orders: string[], first: boolean): Row {
  const name = first ? line.name : `${line.name.trim()} (continued)`
  return { cells: [first ? String(position) : '', line.sku, name, first ? count(line.quantity) : '', orders.join(', '), first ? '[]' : ''] }
}

/** How many of `orders` (at least one) fit in a row of at most `height`: binary search, rows grow with orders. */
function ordersThatFit(pdf: Pdf, cols: Column[], line: PickListLine, position: number, orders: string[], first: boolean, height: number): number {
  let lo = 0
  let hi = orders.length
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    if (rowHeight(pdf, cols, lineRow(line, position, orders.slice(0, mid), first)) <= height) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** The title, the day and when the list was made, at the top of every page (the page number comes later). */
function pageHeader(pdf: Pdf, list: PickList): void {
  const width = pdf.page.width - 2 * MARGIN
  pdf.font('bold').fontSize(16).text(`Pick list: ${printedDay(list.date)}`, MARGIN, MARGIN, { width: width / 2, lineBreak: false })
  pdf.font('regular').fontSize(8.5).text(`Generated ${istDateTime(list.generatedAt)}`, MARGIN + width / 2, MARGIN + 2, { width: width / 2, align: 'right', lineBreak: false })
  const orders = new Set(list.lines.flatMap((l) => l.orders)).size
  pdf.fontSize(9).text(`${plural(list.shipments, 'shipment', 'shipments')}, ${plural(orders, 'order', 'orders')}, ${plural(list.lines.length, 'SKU', 'SKUs')}`, MARGIN, MARGIN + 26, { width, lineBreak: false })
}

/** The totals under the table; returns the bottom. */
function totals(pdf: Pdf, list: PickList, y: number): number {
  const units = list.lines.reduce((sum, l) => sum + l.quantity, 0)
  const orders = new Set(list.lines.flatMap((l) => l.orders)).size
  const width = pdf.page.width - 2 * MARGIN
  pdf.font('bold').fontSize(10).text('Totals', MARGIN, y, { width })
  pdf.font('regular').fontSize(9)
  pdf.text(`SKUs: ${count(list.lines.length)}    Units: ${count(units)}    Orders: ${count(orders)}    Shipments: ${count(list.shipments)}`, MARGIN, pdf.y + 2, { width })
  pdf.fontSize(8.5).text('Picked by: ____________________    Checked by: ____________________', MARGIN, pdf.y + 14, { width })
  return pdf.y
}

/** The pick list as an A4 PDF. Rejects with a RangeError when the date is not YYYY-MM-DD. */
export async function renderPickListPdf(list: PickList): Promise<Buffer> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(list.date)) throw new RangeError(`renderPickListPdf: not a YYYY-MM-DD date: ${list.date}`)
  const { pdf, cols, limit, newPage, finish } = await tableSheet({ title: `Pick list ${list.date}`, generatedAt: list.generatedAt, columns, pageHeader: (sheet) => pageHeader(sheet, list) })
  let y = newPage()
  const top = y
  const room = limit - top
  list.lines.forEach((line, i) => {
    // A line stays whole on one page when it fits on one; one with more orders than a page holds
    // fills the rest of this page and goes on in "(continued)" rows.
    let rest = line.orders
    let first = true
    for (;;) {
      const row = lineRow(line, i + 1, rest, first)
      const height = rowHeight(pdf, cols, row)
      if (y + height <= limit) {
        y = drawRow(pdf, cols, row, y, false)
        break
      }
      if (first && height <= room) {
        y = newPage()
        continue
      }
      const n = ordersThatFit(pdf, cols, line, i + 1, rest, first, limit - y)
      if (n === 0 && y > top) {
        y = newPage()
        continue
      }
      y = drawRow(pdf, cols, lineRow(line, i + 1, rest.slice(0, Math.max(n, 1)), first), y, false)
      rest = rest.slice(Math.max(n, 1))
      first = false
    }
  })
  if (list.lines.length === 0) {
    pdf.font('regular').fontSize(9).text('Nothing to pick.', MARGIN, y + 8)
    y = pdf.y
  }
  // The totals block is about 60 pt: it stays whole, on a new page (with its header) if need be.
  if (y + 70 > limit) y = newPage()
  totals(pdf, list, y + 12)
  return finish()
}
