// The shipping label (src/modules/shipping/label-pdf.ts) and the pick list (pick-list-pdf.ts), read
// back with pdfjs as a reader or a scanner sees them: the label's text (AWB, pincode, order, what to
// collect in ₹ with Indian grouping, or PREPAID), always one 4x6 inch page however long the item
// list or the address; its barcodes read with a Code 128 reader written from the standard (so a
// barcode of other text, or a damaged one, fails), with bars a whole number of 203 dpi dots wide;
// the pick list over several A4 pages with its header on each and the totals at the end.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { renderShippingLabelPdf, type ShippingLabel } from '../../src/modules/shipping/label-pdf.ts'
import { renderPickListPdf, type PickList } from '../../src/modules/shipping/pick-list-pdf.ts'
import { readCode128 } from '../helpers/code128.ts'
import { pdfImages, pdfPageTexts, type PdfImage } from '../helpers/pdf.ts'

const LABEL: ShippingLabel = {
  awb: 'SF1234567890123',
  carrier: 'Shiprocket',
  courierName: 'Delhivery Surface',
  orderNumber: 'CM-2026-000123',
  shipmentId: 'shp_01HX3ABCDEF',
  createdAt: new Date('2026-05-04T20:30:00Z'), // 05 May in India
  paymentMode: 'COD',
  collectAmount: 1_234_00n,
  weightGrams: 750,
  deliverTo: {
    name: 'Ananya Rao',
    phone: '+919812345678',
    line1: 'Flat 301, Lake View Apartments',
    line2: '5th Main, HSR Layout Sector 2',
    landmark: 'Opposite BDA Complex',
    city: 'Bengaluru',
    state: 'Karnataka',
    pincode: '560102',
  },
  returnTo: { name: 'Udyog Retail Pvt Ltd', address: '12, 4th Cross, Indiranagar, Bengaluru, Karnataka 560038' },
  items: [
    { sku: 'KRT-IND-M', name: 'Cotton kurta, indigo, M', quantity: 2 },
    { sku: 'DUP-RED', name: 'Silk dupatta, red', quantity: 1 },
  ],
}
const PREPAID: ShippingLabel = { ...LABEL, paymentMode: 'PREPAID', collectAmount: 0n }

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ sku: `SKU-${String(i + 1).padStart(3, '0')}`, name: `Block-printed cotton bedsheet, double, design ${i + 1}`, quantity: (i % 3) + 1 }))

/** What a scanner reads across the middle of the image. */
function scan(image: PdfImage) {
  const y = Math.floor(image.height / 2)
  return readCode128(Array.from({ length: image.width }, (_, x) => image.dark(x, y)))
}

const DOT = 72 / 203

