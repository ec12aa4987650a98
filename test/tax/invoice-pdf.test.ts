// The PDF of a GST document (src/modules/tax/invoice-pdf.ts), read back with pdfjs: its text must
// carry what rule 46 asks (number, GSTIN, HSN codes, taxes by component, totals, amount in words),
// the ₹ sign must come back as ₹ (the embedded font maps it), and a long invoice must run onto more
// pages with the table's header repeated. Documents are built with the GST arithmetic of lib/gst.ts
// so that their lines and totals agree as an issued document's do.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { amountInWords } from '../../src/lib/amount-in-words.ts'
import { sumTaxLines, taxLines, type TaxedLine } from '../../src/lib/gst.ts'
import { formatPaise, formatPaiseIndian, parseRupees } from '../../src/lib/money.ts'
import type { DocumentLine, TaxDocument } from '../../src/modules/tax/document.ts'
import { renderTaxDocumentsPdf } from '../../src/modules/tax/invoice-pdf.ts'
import { pdfPageTexts } from '../helpers/pdf.ts'

interface LineInput { kind?: DocumentLine['kind']; description: string; hsnCode: string; quantity: number; unitPrice: bigint; rateBps: number }

const SELLER = {
  name: 'Udyog Retail Private Limited',
  tradeName: 'Udyog Mart',
  gstin: '29AABCU9603R1ZM',
  phone: null,
  address: { line1: '12, 4th Cross, Indiranagar', line2: 'HAL 2nd Stage', city: 'Bengaluru', state: 'Karnataka', pincode: '560038' },
  stateCode: '29',
}
const buyer = (state: string, stateCode: string, city: string, pincode: string) => ({
  name: 'Ananya Rao',
  tradeName: null,
  gstin: null,
  phone: '+919812345678',
  address: { line1: 'Flat 301, Lake View Apartments', line2: null, city, state, pincode },
  stateCode,
})

/** A document whose lines and totals are computed as the service computes them: the coupon on the goods only. */
function document(type: TaxDocument['type'], number: string, intraState: boolean, goods: LineInput[], charges: LineInput[], coupon: bigint): TaxDocument {
  const kind = intraState ? 'INTRA_STATE' : 'INTER_STATE'
  const taxed = (inputs: LineInput[], discount: bigint) => taxLines(inputs.map((l) => ({ amount: l.unitPrice * BigInt(l.quantity), rateBps: l.rateBps })), discount, kind)
  const all: Array<[LineInput, TaxedLine]> = [...goods, ...charges].map((l, i) => [l, [...taxed(goods, coupon), ...taxed(charges, 0n)][i]!])
  const totals = sumTaxLines(all.map(([, t]) => t))
  const buyerParty = intraState ? buyer('Karnataka', '29', 'Mysuru', '570001') : buyer('Maharashtra', '27', 'Pune', '411001')
  return {
    id: `doc-${number}`,
    type,
    number,
    financialYear: '2026-27',
    issuedAt: '2026-05-04T06:30:00.000Z',
    date: '2026-05-04',
    orderId: 'order-1',
    orderNumber: 'ORD-100234',
    invoice: type === 'CREDIT_NOTE' ? { id: 'doc-inv', number: 'IN/26-27/0000101', date: '2026-04-28' } : null,
    reason: type === 'CREDIT_NOTE' ? 'Return of 1 unit: damaged in transit' : null,
    seller: SELLER,
    buyer: buyerParty,
    placeOfSupply: { state: buyerParty.address.state, stateCode: buyerParty.stateCode },
    intraState,
    reverseCharge: false,
    lines: all.map(([l, t], i) => ({
      position: i + 1,
      kind: l.kind ?? 'GOODS',
      description: l.description,
      hsnCode: l.hsnCode,
      quantity: l.quantity,
      unit: l.kind && l.kind !== 'GOODS' ? 'OTH' : 'NOS',
      unitPrice: formatPaise(l.unitPrice),
      amount: formatPaise(t.amount),
      discount: formatPaise(t.discount),
      taxableValue: formatPaise(t.taxable),
      gstRateBps: l.rateBps,
      gstRate: `${l.rateBps / 100}%`,
      cgst: formatPaise(t.cgst),
      sgst: formatPaise(t.sgst),
      igst: formatPaise(t.igst),
      total: formatPaise(t.net),
    })),
    totals: {
      taxableValue: formatPaise(totals.taxable),
      cgst: formatPaise(totals.cgst),
      sgst: formatPaise(totals.sgst),
      igst: formatPaise(totals.igst),
      tax: formatPaise(totals.tax),
      total: formatPaise(totals.net),
    },
    amountInWords: amountInWords(totals.net),
  }
}

