// Tax invoices and credit notes over real HTTP (issue #28, decision 0022). The seller is registered
// in Maharashtra (27). An invoice is issued when an order is confirmed for COD or paid, from the
// figures stored at the time of sale; a cancellation after invoicing and a refunded return each make
// a credit note; numbers are consecutive per seller, series and financial year.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import { queryRows } from '../../src/db/client.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { numberWaiting } from '../../src/modules/tax/documents.ts'
import { issueInvoices } from '../../src/modules/tax/index.ts'
import { taxDocuments } from '../../src/modules/tax/schema.sql.ts'
import { seedDeliveryZones } from '../../src/modules/checkout/seed-zones.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'
import { ADDRESS as KARNATAKA, placeOrder, sandboxAction } from '../helpers/shop.ts'
import { pdfText } from '../helpers/pdf.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
const MAHARASHTRA = { ...KARNATAKA, line1: '4 Marine Drive', city: 'Mumbai', state: 'Maharashtra', pincode: '400001' }
const SELLER = {
  legalName: 'Acme Retail Private Limited',
  tradeName: 'Acme Mart',
  gstin: '27AAPFU0939F1ZV',
  address: { line1: '12 Nariman Point', city: 'Mumbai', state: 'Maharashtra', pincode: '400021' },
}

let t: TestApp
let admin: string
let partner: PartnerFixture
let otherPartner: PartnerFixture
let unregistered: PartnerFixture
let catalogId: string
const ids: Record<string, string> = {}