describe('shipping label', () => {
  test('a COD label: AWB, pincode, order, "COD: collect ₹1,234.00", weight, items and the return address, on one 4x6 inch page', async () => {
    const pdf = await renderShippingLabelPdf(LABEL)
    const pages = await pdfPageTexts(pdf)
    assert.equal(pages.length, 1)
    assert.ok(pdf.includes('/MediaBox [0 0 288 432]'), '4 x 6 inches')
    const text = pages[0]!
    for (const expected of ['SF1234567890123', '560102', 'Order: CM-2026-000123', 'Shipment: shp_01HX3ABCDEF', 'COD: collect ₹1,234.00', 'Weight: 0.750 kg', 'Shiprocket', 'Courier: Delhivery Surface', '05 May 2026', 'Ananya Rao', 'Phone: +919812345678', 'Landmark: Opposite BDA Complex', 'Bengaluru, Karnataka', '2 × KRT-IND-M Cotton kurta, indigo, M', '1 × DUP-RED Silk dupatta, red', 'ITEMS (2 lines, 3 units)', 'If undelivered, return to: Udyog Retail Pvt Ltd', '12, 4th Cross, Indiranagar']) {
      assert.ok(text.includes(expected), `"${expected}" in: ${text}`)
    }
    assert.ok(!text.includes('PREPAID') && !text.includes('more'))
  })

  test('the amount to collect in rupees with Indian grouping: lakh and crore', async () => {
    for (const [paise, shown] of [[1_29_950_50n, '₹1,29,950.50'], [1_00_00_000_00n, '₹1,00,00,000.00'], [99n, '₹0.99']] as const) {
      const text = (await pdfPageTexts(await renderShippingLabelPdf({ ...LABEL, collectAmount: paise })))[0]!
      assert.ok(text.includes(`COD: collect ${shown}`), `${shown} in: ${text}`)
    }
  })

  test('a prepaid label says PREPAID and names no amount to collect', async () => {
    const text = (await pdfPageTexts(await renderShippingLabelPdf(PREPAID)))[0]!
    assert.ok(text.includes('PREPAID') && text.includes('Do not collect cash'))
    assert.ok(!/\bCOD\b/.test(text) && !text.includes('₹'), text)
  })

  test('the AWB barcode reads back as the AWB (and another AWB as that one), bars whole 203 dpi dots; the pincode barcode as the pincode', async () => {
    for (const awb of ['SF1234567890123', 'SF1234567890124', '1234567890123', 'DL-77/88 x9']) {
      const images = await pdfImages(await renderShippingLabelPdf({ ...LABEL, awb }))
      assert.equal(images.length, 2, 'two barcodes: the AWB and the pincode')
      const [bars, pin] = [...images].sort((a, b) => a.box.y - b.box.y)
      const read = scan(bars!)
      assert.equal(read.text, awb)
      assert.ok(read.exact && Number.isInteger(read.modulePixels), `every bar a whole number of pixels: ${read.modulePixels}`)
      assert.ok(Math.abs(bars!.box.width - bars!.width * DOT) < 0.01, 'one pixel is one dot of a 203 dpi printer')
      const module = read.modulePixels * DOT
      assert.ok(bars!.box.x >= 10 * module && 288 - bars!.box.x - bars!.box.width >= 10 * module, 'a quiet zone of 10 modules on each side')
      assert.ok(bars!.box.height >= 50, `tall enough to scan across: ${bars!.box.height} pt`)
      assert.equal(scan(pin!).text, '560102')
    }
  })

  test('a long item list ends in "+N more" with the units left and stays one page', async () => {
    const many = items(40)
    const pdf = await renderShippingLabelPdf({ ...LABEL, items: many })
    const pages = await pdfPageTexts(pdf)
    assert.equal(pages.length, 1)
    const text = pages[0]!
    const shown = many.filter((i) => text.includes(`${i.quantity} × ${i.sku} `))
    assert.ok(shown.length >= 5, `${shown.length} items shown`)
    assert.deepEqual(shown, many.slice(0, shown.length), 'the first items, in order')
    const rest = many.slice(shown.length)
    const units = rest.reduce((sum, i) => sum + i.quantity, 0)
    assert.ok(text.includes(`+${rest.length} more (${units} units)`), text)
    assert.ok(text.includes(`ITEMS (40 lines, ${many.reduce((sum, i) => sum + i.quantity, 0)} units)`))
    assert.ok(text.includes('If undelivered, return to'), 'the return address is still there')
    // No room wasted: a list one item longer than those shown fits whole, in the "+N more" line's place.
    const fitting = items(shown.length + 1)
    const all = (await pdfPageTexts(await renderShippingLabelPdf({ ...LABEL, items: fitting })))[0]!
    assert.ok(fitting.every((i) => all.includes(`${i.quantity} × ${i.sku} `)) && !all.includes('more'), all)
  })

  test('long names, address and return address are cut with "…" and the label stays one page with its barcode readable', async () => {
    const long = 'Sri Venkateswara Enterprises and Associated Trading Company '.repeat(6)
    const label: ShippingLabel = {
      ...LABEL,
      carrier: long,
      courierName: long,
      orderNumber: 'CM-2026-000999',
      deliverTo: { ...LABEL.deliverTo, name: long, line1: long, line2: long, landmark: long },
      returnTo: { name: long, address: long },
      items: items(3).map((i) => ({ ...i, name: long })),
    }
    const pdf = await renderShippingLabelPdf(label)
    const pages = await pdfPageTexts(pdf)
    assert.equal(pages.length, 1)
    for (const expected of ['…', 'COD: collect ₹1,234.00', 'Order: CM-2026-000999', '560102', 'Weight: 0.750 kg']) assert.ok(pages[0]!.includes(expected), expected)
    const images = await pdfImages(pdf)
    assert.equal(scan([...images].sort((a, b) => a.box.y - b.box.y)[0]!).text, LABEL.awb)
  })

  test('no return address and no courier name: neither printed; no items: an empty list', async () => {
    const text = (await pdfPageTexts(await renderShippingLabelPdf({ ...LABEL, returnTo: null, courierName: null, items: [] })))[0]!
    assert.ok(!text.includes('return to') && !text.includes('Courier:'))
    assert.ok(text.includes('ITEMS (0 lines, 0 units)'))
  })

  test('a pincode that is not six digits is printed without a barcode', async () => {
    const pdf = await renderShippingLabelPdf({ ...LABEL, deliverTo: { ...LABEL.deliverTo, pincode: '56010' } })
    assert.equal((await pdfImages(pdf)).length, 1)
    assert.ok((await pdfPageTexts(pdf))[0]!.includes('56010'))
  })

  test('the same label gives the same bytes, dated when the label was created', async () => {
    const pdf = await renderShippingLabelPdf(LABEL)
    assert.ok(pdf.equals(await renderShippingLabelPdf(LABEL)))
    assert.ok(pdf.includes('(D:20260504203000Z)'))
  })

  test('a COD label with nothing to collect, a prepaid one with an amount, or an AWB that is not printable ASCII or too long: a RangeError', async () => {
    await assert.rejects(renderShippingLabelPdf({ ...LABEL, collectAmount: 0n }), RangeError)
    await assert.rejects(renderShippingLabelPdf({ ...PREPAID, collectAmount: 100n }), RangeError)
    await assert.rejects(renderShippingLabelPdf({ ...LABEL, awb: 'SF–123' }), RangeError) // en dash
    await assert.rejects(renderShippingLabelPdf({ ...LABEL, awb: '' }), RangeError)
    await assert.rejects(renderShippingLabelPdf({ ...LABEL, awb: 'AB'.repeat(60) }), RangeError)
  })
})

