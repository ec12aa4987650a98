// Races and faults around order creation: hot-SKU oversell, one key in flight many times, a fault
// before commit, reservation expiry with two sweepers, and other tenants' orders.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { sql } from 'drizzle-orm'
import { ManualClock } from '../../src/lib/clock.ts'
import { createCoupon } from '../../src/modules/checkout/coupons.ts'
import { ledgerBalances } from '../../src/modules/ledgers/ledger.ts'
import { createPaymentProvider } from '../../src/modules/payments/providers/index.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenCustomer, givenPartner } from '../helpers/factories.ts'
import { ADDRESS, credit, givenShop, placeOrder, sandboxAction, type Shop, stockOf } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop

before(async () => {
  t = await createTestApp({ clock, env: { RATE_LIMIT_MAX: '100000', RATE_LIMIT_AUTH_MAX: '100000' } })
  shop = await givenShop(t, { hotStock: 50 })
})
after(() => t.close())

const item = (slug: string, quantity = 1) => ({ productId: shop.ids[slug]!, quantity })
const db = () => t.deps.database.db
const ordersOf = async (userId: string) => (await db().query.orders.findMany({ where: (o, { eq }) => eq(o.userId, userId) })).length

describe('stock under concurrency', () => {
  test('200 concurrent orders for a product with stock 50: exactly 50 succeed, stock ends at 0', async () => {
    const customers = await Promise.all(Array.from({ length: 200 }, () => givenCustomer(t.app, shop.partner)))
    const results = await Promise.all(customers.map((c) => placeOrder(t, c, { items: [item('hot')], shippingAddress: ADDRESS, paymentMode: 'COD' })))
    const statuses = results.map((r) => r.statusCode)
    assert.equal(statuses.filter((s) => s === 201).length, 50)
    assert.equal(statuses.filter((s) => s === 409).length, 150, `unexpected statuses: ${[...new Set(statuses)]}`)
    for (const r of results.filter((r) => r.statusCode === 409)) assert.match(r.json().message, /is out of stock: 1 requested, 0 available/)
    assert.equal(await stockOf(t, shop.ids.hot!), 0)
  })

  test('a product that sold out sells again as soon as stock comes back: only requests already waiting when it sold out are refused without a look', async () => {
    // The test above left this process's sighting of the sold-out product behind it.
    assert.equal(await stockOf(t, shop.ids.hot!), 0)
    const [late, later] = await Promise.all([givenCustomer(t.app, shop.partner), givenCustomer(t.app, shop.partner)])
    const refused = await placeOrder(t, late, { items: [item('hot')], shippingAddress: ADDRESS, paymentMode: 'COD' })
    assert.equal(refused.statusCode, 409)
    await db().execute(sql`update products set stock = 1 where id = ${shop.ids.hot!}`)
    const sold = await placeOrder(t, later, { items: [item('hot')], shippingAddress: ADDRESS, paymentMode: 'COD' })
    assert.equal(sold.statusCode, 201, sold.body)
    assert.equal(await stockOf(t, shop.ids.hot!), 0)
  })
})

