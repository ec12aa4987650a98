// Reliability plan row DI-20 "Interleavings": fast-check's scheduler (fc.scheduler) chooses the order
// in which concurrent operations on a few orders start and in which their answers come back, and
// after every run nothing may be broken.
//
// One run: a fresh product stocked with 1-4 units and fresh customers; 1-3 orders placed at once
// (POST /orders reserves the stock: some may find it sold out), and, once an order exists, racing on
// it: the provider's success webhook (one event delivered once or twice), its failure webhook, the
// customer's cancellation, the back office's cancellation, a new payment session (POST
// /orders/{id}/payments) paid on the sandbox checkout page, and the fulfilment chain (paid, PACKED,
// SHIPPED, OUT_FOR_DELIVERY, DELIVERED, a return, UNDER_REVIEW, APPROVED, REFUND_PENDING). Racing
// with all of them: the reservation sweeper after the clock passed the reservation (TTL 1 minute,
// clock moved 61 s), or the sweeper with the clock where it is. Every step waits for the scheduler
// before it starts, and its answer is handed back when the scheduler says, so each actor's next step
// starts in a chosen order too. After the run, the sweeper settles whatever still waits for payment.
//
// Checks after each run (the invariant sweep after the run; the others after it and again after the
// settling sweep):
// - every answer is one of the statuses documented for it in this situation, never a 5xx;
// - the invariant sweep (test/helpers/invariants.ts) finds nothing new;
// - stock on hand = initial - the units of the run's orders that still hold their reservation;
// - each reservation is taken once and released at most once: a trigger logs every stock move of the
//   product, and the units taken are exactly the orders' units, the units given back exactly the
//   released orders' units, one move each; at most one CANCELLED history row and one ORDER_CANCELLED
//   ledger credit per kind for an order;
// - the sweeper cancels only orders still waiting for payment, and only once their reservation ran out;
// - no order is both paid and released: a released order is CANCELLED and not PAID, and every
//   payment captured for it is refunded in full; an order holding stock is not CANCELLED;
// - refunds never exceed what was paid: per payment and per order (provider + Wallet Cash + COD cash);
// - what the answers promised holds: a 200 cancellation ends CANCELLED, a 200 DELIVERED stays
//   DELIVERED with its stock, a 200 REFUND_PENDING ends REFUNDED with refunds equal to the approved
//   amount (REFUND_FAILED only for the sandbox's x.13 test amount), a 409 order wrote nothing, and
//   after the settling sweep no order of the run waits for payment.
//
// What interleaves for real: on PostgreSQL (pool of 10) the operations the scheduler has started run
// at once on their own connections and meet on row locks (customer, order, payment and product rows,
// SKIP LOCKED in the sweeper). The embedded PGlite has one connection, so its transactions run one
// at a time: there the scheduler varies which operation's transaction goes first and how the
// statements and transactions of several operations alternate (an order's insert, its session
// update and its stored answer; the sweeper's candidate read, provider poll and cancelling
// transaction; a webhook's transaction and the refund sent after it).
//
// The runs happen while this file loads, before its first test() call: that call starts node:test's
// harness, whose async hook follows every promise of the process (see test/security/fuzz.stress.ts);
// the test then reports the outcome.
//
// Runs: the plan's 500 take longer than this file's share of CI on the shared 2-core box, so CI runs
// 400 on PostgreSQL and 250 on PGlite; PROPERTY_RUNS=500 runs the plan's figure. Measured (load
// average 1-6, others' suites running): PGlite 250 runs 23-35 s (the file 26-39 s), 500 runs
// 55-74 s; PostgreSQL + Redis 400 runs 30-35 s (the file 31-38 s), 500 runs 39-45 s (71 s once at
// load 6). A run costs ~0.14 s of
// CPU on PGlite: about 60% answering the requests (PGlite's WebAssembly and driver most of it), 15%
// making the run's product and customers, 15% the invariant sweep, the rest the checks. DI20_SEED
// replays a seed (printed with the result, and by fast-check on a failure with the scheduler's task
// order).
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, test } from 'node:test'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { queryRows } from '../../src/db/client.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { importCatalog } from '../../src/modules/catalog/import.ts'
import { createPaymentProvider } from '../../src/modules/payments/providers/index.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { invariantViolations } from '../helpers/invariants.ts'
import { ADDRESS, credit, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'
import { type Op, type OrderPlan, runPlan } from '../helpers/interleaving-plans.ts'

const RUNS = Number(process.env.PROPERTY_RUNS ?? (process.env.TEST_DATABASE_URL ? 400 : 250))
const SEED = process.env.DI20_SEED ? Number(process.env.DI20_SEED) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0
const RESERVATION_MS = 60_000
/** The Wallet Cash of a customer whose order uses it (paise): part of the order, never all of it. */
const WALLET = 5_000n

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
const t: TestApp = await createTestApp({
  clock,
  env: {
    RATE_LIMIT_MAX: '1000000',
    RATE_LIMIT_AUTH_MAX: '1000000',
    ORDER_RESERVATION_MINUTES: String(RESERVATION_MS / 60_000),
    ADMIN_TOKEN_TTL_SECONDS: '86400',
  },
})
const db = t.deps.database.db
const sandbox = createPaymentProvider(t.deps.config).sandbox!
let adminToken = ''
let adminSince = 0
let runNumber = 0
/** Invariant violations already reported: a later run (fast-check shrinking) is judged on what it adds. */
const knownViolations = new Set<string>()

// ---- The plan of a run: test/helpers/interleaving-plans.ts ---------------------------------------------

// ---- Set-up of a run ------------------------------------------------------------------------------------

let shop: Shop

/** The file's shop, and a log of every stock move of every product, in the transaction that made it (a rolled-back move leaves none). */
async function setUp() {
  shop = await givenShop(t)
  for (const statement of [
    'create table test_stock_moves (id bigserial primary key, product_id text not null, delta integer not null)',
    `create function test_log_stock_move() returns trigger language plpgsql as $$
     begin
       insert into test_stock_moves (product_id, delta) values (new.id, new.stock - old.stock);
       return new;
     end $$`,
    'create trigger test_log_stock_move after update of stock on products for each row when (new.stock <> old.stock) execute function test_log_stock_move()',
  ]) {
    await db.execute(sql.raw(statement))
  }
}

/** Products no run has used: imported 100 at a time with no stock (a run stocks its own through the back office). */
const unusedProducts: string[] = []
let productBatch = 0
async function freshProduct(): Promise<string> {
  if (unusedProducts.length === 0) {
    const batch = ++productBatch
    const slugs = Array.from({ length: 100 }, (_, i) => `di20-${batch}-${i}`)
    await importCatalog(db, shop.catalogId, {
      products: slugs.map((slug) => ({ slug, name: `Interleaving ${slug}`, brand: 'Test', sku: slug, categorySlug: 'audio', sellingPrice: '500.00', mrp: '600.00', stock: 0 })),
    })
    const rows = await queryRows<{ id: string }>(db, sql`select id from products where catalog_id = ${shop.catalogId} and slug like ${`di20-${batch}-%`}`)
    unusedProducts.push(...rows.map((r) => r.id))
  }
  return unusedProducts.pop()!
}

const admin = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${adminToken}` }, payload })

// ---- Steps under the scheduler ------------------------------------------------------------------------

interface Answer {
  /** What was called, e.g. `order#1 customer cancel`. */
  label: string
  status: number
  allowed: number[]
  body: string
}

