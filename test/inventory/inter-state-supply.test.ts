// Stock locations in two states (decision 0043, step 5): a location ships under the GST registration
// of its own state, so the state an order's units leave from, not the catalog's seller's, decides
// CGST + SGST or IGST for each line, and each registration invoices its own lines. The quote taxes
// the lines as the allocation would ship them; what the customer pays never changes (prices include
// GST). One line is one supply: its units are never split between two registrations.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { gstinCheckCharacter } from '../../src/lib/gstin.ts'
import { seedDeliveryZones } from '../../src/modules/checkout/seed-zones.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'
import { ADDRESS as BENGALURU, placeOrder } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-29T10:00:00+05:30'))
const MUMBAI = { ...BENGALURU, line1: '4 Marine Drive', city: 'Mumbai', state: 'Maharashtra', pincode: '400001' }
const gstin = (first14: string) => `${first14}${gstinCheckCharacter(first14)}`
const KARNATAKA_GSTIN = gstin('29AABCU9603R1Z')
const MAHARASHTRA_GSTIN = gstin('27AABCU9603R1Z')

let t: TestApp
let admin: string
let partner: PartnerFixture
let customer: CustomerFixture
let catalogId: string
const product: Record<'atta' | 'earbuds', string> = { atta: '', earbuds: '' }
let store: string
let warehouse: string

const adminCall = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${admin}` }, ...(payload ? { payload } : {}) })
const levelOf = async (locationId: string, productId: string) =>
  ((await adminCall('GET', `/locations/${locationId}/stock?limit=100`)).json().data as { productId: string; onHand: number }[]).find((l) => l.productId === productId)?.onHand ?? 0

interface Line {
  productId: string
  cgst: string | null
  sgst: string | null
  igst: string | null
}
interface Doc {
  seller: { gstin: string }
  lines: { kind: string; description: string; cgst: string; sgst: string; igst: string }[]
}

/** Quotes, then orders the same; the quote's tax must be the order's to the paisa. */
async function quoteAndOrder(payload: { items: object[]; shippingAddress: typeof BENGALURU; paymentMode: 'COD' }) {
  const { shippingAddress, ...rest } = payload
  const quoted = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(customer), payload: { ...rest, pincode: shippingAddress.pincode } })
  assert.equal(quoted.statusCode, 200, quoted.body)
  const res = await placeOrder(t, customer, payload)
  assert.equal(res.statusCode, 201, res.body)
  const order = res.json().data
  const { lines, ...quoteTax } = quoted.json().data.tax
  assert.deepEqual(order.tax, quoteTax, 'the quote taxes the lines as the allocation ships them')
  assert.deepEqual(
    order.items.map((i: Line) => [i.productId, i.cgst, i.sgst, i.igst]),
    lines.map((l: Line) => [l.productId, l.cgst, l.sgst, l.igst]),
  )
  assert.equal(order.totalAmount, quoted.json().data.totalAmount)
  return order as { id: string; totalAmount: string; items: Line[]; tax: { intraState: boolean; igst: string; cgst: string } }
}

async function invoicesOf(orderId: string): Promise<Doc[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}/invoice`, headers: customerHeaders(customer) })
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data.invoices
}

before(async () => {
  t = await createTestApp({ clock })
  await seedDeliveryZones(t.deps.database.db)
  admin = await givenAdminToken(t.app, t.deps, 'supply@example.com', 'ADMIN')
  catalogId = (await adminCall('POST', '/catalogs', { name: 'Two-state shop' })).json().data.id
  const categoryId = (await adminCall('POST', `/catalogs/${catalogId}/categories`, { name: 'All', slug: 'all' })).json().data.id
  for (const [slug, price, hsnCode, gstRateBps] of [
    ['atta', '300.00', '1101', 500],
    ['earbuds', '1000.00', '85183000', 1800],
  ] as const) {
    const res = await adminCall('POST', `/catalogs/${catalogId}/products`, { name: slug, slug, brand: 'Acme', sku: slug.toUpperCase(), categoryId, sellingPrice: price, mrp: price, stock: 10, weightGrams: 200, hsnCode, gstRateBps })
    assert.equal(res.statusCode, 201, res.body)
    product[slug] = res.json().data.id
  }
  const address = { line1: '12, 4th Cross, Indiranagar', city: 'Bengaluru', state: 'Karnataka', pincode: '560038' }
  const seller = await adminCall('PUT', `/catalogs/${catalogId}/seller`, { legalName: 'Udyog Retail Private Limited', tradeName: null, gstin: KARNATAKA_GSTIN, address })
  assert.equal(seller.statusCode, 200, seller.body)
  partner = await givenPartner(t.deps, 'Supply partner', catalogId)
  customer = await givenCustomer(t.app, partner)
})
after(() => t?.close())

