// A merchant's day with Shiprocket (the service configured with SHIPROCKET_*, against the local
// stand-in of its API), beyond shiprocket-app.test.ts: a return's reverse pickup booked through
// Shiprocket's return API and moved by its scans; an RTO recorded by hand before Shiprocket's own
// RTO scans (9, 10); a failed delivery (21) re-attempted through Shiprocket's NDR API, then
// delivered; a refused delivery counted by the COD risk rules apart from RTOs; a lost parcel (12)
// resolved once under concurrent clicks; and a zone's rule choosing the sandbox over Shiprocket.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop, stockOf } from '../helpers/shop.ts'
import { createShiprocketStandIn, shiprocketWebhook, type ShiprocketStandIn, trackingActivity } from '../helpers/shiprocket-standin.ts'

const TOKEN = 'shiprocket-webhook-token-for-tests'
const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop
let support: string
let owner: string
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
      RATE_LIMIT_AUTH_MAX: '1000',
    },
  })
  shop = await givenShop(t)
  support = await givenAdminToken(t.app, t.deps, 'support@shiprocket-day.test', 'SUPPORT')
  owner = await givenAdminToken(t.app, t.deps, 'owner@shiprocket-day.test', 'ADMIN')
})
after(async () => {
  await t?.close()
  await standIn?.close()
})

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
const admin = (method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${support}` }, ...(payload ? { payload } : {}) })
const asOwner = (method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${owner}` }, ...(payload ? { payload } : {}) })
const ship = (orderId: string, body: object) => admin('POST', `/orders/${orderId}/shipments`, body)
const item = (s: Shop, slug: string, quantity = 1) => ({ productId: s.ids[slug]!, quantity })
const lineOf = (s: Shop, order: { items: { id: string; productId: string }[] }, slug: string) => order.items.find((i) => i.productId === s.ids[slug])!.id
const customerOrder = async (customer: CustomerFixture, orderId: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}`, headers: customerHeaders(customer) })).json().data
const events = (orderId: string, type: string) =>
  t.deps.database.db.query.outboxEvents.findMany({ where: (e, { and, eq }) => and(eq(e.subjectId, orderId), eq(e.type, type)), orderBy: (e, { asc }) => [asc(e.createdAt)] })
/** What the back office's Shiprocket calls were, in order (logins left out). */
const calls = () => standIn.requests.filter((r) => !r.path.includes('/auth/')).map((r) => `${r.method} ${r.path}`)

async function codOrder(s: Shop, items: { productId: string; quantity: number }[], customer?: CustomerFixture) {
  const who = customer ?? (await givenCustomer(t.app, s.partner))
  const res = await placeOrder(t, who, { items, shippingAddress: ADDRESS, paymentMode: 'COD' })
  assert.equal(res.statusCode, 201, res.body)
  return { customer: who, order: res.json().data }
}

/** A Shiprocket booking of every unit of the order: the parcel. */
async function shippedWithShiprocket(orderId: string, body: object = {}) {
  const booked = await ship(orderId, body)
  assert.equal(booked.statusCode, 201, booked.body)
  const parcel = booked.json().data
  assert.equal(parcel.carrier, 'shiprocket')
  return parcel
}

// Each scan happens a minute after the one before (Shiprocket's times are India's, without an offset).
let minute = 0
const IST_MS = 330 * 60_000
function nextScanTime() {
  const at = new Date(Date.parse('2026-11-23T11:00:00+05:30') + ++minute * 60_000 + IST_MS).toISOString()
  const [date, time] = [at.slice(0, 10), at.slice(11, 19)]
  const [y, m, d] = date.split('-')
  return { webhook: `${d} ${m} ${y} ${time}`, scan: `${date} ${time}` }
}

/**
 * Shiprocket's signed callback for the AWB at a status id, a minute after the last one; `note` is the
 * courier's reason, as the activity of the latest scan. send() may be called again: the same callback.
 */
function scan(awb: string, statusId: number, options: { note?: string; isReturn?: boolean } = {}) {
  const at = nextScanTime()
  const { rawBody, headers } = shiprocketWebhook(awb, statusId, {
    token: TOKEN,
    timestamp: at.webhook,
    ...(options.isReturn ? { isReturn: true } : {}),
    ...(options.note ? { scans: [trackingActivity(at.scan, statusId, options.note, 'Bengaluru_MGRoad_D (Karnataka)')] } : {}),
  })
  return { send: () => t.app.inject({ method: 'POST', url: '/api/v1/shipping/webhooks/shiprocket', headers: headers as Record<string, string>, payload: rawBody }) }
}
async function track(awb: string, ...statusIds: number[]) {
  for (const statusId of statusIds) {
    const res = await scan(awb, statusId).send()
    assert.equal(res.statusCode, 200, `${statusId}: ${res.body}`)
    assert.equal(res.json().data.applied, 1, `scan ${statusId} of ${awb} applied: ${res.body}`)
  }
}

test("a return's reverse pickup is booked through Shiprocket's return API, its pickup asked for, and Shiprocket's scans of the reverse parcel bring it to DELIVERED", async () => {
  const { customer, order } = await codOrder(shop, [item(shop, 'atta', 2)])
  const parcel = await shippedWithShiprocket(order.id)
  await track(parcel.awb, 18, 17, 7)
  assert.equal((await customerOrder(customer, order.id)).status, 'DELIVERED')

  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/returns',
    headers: customerHeaders(customer),
    payload: { orderId: order.id, reason: 'Damaged', detail: 'Both bags were torn', requestedResolution: 'WALLET_CREDIT', items: [{ orderItemId: lineOf(shop, order, 'atta'), quantity: 2, reason: 'Torn' }] },
  })
  assert.equal(created.statusCode, 201, created.body)
  const id = created.json().data.id
  for (const status of ['UNDER_REVIEW', 'APPROVED']) assert.equal((await admin('POST', `/returns/${id}/status`, { status })).statusCode, 200)
  const before = await stockOf(t, shop.ids['atta']!)

  standIn.requests.length = 0
  const booked = await admin('POST', `/returns/${id}/pickup`, { weightGrams: 10_000 })
  assert.equal(booked.statusCode, 200, booked.body)
  const pickup = booked.json().data.pickup
  assert.deepEqual([pickup.direction, pickup.returnId, pickup.carrier, pickup.status], ['REVERSE', id, 'shiprocket', 'CREATED'])
  assert.equal(pickup.trackingUrl, `https://shiprocket.co/tracking/${pickup.awb}`)
  assert.deepEqual(
    calls().filter((c) => c.startsWith('POST')),
    ['POST /v1/external/orders/create/return', 'POST /v1/external/courier/assign/awb', 'POST /v1/external/courier/generate/pickup'],
    'a return order, its AWB, its pickup: no label for a reverse parcel',
  )
  const returned = standIn.sent('POST', '/v1/external/orders/create/return')[0]!.body!
  assert.equal(returned.order_id, pickup.id)
  assert.deepEqual(
    [returned.pickup_customer_name, returned.pickup_address, returned.pickup_pincode, returned.pickup_phone, returned.shipping_pincode, returned.shipping_customer_name, returned.payment_method, returned.weight],
    ['Asha Rao', '12 MG Road', '560001', '9876543210', '560099', 'Acme Fulfilment', 'Prepaid', 10],
    "picked up at the customer's address, taken to the pickup location's",
  )
  assert.deepEqual((returned.order_items as { sku: string; units: number }[]).map((i) => [i.sku, i.units]), [['A-1', 2]])
  const assigned = standIn.sent('POST', '/v1/external/courier/assign/awb')[0]!.body!
  assert.equal(assigned.is_return, 1)
  assert.deepEqual(standIn.sent('POST', '/v1/external/courier/generate/pickup')[0]!.body, { shipment_id: [Number(assigned.shipment_id)] })
  const seenPickup = (await admin('GET', `/shipments/${pickup.id}`)).json().data
  assert.equal(seenPickup.pickup.scheduledAt, '2026-11-27T08:30:00.000Z', "Shiprocket's pickup date for the reverse parcel")
  assert.equal(seenPickup.labelUrl, null)

  const outForPickup = await scan(pickup.awb, 19, { isReturn: true }).send()
  assert.equal(outForPickup.statusCode, 200, outForPickup.body)
  assert.deepEqual(outForPickup.json().data, { received: 0, applied: 0, duplicates: 0, unknown: 0 }, 'out for pickup is no status of ours')
  const inTransit = await scan(pickup.awb, 18, { isReturn: true }).send()
  assert.deepEqual(inTransit.json().data, { received: 1, applied: 1, duplicates: 0, unknown: 0 })
  assert.equal((await admin('GET', `/returns/${id}`)).json().data.pickup.status, 'IN_TRANSIT')
  const early = await admin('POST', `/returns/${id}/quality-check`, { result: 'PASSED' })
  assert.equal(early.statusCode, 409)
  assert.equal(early.json().message, `Pickup ${pickup.awb} is IN_TRANSIT: record the check when the parcel is received`)
  const delivered = await scan(pickup.awb, 7, { isReturn: true }).send()
  assert.deepEqual(delivered.json().data, { received: 1, applied: 1, duplicates: 0, unknown: 0 })
  const back = (await admin('GET', `/returns/${id}`)).json().data
  assert.equal(back.pickup.status, 'DELIVERED', 'back at the warehouse')
  assert.deepEqual(back.pickup.events.map((e: { status: string }) => e.status), ['IN_TRANSIT', 'DELIVERED'])
  assert.equal((await customerOrder(customer, order.id)).status, 'DELIVERED', 'a reverse parcel moves no order')

  const checked = await admin('POST', `/returns/${id}/quality-check`, { result: 'PASSED', note: 'Sealed' })
  assert.equal(checked.statusCode, 200, checked.body)
  assert.equal(await stockOf(t, shop.ids['atta']!), before + 2, 'received and checked: back in stock')
})

