// The service configured with Shiprocket (SHIPROCKET_*), against the local stand-in of its API: the
// back office books a parcel through the adapter (COD amount, AWB, label), Shiprocket's tracking
// webhook with its shared token moves the parcel and the order, a wrong token is 401, and a
// Shiprocket outage while booking answers 503 and records nothing.
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
