// Stock locations (decision 0043, step 5): a catalog's first location takes its stock as an opening
// balance and keeps it there; receipts, adjustments and transfers move a location's level, the
// catalog's stock and the ledger together; an order's units come from the nearest location that
// holds them all, else from several; a cancellation gives them back where they came from.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { seedDeliveryZones } from '../../src/modules/checkout/seed-zones.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'
import { ADDRESS as BENGALURU, placeOrder, sandboxAction } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-29T10:00:00+05:30'))
const MUMBAI = { ...BENGALURU, line1: '4 Marine Drive', city: 'Mumbai', state: 'Maharashtra', pincode: '400001' }

let t: TestApp
let admin: string
let partner: PartnerFixture
let customer: CustomerFixture
let catalogId: string
let categoryId: string

const adminCall = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${admin}` }, ...(payload ? { payload } : {}) })
const publicStock = async (slug: string) => (await t.app.inject({ method: 'GET', url: `/api/v1/products/${slug}`, headers: { 'x-api-key': partner.apiKey } })).json().data

async function givenProduct(slug: string, stock: number) {
  const res = await adminCall('POST', `/catalogs/${catalogId}/products`, { name: `Product ${slug}`, slug, brand: 'Acme', sku: slug.toUpperCase(), categoryId, sellingPrice: '100.00', mrp: '120.00', stock })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data.id as string
}

const WAREHOUSE = { name: 'Bhiwandi warehouse', addressLine1: 'Plot 7, Vadpe', city: 'Bhiwandi', state: 'Maharashtra', pincode: '421302' }
const STORE = { name: 'Indiranagar store', addressLine1: '100 Feet Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560038', position: 1 }

async function givenLocation(fields: object) {
  const res = await adminCall('POST', `/catalogs/${catalogId}/locations`, fields)
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as { id: string; unitsOnHand: number }
}
const levelOf = async (locationId: string, variantId: string) =>
  ((await adminCall('GET', `/locations/${locationId}/stock?limit=100`)).json().data as { variantId: string; onHand: number }[]).find((l) => l.variantId === variantId)?.onHand ?? 0
const movesOf = async (query = '') => (await adminCall('GET', `/catalogs/${catalogId}/inventory-moves?limit=100${query}`)).json().data as { locationId: string; variantId: string; kind: string; quantity: number; actor: string; reason: string; reference: string | null }[]
const defaultOf = (productId: string) => `var_${productId.slice(4)}`

let atta: string
let kurta: string
let kurtaM: string
let kurtaL: string
let warehouse: { id: string; unitsOnHand: number }
let store: { id: string; unitsOnHand: number }

before(async () => {
  t = await createTestApp({ clock })
  await seedDeliveryZones(t.deps.database.db)
  admin = await givenAdminToken(t.app, t.deps, 'locations@example.com', 'ADMIN')
  catalogId = (await adminCall('POST', '/catalogs', { name: 'Two-location shop' })).json().data.id
  categoryId = (await adminCall('POST', `/catalogs/${catalogId}/categories`, { name: 'All', slug: 'all' })).json().data.id
  partner = await givenPartner(t.deps, 'Locations partner', catalogId)
  customer = await givenCustomer(t.app, partner)
  atta = await givenProduct('atta', 10)
  kurta = await givenProduct('kurta', 0)
  const grid = await adminCall('PUT', `/products/${kurta}/variants`, {
    options: [{ name: 'Size', values: ['M', 'L'] }],
    variants: [
      { options: [{ name: 'Size', value: 'M' }], sku: 'KURTA-M', sellingPrice: '100.00', mrp: '120.00', stock: 4 },
      { options: [{ name: 'Size', value: 'L' }], sku: 'KURTA-L', sellingPrice: '100.00', mrp: '120.00', stock: 1 },
    ],
  })
  assert.equal(grid.statusCode, 200, grid.body)
  ;[kurtaM, kurtaL] = grid.json().data.variants.map((v: { id: string }) => v.id)
})
after(() => t?.close())

describe("a catalog's first location", () => {
  test('takes every unit in stock as its opening balance, in the ledger; the next location starts empty', async () => {
    warehouse = await givenLocation(WAREHOUSE)
    assert.equal(warehouse.unitsOnHand, 15)
    assert.deepEqual([await levelOf(warehouse.id, defaultOf(atta)), await levelOf(warehouse.id, kurtaM), await levelOf(warehouse.id, kurtaL)], [10, 4, 1])
    const opening = await movesOf()
    assert.deepEqual(opening.map((m) => [m.kind, m.quantity, m.reason]).sort(), [['RECEIVE', 1, 'Opening balance'], ['RECEIVE', 10, 'Opening balance'], ['RECEIVE', 4, 'Opening balance']])
    assert.ok(opening.every((m) => m.actor.startsWith('adm_')))
    store = await givenLocation(STORE)
    assert.equal(store.unitsOnHand, 0)
    const listed = (await adminCall('GET', `/catalogs/${catalogId}/locations`)).json().data
    assert.deepEqual(listed.map((l: { name: string; unitsOnHand: number }) => [l.name, l.unitsOnHand]), [['Bhiwandi warehouse', 15], ['Indiranagar store', 0]])
  })

  test('from then on the flat stock writes are a 409 saying to move units at a location, and an import may give no stock', async () => {
    const refused = /keeps its stock at locations: receive or adjust units at a location/
    for (const [method, url, body] of [
      ['POST', `/products/${atta}/stock`, { delta: 5 }],
      ['PATCH', `/products/${atta}`, { stock: 3 }],
      ['PATCH', `/products/${kurta}/variants/${kurtaM}`, { stock: 9 }],
      ['POST', `/catalogs/${catalogId}/products`, { name: 'Rice', slug: 'rice', brand: 'Acme', sku: 'RICE', categoryId, sellingPrice: '50.00', mrp: '60.00', stock: 3 }],
    ] as const) {
      const res = await adminCall(method, url, body)
      assert.equal(res.statusCode, 409, `${method} ${url}: ${res.body}`)
      assert.match(res.json().message, refused)
    }
    const imported = await adminCall('POST', `/catalogs/${catalogId}/import`, { products: [{ slug: 'atta', name: 'Product atta', brand: 'Acme', sku: 'ATTA', categorySlug: 'all', sellingPrice: '100.00', mrp: '120.00', stock: 99 }] })
    assert.equal(imported.statusCode, 400)
    assert.match(JSON.stringify(imported.json().message), /stock: this catalog keeps its stock at locations/)
    // Without a stock, an import updates the product and leaves its units alone.
    const renamed = await adminCall('POST', `/catalogs/${catalogId}/import`, { products: [{ slug: 'atta', name: 'Chakki atta', brand: 'Acme', sku: 'ATTA', categorySlug: 'all', sellingPrice: '100.00', mrp: '120.00' }] })
    assert.equal(renamed.statusCode, 200, renamed.body)
    assert.deepEqual([(await publicStock('atta')).name, (await publicStock('atta')).stock], ['Chakki atta', 10])
  })

  test('a location\'s state must be its pincode\'s, a registration must exist, and one holding units cannot be closed', async () => {
    const wrongState = await adminCall('POST', `/catalogs/${catalogId}/locations`, { ...STORE, state: 'Maharashtra' })
    assert.equal(wrongState.statusCode, 400)
    assert.match(wrongState.json().message, /state Maharashtra does not match pincode 560038/)
    const noRegistration = await adminCall('POST', `/catalogs/${catalogId}/locations`, { ...STORE, registrationId: 'gsr_missing' })
    assert.equal(noRegistration.statusCode, 400)
    assert.match(noRegistration.json().message, /registrationId gsr_missing is not a GST registration/)
    const closing = await adminCall('PATCH', `/locations/${warehouse.id}`, { isActive: false })
    assert.equal(closing.statusCode, 409)
    assert.match(closing.json().message, /holds 15 units: transfer them/)
    assert.equal((await adminCall('PATCH', `/locations/${store.id}`, { pickupName: 'BLR-INDIRANAGAR' })).json().data.pickupName, 'BLR-INDIRANAGAR')
    for (const [method, url] of [['POST', '/catalogs/cat_missing/locations'], ['GET', '/catalogs/cat_missing/locations'], ['GET', '/catalogs/cat_missing/inventory-moves'], ['GET', '/locations/loc_missing/stock'], ['PATCH', '/locations/loc_missing']] as const) {
      const res = await adminCall(method, url, method === 'GET' ? undefined : method === 'PATCH' ? { name: 'x' } : WAREHOUSE)
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`)
    }
  })
})

