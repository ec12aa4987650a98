// SE-06 (reliability plan 7.6, §5.1 API6), the business flows not covered by abuse.test.ts's coupon
// race: stock hoarding (unpaid prepaid orders hold stock for ORDER_RESERVATION_MINUTES, so one
// customer may hold at most MAX_UNPAID_ORDERS_PER_CUSTOMER of them, 5 by default), returning more
// units than were bought (alone and at once), and points farming (points earned on delivery go
// back with the refund, to the point, however the order is returned).
//
// Concurrency: on PostgreSQL the requests run at once on a pool of 10 and queue on the customer's
// (or the order's) row lock; PGlite serialises them, so there the figure is the same by construction.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { count, eq, inArray, sql } from 'drizzle-orm'
import { queryRows } from '../../src/db/client.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { createCatalog } from '../../src/modules/catalog/index.ts'
import { importCatalog } from '../../src/modules/catalog/import.ts'
import { ledgerBalances } from '../../src/modules/ledgers/ledger.ts'
import { ledgerEntries } from '../../src/modules/ledgers/schema.sql.ts'
import { outboxEvents } from '../../src/modules/events/schema.sql.ts'
import { idempotencyKeys, orderItems, orders } from '../../src/modules/orders/schema.sql.ts'
import { payments } from '../../src/modules/payments/schema.sql.ts'
import { seedDeliveryZones } from '../../src/modules/checkout/seed-zones.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'
import { ADDRESS, credit, placeOrder, sandboxAction } from '../helpers/shop.ts'

const CAP = 5
const CAP_MESSAGE = `Customer already has ${CAP} orders waiting for payment, the most allowed: pay or cancel one before placing another prepaid order`
const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let partner: PartnerFixture
let agent: string
const ids: Record<string, string> = {}

before(async () => {
  // Limits far above what this file sends: the requests here are about business rules, not rates.
  t = await createTestApp({ clock, env: { RATE_LIMIT_MAX: '1000000' } })
  assert.equal(t.deps.config.maxUnpaidOrdersPerCustomer, CAP, 'the default cap')
  const db = t.deps.database.db
  await seedDeliveryZones(db)
  const catalog = await createCatalog(db, `Abuse ${randomUUID()}`)
  await importCatalog(db, catalog.id, {
    categories: [{ slug: 'shoes', name: 'Shoes' }],
    products: [
      { slug: 'sneaker', name: 'Sneaker', brand: 'Campus', sku: 'S', categorySlug: 'shoes', sellingPrice: '1000.00', mrp: '1500.00', stock: 10_000 },
      // ₹533.34 a unit: 1% of 3 units (₹1,600.02) is 16 points, and a unit's share of that is 5.33.
      { slug: 'odd', name: 'Odd', brand: 'Jockey', sku: 'O', categorySlug: 'shoes', sellingPrice: '533.34', mrp: '600.00', stock: 10_000 },
    ],
  })
  for (const p of await db.query.products.findMany({ where: (p, { eq }) => eq(p.catalogId, catalog.id) })) ids[p.slug] = p.id
  partner = await givenPartner(t.deps, 'Abuse partner', catalog.id)
  agent = await givenAdminToken(t.app, t.deps, 'abuse@admin.test', 'SUPPORT')
})
after(() => t?.close())