const CHARGES: LineInput[] = [
  { kind: 'SHIPPING', description: 'Shipping', hsnCode: '996812', quantity: 1, unitPrice: 99_00n, rateBps: 1800 },
  { kind: 'COD_FEE', description: 'Cash on delivery fee', hsnCode: '999799', quantity: 1, unitPrice: 49_00n, rateBps: 1800 },
]
const INVOICE = document('TAX_INVOICE', 'IN/26-27/0000123', true, [
  { description: 'Samsung Galaxy Tab S9 FE 10.9 inch, 8 GB RAM, 256 GB storage, Wi-Fi + 5G, Mint, with S Pen in the box and a two-year manufacturer warranty', hsnCode: '847130', quantity: 2, unitPrice: 49_999_00n, rateBps: 1800 },
  { description: 'Cotton kurta, indigo, size M', hsnCode: '6211', quantity: 1, unitPrice: 24_999_00n, rateBps: 1200 },
  { description: 'Steel water bottle 1 L', hsnCode: '732393', quantity: 3, unitPrice: 1_499_50n, rateBps: 1200 },
], CHARGES, 500_00n)
const CREDIT_NOTE = document('CREDIT_NOTE', 'CN/26-27/0000007', false, [
  { description: 'Cotton kurta, indigo, size M', hsnCode: '6211', quantity: 1, unitPrice: 1_299_50n, rateBps: 500 },
], [], 0n)
const LONG_INVOICE = document('TAX_INVOICE', 'IN/26-27/0000124', true, Array.from({ length: 60 }, (_, i) => ({
  description: `Notebook, ruled, 200 pages, pack ${i + 1}`, hsnCode: '482020', quantity: 1 + (i % 4), unitPrice: 120_00n + BigInt(i) * 10n, rateBps: 1200,
})), [], 0n)

const pageTexts = pdfPageTexts
const rupees = (amount: string) => `₹${formatPaiseIndian(parseRupees(amount)!)}`

