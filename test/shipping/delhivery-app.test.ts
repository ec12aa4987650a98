// The service configured with Delhivery (DELHIVERY_*), against the local stand-in of its API: the
// back office books a COD parcel through the adapter (the cash to collect, the waybill, the packing
// slip) and its pickup is asked for, Delhivery's tracking push with our token moves the parcel and
// the order to delivery, a wrong token is 401, and a Delhivery outage while booking answers 503 and
// records nothing.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { createDelhiveryStandIn, delhiveryWebhook, type DelhiveryStandIn } from '../helpers/delhivery-standin.ts'
import { customerHeaders, givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'

const API_TOKEN = 'delhivery-api-token-for-tests'
const TOKEN = 'delhivery-webhook-token-for-tests'
// 10:00 in India: the pickup is asked for this afternoon.
const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop
let support: string
let standIn: DelhiveryStandIn

before(async () => {
  standIn = createDelhiveryStandIn({ token: API_TOKEN })
  await standIn.listen()
  t = await createTestApp({
    clock,
    env: {
      DELHIVERY_API_TOKEN: API_TOKEN,
      DELHIVERY_PICKUP_LOCATION: 'Bengaluru WH',
      DELHIVERY_PICKUP_PINCODE: '560099',
      DELHIVERY_WEBHOOK_TOKEN: TOKEN,
      DELHIVERY_API_BASE: standIn.apiBase,
      DELHIVERY_TIMEOUT_MS: '500',
    },
  })
  shop = await givenShop(t)
  support = await givenAdminToken(t.app, t.deps, 'support@delhivery.test', 'SUPPORT')
})
after(async () => {
  await t?.close()
  await standIn?.close()
})

const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${support}` }, ...(payload ? { payload } : {}) })
const push = (awb: string, type: string, status: string, at: string, token = TOKEN, more: { code?: string; instructions?: string } = {}) => {
  const { rawBody, headers } = delhiveryWebhook(awb, type, status, { token, at, ...more })
  return t.app.inject({ method: 'POST', url: '/api/v1/shipping/webhooks/delhivery', headers: headers as Record<string, string>, payload: rawBody })
}

test('a COD order shipped with Delhivery: manifested through its API, its pickup asked for, tracked by its pushes to delivery', async () => {
  const customer = await givenCustomer(t.app, shop.partner)
  const order = (await placeOrder(t, customer, { items: [{ productId: shop.ids['atta']!, quantity: 2 }], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
  const booked = await admin('POST', `/orders/${order.id}/shipments`, { weightGrams: 10_250 })
  assert.equal(booked.statusCode, 201, booked.body)
  const parcel = booked.json().data
  assert.equal(parcel.carrier, 'delhivery', 'Delhivery is the default once configured (without Shiprocket)')
  assert.equal(parcel.awb, standIn.waybills[0])
  assert.equal(parcel.courierName, 'Delhivery Surface')
  assert.equal(parcel.trackingUrl, `https://www.delhivery.com/track/package/${parcel.awb}`)
  assert.ok(parcel.labelUrl, "Delhivery's packing slip")

  const [created] = standIn.sent('POST', '/api/cmu/create.json')
  const [shipment] = created!.body!.shipments as Record<string, unknown>[]
  assert.equal(shipment!.payment_mode, 'COD')
  assert.equal(Math.round(Number(shipment!.cod_amount) * 100), Math.round(Number(order.amountPayable) * 100), 'the courier collects exactly the cash due')
  assert.deepEqual([shipment!.weight, shipment!.pin, created!.body!.pickup_location], [10_250, ADDRESS.pincode, { name: 'Bengaluru WH' }])

  assert.deepEqual(standIn.sent('POST', '/fm/request/new/')[0]!.body, { pickup_time: '16:00:00', pickup_date: '2026-11-23', pickup_location: 'Bengaluru WH', expected_package_count: 1 })
  assert.equal(parcel.pickup.scheduledAt, '2026-11-23T10:30:00.000Z', '16:00 in India')
  assert.match(parcel.pickup.reference, /^\d+$/)

  assert.equal((await push(parcel.awb, 'UD', 'In Transit', '2026-11-23T18:00:00')).json().data.applied, 1)
  assert.equal((await push(parcel.awb, 'UD', 'Dispatched', '2026-11-24T09:00:00')).json().data.applied, 1)
  assert.equal((await push(parcel.awb, 'UD', 'In Transit', '2026-11-23T20:00:00')).json().data.applied, 0, 'an older scan arriving late changes nothing')
  assert.equal((await push(parcel.awb, 'UD', 'Manifested', '2026-11-23T10:00:00')).statusCode, 200, 'a status with none of ours is taken, and ignored')
  assert.equal((await push(parcel.awb, 'DL', 'Delivered', '2026-11-24T13:00:00')).json().data.applied, 1)
  const seen = (await t.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: customerHeaders(customer) })).json().data
  assert.equal(seen.status, 'DELIVERED')
  assert.equal(seen.paymentStatus, 'PAID')
  assert.equal(seen.shipments[0].events.length, 4)
})

