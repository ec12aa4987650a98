// GST documents keyed by GSTIN (decision 0029), over real HTTP: one GST registration per GSTIN owns
// the invoice, bill of supply and credit note series whatever catalogs sell under it; a catalog moved
// to another GSTIN leaves its past documents where they were; nil-rated goods get a bill of supply;
// a reduced refund credits only what is refunded; GSTR-1 per GSTIN and period, with every table and
// the offline tool's file, adds up to the stored documents.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { queryRows } from '../../src/db/client.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { gstinCheckCharacter } from '../../src/lib/gstin.ts'
import { seedDeliveryZones } from '../../src/modules/checkout/seed-zones.ts'
import { taxDocuments } from '../../src/modules/tax/schema.sql.ts'
import { Gstr1PortalFile, Gstr1Report } from '../../src/modules/tax/schemas.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'
import { pdfText } from '../helpers/pdf.ts'
import { ADDRESS as KARNATAKA, placeOrder, sandboxAction } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
const MAHARASHTRA = { ...KARNATAKA, line1: '4 Marine Drive', city: 'Mumbai', state: 'Maharashtra', pincode: '400001' }
/** A valid GSTIN from its first 14 characters. */
const gstin = (first14: string) => `${first14}${gstinCheckCharacter(first14)}`
const GSTIN_X = gstin('27AAPFU0939F1Z')
const GSTIN_Y = gstin('29AABCU9603R1Z')
const ECO_GSTIN = gstin('27AAACF1234A1C')
const sellerOf = (g: string) =>
  g.startsWith('27')
    ? { legalName: 'Acme Retail Private Limited', tradeName: 'Acme Mart', gstin: g, address: { line1: '12 Nariman Point', city: 'Mumbai', state: 'Maharashtra', pincode: '400021' } }
    : { legalName: 'Udyog Retail Private Limited', tradeName: null, gstin: g, address: { line1: '12, 4th Cross, Indiranagar', city: 'Bengaluru', state: 'Karnataka', pincode: '560038' } }

let t: TestApp
let admin: string
const catalogs: Record<'one' | 'two' | 'moved', string> = { one: '', two: '', moved: '' }
const partners: Record<'one' | 'two' | 'moved', PartnerFixture> = {} as never
const ids: Record<string, string> = {}