describe('idempotency', () => {
  test('same key and body: the stored answer again, with idempotent-replayed, and nothing new', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const stock = await stockOf(t, shop.ids.atta!)
    const body = { items: [item('atta')], shippingAddress: ADDRESS, paymentMode: 'COD' }
    const first = await placeOrder(t, customer, body, 'key-1')
    assert.equal(first.statusCode, 201)
    assert.equal(first.headers['idempotent-replayed'], undefined)
    // Property order does not matter: the fingerprint is over canonical JSON.
    const reordered = { paymentMode: 'COD', shippingAddress: Object.fromEntries(Object.entries(ADDRESS).reverse()), items: [item('atta')] }
    const second = await placeOrder(t, customer, reordered, 'key-1')
    assert.equal(second.statusCode, 201)
    assert.equal(second.headers['idempotent-replayed'], 'true')
    assert.deepEqual(second.json(), first.json())
    assert.equal(await stockOf(t, shop.ids.atta!), stock - 1)
    assert.equal(await ordersOf(customer.userId), 1)
  })

  test('same key, another body: 409 with the documented message; another customer may use the same key', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    assert.equal((await placeOrder(t, customer, { items: [item('atta')], shippingAddress: ADDRESS }, 'shared')).statusCode, 201)
    const changed = await placeOrder(t, customer, { items: [item('atta', 2)], shippingAddress: ADDRESS }, 'shared')
    assert.equal(changed.statusCode, 409)
    assert.equal(changed.json().message, 'Checkout idempotency key has already been used with a different payload')
    const someoneElse = await givenCustomer(t.app, shop.partner)
    assert.equal((await placeOrder(t, someoneElse, { items: [item('atta', 2)], shippingAddress: ADDRESS }, 'shared')).statusCode, 201)
    assert.equal(await ordersOf(customer.userId), 1)
  })

  test('one key and one body from A1, A2 of one partner and B1 of another: three orders, each its own stored answer', async () => {
    // Partner B sells the same catalog, so the very same body is valid for all three.
    const partnerB = await givenPartner(t.deps, `Partner B ${randomUUID()}`, shop.catalogId)
    const customers = [await givenCustomer(t.app, shop.partner), await givenCustomer(t.app, shop.partner), await givenCustomer(t.app, partnerB)]
    const body = { items: [item('atta')], shippingAddress: ADDRESS, paymentMode: 'COD' }
    const key = `di08-${randomUUID()}`
    const first = await Promise.all(customers.map((c) => placeOrder(t, c, body, key)))
    for (const r of first) {
      assert.equal(r.statusCode, 201, r.body)
      assert.equal(r.headers['idempotent-replayed'], undefined)
    }
    const ids = first.map((r) => r.json().data.id as string)
    assert.equal(new Set(ids).size, 3)
    for (const [i, c] of customers.entries()) {
      const row = (await db().query.orders.findFirst({ where: (o, { eq }) => eq(o.id, ids[i]!) }))!
      assert.deepEqual([row.userId, row.partnerId], [c.userId, c.partnerId])
      assert.equal(first[i]!.json().data.partnerId, c.partnerId)
      const replay = await placeOrder(t, c, body, key)
      assert.equal(replay.statusCode, 201, replay.body)
      assert.equal(replay.headers['idempotent-replayed'], 'true')
      assert.equal(replay.body, first[i]!.body, 'each principal gets back only its own stored answer')
      assert.equal(await ordersOf(c.userId), 1)
    }
  })

  test('50 concurrent identical requests with one key: one order, one reservation, one ledger debit', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    await credit(t, clock, customer, 'WALLET_CASH', 50_000n)
    const stock = await stockOf(t, shop.ids.earbuds!)
    const body = { items: [item('earbuds')], shippingAddress: ADDRESS, useWalletCash: true }
    const results = await Promise.all(Array.from({ length: 50 }, () => placeOrder(t, customer, body, 'same-key')))
    const ok = results.filter((r) => r.statusCode === 201)
    const busy = results.filter((r) => r.statusCode === 409)
    assert.equal(ok.length + busy.length, 50, `statuses: ${results.map((r) => r.statusCode)}`)
    for (const r of busy) assert.equal(r.json().message, 'A request with this x-idempotency-key is still in progress; retry in a moment')
    assert.ok(ok.length >= 1)
    assert.equal(new Set(ok.map((r) => r.json().data.id)).size, 1)
    assert.equal(await ordersOf(customer.userId), 1)
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 1)
    const debits = await db().query.ledgerEntries.findMany({ where: (e, { and, eq }) => and(eq(e.userId, customer.userId), eq(e.reason, 'ORDER_PAYMENT')) })
    assert.equal(debits.length, 1)
    assert.equal((await ledgerBalances(db(), customer.userId)).walletCash, 0n)
  })

  test('a fault after the order insert and before commit: 500, nothing written, then the retry with the key succeeds', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const stock = await stockOf(t, shop.ids.atta!)
    // A real database fault on the transaction's last write (the outbox event), once.
    const statements = [
      'create table if not exists test_faults (user_id text primary key)',
      // A sequence is not rolled back with the failed transaction: the fault fires once.
      'create sequence if not exists test_fault_seq',
      `create or replace function test_fault() returns trigger language plpgsql as $$
       begin
         if exists (select 1 from orders o join test_faults f on f.user_id = o.user_id where o.id = new.subject_id)
            and nextval('test_fault_seq') = 1 then
           raise exception 'injected fault';
         end if;
         return new;
       end $$`,
      'drop trigger if exists test_fault on outbox_events',
      'create trigger test_fault before insert on outbox_events for each row execute function test_fault()',
      `insert into test_faults values ('${customer.userId}')`,
    ]
    for (const statement of statements) await db().execute(sql.raw(statement))
    const body = { items: [item('atta')], shippingAddress: ADDRESS, paymentMode: 'COD' }
    const failed = await placeOrder(t, customer, body, 'faulty')
    assert.equal(failed.statusCode, 500)
    assert.equal(await ordersOf(customer.userId), 0)
    assert.equal(await stockOf(t, shop.ids.atta!), stock)
    const retried = await placeOrder(t, customer, body, 'faulty')
    assert.equal(retried.statusCode, 201, retried.body)
    assert.equal(retried.headers['idempotent-replayed'], undefined)
    assert.equal(await ordersOf(customer.userId), 1)
    assert.equal(await stockOf(t, shop.ids.atta!), stock - 1)
    await db().execute(sql.raw('drop trigger if exists test_fault on outbox_events'))
  })

  test('a replay answers the stored order even when the order could not be placed again (the product sold out)', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const body = { items: [item('atta', await stockOf(t, shop.ids.atta!))], shippingAddress: ADDRESS, paymentMode: 'COD' }
    const first = await placeOrder(t, customer, body, 'sell-out')
    assert.equal(first.statusCode, 201, first.body)
    assert.equal(await stockOf(t, shop.ids.atta!), 0)
    const replay = await placeOrder(t, customer, body, 'sell-out')
    assert.equal(replay.statusCode, 201, replay.body)
    assert.equal(replay.headers['idempotent-replayed'], 'true')
    assert.equal(replay.body, first.body)
    assert.equal(await ordersOf(customer.userId), 1)
    // Give the stock back for the tests that follow.
    const cancelled = await t.app.inject({ method: 'POST', url: `/api/v1/orders/${first.json().data.id}/cancel`, headers: customerHeaders(customer), payload: { reason: 'test' } })
    assert.equal(cancelled.statusCode, 200, cancelled.body)
  })

  test('keys are kept 24 hours; after that the key can be used again', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    assert.equal((await placeOrder(t, customer, { items: [item('atta')], shippingAddress: ADDRESS, paymentMode: 'COD' }, 'daily')).statusCode, 201)
    clock.advance(23 * 3_600_000)
    let fresh = await givenCustomer(t.app, shop.partner, { phone: customer.phone })
    assert.equal((await placeOrder(t, fresh, { items: [item('atta', 2)], shippingAddress: ADDRESS, paymentMode: 'COD' }, 'daily')).statusCode, 409)
    clock.advance(2 * 3_600_000)
    fresh = await givenCustomer(t.app, shop.partner, { phone: customer.phone })
    const reused = await placeOrder(t, fresh, { items: [item('atta', 2)], shippingAddress: ADDRESS, paymentMode: 'COD' }, 'daily')
    assert.equal(reused.statusCode, 201)
    assert.equal(reused.headers['idempotent-replayed'], undefined)
    assert.equal(await ordersOf(customer.userId), 2)
  })
})

