// The carrier's manifest: the handover sheet the courier signs when it collects a day's parcels,
// one row per parcel (AWB, order, courier, units, weight, cash to collect, e-way bill) with a box to
// tick as each is handed over, the totals, and the signatures of both sides. A4, every page with
// the title, the carrier, the day and the table's header. Pure: the same manifest gives the same bytes.
import { formatPaiseIndian } from '../../lib/money.ts'
import { type Column, count, drawRow, fitColumns, MARGIN, plural, type Row, rowHeight, tableSheet, TICK } from './pdf-table.ts'
import { istDateTime, printedDay } from './print-dates.ts'

type Pdf = PDFKit.PDFDocument

export interface ManifestParcel {
  awb: string
  orderNumber: string
  courierName: string | null
  units: number
  weightGrams: number
  /** Paise the courier collects at the door; 0n for a prepaid parcel. */
  collect: bigint
  ewayBillNo: string | null
}

export interface Manifest {
  carrier: string
  /** The day the parcels were booked, YYYY-MM-DD (India). */
  date: string
  generatedAt: Date
  parcels: ManifestParcel[]
}

const kg = (grams: number) => `${Math.trunc(grams / 1000)}.${String(grams % 1000).padStart(3, '0')}`
const rupees = (paise: bigint) => `₹${formatPaiseIndian(paise)}`

function columns(width: number): Column[] {
  return fitColumns(
    [
      { title: '#', width: 22, align: 'right' },
      { title: 'AWB', width: 92, align: 'left' },
      { title: 'Order', width: 0, align: 'left' },
      { title: 'Courier', width: 78, align: 'left' },
      { title: 'Units', width: 30, align: 'right' },
      { title: 'Kg', width: 40, align: 'right' },
      { title: 'COD', width: 60, align: 'right' },
      { title: 'E-way bill', width: 62, align: 'left' },
      { title: 'Handed', width: TICK, align: 'center', tick: true },
    ],
    width,
  )
}

const parcelRow = (p: ManifestParcel, position: number): Row => ({
  cells: [String(position), p.awb, p.orderNumber, p.courierName ?? '', count(p.units), kg(p.weightGrams), p.collect > 0n ? rupees(p.collect) : '-', p.ewayBillNo ?? '', '[]'],
})

function pageHeader(pdf: Pdf, manifest: Manifest): void {
  const width = pdf.page.width - 2 * MARGIN
  pdf.font('bold').fontSize(16).text(`Manifest: ${manifest.carrier}, ${printedDay(manifest.date)}`, MARGIN, MARGIN, { width: (width * 2) / 3, lineBreak: false })
  pdf.font('regular').fontSize(8.5).text(`Generated ${istDateTime(manifest.generatedAt)}`, MARGIN + width / 2, MARGIN + 2, { width: width / 2, align: 'right', lineBreak: false })
  pdf.fontSize(9).text(`${plural(manifest.parcels.length, 'parcel', 'parcels')} booked that day`, MARGIN, MARGIN + 26, { width, lineBreak: false })
}

/** The totals and the signatures under the table; returns the bottom. */
function totals(pdf: Pdf, manifest: Manifest, y: number): number {
  const width = pdf.page.width - 2 * MARGIN
  const units = manifest.parcels.reduce((sum, p) => sum + p.units, 0)
  const grams = manifest.parcels.reduce((sum, p) => sum + p.weightGrams, 0)
  const cod = manifest.parcels.reduce((sum, p) => sum + p.collect, 0n)
  const codParcels = manifest.parcels.filter((p) => p.collect > 0n).length
  pdf.font('bold').fontSize(10).text('Totals', MARGIN, y, { width })
  pdf.font('regular').fontSize(9)
  pdf.text(`Parcels: ${count(manifest.parcels.length)}    Units: ${count(units)}    Weight: ${kg(grams)} kg    COD: ${rupees(cod)} on ${plural(codParcels, 'parcel', 'parcels')}`, MARGIN, pdf.y + 2, { width })
  pdf.fontSize(8.5).text('Handed over by (name, signature): ______________________________    Parcels counted: ________', MARGIN, pdf.y + 14, { width })
  pdf.text('Received by the courier (name, signature, ID): ______________________________    Date and time: ________________', MARGIN, pdf.y + 12, { width })
  return pdf.y
}

/** The manifest as an A4 PDF. Rejects with a RangeError when the date is not YYYY-MM-DD. */
export async function renderManifestPdf(manifest: Manifest): Promise<Buffer> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(manifest.date)) throw new RangeError(`renderManifestPdf: not a YYYY-MM-DD date: ${manifest.date}`)
  const { pdf, cols, limit, newPage, finish } = await tableSheet({ title: `Manifest ${manifest.carrier} ${manifest.date}`, generatedAt: manifest.generatedAt, columns, pageHeader: (sheet) => pageHeader(sheet, manifest) })
  let y = newPage()
  manifest.parcels.forEach((parcel, i) => {
    const row = parcelRow(parcel, i + 1)
    if (y + rowHeight(pdf, cols, row) > limit) y = newPage()
    y = drawRow(pdf, cols, row, y, false)
  })
  if (manifest.parcels.length === 0) {
    pdf.font('regular').fontSize(9).text('No parcels booked with this carrier that day.', MARGIN, y + 8)
    y = pdf.y
  }
  // The totals and signatures are about 80 pt: they stay whole, on a new page if need be.
  if (y + 90 > limit) y = newPage()
  totals(pdf, manifest, y + 12)
  return finish()
}
