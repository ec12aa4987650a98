// The service configured with Shiprocket (SHIPROCKET_*), against the local stand-in of its API: the
// back office books a parcel through the adapter (COD amount, AWB, label), Shiprocket's tracking
// webhook with its shared token moves the parcel and the order, a wrong token is 401, a
// Shiprocket outage while booking answers 503 and records nothing; a parcel declared from its
// products with its GST papers, and its pickup asked for, again when Shiprocket was down.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { customerHeaders, givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'
import { createShiprocketStandIn, shiprocketWebhook, type ShiprocketStandIn } from '../helpers/shiprocket-standin.ts'

const TOKEN = 'shiprocket-webhook-token-for-tests'
const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop
let support: string
let standIn: ShiprocketStandIn

before(async () => {
  standIn = createShiprocketStandIn({ email: 'ops@shop.example', password: 'shiprocket-password-for-tests' })
  await standIn.listen()
  t = await createTestApp({
    clock,
    env: {
      SHIPROCKET_EMAIL: 'ops@shop.example',
      SHIPROCKET_PASSWORD: 'shiprocket-password-for-tests',
      SHIPROCKET_WEBHOOK_TOKEN: TOKEN,
      SHIPROCKET_PICKUP_LOCATION: 'Bengaluru WH',
      SHIPROCKET_API_BASE: standIn.apiBase,
      SHIPROCKET_TIMEOUT_MS: '500',
    },
  })
  shop = await givenShop(t)
  support = await givenAdminToken(t.app, t.deps, 'support@shiprocket.test', 'SUPPORT')
})
after(async () => {
  await t?.close()
  await standIn?.close()
})

const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${support}` }, ...(payload ? { payload } : {}) })
const webhook = (awb: string, statusId: number, token = TOKEN, timestamp?: string, name = 'shiprocket') => {
  const { rawBody, headers } = shiprocketWebhook(awb, statusId, { token, ...(timestamp ? { timestamp } : {}) })
  return t.app.inject({ method: 'POST', url: `/api/v1/shipping/webhooks/${name}`, headers: headers as Record<string, string>, payload: rawBody })
}

test('a COD order shipped with Shiprocket: booked through its API, tracked by its webhook to delivery', async () => {
  const customer = await givenCustomer(t.app, shop.partner)
  const order = (await placeOrder(t, customer, { items: [{ productId: shop.ids['atta']!, quantity: 2 }], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
  const booked = await admin('POST', `/orders/${order.id}/shipments`, { weightGrams: 10_250 })
  assert.equal(booked.statusCode, 201, booked.body)
  const parcel = booked.json().data
  assert.equal(parcel.carrier, 'shiprocket', 'Shiprocket is the default once configured')
  assert.ok(parcel.awb)
  assert.equal(parcel.trackingUrl, `https://shiprocket.co/tracking/${parcel.awb}`)
  assert.ok(parcel.labelUrl, "Shiprocket's label")
  const created = standIn.sent('POST', '/v1/external/orders/create/adhoc')
  assert.equal(created.length, 1)
  assert.equal(created[0]!.body!['payment_method'], 'COD')
  const sent = created[0]!.body as Record<string, string | number>
  const paise = (v: string | number | undefined) => Math.round(Number(v ?? 0) * 100)
  assert.equal(paise(sent['sub_total']) + paise(sent['shipping_charges']) - paise(sent['total_discount']), paise(order.amountPayable), 'the courier collects exactly the cash due')

  assert.equal((await webhook(parcel.awb, 18, TOKEN, '23 11 2026 12:00:00')).statusCode, 200)
  const aliased = await webhook(parcel.awb, 17, TOKEN, '23 11 2026 13:00:00', 'aggregator')
  assert.equal(aliased.json().data.applied, 1, 'Shiprocket callbacks also arrive at …/webhooks/aggregator (a URL without "shiprocket" in it)')
  const late = await webhook(parcel.awb, 18, TOKEN, '23 11 2026 12:30:00')
  assert.equal(late.json().data.applied, 0, 'an older scan arriving late changes nothing')
  assert.equal((await webhook(parcel.awb, 7, TOKEN, '23 11 2026 15:00:00')).json().data.applied, 1)
  const seen = (await t.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: customerHeaders(customer) })).json().data
  assert.equal(seen.status, 'DELIVERED')
  assert.equal(seen.paymentStatus, 'PAID')
  assert.equal(seen.shipments[0].events.length, 4)
})

test("Shiprocket's token is checked: a wrong or missing x-api-key is 401 and moves nothing", async () => {
  const forged = await webhook('SR123', 7, 'not-the-token')
  assert.equal(forged.statusCode, 401)
  assert.equal(forged.json().message, 'Invalid webhook signature')
  const { rawBody } = shiprocketWebhook('SR123', 7, { token: TOKEN })
  const missing = await t.app.inject({ method: 'POST', url: '/api/v1/shipping/webhooks/shiprocket', headers: { 'content-type': 'application/json' }, payload: rawBody })
  assert.equal(missing.statusCode, 401)
})