describe('receipts, adjustments and transfers', () => {
  test("a receipt and an adjustment move the location's level, the catalog's stock and the ledger together; nothing goes below zero", async () => {
    const received = await adminCall('POST', `/locations/${store.id}/stock`, { productId: kurta, variantId: kurtaL, kind: 'RECEIVE', quantity: 3, reason: 'PO 4471' })
    assert.equal(received.statusCode, 200, received.body)
    assert.deepEqual([received.json().data.onHand, received.json().data.variantTitle, received.json().data.sku], [3, 'L', 'KURTA-L'])
    assert.equal((await publicStock('kurta')).variants.find((v: { id: string }) => v.id === kurtaL).stock, 4)
    const counted = await adminCall('POST', `/locations/${warehouse.id}/stock`, { productId: atta, kind: 'ADJUST', quantity: -2, reason: 'Two bags torn' })
    assert.equal(counted.statusCode, 200, counted.body)
    assert.equal(counted.json().data.onHand, 8)
    assert.equal((await publicStock('atta')).stock, 8)
    const below = await adminCall('POST', `/locations/${store.id}/stock`, { productId: atta, kind: 'ADJUST', quantity: -1, reason: 'x' })
    assert.equal(below.statusCode, 409, below.body)
    assert.equal((await publicStock('atta')).stock, 8, 'the catalog moved back with the refusal')
    const negativeReceipt = await adminCall('POST', `/locations/${store.id}/stock`, { productId: atta, kind: 'RECEIVE', quantity: -1, reason: 'x' })
    assert.equal(negativeReceipt.statusCode, 400)
    const noVariant = await adminCall('POST', `/locations/${store.id}/stock`, { productId: kurta, kind: 'RECEIVE', quantity: 1, reason: 'x' })
    assert.equal(noVariant.statusCode, 400)
    assert.match(noVariant.json().message, /variantId is required: product .* has several variants \(M, L\)/)
    const [last] = await movesOf(`&locationId=${warehouse.id}`)
    assert.deepEqual([last!.kind, last!.quantity, last!.reason], ['ADJUST', -2, 'Two bags torn'])
  })

  test("a transfer moves units between the catalog's locations, two moves of one transfer; the catalog's stock is unchanged", async () => {
    const moved = await adminCall('POST', `/locations/${warehouse.id}/transfers`, { productId: atta, toLocationId: store.id, quantity: 3, reason: 'Store restock' })
    assert.equal(moved.statusCode, 200, moved.body)
    const { transferId, from, to } = moved.json().data
    assert.deepEqual([from.onHand, to.onHand], [5, 3])
    assert.equal((await publicStock('atta')).stock, 8)
    const both = (await movesOf()).filter((m) => m.reference === transferId)
    assert.deepEqual(both.map((m) => [m.kind, m.quantity]).sort(), [['TRANSFER_IN', 3], ['TRANSFER_OUT', -3]])
    const tooMany = await adminCall('POST', `/locations/${warehouse.id}/transfers`, { productId: atta, toLocationId: store.id, quantity: 6, reason: 'x' })
    assert.equal(tooMany.statusCode, 409)
    const other = (await adminCall('POST', '/catalogs', { name: 'Other shop' })).json().data.id
    const foreign = (await adminCall('POST', `/catalogs/${other}/locations`, WAREHOUSE)).json().data.id
    const elsewhere = await adminCall('POST', `/locations/${warehouse.id}/transfers`, { productId: atta, toLocationId: foreign, quantity: 1, reason: 'x' })
    assert.equal(elsewhere.statusCode, 400)
    assert.match(elsewhere.json().message, /is not a location of this catalog/)
  })
})

