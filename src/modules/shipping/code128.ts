// Code 128 barcodes for printed labels (bwip-js draws the bars). The PNG has one pixel per dot of a
// 203 dpi thermal printer, the resolution of nearly every 4x6 label printer, and each bar is a whole
// number of dots wide: a bar scaled to 2.6 dots prints as 2 or 3 at random and scanners misread the
// narrow/wide ratios. Rows are identical, so the image is a few pixels high and stretched upright.

/** One dot of a 203 dpi printer, in PDF points. */
export const PRINTER_DOT = 72 / 203
/** The blank space a scanner needs on each side of the bars, in modules (ISO/IEC 15417: 10). */
export const QUIET_ZONE_MODULES = 10

export interface Barcode {
  png: Buffer
  /** The bars' width in PDF points (the image printed at 203 dpi). */
  width: number
  /** The narrow bar's width in points, for the quiet zone around it. */
  module: number
}

/** The PNG's width in pixels, from its IHDR chunk. */
const pngWidth = (png: Buffer) => png.readUInt32BE(16)

/**
 * `text` as Code 128 bars at most `maxWidth` points wide with their quiet zones, each module
 * `maxDots` dots of a 203 dpi printer wide or fewer to fit. Rejects with a RangeError when the text
 * is not printable ASCII or does not fit with one-dot modules.
 */
export async function code128(text: string, maxWidth: number, maxDots: number): Promise<Barcode> {
  if (!/^[\x20-\x7e]+$/.test(text)) throw new RangeError(`Code 128: not printable ASCII: ${JSON.stringify(text)}`)
  // bwip-js loads with the first barcode (about 0.1 s of every process's start otherwise).
  const { default: bwipjs } = await import('bwip-js')
  const options = { bcid: 'code128', text, height: 2, scaleY: 1, backgroundcolor: 'FFFFFF' }
  const modules = pngWidth(await bwipjs.toBuffer({ ...options, scaleX: 1 }))
  const dots = Math.min(maxDots, Math.floor(maxWidth / PRINTER_DOT / (modules + 2 * QUIET_ZONE_MODULES)))
  if (dots < 1) throw new RangeError(`Code 128: "${text}" needs ${modules} modules, too wide for ${maxWidth} pt`)
  const png = await bwipjs.toBuffer({ ...options, scaleX: dots })
  return { png, width: pngWidth(png) * PRINTER_DOT, module: dots * PRINTER_DOT }
}