describe('pick list', () => {
  const line = (i: number): PickList['lines'][number] => ({
    sku: `SKU-${String(i + 1).padStart(4, '0')}`,
    name: i % 7 === 0 ? `Handloom cotton saree with zari border, design ${i + 1}, that wraps over two lines` : `Cotton kurta, indigo, design ${i + 1}`,
    quantity: (i % 5) + 1,
    orders: Array.from({ length: (i % 3) + 1 }, (_, j) => `CM-2026-${String(1000 + ((i * 2 + j) % 150)).padStart(6, '0')}`),
  })
  const LIST: PickList = { date: '2026-05-04', generatedAt: new Date('2026-05-04T02:15:00Z'), lines: Array.from({ length: 120 }, (_, i) => line(i)), shipments: 148 }

  test('120 lines run over several A4 pages, each with the title, date, table header and "Page i of n"; every line once; totals at the end', async () => {
    const pdf = await renderPickListPdf(LIST)
    assert.ok(pdf.includes('/MediaBox [0 0 595.28 841.89]'), 'A4')
    const pages = await pdfPageTexts(pdf)
    assert.ok(pages.length >= 3, `${pages.length} pages`)
    pages.forEach((text, i) => {
      for (const expected of ['Pick list: 04 May 2026', 'Generated 04 May 2026, 07:45 IST', '# SKU Name Qty Orders Picked', `Page ${i + 1} of ${pages.length}`]) assert.ok(text.includes(expected), `page ${i + 1}: "${expected}"`)
    })
    const all = pages.join(' ')
    for (const [i, l] of LIST.lines.entries()) {
      assert.equal(all.split(` ${l.sku} `).length - 1, 1, `${l.sku} once`)
      assert.ok(all.includes(`${i + 1} ${l.sku} ${l.name.split(',')[0]}`), `${l.sku} numbered ${i + 1}`)
      assert.ok(all.includes(` ${l.quantity} ${l.orders[0]}`), `${l.sku}: its quantity, then its orders`)
    }
    // Totals: 120 lines of 1..5 units cycling (24 cycles of 15), and the distinct orders.
    const orders = new Set(LIST.lines.flatMap((l) => l.orders)).size
    assert.ok(pages.at(-1)!.includes(`Totals SKUs: 120 Units: 360 Orders: ${orders} Shipments: 148`), pages.at(-1))
    assert.ok(pages[0]!.includes(`148 shipments, ${orders} orders, 120 SKUs`))
    assert.ok(!pages.slice(0, -1).some((p) => p.includes('Totals')), 'the totals only at the end')
    assert.ok(pdf.equals(await renderPickListPdf(LIST)), 'deterministic')
  })

  test('a line with more orders than a page holds goes on in "(continued)" rows, every order once', async () => {
    const orders = Array.from({ length: 600 }, (_, j) => `CM-2026-${String(j).padStart(6, '0')}`)
    const list: PickList = { ...LIST, lines: [line(0), { sku: 'BAG-JUTE', name: 'Jute tote bag', quantity: 600, orders }, line(2)], shipments: 600 }
    const pages = await pdfPageTexts(await renderPickListPdf(list))
    assert.ok(pages.length >= 3, `${pages.length} pages`)
    const all = pages.join(' ')
    for (const order of orders) assert.equal(all.split(order).length - 1, 1, order)
    assert.ok(all.includes('BAG-JUTE Jute tote bag (continued)'))
    assert.ok(pages.at(-1)!.includes('Totals SKUs: 3 Units: 604 Orders: 604 Shipments: 600'), pages.at(-1))
  })

  test('Indian digit grouping in the totals; an empty list says there is nothing to pick; a bad date is a RangeError', async () => {
    const big = (await pdfPageTexts(await renderPickListPdf({ ...LIST, lines: [{ ...line(0), quantity: 1_23_456 }], shipments: 12_345 }))).join(' ')
    assert.ok(big.includes('Units: 1,23,456') && big.includes('Shipments: 12,345'), big)
    const empty = (await pdfPageTexts(await renderPickListPdf({ ...LIST, lines: [], shipments: 0 }))).join(' ')
    assert.ok(empty.includes('Nothing to pick.') && empty.includes('SKUs: 0 Units: 0'), empty)
    await assert.rejects(renderPickListPdf({ ...LIST, date: '04/05/2026' }), RangeError)
  })
})