describe('reservation expiry', () => {
  test('two sweepers at once release everything exactly once, and never cancel a paid order', async () => {
    await createCoupon(db(), shop.partner.partnerId, { code: `SWEEP${randomUUID().slice(0, 6)}`.toUpperCase(), kind: 'FLAT', value: 500n }, clock.now())
    const coupon = (await db().query.coupons.findMany({ where: (c, { like }) => like(c.code, 'SWEEP%') }))[0]!
    const customers: CustomerFixture[] = []
    const orders: { id: string; paymentClientAction: { payload: { sessionId: string } } }[] = []
    const stock = await stockOf(t, shop.ids.earbuds!)
    for (let i = 0; i < 6; i++) {
      const customer = await givenCustomer(t.app, shop.partner)
      await credit(t, clock, customer, 'WALLET_CASH', 10_000n)
      await credit(t, clock, customer, 'REWARD_POINTS', 20n)
      customers.push(customer)
      const res = await placeOrder(t, customer, { items: [item('earbuds')], shippingAddress: ADDRESS, couponCode: coupon.code, useWalletCash: true, useRewardPoints: true })
      assert.equal(res.statusCode, 201, res.body)
      orders.push(res.json().data)
    }
    // The last one pays just before the reservation ends.
    clock.advance(29 * 60_000)
    assert.equal((await sandboxAction(t, orders[5]!.paymentClientAction, 'pay')).json().data.orderStatus, 'CONFIRMED')
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 6)
    clock.advance(2 * 60_000)

    const due = await db().query.orders.findMany({ where: (o, { and, eq, lte }) => and(eq(o.status, 'PENDING_PAYMENT'), lte(o.reservationExpiresAt, clock.now())) })
    assert.ok(due.length >= 5, 'earlier tests may leave unpaid orders too')
    const beforeSweep = await stockOf(t, shop.ids.earbuds!)
    const [a, b] = await Promise.all([t.app.payments.sweepExpiredReservations(), t.app.payments.sweepExpiredReservations()])
    assert.equal(a + b, due.length)
    assert.equal(await t.app.payments.sweepExpiredReservations(), 0)
    const dueEarbuds = await db().query.orderItems.findMany({
      where: (i, { and, eq, inArray }) => and(inArray(i.orderId, due.map((o) => o.id)), eq(i.productId, shop.ids.earbuds!)),
    })
    assert.equal(dueEarbuds.filter((i) => orders.slice(0, 5).some((o) => o.id === i.orderId)).length, 5)
    assert.equal(await stockOf(t, shop.ids.earbuds!), beforeSweep + dueEarbuds.reduce((sum, i) => sum + i.quantity, 0))
    const usedCount = (await db().query.coupons.findFirst({ where: (c, { eq }) => eq(c.id, coupon.id) }))!.usedCount
    assert.equal(usedCount, 1)
    for (const [i, customer] of customers.entries()) {
      const balances = await ledgerBalances(db(), customer.userId)
      if (i === 5) assert.deepEqual(balances, { walletCash: 0n, rewardPoints: 0n })
      else assert.deepEqual(balances, { walletCash: 10_000n, rewardPoints: 20n }, `customer ${i}`)
      const order = await db().query.orders.findFirst({ where: (o, { eq }) => eq(o.id, orders[i]!.id) })
      assert.equal(order!.status, i === 5 ? 'CONFIRMED' : 'CANCELLED')
    }
    const history = await db().query.orderStatusHistory.findMany({ where: (h, { eq }) => eq(h.orderId, orders[0]!.id) })
    assert.deepEqual(history.map((h) => [h.toStatus, h.actor]), [['PENDING_PAYMENT', 'CUSTOMER'], ['CANCELLED', 'SYSTEM']])
    const payment = await db().query.payments.findFirst({ where: (p, { eq }) => eq(p.orderId, orders[0]!.id) })
    assert.equal(payment!.status, 'EXPIRED')
  })
})

