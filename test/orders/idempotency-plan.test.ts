// The reliability plan's idempotency rows for POST /orders: DI-06 (a key reused with another
// payload, one after the other and while the first request is still in flight), DI-07 (ten replays
// of a completed key) and DI-10 (key retention: still replayed at 23h59m, purged and executed anew
// at 24h). The app runs with PAYMENT_PROVIDER=razorpay against the local stand-in, behind a gate
// that can hold the provider call: that is how a first request is kept in flight (its order
// committed, its key IN_PROGRESS) for as long as a test needs.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, beforeEach, describe, test } from 'node:test'
import { count, eq, lte, sql, sum } from 'drizzle-orm'
import { ManualClock } from '../../src/lib/clock.ts'
import { products } from '../../src/modules/catalog/schema.sql.ts'
import { ledgerEntries } from '../../src/modules/ledgers/schema.sql.ts'
import { outboxEvents } from '../../src/modules/events/schema.sql.ts'
import { idempotencyKeys, orderItems, orders } from '../../src/modules/orders/schema.sql.ts'
import { payments } from '../../src/modules/payments/schema.sql.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, givenCustomer } from '../helpers/factories.ts'
import { createRazorpayStandIn } from '../helpers/razorpay-standin.ts'
import { ADDRESS, credit, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'

const KEY_ID = 'rzp_test_IdemPlan0001'
const KEY_SECRET = 'idemPlanKeySecret0123456789'
const REUSED = 'Checkout idempotency key has already been used with a different payload'
const HOUR = 3_600_000

const standIn = createRazorpayStandIn({ keyId: KEY_ID, keySecret: KEY_SECRET, idPrefix: 'Idem' })

/**
 * Between the app and the stand-in: while `holding`, each request waits until release() before it
 * is passed on; `arrivals` counts the requests that reached the gate.
 */
const gate = {
  holding: false,
  arrivals: 0,
  waiting: [] as (() => void)[],
  release() {
    this.holding = false
    for (const go of this.waiting.splice(0)) go()
  },
}
let gateServer: Server

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop

before(async () => {
  const upstream = await standIn.listen()
  gateServer = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      gate.arrivals++
      if (gate.holding) await new Promise<void>((resolve) => gate.waiting.push(resolve))
      const answer = await fetch(`${upstream}${req.url}`, {
        method: req.method,
        headers: { authorization: req.headers.authorization!, 'content-type': 'application/json' },
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      })
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
    })
  })
  await new Promise<void>((resolve) => gateServer.listen(0, '127.0.0.1', resolve))
  t = await createTestApp({
    clock,
    env: {
      PAYMENT_PROVIDER: 'razorpay',
      RAZORPAY_KEY_ID: KEY_ID,
      RAZORPAY_KEY_SECRET: KEY_SECRET,
      RAZORPAY_WEBHOOK_SECRET: 'idem-plan-webhook-secret',
      RAZORPAY_API_BASE: `http://127.0.0.1:${(gateServer.address() as AddressInfo).port}`,
      RATE_LIMIT_MAX: '100000',
      RATE_LIMIT_AUTH_MAX: '100000',
    },
  })
  shop = await givenShop(t)
})
after(async () => {
  gate.release()
  await t?.close()
  await new Promise((resolve) => gateServer?.close(resolve))
  await standIn.close()
})
beforeEach(() => standIn.reset())

const db = () => t.deps.database.db
const item = (slug: string, quantity = 1) => ({ productId: shop.ids[slug]!, quantity })
/** A prepaid order that also spends Wallet Cash, so it writes a ledger entry and a payment too. */
const body = (quantity: number) => ({ items: [item('earbuds', quantity)], shippingAddress: ADDRESS, useWalletCash: true })

/** A customer with ₹100 of Wallet Cash. */
async function customerWithWallet() {
  const customer = await givenCustomer(t.app, shop.partner)
  await credit(t, clock, customer, 'WALLET_CASH', 10_000n)
  return customer
}

/** Everything an order writes, counted over the whole database (this file has it to itself). */
async function footprint() {
  const n = async (table: typeof orders | typeof orderItems | typeof ledgerEntries | typeof outboxEvents | typeof payments | typeof idempotencyKeys) =>
    (await db().select({ n: count() }).from(table))[0]!.n
  const [stock] = await db().select({ total: sum(products.stock) }).from(products)
  const [ledgerSum] = await db().select({ total: sum(ledgerEntries.amount) }).from(ledgerEntries)
  return {
    orders: await n(orders),
    orderItems: await n(orderItems),
    ledgerEntries: await n(ledgerEntries),
    ledgerSum: String(ledgerSum!.total),
    outboxEvents: await n(outboxEvents),
    payments: await n(payments),
    idempotencyKeys: await n(idempotencyKeys),
    stock: String(stock!.total),
    providerOrders: standIn.sent('POST', '/v1/orders').length,
  }
}
type Footprint = Awaited<ReturnType<typeof footprint>>
const delta = (from: Footprint, to: Footprint) => ({
  orders: to.orders - from.orders,
  orderItems: to.orderItems - from.orderItems,
  ledgerEntries: to.ledgerEntries - from.ledgerEntries,
  ledgerSum: BigInt(to.ledgerSum) - BigInt(from.ledgerSum),
  outboxEvents: to.outboxEvents - from.outboxEvents,
  payments: to.payments - from.payments,
  idempotencyKeys: to.idempotencyKeys - from.idempotencyKeys,
  stock: BigInt(to.stock) - BigInt(from.stock),
  providerOrders: to.providerOrders - from.providerOrders,
})

