import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { ledgerBalances } from '../../src/modules/ledgers/ledger.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { customerHeaders, givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, sandboxAction, type Shop } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop
let other: Shop
let support: string

before(async () => {
  t = await createTestApp({ clock })
  shop = await givenShop(t)
  other = await givenShop(t)
  support = await givenAdminToken(t.app, t.deps, 'support@orders.test', 'SUPPORT')
})
after(() => t.close())

const item = (s: Shop, slug: string, quantity = 1) => ({ productId: s.ids[slug]!, quantity })
const admin = (method: 'GET' | 'POST', url: string, payload?: object, token = support) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${token}` }, payload })
const move = (orderId: string, status: string, note?: string) => admin('POST', `/orders/${orderId}/status`, { status, ...(note ? { note } : {}) })

describe('order machine in the back office', () => {
  test('a COD order goes all the way; delivery marks it paid and earns Reward Points once', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = (await placeOrder(t, customer, { items: [item(shop, 'atta', 2)], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
    // Every unit in a parcel (the merchant's own delivery): it packs the order; SHIPPED needs it.
    const parcel = await admin('POST', `/orders/${order.id}/shipments`, { carrier: 'manual' })
    assert.equal(parcel.statusCode, 201, parcel.body)
    for (const status of ['SHIPPED', 'OUT_FOR_DELIVERY']) {
      const res = await move(order.id, status)
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().data.status, status)
      assert.equal(res.json().data.paymentStatus, 'COD_PENDING')
    }
    const delivered = (await move(order.id, 'DELIVERED', 'Handed to the customer')).json().data
    assert.equal(delivered.status, 'DELIVERED')
    assert.equal(delivered.paymentStatus, 'PAID')
    assert.equal(delivered.rewardPointsEarned, 6, '1% of ₹600 at ₹1 a point')
    assert.ok(delivered.deliveredAt)
    assert.deepEqual(delivered.statusHistory.map((h: { status: string }) => h.status), ['CONFIRMED', 'PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED'])
    assert.equal(delivered.statusHistory.at(-1).actor, 'ADMIN')
    assert.equal(delivered.statusHistory.at(-1).note, 'Handed to the customer')
    assert.equal((await ledgerBalances(t.deps.database.db, customer.userId)).rewardPoints, 6n)
    const again = await move(order.id, 'DELIVERED')
    assert.equal(again.statusCode, 409)
    assert.equal((await ledgerBalances(t.deps.database.db, customer.userId)).rewardPoints, 6n)
    const events = await t.deps.database.db.query.outboxEvents.findMany({ where: (e, { and, eq }) => and(eq(e.subjectId, order.id), eq(e.type, 'order.status_changed')) })
    assert.equal(events.length, 4)
  })

  test('moves the machine does not allow answer 409 with the reason', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const cod = (await placeOrder(t, customer, { items: [item(shop, 'atta')], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
    const prepaid = (await placeOrder(t, customer, { items: [item(shop, 'atta')], shippingAddress: ADDRESS })).json().data
    const cases: [string, string, string][] = [
      [cod.id, 'DELIVERED', `Order ${cod.orderNumber} cannot move from CONFIRMED to DELIVERED`],
      [cod.id, 'PENDING_PAYMENT', `Order ${cod.orderNumber} cannot move from CONFIRMED to PENDING_PAYMENT`],
      [prepaid.id, 'CONFIRMED', `Order ${prepaid.orderNumber} is confirmed by its payment, not by hand`],
      [prepaid.id, 'SHIPPED', `Order ${prepaid.orderNumber} cannot move from PENDING_PAYMENT to SHIPPED`],
    ]
    for (const [id, status, message] of cases) {
      const res = await move(id, status)
      assert.equal(res.statusCode, 409, `${status}: ${res.body}`)
      assert.equal(res.json().message, message)
    }
    await move(cod.id, 'PACKED')
    assert.equal((await admin('POST', `/orders/${cod.id}/shipments`, { carrier: 'manual' })).statusCode, 201)
    await move(cod.id, 'SHIPPED')
    const late = await t.app.inject({ method: 'POST', url: `/api/v1/orders/${cod.id}/cancel`, headers: customerHeaders(customer), payload: {} })
    assert.equal(late.statusCode, 409)
    assert.equal(late.json().message, `Order ${cod.orderNumber} cannot be cancelled once it is SHIPPED`)
    assert.equal((await move(cod.id, 'CANCELLED')).statusCode, 409)
    assert.equal((await move('ord_missing', 'PACKED')).statusCode, 404)
    assert.equal((await move(cod.id, 'LOST')).statusCode, 400)
  })

  test('the merchant cancels a paid, packed order: refunded, with the note as reason', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = (await placeOrder(t, customer, { items: [item(shop, 'earbuds')], shippingAddress: ADDRESS })).json().data
    await sandboxAction(t, order.paymentClientAction, 'pay')
    await move(order.id, 'PACKED')
    const res = await move(order.id, 'CANCELLED', 'Damaged in the warehouse')
    assert.equal(res.statusCode, 200, res.body)
    const data = res.json().data
    assert.equal(data.status, 'CANCELLED')
    assert.equal(data.cancelReason, 'Damaged in the warehouse')
    assert.equal(data.paymentStatus, 'REFUNDED')
    assert.equal(data.refunds[0].status, 'SUCCEEDED')
    assert.deepEqual(data.payments.map((p: { status: string }) => p.status), ['SUCCEEDED'])
  })
})

describe('listing and access', () => {
  test("every partner's orders, filtered by partner, status and search", async () => {
    const a = await givenCustomer(t.app, shop.partner)
    const b = await givenCustomer(t.app, other.partner)
    const mine = (await placeOrder(t, a, { items: [item(shop, 'atta')], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
    const theirs = (await placeOrder(t, b, { items: [item(other, 'atta')], shippingAddress: { ...ADDRESS, phone: '9123456780' } })).json().data
    const byPartner = (await admin('GET', `/orders?partnerId=${other.partner.partnerId}`)).json()
    assert.ok(byPartner.data.every((o: { partnerId: string }) => o.partnerId === other.partner.partnerId))
    assert.ok(byPartner.data.some((o: { id: string }) => o.id === theirs.id))
    const byNumber = (await admin('GET', `/orders?search=${mine.orderNumber.toLowerCase()}`)).json()
    assert.deepEqual(byNumber.data.map((o: { id: string }) => o.id), [mine.id])
    const byPhone = (await admin('GET', '/orders?search=9123456780')).json()
    assert.deepEqual(byPhone.data.map((o: { id: string }) => o.id), [theirs.id])
    // A mobile as people write it, part of an order number, an order id: each finds its order.
    for (const written of ['+91 91234 56780', '09123456780', '91234-56780']) {
      const found = (await admin('GET', `/orders?search=${encodeURIComponent(written)}`)).json()
      assert.deepEqual(found.data.map((o: { id: string }) => o.id), [theirs.id], written)
    }
    const byPart = (await admin('GET', `/orders?search=${mine.orderNumber.slice(3, 9)}`)).json()
    assert.deepEqual(byPart.data.map((o: { id: string }) => o.id), [mine.id])
    const byId = (await admin('GET', `/orders?search=${theirs.id}`)).json()
    assert.deepEqual(byId.data.map((o: { id: string }) => o.id), [theirs.id])
    const pending = (await admin('GET', `/orders?status=PENDING_PAYMENT&partnerId=${other.partner.partnerId}`)).json()
    assert.deepEqual(pending.data.map((o: { id: string }) => o.id), [theirs.id])
    const weird = await admin('GET', `/orders?search=${encodeURIComponent("%_'\\")}`)
    assert.equal(weird.statusCode, 200)
    assert.equal(weird.json().meta.total, 0)
    const one = (await admin('GET', `/orders/${theirs.id}`)).json().data
    assert.equal(one.payments.length, 1)
    assert.equal(one.payments[0].status, 'PENDING')
  })

  test('refused to catalog admins, customers and anonymous callers', async () => {
    const catalogAdmin = await givenAdminToken(t.app, t.deps, 'catalog@orders.test', 'CATALOG')
    assert.equal((await admin('GET', '/orders', undefined, catalogAdmin)).statusCode, 403)
    const customer = await givenCustomer(t.app, shop.partner)
    const asCustomer = await t.app.inject({ method: 'GET', url: '/api/v1/admin/orders', headers: customerHeaders(customer) })
    assert.equal(asCustomer.statusCode, 401)
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/admin/orders' })).statusCode, 401)
  })
})
