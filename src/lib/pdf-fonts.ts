// The fonts of every PDF the service prints (tax invoices, shipping labels, pick lists): Noto Sans
// from an npm package, resolved like any package (so it works from src/ under tsx and from the
// esbuild bundle, where packages stay external) and embedded as a subset, so the rupee sign ₹ needs
// no font on the reader's machine or in the label printer. The full Noto Sans is used because
// Fontsource's subsets split ₹ (latin-ext) from the Latin letters (latin).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type * as Fontkit from 'fontkit'

const FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
}
type ParsedFont = Fontkit.Font
let fontData: { regular: ParsedFont; bold: ParsedFont } | null = null

/**
 * The font with every glyph that a character maps to created, and cached, with that character
 * (lowest code point first). fontkit caches a glyph object per glyph id with the characters it was
 * first asked for, and pdfkit writes those characters into the PDF's text layer (ToUnicode). When a
 * document's subset takes a composite glyph apart ("…" is three periods), fontkit creates its parts
 * with no characters, and a later document sharing the parsed font printed every "." as a glyph
 * with no text: pdfjs read "pick." back as "pick!" once a label had cut a line with "…". About
 * 15 ms, once.
 */
function withCodePoints(font: ParsedFont): ParsedFont {
  for (const codePoint of [...font.characterSet].sort((a, b) => a - b)) font.glyphForCodePoint(codePoint)
  return font
}

/**
 * The two fonts, read and parsed once per process and shared by every PDF (pdfkit takes a fontkit
 * font): parsing Noto Sans's tables per document cost ~150 ms of a 3-line invoice's ~170 ms.
 */
function notoSans(fontkit: typeof Fontkit): { regular: ParsedFont; bold: ParsedFont } {
  if (!fontData) {
    const require = createRequire(import.meta.url)
    const parse = (file: string) => {
      const font = fontkit.create(readFileSync(require.resolve(file)))
      if (!('characterSet' in font)) throw new Error(`${file}: a font collection, not a font`)
      return withCodePoints(font)
    }
    fontData = { regular: parse(FONT_FILES.regular), bold: parse(FONT_FILES.bold) }
  }
  return fontData
}

/**
 * A new pdfkit document with Noto Sans registered as the fonts named 'regular' and 'bold'. pdfkit
 * and fontkit load with the first PDF a process prints: imported with this module they cost every
 * process about 0.5 s at start (the server, each command-line command, each test file), most of
 * which never print one.
 */
export async function notoSansPdf(options: PDFKit.PDFDocumentOptions): Promise<PDFKit.PDFDocument> {
  const [{ default: PDFDocument }, fontkit] = await Promise.all([import('pdfkit'), import('fontkit')])
  const pdf = new PDFDocument(options)
  const { regular, bold } = notoSans(fontkit)
  pdf.registerFont('regular', regular as never)
  pdf.registerFont('bold', bold as never)
  return pdf
}