describe('renderTaxDocumentsPdf: a GST document as a PDF', () => {
  test('an intra-state invoice: number, GSTIN, every HSN, CGST and SGST, totals with ₹ in Indian grouping, the amount in words', async () => {
    const pdf = await renderTaxDocumentsPdf([INVOICE])
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-')
    const pages = await pageTexts(pdf)
    assert.equal(pages.length, 1)
    const text = pages[0]!
    for (const expected of ['Tax Invoice', 'IN/26-27/0000123', '04 May 2026', 'GSTIN: 29AABCU9603R1ZM', 'Udyog Mart', 'Bill to / Ship to', 'Ananya Rao', 'Place of supply: Karnataka (State code: 29)', 'Reverse charge: No', 'CGST', 'SGST', 'This is a computer-generated invoice']) {
      assert.ok(text.includes(expected), `"${expected}" in: ${text}`)
    }
    for (const line of INVOICE.lines) assert.ok(text.includes(line.hsnCode), `HSN ${line.hsnCode}`)
    assert.ok(!text.includes('IGST'), 'no IGST on an intra-state supply')
    // Wrapped over lines (at spaces or after a hyphen), all of it: compared without the spaces.
    assert.ok(text.replaceAll(' ', '').includes(INVOICE.lines[0]!.description.replaceAll(' ', '')), 'the long description is wrapped, not cut')
    // The figures of this fixture, written out: a wrong total or grouping shows here.
    assert.equal(INVOICE.totals.total, '129143.50')
    assert.equal(INVOICE.amountInWords, 'Rupees One Lakh Twenty-Nine Thousand One Hundred Forty-Three and Fifty Paise Only')
    assert.ok(text.includes('Total ₹1,29,143.50'), 'the total with ₹ (the font maps U+20B9 back to ₹)')
    for (const amount of [INVOICE.totals.taxableValue, INVOICE.totals.cgst, INVOICE.totals.sgst, INVOICE.totals.tax]) assert.ok(text.includes(rupees(amount)), rupees(amount))
    assert.ok(text.includes(INVOICE.amountInWords))
    assert.ok(!/Page \d of/.test(text), 'no page numbers on a one-page document')
  })

  test('an inter-state credit note: the invoice it reverses, the reason, IGST only', async () => {
    const text = (await pageTexts(await renderTaxDocumentsPdf([CREDIT_NOTE]))).join(' ')
    for (const expected of ['Credit Note', 'CN/26-27/0000007', 'Against invoice: IN/26-27/0000101 dated 28 Apr 2026', 'Reason: Return of 1 unit: damaged in transit', 'IGST', '6211', 'Place of supply: Maharashtra (State code: 27)', 'Rupees One Thousand Two Hundred Ninety-Nine and Fifty Paise Only']) {
      assert.ok(text.includes(expected), `"${expected}" in: ${text}`)
    }
    assert.ok(text.includes(`IGST ${rupees(CREDIT_NOTE.totals.igst)}`))
    assert.ok(text.includes('₹1,299.50'))
    assert.ok(!text.includes('CGST') && !text.includes('SGST'), 'no CGST or SGST on an inter-state supply')
  })

  test('60 lines run onto more pages, each with the table header and "Page i of n"', async () => {
    const pages = await pageTexts(await renderTaxDocumentsPdf([LONG_INVOICE]))
    assert.ok(pages.length > 1, `${pages.length} pages`)
    pages.forEach((text, i) => {
      for (const header of ['HSN', 'Taxable value (₹)', 'CGST (₹)', 'SGST (₹)', 'IN/26-27/0000124', `Page ${i + 1} of ${pages.length}`]) assert.ok(text.includes(header), `page ${i + 1}: "${header}"`)
    })
    assert.ok(pages.at(-1)!.includes(LONG_INVOICE.amountInWords))
    const all = pages.join(' ')
    // Each line once, its position whole (not wrapped digit by digit) before its description.
    for (let n = 1; n <= 60; n++) assert.ok(all.includes(`${n} Notebook, ruled,`) && new RegExp(`pack ${n}\\b`).test(all), `line ${n}`)
  })

  test('several documents in one PDF, each from a new page; the same input gives the same bytes', async () => {
    const pdf = await renderTaxDocumentsPdf([INVOICE, CREDIT_NOTE])
    const pages = await pageTexts(pdf)
    assert.equal(pages.length, 2)
    assert.ok(pages[0]!.includes('Tax Invoice') && pages[1]!.includes('Credit Note'))
    assert.ok(pages[1]!.includes('This is a computer-generated credit note'))
    assert.ok(pdf.equals(await renderTaxDocumentsPdf([INVOICE, CREDIT_NOTE])), 'deterministic')
    assert.ok(pdf.includes('(D:20260504063000Z)'), 'the creation date is the issue time, not the time of rendering')
  })

  test('rupees in Indian digit grouping: thousand, lakh, crore', () => {
    const cases: Array<[bigint, string]> = [[0n, '0.00'], [99_999n, '999.99'], [1_000_00n, '1,000.00'], [1_29_950_00n, '1,29,950.00'], [1_23_45_67_890_12n, '1,23,45,67,890.12'], [-1_299_50n, '-1,299.50']]
    for (const [paise, text] of cases) assert.equal(formatPaiseIndian(paise), text)
  })

  test('no documents: a RangeError', async () => {
    await assert.rejects(renderTaxDocumentsPdf([]), RangeError)
  })
})