test('a Shiprocket outage while booking answers 503 and records no shipment; a timeout too', async () => {
  const customer = await givenCustomer(t.app, shop.partner)
  const order = (await placeOrder(t, customer, { items: [{ productId: shop.ids['earbuds']!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
  for (const reply of [{ status: 502, body: 'Bad gateway' }, 'hang'] as const) {
    standIn.override = (request) => (request.path.includes('/orders/create') ? reply : null)
    const res = await admin('POST', `/orders/${order.id}/shipments`, { weightGrams: 200 })
    assert.equal(res.statusCode, 503, res.body)
    assert.equal(res.json().message, 'The carrier shiprocket could not book the shipment; try again')
  }
  standIn.override = null
  const rows = await t.deps.database.db.query.shipments.findMany({ where: (s, { eq }) => eq(s.orderId, order.id) })
  assert.equal(rows.length, 0)
  const seen = (await t.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: customerHeaders(customer) })).json().data
  assert.equal(seen.status, 'CONFIRMED')
  const sandbox = await admin('POST', `/orders/${order.id}/shipments`, { weightGrams: 200, carrier: 'sandbox' })
  assert.equal(sandbox.statusCode, 201, 'the sandbox carrier is still there outside production')
})

test("a taxed order booked with Shiprocket from its products' sizes: the box, the invoice number and each line's GST rate are sent, then the pickup, whose date the back office sees", async () => {
  const admin2 = await givenAdminToken(t.app, t.deps, 'admin@shiprocket.test', 'ADMIN')
  const asAdmin = (method: 'PUT' | 'PATCH', url: string, payload: object) => t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${admin2}` }, payload })
  const taxed = await givenShop(t)
  const seller = await asAdmin('PUT', `/catalogs/${taxed.catalogId}/seller`, {
    legalName: 'Acme Retail Private Limited',
    gstin: '29AABCU9603R1ZJ',
    address: { line1: '1 Residency Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560025' },
  })
  assert.equal(seller.statusCode, 200, seller.body)
  assert.equal((await asAdmin('PATCH', `/products/${taxed.ids.earbuds}`, { hsnCode: '85183000', gstRateBps: 1800, dimensionsCm: { length: 15, breadth: 10, height: 5 } })).statusCode, 200)
  assert.equal((await asAdmin('PATCH', `/products/${taxed.ids.hot}`, { hsnCode: '85183000', gstRateBps: 1800, dimensionsCm: { length: 20, breadth: 12, height: 6 } })).statusCode, 200)
  const customer = await givenCustomer(t.app, taxed.partner)
  const placed = await placeOrder(t, customer, { items: [{ productId: taxed.ids.earbuds!, quantity: 2 }, { productId: taxed.ids.hot!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
  assert.equal(placed.statusCode, 201, placed.body)
  const order = placed.json().data
  const invoice = (await t.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}/invoice`, headers: customerHeaders(customer) })).json().data.invoices[0]
  assert.ok(invoice?.number)
  standIn.requests.length = 0

  const booked = await admin('POST', `/orders/${order.id}/shipments`, {})
  assert.equal(booked.statusCode, 201, booked.body)
  const parcel = booked.json().data
  const sent = standIn.sent('POST', '/v1/external/orders/create/adhoc')[0]!.body!
  // 2 x 200 g + 200 g; 20 x 12 (the largest face); 2 x 750 + 1440 = 2940 cm3 over 240 cm2: 13 cm.
  assert.deepEqual([sent.weight, sent.length, sent.breadth, sent.height], [0.6, 20, 12, 13])
  assert.deepEqual([parcel.weightGrams, parcel.dimensionsCm], [600, { length: 20, breadth: 12, height: 13 }])
  assert.equal(sent.invoice_number, invoice.number)
  assert.deepEqual((sent.order_items as { tax: number }[]).map((i) => i.tax), [18, 18])
  assert.equal(typeof sent.billing_email, 'string')
  assert.notEqual(sent.billing_email, '')

  assert.deepEqual(
    standIn.requests.map((r) => r.path).filter((p) => !p.includes('/auth/')),
    ['/v1/external/orders/create/adhoc', '/v1/external/courier/assign/awb', '/v1/external/courier/generate/label', '/v1/external/courier/generate/pickup'],
    'the pickup is asked for after the AWB and the label',
  )
  assert.deepEqual(standIn.sent('POST', '/v1/external/courier/generate/pickup')[0]!.body, { shipment_id: [Number(standIn.sent('POST', '/v1/external/courier/assign/awb')[0]!.body!.shipment_id)] })
  assert.equal(parcel.pickup.scheduledAt, '2026-11-27T08:30:00.000Z', "Shiprocket's 2026-11-27 14:00:00 in India")
  assert.match(parcel.pickup.reference, /^Reference No: \d+$/)
})