const adminCall = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${admin}` }, payload })
const asCustomer = (customer: CustomerFixture, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: customerHeaders(customer), payload })
const asPartner = (p: PartnerFixture, url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { 'x-partner-id': p.partnerId, 'x-partner-secret': p.secret } })

async function givenProduct(catalog: string, categoryId: string, slug: string, price: string, tax: { hsnCode?: string; gstRateBps?: number }) {
  const res = await adminCall('POST', `/catalogs/${catalog}/products`, { name: `${slug} product`, slug, brand: 'Acme', sku: slug.toUpperCase(), categoryId, sellingPrice: price, mrp: price, stock: 1000, weightGrams: 200, ...tax })
  assert.equal(res.statusCode, 201, res.body)
  ids[slug] = res.json().data.id
}

before(async () => {
  t = await createTestApp({ clock })
  await seedDeliveryZones(t.deps.database.db)
  admin = await givenAdminToken(t.app, t.deps, 'gst-documents@example.com', 'ADMIN')
  catalogId = (await adminCall('POST', '/catalogs', { name: 'Invoiced shop' })).json().data.id
  const categoryId = (await adminCall('POST', `/catalogs/${catalogId}/categories`, { name: 'All', slug: 'all' })).json().data.id
  await givenProduct(catalogId, categoryId, 'atta', '300.00', { hsnCode: '1101', gstRateBps: 500 })
  await givenProduct(catalogId, categoryId, 'earbuds', '1000.00', { hsnCode: '85183000', gstRateBps: 1800 })
  await givenProduct(catalogId, categoryId, 'soap', '99.99', { hsnCode: '3401', gstRateBps: 1800 })
  assert.equal((await adminCall('PUT', `/catalogs/${catalogId}/seller`, SELLER)).statusCode, 200)
  partner = await givenPartner(t.deps, 'Invoicing partner', catalogId)
  otherPartner = await givenPartner(t.deps, 'Other partner', catalogId)
  const plainCatalog = (await adminCall('POST', '/catalogs', { name: 'Unregistered' })).json().data.id
  const plainCategory = (await adminCall('POST', `/catalogs/${plainCatalog}/categories`, { name: 'All', slug: 'all' })).json().data.id
  await givenProduct(plainCatalog, plainCategory, 'plain-soap', '50.00', {})
  unregistered = await givenPartner(t.deps, 'Unregistered partner', plainCatalog)
})
after(() => t.close())

const item = (slug: string, quantity = 1) => ({ productId: ids[slug]!, quantity })
const paise = (rupees: string) => BigInt(rupees.replace('.', ''))

interface Line {
  position: number
  kind: string
  description: string
  hsnCode: string
  quantity: number
  amount: string
  discount: string
  taxableValue: string
  gstRateBps: number
  cgst: string
  sgst: string
  igst: string
  total: string
}
interface Doc {
  id: string
  type: string
  number: string
  financialYear: string
  date: string
  orderId: string
  orderNumber: string
  invoice: { id: string; number: string; date: string } | null
  reason: string | null
  seller: { name: string; tradeName: string | null; gstin: string | null; stateCode: string | null; address: { state: string } }
  buyer: { name: string; gstin: string | null; stateCode: string | null; address: { state: string; pincode: string } }
  placeOfSupply: { state: string; stateCode: string }
  intraState: boolean
  reverseCharge: boolean
  lines: Line[]
  totals: { taxableValue: string; cgst: string; sgst: string; igst: string; tax: string; total: string }
  amountInWords: string
}

async function documentsOf(customer: CustomerFixture, orderId: string): Promise<{ invoices: Doc[]; creditNotes: Doc[] }> {
  const res = await asCustomer(customer, 'GET', `/orders/${orderId}/invoice`)
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data
}

/** Every document adds up: each line's taxable value and taxes make its total, the lines make the totals. */
function assertAddsUp(doc: Doc) {
  for (const l of doc.lines) {
    assert.equal(paise(l.taxableValue) + paise(l.cgst) + paise(l.sgst) + paise(l.igst), paise(l.total))
    assert.equal(paise(l.amount) - paise(l.discount), paise(l.total))
  }
  for (const field of ['taxableValue', 'cgst', 'sgst', 'igst'] as const) {
    assert.equal(
      doc.lines.reduce((s, l) => s + paise(l[field]), 0n),
      paise(doc.totals[field]),
    )
  }
  assert.equal(paise(doc.totals.taxableValue) + paise(doc.totals.tax), paise(doc.totals.total))
}

const serialOf = (number: string) => Number(number.split('/')[2])

async function eventsOf(orderId: string, type: string) {
  const rows = await t.deps.database.db.execute(sql`select data from outbox_events where subject_id = ${orderId} and type = ${type} order by id`)
  return (rows as unknown as { rows: { data: { number: string; document: Doc } }[] }).rows.map((r) => r.data)
}

describe('tax invoices', () => {
  test('a COD order in the seller\'s state is invoiced when it is placed: CGST + SGST, shipping and the COD fee as lines, the stored figures to the paisa', async () => {
    const customer = await givenCustomer(t.app, partner)
    const placed = await placeOrder(t, customer, { items: [item('soap'), item('atta')], shippingAddress: MAHARASHTRA, paymentMode: 'COD' })
    assert.equal(placed.statusCode, 201, placed.body)
    const order = placed.json().data
    const { invoices, creditNotes } = await documentsOf(customer, order.id)
    assert.equal(invoices.length, 1)
    assert.deepEqual(creditNotes, [])
    const invoice = invoices[0]!
    assert.match(invoice.number, /^IN\/26-27\/\d{7}$/)
    assert.ok(invoice.number.length <= 16, 'rule 46: at most 16 characters')
    assert.equal(invoice.type, 'TAX_INVOICE')
    assert.equal(invoice.financialYear, '2026-27')
    assert.equal(invoice.date, '2026-11-23')
    assert.equal(invoice.orderNumber, order.orderNumber)
    assert.deepEqual([invoice.seller.name, invoice.seller.tradeName, invoice.seller.gstin, invoice.seller.stateCode], [SELLER.legalName, SELLER.tradeName, SELLER.gstin, '27'])
    assert.deepEqual([invoice.buyer.name, invoice.buyer.gstin, invoice.buyer.address.pincode], [MAHARASHTRA.name, null, '400001'])
    assert.deepEqual(invoice.placeOfSupply, { state: 'Maharashtra', stateCode: '27' })
    assert.equal(invoice.intraState, true)
    assert.equal(invoice.reverseCharge, false)
    assert.deepEqual(
      invoice.lines.map((l) => [l.kind, l.hsnCode, l.gstRateBps, l.quantity, l.taxableValue, l.cgst, l.sgst, l.igst]),
      [
        ...order.items.map((i: { hsnCode: string; gstRateBps: number; quantity: number; taxableValue: string; cgst: string; sgst: string; igst: string }) => ['GOODS', i.hsnCode, i.gstRateBps, i.quantity, i.taxableValue, i.cgst, i.sgst, i.igst]),
        ...order.tax.charges.map((c: { kind: string; hsnCode: string; gstRateBps: number; taxableValue: string; cgst: string; sgst: string; igst: string }) => [c.kind, c.hsnCode, c.gstRateBps, 1, c.taxableValue, c.cgst, c.sgst, c.igst]),
      ],
    )
    assert.deepEqual(
      invoice.lines.map((l) => l.kind),
      ['GOODS', 'GOODS', 'SHIPPING', 'COD_FEE'],
    )
    assert.deepEqual([invoice.totals.taxableValue, invoice.totals.cgst, invoice.totals.sgst, invoice.totals.igst, invoice.totals.total], [order.tax.taxableValue, order.tax.cgst, order.tax.sgst, order.tax.igst, order.totalAmount])
    assertAddsUp(invoice)
    assert.match(invoice.amountInWords, /^Rupees .+ Only$/)

    const [event] = await eventsOf(order.id, 'invoice.created')
    assert.equal(event!.number, invoice.number)
    assert.deepEqual(event!.document, invoice, 'the event carries the document as answered')
  })

  test('another customer\'s order is 404, the back office and the partner\'s server see the same document, another partner does not', async () => {
    const customer = await givenCustomer(t.app, partner)
    const order = (await placeOrder(t, customer, { items: [item('atta')], shippingAddress: KARNATAKA, paymentMode: 'COD' })).json().data
    const mine = await documentsOf(customer, order.id)
    const stranger = await givenCustomer(t.app, partner)
    const foreign = await asCustomer(stranger, 'GET', `/orders/${order.id}/invoice`)
    assert.equal(foreign.statusCode, 404)
    assert.equal(foreign.json().message, 'Order not found')
    const backOffice = await adminCall('GET', `/orders/${order.id}/invoice`)
    assert.equal(backOffice.statusCode, 200)
    assert.deepEqual(backOffice.json().data, mine)
    assert.deepEqual((await asPartner(partner, `/partner/orders/${order.id}/invoice`)).json().data, mine)
    assert.equal((await asPartner(otherPartner, `/partner/orders/${order.id}/invoice`)).statusCode, 404)
  })

  test('an inter-state order: IGST on every line, place of supply Karnataka', async () => {
    const customer = await givenCustomer(t.app, partner)
    const order = (await placeOrder(t, customer, { items: [item('soap', 3)], shippingAddress: KARNATAKA, paymentMode: 'COD' })).json().data
    const [invoice] = (await documentsOf(customer, order.id)).invoices
    assert.equal(invoice!.intraState, false)
    assert.deepEqual(invoice!.placeOfSupply, { state: 'Karnataka', stateCode: '29' })
    assert.deepEqual(
      invoice!.lines.filter((l) => l.kind === 'GOODS').map((l) => [l.amount, l.taxableValue, l.igst, l.cgst]),
      [['299.97', '254.21', '45.76', '0.00']],
    )
    assertAddsUp(invoice!)
  })

  test('a prepaid order has no invoice until it is paid (404 saying so), then one; a seller without a GST registration never issues one', async () => {
    const customer = await givenCustomer(t.app, partner)
    const order = (await placeOrder(t, customer, { items: [item('earbuds')], shippingAddress: KARNATAKA, paymentMode: 'PREPAID' })).json().data
    const waiting = await asCustomer(customer, 'GET', `/orders/${order.id}/invoice`)
    assert.equal(waiting.statusCode, 404)
    assert.equal(waiting.json().message, `Order ${order.orderNumber} has no tax invoice: the invoice is issued once the order is paid`)
    assert.equal((await sandboxAction(t, order.paymentClientAction, 'pay')).statusCode, 200)
    const [invoice] = (await documentsOf(customer, order.id)).invoices
    assert.equal(invoice!.totals.total, order.totalAmount)

    const small = await givenCustomer(t.app, unregistered)
    const plain = (await placeOrder(t, small, { items: [item('plain-soap')], shippingAddress: KARNATAKA, paymentMode: 'COD' })).json().data
    const none = await asCustomer(small, 'GET', `/orders/${plain.id}/invoice`)
    assert.equal(none.statusCode, 404)
    assert.equal(none.json().message, `Order ${plain.orderNumber} has no tax invoice: its seller is not registered for GST, so no tax invoice is issued`)
  })

  test('an invoice is numbered just after its order commits; one left waiting (the process stopped) is numbered by the server\'s job, announced once, and not shown until then', async () => {
    const customer = await givenCustomer(t.app, partner)
    const order = (await placeOrder(t, customer, { items: [item('atta')], shippingAddress: KARNATAKA, paymentMode: 'COD' })).json().data
    const db = t.deps.database.db
    const [numbered] = await db.select().from(taxDocuments).where(eq(taxDocuments.orderId, order.id))
    assert.ok(numbered!.serial !== null && numbered!.number === numbered!.document.number, 'numbered by the time the order was answered')
    const announced = async () => (await queryRows<{ number: string }>(db, sql`select data->>'number' as number from outbox_events where type = 'invoice.created' and subject_id = ${order.id}`)).map((e) => e.number)
    assert.deepEqual(await announced(), [numbered!.number])

    // As if the process had stopped between the order's commit and its numbering.
    await db.transaction(async (tx) => {
      await tx.execute(sql`update tax_documents set serial = null, number = null, document = jsonb_set(document, '{number}', '""') where id = ${numbered!.id}`)
      const series = sql`registration_id = ${numbered!.registrationId} and series = 'IN' and financial_year = ${numbered!.financialYear}`
      await tx.execute(numbered!.serial === 1 ? sql`delete from gst_document_series where ${series}` : sql`update gst_document_series set last_serial = last_serial - 1 where ${series}`)
      await tx.execute(sql`delete from outbox_events where type = 'invoice.created' and subject_id = ${order.id}`)
    })
    const waiting = await asCustomer(customer, 'GET', `/orders/${order.id}/invoice`)
    assert.equal(waiting.statusCode, 404)
    assert.equal(waiting.json().message, `Order ${order.orderNumber} has no tax invoice: its invoice is being numbered, just after the order was confirmed: ask again in a moment`)

    await t.app.tax.numberWaitingDocuments()
    const [again] = (await documentsOf(customer, order.id)).invoices
    assert.equal(again!.number, numbered!.number, 'the same number: the series had not moved on')
    assert.deepEqual(await announced(), [numbered!.number])
    await t.app.tax.numberWaitingDocuments()
    assert.deepEqual(await announced(), [numbered!.number], 'numbered and announced once')
  })

  test('numbers are consecutive in the seller\'s series, and a transaction that rolls back gives its number back', async () => {
    const customer = await givenCustomer(t.app, partner)
    const first = (await placeOrder(t, customer, { items: [item('atta')], shippingAddress: KARNATAKA, paymentMode: 'COD' })).json().data
    const db = t.deps.database.db
    const [stored] = await db.select().from(taxDocuments).where(eq(taxDocuments.orderId, first.id))
    // An invoice issued in a transaction that then fails: its number must not be used up.
    const synthetic = {
      id: 'ord_rolled_back',
      orderNumber: 'CM-ROLL-BACK',
      partnerId: partner.partnerId,
      placeOfSupplyStateCode: '29',
      placeOfSupplyState: 'Karnataka',
      shippingAddress: { ...KARNATAKA, line2: '', landmark: '' },
      taxCharges: null,
      items: [{ id: 'itm_x', catalogId, position: 0, name: 'x', variantTitle: null, quantity: 1, unitPrice: 10500n, lineTotal: 10500n, couponDiscount: 0n, hsnCode: '1101', gstRateBps: 500, taxableValue: 10000n, cgst: 0n, sgst: 0n, igst: 500n }],
    }
    await assert.rejects(
      db.transaction(async (tx) => {
        await issueInvoices(tx, synthetic, clock.now())
        assert.equal(await numberWaiting(tx, synthetic.id), 1)
        const [issued] = await tx.select().from(taxDocuments).where(eq(taxDocuments.orderId, synthetic.id))
        assert.equal(issued!.serial, stored!.serial! + 1)
        throw new Error('the order failed after its invoice was numbered')
      }),
      /the order failed/,
    )
    const second = (await placeOrder(t, customer, { items: [item('atta')], shippingAddress: KARNATAKA, paymentMode: 'COD' })).json().data
    const [invoice] = (await documentsOf(customer, second.id)).invoices
    assert.equal(serialOf(invoice!.number), stored!.serial! + 1, 'no gap')
  })
})

describe('credit notes', () => {
  test('cancelling an invoiced COD order credits the whole invoice, in its own series, referencing it', async () => {
    const customer = await givenCustomer(t.app, partner)
    const order = (await placeOrder(t, customer, { items: [item('earbuds'), item('soap', 2)], shippingAddress: MAHARASHTRA, paymentMode: 'COD' })).json().data
    const cancelled = await asCustomer(customer, 'POST', `/orders/${order.id}/cancel`, { reason: 'Ordered twice' })
    assert.equal(cancelled.statusCode, 200, cancelled.body)
    const { invoices, creditNotes } = await documentsOf(customer, order.id)
    assert.equal(creditNotes.length, 1)
    const [invoice, note] = [invoices[0]!, creditNotes[0]!]
    assert.match(note.number, /^CN\/26-27\/\d{7}$/)
    assert.equal(note.type, 'CREDIT_NOTE')
    assert.deepEqual(note.invoice, { id: invoice.id, number: invoice.number, date: invoice.date })
    assert.equal(note.reason, 'Order cancelled: Ordered twice')
    assert.deepEqual(note.totals, invoice.totals)
    assert.deepEqual(
      note.lines.map((l) => [l.kind, l.quantity, l.taxableValue, l.cgst, l.sgst, l.igst]),
      invoice.lines.map((l) => [l.kind, l.quantity, l.taxableValue, l.cgst, l.sgst, l.igst]),
    )
    assertAddsUp(note)
    assert.equal((await eventsOf(order.id, 'credit_note.created'))[0]!.number, note.number)
  })

  test('cancelling before payment makes no credit note: nothing was invoiced', async () => {
    const customer = await givenCustomer(t.app, partner)
    const order = (await placeOrder(t, customer, { items: [item('earbuds')], shippingAddress: KARNATAKA, paymentMode: 'PREPAID' })).json().data
    assert.equal((await asCustomer(customer, 'POST', `/orders/${order.id}/cancel`, {})).statusCode, 200)
    assert.equal((await asCustomer(customer, 'GET', `/orders/${order.id}/invoice`)).json().message, `Order ${order.orderNumber} has no tax invoice: it was cancelled before it was paid`)
    assert.deepEqual(await eventsOf(order.id, 'credit_note.created'), [])
  })

  test('a partial return credits exactly the returned units; the rest of the line, returned later, makes the credits add up to the line to the paisa', async () => {
    const customer = await givenCustomer(t.app, partner)
    const order = (await placeOrder(t, customer, { items: [item('soap', 3), item('earbuds'), item('atta')], shippingAddress: KARNATAKA, paymentMode: 'COD' })).json().data
    // Every unit in a parcel first (the merchant's own delivery): an order is not SHIPPED with nothing in one.
    assert.equal((await adminCall('POST', `/orders/${order.id}/shipments`, { carrier: 'manual' })).statusCode, 201)
    for (const status of ['SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) assert.equal((await adminCall('POST', `/orders/${order.id}/status`, { status })).statusCode, 200)
    const soap = order.items.find((i: { productId: string }) => i.productId === ids.soap)
    const atta = order.items.find((i: { productId: string }) => i.productId === ids.atta)
    const returnUnits = async (items: { orderItemId: string; quantity: number }[]) => {
      const created = await asCustomer(customer, 'POST', '/returns', { orderId: order.id, reason: 'Damaged', detail: 'Box crushed', requestedResolution: 'WALLET_CREDIT', items: items.map((i) => ({ ...i, reason: 'x' })) })
      assert.equal(created.statusCode, 201, created.body)
      const id = created.json().data.id
      for (const status of ['UNDER_REVIEW', 'APPROVED', 'REFUND_PENDING']) assert.equal((await adminCall('POST', `/returns/${id}/status`, { status })).statusCode, 200)
      return id as string
    }
    const firstReturn = await returnUnits([
      { orderItemId: soap.id, quantity: 1 },
      { orderItemId: atta.id, quantity: 1 },
    ])
    const [first, ...others] = (await documentsOf(customer, order.id)).creditNotes
    assert.deepEqual(others, [])
    assert.equal(first!.reason, `Return ${firstReturn}`)
    // 1 of 3 soaps: a third of ₹299.97 (₹99.99), of its ₹45.76 tax (₹15.25); the whole atta line; no charges.
    assert.deepEqual(
      first!.lines.map((l) => [l.kind, l.hsnCode, l.quantity, l.amount, l.taxableValue, l.igst]),
      [
        ['GOODS', '3401', 1, '99.99', '84.74', '15.25'],
        ['GOODS', '1101', 1, '300.00', '285.71', '14.29'],
      ],
    )
    assertAddsUp(first!)

    await returnUnits([{ orderItemId: soap.id, quantity: 2 }])
    const { invoices, creditNotes } = await documentsOf(customer, order.id)
    assert.equal(creditNotes.length, 2)
    const invoiceSoap = invoices[0]!.lines.find((l) => l.hsnCode === '3401')!
    const credited = creditNotes.flatMap((n) => n.lines.filter((l) => l.hsnCode === '3401'))
    assert.deepEqual(credited.map((l) => l.quantity), [1, 2])
    for (const field of ['amount', 'taxableValue', 'igst', 'total'] as const) {
      assert.equal(credited.reduce((s, l) => s + paise(l[field]), 0n), paise(invoiceSoap[field]), `the soap line's ${field} is credited exactly`)
    }
    assert.equal(serialOf(creditNotes[1]!.number), serialOf(creditNotes[0]!.number) + 1)
  })
})