test("an RTO recorded by hand, then Shiprocket's RTO scans (9, its RTO in transit 46, 10): each answered 200, the parcel back, nothing settled twice, a resent scan a duplicate", async () => {
  const { customer, order } = await codOrder(shop, [item(shop, 'atta')])
  const before = await stockOf(t, shop.ids['atta']!)
  const parcel = await shippedWithShiprocket(order.id)
  await track(parcel.awb, 18, 21)
  assert.equal((await customerOrder(customer, order.id)).status, 'DELIVERY_FAILED')
  const byHand = await admin('POST', `/orders/${order.id}/status`, { status: 'RTO', note: 'Shiprocket says it is coming back' })
  assert.equal(byHand.statusCode, 200, byHand.body)
  assert.equal(byHand.json().data.status, 'RTO')
  assert.equal(await stockOf(t, shop.ids['atta']!), before + 1)

  const initiated = await scan(parcel.awb, 9).send()
  assert.equal(initiated.statusCode, 200, initiated.body)
  assert.deepEqual(initiated.json().data, { received: 1, applied: 1, duplicates: 0, unknown: 0 })
  assert.equal((await admin('GET', `/shipments/${parcel.id}`)).json().data.status, 'RTO_INITIATED')
  const onTheWay = await scan(parcel.awb, 46).send()
  assert.equal(onTheWay.statusCode, 200, onTheWay.body)
  assert.deepEqual(onTheWay.json().data, { received: 1, applied: 0, duplicates: 0, unknown: 0 }, 'RTO in transit is the same status of ours: recorded, not a move')
  const rtoDelivered = scan(parcel.awb, 10)
  const backAtWarehouse = await rtoDelivered.send()
  assert.equal(backAtWarehouse.statusCode, 200, backAtWarehouse.body)
  assert.deepEqual(backAtWarehouse.json().data, { received: 1, applied: 1, duplicates: 0, unknown: 0 })
  const resent = await rtoDelivered.send()
  assert.equal(resent.statusCode, 200, resent.body)
  assert.deepEqual(resent.json().data, { received: 1, applied: 0, duplicates: 1, unknown: 0 }, 'the same callback again')

  const shipment = (await admin('GET', `/shipments/${parcel.id}`)).json().data
  assert.equal(shipment.status, 'RTO_DELIVERED')
  assert.deepEqual(
    shipment.events.map((e: { status: string; applied: boolean }) => [e.status, e.applied]),
    [['IN_TRANSIT', true], ['DELIVERY_FAILED', true], ['RTO_INITIATED', true], ['RTO_INITIATED', false], ['RTO_DELIVERED', true]],
  )
  const seen = await customerOrder(customer, order.id)
  assert.deepEqual([seen.status, seen.paymentStatus, seen.refunds.length], ['RTO', 'COD_PENDING', 0], 'nothing was collected, nothing is refunded')
  assert.equal(await stockOf(t, shop.ids['atta']!), before + 1, 'stock came back once')
  assert.equal((await events(order.id, 'order.status_changed')).filter((e) => (e.data as { status: string }).status === 'RTO').length, 1, 'one move to RTO')
})