describe("an order's units come from the nearest locations that hold them", () => {
  test('the nearest location holding every line ships it all (the Bengaluru store for Bengaluru, else the warehouse); when none holds all, the nearest give what they hold; a cancellation gives each unit back where it came from', async () => {
    // The store (Bengaluru) holds atta 3, kurta L 3; the warehouse (Maharashtra) atta 5, kurta M 4, kurta L 1.
    const near = await placeOrder(t, customer, { items: [{ productId: atta, quantity: 2 }, { productId: kurta, variantId: kurtaL, quantity: 1 }], shippingAddress: BENGALURU, paymentMode: 'COD' })
    assert.equal(near.statusCode, 201, near.body)
    assert.deepEqual([await levelOf(store.id, defaultOf(atta)), await levelOf(store.id, kurtaL), await levelOf(warehouse.id, defaultOf(atta))], [1, 2, 5])
    // The store holds no kurta M: the warehouse, which holds both lines, ships the whole order.
    const farther = await placeOrder(t, customer, { items: [{ productId: atta, quantity: 3 }, { productId: kurta, variantId: kurtaM, quantity: 1 }], shippingAddress: BENGALURU, paymentMode: 'COD' })
    assert.equal(farther.statusCode, 201, farther.body)
    assert.deepEqual([...new Set((await movesOf()).filter((m) => m.reference === farther.json().data.id).map((m) => m.locationId))], [warehouse.id])
    // Atta 3: the store holds 1, the warehouse 2, neither all: split, the nearest first.
    const split = await placeOrder(t, customer, { items: [{ productId: atta, quantity: 3 }], shippingAddress: BENGALURU, paymentMode: 'COD' })
    assert.equal(split.statusCode, 201, split.body)
    const sales = (await movesOf()).filter((m) => m.reference === split.json().data.id)
    assert.deepEqual(sales.map((m) => [m.locationId === store.id ? 'store' : 'warehouse', m.kind, m.quantity]).sort(), [['store', 'SALE', -1], ['warehouse', 'SALE', -2]])
    // A Mumbai order of kurta L, held by both: the warehouse (Maharashtra) is nearer than the store.
    const mumbai = await placeOrder(t, customer, { items: [{ productId: kurta, variantId: kurtaL, quantity: 1 }], shippingAddress: MUMBAI, paymentMode: 'COD' })
    assert.equal(mumbai.statusCode, 201, mumbai.body)
    assert.deepEqual((await movesOf()).filter((m) => m.reference === mumbai.json().data.id).map((m) => m.locationId), [warehouse.id])
    // Cancelled: each unit back to the location it left.
    const cancelled = await t.app.inject({ method: 'POST', url: `/api/v1/orders/${split.json().data.id}/cancel`, headers: customerHeaders(customer), payload: { reason: 'Changed my mind' } })
    assert.equal(cancelled.statusCode, 200, cancelled.body)
    const back = (await movesOf()).filter((m) => m.reference === split.json().data.id && m.kind === 'RELEASE')
    assert.deepEqual(back.map((m) => [m.locationId === store.id ? 'store' : 'warehouse', m.quantity]).sort(), [['store', 1], ['warehouse', 2]])
    // The catalog's stock is its locations' levels added up, and every level its ledger's sum.
    const levels = async (variantId: string) => (await levelOf(store.id, variantId)) + (await levelOf(warehouse.id, variantId))
    assert.equal((await publicStock('atta')).stock, await levels(defaultOf(atta)))
    const kurtaNow = (await publicStock('kurta')).variants as { id: string; stock: number }[]
    for (const v of kurtaNow) assert.equal(v.stock, await levels(v.id), v.id)
    const ledger = await movesOf()
    for (const location of [store.id, warehouse.id]) {
      for (const variantId of [defaultOf(atta), kurtaM, kurtaL]) {
        const sum = ledger.filter((m) => m.locationId === location && m.variantId === variantId).reduce((n, m) => n + m.quantity, 0)
        assert.equal(sum, await levelOf(location, variantId), `${location} ${variantId}`)
      }
    }
  })

  test('a partial cancellation gives back the units still waiting at a location, not those a parcel took from another', async () => {
    // Exactly 1 atta at the store and 2 at the warehouse: 3 for Bengaluru are split, the store's first.
    for (const [id, want] of [
      [store.id, 1],
      [warehouse.id, 2],
    ] as const) {
      const delta = want - (await levelOf(id, defaultOf(atta)))
      if (delta !== 0) assert.equal((await adminCall('POST', `/locations/${id}/stock`, { productId: atta, kind: 'ADJUST', quantity: delta, reason: 'Count' })).statusCode, 200)
    }
    const placed = await placeOrder(t, customer, { items: [{ productId: atta, quantity: 3 }], shippingAddress: BENGALURU, paymentMode: 'PREPAID', paymentReturnUrl: 'https://partner.example/return' })
    assert.equal(placed.statusCode, 201, placed.body)
    assert.equal((await sandboxAction(t, placed.json().data.paymentClientAction, 'pay')).statusCode, 200)
    const order = placed.json().data as { id: string; items: { id: string }[] }
    // The warehouse (the location made first, so its allocation is listed first) ships its 2.
    const parcel = await adminCall('POST', `/orders/${order.id}/shipments`, { locationId: warehouse.id })
    assert.equal(parcel.statusCode, 201, parcel.body)
    assert.deepEqual(parcel.json().data.items.map((i: { quantity: number }) => i.quantity), [2])
    const cancelled = await t.app.inject({ method: 'POST', url: `/api/v1/orders/${order.id}/cancel-items`, headers: customerHeaders(customer), payload: { items: [{ orderItemId: order.items[0]!.id, quantity: 1 }], reason: 'Two are enough' } })
    assert.equal(cancelled.statusCode, 200, cancelled.body)
    const back = (await movesOf()).filter((m) => m.reference === order.id && m.kind === 'RELEASE')
    assert.deepEqual(back.map((m) => [m.locationId === store.id ? 'store' : 'warehouse', m.quantity]), [['store', 1]])
    assert.deepEqual([await levelOf(store.id, defaultOf(atta)), await levelOf(warehouse.id, defaultOf(atta))], [1, 0])
  })

  test('units of a variant deleted since the sale go back nowhere: no level, no ledger move, the ledger still adds up', async () => {
    const scarf = await givenProduct('scarf', 0)
    const grid = (colours: string[], ids: Record<string, string> = {}) =>
      adminCall('PUT', `/products/${scarf}/variants`, {
        options: [{ name: 'Colour', values: colours }],
        variants: colours.map((c) => ({ ...(ids[c] ? { id: ids[c] } : {}), options: [{ name: 'Colour', value: c }], sku: `SCARF-${c.toUpperCase()}`, sellingPrice: '100.00', mrp: '120.00' })),
      })
    const made = await grid(['Red', 'Blue'])
    assert.equal(made.statusCode, 200, made.body)
    const [red, blue] = made.json().data.variants.map((v: { id: string }) => v.id) as [string, string]
    assert.equal((await adminCall('POST', `/locations/${store.id}/stock`, { productId: scarf, variantId: red, kind: 'RECEIVE', quantity: 1, reason: 'One in' })).statusCode, 200)
    const placed = await placeOrder(t, customer, { items: [{ productId: scarf, variantId: red, quantity: 1 }], shippingAddress: BENGALURU, paymentMode: 'COD' })
    assert.equal(placed.statusCode, 201, placed.body)
    // Red sold out everywhere: the merchant drops it.
    const dropped = await grid(['Blue'], { Blue: blue })
    assert.equal(dropped.statusCode, 200, dropped.body)
    const cancelled = await t.app.inject({ method: 'POST', url: `/api/v1/orders/${placed.json().data.id}/cancel`, headers: customerHeaders(customer), payload: { reason: 'Changed my mind' } })
    assert.equal(cancelled.statusCode, 200, cancelled.body)
    assert.deepEqual((await movesOf(`&variantId=${red}`)).map((m) => m.kind), ['SALE', 'RECEIVE'])
    assert.equal(await levelOf(store.id, red), 0)
  })

  test('a variant holding units at the locations cannot be dropped from its grid, nor given a stock there', async () => {
    const dropped = await adminCall('PUT', `/products/${kurta}/variants`, {
      options: [{ name: 'Size', values: ['M', 'L'] }],
      variants: [{ id: kurtaM, options: [{ name: 'Size', value: 'M' }], sku: 'KURTA-M', sellingPrice: '100.00', mrp: '120.00' }],
    })
    assert.equal(dropped.statusCode, 409, dropped.body)
    assert.match(dropped.json().message, /holds \d+ units at the catalog's locations/)
    const given = await adminCall('PUT', `/products/${kurta}/variants`, {
      options: [{ name: 'Size', values: ['M', 'L'] }],
      variants: [
        { id: kurtaM, options: [{ name: 'Size', value: 'M' }], sku: 'KURTA-M', sellingPrice: '100.00', mrp: '120.00', stock: 50 },
        { id: kurtaL, options: [{ name: 'Size', value: 'L' }], sku: 'KURTA-L', sellingPrice: '100.00', mrp: '120.00' },
      ],
    })
    assert.equal(given.statusCode, 409)
  })
})