interface Placed {
  plan: OrderPlan
  customer: CustomerFixture
  id: string
  itemId: string
  amountPayable: bigint
  sessionId: string | null
}

interface RunState {
  answers: Answer[]
  placed: Placed[]
  /** Answers that promise a final state, checked against the database at the end. */
  cancelled: Set<string>
  delivered: Set<string>
  refundPending: Set<string>
}

type Injected = Awaited<ReturnType<TestApp['app']['inject']>>

/** The calls a run has started. */
let inFlight: Promise<unknown>[] = []

/**
 * Waits for the scheduler to start the call, and hands its answer back when the scheduler says.
 * The scheduler's report (printed with a counterexample) shows each answer as `summary` gives it.
 */
async function step<T>(s: fc.Scheduler, label: string, call: () => Promise<T>, summary: (value: T) => string): Promise<T> {
  await s.schedule(Promise.resolve(), `start ${label}`)
  let value: T | undefined
  const answered = call().then((v) => {
    value = v
    return summary(v)
  })
  // Once a run has failed, the scheduler hands back no more answers: the calls still going are
  // awaited before the database is read again, and their errors were already the run's failure.
  inFlight.push(answered.catch(() => {}))
  await s.schedule(answered, `answer ${label}`)
  return value as T
}

/** An HTTP step: its status must be one of `allowed` (none of them a 5xx). */
async function http(s: fc.Scheduler, state: RunState, label: string, allowed: number[], call: () => Promise<Injected>): Promise<Injected> {
  const res = await step(s, label, call, (r) => `${r.statusCode}`)
  state.answers.push({ label, status: res.statusCode, allowed, body: res.body })
  return res
}