test("a failed delivery reported by Shiprocket (21, with the courier's reason) is re-attempted through Shiprocket's NDR API with a date, an address line and a phone; then delivered", async () => {
  const { customer, order } = await codOrder(shop, [item(shop, 'earbuds')])
  const parcel = await shippedWithShiprocket(order.id)
  await track(parcel.awb, 18, 17)
  const failed = await scan(parcel.awb, 21, { note: 'Customer not available at the address' }).send()
  assert.deepEqual(failed.json().data, { received: 1, applied: 1, duplicates: 0, unknown: 0 })
  const undelivered = (await admin('GET', `/shipments/${parcel.id}`)).json().data
  assert.equal(undelivered.status, 'DELIVERY_FAILED')
  const last = undelivered.events.at(-1)
  assert.deepEqual([last.status, last.note, last.location, last.refused], ['DELIVERY_FAILED', 'Customer not available at the address', 'Bengaluru_MGRoad_D (Karnataka)', false])
  assert.equal((await customerOrder(customer, order.id)).status, 'DELIVERY_FAILED')

  const reattempt = { action: 'REATTEMPT', deferredDate: '2026-11-25', addressLine: 'Flat 4B, 12 MG Road', phone: '+91 98765 43210', note: 'Call before coming' }
  const ndrPath = `/v1/external/ndr/${parcel.awb}/action`
  standIn.override = (request) => (request.path === ndrPath ? { status: 500, body: { message: 'Server Error', status_code: 500 } } : null)
  const down = await admin('POST', `/shipments/${parcel.id}/ndr`, reattempt)
  standIn.override = null
  assert.equal(down.statusCode, 503)
  assert.equal(down.json().message, `The carrier shiprocket could not take the re-attempt of shipment ${parcel.awb}; try again`)
  assert.deepEqual((await admin('GET', `/shipments/${parcel.id}`)).json().data.ndrActions, [], 'nothing kept while Shiprocket is down')

  standIn.requests.length = 0
  const asked = await admin('POST', `/shipments/${parcel.id}/ndr`, reattempt)
  assert.equal(asked.statusCode, 200, asked.body)
  assert.deepEqual(calls(), [`POST ${ndrPath}`])
  assert.deepEqual(standIn.sent('POST', ndrPath)[0]!.body, { action: 're-attempt', comments: 'Call before coming', deferred_date: '2026-11-25', address1: 'Flat 4B, 12 MG Road', phone: '9876543210' })
  assert.deepEqual(
    asked.json().data.ndrActions.map(({ at: _at, requestedBy, ...a }: { at: string; requestedBy: string }) => ({ ...a, by: requestedBy.split(':')[0] })),
    [{ action: 'REATTEMPT', deferredDate: '2026-11-25', addressLine: 'Flat 4B, 12 MG Road', phone: '9876543210', note: 'Call before coming', by: 'ADMIN' }],
  )
  assert.equal(asked.json().data.status, 'DELIVERY_FAILED', 'the parcel moves with its next scans')

  await track(parcel.awb, 17, 7)
  const seen = await customerOrder(customer, order.id)
  assert.deepEqual([seen.status, seen.paymentStatus], ['DELIVERED', 'PAID'])
  assert.deepEqual(seen.statusHistory.map((h: { status: string }) => h.status).slice(-3), ['DELIVERY_FAILED', 'OUT_FOR_DELIVERY', 'DELIVERED'])
  const late = await admin('POST', `/shipments/${parcel.id}/ndr`, { action: 'RTO' })
  assert.equal(late.statusCode, 409)
  assert.equal(late.json().message, `Shipment ${parcel.awb} is DELIVERED: a non-delivery action is for a parcel whose delivery failed (DELIVERY_FAILED)`)
})

