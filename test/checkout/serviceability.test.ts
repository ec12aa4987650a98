import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createCatalog } from '../../src/modules/catalog/index.ts'
import { importCatalog } from '../../src/modules/catalog/import.ts'
import { seedDeliveryZones } from '../../src/modules/checkout/seed-zones.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenCustomer, givenPartner } from '../helpers/factories.ts'

// Monday 2026-11-23, 10:00 in India.
const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let customer: CustomerFixture
let otherCustomer: CustomerFixture
let partnerSecret: string
const ids: Record<string, string> = {}

before(async () => {
  t = await createTestApp({ clock })
  const db = t.deps.database.db
  await seedDeliveryZones(db)
  const catalog = await createCatalog(db, 'Checkout')
  await importCatalog(db, catalog.id, {
    categories: [{ slug: 'staples', name: 'Staples' }],
    products: [
      { slug: 'atta', name: 'Atta 5 kg', brand: 'Aashirvaad', sku: 'A', categorySlug: 'staples', sellingPrice: '300.00', mrp: '320.00', stock: 10, weightGrams: 5000 },
      { slug: 'tea', name: 'Tea 250 g', brand: 'Tata', sku: 'T', categorySlug: 'staples', sellingPrice: '150.00', mrp: '160.00', stock: 1, weightGrams: 250 },
      { slug: 'tv', name: 'Smart TV', brand: 'Sony', sku: 'TV', categorySlug: 'staples', sellingPrice: '60000.00', mrp: '70000.00', stock: 5, weightGrams: 12000 },
      { slug: 'old', name: 'Old stock', brand: 'X', sku: 'O', categorySlug: 'staples', sellingPrice: '10.00', mrp: '10.00', stock: 5, isActive: false },
    ],
  })
  for (const p of await db.query.products.findMany()) ids[p.slug] = p.id
  const partner = await givenPartner(t.deps, 'Checkout partner', catalog.id)
  partnerSecret = partner.secret
  customer = await givenCustomer(t.app, partner)
  const otherCatalog = await createCatalog(db, 'Elsewhere')
  await importCatalog(db, otherCatalog.id, {
    categories: [{ slug: 'x', name: 'X' }],
    products: [{ slug: 'foreign', name: 'Foreign', brand: 'X', sku: 'F', categorySlug: 'x', sellingPrice: '1', mrp: '1' }],
  })
  for (const p of await db.query.products.findMany()) ids[p.slug] = p.id
  otherCustomer = await givenCustomer(t.app, await givenPartner(t.deps, 'Other', otherCatalog.id))
})
after(() => t.close())

const serviceability = (payload: object, who = customer) =>
  t.app.inject({ method: 'POST', url: '/api/v1/checkout/serviceability', headers: customerHeaders(who), payload })
const get = (url: string, who = customer) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: customerHeaders(who) })

