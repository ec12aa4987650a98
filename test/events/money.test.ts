// Money in partner events (issue #20): every amount of every event body is a rupee string with
// exactly two decimals, the same value the API answers for it (order.created used to send paise).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, credit, givenShop, placeOrder, sandboxAction, type Shop } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop
let agent: string

before(async () => {
  t = await createTestApp({ clock })
  shop = await givenShop(t)
  agent = await givenAdminToken(t.app, t.deps, 'money@events.test', 'ADMIN')
})
after(() => t.close())

const RUPEES = /^\d+\.\d{2}$/
const call = (customer: CustomerFixture, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: customerHeaders(customer), payload })
const admin = (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${agent}` }, payload })
const eventsOf = (subjectIds: string[]) =>
  t.deps.database.db.query.outboxEvents.findMany({ where: (e, { inArray }) => inArray(e.subjectId, subjectIds), orderBy: (e, { asc }) => [asc(e.createdAt), asc(e.id)] })

/** Every money field of every event (a key naming an amount): each a two-decimal rupee string. */
function moneyFields(events: { type: string; data: unknown }[]) {
  const found: { type: string; field: string; value: unknown }[] = []
  for (const e of events) {
    for (const [field, value] of Object.entries(e.data as Record<string, unknown>)) if (/amount/i.test(field)) found.push({ type: e.type, field, value })
  }
  for (const f of found) assert.match(String(f.value), RUPEES, `${f.type}.${f.field} = ${JSON.stringify(f.value)}`)
  for (const f of found) assert.equal(typeof f.value, 'string', `${f.type}.${f.field} is a string`)
  return found
}
const dataOf = (events: { type: string; data: unknown }[], type: string) => events.filter((e) => e.type === type).map((e) => e.data as Record<string, string>)

describe('money in partner events', () => {
  test('a prepaid order placed, paid and cancelled: order.created, payment.succeeded and refund.succeeded carry rupees equal to the API', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const placed = await placeOrder(t, customer, { items: [{ productId: shop.ids.earbuds!, quantity: 1 }, { productId: shop.ids.atta!, quantity: 1 }], shippingAddress: ADDRESS })
    assert.equal(placed.statusCode, 201, placed.body)
    const created = placed.json().data
    assert.equal((await sandboxAction(t, created.paymentClientAction, 'pay')).statusCode < 400, true)
    assert.equal((await call(customer, 'POST', `/orders/${created.id}/cancel`, { reason: 'Changed my mind' })).statusCode, 200)
    const view = (await call(customer, 'GET', `/orders/${created.id}`)).json().data

    const events = await eventsOf([created.id])
    const types = new Set(events.map((e) => e.type))
    for (const type of ['order.created', 'payment.succeeded', 'order.status_changed', 'refund.succeeded']) assert.ok(types.has(type), `${type} emitted`)
    assert.ok(moneyFields(events).length >= 4)
    const [orderCreated] = dataOf(events, 'order.created')
    assert.equal(orderCreated!.totalAmount, view.totalAmount)
    assert.equal(orderCreated!.amountPayable, view.amountPayable)
    assert.equal(dataOf(events, 'payment.succeeded')[0]!.amount, view.payment.amount)
    assert.deepEqual(dataOf(events, 'refund.succeeded').map((d) => d.amount), view.refunds.map((r: { amount: string }) => r.amount))
  })

  test('returns: a wallet-credit refund and a replacement order carry rupees equal to the API', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    await credit(t, clock, customer, 'WALLET_CASH', 20_000n)
    const placed = await placeOrder(t, customer, { items: [{ productId: shop.ids.earbuds!, quantity: 2 }], shippingAddress: ADDRESS, paymentMode: 'COD', useWalletCash: true })
    assert.equal(placed.statusCode, 201, placed.body)
    const orderId = placed.json().data.id as string
    // Every unit in a parcel first (the merchant's own delivery): an order is not SHIPPED with nothing in one.
    assert.equal((await admin(`/orders/${orderId}/shipments`, { carrier: 'manual' })).statusCode, 201)
    for (const status of ['SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) assert.equal((await admin(`/orders/${orderId}/status`, { status })).statusCode, 200)
    const order = (await call(customer, 'GET', `/orders/${orderId}`)).json().data
    const ret = (resolution: string) =>
      call(customer, 'POST', '/returns', { orderId, reason: 'r', detail: 'd', requestedResolution: resolution, items: [{ orderItemId: order.items[0].id, quantity: 1, reason: 'x' }] })
    const refundReturn = (await ret('WALLET_CREDIT')).json().data
    for (const status of ['UNDER_REVIEW', 'APPROVED']) assert.equal((await admin(`/returns/${refundReturn.id}/status`, { status })).statusCode, 200)
    const refunded = (await admin(`/returns/${refundReturn.id}/status`, { status: 'REFUND_PENDING' })).json().data
    const replaceReturn = (await ret('REPLACEMENT')).json().data
    assert.equal((await admin(`/returns/${replaceReturn.id}/status`, { status: 'UNDER_REVIEW' })).statusCode, 200)
    const replaced = (await admin(`/returns/${replaceReturn.id}/status`, { status: 'APPROVED' })).json().data

    const events = await eventsOf([orderId, refundReturn.id, replaceReturn.id, replaced.replacementOrderId])
    const types = new Set(events.map((e) => e.type))
    for (const type of ['order.created', 'order.status_changed', 'return.created', 'return.status_changed', 'refund.succeeded']) assert.ok(types.has(type), `${type} emitted`)
    moneyFields(events)
    const created = dataOf(events, 'order.created')
    const original = created.find((d) => d.orderId === orderId)!
    assert.equal(original.totalAmount, order.totalAmount)
    assert.equal(original.amountPayable, order.amountPayable)
    // The replacement is a zero-value order: zero rupees, two decimals.
    const replacement = created.find((d) => d.replacementFor === orderId)!
    assert.deepEqual([replacement.totalAmount, replacement.amountPayable], ['0.00', '0.00'])
    assert.deepEqual(dataOf(events, 'refund.succeeded').map((d) => d.amount), refunded.refunds.map((r: { amount: string }) => r.amount))
  })
})
