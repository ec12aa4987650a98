// Reliability plan §7.2, rows WH-02 (tampered body), WH-05 (duplicate delivery) and WH-06 (out of
// order), on the real app over HTTP with both built-in providers:
// - sandbox: the provider signs `${t}.${body}` into x-sandbox-signature, as its checkout page does;
// - razorpay: the test plays Razorpay's webhook sender (HMAC-SHA256 of the raw body with the webhook
//   secret in x-razorpay-signature, event id in x-razorpay-event-id), and a local stand-in plays its
//   REST API (test/helpers/razorpay-standin.ts).
// The plan's event names map onto what the providers send: authorized = Razorpay payment.authorized
// (acknowledged, no effect), captured = payment.captured (and order.paid, its twin), refund.created
// (acknowledged, no effect), refund.succeeded = refund.processed; failed/succeeded = sandbox
// payment.failed/payment.succeeded and Razorpay payment.failed/payment.captured.
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/db/client.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { createPaymentProvider } from '../../src/modules/payments/providers/index.ts'
import type { SandboxProvider } from '../../src/modules/payments/providers/sandbox.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenCustomer } from '../helpers/factories.ts'
import { createRazorpayStandIn } from '../helpers/razorpay-standin.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'
import { oneByteChanges, permutations, razorpayPaymentEvent, razorpayRefundEvent, reserialisations, seededRandom, uid, withWhitespace } from '../helpers/webhook-bodies.ts'

/** WH-05's event count: the plan's 1,000 on PostgreSQL; 200 on the embedded database (one connection, CI budget). */
const WH05_EVENTS = process.env.TEST_DATABASE_URL ? 1000 : 200
const WH05_PARALLEL = 20

const RZP = { keyId: 'rzp_test_WebhookPlan1', keySecret: 'webhookPlanKeySecret0123456789', webhookSecret: 'webhook-plan-secret-7' }
const standIn = createRazorpayStandIn({ keyId: RZP.keyId, keySecret: RZP.keySecret, idPrefix: 'Plan' })
const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
// One customer holds every WH-05 order unpaid until its events arrive: above the default cap of 5.
const LIMITS = { RATE_LIMIT_MAX: '1000000', RATE_LIMIT_AUTH_MAX: '1000000', MAX_UNPAID_ORDERS_PER_CUSTOMER: '1000' }

let sbx: TestApp
let sbxShop: Shop
let sandbox: SandboxProvider
let rzp: TestApp
let rzpShop: Shop

before(async () => {
  const apiBase = await standIn.listen()
  sbx = await createTestApp({ clock, env: LIMITS })
  sbxShop = await givenShop(sbx, { hotStock: WH05_EVENTS + 10 })
  sandbox = createPaymentProvider(sbx.deps.config).sandbox!
  rzp = await createTestApp({
    clock,
    env: {
      ...LIMITS,
      PAYMENT_PROVIDER: 'razorpay',
      RAZORPAY_KEY_ID: RZP.keyId,
      RAZORPAY_KEY_SECRET: RZP.keySecret,
      RAZORPAY_WEBHOOK_SECRET: RZP.webhookSecret,
      RAZORPAY_API_BASE: apiBase,
    },
  })
  rzpShop = await givenShop(rzp)
})
after(async () => {
  try {
    await sbx?.close()
  } finally {
    try {
      await rzp?.close()
    } finally {
      await standIn.close()
    }
  }
})

// ---- Shared helpers ---------------------------------------------------------------------------------

/** "1000.00" -> 100000 */
const paiseOf = (rupees: string) => {
  assert.match(rupees, /^\d+\.\d{2}$/)
  return Number(rupees.replace('.', ''))
}

interface PlacedOrder {
  customer: CustomerFixture
  id: string
  /** Paise. */
  amount: number
  /** The provider's session: sandbox session id or Razorpay order id. */
  sessionId: string
}