const webhook = (signed: { rawBody: Buffer; headers: Record<string, unknown> }) =>
  t.app.inject({ method: 'POST', url: '/api/v1/payments/webhooks/sandbox', headers: signed.headers as Record<string, string>, payload: signed.rawBody })

const sandboxEvent = (placed: Placed, action: 'pay' | 'fail', sessionId: string) =>
  sandbox.signedEvent(sandbox.eventFor(action, { sessionId, amount: placed.amountPayable, currency: 'INR' }))

const paise = (rupees: string) => BigInt(rupees.replace('.', ''))

async function orderActor(s: fc.Scheduler, state: RunState, k: number, plan: OrderPlan, productId: string, customer: CustomerFixture) {
  const name = `order#${k}`
  const body = { items: [{ productId, quantity: plan.quantity }], shippingAddress: ADDRESS, paymentMode: plan.mode, useWalletCash: plan.wallet }
  const res = await http(s, state, `${name} create`, [201, 409], () => placeOrder(t, customer, body, `di20-${runNumber}-${k}`))
  if (res.statusCode !== 201) {
    assert.match(res.json().message, /is out of stock/, `${name}: a 409 other than out of stock: ${res.body}`)
    return
  }
  const data = res.json().data
  const action = data.paymentClientAction
  const placed: Placed = {
    plan,
    customer,
    id: data.id,
    itemId: data.items[0].id,
    amountPayable: paise(data.amountPayable),
    sessionId: action.type === 'REDIRECT' ? action.payload.sessionId : null,
  }
  state.placed.push(placed)
  await Promise.all(plan.ops.map((op) => opActor(s, state, name, op, placed)))
}

