// Shipments with the sandbox carrier, end to end over HTTP (decision 0024): booking parcels for some or
// all of an order's units, carrier tracking driving the order (SHIPPED … DELIVERED, DELIVERY_FAILED,
// RTO with stock back and refunds once), duplicate and out-of-order callbacks, forged signatures, the
// label and the pick list, and what bad input answers.
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { sql } from 'drizzle-orm'
import { ManualClock } from '../../src/lib/clock.ts'
import { ledgerBalances } from '../../src/modules/ledgers/ledger.ts'
import { createSandboxCarrier, type SandboxTrackingBody } from '../../src/modules/shipping/carriers/sandbox.ts'
import type { TrackingStatus } from '../../src/modules/shipping/carriers/types.ts'
import { createTestApp, TEST_AUTH_SECRET, type TestApp } from '../helpers/app.ts'
import { customerHeaders, givenAdminToken, givenCustomer, givenPartner } from '../helpers/factories.ts'
import { pdfPageTexts, pdfText } from '../helpers/pdf.ts'
import { ADDRESS, credit, givenShop, placeOrder, sandboxAction, type Shop, stockOf } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop
let support: string
// A carrier holding the same key as the service's sandbox: signs callbacks with chosen times.
const carrier = createSandboxCarrier({ secret: createHmac('sha256', TEST_AUTH_SECRET).update('sandbox-carrier').digest('hex'), publicBaseUrl: 'http://localhost:3000' })

before(async () => {
  // Dozens of customers sign in within a minute here: the sign-in limit (tested in test/http) would refuse them.
  t = await createTestApp({ clock, env: { RATE_LIMIT_AUTH_MAX: '1000' } })
  shop = await givenShop(t)
  support = await givenAdminToken(t.app, t.deps, 'support@shipping.test', 'SUPPORT')
})
after(() => t.close())

const item = (slug: string, quantity = 1) => ({ productId: shop.ids[slug]!, quantity })
const admin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${support}` }, ...(payload ? { payload } : {}) })
const ship = (orderId: string, body: object) => admin('POST', `/orders/${orderId}/shipments`, body)
const lineOf = (order: { items: { id: string; productId: string }[] }, slug: string) => order.items.find((i) => i.productId === shop.ids[slug])!.id

/** A prepaid order, paid through the sandbox checkout. */
async function paidOrder(items: { productId: string; quantity: number }[]) {
  const customer = await givenCustomer(t.app, shop.partner)
  const placed = (await placeOrder(t, customer, { items, shippingAddress: ADDRESS })).json().data
  assert.equal((await sandboxAction(t, placed.paymentClientAction, 'pay')).statusCode, 200)
  return { customer, order: placed }
}

async function codOrder(items: { productId: string; quantity: number }[], extra: object = {}) {
  const customer = await givenCustomer(t.app, shop.partner)
  const res = await placeOrder(t, customer, { items, shippingAddress: ADDRESS, paymentMode: 'COD', ...extra })
  assert.equal(res.statusCode, 201, res.body)
  return { customer, order: res.json().data }
}

/** A signed sandbox callback for the AWB, `minutes` after a fixed start (so tests choose the order). */
let seq = 0
function callback(awb: string, status: TrackingStatus, minutes = ++seq, body: Partial<SandboxTrackingBody> = {}) {
  const event = { ...carrier.eventFor(awb, status, new Date(Date.parse('2026-11-23T06:00:00Z') + minutes * 60_000)), ...body }
  const signed = carrier.signedEvent(event)
  return { event, send: () => t.app.inject({ method: 'POST', url: '/api/v1/shipping/webhooks/sandbox', headers: signed.headers as Record<string, string>, payload: signed.rawBody }) }
}
async function track(awb: string, ...statuses: TrackingStatus[]) {
  for (const status of statuses) {
    const res = await callback(awb, status).send()
    assert.equal(res.statusCode, 200, res.body)
  }
}
const customerOrder = async (customer: Awaited<ReturnType<typeof codOrder>>['customer'], orderId: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}`, headers: customerHeaders(customer) })).json().data
const events = (orderId: string, type: string) =>
  t.deps.database.db.query.outboxEvents.findMany({ where: (e, { and, eq }) => and(eq(e.subjectId, orderId), eq(e.type, type)), orderBy: (e, { asc }) => [asc(e.createdAt)] })