async function keyRecord(customer: CustomerFixture, key: string) {
  return db().query.idempotencyKeys.findFirst({ where: (k, { and, eq }) => and(eq(k.userId, customer.userId), eq(k.route, 'POST /orders'), eq(k.key, key)) })
}
const ordersOf = async (customer: CustomerFixture) => db().select().from(orders).where(eq(orders.userId, customer.userId))

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('a key reused with a different payload', () => {
  test('qty 1 then qty 2 with the same key, one after the other: 409 IDEMPOTENCY_KEY_REUSED, and the second writes nothing', async () => {
    const customer = await customerWithWallet()
    const key = `di06-seq-${randomUUID()}`
    const start = await footprint()
    const first = await placeOrder(t, customer, body(1), key)
    assert.equal(first.statusCode, 201, first.body)
    const afterFirst = await footprint()
    // What one order writes: the control that the counts below can move at all.
    assert.deepEqual(delta(start, afterFirst), { orders: 1, orderItems: 1, ledgerEntries: 1, ledgerSum: -10_000n, outboxEvents: 1, payments: 1, idempotencyKeys: 1, stock: -1n, providerOrders: 1 })
    const recordBefore = await keyRecord(customer, key)

    const second = await placeOrder(t, customer, body(2), key)
    assert.equal(second.statusCode, 409, second.body)
    assert.equal(second.json().message, REUSED)
    assert.equal(second.headers['idempotent-replayed'], undefined)
    assert.deepEqual(await footprint(), afterFirst, 'the second request changed nothing')
    assert.deepEqual(await keyRecord(customer, key), recordBefore, 'the key still holds the first answer')
    const orderRows = await ordersOf(customer)
    assert.deepEqual(orderRows.map((o) => o.id), [first.json().data.id])
  })

  test('qty 2 while the qty 1 request is in flight (order committed, key IN_PROGRESS, provider call held): 409 at once, nothing written; the first then completes', async () => {
    const customer = await customerWithWallet()
    const key = `di06-flight-${randomUUID()}`
    gate.holding = true
    const arrived = gate.arrivals
    let firstDone = false
    const firstReply = placeOrder(t, customer, body(1), key).finally(() => (firstDone = true))
    try {
      const deadline = Date.now() + 10_000
      while (gate.arrivals === arrived) {
        assert.ok(Date.now() < deadline, 'the first request reached the provider')
        await sleep(10)
      }
      const record = await keyRecord(customer, key)
      assert.equal(record?.state, 'IN_PROGRESS', 'the first request is in flight')
      const during = await footprint()

      const second = await placeOrder(t, customer, body(2), key)
      assert.equal(firstDone, false, 'the second was answered while the first was still in flight')
      assert.equal(second.statusCode, 409, second.body)
      assert.equal(second.json().message, REUSED)
      assert.deepEqual(await footprint(), during, 'the second request changed nothing')
      assert.deepEqual(await keyRecord(customer, key), record)
    } finally {
      gate.release()
    }
    const first = await firstReply
    assert.equal(first.statusCode, 201, first.body)
    assert.equal(first.headers['idempotent-replayed'], undefined)
    assert.equal(first.json().data.items[0].quantity, 1)
    assert.equal((await keyRecord(customer, key))?.state, 'DONE')
    const replay = await placeOrder(t, customer, body(1), key)
    assert.equal(replay.headers['idempotent-replayed'], 'true')
    assert.equal(replay.body, first.body)
    assert.equal((await ordersOf(customer)).length, 1)
  })

  test('qty 1 and qty 2 in flight together, the first queued first behind a lock on the customer row: the first creates, the second 409 and writes nothing', async () => {
    // The same order by someone else first: what exactly one order writes, and warm caches, so
    // both requests below take the same path to the database.
    const reference = await customerWithWallet()
    const customer = await customerWithWallet()
    const start = await footprint()
    assert.equal((await placeOrder(t, reference, body(1))).statusCode, 201)
    const oneOrder = delta(start, await footprint())
    const beforeRace = await footprint()

    const key = `di06-lock-${randomUUID()}`
    const postgres = t.deps.database.kind === 'postgres'
    const waitingOnLocks = async () =>
      ((await db().execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)) as unknown as { rows: { n: number }[] }).rows[0]!.n
    /** PostgreSQL: until `n` requests wait on the customer's row. PGlite runs one statement at a time, so queued means waiting. */
    const untilWaiting = async (n: number) => {
      if (!postgres) return sleep(100)
      const deadline = Date.now() + 3000
      while ((await waitingOnLocks()) < n) {
        assert.ok(Date.now() < deadline, `${n} request(s) wait on the customer row`)
        await sleep(5)
      }
    }
    let replies: Promise<Awaited<ReturnType<typeof placeOrder>>>[] = []
    await db().transaction(async (tx) => {
      await tx.execute(sql`select id from users where id = ${customer.userId} for update`)
      const first = placeOrder(t, customer, body(1), key)
      await untilWaiting(1)
      const second = placeOrder(t, customer, body(2), key)
      await untilWaiting(2)
      replies = [first, second]
    })
    const [first, second] = await Promise.all(replies)
    assert.equal(first!.statusCode, 201, first!.body)
    assert.equal(first!.json().data.items[0].quantity, 1)
    assert.equal(second!.statusCode, 409, second!.body)
    assert.equal(second!.json().message, REUSED)
    assert.deepEqual(delta(beforeRace, await footprint()), oneOrder, 'the database holds the first order and nothing of the second')
    const rows = await ordersOf(customer)
    assert.deepEqual(rows.map((o) => o.id), [first!.json().data.id])
  })
})