async function opActor(s: fc.Scheduler, state: RunState, name: string, op: Op, placed: Placed) {
  const { id, customer, plan, sessionId } = placed
  const headers = customerHeaders(customer)
  switch (op) {
    case 'pay': {
      if (!sessionId) return
      // One provider event, delivered once or twice (the provider's retry), the deliveries racing.
      const event = sandboxEvent(placed, 'pay', sessionId)
      const deliveries = Array.from({ length: plan.payDeliveries }, (_, i) => http(s, state, `${name} pay webhook (delivery ${i + 1})`, [200], () => webhook(event)))
      await Promise.all(deliveries)
      return
    }
    case 'fail': {
      if (!sessionId) return
      await http(s, state, `${name} fail webhook`, [200], () => webhook(sandboxEvent(placed, 'fail', sessionId)))
      return
    }
    case 'cancel': {
      const res = await http(s, state, `${name} customer cancel`, [200, 409], () =>
        t.app.inject({ method: 'POST', url: `/api/v1/orders/${id}/cancel`, headers, payload: { reason: 'interleaving' } }),
      )
      if (res.statusCode === 200) state.cancelled.add(id)
      return
    }
    case 'adminCancel': {
      const res = await http(s, state, `${name} admin cancel`, [200, 409], () => admin(`/orders/${id}/status`, { status: 'CANCELLED', note: 'interleaving' }))
      if (res.statusCode === 200) state.cancelled.add(id)
      return
    }
    case 'retry': {
      // A new session (the open one expires), then paid by the customer on the sandbox checkout page.
      const res = await http(s, state, `${name} new payment session`, [201, 409], () =>
        t.app.inject({ method: 'POST', url: `/api/v1/orders/${id}/payments`, headers: { ...headers, 'x-idempotency-key': randomUUID() } }),
      )
      if (res.statusCode !== 201) return
      const clientAction = res.json().data.clientAction
      if (clientAction.type !== 'REDIRECT') return
      await http(s, state, `${name} pay on the checkout page`, [200], () => t.app.inject({ method: 'POST', url: `/api/v1/sandbox/checkout/${clientAction.payload.sessionId}/pay` }))
      return
    }
    case 'fulfil': {
      if (sessionId) await http(s, state, `${name} fulfil: pay webhook`, [200], () => webhook(sandboxEvent(placed, 'pay', sessionId)))
      // Every unit in a parcel (the merchant's own delivery) before the order may be moved on.
      const parcel = await http(s, state, `${name} fulfil: parcel`, [201, 409], () => admin(`/orders/${id}/shipments`, { carrier: 'manual' }))
      if (parcel.statusCode !== 201) return
      for (const status of ['SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) {
        const moved = await http(s, state, `${name} fulfil: ${status}`, [200, 409], () => admin(`/orders/${id}/status`, { status }))
        if (moved.statusCode !== 200) return
      }
      state.delivered.add(id)
      const returnBody = {
        orderId: id,
        reason: 'Interleaving',
        detail: 'Returned while other things happened',
        requestedResolution: plan.resolution,
        items: [{ orderItemId: placed.itemId, quantity: Math.min(plan.returnUnits, plan.quantity), reason: 'x' }],
      }
      const created = await http(s, state, `${name} return`, [201], () => t.app.inject({ method: 'POST', url: '/api/v1/returns', headers, payload: returnBody }))
      if (created.statusCode !== 201) return
      const returnId = created.json().data.id
      for (const status of ['UNDER_REVIEW', 'APPROVED', 'REFUND_PENDING']) {
        const moved = await http(s, state, `${name} return: ${status}`, [200], () => admin(`/returns/${returnId}/status`, { status }))
        if (moved.statusCode !== 200) return
      }
      state.refundPending.add(returnId)
      return
    }
  }
}

async function sweeperActor(s: fc.Scheduler, label: string, advance: boolean) {
  await step(
    s,
    label,
    async () => {
      if (advance) clock.advance(RESERVATION_MS + 1_000)
      return t.app.payments.sweepExpiredReservations()
    },
    (n) => `${n} cancelled`,
  )
}

// ---- Checks -------------------------------------------------------------------------------------------

interface RunRows {
  stock: number
  moves: number[] | null
  lines: { order_id: string; quantity: number }[] | null
  orders: { id: string; status: string; payment_status: string; payment_mode: string; amount_payable: number; wallet_cash_used: number; released_at: string | null }[] | null
  payments: { id: string; order_id: string; status: string; amount: number }[] | null
  refunds: { order_id: string; payment_id: string | null; return_request_id: string | null; status: string; amount: number }[] | null
  cancellations: { order_id: string; actor: string; from_status: string; before_expiry: boolean }[] | null
  credits: { reference: string; kind: string; n: number }[] | null
  returns: { id: string; status: string; approved_amount: number | null; requested_amount: number }[] | null
}

/** Everything the checks read about the run, in one round trip (amounts in paise fit a double). */
async function runRows(productId: string, ids: string[]): Promise<RunRows> {
  const list = ids.length ? sql.join(ids.map((id) => sql`${id}`), sql`, `) : sql`null`
  const [row] = await queryRows<RunRows>(
    db,
    sql`select
      (select stock from products where id = ${productId}) as stock,
      (select json_agg(delta order by id) from test_stock_moves where product_id = ${productId}) as moves,
      (select json_agg(json_build_object('order_id', order_id, 'quantity', quantity)) from order_items where product_id = ${productId}) as lines,
      (select json_agg(json_build_object('id', id, 'status', status, 'payment_status', payment_status, 'payment_mode', payment_mode,
              'amount_payable', amount_payable, 'wallet_cash_used', wallet_cash_used, 'released_at', released_at)) from orders where id in (${list})) as orders,
      (select json_agg(json_build_object('id', id, 'order_id', order_id, 'status', status, 'amount', amount)) from payments where order_id in (${list})) as payments,
      (select json_agg(json_build_object('order_id', order_id, 'payment_id', payment_id, 'return_request_id', return_request_id, 'status', status, 'amount', amount))
         from refunds where order_id in (${list})) as refunds,
      (select json_agg(json_build_object('order_id', h.order_id, 'actor', h.actor, 'from_status', h.from_status,
              'before_expiry', o.reservation_expires_at is null or h.created_at < o.reservation_expires_at))
         from order_status_history h join orders o on o.id = h.order_id where h.to_status = 'CANCELLED' and h.order_id in (${list})) as cancellations,
      (select json_agg(c) from (select reference, kind, count(*) as n from ledger_entries where reason = 'ORDER_CANCELLED' and reference in (${list}) group by reference, kind) c) as credits,
      (select json_agg(json_build_object('id', id, 'status', status, 'approved_amount', approved_amount, 'requested_amount', requested_amount))
         from return_requests where order_id in (${list})) as returns`,
  )
  return row!
}

/** Checks the run's rows; answers its orders. */
async function checkRun(state: RunState, productId: string, initialStock: number, where: string): Promise<NonNullable<RunRows['orders']>> {
  // Every answer was one of those documented for it here, never a 5xx.
  for (const a of state.answers) {
    assert.ok(a.allowed.includes(a.status), `${where}: ${a.label} answered ${a.status} (expected ${a.allowed.join(' or ')}): ${a.body}`)
  }

  const ids = state.placed.map((p) => p.id)
  const rows = await runRows(productId, ids)
  const orders = rows.orders ?? []
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b)
  const lines = rows.lines ?? []
  assert.deepEqual(lines.map((l) => l.order_id).sort(), [...ids].sort(), `${where}: the product's orders are exactly the 201s`)
  assert.equal(orders.length, ids.length, `${where}: every 201 is an order`)
  const quantity = new Map(lines.map((l) => [l.order_id, Number(l.quantity)]))
  const released = orders.filter((o) => o.released_at !== null)

  // Stock on hand = initial - the units of the orders that still hold their reservation.
  const held = orders.filter((o) => o.released_at === null).reduce((sum, o) => sum + quantity.get(o.id)!, 0)
  assert.equal(Number(rows.stock), initialStock - held, `${where}: stock ${rows.stock}, expected ${initialStock} - ${held} held`)

  // Each reservation taken once and released at most once: the product's stock moves one by one
  // (the first is the back office stocking it for the run).
  const [stocking, ...moves] = rows.moves ?? []
  assert.equal(stocking, initialStock, `${where}: the product was stocked once with ${initialStock}`)
  assert.deepEqual(sorted(moves.filter((d) => d < 0).map((d) => -d)), sorted(orders.map((o) => quantity.get(o.id)!)), `${where}: units taken vs orders (moves ${moves})`)
  assert.deepEqual(sorted(moves.filter((d) => d > 0)), sorted(released.map((o) => quantity.get(o.id)!)), `${where}: units given back vs released orders (moves ${moves})`)
  const cancellations = rows.cancellations ?? []
  for (const id of ids) {
    const n = cancellations.filter((c) => c.order_id === id).length
    assert.ok(n <= 1, `${where}: order ${id} cancelled ${n} times`)
  }
  // The sweeper cancels only orders still waiting for payment, and only once their reservation ran out.
  for (const c of cancellations.filter((x) => x.actor === 'SYSTEM')) {
    assert.equal(c.from_status, 'PENDING_PAYMENT', `${where}: the sweeper cancelled order ${c.order_id} from ${c.from_status}`)
    assert.equal(c.before_expiry, false, `${where}: the sweeper cancelled order ${c.order_id} before its reservation ran out`)
  }
  for (const c of rows.credits ?? []) assert.equal(Number(c.n), 1, `${where}: order ${c.reference} given back its ${c.kind} ${c.n} times`)

  const payments = rows.payments ?? []
  const refunds = rows.refunds ?? []
  const live = (r: (typeof refunds)[number]) => r.status !== 'FAILED'
  const sum = (xs: { amount: number }[]) => xs.reduce((total, x) => total + Number(x.amount), 0)
  for (const order of orders) {
    const own = payments.filter((p) => p.order_id === order.id)
    const captured = own.filter((p) => p.status === 'SUCCEEDED')
    const ownRefunds = refunds.filter((r) => r.order_id === order.id)
    // Refunds never exceed what was paid: per payment, and per order over every tender.
    for (const p of own) {
      const back = sum(ownRefunds.filter((r) => r.payment_id === p.id && live(r)))
      assert.ok(back <= (p.status === 'SUCCEEDED' ? Number(p.amount) : 0), `${where}: payment ${p.id} (${p.status}, ${p.amount}) refunded ${back}`)
    }
    const cod = order.payment_mode === 'COD' && order.payment_status !== 'COD_PENDING' ? Number(order.amount_payable) : 0
    const paid = sum(captured) + Number(order.wallet_cash_used) + cod
    assert.ok(sum(ownRefunds.filter(live)) <= paid, `${where}: order ${order.id} refunded ${sum(ownRefunds.filter(live))} of ${paid} paid`)

    if (order.released_at !== null) {
      // Released: cancelled, not paid, and every capture refunded in full.
      assert.equal(order.status, 'CANCELLED', `${where}: order ${order.id} released but ${order.status}`)
      assert.notEqual(order.payment_status, 'PAID', `${where}: order ${order.id} released and PAID`)
      for (const p of captured) {
        const refunded = sum(ownRefunds.filter((r) => r.payment_id === p.id && r.status === 'SUCCEEDED'))
        assert.equal(refunded, Number(p.amount), `${where}: order ${order.id} released, payment ${p.id} captured ${p.amount} and refunded ${refunded}`)
      }
    } else {
      assert.notEqual(order.status, 'CANCELLED', `${where}: order ${order.id} CANCELLED but holds its stock`)
    }
    if (state.cancelled.has(order.id)) assert.equal(order.status, 'CANCELLED', `${where}: order ${order.id} was cancelled (200) but is ${order.status}`)
    if (state.delivered.has(order.id)) assert.equal(order.status, 'DELIVERED', `${where}: order ${order.id} was delivered (200) but is ${order.status}`)
  }
  for (const r of (rows.returns ?? []).filter((x) => state.refundPending.has(x.id))) {
    const mine = refunds.filter((f) => f.return_request_id === r.id)
    const providerFailedOnce = mine.some((f) => f.status === 'FAILED' && Number(f.amount) % 100 === 13)
    assert.ok(r.status === 'REFUNDED' || (providerFailedOnce && r.status === 'REFUND_FAILED'), `${where}: return ${r.id} is ${r.status} after REFUND_PENDING`)
    if (r.status === 'REFUNDED') {
      const total = sum(mine.filter((f) => f.status === 'SUCCEEDED'))
      assert.equal(total, Number(r.approved_amount ?? r.requested_amount), `${where}: return ${r.id} refunded ${total}`)
    }
  }
  return orders
}