describe('shipments', () => {
  test('a 3-line order ships in two parcels; the order is delivered when the last parcel is', async () => {
    const { customer, order } = await paidOrder([item('atta', 2), item('earbuds'), item('hot')])
    const first = await ship(order.id, { weightGrams: 10_400, items: [{ orderItemId: lineOf(order, 'atta'), quantity: 2 }, { orderItemId: lineOf(order, 'earbuds'), quantity: 1 }] })
    assert.equal(first.statusCode, 201, first.body)
    const parcel1 = first.json().data
    assert.equal(parcel1.carrier, 'sandbox')
    assert.match(parcel1.awb, /^SBX\d{13}$/)
    assert.equal(parcel1.trackingUrl, `http://localhost:3000/api/v1/sandbox/shipments/${parcel1.awb}`)
    assert.equal(parcel1.expectedDeliveryDate, '2026-11-26', 'three days after booking, in India')
    assert.equal(parcel1.status, 'CREATED')
    assert.equal(parcel1.orderId, order.id)
    assert.deepEqual(parcel1.items.map((i: { quantity: number }) => i.quantity).sort(), [1, 2])
    let seen = await customerOrder(customer, order.id)
    assert.equal(seen.status, 'PACKED', 'the first parcel packs a CONFIRMED order')

    const rest = await ship(order.id, { weightGrams: 300 })
    assert.equal(rest.statusCode, 201, rest.body)
    const parcel2 = rest.json().data
    assert.deepEqual(parcel2.items, [{ orderItemId: lineOf(order, 'hot'), quantity: 1 }], 'without items: every unit not yet shipped')
    const none = await ship(order.id, { weightGrams: 300 })
    assert.equal(none.statusCode, 409)
    assert.equal(none.json().message, `Every unit of order ${order.orderNumber} is already in a shipment`)

    await track(parcel1.awb, 'IN_TRANSIT')
    assert.equal((await customerOrder(customer, order.id)).status, 'SHIPPED')
    await track(parcel1.awb, 'OUT_FOR_DELIVERY')
    assert.equal((await customerOrder(customer, order.id)).status, 'OUT_FOR_DELIVERY')
    await track(parcel1.awb, 'DELIVERED')
    await track(parcel2.awb, 'IN_TRANSIT')
    seen = await customerOrder(customer, order.id)
    assert.equal(seen.status, 'OUT_FOR_DELIVERY', 'one parcel delivered, one in transit: not delivered yet, and never back to SHIPPED')
    await track(parcel2.awb, 'OUT_FOR_DELIVERY', 'DELIVERED')
    seen = await customerOrder(customer, order.id)
    assert.equal(seen.status, 'DELIVERED')
    assert.equal(seen.paymentStatus, 'PAID')
    assert.deepEqual(seen.statusHistory.map((h: { status: string }) => h.status), ['PENDING_PAYMENT', 'CONFIRMED', 'PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED'])
    assert.equal(seen.statusHistory.at(-1).actor, 'CARRIER')
    assert.equal(seen.shipments.length, 2)
    const shown = seen.shipments.find((s: { awb: string }) => s.awb === parcel2.awb)
    assert.equal(shown.status, 'DELIVERED')
    assert.deepEqual(shown.events.map((e: { status: string }) => e.status), ['IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERED'])
    assert.equal((await events(order.id, 'shipment.created')).length, 2)
    const updates = await events(order.id, 'shipment.updated')
    assert.equal(updates.length, 6)
    assert.equal((updates.at(-1)!.data as { shipment: { status: string } }).shipment.status, 'DELIVERED')
  })

  test('a carrier that skips scans still walks the order through every status; a failed attempt, then another, then delivery', async () => {
    const { customer, order } = await codOrder([item('atta')])
    const parcel = (await ship(order.id, { weightGrams: 5000 })).json().data
    await track(parcel.awb, 'OUT_FOR_DELIVERY')
    let seen = await customerOrder(customer, order.id)
    assert.deepEqual(seen.statusHistory.map((h: { status: string }) => h.status), ['CONFIRMED', 'PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY'])
    await track(parcel.awb, 'DELIVERY_FAILED')
    assert.equal((await customerOrder(customer, order.id)).status, 'DELIVERY_FAILED')
    await track(parcel.awb, 'OUT_FOR_DELIVERY')
    assert.equal((await customerOrder(customer, order.id)).status, 'OUT_FOR_DELIVERY', 'another attempt')
    await track(parcel.awb, 'DELIVERY_FAILED', 'DELIVERED')
    seen = await customerOrder(customer, order.id)
    assert.equal(seen.status, 'DELIVERED')
    assert.equal(seen.paymentStatus, 'PAID')
    assert.deepEqual(seen.statusHistory.map((h: { status: string }) => h.status).slice(-4), ['DELIVERY_FAILED', 'OUT_FOR_DELIVERY', 'DELIVERY_FAILED', 'DELIVERED'])
  })

  test('units cancelled before shipping earn no Reward Points on delivery', async () => {
    const { customer, order } = await codOrder([item('earbuds', 2)])
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${order.id}/cancel-items`,
      headers: customerHeaders(customer),
      payload: { items: [{ orderItemId: lineOf(order, 'earbuds'), quantity: 1 }], reason: 'One is enough' },
    })
    assert.equal(cancelled.statusCode, 200, cancelled.body)
    const parcel = (await ship(order.id, { weightGrams: 200 })).json().data
    assert.deepEqual(parcel.items, [{ orderItemId: lineOf(order, 'earbuds'), quantity: 1 }], 'only what is left ships')
    await track(parcel.awb, 'DELIVERED')
    const seen = await customerOrder(customer, order.id)
    assert.equal(seen.status, 'DELIVERED')
    assert.equal(seen.rewardPointsEarned, 10, '1% of the ₹1,000 delivered, at ₹1 a point; not of the ₹2,000 ordered')
    assert.equal((await ledgerBalances(t.deps.database.db, customer.userId)).rewardPoints, 10n)
  })

  test('a duplicate callback is applied once and an older event arriving late changes nothing', async () => {
    const { customer, order } = await codOrder([item('earbuds')])
    const parcel = (await ship(order.id, { weightGrams: 200 })).json().data
    const outForDelivery = callback(parcel.awb, 'OUT_FOR_DELIVERY', 500)
    assert.deepEqual((await outForDelivery.send()).json().data, { received: 1, applied: 1, duplicates: 0, unknown: 0 })
    assert.deepEqual((await outForDelivery.send()).json().data, { received: 1, applied: 0, duplicates: 1, unknown: 0 }, 'the same event again')
    const late = await callback(parcel.awb, 'IN_TRANSIT', 400).send()
    assert.deepEqual(late.json().data, { received: 1, applied: 0, duplicates: 0, unknown: 0 })
    const seen = await customerOrder(customer, order.id)
    assert.equal(seen.status, 'OUT_FOR_DELIVERY')
    assert.equal(seen.shipments[0].status, 'OUT_FOR_DELIVERY')
    assert.deepEqual(
      seen.shipments[0].events.map((e: { status: string; applied: boolean }) => [e.status, e.applied]),
      [['IN_TRANSIT', false], ['OUT_FOR_DELIVERY', true]],
      'kept in the history, in the order they happened',
    )
    assert.equal((await callback(parcel.awb, 'DELIVERED', 600).send()).json().data.applied, 1)
    const afterEnd = await callback(parcel.awb, 'DELIVERY_FAILED', 700).send()
    assert.equal(afterEnd.json().data.applied, 0, 'a delivered parcel stays delivered')
    assert.equal((await customerOrder(customer, order.id)).status, 'DELIVERED')
    const stranger = callback('SBX0000000000000', 'DELIVERED')
    const unknown = await stranger.send()
    assert.equal(unknown.statusCode, 200, 'a well-signed callback is never refused')
    assert.deepEqual(unknown.json().data, { received: 1, applied: 0, duplicates: 0, unknown: 1 })
    assert.equal(unknown.json().message, 'Tracking received; scans of AWBs this service did not book were kept, not applied (SBX0000000000000)')
    assert.equal((await stranger.send()).statusCode, 200, 'the carrier retrying it')
    const kept = (await admin('GET', '/fulfilment/carrier-callbacks?carrier=sandbox')).json().data.filter((c: { unknownAwbs: string[] }) => c.unknownAwbs.includes('SBX0000000000000'))
    assert.equal(kept.length, 1, 'kept once, however often the carrier sends it')
    assert.deepEqual([kept[0].problem, kept[0].detail, JSON.parse(kept[0].body).awb], ['UNKNOWN_AWB', '1 of 1 scans name AWBs this service did not book', 'SBX0000000000000'])
    // Kept 90 days (the server's timer purges them): one received long before goes, this one stays.
    await t.deps.database.db.execute(sql`insert into carrier_callbacks values ('ccb_old', 'sandbox', 'old', '{}', 'UNREADABLE', 'old', '{}', '2020-01-01T00:00:00Z')`)
    assert.ok((await t.app.shipping.purgeKeptCallbacks()) >= 1)
    const left = (await admin('GET', '/fulfilment/carrier-callbacks?carrier=sandbox&limit=100')).json().data.map((c: { id: string }) => c.id)
    assert.equal(left.includes('ccb_old'), false)
    assert.equal(left.includes(kept[0].id), true)
  })

  test('a forged, stale or missing signature is 401; an unknown carrier 404; a signed body that is no event is 200, kept for the back office and applied to nothing', async () => {
    const { order } = await codOrder([item('earbuds')])
    const parcel = (await ship(order.id, { weightGrams: 200 })).json().data
    const signed = carrier.signedEvent(carrier.eventFor(parcel.awb, 'DELIVERED'))
    const send = (headers: Record<string, string>, payload: Buffer | string = signed.rawBody, name = 'sandbox') =>
      t.app.inject({ method: 'POST', url: `/api/v1/shipping/webhooks/${name}`, headers: { 'content-type': 'application/json', ...headers }, payload })
    const header = String(signed.headers['x-sandbox-carrier-signature'])
    const forged = createSandboxCarrier({ secret: 'not-the-key', publicBaseUrl: '' }).signedEvent(carrier.eventFor(parcel.awb, 'DELIVERED'))
    const stale = header.replace(/^t=(\d+)/, (_, s: string) => `t=${Number(s) - 600}`)
    for (const [why, res] of [
      ['forged', await send({ 'x-sandbox-carrier-signature': String(forged.headers['x-sandbox-carrier-signature']) }, forged.rawBody)],
      ['missing', await send({})],
      ['stale', await send({ 'x-sandbox-carrier-signature': stale })],
      ['another body', await send({ 'x-sandbox-carrier-signature': header }, signed.rawBody.toString().replace('DELIVERED', 'RTO_DELIVERED'))],
    ] as const) {
      assert.equal(res.statusCode, 401, why)
      assert.equal(res.json().message, 'Invalid webhook signature')
    }
    assert.equal((await send({ 'x-sandbox-carrier-signature': header }, signed.rawBody, 'fedex')).statusCode, 404)
    const notAnEvent = carrier.signedEvent({ id: 'x' } as SandboxTrackingBody)
    const bad = await send(notAnEvent.headers as Record<string, string>, notAnEvent.rawBody)
    assert.equal(bad.statusCode, 200, bad.body)
    assert.equal(bad.json().message, 'Tracking kept, not applied: the body could not be read (A tracking event needs id, awb, status and occurredAt)')
    assert.deepEqual(bad.json().data, { received: 0, applied: 0, duplicates: 0, unknown: 0 })
    assert.equal((await admin('GET', `/shipments/${parcel.id}`)).json().data.status, 'CREATED', 'nothing applied')
    const kept = (await admin('GET', '/fulfilment/carrier-callbacks?carrier=sandbox&limit=100')).json().data.find((c: { body: string }) => c.body === notAnEvent.rawBody.toString())
    assert.deepEqual([kept.problem, kept.detail, kept.unknownAwbs], ['UNREADABLE', 'A tracking event needs id, awb, status and occurredAt', []])
    const unsigned = await send({ 'x-sandbox-carrier-signature': 'bad' }, 'not even JSON')
    assert.equal(unsigned.statusCode, 401)
    assert.equal((await admin('GET', '/fulfilment/carrier-callbacks?carrier=sandbox&limit=100')).json().data.some((c: { body: string }) => c.body === 'not even JSON'), false, 'an unsigned body is never kept')
  })
})

describe('returned to origin', () => {
  test('a refused COD parcel comes back: the order is RTO, stock and Wallet Cash come back once', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    await credit(t, clock, customer, 'WALLET_CASH', 10_000n)
    const before = await stockOf(t, shop.ids['hot']!)
    const order = (await placeOrder(t, customer, { items: [item('hot', 2)], shippingAddress: ADDRESS, paymentMode: 'COD', useWalletCash: true })).json().data
    assert.equal(order.walletCashUsed, '100.00')
    assert.equal(await stockOf(t, shop.ids['hot']!), before - 2)
    const parcel = (await ship(order.id, { weightGrams: 400 })).json().data
    await track(parcel.awb, 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERY_FAILED', 'RTO_INITIATED')
    assert.equal((await customerOrder(customer, order.id)).status, 'DELIVERY_FAILED')
    assert.equal(await stockOf(t, shop.ids['hot']!), before - 2, 'nothing comes back until the parcel is back')
    const back = callback(parcel.awb, 'RTO_DELIVERED')
    await back.send()
    await back.send()
    const seen = await customerOrder(customer, order.id)
    assert.equal(seen.status, 'RTO')
    assert.equal(seen.paymentStatus, 'COD_PENDING', 'nothing was collected, nothing is refunded')
    assert.equal(seen.refunds.length, 0)
    assert.equal(await stockOf(t, shop.ids['hot']!), before)
    assert.equal((await ledgerBalances(t.deps.database.db, customer.userId)).walletCash, 10_000n)
    const late = await callback(parcel.awb, 'DELIVERED').send()
    assert.equal(late.json().data.applied, 0)
    assert.equal(await stockOf(t, shop.ids['hot']!), before, 'once, whatever comes after')
  })

  test('a prepaid parcel returned to origin is refunded to the payment once', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const before = await stockOf(t, shop.ids['earbuds']!)
    const placed = (await placeOrder(t, customer, { items: [item('earbuds')], shippingAddress: ADDRESS })).json().data
    assert.equal((await sandboxAction(t, placed.paymentClientAction, 'pay')).statusCode, 200)
    const parcel = (await ship(placed.id, { weightGrams: 200 })).json().data
    await track(parcel.awb, 'IN_TRANSIT', 'RTO_INITIATED')
    const back = callback(parcel.awb, 'RTO_DELIVERED')
    await back.send()
    await back.send()
    const seen = await customerOrder(customer, placed.id)
    assert.equal(seen.status, 'RTO')
    assert.equal(seen.refunds.length, 1)
    assert.equal(seen.refunds[0].amount, placed.totalAmount)
    assert.equal(seen.refunds[0].method, 'ORIGINAL_PAYMENT')
    assert.equal(seen.refunds[0].status, 'SUCCEEDED')
    assert.equal(seen.paymentStatus, 'REFUNDED')
    assert.equal(await stockOf(t, shop.ids['earbuds']!), before)
  })

  test('one parcel of a paid order comes back: its units are refunded and restocked once; the unit not yet shipped keeps the order open until it is delivered', async () => {
    const { customer, order } = await paidOrder([item('atta', 2), item('earbuds')])
    const attaBefore = await stockOf(t, shop.ids['atta']!)
    const earbudsBefore = await stockOf(t, shop.ids['earbuds']!)
    const a = (await ship(order.id, { weightGrams: 5000, items: [{ orderItemId: lineOf(order, 'atta'), quantity: 1 }] })).json().data
    const b = (await ship(order.id, { weightGrams: 200, items: [{ orderItemId: lineOf(order, 'earbuds'), quantity: 1 }] })).json().data
    await track(a.awb, 'IN_TRANSIT')
    await track(b.awb, 'IN_TRANSIT')
    const back = callback(a.awb, 'RTO_DELIVERED')
    await back.send()
    await back.send()
    assert.equal(await stockOf(t, shop.ids['atta']!), attaBefore + 1)
    let seen = await customerOrder(customer, order.id)
    assert.equal(seen.items.find((i: { id: string }) => i.id === lineOf(order, 'atta')).cancelledQuantity, 1)
    assert.deepEqual(seen.refunds.map((r: { amount: string; method: string }) => [r.amount, r.method]), [['300.00', 'ORIGINAL_PAYMENT']], 'the returned unit is refunded to the card, once')
    assert.equal((await events(order.id, 'order.items_cancelled')).length, 1)
    await track(b.awb, 'OUT_FOR_DELIVERY', 'DELIVERED')
    seen = await customerOrder(customer, order.id)
    assert.equal(seen.status, 'OUT_FOR_DELIVERY', 'one atta is neither shipped nor cancelled: the order is not delivered')
    const last = await ship(order.id, { weightGrams: 5000 })
    assert.equal(last.statusCode, 201, 'the rest of a split order ships after the first parcels left')
    assert.deepEqual(last.json().data.items, [{ orderItemId: lineOf(order, 'atta'), quantity: 1 }])
    await track(last.json().data.awb, 'DELIVERED')
    seen = await customerOrder(customer, order.id)
    assert.equal(seen.status, 'DELIVERED')
    assert.equal(await stockOf(t, shop.ids['earbuds']!), earbudsBefore)
    assert.equal(await stockOf(t, shop.ids['atta']!), attaBefore + 1)
  })

  test('a carrier that reports the parcel back without its RTO_INITIATED scan still returns the order to origin', async () => {
    const { customer, order } = await codOrder([item('atta')])
    const before = await stockOf(t, shop.ids['atta']!)
    const parcel = (await ship(order.id, { weightGrams: 5000 })).json().data
    await track(parcel.awb, 'IN_TRANSIT', 'DELIVERY_FAILED', 'RTO_DELIVERED')
    assert.equal((await customerOrder(customer, order.id)).status, 'RTO')
    assert.equal(await stockOf(t, shop.ids['atta']!), before + 1)
  })

  test('the back office may record an RTO by hand: the same settlement', async () => {
    const { customer, order } = await codOrder([item('atta')])
    const before = await stockOf(t, shop.ids['atta']!)
    const parcel = (await ship(order.id, { weightGrams: 5000 })).json().data
    await track(parcel.awb, 'IN_TRANSIT')
    const res = await admin('POST', `/orders/${order.id}/status`, { status: 'RTO', note: 'Came back with the courier' })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().data.status, 'RTO')
    assert.equal(await stockOf(t, shop.ids['atta']!), before + 1)
    assert.equal((await admin('POST', `/orders/${order.id}/status`, { status: 'RTO' })).statusCode, 409)
    assert.equal((await customerOrder(customer, order.id)).status, 'RTO')
  })

  test("an RTO recorded by hand, then the carrier's RTO scans: each answered 200 and recorded, the parcel back, nothing settled twice", async () => {
    const { customer, order } = await codOrder([item('atta')])
    const before = await stockOf(t, shop.ids['atta']!)
    const parcel = (await ship(order.id, { weightGrams: 5000 })).json().data
    await track(parcel.awb, 'IN_TRANSIT', 'DELIVERY_FAILED')
    assert.equal((await admin('POST', `/orders/${order.id}/status`, { status: 'RTO', note: 'The courier says it is coming back' })).statusCode, 200)
    assert.equal(await stockOf(t, shop.ids['atta']!), before + 1)
    for (const status of ['RTO_INITIATED', 'RTO_DELIVERED'] as const) {
      const res = await callback(parcel.awb, status).send()
      assert.equal(res.statusCode, 200, `${status}: ${res.body}`)
    }
    const shipment = (await admin('GET', `/shipments/${parcel.id}`)).json().data
    assert.equal(shipment.status, 'RTO_DELIVERED', 'the parcel is back')
    const seen = await customerOrder(customer, order.id)
    assert.equal(seen.status, 'RTO')
    assert.equal(await stockOf(t, shop.ids['atta']!), before + 1, 'stock came back once')
    assert.equal((await events(order.id, 'order.status_changed')).filter((e) => (e.data as { status: string }).status === 'RTO').length, 1, 'one move to RTO')
  })

  test("a carrier's scan the order cannot follow (delivered by hand, then the parcel reported back) is answered 200 and recorded, not applied", async () => {
    const { customer, order } = await codOrder([item('atta')])
    const parcel = (await ship(order.id, { weightGrams: 5000 })).json().data
    await track(parcel.awb, 'IN_TRANSIT', 'OUT_FOR_DELIVERY')
    assert.equal((await admin('POST', `/orders/${order.id}/status`, { status: 'DELIVERED', note: 'Signed for at the door' })).statusCode, 200)
    await track(parcel.awb, 'RTO_INITIATED')
    const res = await callback(parcel.awb, 'RTO_DELIVERED').send()
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().data.applied, 0)
    assert.equal((await customerOrder(customer, order.id)).status, 'DELIVERED')
    const shipment = (await admin('GET', `/shipments/${parcel.id}`)).json().data
    const last = shipment.events.at(-1)
    assert.deepEqual([last.status, last.applied], ['RTO_DELIVERED', false], 'the scan is kept')
  })
})

describe('what a parcel is declared as (decision 0030)', () => {
  test("without weight or box, the parcel is declared from its products: weights added, the box by the packing rule; the carrier's pickup is asked for at once", async () => {
    const catalogAdmin = await givenAdminToken(t.app, t.deps, 'catalog@packing.test', 'ADMIN')
    const patch = (slug: string, body: object) => t.app.inject({ method: 'PATCH', url: `/api/v1/admin/products/${shop.ids[slug]}`, headers: { authorization: `Bearer ${catalogAdmin}` }, payload: body })
    const sized = await patch('atta', { dimensionsCm: { length: 40, breadth: 25, height: 10 } })
    assert.equal(sized.statusCode, 200, sized.body)
    assert.deepEqual(sized.json().data.dimensionsCm, { length: 40, breadth: 25, height: 10 })
    assert.equal((await patch('earbuds', { dimensionsCm: { length: 15, breadth: 10, height: 5 } })).statusCode, 200)
    const { order } = await paidOrder([item('atta', 2), item('earbuds'), item('hot')])
    const res = await ship(order.id, {})
    assert.equal(res.statusCode, 201, res.body)
    const parcel = res.json().data
    // 2 x 5000 g + 200 g + 200 g; 40 x 25 (the largest unit's face); volume 2 x 10000 + 750 + 1000 (hot has no size: a 10 cm cube) = 21750 cm3 over 1000 cm2: 22 cm.
    assert.equal(parcel.weightGrams, 10_400)
    assert.deepEqual(parcel.dimensionsCm, { length: 40, breadth: 25, height: 22 })
    assert.equal(parcel.ewayBillNo, null)
    // The sandbox's courier comes the next day in India at 10:00.
    assert.deepEqual({ ...parcel.pickup, reference: typeof parcel.pickup.reference }, { requestedAt: clock.now().toISOString(), scheduledAt: '2026-11-24T04:30:00.000Z', reference: 'string' })
    const again = await admin('POST', `/shipments/${parcel.id}/pickup`)
    assert.equal(again.statusCode, 409)
    assert.equal(again.json().message, `The pickup of shipment ${parcel.awb} was already accepted`)

    // Weighed and measured by the operator: what was given wins, each part on its own.
    const { order: other } = await paidOrder([item('atta')])
    const measured = (await ship(other.id, { dimensionsCm: { length: 45, breadth: 30, height: 12 } })).json().data
    assert.deepEqual([measured.weightGrams, measured.dimensionsCm], [5000, { length: 45, breadth: 30, height: 12 }])
    const null_ = await patch('atta', { dimensionsCm: null })
    assert.equal(null_.json().data.dimensionsCm, null)
    const partial = await patch('atta', { dimensionsCm: { length: 40 } })
    assert.equal(partial.statusCode, 400)
    assert.match(partial.json().message.join(' | '), /dimensionsCm/)
  })

  test('goods worth more than ₹50,000 with tax need an e-way bill number before they are booked: 400 naming ewayBillNo, nothing booked; with one, it is kept on the parcel', async () => {
    // 51 earbuds at ₹1,000: ₹51,000.
    const { order } = await paidOrder([item('earbuds', 51)])
    const refused = await ship(order.id, {})
    assert.equal(refused.statusCode, 400, refused.body)
    assert.deepEqual(refused.json().message, ["ewayBillNo: the consignment's value with tax, ₹51000.00, exceeds ₹50000.00: the parcel needs an e-way bill number (12 digits) before it is booked"])
    assert.equal((await t.deps.database.db.query.shipments.findMany({ where: (s, { eq }) => eq(s.orderId, order.id) })).length, 0)
    const malformed = await ship(order.id, { ewayBillNo: 'EWB-1' })
    assert.equal(malformed.statusCode, 400)
    assert.match(malformed.json().message.join(' | '), /ewayBillNo/)
    // 50 units (₹50,000: not more than the threshold) would need none: a parcel of them travels without.
    const half = await ship(order.id, { items: [{ orderItemId: lineOf(order, 'earbuds'), quantity: 50 }] })
    assert.equal(half.statusCode, 201, half.body)
    assert.equal(half.json().data.ewayBillNo, null)
    assert.equal((await admin('POST', `/shipments/${half.json().data.id}/cancel`)).statusCode, 200)
    const booked = await ship(order.id, { ewayBillNo: '331000123456' })
    assert.equal(booked.statusCode, 201, booked.body)
    assert.equal(booked.json().data.ewayBillNo, '331000123456')
    assert.equal((await admin('GET', `/shipments/${booked.json().data.id}`)).json().data.ewayBillNo, '331000123456')
  })
})

describe('couriers and their rates (decision 0030)', () => {
  test("the back office sees each courier's charge before booking; CHEAPEST, FASTEST or a named courier books with it; a courier not offered is a 400 naming those that are", async () => {
    const { order } = await paidOrder([item('earbuds', 3)])
    const quoted = await admin('POST', `/orders/${order.id}/shipping-rates`, {})
    assert.equal(quoted.statusCode, 200, quoted.body)
    // 600 g; 3 earbuds of 15 x 10 x 5 cm (sized above): 15 x 10 x 15, 450 g volumetric: 2 slabs of 500 g.
    assert.deepEqual(quoted.json().data, {
      zoneRule: null,
      weightGrams: 600,
      dimensionsCm: { length: 15, breadth: 10, height: 15 },
      rates: [
        { carrier: 'sandbox', courierId: 'sbx-surface', courierName: 'Sandbox Surface', charge: '71.00', estimatedDays: 6, recommended: false, cheapest: true, fastest: false },
        { carrier: 'sandbox', courierId: 'sbx-express', courierName: 'Sandbox Express', charge: '110.00', estimatedDays: 3, recommended: true, cheapest: false, fastest: true },
      ],
      unavailableCarriers: [],
    })
    assert.equal((await t.deps.database.db.query.shipments.findMany({ where: (x, { eq }) => eq(x.orderId, order.id) })).length, 0, 'a quote books nothing')

    const notOffered = await ship(order.id, { courierId: 'bluedart-air' })
    assert.equal(notOffered.statusCode, 400)
    assert.deepEqual(notOffered.json().message, ['courierId: bluedart-air is not offered for this parcel; the couriers that are: sbx-surface (Sandbox Surface), sbx-express (Sandbox Express)'])

    const cheapest = await ship(order.id, { courierRule: 'CHEAPEST', items: [{ orderItemId: lineOf(order, 'earbuds'), quantity: 1 }] })
    assert.equal(cheapest.statusCode, 201, cheapest.body)
    assert.deepEqual([cheapest.json().data.courierName, cheapest.json().data.expectedDeliveryDate], ['Sandbox Surface', '2026-11-29'])
    const fastest = await ship(order.id, { courierRule: 'FASTEST', items: [{ orderItemId: lineOf(order, 'earbuds'), quantity: 1 }] })
    assert.deepEqual([fastest.json().data.courierName, fastest.json().data.expectedDeliveryDate], ['Sandbox Express', '2026-11-26'])
    const named = await ship(order.id, { courierId: 'sbx-surface' })
    assert.equal(named.json().data.courierName, 'Sandbox Surface')

    const bad = await admin('POST', `/orders/${order.id}/shipping-rates`, { carrier: 'bluedart' })
    assert.equal(bad.statusCode, 400)
    assert.equal(bad.json().message, 'Unknown carrier bluedart: this service ships with sandbox')
    assert.equal((await admin('POST', `/orders/${order.id}/shipping-rates`, {})).statusCode, 409, 'every unit is shipped: nothing left to quote')
    assert.equal((await admin('POST', '/orders/ord_nothing/shipping-rates', {})).statusCode, 404)
    const rule = await ship(order.id, { courierRule: 'SLOWEST' })
    assert.equal(rule.statusCode, 400)
    assert.match([rule.json().message].flat().join(' | '), /courierRule/)
  })

  test("a zone's rule picks the carrier and courier of a booking that names none; a booking that names one goes as it names; ADMIN sets it, 400/403/404 for bad ones", async () => {
    const owner = await givenAdminToken(t.app, t.deps, 'owner@zones.test', 'ADMIN')
    const asOwner = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${owner}` }, ...(payload ? { payload } : {}) })
    const zone = (await asOwner('GET', `/delivery-zones?search=${ADDRESS.pincode}`)).json().data[0]
    const unit = (order: { items: { id: string; productId: string }[] }) => ({ items: [{ orderItemId: lineOf(order, 'earbuds'), quantity: 1 }] })
    const { order } = await paidOrder([item('earbuds', 4)])
    assert.equal((await ship(order.id, unit(order))).json().data.courierName, 'Sandbox Express', 'without a rule: the carrier recommends')

    assert.equal((await admin('PUT', `/fulfilment/zone-rules/${zone.id}`, { carrier: 'sandbox', courierRule: 'CHEAPEST' })).statusCode, 403, 'SUPPORT reads rules, ADMIN sets them')
    const saved = await asOwner('PUT', `/fulfilment/zone-rules/${zone.id}`, { carrier: 'sandbox', courierRule: 'CHEAPEST' })
    assert.equal(saved.statusCode, 200, saved.body)
    assert.deepEqual({ ...saved.json().data, updatedBy: undefined, updatedAt: undefined }, { zoneId: zone.id, zoneName: zone.name, carrier: 'sandbox', courierRule: 'CHEAPEST', updatedBy: undefined, updatedAt: undefined })
    assert.deepEqual((await admin('GET', '/fulfilment/zone-rules')).json().data.map((r: { zoneId: string }) => r.zoneId), [zone.id])
    assert.deepEqual((await admin('POST', `/orders/${order.id}/shipping-rates`, {})).json().data.zoneRule, { zoneId: zone.id, zoneName: zone.name, carrier: 'sandbox', courierRule: 'CHEAPEST' })
    assert.equal((await ship(order.id, unit(order))).json().data.courierName, 'Sandbox Surface', "the zone's rule: the cheapest")
    assert.equal((await ship(order.id, { ...unit(order), courierRule: 'FASTEST' })).json().data.courierName, 'Sandbox Express', 'the booking names its rule: it wins')

    const badCarrier = await asOwner('PUT', `/fulfilment/zone-rules/${zone.id}`, { carrier: 'bluedart', courierRule: null })
    assert.equal(badCarrier.statusCode, 400)
    assert.deepEqual(badCarrier.json().message, ['carrier: bluedart is not a carrier of this service; it ships with sandbox, manual'])
    assert.equal((await asOwner('PUT', `/fulfilment/zone-rules/${zone.id}`, { carrier: null, courierRule: null })).statusCode, 400)
    assert.equal((await asOwner('PUT', '/fulfilment/zone-rules/zone_nowhere', { carrier: 'sandbox', courierRule: null })).statusCode, 404)
    assert.equal((await asOwner('PUT', `/fulfilment/zone-rules/${zone.id}`, { carrier: 'sandbox', courierRule: 'SLOWEST' })).statusCode, 400)

    // A carrier the service stopped shipping with (its settings removed): the booking says what to do.
    await t.deps.database.db.execute(sql`update zone_courier_rules set carrier = 'shiprocket' where zone_id = ${zone.id}`)
    const gone = await ship(order.id, unit(order))
    assert.equal(gone.statusCode, 409)
    assert.match(gone.json().message, /names carrier shiprocket, which this service no longer ships with: change it \(PUT \/admin\/fulfilment\/zone-rules\//)

    assert.equal((await asOwner('DELETE', `/fulfilment/zone-rules/${zone.id}`)).statusCode, 200)
    assert.equal((await asOwner('DELETE', `/fulfilment/zone-rules/${zone.id}`)).statusCode, 404)
    assert.equal((await ship(order.id, unit(order))).json().data.courierName, 'Sandbox Express', 'the rule removed: the default again')
  })
})