describe('replay fidelity', () => {
  test('a completed key replayed 10 times: 10 × 201, byte-identical body, idempotent-replayed, 0 new rows anywhere', async () => {
    const customer = await customerWithWallet()
    const key = `di07-${randomUUID()}`
    const first = await placeOrder(t, customer, body(1), key)
    assert.equal(first.statusCode, 201, first.body)
    assert.equal(first.headers['idempotent-replayed'], undefined)
    assert.equal(first.json().data.paymentClientAction.type, 'RAZORPAY_CHECKOUT')
    const before = await footprint()
    for (let i = 1; i <= 10; i++) {
      const replay = await placeOrder(t, customer, body(1), key)
      assert.equal(replay.statusCode, 201, `replay ${i}: ${replay.body}`)
      assert.equal(replay.headers['idempotent-replayed'], 'true', `replay ${i}`)
      assert.equal(replay.headers['content-type'], first.headers['content-type'])
      assert.equal(replay.body, first.body, `replay ${i} is byte-identical`)
    }
    assert.deepEqual(await footprint(), before, 'no new order, item, ledger entry, outbox event, payment, key or provider order')
  })
})

describe('key retention', () => {
  test('at +23h59m the key still replays; at +24h the purge deletes every expired key (and only those) and the key executes anew', async () => {
    const customer = await customerWithWallet()
    const key = `di10-${randomUUID()}`
    const first = await placeOrder(t, customer, { ...body(1), useWalletCash: false }, key)
    assert.equal(first.statusCode, 201, first.body)
    const created = clock.now().getTime()
    // Keys of a later day that must outlive the purge: two orders 12 hours on.
    clock.advance(12 * HOUR)
    const later = await customerWithWallet()
    for (const k of ['live-1', 'live-2']) assert.equal((await placeOrder(t, later, body(1), k)).statusCode, 201)
    const expiredCohort = (await db().select({ n: count() }).from(idempotencyKeys).where(lte(idempotencyKeys.createdAt, new Date(created))))[0]!.n
    assert.ok(expiredCohort >= 5, `every key of this file so far was made at the start (${expiredCohort})`)

    clock.advance(11 * HOUR + 59 * 60_000)
    assert.equal(await t.app.payments.retryRefundsAndPurgeKeys(), 0, 'nothing has expired at 23h59m')
    let again = await givenCustomer(t.app, shop.partner, { phone: customer.phone }) // access tokens do not last a day
    const replay = await placeOrder(t, again, { ...body(1), useWalletCash: false }, key)
    assert.equal(replay.statusCode, 201, replay.body)
    assert.equal(replay.headers['idempotent-replayed'], 'true')
    assert.equal(replay.body, first.body)
    assert.equal((await placeOrder(t, again, body(2), key)).statusCode, 409, 'still the first payload’s key')

    clock.advance(60_000)
    const totalKeys = (await db().select({ n: count() }).from(idempotencyKeys))[0]!.n
    const purged = await t.app.payments.retryRefundsAndPurgeKeys()
    assert.equal(purged, expiredCohort, 'the purge deletes every key 24 hours old')
    const left = await db().select().from(idempotencyKeys)
    assert.equal(left.length, totalKeys - expiredCohort)
    assert.deepEqual(left.map((k) => k.key).sort(), ['live-1', 'live-2'])
    assert.ok(left.every((k) => k.expiresAt > clock.now()))

    again = await givenCustomer(t.app, shop.partner, { phone: customer.phone })
    const beforeNew = await footprint()
    const fresh = await placeOrder(t, again, body(2), key)
    assert.equal(fresh.statusCode, 201, fresh.body)
    assert.equal(fresh.headers['idempotent-replayed'], undefined)
    assert.notEqual(fresh.json().data.id, first.json().data.id)
    assert.equal(fresh.json().data.items[0].quantity, 2)
    const d = delta(beforeNew, await footprint())
    assert.deepEqual([d.orders, d.idempotencyKeys, d.stock, d.providerOrders], [1, 1, -2n, 1], 'a new execution')
    assert.equal((await ordersOf(customer)).length, 2)
  })
})