test("Delhivery's token is checked: a wrong or missing one is 401 and moves nothing", async () => {
  const forged = await push('14908120000001', 'DL', 'Delivered', '2026-11-24T13:00:00', 'not-the-token')
  assert.equal(forged.statusCode, 401)
  assert.equal(forged.json().message, 'Invalid webhook signature')
  const { rawBody } = delhiveryWebhook('14908120000001', 'DL', 'Delivered', { token: null })
  const missing = await t.app.inject({ method: 'POST', url: '/api/v1/shipping/webhooks/delhivery', headers: { 'content-type': 'application/json' }, payload: rawBody })
  assert.equal(missing.statusCode, 401)
})

test('a Delhivery outage while booking answers 503 and records no shipment; a timeout too', async () => {
  const customer = await givenCustomer(t.app, shop.partner)
  const order = (await placeOrder(t, customer, { items: [{ productId: shop.ids['earbuds']!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
  for (const reply of [{ status: 502, body: 'Bad gateway' }, 'hang'] as const) {
    standIn.override = (request) => (request.path.startsWith('/api/cmu/create.json') ? reply : null)
    const res = await admin('POST', `/orders/${order.id}/shipments`, { weightGrams: 200, carrier: 'delhivery' })
    assert.equal(res.statusCode, 503, res.body)
    assert.equal(res.json().message, 'The carrier delhivery could not book the shipment; try again')
  }
  standIn.override = null
  const rows = await t.deps.database.db.query.shipments.findMany({ where: (s, { eq }) => eq(s.orderId, order.id) })
  assert.equal(rows.length, 0)
  const seen = (await t.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: customerHeaders(customer) })).json().data
  assert.equal(seen.status, 'CONFIRMED')
})

test("rates: the quote lists Delhivery's Surface and Express beside the sandbox's; CHEAPEST with Delhivery named books Surface", async () => {
  const customer = await givenCustomer(t.app, shop.partner)
  const order = (await placeOrder(t, customer, { items: [{ productId: shop.ids['earbuds']!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
  const quoted = (await admin('POST', `/orders/${order.id}/shipping-rates`, {})).json().data
  const delhivery = quoted.rates.filter((r: { carrier: string }) => r.carrier === 'delhivery').map((r: { courierId: string; courierName: string }) => `${r.courierId} ${r.courierName}`)
  assert.deepEqual(delhivery, ['S Delhivery Surface', 'E Delhivery Express'])
  standIn.requests.length = 0
  const booked = await admin('POST', `/orders/${order.id}/shipments`, { carrier: 'delhivery', courierRule: 'CHEAPEST' })
  assert.equal(booked.statusCode, 201, booked.body)
  assert.equal((standIn.sent('POST', '/api/cmu/create.json')[0]!.body!.shipments as Record<string, unknown>[])[0]!.shipping_mode, 'Surface')
})

/** A COD order of one earbuds booked with Delhivery. */
async function bookedParcel() {
  const customer = await givenCustomer(t.app, shop.partner)
  const order = (await placeOrder(t, customer, { items: [{ productId: shop.ids['earbuds']!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
  const booked = await admin('POST', `/orders/${order.id}/shipments`, { weightGrams: 200, carrier: 'delhivery' })
  assert.equal(booked.statusCode, 201, booked.body)
  return { customer, order, parcel: booked.json().data }
}
const orderOf = async (customer: Awaited<ReturnType<typeof bookedParcel>>['customer'], orderId: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}`, headers: customerHeaders(customer) })).json().data

test("a failed attempt the customer refused (an end-of-day code) is DELIVERY_FAILED and counted refused; a re-attempt goes to Delhivery's NDR API and the parcel is then delivered; a return by API is 409 naming the panel", async () => {
  const { customer, order, parcel } = await bookedParcel()
  await push(parcel.awb, 'UD', 'In Transit', '2026-11-23T18:00:00')
  const failed = await push(parcel.awb, 'UD', 'Pending', '2026-11-24T18:00:00', TOKEN, { code: 'EOD-6', instructions: 'Consignee refused to accept' })
  assert.equal(failed.json().data.applied, 1, failed.body)
  let seen = await orderOf(customer, order.id)
  assert.equal(seen.status, 'DELIVERY_FAILED')
  assert.deepEqual([seen.shipments[0].events.at(-1).status, seen.shipments[0].events.at(-1).refused], ['DELIVERY_FAILED', true])

  const rto = await admin('POST', `/shipments/${parcel.id}/ndr`, { action: 'RTO' })
  assert.equal(rto.statusCode, 409, rto.body)
  assert.match(rto.json().message, /Delhivery One panel/)
  const reattempt = await admin('POST', `/shipments/${parcel.id}/ndr`, { action: 'REATTEMPT', phone: '9123456789' })
  assert.equal(reattempt.statusCode, 200, reattempt.body)
  const [sent] = standIn.sent('POST', '/api/p/update').slice(-1)
  assert.equal(((sent!.body!.data as Record<string, unknown>[])[0]!).waybill, parcel.awb)
  assert.deepEqual(reattempt.json().data.ndrActions.map((a: { action: string }) => a.action), ['REATTEMPT'], 'the refused return by API was not kept')

  await push(parcel.awb, 'UD', 'Dispatched', '2026-11-25T09:00:00')
  await push(parcel.awb, 'DL', 'Delivered', '2026-11-25T13:00:00')
  seen = await orderOf(customer, order.id)
  assert.deepEqual([seen.status, seen.paymentStatus], ['DELIVERED', 'PAID'])
})

test('a parcel Delhivery reports lost is LOST, and the back office refunds it once', async () => {
  const { customer, order, parcel } = await bookedParcel()
  await push(parcel.awb, 'UD', 'In Transit', '2026-11-23T18:00:00')
  assert.equal((await push(parcel.awb, 'LT', 'LOST', '2026-11-26T10:00:00')).json().data.applied, 1)
  assert.equal((await admin('GET', `/shipments/${parcel.id}`)).json().data.status, 'LOST')
  assert.equal((await admin('POST', `/shipments/${parcel.id}/resolve`, { action: 'REFUND' })).statusCode, 200)
  assert.equal((await admin('POST', `/shipments/${parcel.id}/resolve`, { action: 'REFUND' })).statusCode, 409)
  const seen = await orderOf(customer, order.id)
  assert.equal(seen.status, 'CANCELLED', 'nothing of the COD order was delivered, nothing was collected')
})

test("an RTO recorded by hand, then Delhivery's return scans: each answered 200 and recorded, the parcel back, nothing settled twice", async () => {
  const { customer, order, parcel } = await bookedParcel()
  await push(parcel.awb, 'UD', 'In Transit', '2026-11-23T18:00:00')
  assert.equal((await admin('POST', `/orders/${order.id}/status`, { status: 'RTO', note: 'Courier says it is coming back' })).statusCode, 200)
  const stock = (await t.deps.database.db.query.products.findFirst({ where: (p, { eq }) => eq(p.id, shop.ids['earbuds']!) }))!.stock
  for (const [type, status, at] of [['RT', 'In Transit', '2026-11-24T10:00:00'], ['DL', 'RTO', '2026-11-26T10:00:00']] as const) {
    const res = await push(parcel.awb, type, status, at)
    assert.equal(res.statusCode, 200, res.body)
  }
  assert.equal((await admin('GET', `/shipments/${parcel.id}`)).json().data.status, 'RTO_DELIVERED')
  assert.equal((await orderOf(customer, order.id)).status, 'RTO')
  assert.equal((await t.deps.database.db.query.products.findFirst({ where: (p, { eq }) => eq(p.id, shop.ids['earbuds']!) }))!.stock, stock, 'the stock came back once, with the RTO by hand')
})

test('a pickup Delhivery does not accept leaves the parcel booked: the retry answers 503 while it is down, and the sweep asks again once it is back', async () => {
  const customer = await givenCustomer(t.app, shop.partner)
  const order = (await placeOrder(t, customer, { items: [{ productId: shop.ids['earbuds']!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
  standIn.override = (request) => (request.path.startsWith('/fm/request/new') ? { status: 500, body: { error: 'Internal Server Error' } } : null)
  const booked = await admin('POST', `/orders/${order.id}/shipments`, { weightGrams: 250, carrier: 'delhivery' })
  assert.equal(booked.statusCode, 201, booked.body)
  const parcel = booked.json().data
  assert.equal(parcel.pickup, null)
  const retried = await admin('POST', `/shipments/${parcel.id}/pickup`)
  assert.equal(retried.statusCode, 503)
  assert.equal(retried.json().message, `The carrier delhivery could not schedule the pickup of shipment ${parcel.awb}; try again`)
  standIn.override = null
  clock.advance(2 * 60_000)
  assert.ok((await t.app.shipping.retryPickups()) >= 1)
  const seen = (await admin('GET', `/shipments/${parcel.id}`)).json().data
  assert.ok(seen.pickup, 'accepted once Delhivery is back')
  assert.equal((await admin('POST', `/shipments/${parcel.id}/pickup`)).statusCode, 409)
})

test('a return picked up by Delhivery from the customer: booked as a Pickup shipment to the warehouse, then scanned to its delivery there', async () => {
  const { customer, order, parcel } = await bookedParcel()
  await push(parcel.awb, 'UD', 'In Transit', '2026-11-23T18:00:00')
  await push(parcel.awb, 'DL', 'Delivered', '2026-11-24T13:00:00')
  const line = (await orderOf(customer, order.id)).items[0].id
  const ret = await t.app.inject({ method: 'POST', url: '/api/v1/returns', headers: customerHeaders(customer), payload: { orderId: order.id, reason: 'Damaged', detail: 'Torn box', requestedResolution: 'WALLET_CREDIT', items: [{ orderItemId: line, quantity: 1, reason: 'Torn' }] } })
  assert.equal(ret.statusCode, 201, ret.body)
  const returnId = ret.json().data.id
  for (const status of ['UNDER_REVIEW', 'APPROVED']) assert.equal((await admin('POST', `/returns/${returnId}/status`, { status })).statusCode, 200)
  standIn.requests.length = 0
  const pickup = await admin('POST', `/returns/${returnId}/pickup`, { carrier: 'delhivery', weightGrams: 300 })
  assert.equal(pickup.statusCode, 200, pickup.body)
  const [created] = standIn.sent('POST', '/api/cmu/create.json')
  const [shipment] = created!.body!.shipments as Record<string, unknown>[]
  assert.equal(shipment!.payment_mode, 'Pickup', 'a reverse pickup, nothing to collect')
  assert.equal(shipment!.pin, ADDRESS.pincode, 'collected at the customer')
  const awb = pickup.json().data.pickup.awb
  await push(awb, 'PU', 'In Transit', '2026-11-25T12:00:00')
  await push(awb, 'DL', 'DTO', '2026-11-26T12:00:00')
  assert.equal((await admin('GET', `/returns/${returnId}`)).json().data.pickup.status, 'DELIVERED', 'back at the warehouse')
})