describe('POST /checkout/serviceability', () => {
  test('a metro pincode: both methods, prepaid and COD, items in stock or not', async () => {
    const res = await serviceability({ pincode: '560001', items: [{ productId: ids.tea, quantity: 2 }, { productId: ids.old, quantity: 1 }] })
    assert.equal(res.statusCode, 200)
    const data = res.json().data
    assert.equal(data.serviceable, true)
    assert.equal(data.city, 'Bengaluru')
    assert.equal(data.state, 'Karnataka')
    assert.deepEqual(data.items, [
      { productId: ids.tea, available: true, inStock: false },
      { productId: ids.old, available: false, inStock: false },
    ])
    const [standard, express] = data.deliveryMethods
    assert.deepEqual(standard, { method: 'STANDARD', available: true, charge: '69.00', estimatedDays: { min: 2, max: 3 }, estimatedDeliveryDate: '2026-11-26' })
    assert.deepEqual(express, { method: 'EXPRESS', available: true, charge: '149.00', estimatedDays: { min: 1, max: 1 }, estimatedDeliveryDate: '2026-11-24' })
    assert.deepEqual(data.paymentOptions, [{ mode: 'PREPAID', available: true }, { mode: 'COD', available: true }])
  })

  test('free standard shipping at the threshold (₹499 in metros)', async () => {
    const res = await serviceability({ pincode: '110001', items: [{ productId: ids.atta, quantity: 2 }] })
    assert.equal(res.json().data.deliveryMethods[0].charge, '0.00')
  })

  test('a tier-2 pincode has no express; a remote one no COD, with the reason', async () => {
    const tier2 = (await serviceability({ pincode: '302001', items: [{ productId: ids.tea, quantity: 1 }] })).json().data
    assert.equal(tier2.deliveryMethods[1].available, false)
    assert.equal(tier2.deliveryMethods[1].estimatedDeliveryDate, null)
    const remote = (await serviceability({ pincode: '744101', items: [{ productId: ids.tea, quantity: 1 }] })).json().data
    assert.deepEqual(remote.paymentOptions[1], { mode: 'COD', available: false, reason: 'Cash on delivery is not available for this pincode' })
  })

  test('COD above the limit is refused with the reason', async () => {
    const data = (await serviceability({ pincode: '560001', items: [{ productId: ids.tv, quantity: 1 }] })).json().data
    assert.deepEqual(data.paymentOptions[1], { mode: 'COD', available: false, reason: 'Cash on delivery is limited to ₹50000.00 for this pincode' })
  })

  test('unserviceable and unknown pincodes', async () => {
    for (const pincode of ['682555', '999999']) {
      const data = (await serviceability({ pincode, items: [{ productId: ids.tea, quantity: 1 }] })).json().data
      assert.equal(data.serviceable, false, pincode)
      assert.ok(data.deliveryMethods.every((m: { available: boolean }) => !m.available))
      assert.equal(data.paymentOptions[0].available, false)
    }
  })

  test('bad input: malformed pincode, quantities 0 and 10000, unknown, foreign and duplicated products', async () => {
    const cases: [object, string | string[]][] = [
      [{ pincode: '56001', items: [{ productId: ids.tea, quantity: 1 }] }, ['pincode must be a 6-digit Indian PIN code']],
      [{ pincode: '560001', items: [{ productId: ids.tea, quantity: 0 }] }, ['items.0.quantity must not be less than 1']],
      [{ pincode: '560001', items: [{ productId: ids.tea, quantity: 10000 }] }, ['items.0.quantity must not be greater than 9999']],
      [{ pincode: '560001', items: [] }, ['items must contain at least 1 elements']],
      [{ pincode: '560001', items: [{ productId: 'prd_nope', quantity: 1 }] }, 'Product prd_nope does not exist'],
      [{ pincode: '560001', items: [{ productId: ids.foreign, quantity: 1 }] }, `Product ${ids.foreign} does not exist`],
      [{ pincode: '560001', items: [{ productId: ids.tea, quantity: 1 }, { productId: ids.tea, quantity: 2 }] }, `items must not list product ${ids.tea} twice`],
    ]
    for (const [payload, message] of cases) {
      const res = await serviceability(payload)
      assert.equal(res.statusCode, 400, JSON.stringify(payload))
      assert.deepEqual(res.json().message, message)
    }
  })

  test('x-partner-id is required', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/checkout/serviceability',
      headers: { authorization: `Bearer ${customer.accessToken}` },
      payload: { pincode: '560001', items: [{ productId: ids.tea, quantity: 1 }] },
    })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().message, 'x-partner-id header is required')
  })
})