/** The invariant sweep over the whole database: nothing new since the last run. */
async function sweepClean(where: string) {
  const violations = (await invariantViolations(db, { now: clock.now() })).filter((v) => !knownViolations.has(v))
  for (const v of violations) knownViolations.add(v)
  assert.deepEqual(violations, [], `${where}: invariant sweep`)
}

// ---- The property, run while the file loads -----------------------------------------------------------

const stats = { orders: 0, refused: 0, cancelled: 0, delivered: 0, returnsRefunded: 0, answers: 0 }
const started = Date.now()
let failure: unknown = null
try {
  await setUp()
  await fc.assert(
    fc.asyncProperty(fc.scheduler(), runPlan, async (s, plan) => {
      runNumber++
      if (!adminToken || clock.now().getTime() - adminSince > 20 * 3_600_000) {
        adminSince = clock.now().getTime()
        adminToken = await givenAdminToken(t.app, t.deps, `di20-${runNumber}@admin.test`, 'ADMIN')
      }
      const productId = await freshProduct()
      const stocked = await admin(`/products/${productId}/stock`, { delta: plan.stock })
      assert.equal(stocked.statusCode, 200, stocked.body)
      const customers = new Map<number, CustomerFixture>()
      for (const o of plan.orders) {
        if (customers.has(o.customer)) continue
        const customer = await givenCustomer(t.app, shop.partner)
        if (plan.orders.some((x) => x.customer === o.customer && x.wallet)) await credit(t, clock, customer, 'WALLET_CASH', WALLET)
        customers.set(o.customer, customer)
      }

      inFlight = []
      const state: RunState = { answers: [], placed: [], cancelled: new Set(), delivered: new Set(), refundPending: new Set() }
      const actors = [
        ...plan.orders.map((o, k) => orderActor(s, state, k, o, productId, customers.get(o.customer)!)),
        ...Array.from({ length: plan.expiries }, (_, i) => sweeperActor(s, `sweeper after the reservation (${i + 1})`, true)),
        ...Array.from({ length: plan.sweeps }, (_, i) => sweeperActor(s, `sweeper (${i + 1})`, false)),
      ]
      let final: NonNullable<RunRows['orders']>
      try {
        await s.waitFor(Promise.all(actors))
        await checkRun(state, productId, plan.stock, 'after the run')
        await sweepClean('after the run')

        // Settle: whatever still waits for payment expires and is released.
        clock.advance(RESERVATION_MS + 1_000)
        await t.app.payments.sweepExpiredReservations()
        final = await checkRun(state, productId, plan.stock, 'after the settling sweep')
        assert.deepEqual(final.filter((o) => o.status === 'PENDING_PAYMENT').map((o) => o.id), [], 'after the settling sweep: orders still wait for payment')
      } catch (err) {
        // What this run broke is its own failure: the runs fast-check tries next (shrinking) are
        // judged by the sweep only on what they add.
        await Promise.all(inFlight)
        for (const v of await invariantViolations(db, { now: clock.now() })) knownViolations.add(v)
        throw err
      }

      stats.orders += final.length
      stats.refused += plan.orders.length - final.length
      stats.cancelled += final.filter((o) => o.status === 'CANCELLED').length
      stats.delivered += final.filter((o) => o.status === 'DELIVERED').length
      stats.returnsRefunded += state.refundPending.size
      stats.answers += state.answers.length
    }),
    { numRuns: RUNS, seed: SEED },
  )
} catch (err) {
  failure = err
}
const seconds = ((Date.now() - started) / 1000).toFixed(1)
after(() => t.close())

test(`${RUNS} scheduler-chosen interleavings of order, payment, failure, cancel, expiry, fulfilment and refund: 0 violations`, (ctx) => {
  ctx.diagnostic(`seed ${SEED} (DI20_SEED replays), ${RUNS} runs in ${seconds} s: ${JSON.stringify(stats)}`)
  if (failure) throw failure
})