test("a COD parcel Shiprocket reports refused at the door counts against maxRefusedDeliveries apart from RTOs: that customer's next COD order is refused (400), another's whose parcel came back unrefused is accepted", async () => {
  const own = await givenShop(t)
  const saved = await asOwner('PUT', `/partners/${own.partner.partnerId}/cod-rules`, { maxRefusedDeliveries: 1, refusedWindowDays: 30 })
  assert.equal(saved.statusCode, 200, saved.body)
  assert.deepEqual([saved.json().data.maxRefusedDeliveries, saved.json().data.refusedWindowDays, saved.json().data.rtoLimit], [1, 30, null])

  const { customer: refuser, order: refused } = await codOrder(own, [item(own, 'earbuds')])
  const { customer: absent, order: missed } = await codOrder(own, [item(own, 'earbuds')])
  for (const [order, note, isRefusal] of [[refused, 'Consignee refused to accept the shipment', true], [missed, 'Consignee not available', false]] as const) {
    const parcel = await shippedWithShiprocket(order.id)
    await track(parcel.awb, 18, 17)
    const failed = await scan(parcel.awb, 21, { note }).send()
    assert.deepEqual(failed.json().data, { received: 1, applied: 1, duplicates: 0, unknown: 0 })
    await track(parcel.awb, 9, 10)
    const back = (await admin('GET', `/shipments/${parcel.id}`)).json().data
    assert.equal(back.status, 'RTO_DELIVERED')
    assert.deepEqual(
      back.events.filter((e: { status: string }) => e.status === 'DELIVERY_FAILED').map((e: { note: string; refused: boolean }) => [e.note, e.refused]),
      [[note, isRefusal]],
    )
    assert.equal((await t.deps.database.db.query.orders.findFirst({ where: (o, { eq }) => eq(o.id, order.id) }))!.status, 'RTO')
  }

  const next = await placeOrder(t, refuser, { items: [item(own, 'atta')], shippingAddress: ADDRESS, paymentMode: 'COD' })
  assert.equal(next.statusCode, 400, next.body)
  assert.equal(next.json().message, 'Cash on delivery is not available after 1 refused delivery in 30 days')
  const other = await placeOrder(t, absent, { items: [item(own, 'atta')], shippingAddress: ADDRESS, paymentMode: 'COD' })
  assert.equal(other.statusCode, 201, `an RTO without a refusal is not counted: ${other.body}`)
  assert.equal((await asOwner('PUT', `/partners/${own.partner.partnerId}/cod-rules`, {})).statusCode, 200, 'rules cleared')
})

