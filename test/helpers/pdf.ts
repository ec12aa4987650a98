// The text and images of a PDF, read back with pdfjs (the PDF tests check what a reader of the PDF sees).
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs'

/** The text of each page, whitespace collapsed to single spaces. */
export async function pdfPageTexts(pdf: Buffer | Uint8Array): Promise<string[]> {
  const loaded = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, disableFontFace: true, verbosity: 0 }).promise
  const pages: string[] = []
  for (let n = 1; n <= loaded.numPages; n++) {
    const content = await (await loaded.getPage(n)).getTextContent()
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' ').replace(/\s+/g, ' '))
  }
  await loaded.destroy()
  return pages
}

/** All pages' text, one space between pages. */
export const pdfText = async (pdf: Buffer | Uint8Array) => (await pdfPageTexts(pdf)).join(' ')

export interface PdfImage {
  page: number
  /** Pixels. */
  width: number
  height: number
  /** Whether the pixel at (x, y) is dark (luminance below half). */
  dark: (x: number, y: number) => boolean
  /** Where the image is printed, in points from the page's top left corner. */
  box: { x: number; y: number; width: number; height: number }
}

type Matrix = [number, number, number, number, number, number]
const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5],
]

/** The raster images drawn on each page, decoded by pdfjs, with where they are printed. */
export async function pdfImages(pdf: Buffer | Uint8Array): Promise<PdfImage[]> {
  const loaded = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, disableFontFace: true, isOffscreenCanvasSupported: false, verbosity: 0 }).promise
  const images: PdfImage[] = []
  for (let n = 1; n <= loaded.numPages; n++) {
    const page = await loaded.getPage(n)
    const [, , , pageHeight] = page.view as [number, number, number, number]
    const ops = await page.getOperatorList()
    let ctm: Matrix = [1, 0, 0, 1, 0, 0]
    const saved: Matrix[] = []
    for (let i = 0; i < ops.fnArray.length; i++) {
      const op = ops.fnArray[i]
      const args = ops.argsArray[i] as unknown[]
      if (op === OPS.save) saved.push(ctm)
      else if (op === OPS.restore) ctm = saved.pop() ?? ctm
      else if (op === OPS.transform) ctm = multiply(args as Matrix, ctm)
      else if (op === OPS.paintImageXObject) {
        const name = args[0] as string
        const img = await new Promise<{ width: number; height: number; kind: number; data: Uint8ClampedArray }>((resolve) => page.objs.get(name, resolve))
        // kind 1: one bit a pixel, rows padded to bytes; 2: RGB; 3: RGBA.
        const channels = img.kind === 3 ? 4 : 3
        const rowBytes = (img.width + 7) >> 3
        const dark = img.kind === 1
          ? (x: number, y: number) => ((img.data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1) === 0
          : (x: number, y: number) => {
              const at = (y * img.width + x) * channels
              return 0.299 * img.data[at]! + 0.587 * img.data[at + 1]! + 0.114 * img.data[at + 2]! < 128
            }
        // The unit square mapped by the CTM; PDF's y axis goes up.
        const [a, , , d, e, f] = ctm
        const box = { x: Math.min(e, e + a), y: pageHeight - Math.max(f, f + d), width: Math.abs(a), height: Math.abs(d) }
        images.push({ page: n, width: img.width, height: img.height, dark, box })
      }
    }
  }
  await loaded.destroy()
  return images
}