test('a pickup Shiprocket does not accept leaves the parcel booked: the retry answers 503 while it is down, and the sweep asks again once it is back', async () => {
  const customer = await givenCustomer(t.app, shop.partner)
  const order = (await placeOrder(t, customer, { items: [{ productId: shop.ids['earbuds']!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
  standIn.override = (request) => (request.path === '/v1/external/courier/generate/pickup' ? { status: 500, body: { message: 'Server Error', status_code: 500 } } : null)
  const booked = await admin('POST', `/orders/${order.id}/shipments`, { weightGrams: 250 })
  assert.equal(booked.statusCode, 201, booked.body)
  const parcel = booked.json().data
  assert.equal(parcel.pickup, null)
  const retried = await admin('POST', `/shipments/${parcel.id}/pickup`)
  assert.equal(retried.statusCode, 503)
  assert.equal(retried.json().message, `The carrier shiprocket could not schedule the pickup of shipment ${parcel.awb}; try again`)
  assert.equal(await t.app.shipping.retryPickups(), 0, 'still down, and booked less than a minute ago: not yet due')

  standIn.override = null
  clock.advance(2 * 60_000)
  assert.equal(await t.app.shipping.retryPickups(), 1)
  assert.equal(await t.app.shipping.retryPickups(), 0, 'accepted once: not asked again')
  const seen = (await admin('GET', `/shipments/${parcel.id}`)).json().data
  assert.equal(seen.pickup.scheduledAt, '2026-11-27T08:30:00.000Z')
  assert.equal((await admin('POST', `/shipments/${parcel.id}/pickup`)).statusCode, 409)
})

test("rates across carriers: the quote lists Shiprocket's couriers beside the sandbox's; CHEAPEST with Shiprocket named books its cheapest courier by id, and without a carrier the cheapest of all", async () => {
  const customer = await givenCustomer(t.app, shop.partner)
  const order = (await placeOrder(t, customer, { items: [{ productId: shop.ids['earbuds']!, quantity: 2 }], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
  const quoted = (await admin('POST', `/orders/${order.id}/shipping-rates`, {})).json().data
  assert.deepEqual(
    quoted.rates.map((r: { carrier: string; courierName: string; charge: string }) => `${r.carrier} ${r.courierName} ${r.charge}`),
    // COD: Shiprocket adds its ₹35, the sandbox its own ₹35. 400 g is one slab.
    ['sandbox Sandbox Surface 88.00', 'shiprocket Xpressbees Surface 114.00', 'sandbox Sandbox Express 115.00', 'shiprocket Delhivery Surface 122.50', 'shiprocket Blue Dart Air 197.30'],
  )
  standIn.requests.length = 0
  const viaShiprocket = await admin('POST', `/orders/${order.id}/shipments`, { carrier: 'shiprocket', courierRule: 'CHEAPEST', items: [{ orderItemId: order.items[0].id, quantity: 2 }] })
  assert.equal(viaShiprocket.statusCode, 201, viaShiprocket.body)
  assert.equal(standIn.sent('POST', '/v1/external/courier/assign/awb')[0]!.body!.courier_id, 24)
  assert.equal(viaShiprocket.json().data.courierName, 'Xpressbees Surface')
  assert.equal((await admin('POST', `/shipments/${viaShiprocket.json().data.id}/cancel`)).statusCode, 200)

  const anyCarrier = await admin('POST', `/orders/${order.id}/shipments`, { courierRule: 'CHEAPEST' })
  assert.equal(anyCarrier.statusCode, 201, anyCarrier.body)
  assert.deepEqual([anyCarrier.json().data.carrier, anyCarrier.json().data.courierName], ['sandbox', 'Sandbox Surface'])
})

test('rates while Shiprocket is down: the quote leaves it out and says so; CHEAPEST with it named is 503 and books nothing', async () => {
  const customer = await givenCustomer(t.app, shop.partner)
  const order = (await placeOrder(t, customer, { items: [{ productId: shop.ids['earbuds']!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
  standIn.override = (request) => (request.path.startsWith('/v1/external/courier/serviceability') ? { status: 502, body: 'Bad gateway' } : null)
  const quoted = (await admin('POST', `/orders/${order.id}/shipping-rates`, {})).json().data
  assert.deepEqual([quoted.rates.map((r: { carrier: string }) => r.carrier), quoted.unavailableCarriers], [['sandbox', 'sandbox'], ['shiprocket']])
  const refused = await admin('POST', `/orders/${order.id}/shipments`, { carrier: 'shiprocket', courierRule: 'CHEAPEST' })
  assert.equal(refused.statusCode, 503)
  assert.equal(refused.json().message, 'The carrier shiprocket could not give its rates; try again')
  standIn.override = null
  assert.equal((await t.deps.database.db.query.shipments.findMany({ where: (s, { eq }) => eq(s.orderId, order.id) })).length, 0)
})