describe('cancel, sweeper and a late success at the same moment', () => {
  test('20 expired prepaid orders: stock back exactly once, one terminal state, a success that lost is refunded once', async () => {
    // A shop of its own, so the stock counted here is only these orders'.
    const own = await givenShop(t)
    const sandbox = createPaymentProvider(t.deps.config).sandbox!
    const start = await stockOf(t, own.ids.earbuds!)
    const placed: { customer: CustomerFixture; order: { id: string; paymentClientAction: { payload: { sessionId: string } } } }[] = []
    // One minute apart, so each round below has exactly one of them past its reservation.
    for (let i = 0; i < 20; i++) {
      const customer = await givenCustomer(t.app, own.partner)
      const res = await placeOrder(t, customer, { items: [{ productId: own.ids.earbuds!, quantity: 1 }], shippingAddress: ADDRESS })
      assert.equal(res.statusCode, 201, res.body)
      placed.push({ customer, order: res.json().data })
      clock.advance(60_000)
    }
    assert.equal(await stockOf(t, own.ids.earbuds!), start - 20)
    clock.advance(10 * 60_000 + 30_000)
    for (const [i, { customer, order }] of placed.entries()) {
      // Signed in again: the first token has expired by now.
      const headers = customerHeaders(await givenCustomer(t.app, own.partner, { phone: customer.phone }))
      // The provider's signed success, as the sandbox checkout page sends it, made before the race.
      const paid = sandbox.signedEvent(sandbox.eventFor('pay', { sessionId: order.paymentClientAction.payload.sessionId, amount: 100_000n, currency: 'INR' }))
      const racers = [
        async () => {
          const r = await t.app.inject({ method: 'POST', url: `/api/v1/orders/${order.id}/cancel`, headers, payload: { reason: 'race' } })
          assert.ok([200, 409].includes(r.statusCode), `cancel: ${r.body}`)
        },
        async () => {
          await t.app.payments.sweepExpiredReservations()
        },
        async () => {
          const r = await t.app.inject({ method: 'POST', url: '/api/v1/payments/webhooks/sandbox', headers: paid.headers as Record<string, string>, payload: paid.rawBody })
          assert.equal(r.statusCode, 200, r.body)
        },
      ]
      // Each of the three goes first in turn.
      await Promise.all([0, 1, 2].map((k) => racers[(i + k) % 3]!()))
      clock.advance(60_000)
    }
    assert.equal(await t.app.payments.sweepExpiredReservations(), 0)

    let confirmed = 0
    for (const { order } of placed) {
      const row = (await db().query.orders.findFirst({ where: (o, { eq }) => eq(o.id, order.id) }))!
      assert.ok(['CONFIRMED', 'CANCELLED'].includes(row.status), `${order.id}: ${row.status}`)
      const history = await db().query.orderStatusHistory.findMany({ where: (h, { eq }) => eq(h.orderId, order.id) })
      assert.ok(history.filter((h) => h.toStatus === 'CANCELLED').length <= 1, `${order.id} cancelled twice`)
      assert.ok(history.filter((h) => h.toStatus === 'CONFIRMED').length <= 1, `${order.id} confirmed twice`)
      assert.equal(history.some((h) => h.toStatus === 'CANCELLED'), row.status === 'CANCELLED', `${order.id}: history and status disagree`)
      const payments = await db().query.payments.findMany({ where: (p, { eq }) => eq(p.orderId, order.id) })
      assert.deepEqual(payments.map((p) => p.status), ['SUCCEEDED'], 'the success is always recorded')
      const refunds = await db().query.refunds.findMany({ where: (r, { eq }) => eq(r.orderId, order.id) })
      if (row.status === 'CONFIRMED') {
        confirmed++
        assert.equal(refunds.length, 0)
        assert.equal(row.paymentStatus, 'PAID')
      } else {
        // Lost the race to the cancel or the sweeper (or cancelled after it was paid): refunded once.
        assert.equal(refunds.length, 1, `${order.id}: ${refunds.length} refunds`)
        assert.equal(refunds[0]!.status, 'SUCCEEDED')
        assert.equal(refunds[0]!.amount, 100_000n)
        assert.equal(row.paymentStatus, 'REFUNDED')
      }
    }
    assert.equal(await stockOf(t, own.ids.earbuds!), start - confirmed)
  })
})

