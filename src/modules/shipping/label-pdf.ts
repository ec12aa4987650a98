// The shipping label: one 4x6 inch page (288 x 432 pt) for a thermal label printer, stuck on the
// parcel. It carries what the courier acts on, in the order they look for it: the AWB as a Code 128
// barcode (scanned at every hub) with its number under it, where it goes with the pincode large (hubs
// sort by pincode) and as a barcode, whether to collect cash and how much, and the order, weight
// and contents for the packer and for disputes. Everything is black on white (thermal printers
// print no grey) and bounded in height so the label is always one page: long addresses end in "…",
// long item lists in "+N more". Pure: the same label gives the same bytes (the PDF's dates are the
// label's createdAt).
import { formatPaiseIndian } from '../../lib/money.ts'
import { pdfBuffer } from '../../lib/pdf-buffer.ts'
import { notoSansPdf } from '../../lib/pdf-fonts.ts'
import { code128 } from './code128.ts'
import { istDay } from './print-dates.ts'

type Pdf = PDFKit.PDFDocument

export interface ShippingLabel {
  awb: string
  /** The carrier we booked with (its display name). */
  carrier: string
  /** The courier partner the carrier assigned (an aggregator's), if any. */
  courierName: string | null
  orderNumber: string
  shipmentId: string
  createdAt: Date
  paymentMode: 'PREPAID' | 'COD'
  /** Paise the courier collects at the door: more than 0 for COD, 0 for PREPAID. */
  collectAmount: bigint
  weightGrams: number
  deliverTo: { name: string; phone: string; line1: string; line2: string; landmark: string; city: string; state: string; pincode: string }
  /** Where an undelivered parcel goes back to (RTO); null prints none. */
  returnTo: { name: string; address: string } | null
  items: { sku: string; name: string; quantity: number }[]
}

export const LABEL_SIZE: [number, number] = [288, 432]
const [WIDTH, HEIGHT] = LABEL_SIZE
const MARGIN = 10
const INNER = WIDTH - 2 * MARGIN
const PIN_COLUMN = 96 // the pincode and its barcode, right of the address
const ITEM_SIZE = 7.5
const ITEM_LINE = 10

/** The text cut to fit one line of `width` at the current font, ending in "…" when cut. */
function oneLine(pdf: Pdf, text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (pdf.widthOfString(flat) <= width) return flat
  const chars = Array.from(flat) // code points: never half of a surrogate pair
  let lo = 0
  let hi = chars.length
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    if (pdf.widthOfString(`${chars.slice(0, mid).join('').trimEnd()}…`) <= width) lo = mid
    else hi = mid - 1
  }
  return `${chars.slice(0, lo).join('').trimEnd()}…`
}

/** Text wrapped within `width` and at most `lines` lines (the last ends in "…" when cut); returns the bottom. */
function lines(pdf: Pdf, text: string, x: number, y: number, width: number, count: number): number {
  const height = count * pdf.currentLineHeight(true) + 0.5
  pdf.text(text.replace(/\s+/g, ' ').trim(), x, y, { width, height, ellipsis: true })
  return Math.min(pdf.y, y + height)
}

const rule = (pdf: Pdf, y: number, width = 1) => pdf.moveTo(MARGIN, y).lineTo(WIDTH - MARGIN, y).lineWidth(width).strokeColor('black').stroke()

/** 750 -> "0.750 kg": exact, no float rounding. */
function kilograms(grams: number): string {
  const g = Math.max(0, Math.round(grams))
  return `${Math.floor(g / 1000)}.${String(g % 1000).padStart(3, '0')} kg`
}

const codText = (paise: bigint) => `COD: collect ₹${formatPaiseIndian(paise)}`

/** The carrier, the courier and the date; returns the bottom. */
function header(pdf: Pdf, label: ShippingLabel): number {
  pdf.font('regular').fontSize(8).text(istDay(label.createdAt), MARGIN, MARGIN + 3, { width: INNER, align: 'right', lineBreak: false })
  pdf.font('bold').fontSize(14)
  pdf.text(oneLine(pdf, label.carrier, INNER - 70), MARGIN, MARGIN, { lineBreak: false })
  let y = MARGIN + 20
  if (label.courierName) {
    pdf.font('regular').fontSize(8)
    pdf.text(oneLine(pdf, `Courier: ${label.courierName}`, INNER), MARGIN, y, { lineBreak: false })
    y += 11
  }
  return y + 2
}