test('a parcel Shiprocket reports lost (12) goes LOST with its event and moves no order; two concurrent RESHIPs: one applied, the other 409, stock taken once; the new parcel is delivered', async () => {
  const { customer, order } = await codOrder(shop, [item(shop, 'hot', 2)])
  const before = await stockOf(t, shop.ids['hot']!)
  const parcel = await shippedWithShiprocket(order.id)
  await track(parcel.awb, 18)
  const lost = await scan(parcel.awb, 12).send()
  assert.deepEqual(lost.json().data, { received: 1, applied: 1, duplicates: 0, unknown: 0 })
  const shown = (await admin('GET', `/shipments/${parcel.id}`)).json().data
  assert.deepEqual([shown.status, shown.resolution, shown.events.at(-1).status, shown.events.at(-1).applied], ['LOST', null, 'LOST', true])
  assert.ok((await events(order.id, 'shipment.updated')).some((e) => e.data.status === 'LOST' && e.data.from === 'IN_TRANSIT'), 'a shipment.updated event of the loss')
  assert.equal((await customerOrder(customer, order.id)).status, 'SHIPPED', 'a lost parcel moves no order: the back office decides')

  const body = { action: 'RESHIP', note: 'Claim filed with Shiprocket' }
  const answers = await Promise.all([admin('POST', `/shipments/${parcel.id}/resolve`, body), admin('POST', `/shipments/${parcel.id}/resolve`, body)])
  assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 409], answers.map((a) => a.body).join('\n'))
  const won = answers.find((a) => a.statusCode === 200)!.json().data
  assert.deepEqual([won.status, won.resolution.action, won.resolution.note], ['LOST', 'RESHIP', 'Claim filed with Shiprocket'])
  assert.equal(answers.find((a) => a.statusCode === 409)!.json().message, `Shipment ${parcel.awb} was already resolved (RESHIP at ${won.resolution.at})`)
  assert.equal(await stockOf(t, shop.ids['hot']!), before - 2, 'the units sent again come out of stock, once')
  assert.equal((await events(order.id, 'shipment.updated')).filter((e) => e.data.resolution !== undefined).length, 1, 'resolved once')

  const again = await shippedWithShiprocket(order.id)
  assert.deepEqual(again.items, [{ orderItemId: lineOf(shop, order, 'hot'), quantity: 2 }])
  const sent = standIn.sent('POST', '/v1/external/orders/create/adhoc').find((r) => r.body!.order_id === again.id)!.body!
  assert.equal(sent.payment_method, 'COD', 'the new parcel collects the cash the lost one would have')
  await track(again.awb, 18, 7)
  const seen = await customerOrder(customer, order.id)
  assert.deepEqual([seen.status, seen.paymentStatus], ['DELIVERED', 'PAID'])
  const found = await scan(parcel.awb, 7).send()
  assert.equal(found.statusCode, 200)
  assert.equal(found.json().data.applied, 0, 'a resolved parcel found later is recorded, not applied')
})