describe('GET /checkout/delivery-quote', () => {
  test('answers charge and date for the method', async () => {
    const res = await get(`/checkout/delivery-quote?pincode=400001&deliveryMethod=EXPRESS&items=${ids.tea}:1,${ids.atta}:1`)
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json().data, { pincode: '400001', deliveryMethod: 'EXPRESS', charge: '399.00', estimatedDays: { min: 1, max: 1 }, estimatedDeliveryDate: '2026-11-24' })
    assert.equal((await get(`/checkout/delivery-quote?pincode=400001&items=${ids.tea}:1`)).json().data.deliveryMethod, 'STANDARD')
  })

  test('after the Saturday cut-off the date skips Sunday', async () => {
    const saved = clock.now()
    clock.advance(new Date('2026-11-28T15:00:00+05:30').getTime() - saved.getTime())
    try {
      // A fresh token: the clock moved past the first one's expiry.
      const later = await givenCustomer(t.app, { partnerId: customer.partnerId, secret: partnerSecret } as never)
      const data = (await get(`/checkout/delivery-quote?pincode=400001&deliveryMethod=EXPRESS&items=${ids.tea}:1`, later)).json().data
      assert.equal(data.estimatedDeliveryDate, '2026-12-01')
    } finally {
      clock.advance(saved.getTime() - clock.now().getTime())
    }
  })

  test('refusals: express-less, unserviceable, inactive product, malformed items', async () => {
    const cases: [string, string | string[]][] = [
      [`pincode=302001&deliveryMethod=EXPRESS&items=${ids.tea}:1`, 'EXPRESS delivery is not available for pincode 302001'],
      [`pincode=682555&items=${ids.tea}:1`, 'Pincode 682555 is not serviceable'],
      [`pincode=560001&items=${ids.old}:1`, `Product ${ids.old} is not available`],
      [`pincode=560001&items=${ids.tea}:0`, 'items must be productId:quantity pairs with quantities from 1 to 9999, for example prd_a:2,prd_b:1'],
      [`pincode=560001&items=${ids.tea}`, 'items must be productId:quantity pairs with quantities from 1 to 9999, for example prd_a:2,prd_b:1'],
      [`pincode=560001&deliveryMethod=FAST&items=${ids.tea}:1`, ['deliveryMethod must be one of the following values: STANDARD, EXPRESS']],
    ]
    for (const [query, message] of cases) {
      const res = await get(`/checkout/delivery-quote?${query}`)
      assert.equal(res.statusCode, 400, query)
      assert.deepEqual(res.json().message, message, query)
    }
  })
})

describe('GET /checkout/cod-eligibility', () => {
  test('eligible within the limit, with the fee and the limit', async () => {
    const res = await get('/checkout/cod-eligibility?pincode=560001&collectableAmount=1499.5')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json().data, { eligible: true, collectableAmount: '1499.50', codFee: '49.00', maxCodAmount: '50000.00', reasons: [] })
  })

  test('above the limit, on a non-COD zone and on an unserviceable pincode: not eligible, with the reason', async () => {
    assert.deepEqual((await get('/checkout/cod-eligibility?pincode=560001&collectableAmount=50000.01')).json().data.reasons, [
      'Cash on delivery is limited to ₹50000.00 for this pincode',
    ])
    assert.equal((await get('/checkout/cod-eligibility?pincode=560001&collectableAmount=50000')).json().data.eligible, true)
    const remote = (await get('/checkout/cod-eligibility?pincode=744101&collectableAmount=100')).json().data
    assert.deepEqual(remote, { eligible: false, collectableAmount: '100.00', codFee: '0.00', maxCodAmount: '0.00', reasons: ['Cash on delivery is not available for this pincode'] })
    assert.deepEqual((await get('/checkout/cod-eligibility?pincode=682555&collectableAmount=100')).json().data.reasons, ['Pincode is not serviceable'])
  })

  test('negative, non-numeric or over-precise amounts are 400', async () => {
    for (const amount of ['-5', 'abc', '10.001', '']) {
      const res = await get(`/checkout/cod-eligibility?pincode=560001&collectableAmount=${amount}`)
      assert.equal(res.statusCode, 400, amount)
      assert.deepEqual(res.json().message, ['collectableAmount must be a non-negative amount with at most two decimals'])
    }
  })

  test("another partner's customer sees only its own catalogs' products", async () => {
    const res = await serviceability({ pincode: '560001', items: [{ productId: ids.tea, quantity: 1 }] }, otherCustomer)
    assert.equal(res.statusCode, 400)
  })
})