/** The AWB's barcode across the label with the number under it; returns the bottom. */
async function awbBlock(pdf: Pdf, awb: string, y: number): Promise<number> {
  const bars = await code128(awb, INNER, 4) // quiet zones inside the margins
  const height = 58
  pdf.image(bars.png, (WIDTH - bars.width) / 2, y + 4, { width: bars.width, height })
  pdf.font('bold').fontSize(12).text(oneLine(pdf, awb, INNER), MARGIN, y + height + 6, { width: INNER, align: 'center', lineBreak: false })
  return y + height + 24
}

/** Deliver to: the address on the left, the pincode large and as a barcode on the right; returns the bottom. */
async function addressBlock(pdf: Pdf, to: ShippingLabel['deliverTo'], y: number): Promise<number> {
  const width = INNER - PIN_COLUMN - 6
  pdf.font('bold').fontSize(7).text('DELIVER TO', MARGIN, y + 4, { lineBreak: false })
  pdf.fontSize(11)
  pdf.text(oneLine(pdf, to.name, width), MARGIN, y + 13, { lineBreak: false })
  const address = [to.line1, to.line2, to.landmark ? `Landmark: ${to.landmark}` : '', `${to.city}, ${to.state}`].map((s) => s.trim()).filter(Boolean).join(', ')
  pdf.font('regular').fontSize(8.5)
  let left = lines(pdf, address, MARGIN, y + 29, width, 4)
  pdf.font('bold').fontSize(9)
  pdf.text(oneLine(pdf, `Phone: ${to.phone}`, width), MARGIN, left + 2, { lineBreak: false })
  left += 15

  const x = WIDTH - MARGIN - PIN_COLUMN
  pdf.font('bold').fontSize(7).text('PINCODE', x, y + 4, { width: PIN_COLUMN, align: 'center', lineBreak: false })
  pdf.fontSize(24).text(oneLine(pdf, to.pincode, PIN_COLUMN), x, y + 11, { width: PIN_COLUMN, align: 'center', lineBreak: false })
  let right = y + 45
  // Hubs sort by pincode: its barcode saves typing it. Only a real (six-digit) pincode gets one.
  if (/^\d{6}$/.test(to.pincode)) {
    const bars = await code128(to.pincode, PIN_COLUMN, 2)
    pdf.image(bars.png, x + (PIN_COLUMN - bars.width) / 2, right, { width: bars.width, height: 24 })
    right += 26
  }
  return Math.max(left, right) + 4
}

/** Cash to collect, white on black so it cannot be missed, or PREPAID; returns the bottom. */
function paymentBlock(pdf: Pdf, label: ShippingLabel, y: number): number {
  const height = 32
  if (label.paymentMode === 'COD') {
    pdf.rect(MARGIN, y, INNER, height).fill('black')
    pdf.fillColor('white').font('bold').fontSize(16)
    pdf.text(oneLine(pdf, codText(label.collectAmount), INNER - 8), MARGIN, y + 6, { width: INNER, align: 'center', lineBreak: false })
    pdf.fillColor('black')
  } else {
    pdf.rect(MARGIN + 1, y + 1, INNER - 2, height - 2).lineWidth(2).strokeColor('black').stroke()
    pdf.font('bold').fontSize(16).text('PREPAID', MARGIN, y + 1, { width: INNER, align: 'center', lineBreak: false })
    pdf.font('regular').fontSize(6.5).text('Do not collect cash', MARGIN, y + 22.5, { width: INNER, align: 'center', lineBreak: false })
  }
  return y + height + 4
}

/** Order, shipment and weight; returns the bottom. */
function orderBlock(pdf: Pdf, label: ShippingLabel, y: number): number {
  const half = INNER / 2
  pdf.font('bold').fontSize(9)
  pdf.text(oneLine(pdf, `Order: ${label.orderNumber}`, half), MARGIN, y, { lineBreak: false })
  pdf.text(`Weight: ${kilograms(label.weightGrams)}`, MARGIN + half, y, { width: half, align: 'right', lineBreak: false })
  pdf.font('regular').fontSize(7.5)
  pdf.text(oneLine(pdf, `Shipment: ${label.shipmentId}`, INNER), MARGIN, y + 13, { lineBreak: false })
  return y + 27
}

/** The return address at the foot of the label: its height, to keep the item list above it. */
function returnHeight(pdf: Pdf, returnTo: ShippingLabel['returnTo']): number {
  if (!returnTo) return 0
  pdf.font('regular').fontSize(7)
  return 3 + 9 + 2 * pdf.currentLineHeight(true) + 1
}