describe('the invoice as PDF', () => {
  test('?format=pdf answers a PDF whose text has the number, the GSTIN, every HSN code and the total with the rupee sign', async () => {
    const customer = await givenCustomer(t.app, partner)
    const order = (await placeOrder(t, customer, { items: [item('earbuds'), item('soap', 3)], shippingAddress: MAHARASHTRA, paymentMode: 'COD' })).json().data
    const [invoice] = (await documentsOf(customer, order.id)).invoices
    const res = await asCustomer(customer, 'GET', `/orders/${order.id}/invoice?format=pdf`)
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'application/pdf')
    assert.equal(res.rawPayload.subarray(0, 5).toString(), '%PDF-')
    const text = await pdfText(res.rawPayload)
    for (const expected of [invoice!.number, SELLER.gstin, '85183000', '3401', 'CGST', 'SGST', invoice!.amountInWords]) assert.ok(text.includes(expected), `the PDF shows ${expected}`)
    assert.match(text, /₹\s?[\d,]+\.\d\d/, 'amounts carry the rupee sign')
    const byAccept = await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${order.id}/invoice`, headers: { authorization: `Bearer ${admin}`, accept: 'application/pdf' } })
    assert.equal(byAccept.headers['content-type'], 'application/pdf')
  })
})

describe('the GST report (GSTR-1 B2C)', () => {
  test('B2CS sums by place of supply and rate less credit notes; an inter-state invoice above ₹1,00,000 is B2CL and its credit note CDNUR; the totals are the invoices less the credit notes', async () => {
    const customer = await givenCustomer(t.app, partner)
    const large = (await placeOrder(t, customer, { items: [item('earbuds', 101)], shippingAddress: KARNATAKA, paymentMode: 'PREPAID' })).json().data
    assert.equal((await sandboxAction(t, large.paymentClientAction, 'pay')).statusCode, 200)
    const largeIntra = (await placeOrder(t, customer, { items: [item('earbuds', 101)], shippingAddress: MAHARASHTRA, paymentMode: 'PREPAID' })).json().data
    assert.equal((await sandboxAction(t, largeIntra.paymentClientAction, 'pay')).statusCode, 200)
    assert.equal((await asCustomer(customer, 'POST', `/orders/${large.id}/cancel`, { reason: 'Too many' })).statusCode, 200)
    const [largeInvoice] = (await documentsOf(customer, large.id)).invoices

    const res = await adminCall('GET', `/catalogs/${catalogId}/tax/gstr1?from=2026-11-01&to=2026-11-30`)
    assert.equal(res.statusCode, 200, res.body)
    const report = res.json().data
    assert.deepEqual(
      report.b2cl.map((r: { number: string; value: string; placeOfSupply: { label: string }; rate: string; igst: string }) => [r.number, r.value, r.placeOfSupply.label, r.rate, r.igst]),
      [[largeInvoice!.number, '101000.00', '29-Karnataka', '18%', largeInvoice!.totals.igst]],
    )
    assert.deepEqual(
      report.cdnur.map((r: { invoiceNumber: string; value: string }) => [r.invoiceNumber, r.value]),
      [[largeInvoice!.number, '101000.00']],
    )

    // The totals are the stored invoices less the stored credit notes of the range.
    const docs = await t.deps.database.db.select().from(taxDocuments).where(eq(taxDocuments.catalogId, catalogId))
    const net = (field: 'taxableValue' | 'cgst' | 'sgst' | 'igst' | 'total') => docs.reduce((s, d) => s + (d.type === 'TAX_INVOICE' ? d[field] : -d[field]), 0n)
    const sum = (rows: Record<string, string>[], field: string) => rows.reduce((s, r) => s + paise(r[field]!), 0n)
    for (const field of ['taxableValue', 'cgst', 'sgst', 'igst'] as const) {
      assert.equal(paise(report.totals.net[field]), net(field), `net ${field}`)
      const fromSections = sum(report.b2cs, field) + (field === 'igst' || field === 'taxableValue' ? sum(report.b2cl, field) - sum(report.cdnur, field) : 0n)
      assert.equal(fromSections, net(field), `B2CS + B2CL - CDNUR = net ${field}`)
    }
    assert.equal(paise(report.totals.net.total), net('total'))
    assert.equal(report.totals.invoices.count, docs.filter((d) => d.type === 'TAX_INVOICE').length)
    const intra = report.b2cs.find((r: { placeOfSupply: { stateCode: string }; rate: string }) => r.placeOfSupply.stateCode === '27' && r.rate === '18%')
    assert.equal(intra.supplyType, 'INTRA_STATE', 'an intra-state invoice is B2CS whatever its value')
    assert.equal(intra.igst, '0.00')

    const csv = await adminCall('GET', `/catalogs/${catalogId}/tax/gstr1?from=2026-11-01&to=2026-11-30&format=csv`)
    assert.equal(csv.statusCode, 200)
    assert.match(csv.headers['content-type'] as string, /^text\/csv/)
    const rows = csv.body.trim().split('\n')
    assert.equal(
      rows[0],
      'section,place_of_supply,supply_type,rate,taxable_value,cgst,sgst,igst,cess,document_number,document_date,document_value,invoice_number,invoice_date,hsn,description,uqc,quantity,eco_gstin,series_from,series_to,total_documents,cancelled',
    )
    const seriesRows = report.documentsIssued.reduce((n: number, d: { series: unknown[] }) => n + d.series.length, 0)
    assert.equal(rows.length, 1 + report.b2cs.length + report.b2cl.length + report.cdnur.length + report.nil.length + report.hsn.b2c.length + seriesRows + report.ecoSupplies.length + 1)
    assert.ok(rows.at(-1)!.startsWith(`TOTAL,,,,${report.totals.net.taxableValue},`))
  })

  test('bad ranges and a catalog without a seller are refused clearly', async () => {
    const reversed = await adminCall('GET', `/catalogs/${catalogId}/tax/gstr1?from=2026-12-01&to=2026-11-01`)
    assert.equal(reversed.statusCode, 400)
    assert.equal(reversed.json().message, 'from 2026-12-01 is after to 2026-11-01')
    const beforeGst = await adminCall('GET', `/catalogs/${catalogId}/tax/gstr1?from=2016-01-01&to=2026-11-01`)
    assert.equal(beforeGst.statusCode, 400)
    assert.equal(beforeGst.json().message, 'from must be on or after 2017-07-01, when GST began')
    assert.equal((await adminCall('GET', `/catalogs/${catalogId}/tax/gstr1?from=0000-01-01&to=2026-11-01`)).statusCode, 400)
    const yearZero = await adminCall('GET', '/tax/rates?on=0000-01-01')
    assert.equal(yearZero.statusCode, 400, 'ISO 8601 has a year 0000 and PostgreSQL has not: every date parameter refuses it')
    const notADate = await adminCall('GET', `/catalogs/${catalogId}/tax/gstr1?from=yesterday&to=2026-11-01`)
    assert.equal(notADate.statusCode, 400)
    const plainCatalog = (await adminCall('POST', '/catalogs', { name: 'No seller' })).json().data.id
    const none = await adminCall('GET', `/catalogs/${plainCatalog}/tax/gstr1?from=2026-11-01&to=2026-11-30`)
    assert.equal(none.statusCode, 404)
    assert.equal(none.json().message, 'No GST seller is registered for this catalog')
  })
})
