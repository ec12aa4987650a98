// The table the warehouse's A4 sheets are drawn with (the pick list, the carrier's manifest): a
// shaded header row, rows that grow with their text, a box to tick in a column that asks for one,
// and "Page i of n" on every page once the count is known.
import { formatPaiseIndian } from '../../lib/money.ts'
import { pdfBuffer } from '../../lib/pdf-buffer.ts'
import { notoSansPdf } from '../../lib/pdf-fonts.ts'

type Pdf = PDFKit.PDFDocument

export type Align = 'left' | 'right' | 'center'
export interface Column {
  title: string
  width: number
  align: Align
  /** A cell '[]' in this column is drawn as an empty box to tick. */
  tick?: boolean
}
export interface Row {
  cells: string[]
  bold?: boolean
}

export const MARGIN = 36
export const TABLE_TOP = 80 // below the page header
export const BOTTOM = 40
const SIZE = 8
const PAD = 3
/** The width of a column of boxes to tick. */
export const TICK = 34

/** 7260 -> "7,260", 123456 -> "1,23,456": Indian grouping, as on the money. */
export const count = (n: number) => formatPaiseIndian(BigInt(n) * 100n).slice(0, -3)
export const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`

/** The columns across the page's width: the one of width 0 takes what the others leave. */
export function fitColumns(fixed: Column[], width: number): Column[] {
  const used = fixed.reduce((sum, c) => sum + c.width, 0)
  return fixed.map((c) => (c.width === 0 ? { ...c, width: width - used } : c))
}

export function rowHeight(pdf: Pdf, cols: Column[], row: Row): number {
  pdf.font(row.bold ? 'bold' : 'regular').fontSize(SIZE)
  return Math.max(...cols.map((c, i) => pdf.heightOfString(row.cells[i] || ' ', { width: c.width - 2 * PAD }))) + 2 * PAD
}

/** One row at y; returns its bottom. The header row is shaded. */
export function drawRow(pdf: Pdf, cols: Column[], row: Row, y: number, header: boolean): number {
  const height = rowHeight(pdf, cols, row)
  const right = pdf.page.width - MARGIN
  if (header) pdf.rect(MARGIN, y, right - MARGIN, height).fill('#e6e6e6').fillColor('black')
  pdf.font(row.bold ? 'bold' : 'regular').fontSize(SIZE)
  let x = MARGIN
  cols.forEach((c, i) => {
    if (!header && c.tick && row.cells[i] === '[]') {
      pdf.rect(x + (c.width - 9) / 2, y + PAD + 1, 9, 9).lineWidth(0.75).strokeColor('black').stroke()
    } else {
      pdf.text(row.cells[i]!, x + PAD, y + PAD, { width: c.width - 2 * PAD, align: c.align })
    }
    x += c.width
  })
  pdf.moveTo(MARGIN, y + height).lineTo(right, y + height).lineWidth(0.5).strokeColor('#999999').stroke()
  return y + height
}

/** "Page i of n" at the top right of every page, once the page count is known. */
export function pageNumbers(pdf: Pdf): void {
  const { count: pages } = pdf.bufferedPageRange()
  const width = pdf.page.width - 2 * MARGIN
  for (let i = 0; i < pages; i++) {
    pdf.switchToPage(i)
    pdf.font('regular').fontSize(8.5).text(`Page ${i + 1} of ${pages}`, MARGIN + width / 2, MARGIN + 14, { width: width / 2, align: 'right', lineBreak: false })
  }
}

/**
 * An A4 sheet of one table: every page starts with `pageHeader` and the table's header row;
 * `newPage()` starts the next one and answers where its rows begin, `limit` is where they must end,
 * and `finish()` numbers the pages and answers the PDF. Pure: the same input gives the same bytes
 * (the PDF's dates are `generatedAt`).
 */
export async function tableSheet(options: { title: string; generatedAt: Date; columns: (width: number) => Column[]; pageHeader: (pdf: Pdf) => void }) {
  const pdf = await notoSansPdf({
    size: 'A4',
    // No bottom margin for pdfkit: the layouts break pages themselves, before `limit`.
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: 0 },
    bufferPages: true,
    info: { Title: options.title, CreationDate: options.generatedAt, ModDate: options.generatedAt },
  })
  const done = pdfBuffer(pdf)
  const cols = options.columns(pdf.page.width - 2 * MARGIN)
  const header: Row = { cells: cols.map((c) => c.title), bold: true }
  let started = false
  const newPage = () => {
    if (started) pdf.addPage()
    started = true
    options.pageHeader(pdf)
    return drawRow(pdf, cols, header, TABLE_TOP, true)
  }
  const finish = () => {
    pageNumbers(pdf)
    pdf.end()
    return done
  }
  return { pdf, cols, limit: pdf.page.height - BOTTOM, newPage, finish }
}