const adminCall = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${admin}` }, payload })
const asCustomer = (customer: CustomerFixture, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: customerHeaders(customer), payload })
const paise = (rupees: string) => BigInt(rupees.replace('.', ''))
/** Whether a value has a schema's shape (a boolean: Value.Check's type guard would narrow the value). */
const conforms = (schema: TSchema, value: unknown): boolean => Value.Check(schema, value)

interface Doc {
  id: string
  type: string
  number: string
  invoice: { id: string; number: string } | null
  seller: { gstin: string }
  lines: { kind: string; gstRateBps: number; hsnCode: string; quantity: number; cgst: string; sgst: string; igst: string; discount: string; total: string }[]
  totals: { taxableValue: string; tax: string; total: string }
}
interface Docs {
  invoices: Doc[]
  billsOfSupply: Doc[]
  creditNotes: Doc[]
}

async function givenCatalog(name: string, g: string) {
  const catalogId = (await adminCall('POST', '/catalogs', { name })).json().data.id as string
  const categoryId = (await adminCall('POST', `/catalogs/${catalogId}/categories`, { name: 'All', slug: 'all' })).json().data.id
  for (const [slug, price, hsnCode, gstRateBps] of [
    ['atta', '300.00', '1101', 500],
    ['rice', '60.00', '1006', 0],
    ['earbuds', '1000.00', '85183000', 1800],
  ] as const) {
    const res = await adminCall('POST', `/catalogs/${catalogId}/products`, { name: `${slug} ${name}`, slug, brand: 'Acme', sku: `${slug}-${catalogId}`.toUpperCase(), categoryId, sellingPrice: price, mrp: price, stock: 5000, weightGrams: 200, hsnCode, gstRateBps })
    assert.equal(res.statusCode, 201, res.body)
    ids[`${name}:${slug}`] = res.json().data.id
  }
  const seller = await adminCall('PUT', `/catalogs/${catalogId}/seller`, sellerOf(g))
  assert.equal(seller.statusCode, 200, seller.body)
  return catalogId
}

async function documentsOf(customer: CustomerFixture, orderId: string): Promise<Docs> {
  const res = await asCustomer(customer, 'GET', `/orders/${orderId}/invoice`)
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data
}

async function eventsOf(orderId: string, type: string) {
  const rows = await t.deps.database.db.execute(sql`select data from outbox_events where subject_id = ${orderId} and type = ${type} order by id`)
  return (rows as unknown as { rows: { data: { gstin: string; number: string } }[] }).rows.map((r) => r.data)
}

/** A COD order of `items` (catalog:slug -> quantity) by a new customer of `partner`. */
async function codOrder(partner: PartnerFixture, items: Record<string, number>, address = MAHARASHTRA) {
  const customer = await givenCustomer(t.app, partner)
  const res = await placeOrder(t, customer, { items: Object.entries(items).map(([key, quantity]) => ({ productId: ids[key]!, quantity })), shippingAddress: address, paymentMode: 'COD' })
  assert.equal(res.statusCode, 201, res.body)
  return { customer, order: res.json().data as { id: string; orderNumber: string; status: string } }
}

before(async () => {
  t = await createTestApp({ clock })
  await seedDeliveryZones(t.deps.database.db)
  admin = await givenAdminToken(t.app, t.deps, 'gst-registrations@example.com', 'ADMIN')
  catalogs.one = await givenCatalog('one', GSTIN_X)
  catalogs.two = await givenCatalog('two', GSTIN_X)
  catalogs.moved = await givenCatalog('moved', GSTIN_X)
  partners.one = await givenPartner(t.deps, 'Marketplace app', catalogs.one)
  partners.two = await givenPartner(t.deps, 'Second app', catalogs.two)
  partners.moved = await givenPartner(t.deps, 'Third app', catalogs.moved)
  const eco = await adminCall('PATCH', `/partners/${partners.one.partnerId}`, { ecoGstin: ECO_GSTIN.toLowerCase() })
  assert.equal(eco.statusCode, 200, eco.body)
  assert.equal(eco.json().data.ecoGstin, ECO_GSTIN)
})
after(() => t.close())

describe('GST registrations', () => {
  test('catalogs that name one GSTIN share one registration; it lists them, and a second registration of the GSTIN is a 409', async () => {
    const sellers = await Promise.all(Object.values(catalogs).map(async (c) => (await adminCall('GET', `/catalogs/${c}/seller`)).json().data))
    assert.equal(new Set(sellers.map((s) => s.registrationId)).size, 1)
    const registration = (await adminCall('GET', `/gst/registrations/${sellers[0].registrationId}`)).json().data
    assert.equal(registration.gstin, GSTIN_X)
    assert.deepEqual([...registration.catalogIds].sort(), Object.values(catalogs).sort())
    assert.deepEqual(registration.prefixes, { invoice: 'IN', billOfSupply: 'BS', creditNote: 'CN' })
    const again = await adminCall('POST', '/gst/registrations', sellerOf(GSTIN_X))
    assert.equal(again.statusCode, 409)
    assert.equal(again.json().message, `GSTIN ${GSTIN_X} is registered already`)
    const listed = (await adminCall('GET', '/gst/registrations?search=acme')).json()
    assert.deepEqual(
      listed.data.map((r: { gstin: string }) => r.gstin),
      [GSTIN_X],
    )
  })

  test('a registration is refused with a 400 naming the field: a bad GSTIN, an address in another state, bad or equal prefixes', async () => {
    const cases: [object, string][] = [
      [{ ...sellerOf(GSTIN_Y), gstin: '29AABCU9603R1ZX' }, 'gstin has a wrong check character (15th): check for a typing mistake'],
      [{ ...sellerOf(GSTIN_Y), address: sellerOf(GSTIN_X).address }, "address.state Maharashtra does not match the GSTIN's state code 29 (Karnataka)"],
      [{ ...sellerOf(GSTIN_Y), prefixes: { invoice: 'INV', creditNote: 'INV' } }, 'prefixes.invoice, prefixes.billOfSupply and prefixes.creditNote must differ'],
    ]
    for (const [body, message] of cases) {
      const res = await adminCall('POST', '/gst/registrations', body)
      assert.equal(res.statusCode, 400, res.body)
      assert.equal(res.json().message, message)
    }
    const tooLong = await adminCall('POST', '/gst/registrations', { ...sellerOf(GSTIN_Y), prefixes: { invoice: 'INVOI' } })
    assert.equal(tooLong.statusCode, 400)
    assert.match(JSON.stringify(tooLong.json()), /prefixes\.invoice/)
    assert.equal((await adminCall('GET', '/gst/registrations/gsr_none')).statusCode, 404)
    assert.equal((await adminCall('PUT', `/catalogs/${catalogs.one}/gst-registration`, { registrationId: 'gsr_none' })).statusCode, 404)
  })
})

describe('e-commerce operators', () => {
  test("a partner's operator GSTIN is checked (a TCS registration's C accepted), and null clears it", async () => {
    const other = await givenPartner(t.deps, 'Operator check')
    const bad = await adminCall('PATCH', `/partners/${other.partnerId}`, { ecoGstin: ECO_GSTIN.slice(0, 14) + (ECO_GSTIN.endsWith('A') ? 'B' : 'A') })
    assert.equal(bad.statusCode, 400)
    assert.equal(bad.json().message, 'ecoGstin has a wrong check character (15th): check for a typing mistake')
    const wrongKind = await adminCall('PATCH', `/partners/${other.partnerId}`, { ecoGstin: gstin('27AAACF1234A1D') })
    assert.equal(wrongKind.statusCode, 400)
    assert.equal(wrongKind.json().message, 'ecoGstin character 14 must be C (a TCS registration) or Z')
    assert.equal((await adminCall('PATCH', `/partners/${other.partnerId}`, { ecoGstin: ECO_GSTIN })).json().data.ecoGstin, ECO_GSTIN)
    assert.equal((await adminCall('PATCH', `/partners/${other.partnerId}`, { ecoGstin: null })).json().data.ecoGstin, null)
  })
})

describe('one series per GSTIN', () => {
  test('orders alternating between two catalogs of one GSTIN are numbered in one series, and each event names the GSTIN', async () => {
    const numbers: string[] = []
    for (const name of ['one', 'two', 'one', 'two'] as const) {
      const { customer, order } = await codOrder(partners[name], { [`${name}:atta`]: 1 })
      const [invoice] = (await documentsOf(customer, order.id)).invoices
      assert.equal(invoice!.seller.gstin, GSTIN_X)
      numbers.push(invoice!.number)
      const [event] = await eventsOf(order.id, 'invoice.created')
      assert.deepEqual([event!.gstin, event!.number], [GSTIN_X, invoice!.number])
    }
    const serials = numbers.map((n) => Number(n.split('/')[2]))
    assert.deepEqual(
      serials,
      serials.map((_, i) => serials[0]! + i),
      `consecutive: ${numbers.join(', ')}`,
    )
    assert.ok(numbers.every((n) => n.startsWith('IN/26-27/') && n.length === 16))
  })

  test('a catalog moved to another GSTIN: its past documents stay, the new GSTIN numbers from 1, a later credit note of an old invoice is the old GSTIN\'s', async () => {
    const before = await codOrder(partners.moved, { 'moved:atta': 1 })
    const [oldInvoice] = (await documentsOf(before.customer, before.order.id)).invoices
    assert.equal(oldInvoice!.seller.gstin, GSTIN_X)

    const moved = await adminCall('PUT', `/catalogs/${catalogs.moved}/seller`, sellerOf(GSTIN_Y))
    assert.equal(moved.statusCode, 200, moved.body)
    assert.equal(moved.json().data.gstin, GSTIN_Y)
    const after = await codOrder(partners.moved, { 'moved:atta': 1 }, KARNATAKA)
    const [newInvoice] = (await documentsOf(after.customer, after.order.id)).invoices
    assert.deepEqual([newInvoice!.seller.gstin, newInvoice!.number], [GSTIN_Y, 'IN/26-27/0000001'])
    assert.deepEqual((await documentsOf(before.customer, before.order.id)).invoices, [oldInvoice], 'the old invoice is unchanged')

    assert.equal((await asCustomer(before.customer, 'POST', `/orders/${before.order.id}/cancel`, { reason: 'Changed my mind' })).statusCode, 200)
    const [note] = (await documentsOf(before.customer, before.order.id)).creditNotes
    assert.equal(note!.seller.gstin, GSTIN_X, 'the credit note is issued by the registration that invoiced')
    assert.equal(note!.invoice!.number, oldInvoice!.number)
    assert.deepEqual((await eventsOf(before.order.id, 'credit_note.created')).map((e) => e.gstin), [GSTIN_X])

    const y = (await adminCall('GET', `/gst/gstr1?gstin=${GSTIN_Y}&fp=112026`)).json().data
    assert.deepEqual(
      y.documentsIssued.flatMap((d: { series: { from: string; to: string }[] }) => d.series.map((s) => [s.from, s.to])),
      [['IN/26-27/0000001', 'IN/26-27/0000001']],
      "the new GSTIN's return holds only its own document",
    )
    const x = (await adminCall('GET', `/gst/gstr1?gstin=${GSTIN_X}&fp=112026`)).json().data
    const xNumbers = (await t.deps.database.db.select({ number: taxDocuments.number, gstin: sql<string>`document->'seller'->>'gstin'` }).from(taxDocuments).where(eq(taxDocuments.catalogId, catalogs.moved))).filter((d) => d.gstin === GSTIN_X)
    assert.ok(xNumbers.some((d) => d.number === oldInvoice!.number))
    assert.equal(x.totals.invoices.count + x.totals.creditNotes.count + x.totals.billsOfSupply.count, x.documentsIssued.reduce((n: number, d: { series: { total: number }[] }) => n + d.series.reduce((m, s) => m + s.total, 0), 0))
    // Back to X for the tests after this one.
    assert.equal((await adminCall('PUT', `/catalogs/${catalogs.moved}/seller`, sellerOf(GSTIN_X))).statusCode, 200)
  })

  test('a series prefix applies to later documents and the serials go on; a prefix that would cut this year\'s serials is refused', async () => {
    const registrationId = (await adminCall('GET', `/catalogs/${catalogs.moved}/seller`)).json().data.registrationId
    const y = (await adminCall('GET', `/gst/registrations?search=${GSTIN_Y}`)).json().data[0]
    const patched = await adminCall('PATCH', `/gst/registrations/${y.id}`, { prefixes: { invoice: 'KA' } })
    assert.equal(patched.statusCode, 200, patched.body)
    assert.deepEqual(patched.json().data.prefixes, { invoice: 'KA', billOfSupply: 'BS', creditNote: 'CN' })
    assert.equal((await adminCall('PUT', `/catalogs/${catalogs.moved}/gst-registration`, { registrationId: y.id })).statusCode, 200)
    const { customer, order } = await codOrder(partners.moved, { 'moved:atta': 1 }, KARNATAKA)
    assert.equal((await documentsOf(customer, order.id)).invoices[0]!.number, 'KA/26-27/0000002')
    assert.equal((await adminCall('PUT', `/catalogs/${catalogs.moved}/gst-registration`, { registrationId })).statusCode, 200)
    const empty = await adminCall('PATCH', `/gst/registrations/${y.id}`, {})
    assert.equal(empty.statusCode, 400)
    assert.equal(empty.json().message, 'Send at least one of legalName, tradeName, address, prefixes, filingFrequency')
  })
})

describe('bills of supply', () => {
  test('an order of nil-rated goods only gets a bill of supply, no tax invoice, with its own series and event', async () => {
    const { customer, order } = await codOrder(partners.one, { 'one:rice': 2 })
    const docs = await documentsOf(customer, order.id)
    assert.equal(docs.invoices.length, 0)
    assert.equal(docs.billsOfSupply.length, 1)
    const [bill] = docs.billsOfSupply
    assert.equal(bill!.type, 'BILL_OF_SUPPLY')
    assert.match(bill!.number, /^BS\/26-27\/\d{7}$/)
    assert.equal(bill!.totals.tax, '0.00')
    assert.ok(bill!.lines.every((l) => l.gstRateBps === 0))
    assert.deepEqual((await eventsOf(order.id, 'bill_of_supply.created')).map((e) => [e.gstin, e.number]), [[GSTIN_X, bill!.number]])
    assert.deepEqual(await eventsOf(order.id, 'invoice.created'), [])
    const pdf = await asCustomer(customer, 'GET', `/orders/${order.id}/invoice?format=pdf`)
    assert.equal(pdf.statusCode, 200)
    const text = await pdfText(pdf.rawPayload)
    assert.ok(text.includes('Bill of Supply') && text.includes(bill!.number), text)
    assert.ok(!text.includes('CGST'), 'a bill of supply shows no tax')
  })

  test('a mixed order gets a tax invoice for the taxed goods and a bill of supply for the nil-rated; the charges go with the principal supply; a cancellation credits each by its own document', async () => {
    const { customer, order } = await codOrder(partners.one, { 'one:rice': 10, 'one:atta': 1 })
    const docs = await documentsOf(customer, order.id)
    assert.equal(docs.invoices.length, 1)
    assert.equal(docs.billsOfSupply.length, 1)
    const [invoice] = docs.invoices
    const [bill] = docs.billsOfSupply
    assert.deepEqual(
      invoice!.lines.map((l) => [l.kind, l.gstRateBps]),
      [['GOODS', 500]],
    )
    assert.equal(bill!.lines[0]!.kind, 'GOODS')
    // Rice (₹600) is the principal supply: shipping and the COD fee are on its bill of supply, at nil.
    assert.ok(bill!.lines.slice(1).every((l) => l.kind !== 'GOODS' && l.gstRateBps === 0))
    assert.ok(bill!.lines.some((l) => l.kind === 'COD_FEE'), 'the COD fee is on the bill of supply')
    assert.equal((await asCustomer(customer, 'POST', `/orders/${order.id}/cancel`, { reason: 'Ordered twice' })).statusCode, 200)
    const notes = (await documentsOf(customer, order.id)).creditNotes
    assert.deepEqual(notes.map((n) => n.invoice!.number).sort(), [bill!.number, invoice!.number].sort())
    const billNote = notes.find((n) => n.invoice!.number === bill!.number)!
    assert.equal(billNote.totals.total, bill!.totals.total)
    assert.equal(billNote.totals.tax, '0.00')
  })
})

describe('a reduced refund', () => {
  test('a return approved for less than the units\' price gets a credit note for what is refunded, its tax worked out again', async () => {
    const { customer, order } = await codOrder(partners.two, { 'two:atta': 2 })
    // Every unit in a parcel first (the merchant's own delivery): an order is not SHIPPED with nothing in one.
    assert.equal((await adminCall('POST', `/orders/${order.id}/shipments`, { carrier: 'manual' })).statusCode, 201)
    for (const status of ['SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) assert.equal((await adminCall('POST', `/orders/${order.id}/status`, { status })).statusCode, 200)
    const full = (await asCustomer(customer, 'GET', `/orders/${order.id}`)).json().data
    const created = await asCustomer(customer, 'POST', '/returns', { orderId: order.id, reason: 'Damaged', detail: 'Torn pack', requestedResolution: 'WALLET_CREDIT', items: [{ orderItemId: full.items[0].id, quantity: 1, reason: 'torn' }] })
    assert.equal(created.statusCode, 201, created.body)
    const returnId = created.json().data.id
    assert.equal(created.json().data.requestedAmount, '300.00')
    assert.equal((await adminCall('POST', `/returns/${returnId}/status`, { status: 'UNDER_REVIEW' })).statusCode, 200)
    assert.equal((await adminCall('POST', `/returns/${returnId}/status`, { status: 'APPROVED', approvedAmount: '180.00', note: 'Pack opened' })).statusCode, 200)
    const refunded = await adminCall('POST', `/returns/${returnId}/status`, { status: 'REFUND_PENDING' })
    assert.equal(refunded.statusCode, 200, refunded.body)
    const [note] = (await documentsOf(customer, order.id)).creditNotes
    assert.equal(note!.totals.total, '180.00', 'the credit note is for what was refunded, not the unit')
    // ₹180 at 5 % inclusive: tax 8.57, taxable 171.43, CGST 4.29 + SGST 4.28 (intra-state).
    assert.deepEqual([note!.totals.taxableValue, note!.totals.tax], ['171.43', '8.57'])
    assert.deepEqual([note!.lines[0]!.quantity, note!.lines[0]!.discount, note!.lines[0]!.cgst, note!.lines[0]!.sgst], [1, '120.00', '4.29', '4.28'])
  })
})

describe('GSTR-1 per GSTIN and period', () => {
  test('every table adds up to the stored documents: B2CS + B2CL + nil - CDNUR = net sales; Table 13 is the series; Table 12 the lines; Table 14 the operator\'s sales; the shapes are as documented', async () => {
    // A B2C (large) invoice (inter-state, above ₹1,00,000) and its credit note, through the operator.
    const customer = await givenCustomer(t.app, partners.one)
    const large = (await placeOrder(t, customer, { items: [{ productId: ids['one:earbuds']!, quantity: 101 }], shippingAddress: KARNATAKA, paymentMode: 'PREPAID' })).json().data
    assert.equal((await sandboxAction(t, large.paymentClientAction, 'pay')).statusCode, 200)
    assert.equal((await asCustomer(customer, 'POST', `/orders/${large.id}/cancel`, { reason: 'Too many' })).statusCode, 200)

    const res = await adminCall('GET', `/gst/gstr1?gstin=${GSTIN_X.toLowerCase()}&fp=112026`)
    assert.equal(res.statusCode, 200, res.body)
    const report = res.json().data
    assert.ok(conforms(Gstr1Report, report), JSON.stringify([...Value.Errors(Gstr1Report, report)].slice(0, 3)))
    assert.deepEqual([report.gstin, report.fp, report.from, report.to], [GSTIN_X, '112026', '2026-11-01', '2026-11-30'])

    const registrationId = (await adminCall('GET', `/catalogs/${catalogs.one}/seller`)).json().data.registrationId
    const docs = await t.deps.database.db.select().from(taxDocuments).where(eq(taxDocuments.registrationId, registrationId))
    const signed = (d: (typeof docs)[number], v: bigint) => (d.type === 'CREDIT_NOTE' ? -v : v)
    const net = docs.reduce((s, d) => s + signed(d, d.taxableValue), 0n)
    const sum = (rows: Record<string, string>[], field: string) => rows.reduce((s, r) => s + paise(r[field]!), 0n)
    assert.equal(paise(report.totals.net.taxableValue), net)
    assert.equal(sum(report.b2cs, 'taxableValue') + sum(report.b2cl, 'taxableValue') + sum(report.nil, 'nilRated') - sum(report.cdnur, 'taxableValue'), net, 'B2CS + B2CL + nil - CDNUR = net sales')
    for (const tax of ['cgst', 'sgst', 'igst'] as const) {
      const listed = tax === 'igst' ? sum(report.b2cl, tax) - sum(report.cdnur, tax) : 0n
      assert.equal(sum(report.b2cs, tax) + listed, docs.reduce((s, d) => s + signed(d, d[tax]), 0n), `${tax} adds up`)
      assert.equal(sum(report.hsn.b2c, tax), docs.reduce((s, d) => s + signed(d, d[tax]), 0n), `Table 12 ${tax}`)
    }
    assert.equal(sum(report.hsn.b2c, 'taxableValue'), net, 'Table 12 holds every line')
    assert.ok(paise(report.nil.find((n: { supplyType: string }) => n.supplyType === 'INTRA_STATE').nilRated) > 0n, 'nil-rated goods are filed in Table 8, not as B2CS at 0 %')
    assert.ok(report.b2cs.every((r: { rateBps: number }) => r.rateBps > 0))
    assert.deepEqual(report.b2cl.map((r: { placeOfSupply: { stateCode: string }; value: string }) => [r.placeOfSupply.stateCode, r.value]), [['29', '101000.00']])
    assert.equal(report.cdnur.length, 1)

    // Table 13: each series as stored, first to last, counted.
    for (const [type, docNum] of [['TAX_INVOICE', 1], ['BILL_OF_SUPPLY', 1], ['CREDIT_NOTE', 5]] as const) {
      const stored = docs.filter((d) => d.type === type).sort((a, b) => a.serial! - b.serial!)
      const [series] = report.documentsIssued.find((d: { docNum: number }) => d.docNum === docNum).series.filter((s: { documentType: string }) => s.documentType === type)
      assert.deepEqual([series.from, series.to, series.total, series.cancelled, series.netIssued], [stored[0]!.number, stored.at(-1)!.number, stored.length, 0, stored.length], type)
      assert.equal(stored.at(-1)!.serial! - stored[0]!.serial! + 1, stored.length, `${type}: no gap`)
    }
    // Table 14: the taxed lines of sales through the operator, net (nil-rated goods collect no TCS).
    const [viaOperator] = await queryRows<{ taxed: string; nil: string }>(
      t.deps.database.db,
      sql`select coalesce(sum(case when d.type = 'CREDIT_NOTE' then -l.taxable_value else l.taxable_value end) filter (where l.gst_rate_bps > 0), 0)::text as taxed,
                 coalesce(sum(l.taxable_value) filter (where l.gst_rate_bps = 0), 0)::text as nil
            from tax_documents d join tax_document_lines l on l.document_id = d.id where d.registration_id = ${registrationId} and d.eco_gstin = ${ECO_GSTIN}`,
    )
    assert.ok(BigInt(viaOperator!.taxed) > 0n && BigInt(viaOperator!.nil) > 0n, 'the operator sold taxed and nil-rated goods')
    assert.deepEqual(report.ecoSupplies.map((e: { ecoGstin: string; netValue: string }) => [e.ecoGstin, paise(e.netValue)]), [[ECO_GSTIN, BigInt(viaOperator!.taxed)]])

    // The offline tool's file: the portal's keys, as documented, the same figures.
    const file = await adminCall('GET', `/gst/gstr1?gstin=${GSTIN_X}&fp=112026&format=portal`)
    assert.equal(file.statusCode, 200)
    assert.match(file.headers['content-disposition'] as string, new RegExp(`gstr1-${GSTIN_X}-112026\\.json`))
    const portal = file.json()
    assert.ok(conforms(Gstr1PortalFile, portal), JSON.stringify([...Value.Errors(Gstr1PortalFile, portal)].slice(0, 3)))
    assert.deepEqual(Object.keys(portal).slice(0, 2), ['gstin', 'fp'])
    assert.deepEqual([portal.gstin, portal.fp], [GSTIN_X, '112026'])
    const cents = (n: number) => BigInt(Math.round(n * 100))
    assert.equal(portal.b2cs.reduce((s: bigint, r: { txval: number }) => s + cents(r.txval), 0n), sum(report.b2cs, 'taxableValue'))
    assert.deepEqual(portal.b2cl[0].inv[0].idt.split('-').length, 3)
    assert.equal(portal.cdnur[0].ntty, 'C')
    assert.ok(portal.hsn.hsn_b2c.length === report.hsn.b2c.length && Array.isArray(portal.hsn.hsn_b2b))
    assert.deepEqual(portal.supeco.clttx.map((r: { etin: string }) => r.etin), [ECO_GSTIN])
    assert.ok(portal.nil.inv.some((r: { sply_ty: string }) => r.sply_ty === 'INTRAB2C'))

    const csv = await adminCall('GET', `/gst/gstr1?gstin=${GSTIN_X}&fp=112026&format=csv`)
    assert.equal(csv.statusCode, 200)
    assert.ok(['B2CS', 'B2CL', 'CDNUR', 'NIL', 'HSN', 'DOCS', 'ECO', 'TOTAL'].every((section) => csv.body.includes(`\n${section},`)))
  })

  test('a quarterly filer files the quarter by its last month', async () => {
    const y = (await adminCall('GET', `/gst/registrations?search=${GSTIN_Y}`)).json().data[0]
    assert.equal((await adminCall('PATCH', `/gst/registrations/${y.id}`, { filingFrequency: 'QUARTERLY' })).statusCode, 200)
    const quarter = await adminCall('GET', `/gst/gstr1?gstin=${GSTIN_Y}&fp=092026`)
    assert.equal(quarter.statusCode, 200, quarter.body)
    assert.deepEqual([quarter.json().data.from, quarter.json().data.to], ['2026-07-01', '2026-09-30'])
    const month = await adminCall('GET', `/gst/gstr1?gstin=${GSTIN_Y}&fp=082026`)
    assert.equal(month.statusCode, 400)
    assert.equal(month.json().message, "fp 082026: a quarterly (QRMP) filer's period is the quarter's last month: 03, 06, 09 or 12")
  })

  test('bad input is a 400 naming the field: an unknown GSTIN, a malformed fp, a period before July 2017 or in the future', async () => {
    const cases: [string, string][] = [
      [`gstin=${GSTIN_Y.replace('29', '33')}&fp=112026`, `gstin ${GSTIN_Y.replace('29', '33')} is not a GST registration of this service`],
      [`gstin=${GSTIN_X}&fp=2026-11`, 'fp must be the return period as MMYYYY, such as 112026'],
      [`gstin=${GSTIN_X}&fp=132026`, 'fp must be the return period as MMYYYY, such as 112026'],
      [`gstin=${GSTIN_X}&fp=062017`, 'fp 062017 is before July 2017, when GST began'],
      [`gstin=${GSTIN_X}&fp=122026`, 'fp 122026 is in the future'],
    ]
    for (const [query, message] of cases) {
      const res = await adminCall('GET', `/gst/gstr1?${query}`)
      assert.equal(res.statusCode, 400, query)
      assert.equal(res.json().message, message)
    }
    const missing = await adminCall('GET', `/gst/gstr1?gstin=${GSTIN_X}`)
    assert.equal(missing.statusCode, 400)
    assert.match(JSON.stringify(missing.json()), /fp/)
    const unknownFormat = await adminCall('GET', `/gst/gstr1?gstin=${GSTIN_X}&fp=112026&format=xml`)
    assert.equal(unknownFormat.statusCode, 400)
    assert.equal((await adminCall('GET', `/gst/gstr1?gstin=${GSTIN_X}&fp=072017`)).statusCode, 200, 'July 2017 is the first period')
  })
})
