// The fonts every PDF shares (src/lib/pdf-fonts.ts), parsed once per process: what one document
// printed must not change the text that a later one reads back. This file runs in its own process,
// so the first document below is the first to use the fonts.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { pdfBuffer } from '../../src/lib/pdf-buffer.ts'
import { notoSansPdf } from '../../src/lib/pdf-fonts.ts'
import { pdfText } from '../helpers/pdf.ts'

async function pdfOf(font: 'regular' | 'bold', text: string): Promise<Buffer> {
  const pdf = await notoSansPdf({ size: 'A6' })
  const done = pdfBuffer(pdf)
  pdf.font(font).fontSize(10).text(text, 20, 20)
  pdf.end()
  return done
}

test('when a document prints "…" (a composite of three periods) before any prints ".", then later documents still read back "."', async () => {
  for (const font of ['regular', 'bold'] as const) {
    assert.equal(await pdfText(await pdfOf(font, 'Cut here…')), 'Cut here…')
    assert.equal(await pdfText(await pdfOf(font, 'Total ₹1,299.50. Done.')), 'Total ₹1,299.50. Done.')
  }
})

test('what the PDFs print reads back as written: ₹, ×, ·, accented letters', async () => {
  assert.equal(await pdfText(await pdfOf('regular', 'COD: collect ₹1,29,950.00 · 2 × Café crème')), 'COD: collect ₹1,29,950.00 · 2 × Café crème')
})