function returnBlock(pdf: Pdf, returnTo: NonNullable<ShippingLabel['returnTo']>, y: number): void {
  pdf.font('bold').fontSize(7)
  pdf.text(oneLine(pdf, `If undelivered, return to: ${returnTo.name}`, INNER), MARGIN, y + 3, { lineBreak: false })
  pdf.font('regular').fontSize(7)
  lines(pdf, returnTo.address, MARGIN, y + 12, INNER, 2)
}

/**
 * The items, one line each, in the space between `y` and `bottom`: when they do not all fit, the
 * last line that fits says "+N more" (with their units) instead.
 */
function itemsBlock(pdf: Pdf, items: ShippingLabel['items'], y: number, bottom: number): void {
  const units = items.reduce((sum, i) => sum + i.quantity, 0)
  pdf.font('bold').fontSize(ITEM_SIZE).text(`ITEMS (${items.length} ${items.length === 1 ? 'line' : 'lines'}, ${units} ${units === 1 ? 'unit' : 'units'})`, MARGIN, y, { lineBreak: false })
  y += ITEM_LINE + 1
  const room = Math.max(1, Math.floor((bottom - y) / ITEM_LINE))
  const shown = items.length <= room ? items : items.slice(0, room - 1)
  pdf.font('regular').fontSize(ITEM_SIZE)
  const qtyWidth = 22
  for (const item of shown) {
    pdf.text(`${item.quantity} ×`, MARGIN, y, { width: qtyWidth, align: 'right', lineBreak: false })
    pdf.text(oneLine(pdf, `${item.sku}  ${item.name}`, INNER - qtyWidth - 4), MARGIN + qtyWidth + 4, y, { lineBreak: false })
    y += ITEM_LINE
  }
  const rest = items.slice(shown.length)
  if (rest.length > 0) {
    const restUnits = rest.reduce((sum, i) => sum + i.quantity, 0)
    pdf.font('bold').text(`+${rest.length} more (${restUnits} ${restUnits === 1 ? 'unit' : 'units'})`, MARGIN + qtyWidth + 4, y, { lineBreak: false })
  }
}

/**
 * The label as a one-page 4x6 inch PDF. Rejects with a RangeError when the AWB is not printable
 * ASCII or too long for the label's width, or when the amount to collect does not match the
 * payment mode (a COD label must collect something, a prepaid one nothing: the courier acts on it).
 */
export function renderShippingLabelPdf(label: ShippingLabel): Promise<Buffer> {
  return renderShippingLabelsPdf([label])
}

/**
 * Several labels in one PDF, a page each, in the order given: what the back office prints after
 * booking many parcels at once (one print job for the thermal printer).
 */
export async function renderShippingLabelsPdf(labels: ShippingLabel[]): Promise<Buffer> {
  const [first] = labels
  if (!first) throw new RangeError('renderShippingLabelsPdf: no label')
  for (const label of labels) {
    if (label.paymentMode === 'COD' ? label.collectAmount <= 0n : label.collectAmount !== 0n) {
      throw new RangeError(`renderShippingLabelPdf: ${label.paymentMode} label with ₹${formatPaiseIndian(label.collectAmount)} to collect`)
    }
  }
  const latest = labels.reduce((at, l) => (l.createdAt > at ? l.createdAt : at), first.createdAt)
  const pdf = await notoSansPdf({
    size: LABEL_SIZE,
    // No bottom margin: every text below is bounded, so none runs onto a second page.
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: 0 },
    info:
      labels.length === 1
        ? { Title: `Shipping label ${first.awb}`, Subject: `Order ${first.orderNumber}`, CreationDate: first.createdAt, ModDate: first.createdAt }
        : { Title: `Shipping labels (${labels.length})`, Subject: labels.map((l) => l.awb).join(', '), CreationDate: latest, ModDate: latest },
    autoFirstPage: false,
  })
  const done = pdfBuffer(pdf)
  for (const label of labels) {
    pdf.addPage()
    await drawLabel(pdf, label)
  }
  pdf.end()
  return done
}

async function drawLabel(pdf: Pdf, label: ShippingLabel) {
  let y = header(pdf, label)
  rule(pdf, y, 1.5)
  y = await awbBlock(pdf, label.awb, y)
  rule(pdf, y, 1.5)
  y = await addressBlock(pdf, label.deliverTo, y)
  y = paymentBlock(pdf, label, y)
  y = orderBlock(pdf, label, y)
  rule(pdf, y - 2, 0.75)
  const foot = HEIGHT - MARGIN - returnHeight(pdf, label.returnTo)
  itemsBlock(pdf, label.items, y + 2, foot)
  if (label.returnTo) {
    rule(pdf, foot, 0.75)
    returnBlock(pdf, label.returnTo, foot)
  }
}