describe('non-delivery reports (NDR)', () => {
  const partnerNdr = (partner: { partnerId: string; secret: string }, shipmentId: string, body: object) =>
    t.app.inject({ method: 'POST', url: `/api/v1/partner/shipments/${shipmentId}/ndr`, headers: { 'x-partner-id': partner.partnerId, 'x-partner-secret': partner.secret }, payload: body })

  test("a failed attempt carries the carrier's reason; a re-attempt (date, address line, phone) is forwarded and kept, and the parcel is then delivered", async () => {
    const { customer, order } = await codOrder([item('earbuds')])
    const parcel = (await ship(order.id, {})).json().data
    const early = await admin('POST', `/shipments/${parcel.id}/ndr`, { action: 'REATTEMPT' })
    assert.equal(early.statusCode, 409)
    assert.equal(early.json().message, `Shipment ${parcel.awb} is CREATED: a non-delivery action is for a parcel whose delivery failed (DELIVERY_FAILED)`)
    await track(parcel.awb, 'IN_TRANSIT', 'OUT_FOR_DELIVERY')
    assert.equal((await callback(parcel.awb, 'DELIVERY_FAILED', ++seq, { note: 'Customer not available at the address' }).send()).statusCode, 200)
    const failed = (await admin('GET', `/shipments/${parcel.id}`)).json().data
    assert.equal(failed.status, 'DELIVERY_FAILED')
    assert.deepEqual(failed.events.at(-1), { ...failed.events.at(-1), status: 'DELIVERY_FAILED', note: 'Customer not available at the address', refused: false })

    const bad: [object, RegExp][] = [
      [{ action: 'REATTEMPT', deferredDate: '2026-11-22' }, /^deferredDate: must be from today \(2026-11-23\) to 2026-11-30 in India$/],
      [{ action: 'REATTEMPT', deferredDate: '2026-12-01' }, /^deferredDate: must be from today/],
      [{ action: 'REATTEMPT', phone: '12345' }, /phone/],
      [{ action: 'RTO', deferredDate: '2026-11-24' }, /^action: RTO takes no deferredDate, addressLine or phone/],
      [{ action: 'LATER' }, /action/],
    ]
    for (const [body, message] of bad) {
      const res = await admin('POST', `/shipments/${parcel.id}/ndr`, body)
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`)
      assert.match([res.json().message].flat().join(' | '), message)
    }
    const reattempt = await admin('POST', `/shipments/${parcel.id}/ndr`, { action: 'REATTEMPT', deferredDate: '2026-11-24', addressLine: 'Flat 4B, 12 MG Road', phone: '+91 98765 43210', note: 'Call before coming' })
    assert.equal(reattempt.statusCode, 200, reattempt.body)
    assert.deepEqual(
      reattempt.json().data.ndrActions.map(({ at: _at, requestedBy, ...a }: { at: string; requestedBy: string }) => ({ ...a, by: requestedBy.split(':')[0] })),
      [{ action: 'REATTEMPT', deferredDate: '2026-11-24', addressLine: 'Flat 4B, 12 MG Road', phone: '9876543210', note: 'Call before coming', by: 'ADMIN' }],
    )
    const updated = (await events(order.id, 'shipment.updated')).map((e) => e.data as { ndrAction?: { action: string; requestedBy: string } }).filter((d) => d.ndrAction)
    assert.deepEqual(updated.map((d) => [d.ndrAction!.action, d.ndrAction!.requestedBy.split(':')[0]]), [['REATTEMPT', 'ADMIN']])
    // The order's timeline shows it to the customer and the partner, without who asked or the courier's note.
    const seen = (await customerOrder(customer, order.id)).shipments.find((p: { id: string }) => p.id === parcel.id)
    assert.deepEqual(
      seen.ndrActions.map(({ at, ...a }: { at: string }) => ({ ...a, dated: !Number.isNaN(Date.parse(at)) })),
      [{ action: 'REATTEMPT', deferredDate: '2026-11-24', addressLine: 'Flat 4B, 12 MG Road', phone: '9876543210', dated: true }],
    )

    await track(parcel.awb, 'OUT_FOR_DELIVERY', 'DELIVERED')
    assert.equal((await customerOrder(customer, order.id)).status, 'DELIVERED')
    const late = await admin('POST', `/shipments/${parcel.id}/ndr`, { action: 'RTO' })
    assert.equal(late.statusCode, 409)
    assert.match(late.json().message, /is DELIVERED: a non-delivery action is for a parcel whose delivery failed/)
  })

  test("the partner's server asks for its own parcels only (another partner's: 404); RTO is forwarded and the carrier's scans bring the parcel back", async () => {
    const { order } = await codOrder([item('earbuds')])
    const parcel = (await ship(order.id, {})).json().data
    await track(parcel.awb, 'IN_TRANSIT')
    assert.equal((await callback(parcel.awb, 'DELIVERY_FAILED', ++seq, { note: 'Address incomplete' }).send()).statusCode, 200)
    const stranger = await givenPartner(t.deps, 'Another partner')
    assert.equal((await partnerNdr(stranger, parcel.id, { action: 'RTO' })).statusCode, 404)
    const asked = await partnerNdr(shop.partner, parcel.id, { action: 'RTO', note: 'Customer cancelled on the phone' })
    assert.equal(asked.statusCode, 200, asked.body)
    assert.equal(asked.json().data.ndrActions[0].requestedBy, `PARTNER:${shop.partner.partnerId}`)
    assert.equal('labelUrl' in asked.json().data, false, "the partner's answer is the customer's parcel with its actions")
    await track(parcel.awb, 'RTO_INITIATED', 'RTO_DELIVERED')
    assert.equal((await admin('GET', `/shipments/${parcel.id}`)).json().data.status, 'RTO_DELIVERED')
  })

  test('parcels refused at the door are counted apart from RTOs: maxRefusedDeliveries refuses COD once reached; a customer merely not reached is not counted', async () => {
    const adminToken = await givenAdminToken(t.app, t.deps, 'admin@ndr.test', 'ADMIN')
    const rules = (body: object) => t.app.inject({ method: 'PUT', url: `/api/v1/admin/partners/${shop.partner.partnerId}/cod-rules`, headers: { authorization: `Bearer ${adminToken}` }, payload: body })
    const half = await rules({ maxRefusedDeliveries: 1 })
    assert.equal(half.statusCode, 400)
    assert.equal(half.json().message, 'maxRefusedDeliveries and refusedWindowDays must be set together, or both left out')
    const saved = await rules({ maxRefusedDeliveries: 1, refusedWindowDays: 30 })
    assert.equal(saved.statusCode, 200, saved.body)
    assert.deepEqual([saved.json().data.maxRefusedDeliveries, saved.json().data.refusedWindowDays], [1, 30])

    const eligible = async (customer: Awaited<ReturnType<typeof codOrder>>['customer']) =>
      (await t.app.inject({ method: 'GET', url: '/api/v1/checkout/cod-eligibility?pincode=560001&collectableAmount=100', headers: customerHeaders(customer) })).json().data
    const { customer: refuser, order: refused } = await codOrder([item('earbuds')])
    const { customer: absent, order: missed } = await codOrder([item('earbuds')])
    for (const [order, note] of [[refused, 'Consignee refused to accept the shipment'], [missed, 'Consignee not available']] as const) {
      const parcel = (await ship(order.id, {})).json().data
      await track(parcel.awb, 'IN_TRANSIT')
      assert.equal((await callback(parcel.awb, 'DELIVERY_FAILED', ++seq, { note }).send()).statusCode, 200)
    }
    assert.deepEqual(await eligible(refuser), { ...(await eligible(refuser)), eligible: false, reasons: ['Cash on delivery is not available after 1 refused delivery in 30 days'] })
    assert.equal((await eligible(absent)).eligible, true)
    assert.equal((await rules({})).statusCode, 200, 'rules cleared for the tests after this one')
  })
})

describe('lost and damaged parcels (decision 0030)', () => {
  const resolve = (shipmentId: string, body: object) => admin('POST', `/shipments/${shipmentId}/resolve`, body)
  /** Two clicks at once: exactly one resolves, the other is told it was resolved before. */
  async function resolvedOnce(shipmentId: string, body: object) {
    const answers = await Promise.all([resolve(shipmentId, body), resolve(shipmentId, body)])
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 409], answers.map((a) => a.body).join('\n'))
    assert.match(answers.find((a) => a.statusCode === 409)!.json().message, /was already resolved \((RESHIP|REFUND) at /)
    return answers.find((a) => a.statusCode === 200)!.json().data
  }

  test('a COD parcel the carrier loses is reshipped once under concurrent clicks: stock taken again, the new parcel collects the cash and is delivered', async () => {
    const { customer, order } = await codOrder([item('hot', 2)])
    const before = await stockOf(t, shop.ids['hot']!)
    const parcel = (await ship(order.id, { weightGrams: 400 })).json().data
    await track(parcel.awb, 'IN_TRANSIT', 'LOST')
    let seen = await customerOrder(customer, order.id)
    assert.equal(seen.status, 'SHIPPED', 'a lost parcel moves no order: the back office decides')
    assert.deepEqual([seen.shipments[0].status, seen.shipments[0].resolution], ['LOST', null])
    assert.ok((await events(order.id, 'shipment.updated')).some((e) => e.data.status === 'LOST' && e.data.from === 'IN_TRANSIT'))
    assert.equal((await ship(order.id, { weightGrams: 400 })).statusCode, 409, 'its units are still in the lost parcel until it is resolved')

    const resolved = await resolvedOnce(parcel.id, { action: 'RESHIP', note: 'Claim 4471 filed with the carrier' })
    assert.deepEqual([resolved.status, resolved.resolution.action, resolved.resolution.note, resolved.resolution.resolvedBy.startsWith('ADMIN:')], ['LOST', 'RESHIP', 'Claim 4471 filed with the carrier', true])
    assert.equal(await stockOf(t, shop.ids['hot']!), before - 2, 'the units sent again come out of stock, once')
    // The test clock stands still: events are told apart by what they carry, not by their time.
    const event = (await events(order.id, 'shipment.updated')).find((e) => e.data.resolution !== undefined)!
    assert.deepEqual([event.data.from, (event.data.resolution as { action: string }).action], ['LOST', 'RESHIP'])

    const again = await ship(order.id, { weightGrams: 400 })
    assert.equal(again.statusCode, 201, again.body)
    assert.deepEqual(again.json().data.items, [{ orderItemId: lineOf(order, 'hot'), quantity: 2 }])
    const manifest = (await admin('GET', '/fulfilment/manifest?carrier=sandbox')).json().data.parcels
    const cashOf = (awb: string) => manifest.find((p: { awb: string }) => p.awb === awb).codAmount
    assert.deepEqual([cashOf(parcel.awb), cashOf(again.json().data.awb)], ['0.00', order.totalAmount], 'the new parcel collects the cash the lost one would have')
    await track(again.json().data.awb, 'IN_TRANSIT', 'DELIVERED')
    seen = await customerOrder(customer, order.id)
    assert.deepEqual([seen.status, seen.paymentStatus], ['DELIVERED', 'PAID'])
    const late = await callback(parcel.awb, 'DELIVERED').send()
    assert.equal(late.json().data.applied, 0, 'a resolved parcel found later is recorded, not applied')
  })

  test('a damaged parcel holding the whole paid order is refunded once under concurrent clicks: everything back to the card, nothing back to stock, the order CANCELLED', async () => {
    const { customer, order } = await paidOrder([item('earbuds')])
    const before = await stockOf(t, shop.ids['earbuds']!)
    const parcel = (await ship(order.id, { weightGrams: 200 })).json().data
    await track(parcel.awb, 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DAMAGED')
    await resolvedOnce(parcel.id, { action: 'REFUND' })
    const seen = await customerOrder(customer, order.id)
    assert.deepEqual([seen.status, seen.paymentStatus], ['CANCELLED', 'REFUNDED'])
    assert.match(seen.cancelReason, /damaged on the way/)
    assert.deepEqual(seen.refunds.map((r: { amount: string; method: string; status: string }) => [r.amount, r.method, r.status]), [[order.totalAmount, 'ORIGINAL_PAYMENT', 'SUCCEEDED']])
    assert.equal(await stockOf(t, shop.ids['earbuds']!), before, 'the damaged goods do not come back to stock')
  })

  test('one lost parcel of a split order refunded: its units only, and the parcel delivered makes the order DELIVERED', async () => {
    const { customer, order } = await paidOrder([item('atta', 2), item('earbuds')])
    const attaBefore = await stockOf(t, shop.ids['atta']!)
    const a = (await ship(order.id, { weightGrams: 10_000, items: [{ orderItemId: lineOf(order, 'atta'), quantity: 2 }] })).json().data
    const b = (await ship(order.id, { weightGrams: 200, items: [{ orderItemId: lineOf(order, 'earbuds'), quantity: 1 }] })).json().data
    await track(b.awb, 'IN_TRANSIT', 'DELIVERED')
    await track(a.awb, 'IN_TRANSIT', 'LOST')
    assert.notEqual((await customerOrder(customer, order.id)).status, 'DELIVERED', 'a lost parcel not yet resolved keeps the order open')
    await resolvedOnce(a.id, { action: 'REFUND', note: 'Customer asked for the money' })
    const seen = await customerOrder(customer, order.id)
    assert.deepEqual([seen.status, seen.paymentStatus], ['DELIVERED', 'PARTIALLY_REFUNDED'])
    assert.equal(seen.items.find((i: { id: string }) => i.id === lineOf(order, 'atta')).cancelledQuantity, 2)
    assert.deepEqual(seen.refunds.map((r: { amount: string; method: string }) => [r.amount, r.method]), [['600.00', 'ORIGINAL_PAYMENT']])
    assert.equal(await stockOf(t, shop.ids['atta']!), attaBefore)
    const cancelled = await events(order.id, 'order.items_cancelled')
    assert.equal(cancelled.length, 1)
    assert.match(String(cancelled[0]!.data.reason), new RegExp(`Parcel ${a.awb} lost on the way`))
  })

  test('what cannot be resolved answers 400, 404 or 409 with the reason, and changes nothing', async () => {
    const { order } = await codOrder([item('hot')])
    const parcel = (await ship(order.id, { weightGrams: 200 })).json().data
    await track(parcel.awb, 'IN_TRANSIT')
    const moving = await resolve(parcel.id, { action: 'REFUND' })
    assert.equal(moving.statusCode, 409)
    assert.equal(moving.json().message, `Shipment ${parcel.awb} is IN_TRANSIT: only a parcel its carrier declared LOST or DAMAGED is resolved`)
    assert.equal((await resolve('shp_unknown', { action: 'REFUND' })).statusCode, 404)
    const bad = await resolve(parcel.id, { action: 'BURN' })
    assert.equal(bad.statusCode, 400)
    assert.match(bad.json().message.join(' '), /action/)
    assert.equal((await resolve(parcel.id, { action: 'REFUND', refundTo: 'me' })).statusCode, 400, 'the body is closed')

    await track(parcel.awb, 'LOST')
    const catalogAdmin = await givenAdminToken(t.app, t.deps, 'catalog@lost.test', 'ADMIN')
    const setStock = (stock: number) => t.app.inject({ method: 'PATCH', url: `/api/v1/admin/products/${shop.ids['hot']}`, headers: { authorization: `Bearer ${catalogAdmin}` }, payload: { stock } })
    const stock = await stockOf(t, shop.ids['hot']!)
    assert.equal((await setStock(0)).statusCode, 200)
    const short = await resolve(parcel.id, { action: 'RESHIP' })
    assert.equal(short.statusCode, 409)
    assert.equal(short.json().message, 'Not enough stock of H-1 to send 1 again (0 available): refund the units instead (action REFUND)')
    assert.equal((await admin('GET', `/shipments/${parcel.id}`)).json().data.resolution, null, 'nothing was resolved')
    assert.equal((await setStock(stock)).statusCode, 200)
  })
})

describe("the merchant's own delivery (carrier manual)", () => {
  test('a manual parcel keeps the merchant\'s tracking number and link; the back office moves it and the order follows to DELIVERED; a carrier\'s parcel is not moved so', async () => {
    const { customer, order } = await codOrder([item('earbuds')])
    const booked = await ship(order.id, { carrier: 'manual', trackingNumber: 'VAN-0042', trackingUrl: 'https://shop.example/track/VAN-0042' })
    assert.equal(booked.statusCode, 201, booked.body)
    const parcel = booked.json().data
    assert.deepEqual([parcel.carrier, parcel.awb, parcel.trackingUrl, parcel.courierName, parcel.status], ['manual', 'VAN-0042', 'https://shop.example/track/VAN-0042', 'Own delivery', 'CREATED'])
    assert.equal((await customerOrder(customer, order.id)).status, 'PACKED')
    const move = (status: string, note?: string) => admin('POST', `/shipments/${parcel.id}/status`, { status, ...(note ? { note } : {}) })
    for (const status of ['IN_TRANSIT', 'OUT_FOR_DELIVERY']) assert.equal((await move(status)).statusCode, 200)
    const delivered = await move('DELIVERED', 'Handed to Asha at the door')
    assert.equal(delivered.statusCode, 200, delivered.body)
    assert.equal(delivered.json().data.events.at(-1).note, 'Handed to Asha at the door')
    const seen = await customerOrder(customer, order.id)
    assert.deepEqual([seen.status, seen.paymentStatus], ['DELIVERED', 'PAID'], 'the cash was collected at the door')
    const back = await move('IN_TRANSIT')
    assert.equal(back.statusCode, 409)
    assert.equal(back.json().message, 'Shipment VAN-0042 cannot move from DELIVERED to IN_TRANSIT')
    assert.equal((await ship((await codOrder([item('earbuds')])).order.id, { carrier: 'manual', trackingNumber: 'VAN-0042' })).statusCode, 409, 'a tracking number is one parcel\'s')

    const other = (await ship((await codOrder([item('earbuds')])).order.id, { weightGrams: 200 })).json().data
    const carried = await admin('POST', `/shipments/${other.id}/status`, { status: 'DELIVERED' })
    assert.equal(carried.statusCode, 409)
    assert.match(carried.json().message, /travels with sandbox: its scans move it/)
  })

  test('without a tracking number the parcel has one of ours; a failed delivery of the merchant\'s own is no NDR for a carrier (409)', async () => {
    const { order } = await codOrder([item('earbuds')])
    const parcel = (await ship(order.id, { carrier: 'manual' })).json().data
    assert.match(parcel.awb, /^MAN[0-9A-Z]{12}$/)
    assert.equal(parcel.trackingUrl, '')
    assert.equal((await admin('POST', `/shipments/${parcel.id}/status`, { status: 'DELIVERY_FAILED', note: 'Nobody home' })).statusCode, 200)
    const ndr = await admin('POST', `/shipments/${parcel.id}/ndr`, { action: 'REATTEMPT' })
    assert.equal(ndr.statusCode, 409)
    assert.match(ndr.json().message, /the merchant's own delivery: deliver it again/)
  })

  test('an order is not moved by hand to SHIPPED, OUT_FOR_DELIVERY or DELIVERED while units are in no parcel: 409 saying what to do, and nextStatuses leaves those out', async () => {
    const { customer, order } = await codOrder([item('earbuds', 2)])
    assert.equal((await admin('POST', `/orders/${order.id}/status`, { status: 'PACKED' })).statusCode, 200)
    const seen = (await admin('GET', `/orders/${order.id}`)).json().data
    assert.deepEqual(seen.nextStatuses, ['CANCELLED'], 'nothing is in a parcel: no SHIPPED to offer')
    assert.deepEqual(seen.unparcelled, [{ orderItemId: lineOf(order, 'earbuds'), quantity: 2 }])
    const refused = await admin('POST', `/orders/${order.id}/status`, { status: 'SHIPPED' })
    assert.equal(refused.statusCode, 409)
    assert.equal(
      refused.json().message,
      `Order ${order.orderNumber} has 2 unit(s) in no parcel: book a parcel for them first (POST /admin/orders/${order.id}/shipments; carrier "manual" for your own delivery), or cancel them (POST /admin/orders/${order.id}/cancel-items)`,
    )
    assert.equal((await customerOrder(customer, order.id)).status, 'PACKED', 'nothing moved')
    assert.equal((await ship(order.id, { carrier: 'manual', items: [{ orderItemId: lineOf(order, 'earbuds'), quantity: 1 }] })).statusCode, 201)
    assert.match((await admin('POST', `/orders/${order.id}/status`, { status: 'SHIPPED' })).json().message, /has 1 unit\(s\) in no parcel/)
    assert.equal((await ship(order.id, { carrier: 'manual' })).statusCode, 409, 'a COD order travels in one parcel')
  })

  test('bad manual parcels answer 400 naming the field, and book nothing', async () => {
    const { order } = await paidOrder([item('earbuds')])
    const cases: [object, RegExp][] = [
      [{ trackingNumber: 'VAN-1' }, /trackingNumber: only for carrier manual/],
      [{ carrier: 'sandbox', trackingUrl: 'https://shop.example/t/1' }, /trackingUrl: only for carrier manual/],
      [{ carrier: 'manual', courierRule: 'CHEAPEST' }, /courierRule: carrier manual \(the merchant's own delivery\) has no couriers to choose/],
      [{ carrier: 'manual', trackingNumber: 'VAN 1' }, /trackingNumber/],
      [{ carrier: 'manual', trackingUrl: 'javascript:alert(1)' }, /trackingUrl/],
    ]
    for (const [body, problem] of cases) {
      const res = await ship(order.id, body)
      assert.equal(res.statusCode, 400, JSON.stringify(body))
      assert.match([res.json().message].flat().join(' | '), problem)
    }
    assert.equal((await t.deps.database.db.query.shipments.findMany({ where: (x, { eq }) => eq(x.orderId, order.id) })).length, 0)
  })
})

describe('back office', () => {
  test('bad shipments answer 400/404/409 with the reason, and book nothing', async () => {
    const { order } = await codOrder([item('atta', 2)])
    const { order: another } = await codOrder([item('earbuds')])
    const line = lineOf(order, 'atta')
    const cases: [object, number, RegExp][] = [
      [{ weightGrams: 100, items: [{ orderItemId: lineOf(another, 'earbuds'), quantity: 1 }] }, 400, new RegExp(`^items: ${lineOf(another, 'earbuds')} is not a line of order ${order.orderNumber}$`)],
      [{ weightGrams: 100, items: [{ orderItemId: line, quantity: 3 }] }, 409, new RegExp(`^Only 2 unit\\(s\\) of A-1 in order ${order.orderNumber} remain unshipped; 3 asked$`)],
      [{ weightGrams: 100, items: [{ orderItemId: line, quantity: 1 }, { orderItemId: line, quantity: 1 }] }, 400, new RegExp(`^items: order item ${line} is listed twice$`)],
      [{ weightGrams: 100, carrier: 'bluedart' }, 400, /^Unknown carrier bluedart: this service ships with sandbox$/],
      [{ weightGrams: 0 }, 400, /weightGrams/],
      [{ dimensionsCm: { length: 10, breadth: 0, height: 5 } }, 400, /dimensionsCm.breadth must not be less than 1/],
      [{ dimensionsCm: { length: 10, breadth: 10 } }, 400, /dimensionsCm.*height/],
      [{ ewayBillNo: '33100012345' }, 400, /ewayBillNo/],
    ]
    for (const [body, status, message] of cases) {
      const res = await ship(order.id, body)
      assert.equal(res.statusCode, status, `${JSON.stringify(body)}: ${res.body}`)
      assert.match([res.json().message].flat().join(' | '), message)
    }
    assert.equal((await ship('ord_nothing', { weightGrams: 100 })).statusCode, 404)
    const cancelled = await admin('POST', `/orders/${another.id}/status`, { status: 'CANCELLED', note: 'Customer called' })
    assert.equal(cancelled.statusCode, 200)
    const onCancelled = await ship(another.id, { weightGrams: 100 })
    assert.equal(onCancelled.statusCode, 409)
    assert.equal(onCancelled.json().message, `Order ${another.orderNumber} cannot be shipped while it is CANCELLED: shipments are created for CONFIRMED or PACKED orders`)
    const customer = await givenCustomer(t.app, shop.partner)
    const unpaid = (await placeOrder(t, customer, { items: [item('atta')], shippingAddress: ADDRESS })).json().data
    assert.equal((await ship(unpaid.id, { weightGrams: 100 })).statusCode, 409)
    const stranger = (await codOrder([item('atta')])).customer
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: customerHeaders(stranger) })).statusCode, 404, "another customer's order")
    const shipments = await t.deps.database.db.query.shipments.findMany({ where: (s, { inArray }) => inArray(s.orderId, [order.id, another.id, unpaid.id]) })
    assert.equal(shipments.length, 0)
  })

  test('an unpaid COD order travels in one parcel, and is neither cancelled nor changed while it is booked', async () => {
    const { customer, order } = await codOrder([item('atta', 2)])
    const parcel = (await ship(order.id, { weightGrams: 5000, items: [{ orderItemId: lineOf(order, 'atta'), quantity: 1 }] })).json().data
    const second = await ship(order.id, { weightGrams: 5000 })
    assert.equal(second.statusCode, 409)
    assert.equal(second.json().message, `Order ${order.orderNumber} is cash on delivery and already travels in parcel ${parcel.awb}: its cash is collected at one door, so it ships in one parcel (cancel that parcel to book another)`)
    const cancel = await t.app.inject({ method: 'POST', url: `/api/v1/orders/${order.id}/cancel`, headers: customerHeaders(customer), payload: { reason: 'Changed my mind' } })
    assert.equal(cancel.statusCode, 409)
    assert.equal(cancel.json().message, `Order ${order.orderNumber} cannot be cancelled while parcel ${parcel.awb} is booked (CREATED): cancel the parcel first`)
    const fewer = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${order.id}/cancel-items`,
      headers: customerHeaders(customer),
      payload: { items: [{ orderItemId: lineOf(order, 'atta'), quantity: 1 }], reason: 'One is enough' },
    })
    assert.equal(fewer.statusCode, 409)
    assert.equal(fewer.json().message, `Order ${order.orderNumber} cannot be changed while parcel ${parcel.awb} is booked (CREATED): cancel the parcel first`)
    assert.equal((await admin('POST', `/shipments/${parcel.id}/cancel`)).statusCode, 200)
    const now = await t.app.inject({ method: 'POST', url: `/api/v1/orders/${order.id}/cancel`, headers: customerHeaders(customer), payload: { reason: 'Changed my mind' } })
    assert.equal(now.statusCode, 200, 'with the parcel cancelled, the order can be')
  })

  test('a parcel not picked up can be cancelled and its units shipped again; one in transit cannot', async () => {
    const { order } = await codOrder([item('atta')])
    const parcel = (await ship(order.id, { weightGrams: 5000 })).json().data
    const cancelled = await admin('POST', `/shipments/${parcel.id}/cancel`)
    assert.equal(cancelled.statusCode, 200, cancelled.body)
    assert.equal(cancelled.json().data.status, 'CANCELLED')
    const again = (await ship(order.id, { weightGrams: 5000 })).json().data
    await track(again.awb, 'IN_TRANSIT')
    const late = await admin('POST', `/shipments/${again.id}/cancel`)
    assert.equal(late.statusCode, 409)
    assert.equal(late.json().message, `Shipment ${again.awb} cannot be cancelled once it is IN_TRANSIT`)
    assert.equal((await admin('POST', '/shipments/shp_nothing/cancel')).statusCode, 404)
  })

  test("the label PDF carries the AWB, the address and the cash to collect; the day's pick list sums units by SKU", async () => {
    const { order } = await codOrder([item('atta', 3), item('earbuds')])
    const parcel = (await ship(order.id, { weightGrams: 15_200 })).json().data
    const label = await admin('GET', `/shipments/${parcel.id}/label`)
    assert.equal(label.statusCode, 200)
    assert.equal(label.headers['content-type'], 'application/pdf')
    const text = await pdfText(label.rawPayload)
    for (const expected of [parcel.awb, order.orderNumber, '560001', 'Asha Rao', `₹${Number(order.amountPayable).toLocaleString('en-IN', { minimumFractionDigits: 2 })}`]) {
      assert.ok(text.includes(expected), `${expected} in ${text}`)
    }
    const list = await admin('GET', '/fulfilment/pick-list?date=2026-11-23')
    assert.equal(list.statusCode, 200, list.body)
    const atta = list.json().data.lines.find((l: { sku: string }) => l.sku === 'A-1')
    assert.ok(atta.quantity >= 3)
    assert.ok(atta.orders.includes(order.orderNumber))
    assert.equal((await admin('GET', '/fulfilment/pick-list?date=2026-11-22')).json().data.shipments, 0, 'nothing was booked the day before')
    const pdf = await admin('GET', '/fulfilment/pick-list?date=2026-11-23&format=pdf')
    assert.equal(pdf.headers['content-type'], 'application/pdf')
    assert.ok((await pdfText(pdf.rawPayload)).includes('A-1'))
  })

  test('the labels of several parcels come as one PDF, a page each in the order asked; an unknown parcel 404, one listed twice 400', async () => {
    const parcels = []
    for (const slug of ['earbuds', 'hot', 'atta']) parcels.push((await ship((await codOrder([item(slug)])).order.id, { weightGrams: 500 })).json().data)
    const labels = await t.app.inject({ method: 'POST', url: '/api/v1/admin/shipments/labels', headers: { authorization: `Bearer ${support}` }, payload: { shipmentIds: parcels.map((p) => p.id) } })
    assert.equal(labels.statusCode, 200, labels.body)
    assert.equal(labels.headers['content-type'], 'application/pdf')
    const pages = await pdfPageTexts(labels.rawPayload)
    assert.equal(pages.length, 3, 'a page each')
    parcels.forEach((p, i) => assert.ok(pages[i]!.includes(p.awb), `page ${i + 1} is ${p.awb}'s`))
    assert.equal((await admin('POST', '/shipments/labels', { shipmentIds: [parcels[0].id, 'shp_nowhere'] })).statusCode, 404)
    const twice = await admin('POST', '/shipments/labels', { shipmentIds: [parcels[0].id, parcels[0].id] })
    assert.equal(twice.statusCode, 400)
    assert.deepEqual(twice.json().message, [`shipmentIds: ${parcels[0].id} is listed twice`])
    assert.equal((await admin('POST', '/shipments/labels', { shipmentIds: [] })).statusCode, 400)
  })

  test('the sandbox tracking page shows the parcel, and its buttons move it through the signed callback', async () => {
    const { customer, order } = await codOrder([item('earbuds')])
    const parcel = (await ship(order.id, { weightGrams: 200 })).json().data
    const page = await t.app.inject({ method: 'GET', url: `/api/v1/sandbox/shipments/${parcel.awb}` })
    assert.equal(page.statusCode, 200)
    assert.match(page.body, new RegExp(parcel.awb))
    const moved = await t.app.inject({ method: 'POST', url: `/api/v1/sandbox/shipments/${parcel.awb}/IN_TRANSIT` })
    assert.equal(moved.statusCode, 200, moved.body)
    assert.deepEqual(moved.json().data, { shipmentId: parcel.id, orderId: order.id, shipmentStatus: 'IN_TRANSIT', orderStatus: 'SHIPPED', applied: true })
    assert.equal((await customerOrder(customer, order.id)).status, 'SHIPPED')
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/v1/sandbox/shipments/SBX404/DELIVERED' })).statusCode, 404)
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/v1/sandbox/shipments/${parcel.awb}/VANISHED` })).statusCode, 400)
  })
})

describe('returns coming back', () => {
  /** A delivered COD order of `quantity` atta and a return of all of it, approved. */
  async function approvedReturn(quantity: number, resolution = 'WALLET_CREDIT') {
    const { customer, order } = await codOrder([item('atta', quantity)])
    const parcel = (await ship(order.id, { weightGrams: 5000 })).json().data
    await track(parcel.awb, 'DELIVERED')
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/returns',
      headers: customerHeaders(customer),
      payload: { orderId: order.id, reason: 'Damaged', detail: 'The bag was torn', requestedResolution: resolution, items: [{ orderItemId: lineOf(order, 'atta'), quantity, reason: 'Torn' }] },
    })
    assert.equal(created.statusCode, 201, created.body)
    const id = created.json().data.id
    for (const status of ['UNDER_REVIEW', 'APPROVED']) assert.equal((await admin('POST', `/returns/${id}/status`, { status })).statusCode, 200)
    return { customer, order, id }
  }
  const qc = (id: string, result: string, note?: string) => admin('POST', `/returns/${id}/quality-check`, { result, ...(note ? { note } : {}) })

  test('an approved return gets a reverse pickup; received and checked, its units go back to stock once, even under concurrent checks', async () => {
    const { customer, id } = await approvedReturn(3)
    const before = await stockOf(t, shop.ids['atta']!)
    const failedPickup = (await admin('POST', `/returns/${id}/pickup`, { weightGrams: 15_000 })).json().data.pickup
    await track(failedPickup.awb, 'IN_TRANSIT', 'RTO_DELIVERED')
    assert.equal((await admin('GET', `/returns/${id}`)).json().data.pickup.status, 'RTO_DELIVERED', 'the courier brought it back to the customer')
    const booked = await admin('POST', `/returns/${id}/pickup`, { weightGrams: 15_000 })
    assert.equal(booked.statusCode, 200, booked.body)
    const pickup = booked.json().data.pickup
    assert.equal(pickup.direction, 'REVERSE')
    assert.equal(pickup.returnId, id)
    assert.equal(pickup.status, 'CREATED')
    const noLabel = await admin('GET', `/shipments/${pickup.id}/label`)
    assert.equal(noLabel.statusCode, 409)
    assert.equal(noLabel.json().message, `Shipment ${pickup.awb} is a return pickup: the courier brings its label to the customer`)
    const twice = await admin('POST', `/returns/${id}/pickup`, { weightGrams: 15_000 })
    assert.equal(twice.statusCode, 409)
    assert.equal(twice.json().message, `Return request already has pickup ${pickup.awb} (CREATED)`)
    await track(pickup.awb, 'IN_TRANSIT')
    const early = await qc(id, 'PASSED')
    assert.equal(early.statusCode, 409)
    assert.equal(early.json().message, `Pickup ${pickup.awb} is IN_TRANSIT: record the check when the parcel is received`)
    await track(pickup.awb, 'DELIVERED')
    const answers = await Promise.all(Array.from({ length: 6 }, () => qc(id, 'PASSED', 'Sealed, resellable')))
    assert.deepEqual(answers.map((a) => a.statusCode), [200, 200, 200, 200, 200, 200])
    assert.equal(await stockOf(t, shop.ids['atta']!), before + 3, 'restocked once')
    const shown = answers[0]!.json().data
    assert.equal(shown.qualityCheck.result, 'PASSED')
    assert.equal(shown.qualityCheck.restocked, true)
    assert.equal(shown.pickup.status, 'DELIVERED')
    const other = await qc(id, 'FAILED')
    assert.equal(other.statusCode, 409)
    assert.equal(other.json().message, 'Quality check already recorded as PASSED')
    const seen = (await t.app.inject({ method: 'GET', url: `/api/v1/returns/${id}`, headers: customerHeaders(customer) })).json().data
    assert.equal(seen.pickup.awb, pickup.awb, 'the customer sees the pickup')
    const order = await t.deps.database.db.query.orders.findFirst({ where: (o, { eq }) => eq(o.id, seen.orderId) })
    assert.equal(order!.status, 'DELIVERED', 'a reverse parcel moves no order')
  })

  test('a check that fails restocks nothing; a return not approved, or kept by the customer, has nothing to pick up or check', async () => {
    const { id } = await approvedReturn(2)
    const before = await stockOf(t, shop.ids['atta']!)
    const failed = await qc(id, 'FAILED', 'Opened and used')
    assert.equal(failed.statusCode, 200, failed.body)
    assert.deepEqual({ ...failed.json().data.qualityCheck, at: undefined }, { result: 'FAILED', note: 'Opened and used', at: undefined, restocked: false })
    assert.equal(await stockOf(t, shop.ids['atta']!), before)
    assert.equal((await qc(id, 'FAILED')).statusCode, 200, 'the same result again changes nothing')

    const kept = await approvedReturn(1, 'KEEP_ITEM_WALLET_CREDIT')
    for (const res of [await admin('POST', `/returns/${kept.id}/pickup`, { weightGrams: 100 }), await qc(kept.id, 'PASSED')]) {
      assert.equal(res.statusCode, 409)
      assert.equal(res.json().message, 'The customer keeps the item: nothing comes back')
    }
    const { customer, order } = await codOrder([item('atta')])
    const parcel = (await ship(order.id, { weightGrams: 5000 })).json().data
    await track(parcel.awb, 'DELIVERED')
    const requested = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/returns',
        headers: customerHeaders(customer),
        payload: { orderId: order.id, reason: 'r', detail: 'd', requestedResolution: 'WALLET_CREDIT', items: [{ orderItemId: lineOf(order, 'atta'), quantity: 1, reason: 'x' }] },
      })
    ).json().data
    const notYet = await admin('POST', `/returns/${requested.id}/pickup`, { weightGrams: 100 })
    assert.equal(notYet.statusCode, 409)
    assert.equal(notYet.json().message, 'Return request is REQUESTED: units come back once it is approved')
    assert.equal((await admin('POST', '/returns/ret_nothing/pickup', { weightGrams: 100 })).statusCode, 404)
    assert.equal((await qc('ret_nothing', 'PASSED')).statusCode, 404)
    assert.equal((await qc(id, 'MAYBE')).statusCode, 400)
  })
})