test("a zone's rule naming the sandbox books the zone's parcels there instead of with Shiprocket (the default); a booking naming Shiprocket goes with it; the rule removed, Shiprocket again", async () => {
  const zone = (await asOwner('GET', `/delivery-zones?search=${ADDRESS.pincode}`)).json().data[0]
  assert.ok(zone?.id, 'the zone of 560001')
  const saved = await asOwner('PUT', `/fulfilment/zone-rules/${zone.id}`, { carrier: 'sandbox', courierRule: null })
  assert.equal(saved.statusCode, 200, saved.body)
  try {
    const { order } = await codOrder(shop, [item(shop, 'earbuds')])
    assert.deepEqual((await admin('POST', `/orders/${order.id}/shipping-rates`, {})).json().data.zoneRule, { zoneId: zone.id, zoneName: zone.name, carrier: 'sandbox', courierRule: null })
    standIn.requests.length = 0
    const booked = await ship(order.id, {})
    assert.equal(booked.statusCode, 201, booked.body)
    assert.deepEqual([booked.json().data.carrier, booked.json().data.courierName], ['sandbox', 'Sandbox Express'], "the zone's carrier, its courier as the carrier recommends")
    assert.match(booked.json().data.awb, /^SBX\d{13}$/)
    assert.deepEqual(calls().filter((c) => c.startsWith('POST')), [], 'nothing booked with Shiprocket')

    const { order: named } = await codOrder(shop, [item(shop, 'earbuds')])
    const withShiprocket = await ship(named.id, { carrier: 'shiprocket' })
    assert.equal(withShiprocket.statusCode, 201, withShiprocket.body)
    assert.equal(withShiprocket.json().data.carrier, 'shiprocket', 'a booking that names its carrier goes as it names')
  } finally {
    assert.equal((await asOwner('DELETE', `/fulfilment/zone-rules/${zone.id}`)).statusCode, 200)
  }
  const { order: later } = await codOrder(shop, [item(shop, 'earbuds')])
  assert.equal((await shippedWithShiprocket(later.id)).carrier, 'shiprocket', 'the rule removed: the default again')
})
