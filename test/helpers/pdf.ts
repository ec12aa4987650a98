// The text of a PDF, read back with pdfjs (the invoice tests check what a reader of the PDF sees).
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'

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