const db = () => t.deps.database.db
const call = (customer: CustomerFixture, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: customerHeaders(customer), payload })
const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${agent}` }, payload })

const prepaid = (quantity = 1) => ({ items: [{ productId: ids.sneaker!, quantity }], shippingAddress: ADDRESS, paymentMode: 'PREPAID' })
const cod = (quantity = 1) => ({ items: [{ productId: ids.sneaker!, quantity }], shippingAddress: ADDRESS, paymentMode: 'COD' })

async function placed(customer: CustomerFixture, payload: object, key: string = randomUUID()) {
  const res = await placeOrder(t, customer, payload, key)
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as { id: string; status: string; paymentClientAction: { type: string; payload: { sessionId: string } } }
}

/** Everything an order writes, for one customer, and the product's stock. */
async function footprint(customer: CustomerFixture) {
  const mine = db().select({ id: orders.id }).from(orders).where(eq(orders.userId, customer.userId))
  const [o] = await db().select({ n: count() }).from(orders).where(eq(orders.userId, customer.userId))
  const [items] = await db().select({ n: count() }).from(orderItems).where(inArray(orderItems.orderId, mine))
  const [pays] = await db().select({ n: count() }).from(payments).where(inArray(payments.orderId, mine))
  const [keys] = await db().select({ n: count() }).from(idempotencyKeys)
  const [events] = await db().select({ n: count() }).from(outboxEvents).where(eq(outboxEvents.partnerId, partner.partnerId))
  const [ledger] = await db().select({ n: count() }).from(ledgerEntries).where(eq(ledgerEntries.userId, customer.userId))
  const product = await db().query.products.findFirst({ where: (p, { eq }) => eq(p.id, ids.sneaker!) })
  return { orders: o!.n, items: items!.n, payments: pays!.n, keys: keys!.n, events: events!.n, ledger: ledger!.n, stock: product!.stock }
}

async function unpaid(customer: CustomerFixture) {
  const [row] = await queryRows<{ orders: number; units: number }>(
    db(),
    sql`select count(distinct o.id)::int as orders, coalesce(sum(i.quantity), 0)::int as units
          from orders o join order_items i on i.order_id = o.id
         where o.user_id = ${customer.userId} and o.status = 'PENDING_PAYMENT'`,
  )
  return row!
}

function assertCapRefusal(res: { statusCode: number; body: string; json(): unknown }) {
  assert.equal(res.statusCode, 409, res.body)
  const body = res.json() as { statusCode: number; message: unknown; path: string; timestamp: string }
  assert.equal(body.statusCode, 409)
  assert.equal(body.message, CAP_MESSAGE)
  assert.equal(body.path, '/api/v1/orders')
  assert.ok(!Number.isNaN(Date.parse(body.timestamp)))
}

describe('hoarding stock with unpaid prepaid orders', () => {
  test('the 6th unpaid prepaid order of one customer is 409 and writes nothing; replays, COD, fully covered orders and other customers are not affected', async () => {
    const customer = await givenCustomer(t.app, partner)
    const keys: string[] = []
    for (let i = 0; i < CAP; i++) {
      keys.push(randomUUID())
      assert.equal((await placed(customer, prepaid(2), keys[i])).status, 'PENDING_PAYMENT')
    }
    assert.deepEqual(await unpaid(customer), { orders: CAP, units: 2 * CAP })
    const before = await footprint(customer)
    assertCapRefusal(await placeOrder(t, customer, prepaid(2)))
    // The same refused request again, with its key: still refused, the key was not kept.
    const key = randomUUID()
    assertCapRefusal(await placeOrder(t, customer, prepaid(2), key))
    assertCapRefusal(await placeOrder(t, customer, prepaid(2), key))
    assert.deepEqual(await footprint(customer), before, 'nothing written: orders, items, payments, keys, events, ledger, stock')

    // A replay of one of the five answers its stored order: the cap is not a new order.
    const replay = await placeOrder(t, customer, prepaid(2), keys[0])
    assert.equal(replay.statusCode, 201, replay.body)
    assert.equal(replay.headers['idempotent-replayed'], 'true')
    // COD holds no payment window, and an order Wallet Cash covers in full is paid: neither counts nor is refused.
    assert.equal((await placed(customer, cod())).status, 'CONFIRMED')
    await credit(t, clock, customer, 'WALLET_CASH', 5_000_000n)
    assert.equal((await placed(customer, { ...prepaid(), useWalletCash: true })).status, 'CONFIRMED')
    assert.deepEqual(await unpaid(customer), { orders: CAP, units: 2 * CAP })
    // Another customer of the same partner has places of their own.
    const other = await givenCustomer(t.app, partner)
    assert.equal((await placed(other, prepaid())).status, 'PENDING_PAYMENT')
  })

  test('paying one, cancelling one, or its reservation expiring frees exactly one place', async () => {
    const customer = await givenCustomer(t.app, partner)
    const held = []
    for (let i = 0; i < CAP; i++) held.push(await placed(customer, prepaid()))
    assertCapRefusal(await placeOrder(t, customer, prepaid()))

    assert.equal((await sandboxAction(t, held[0]!.paymentClientAction, 'pay')).statusCode, 200)
    assert.equal((await call(customer, 'GET', `/orders/${held[0]!.id}`)).json().data.status, 'CONFIRMED')
    held.push(await placed(customer, prepaid()))
    assertCapRefusal(await placeOrder(t, customer, prepaid()))

    const cancel = await call(customer, 'POST', `/orders/${held[1]!.id}/cancel`, { reason: 'Changed my mind' })
    assert.equal(cancel.statusCode, 200, cancel.body)
    held.push(await placed(customer, prepaid()))
    assertCapRefusal(await placeOrder(t, customer, prepaid()))

    // The sweeper cancels what is past its reservation: every one of them, so the cap is free again.
    clock.advance((t.deps.config.reservationMinutes + 1) * 60_000)
    const customerAgain = await givenCustomer(t.app, partner, { phone: customer.phone })
    assertCapRefusal(await placeOrder(t, customerAgain, prepaid()))
    assert.ok((await t.app.payments.sweepExpiredReservations()) >= CAP)
    assert.deepEqual(await unpaid(customerAgain), { orders: 0, units: 0 })
    for (let i = 0; i < CAP; i++) await placed(customerAgain, prepaid())
    assertCapRefusal(await placeOrder(t, customerAgain, prepaid()))
  })

  test('concurrent prepaid orders of one customer at the cap boundary: exactly the places left succeed', async () => {
    for (const [already, sent] of [[0, 12], [3, 10], [4, 8]] as const) {
      const customer = await givenCustomer(t.app, partner)
      for (let i = 0; i < already; i++) await placed(customer, prepaid())
      const stockBefore = (await footprint(customer)).stock
      const results = await Promise.all(Array.from({ length: sent }, () => placeOrder(t, customer, prepaid())))
      const created = results.filter((r) => r.statusCode === 201)
      const refused = results.filter((r) => r.statusCode === 409)
      assert.equal(created.length, CAP - already, results.map((r) => `${r.statusCode} ${r.body.slice(0, 160)}`).join('\n'))
      assert.equal(refused.length, sent - (CAP - already))
      for (const r of refused) assertCapRefusal(r)
      assert.deepEqual(await unpaid(customer), { orders: CAP, units: CAP }, 'reserved stock held by the customer stays within the cap')
      assert.equal((await footprint(customer)).stock, stockBefore - (CAP - already), 'stock taken only by the orders placed')
    }
  })
})

/** A COD order delivered (so PAID, with its reward points earned) for a fresh customer. */
async function delivered(payload: object, customer?: CustomerFixture) {
  const c = customer ?? (await givenCustomer(t.app, partner))
  const o = await placed(c, { shippingAddress: ADDRESS, paymentMode: 'COD', ...payload })
  for (const s of ['PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) {
    // Every unit in a parcel (the merchant's own delivery) before SHIPPED: an order is not shipped with nothing in one.
    if (s === 'SHIPPED') assert.equal((await admin('POST', `/orders/${o.id}/shipments`, { carrier: 'manual' })).statusCode, 201)
    const res = await admin('POST', `/orders/${o.id}/status`, { status: s })
    assert.equal(res.statusCode, 200, res.body)
  }
  const view = (await call(c, 'GET', `/orders/${o.id}`)).json().data
  return { customer: c, order: view as { id: string; rewardPointsEarned: number; paymentStatus: string; items: { id: string; quantity: number; returnableQuantity: number }[] } }
}

const returnBody = (orderId: string, orderItemId: string, quantity: number) => ({
  orderId,
  reason: 'Not as described',
  detail: 'Colour differs from the photos',
  requestedResolution: 'WALLET_CREDIT',
  items: [{ orderItemId, quantity, reason: 'Colour' }],
})

/** Takes a return through review to its refund; answers the refunded return. */
async function refund(returnId: string) {
  for (const status of ['UNDER_REVIEW', 'APPROVED', 'REFUND_PENDING']) {
    const res = await admin('POST', `/returns/${returnId}/status`, { status })
    assert.equal(res.statusCode, 200, res.body)
  }
  const view = (await admin('GET', `/returns/${returnId}`)).json().data
  assert.equal(view.status, 'REFUNDED')
  return view
}

describe('returning more than was bought', () => {
  test('a return never asks for more units than were bought, in one request or over several', async () => {
    const { customer, order } = await delivered({ items: [{ productId: ids.sneaker!, quantity: 2 }] })
    const item = order.items[0]!
    for (const q of [3, 100, 9999]) {
      const res = await call(customer, 'POST', '/returns', returnBody(order.id, item.id, q))
      assert.equal(res.statusCode, 400, res.body)
      assert.match(res.json().message, /more than the 2 that can still be returned/)
    }
    assert.equal((await call(customer, 'POST', '/returns', returnBody(order.id, item.id, 1))).statusCode, 201)
    const again = await call(customer, 'POST', '/returns', returnBody(order.id, item.id, 2))
    assert.equal(again.statusCode, 400)
    assert.match(again.json().message, /more than the 1 that can still be returned/)
    assert.equal((await call(customer, 'POST', '/returns', returnBody(order.id, item.id, 1))).statusCode, 201)
    assert.equal((await call(customer, 'POST', '/returns', returnBody(order.id, item.id, 1))).statusCode, 400, 'nothing left')
  })

  test('two returns of the same units at once: exactly one accepted; 10 single-unit returns of 3 units at once: exactly 3', async () => {
    const { customer, order } = await delivered({ items: [{ productId: ids.sneaker!, quantity: 2 }] })
    const pair = await Promise.all([0, 1].map(() => call(customer, 'POST', '/returns', returnBody(order.id, order.items[0]!.id, 2))))
    assert.deepEqual(pair.map((r) => r.statusCode).sort(), [201, 400], pair.map((r) => r.body).join('\n'))

    const three = await delivered({ items: [{ productId: ids.sneaker!, quantity: 3 }] })
    const ten = await Promise.all(Array.from({ length: 10 }, () => call(three.customer, 'POST', '/returns', returnBody(three.order.id, three.order.items[0]!.id, 1))))
    assert.equal(ten.filter((r) => r.statusCode === 201).length, 3, ten.map((r) => `${r.statusCode} ${r.body.slice(0, 120)}`).join('\n'))
    assert.equal(ten.filter((r) => r.statusCode === 400).length, 7)
    const view = (await call(three.customer, 'GET', `/orders/${three.order.id}`)).json().data
    assert.equal(view.items[0].returnableQuantity, 0)
    const [units] = await queryRows<{ n: number }>(db(), sql`select coalesce(sum(ri.quantity), 0)::int as n from return_items ri join return_requests rr on rr.id = ri.return_request_id where rr.order_id = ${three.order.id}`)
    assert.equal(units!.n, 3, 'units in returns = units bought')
  })
})

describe('farming reward points with returns', () => {
  test('order, delivery, full return, three times over: no reward point and no rupee gained', async () => {
    const customer = await givenCustomer(t.app, partner)
    let paid = 0n
    for (let round = 0; round < 3; round++) {
      const { order } = await delivered({ items: [{ productId: ids.sneaker!, quantity: 2 }] }, customer)
      assert.equal(order.rewardPointsEarned, 20, '1% of ₹2,000 in points of ₹1')
      paid += 200_000n
      assert.equal((await ledgerBalances(db(), customer.userId)).rewardPoints, 20n, 'earned on delivery')
      const r = (await call(customer, 'POST', '/returns', returnBody(order.id, order.items[0]!.id, 2))).json().data
      await refund(r.id)
      assert.deepEqual(await ledgerBalances(db(), customer.userId), { walletCash: paid, rewardPoints: 0n }, `round ${round}: the points earned went back with the refund`)
    }
  })

  test('an order returned a unit at a time gives back every point earned on it (rounded per return it kept some)', async () => {
    const { customer, order } = await delivered({ items: [{ productId: ids.odd!, quantity: 3 }] })
    // ₹1,600.02 paid for the items: 16 points; each unit's share is 5.33 points (5 + 5 + 5 before the fix).
    assert.equal(order.rewardPointsEarned, 16)
    for (let i = 0; i < 3; i++) {
      const r = (await call(customer, 'POST', '/returns', returnBody(order.id, order.items[0]!.id, 1))).json().data
      await refund(r.id)
    }
    assert.deepEqual(await ledgerBalances(db(), customer.userId), { walletCash: 160_002n, rewardPoints: 0n })
  })

  test('a rejected return takes no points and does not count towards later ones', async () => {
    const { customer, order } = await delivered({ items: [{ productId: ids.odd!, quantity: 3 }] })
    const rejected = (await call(customer, 'POST', '/returns', returnBody(order.id, order.items[0]!.id, 3))).json().data
    await admin('POST', `/returns/${rejected.id}/status`, { status: 'UNDER_REVIEW' })
    assert.equal((await admin('POST', `/returns/${rejected.id}/status`, { status: 'REJECTED', note: 'Worn' })).statusCode, 200)
    assert.equal((await ledgerBalances(db(), customer.userId)).rewardPoints, 16n)
    const first = (await call(customer, 'POST', '/returns', returnBody(order.id, order.items[0]!.id, 1))).json().data
    await refund(first.id)
    assert.equal((await ledgerBalances(db(), customer.userId)).rewardPoints, 16n - 5n, 'one unit: 5.33 points, rounded down')
    const rest = (await call(customer, 'POST', '/returns', returnBody(order.id, order.items[0]!.id, 2))).json().data
    await refund(rest.id)
    assert.equal((await ledgerBalances(db(), customer.userId)).rewardPoints, 0n, 'the rest: everything left')
  })
})