describe('a location in another state than the catalog\'s seller', () => {
  test('ships under a GST registration of its own state: without one it is a 400 naming registrationId', async () => {
    const created = await adminCall('POST', `/catalogs/${catalogId}/locations`, { name: 'Indiranagar store', addressLine1: '100 Feet Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560038' })
    assert.equal(created.statusCode, 201, created.body)
    store = created.json().data.id
    const WAREHOUSE = { name: 'Bhiwandi warehouse', addressLine1: 'Plot 7, Vadpe', city: 'Bhiwandi', state: 'Maharashtra', pincode: '421302', position: 1 }
    const unregistered = await adminCall('POST', `/catalogs/${catalogId}/locations`, WAREHOUSE)
    assert.equal(unregistered.statusCode, 400, unregistered.body)
    assert.match(JSON.stringify(unregistered.json()), /registrationId: the location is in Maharashtra and the catalog's GST seller in Karnataka/)
    const registration = await adminCall('POST', '/gst/registrations', {
      legalName: 'Udyog Retail Private Limited',
      tradeName: null,
      gstin: MAHARASHTRA_GSTIN,
      address: { line1: 'Plot 7, Vadpe', city: 'Bhiwandi', state: 'Maharashtra', pincode: '421302' },
    })
    assert.equal(registration.statusCode, 201, registration.body)
    const registered = await adminCall('POST', `/catalogs/${catalogId}/locations`, { ...WAREHOUSE, registrationId: registration.json().data.id })
    assert.equal(registered.statusCode, 201, registered.body)
    warehouse = registered.json().data.id
    // Every earbud goes to the warehouse; the atta stays at the store.
    const moved = await adminCall('POST', `/locations/${store}/transfers`, { productId: product.earbuds, toLocationId: warehouse, quantity: 10, reason: 'Electronics ship from Bhiwandi' })
    assert.equal(moved.statusCode, 200, moved.body)
  })
})

describe('an order allocated across two locations in two states', () => {
  test('each line is taxed by the state its units leave from and invoiced by that GSTIN; the quote says so first', async () => {
    // Mumbai: the atta leaves Karnataka (IGST), the earbuds leave Maharashtra (CGST + SGST).
    const order = await quoteAndOrder({ items: [{ productId: product.atta, quantity: 2 }, { productId: product.earbuds, quantity: 1 }], shippingAddress: MUMBAI, paymentMode: 'COD' })
    const [atta, earbuds] = order.items
    assert.equal(atta!.cgst, '0.00')
    assert.notEqual(atta!.igst, '0.00')
    assert.equal(earbuds!.igst, '0.00')
    assert.notEqual(earbuds!.cgst, '0.00')
    assert.equal(earbuds!.cgst, earbuds!.sgst)
    assert.equal(order.tax.intraState, false)
    assert.deepEqual([await levelOf(store, product.atta), await levelOf(warehouse, product.earbuds)], [8, 9])
    const invoices = await invoicesOf(order.id)
    assert.deepEqual(invoices.map((d) => d.seller.gstin).sort(), [MAHARASHTRA_GSTIN, KARNATAKA_GSTIN].sort())
    const karnataka = invoices.find((d) => d.seller.gstin === KARNATAKA_GSTIN)!
    const maharashtra = invoices.find((d) => d.seller.gstin === MAHARASHTRA_GSTIN)!
    assert.deepEqual(karnataka.lines.map((l) => [l.kind, l.description, l.cgst]), [['GOODS', 'atta', '0.00']])
    assert.equal(karnataka.lines[0]!.igst, atta!.igst)
    // The earbuds are the principal supply: the shipping and COD fee go on Maharashtra's invoice, intra-state like them.
    assert.deepEqual(maharashtra.lines[0]!.description, 'earbuds')
    for (const line of maharashtra.lines) assert.equal(line.igst, '0.00', line.kind)
    assert.ok(maharashtra.lines.some((l) => l.kind === 'COD_FEE'))
  })

  test("a Karnataka buyer of the catalog's Karnataka seller pays IGST when the units leave Maharashtra", async () => {
    const order = await quoteAndOrder({ items: [{ productId: product.earbuds, quantity: 1 }], shippingAddress: BENGALURU, paymentMode: 'COD' })
    assert.equal(order.items[0]!.cgst, '0.00')
    assert.notEqual(order.items[0]!.igst, '0.00')
    assert.deepEqual((await invoicesOf(order.id)).map((d) => d.seller.gstin), [MAHARASHTRA_GSTIN])
  })

  test('a line is never split between two registrations: 409 saying so, and nothing is taken', async () => {
    const back = await adminCall('POST', `/locations/${warehouse}/transfers`, { productId: product.earbuds, toLocationId: store, quantity: 2, reason: 'Store display' })
    assert.equal(back.statusCode, 200, back.body)
    const before = [await levelOf(store, product.earbuds), await levelOf(warehouse, product.earbuds)]
    assert.deepEqual(before, [2, 6])
    const res = await placeOrder(t, customer, { items: [{ productId: product.earbuds, quantity: 7 }], shippingAddress: MUMBAI, paymentMode: 'COD' })
    assert.equal(res.statusCode, 409, res.body)
    assert.match(res.json().message, /held at stock locations that ship under different GST registrations/)
    assert.deepEqual([await levelOf(store, product.earbuds), await levelOf(warehouse, product.earbuds)], before)
    const stock = (await t.app.inject({ method: 'GET', url: '/api/v1/products/earbuds', headers: { 'x-api-key': partner.apiKey } })).json().data.stock
    assert.equal(stock, 8, "the catalog's stock is untouched too")
    // Six fit in the warehouse alone: ordered.
    assert.equal((await placeOrder(t, customer, { items: [{ productId: product.earbuds, quantity: 6 }], shippingAddress: MUMBAI, paymentMode: 'COD' })).statusCode, 201)
  })
})

describe('parcels leave from the location holding their units', () => {
  test("a split order ships a parcel per location, booked with the location's pickup name; a COD order's second parcel follows its cash", async () => {
    for (const [id, pickupName] of [
      [store, 'Indiranagar-Store'],
      [warehouse, 'Bhiwandi-WH'],
    ] as const) {
      assert.equal((await adminCall('PATCH', `/locations/${id}`, { pickupName })).statusCode, 200)
    }
    const received = await adminCall('POST', `/locations/${warehouse}/stock`, { productId: product.earbuds, kind: 'RECEIVE', quantity: 5, reason: 'PO 88' })
    assert.equal(received.statusCode, 200, received.body)
    // The store holds atta and 2 earbuds, the warehouse 5 earbuds: 3 earbuds come from the warehouse, the atta from the store.
    const placed = await placeOrder(t, customer, { items: [{ productId: product.atta, quantity: 1 }, { productId: product.earbuds, quantity: 3 }], shippingAddress: MUMBAI, paymentMode: 'COD' })
    assert.equal(placed.statusCode, 201, placed.body)
    const order = placed.json().data as { id: string; items: { id: string; productId: string }[] }
    const line = (productId: string) => order.items.find((i) => i.productId === productId)!.id

    const both = await adminCall('POST', `/orders/${order.id}/shipments`, { items: [{ orderItemId: line(product.atta), quantity: 1 }, { orderItemId: line(product.earbuds), quantity: 3 }] })
    assert.equal(both.statusCode, 400, both.body)
    assert.match(JSON.stringify(both.json()), /items: a parcel leaves from one stock location, and no one location holds all the units asked/)
    const wrongPlace = await adminCall('POST', `/orders/${order.id}/shipments`, { locationId: store, items: [{ orderItemId: line(product.earbuds), quantity: 3 }] })
    assert.equal(wrongPlace.statusCode, 400, wrongPlace.body)
    assert.match(JSON.stringify(wrongPlace.json()), /Indiranagar store does not hold all the units asked/)
    const nowhere = await adminCall('POST', `/orders/${order.id}/shipments`, { locationId: 'loc_nowhere' })
    assert.equal(nowhere.statusCode, 400)
    assert.match(JSON.stringify(nowhere.json()), /locationId: order \S+ holds no units at location loc_nowhere/)

    const first = await adminCall('POST', `/orders/${order.id}/shipments`, {})
    assert.equal(first.statusCode, 201, first.body)
    assert.deepEqual(first.json().data.items.map((i: { orderItemId: string; quantity: number }) => [i.orderItemId, i.quantity]), [[line(product.atta), 1]])
    const firstView = (await adminCall('GET', `/shipments/${first.json().data.id}`)).json().data
    assert.deepEqual(firstView.origin, { locationId: store, pickupName: 'Indiranagar-Store' })
    // Cash is collected at one door: the warehouse's parcel waits for it.
    assert.equal((await adminCall('POST', `/orders/${order.id}/shipments`, {})).statusCode, 409)
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/v1/sandbox/shipments/${first.json().data.awb}/DELIVERED` })).statusCode, 200)
    const storeAgain = await adminCall('POST', `/orders/${order.id}/shipments`, { locationId: store })
    assert.equal(storeAgain.statusCode, 409, storeAgain.body)
    assert.match(storeAgain.json().message, /held at Indiranagar store is already in a shipment/)

    const second = await adminCall('POST', `/orders/${order.id}/shipments`, {})
    assert.equal(second.statusCode, 201, second.body)
    assert.deepEqual(second.json().data.items.map((i: { orderItemId: string; quantity: number }) => [i.orderItemId, i.quantity]), [[line(product.earbuds), 3]])
    assert.deepEqual((await adminCall('GET', `/shipments/${second.json().data.id}`)).json().data.origin, { locationId: warehouse, pickupName: 'Bhiwandi-WH' })
    assert.equal((await adminCall('POST', `/orders/${order.id}/shipments`, {})).statusCode, 409, 'every unit is in a parcel')
    // Each location's people pick their own parcels, and its courier's manifest lists only them.
    const pickAt = async (id: string) => ((await adminCall('GET', `/fulfilment/pick-list?locationId=${id}`)).json().data as { lines: { sku: string; quantity: number }[] }).lines.map((l) => [l.sku, l.quantity])
    assert.deepEqual(await pickAt(store), [['ATTA', 1]])
    assert.deepEqual(await pickAt(warehouse), [['EARBUDS', 3]])
    const manifest = (await adminCall('GET', `/fulfilment/manifest?carrier=sandbox&locationId=${warehouse}`)).json().data as { parcels: { awb: string }[] }
    assert.deepEqual(manifest.parcels.map((p) => p.awb), [second.json().data.awb])
    // A location that does not exist (a mistyped id) is named, not answered with an empty list.
    for (const path of ['/fulfilment/pick-list?locationId=loc_nowhere', '/fulfilment/manifest?carrier=sandbox&locationId=loc_nowhere']) {
      const unknown = await adminCall('GET', path)
      assert.equal(unknown.statusCode, 400, path)
      assert.deepEqual(unknown.json().message, ['locationId: no stock location loc_nowhere'])
    }

    // Delivered; one earbud comes back: its pickup goes to the warehouse it left from, and QC puts it back there.
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/v1/sandbox/shipments/${second.json().data.awb}/DELIVERED` })).statusCode, 200)
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/v1/returns',
      headers: customerHeaders(customer),
      payload: { orderId: order.id, reason: 'Faulty', detail: 'Left bud silent', requestedResolution: 'WALLET_CREDIT', items: [{ orderItemId: line(product.earbuds), quantity: 1, reason: 'Defective' }] },
    })
    assert.equal(asked.statusCode, 201, asked.body)
    const returnId = asked.json().data.id
    for (const status of ['UNDER_REVIEW', 'APPROVED']) assert.equal((await adminCall('POST', `/returns/${returnId}/status`, { status })).statusCode, 200)
    const pickup = await adminCall('POST', `/returns/${returnId}/pickup`, { weightGrams: 300 })
    assert.equal(pickup.statusCode, 200, pickup.body)
    const reverse = (await adminCall('GET', `/shipments/${pickup.json().data.pickup.id}`)).json().data
    assert.deepEqual([reverse.direction, reverse.origin], ['REVERSE', { locationId: warehouse, pickupName: 'Bhiwandi-WH' }])
    const before = await levelOf(warehouse, product.earbuds)
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/v1/sandbox/shipments/${pickup.json().data.pickup.awb}/DELIVERED` })).statusCode, 200)
    assert.equal((await adminCall('POST', `/returns/${returnId}/quality-check`, { result: 'PASSED', note: 'Works after reset' })).statusCode, 200)
    assert.equal(await levelOf(warehouse, product.earbuds), before + 1)
  })
})