async function prepaidOrder(t: TestApp, shop: Shop, slug = 'earbuds', customer?: CustomerFixture): Promise<PlacedOrder> {
  const buyer = customer ?? (await givenCustomer(t.app, shop.partner))
  const res = await placeOrder(t, buyer, { items: [{ productId: shop.ids[slug]!, quantity: 1 }], shippingAddress: ADDRESS })
  assert.equal(res.statusCode, 201, res.body)
  const order = res.json().data
  const payload = order.paymentClientAction.payload
  return { customer: buyer, id: order.id, amount: paiseOf(order.amountPayable), sessionId: payload.sessionId ?? payload.order_id }
}

const deliver = (t: TestApp, provider: 'sandbox' | 'razorpay', body: Buffer | string, headers: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/v1/payments/webhooks/${provider}`, headers: headers as Record<string, string>, payload: body })

/** A signed sandbox event, as the sandbox's own checkout page sends it. */
function sandboxEvent(order: PlacedOrder, action: 'pay' | 'fail' | 'close') {
  return sandbox.signedEvent(sandbox.eventFor(action, { sessionId: order.sessionId, amount: BigInt(order.amount), currency: 'INR' }))
}

/** Razorpay's webhook sender: the raw body is what is signed. */
function razorpayDelivery(body: object, eventId: string) {
  const raw = Buffer.from(JSON.stringify(body))
  const signature = createHmac('sha256', RZP.webhookSecret).update(raw).digest('hex')
  return { raw, headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature, 'x-razorpay-event-id': eventId } }
}

/** Row counts of every table a webhook can write, and the sum of all stock. */
async function tableCounts(t: TestApp) {
  const [row] = await queryRows<Record<string, string | number>>(
    t.deps.database.db,
    sql`select (select count(*) from payment_webhook_events) as webhook_events,
               (select count(*) from outbox_events) as outbox_events,
               (select count(*) from order_status_history) as history,
               (select count(*) from payments) as payments,
               (select count(*) from refunds) as refunds,
               (select count(*) from orders) as orders,
               (select coalesce(sum(stock), 0) from products) as stock`,
  )
  const n = (key: string) => Number(row![key])
  return { webhookEvents: n('webhook_events'), outboxEvents: n('outbox_events'), history: n('history'), payments: n('payments'), refunds: n('refunds'), orders: n('orders'), stock: n('stock') }
}

/** The order's and its payments' rows as stored, plus the counts above: "no side effect" compares these. */
async function sideEffectSnapshot(t: TestApp, orderId: string) {
  const db = t.deps.database.db
  return {
    order: await db.query.orders.findFirst({ where: (o, { eq }) => eq(o.id, orderId) }),
    payments: await db.query.payments.findMany({ where: (p, { eq }) => eq(p.orderId, orderId) }),
    counts: await tableCounts(t),
  }
}

/**
 * What an order ends as, without ids and times: the order, its payments and refunds (provider ids
 * named by `roles`), its history, its stock and the effects partners see (outbox events).
 */
async function finalState(t: TestApp, orderId: string, productId: string, roles: Record<string, string>) {
  const db = t.deps.database.db
  const role = (id: string | null) => (id === null ? null : (roles[id] ?? `unexpected ${id}`))
  const order = (await db.query.orders.findFirst({ where: (o, { eq }) => eq(o.id, orderId) }))!
  const payments = await db.query.payments.findMany({ where: (p, { eq }) => eq(p.orderId, orderId) })
  const refunds = await db.query.refunds.findMany({ where: (r, { eq }) => eq(r.orderId, orderId) })
  const history = await db.query.orderStatusHistory.findMany({ where: (h, { eq }) => eq(h.orderId, orderId) })
  const events = await db.query.outboxEvents.findMany({ where: (e, { eq }) => eq(e.subjectId, orderId) })
  const product = (await db.query.products.findFirst({ where: (p, { eq }) => eq(p.id, productId) }))!
  const count = (type: string) => events.filter((e) => e.type === type).length
  return {
    status: order.status,
    paymentStatus: order.paymentStatus,
    released: order.releasedAt !== null,
    payments: payments.map((p) => ({ status: p.status, providerPaymentId: role(p.providerPaymentId), failureReason: p.failureReason })),
    refunds: refunds.map((r) => ({ status: r.status, amount: String(r.amount), providerRefundId: role(r.providerRefundId) })),
    history: history.map((h) => h.toStatus).sort(),
    stock: product.stock,
    paymentSucceededEvents: count('payment.succeeded'),
    refundSucceededEvents: count('refund.succeeded'),
  }
}

// ---- WH-02 ------------------------------------------------------------------------------------------

const providerCases = [
  {
    provider: 'sandbox' as const,
    app: () => sbx,
    async signed() {
      const order = await prepaidOrder(sbx, sbxShop)
      const { rawBody, headers } = sandboxEvent(order, 'pay')
      return { order, raw: rawBody, headers: headers as Record<string, unknown> }
    },
  },
  {
    provider: 'razorpay' as const,
    app: () => rzp,
    async signed() {
      const order = await prepaidOrder(rzp, rzpShop)
      const { raw, headers } = razorpayDelivery(razorpayPaymentEvent('payment.captured', { id: `pay_${uid()}`, order_id: order.sessionId, amount: order.amount }), `evt_${uid()}`)
      return { order, raw, headers: headers as Record<string, unknown> }
    },
  },
]

describe('a tampered webhook body', () => {
  for (const { provider, app, signed } of providerCases) {
    test(`${provider}: a signed payment success with 1 byte changed (each byte in turn), re-serialised JSON or added whitespace is refused 401 with no side effect; the untouched body is then applied`, async () => {
      const t = app()
      const { order, raw, headers } = await signed()
      const text = raw.toString('utf8')
      const before = await sideEffectSnapshot(t, order.id)
      assert.equal(before.order!.status, 'PENDING_PAYMENT')

      const refusedAs = async (body: Buffer, what: string) => {
        assert.notDeepEqual(body, raw, `${what}: the variant must differ from the signed bytes`)
        const res = await deliver(t, provider, body, headers)
        assert.equal(res.statusCode, 401, `${what}: ${res.statusCode} ${res.body}`)
        assert.equal(res.json().message, 'Invalid webhook signature', what)
      }

      // (a) one byte changed. Letters and digits stay letters and digits: those bodies are still valid
      // JSON naming another session, payment, amount or event id, which only the signature can catch.
      let stillJson = 0
      for (const [i, body] of oneByteChanges(raw).entries()) {
        try {
          JSON.parse(body.toString('utf8'))
          stillJson++
        } catch {
          // Not JSON any more: refused all the same.
        }
        await refusedAs(body, `byte ${i} changed (${JSON.stringify(text[i] ?? '')})`)
      }
      assert.ok(stillJson > raw.length / 2, `most one-byte changes must still be JSON for this to test the signature (${stillJson} of ${raw.length})`)

      // (b) the same JSON value, serialised again: the signature is over the bytes, not the value.
      // (c) whitespace added, also the same value.
      for (const [what, variant] of Object.entries({ ...reserialisations(text), ...withWhitespace(text) })) {
        assert.deepEqual(JSON.parse(variant), JSON.parse(text), `${what}: must mean the same as the signed body`)
        await refusedAs(Buffer.from(variant, 'utf8'), what)
      }

      assert.deepEqual(await sideEffectSnapshot(t, order.id), before, 'no refused delivery changed the order, its payments or any table')

      // The untouched body and signature are valid, and the refusals did not burn the event id.
      const genuine = await deliver(t, provider, raw, headers)
      assert.equal(genuine.statusCode, 200, genuine.body)
      assert.deepEqual(genuine.json().data, { received: true, duplicate: false })
      const after = await sideEffectSnapshot(t, order.id)
      assert.equal(after.order!.status, 'CONFIRMED')
      assert.equal(after.order!.paymentStatus, 'PAID')
      assert.equal(after.payments[0]!.status, 'SUCCEEDED')
    })
  }
})

// ---- WH-05 ------------------------------------------------------------------------------------------

describe('the same webhook delivered several times', () => {
  test(`${WH05_EVENTS} distinct payment events (1,000 on PostgreSQL, 200 on PGlite) × 3 deliveries, shuffled, ${WH05_PARALLEL} at a time: ${3 * WH05_EVENTS} × 200 and each effect applied exactly once`, async () => {
    const t = sbx
    const db = t.deps.database.db
    const seed = 0x5eed05
    const random = seededRandom(seed)

    // One order per event, spread over a few customers, placed 20 at a time.
    const customers = await Promise.all(Array.from({ length: 10 }, () => givenCustomer(t.app, sbxShop.partner)))
    const orders: PlacedOrder[] = []
    for (let start = 0; start < WH05_EVENTS; start += WH05_PARALLEL) {
      const batch = Array.from({ length: Math.min(WH05_PARALLEL, WH05_EVENTS - start) }, (_, i) => prepaidOrder(t, sbxShop, 'hot', customers[(start + i) % customers.length]))
      orders.push(...(await Promise.all(batch)))
    }
    const stockBefore = (await db.query.products.findFirst({ where: (p, { eq }) => eq(p.id, sbxShop.ids.hot!) }))!.stock
    const countsBefore = await tableCounts(t)
    const events = orders.map((order) => sandboxEvent(order, 'pay'))
    const eventIds = events.map((e) => (JSON.parse(e.rawBody.toString()) as { id: string }).id)
    assert.equal(new Set(eventIds).size, WH05_EVENTS, 'distinct event ids')

    // 3 deliveries of each, shuffled (Fisher-Yates), sent in batches in parallel.
    const deliveries = events.flatMap((_, i) => [i, i, i])
    for (let i = deliveries.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      ;[deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!]
    }
    let sameBatch = 0
    const firsts = new Map<number, number>()
    const statuses = new Map<number, number>()
    for (let start = 0; start < deliveries.length; start += WH05_PARALLEL) {
      const batch = deliveries.slice(start, start + WH05_PARALLEL)
      sameBatch += batch.length - new Set(batch).size
      const answers = await Promise.all(batch.map((i) => deliver(t, 'sandbox', events[i]!.rawBody, events[i]!.headers as Record<string, unknown>)))
      for (const [k, res] of answers.entries()) {
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
        if (res.statusCode !== 200) continue
        if (res.json().data.duplicate === false) firsts.set(batch[k]!, (firsts.get(batch[k]!) ?? 0) + 1)
      }
    }
    assert.ok(sameBatch > 0, `the shuffle (seed ${seed}) must put some repeats of one event in the same parallel batch`)
    assert.deepEqual(Object.fromEntries(statuses), { 200: 3 * WH05_EVENTS }, `every delivery acknowledged 200 (seed ${seed})`)
    assert.equal(firsts.size, WH05_EVENTS, 'each event applied by one of its deliveries')
    assert.deepEqual([...new Set(firsts.values())], [1], 'and by only one: the other two answered duplicate')

    // The effects, counted in the database: exactly one per event.
    const countsAfter = await tableCounts(t)
    assert.equal(countsAfter.webhookEvents - countsBefore.webhookEvents, WH05_EVENTS, 'one recorded provider event per event')
    assert.equal(countsAfter.history - countsBefore.history, WH05_EVENTS, 'one CONFIRMED history row per order')
    assert.equal(countsAfter.refunds, countsBefore.refunds, 'no "already paid" refund')
    assert.equal(countsAfter.payments, countsBefore.payments)
    const ids = orders.map((o) => o.id)
    const [confirmed] = await queryRows<{ orders: string | number; paid: string | number; succeeded: string | number; confirmations: string | number; paymentEvents: string | number }>(
      db,
      sql`select (select count(*) from orders where id in ${ids} and status = 'CONFIRMED' and payment_status = 'PAID') as orders,
                 (select count(*) from payments where order_id in ${ids}) as paid,
                 (select count(*) from payments where order_id in ${ids} and status = 'SUCCEEDED') as succeeded,
                 (select count(*) from order_status_history where order_id in ${ids} and to_status = 'CONFIRMED') as confirmations,
                 (select count(*) from outbox_events where subject_id in ${ids} and type = 'payment.succeeded') as "paymentEvents"`,
    )
    assert.deepEqual(
      Object.fromEntries(Object.entries(confirmed!).map(([k, v]) => [k, Number(v)])),
      { orders: WH05_EVENTS, paid: WH05_EVENTS, succeeded: WH05_EVENTS, confirmations: WH05_EVENTS, paymentEvents: WH05_EVENTS },
    )
    const stockAfter = (await db.query.products.findFirst({ where: (p, { eq }) => eq(p.id, sbxShop.ids.hot!) }))!.stock
    assert.equal(stockAfter, stockBefore, 'payment confirms the reservation: no stock moves')
  })
})

// ---- WH-06 ------------------------------------------------------------------------------------------

describe('webhooks delivered out of order', () => {
  /** Delivers in the given order; each is a new event, acknowledged 200. */
  async function deliverAll(deliveries: { raw: Buffer; headers: Record<string, unknown> }[]) {
    for (const d of deliveries) {
      const res = await deliver(rzp, 'razorpay', d.raw, d.headers)
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().data.duplicate, false)
    }
  }

  type Delivery = { raw: Buffer; headers: Record<string, unknown> }
  /**
   * For every order of the four events: `setUp` places an order and makes its events, they are
   * delivered in that order, and the order's final state (less its stock) must be `expected`.
   */
  async function everyDeliveryOrder<N extends string>(
    names: readonly [N, N, N, N],
    setUp: () => Promise<{ events: Record<N, Delivery>; state: () => Promise<object> }>,
    expected: object,
  ) {
    const states: { order: string; state: object }[] = []
    for (const order of permutations([...names])) {
      const { events, state } = await setUp()
      await deliverAll(order.map((name) => events[name]))
      states.push({ order: order.join(' > '), state: await state() })
    }
    assert.equal(states.length, 24)
    for (const { order, state } of states) {
      const { stock: _stock, ...comparable } = state as { stock?: number }
      assert.deepEqual(comparable, expected, `delivered as ${order}`)
    }
  }

  test('razorpay: a paid order cancelled with its refund pending; all 24 orders of {payment.authorized, payment.captured, refund.created, refund.processed}: one final state, refunded once', async () => {
    standIn.reset()
    standIn.refundStatus = 'pending'
    try {
      const setUp = async () => {
        const placed = await prepaidOrder(rzp, rzpShop, 'earbuds')
        const stock = (await rzp.deps.database.db.query.products.findFirst({ where: (p, { eq }) => eq(p.id, rzpShop.ids.earbuds!) }))!.stock
        const paymentId = `pay_${uid()}`
        const payment = { id: paymentId, order_id: placed.sessionId, amount: placed.amount }
        // Razorpay sends order.paid and payment.captured (and payment.authorized before them) for one
        // payment, each with its own event id: order.paid confirms the order here, the others are late.
        const paid = razorpayDelivery(razorpayPaymentEvent('order.paid', payment), `evt_${uid()}`)
        await deliverAll([paid])
        const cancelled = await rzp.app.inject({ method: 'POST', url: `/api/v1/orders/${placed.id}/cancel`, headers: customerHeaders(placed.customer), payload: { reason: 'Ordered by mistake' } })
        assert.equal(cancelled.statusCode, 200, cancelled.body)
        const [refund] = cancelled.json().data.refunds
        assert.equal(refund.status, 'PENDING', 'the refund waits for Razorpay')
        const refundEntity = { id: refund.providerRefundId as string, payment_id: paymentId, amount: placed.amount, ours: refund.id as string }
        const events = {
          'payment.authorized': razorpayDelivery(razorpayPaymentEvent('payment.authorized', payment), `evt_${uid()}`),
          'payment.captured': razorpayDelivery(razorpayPaymentEvent('payment.captured', payment), `evt_${uid()}`),
          'refund.created': razorpayDelivery(razorpayRefundEvent('refund.created', refundEntity), `evt_${uid()}`),
          'refund.processed': razorpayDelivery(razorpayRefundEvent('refund.processed', refundEntity), `evt_${uid()}`),
        }
        const state = async () => {
          const final = await finalState(rzp, placed.id, rzpShop.ids.earbuds!, { [paymentId]: 'the payment', [refundEntity.id]: 'the refund' })
          const refundCalls = standIn.sent('POST', `/v1/payments/${paymentId}/refund`).length
          const refunds = final.refunds.map((r) => ({ ...r, amount: r.amount === String(placed.amount) ? 'all that was paid' : r.amount }))
          return { ...final, refunds, stockBack: final.stock === stock + 1, refundCalls }
        }
        return { events, state }
      }
      await everyDeliveryOrder(['payment.authorized', 'payment.captured', 'refund.created', 'refund.processed'], setUp, {
        status: 'CANCELLED',
        paymentStatus: 'REFUNDED',
        released: true,
        payments: [{ status: 'SUCCEEDED', providerPaymentId: 'the payment', failureReason: null }],
        refunds: [{ status: 'SUCCEEDED', amount: 'all that was paid', providerRefundId: 'the refund' }],
        history: ['CANCELLED', 'CONFIRMED', 'PENDING_PAYMENT'],
        paymentSucceededEvents: 1,
        refundSucceededEvents: 1,
        stockBack: true,
        refundCalls: 1,
      })
    } finally {
      standIn.reset()
    }
  })

  test('razorpay: never paid (attempt 1 failed, attempt 2 authorized but never captured and refunded by Razorpay); all 24 orders of {payment.failed, payment.authorized, refund.created, refund.processed}: pending with a failed payment, never paid', async () => {
    const setUp = async () => {
      const placed = await prepaidOrder(rzp, rzpShop, 'atta')
      const failedId = `pay_${uid()}`
      const authorizedId = `pay_${uid()}`
      const autoRefund = { id: `rfnd_${uid()}`, payment_id: authorizedId, amount: placed.amount, ours: null }
      const events = {
        'payment.failed': razorpayDelivery(razorpayPaymentEvent('payment.failed', { id: failedId, order_id: placed.sessionId, amount: placed.amount }), `evt_${uid()}`),
        'payment.authorized': razorpayDelivery(razorpayPaymentEvent('payment.authorized', { id: authorizedId, order_id: placed.sessionId, amount: placed.amount }), `evt_${uid()}`),
        'refund.created': razorpayDelivery(razorpayRefundEvent('refund.created', autoRefund), `evt_${uid()}`),
        'refund.processed': razorpayDelivery(razorpayRefundEvent('refund.processed', autoRefund), `evt_${uid()}`),
      }
      return { events, state: () => finalState(rzp, placed.id, rzpShop.ids.atta!, { [failedId]: 'attempt 1', [authorizedId]: 'attempt 2' }) }
    }
    await everyDeliveryOrder(['payment.failed', 'payment.authorized', 'refund.created', 'refund.processed'], setUp, {
      status: 'PENDING_PAYMENT',
      paymentStatus: 'PENDING',
      released: false,
      payments: [{ status: 'FAILED', providerPaymentId: 'attempt 1', failureReason: 'Payment was unsuccessful as the bank declined it' }],
      refunds: [],
      history: ['PENDING_PAYMENT'],
      paymentSucceededEvents: 0,
      refundSucceededEvents: 0,
    })
  })

  test('razorpay: attempt 1 failed, attempt 2 paid; all 24 orders of {payment.failed, payment.authorized, payment.captured, order.paid}: confirmed and paid once', async () => {
    const setUp = async () => {
      const placed = await prepaidOrder(rzp, rzpShop, 'earbuds')
      const failedId = `pay_${uid()}`
      const paidId = `pay_${uid()}`
      const attempt2 = { id: paidId, order_id: placed.sessionId, amount: placed.amount }
      const events = {
        'payment.failed': razorpayDelivery(razorpayPaymentEvent('payment.failed', { id: failedId, order_id: placed.sessionId, amount: placed.amount }), `evt_${uid()}`),
        'payment.authorized': razorpayDelivery(razorpayPaymentEvent('payment.authorized', attempt2), `evt_${uid()}`),
        'payment.captured': razorpayDelivery(razorpayPaymentEvent('payment.captured', attempt2), `evt_${uid()}`),
        'order.paid': razorpayDelivery(razorpayPaymentEvent('order.paid', attempt2), `evt_${uid()}`),
      }
      return { events, state: () => finalState(rzp, placed.id, rzpShop.ids.earbuds!, { [failedId]: 'attempt 1', [paidId]: 'attempt 2' }) }
    }
    await everyDeliveryOrder(['payment.failed', 'payment.authorized', 'payment.captured', 'order.paid'], setUp, {
      status: 'CONFIRMED',
      paymentStatus: 'PAID',
      released: false,
      payments: [{ status: 'SUCCEEDED', providerPaymentId: 'attempt 2', failureReason: null }],
      refunds: [],
      history: ['CONFIRMED', 'PENDING_PAYMENT'],
      paymentSucceededEvents: 1,
      refundSucceededEvents: 0,
    })
  })

  test('sandbox: both orders of {payment.failed, payment.succeeded} end paid; both orders of {payment.failed, payment.closed} never paid', async () => {
    const run = async (actions: ('pay' | 'fail' | 'close')[]) => {
      const placed = await prepaidOrder(sbx, sbxShop, 'earbuds')
      for (const action of actions) {
        const { rawBody, headers } = sandboxEvent(placed, action)
        const res = await deliver(sbx, 'sandbox', rawBody, headers as Record<string, unknown>)
        assert.equal(res.statusCode, 200, res.body)
      }
      const state = await finalState(sbx, placed.id, sbxShop.ids.earbuds!, {})
      const { stock: _stock, ...comparable } = state
      // The sandbox gives every attempt a fresh payment id: compare whether one is set, not which.
      return { ...comparable, payments: comparable.payments.map((p) => ({ ...p, providerPaymentId: p.providerPaymentId !== null })) }
    }
    const paid = {
      status: 'CONFIRMED',
      paymentStatus: 'PAID',
      released: false,
      payments: [{ status: 'SUCCEEDED', providerPaymentId: true, failureReason: null }],
      refunds: [],
      history: ['CONFIRMED', 'PENDING_PAYMENT'],
      paymentSucceededEvents: 1,
      refundSucceededEvents: 0,
    }
    assert.deepEqual(await run(['fail', 'pay']), paid, 'failed > succeeded')
    assert.deepEqual(await run(['pay', 'fail']), paid, 'succeeded > failed')
    const neverPaid = {
      status: 'PENDING_PAYMENT',
      paymentStatus: 'PENDING',
      released: false,
      payments: [{ status: 'FAILED', providerPaymentId: true, failureReason: 'Payment declined in the sandbox' }],
      refunds: [],
      history: ['PENDING_PAYMENT'],
      paymentSucceededEvents: 0,
      refundSucceededEvents: 0,
    }
    assert.deepEqual(await run(['fail', 'close']), neverPaid, 'failed > closed')
    assert.deepEqual(await run(['close', 'fail']), neverPaid, 'closed > failed')
  })
})