describe('tenancy', () => {
  test("another customer's or partner's order answers 404 on every order and payment route", async () => {
    const owner = await givenCustomer(t.app, shop.partner)
    const order = (await placeOrder(t, owner, { items: [item('atta')], shippingAddress: ADDRESS })).json().data
    const sameShop = await givenCustomer(t.app, shop.partner)
    const otherShop = await givenShop(t)
    const stranger = await givenCustomer(t.app, otherShop.partner)
    for (const intruder of [sameShop, stranger]) {
      const headers = { ...customerHeaders(intruder), 'x-idempotency-key': randomUUID() }
      const calls = [
        t.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers }),
        t.app.inject({ method: 'POST', url: `/api/v1/orders/${order.id}/cancel`, headers, payload: {} }),
        t.app.inject({ method: 'POST', url: `/api/v1/orders/${order.id}/payments`, headers }),
        t.app.inject({ method: 'POST', url: `/api/v1/orders/${order.id}/payments/${order.payment.id}/abandon`, headers }),
      ]
      for (const res of await Promise.all(calls)) {
        assert.equal(res.statusCode, 404, res.body)
        assert.equal(res.json().message, 'Order not found')
      }
      const list = (await t.app.inject({ method: 'GET', url: '/api/v1/orders', headers })).json()
      assert.equal(list.data.some((o: { id: string }) => o.id === order.id), false)
    }
    const owned = await t.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: customerHeaders(owner) })
    assert.equal(owned.json().data.status, 'PENDING_PAYMENT', 'nothing the intruders did changed the order')
    const wrongPayment = await t.app.inject({ method: 'POST', url: `/api/v1/orders/${order.id}/payments/pay_nope/abandon`, headers: customerHeaders(owner) })
    assert.equal(wrongPayment.statusCode, 404)
    assert.equal(wrongPayment.json().message, 'Payment not found')
  })
})
