// FT-09 (reliability plan 7.4): the payment provider down under a prepaid order load, against the
// real server process with PAYMENT_PROVIDER=razorpay pointed at the local stand-in. Razorpay answers
// 500 for a while, then never answers (longer than the provider timeout), then recovers.
// Orders placed meanwhile are 201 (docs/orders.md: the order stands, its payment FAILED, client
// action NONE) and stay PENDING_PAYMENT with their stock held; no session call outlives the
// provider timeout; after recovery POST /orders/{id}/payments opens a checkout for every one of
// them; no payment attempt is sent to Razorpay twice and no order has two open checkouts. Then the
// reconciliation: reservations run out while Razorpay's status API is down (nothing is cancelled:
// who paid cannot be told), and once it is back the sweeper resolves every order within two runs.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { customerHeaders } from '../helpers/factories.ts'
import { durations, type FaultShop, type PlacedOrder, percentile, prepareFaultShop, serverEnv, startLoad, timed } from '../helpers/fault-load.ts'
import { invariantViolations } from '../helpers/invariants.ts'
import { createRazorpayStandIn } from '../helpers/razorpay-standin.ts'
import { type ServerProcess, sleep, startServerProcess, startThrowawayPostgres, type ThrowawayPostgres } from '../helpers/throwaway.ts'

const CLIENTS = 4
/** The server's background jobs (the reservation sweeper, which reconciles payments) run this often. */
const JOB_INTERVAL_MS = 1000
/** RAZORPAY_TIMEOUT_MS, the bound of every Razorpay call (5 s by default). */
const PROVIDER_TIMEOUT_MS = 3000
const KEY_ID = 'rzp_test_Outage0001'
const KEY_SECRET = 'outageKeySecret0123456789'
const razorpay = createRazorpayStandIn({ keyId: KEY_ID, keySecret: KEY_SECRET, idPrefix: 'Out' })
let postgres: ThrowawayPostgres
let fs: FaultShop
let server: ServerProcess

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => postgres.query<T>(text, params, 'app')
type Answer = { id: string; status: string; paymentClientAction: { type: string }; payment: { id: string; status: string; failureReason: string | null } }
const answerOf = (p: PlacedOrder) => p.answer as unknown as Answer

describe('payment provider outage under a prepaid order load', { timeout: 200_000 }, () => {
  before(async () => {
    postgres = await startThrowawayPostgres()
    const url = await postgres.createDatabase('app')
    fs = await prepareFaultShop(url, CLIENTS)
    const apiBase = await razorpay.listen()
    server = await startServerProcess(
      serverEnv(url, null, {
        PAYMENT_PROVIDER: 'razorpay',
        RAZORPAY_KEY_ID: KEY_ID,
        RAZORPAY_KEY_SECRET: KEY_SECRET,
        RAZORPAY_WEBHOOK_SECRET: 'outage-webhook-secret-42',
        RAZORPAY_API_BASE: apiBase,
        JOB_INTERVAL_MS: String(JOB_INTERVAL_MS),
        RAZORPAY_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS),
      }),
    )
    await server.ready()
  })
  after(async () => {
    server?.kill('SIGKILL')
    await razorpay.close()
    await fs?.close().catch(() => {})
    await postgres?.cleanup()
  })

  test('Razorpay 500s, then hangs past the timeout, then recovers: orders 201 and PENDING_PAYMENT, bounded waits, a checkout for each after recovery, nothing opened twice', async () => {
    const hot = fs.shop.ids.hot!
    const stockOf = async () => (await sql<{ stock: number }>('select stock from products where id = $1', [hot]))[0]!.stock
    const stockBefore = await stockOf()
    const isSession = (r: { method: string; path: string }) => r.method === 'POST' && r.path === '/v1/orders'

    const load = startLoad(server.base, fs, fs.customers, { reads: false, paymentMode: 'PREPAID', pauseMs: 200 })
    await sleep(2000)
    // The session calls the outage answered, whatever the clock says: a call answered normally in
    // the same millisecond as the switch carries the switch's time (a CI run saw one).
    const outageAnswered = new Set<unknown>()
    const errorsAt = Date.now()
    razorpay.override = (r) => {
      if (!isSession(r)) return null
      outageAnswered.add(r)
      return { status: 500, body: { error: { code: 'SERVER_ERROR', description: 'We are facing some trouble completing your request at the moment.' } } }
    }
    await sleep(4000)
    const hangAt = Date.now()
    razorpay.override = (r) => {
      if (!isSession(r)) return null
      outageAnswered.add(r)
      return 'hang'
    }
    await sleep(PROVIDER_TIMEOUT_MS + 2000)
    const recoveredAt = Date.now()
    razorpay.override = null
    await sleep(3000)
    await load.stop()

    const orders = load.samples.filter((s) => s.kind === 'order')
    assert.deepEqual(orders.filter((s) => s.status !== 201).map((s) => s.status), [], `every order 201 (docs/orders.md), no 5xx\n${server.output().slice(-3000)}`)
    assert.deepEqual(load.unexpected, [])

    // What the client was told, by when it asked.
    const sessionRequests = razorpay.requests.filter(isSession)
    const noCheckout = load.placed.filter((p) => answerOf(p).paymentClientAction.type === 'NONE')
    const withCheckout = load.placed.filter((p) => answerOf(p).paymentClientAction.type === 'RAZORPAY_CHECKOUT')
    assert.equal(noCheckout.length + withCheckout.length, load.placed.length)
    for (const p of noCheckout) {
      const answer = answerOf(p)
      assert.equal(answer.status, 'PENDING_PAYMENT')
      assert.equal(answer.payment.status, 'FAILED')
      assert.ok(answer.payment.failureReason, 'a FAILED payment says why')
    }
    for (const p of withCheckout) assert.equal(answerOf(p).payment.status, 'PENDING')
    // A session call during the errors or the hang never produced a checkout.
    const sessionOf = (p: PlacedOrder) => sessionRequests.find((r) => (r.body?.notes as { paymentId?: string } | undefined)?.paymentId === answerOf(p).payment.id)
    const duringErrors = noCheckout.filter((p) => sessionOf(p)!.at >= errorsAt && sessionOf(p)!.at < hangAt).length
    const duringHang = noCheckout.filter((p) => sessionOf(p)!.at >= hangAt && sessionOf(p)!.at < recoveredAt).length
    assert.equal(noCheckout.filter((p) => !outageAnswered.has(sessionOf(p))).length, 0, 'only calls during the outage failed')
    assert.ok(duringErrors > 0 && duringHang > 0, `orders were placed in both phases (500s: ${duringErrors}, hang: ${duringHang})`)
    assert.equal(withCheckout.filter((p) => outageAnswered.has(sessionOf(p))).length, 0, 'no checkout came from a call the outage answered')

    // Every session call is cut off by the provider timeout: no order answer waits much longer.
    const hungAnswers = orders.filter((s) => s.start >= hangAt - 500 && s.start < recoveredAt)
    const slowest = Math.max(...durations(hungAnswers))
    assert.ok(slowest >= PROVIDER_TIMEOUT_MS - 100, `a call during the hang waited for the timeout (slowest ${slowest} ms)`)
    assert.ok(slowest <= PROVIDER_TIMEOUT_MS + 2000, `slowest order answer while Razorpay hung: ${slowest} ms (timeout ${PROVIDER_TIMEOUT_MS} ms + 2 s)`)
    const errorAnswers = orders.filter((s) => s.start >= errorsAt && s.end < hangAt)

    // The orders stand, holding their stock.
    const states = await sql<{ status: string; n: number }>(
      `select status, count(*)::int as n from orders where id = any($1) group by status`,
      [load.placed.map((p) => p.orderId)],
    )
    assert.deepEqual(states, [{ status: 'PENDING_PAYMENT', n: load.placed.length }])
    assert.equal(stockBefore - (await stockOf()), load.placed.length, 'each order holds its stock')

    // After recovery the client asks for a new payment: a checkout for every order, at the first try.
    let retries = 0
    for (const p of noCheckout) {
      let res
      for (let attempt = 1; attempt <= 2; attempt++) {
        res = await timed('order', `${server.base}/orders/${p.orderId}/payments`, {
          method: 'POST',
          headers: { ...customerHeaders(p.customer), 'x-idempotency-key': randomUUID() },
        })
        if (res.status === 201) break
        retries++
      }
      assert.equal(res!.status, 201, JSON.stringify(res!.body))
      assert.equal((res!.body as { data: { clientAction: { type: string } } }).data.clientAction.type, 'RAZORPAY_CHECKOUT')
    }
    assert.equal(retries, 0, 'every new payment opened a checkout at the first try')

    // Never charged twice: each payment attempt went to Razorpay once, and each order has exactly
    // one open checkout (older attempts FAILED or EXPIRED), none paid.
    const perPayment = new Map<string, number>()
    for (const r of razorpay.requests.filter(isSession)) {
      const paymentId = (r.body?.notes as { paymentId: string }).paymentId
      perPayment.set(paymentId, (perPayment.get(paymentId) ?? 0) + 1)
    }
    assert.deepEqual([...perPayment].filter(([, n]) => n > 1), [], 'no payment attempt sent to Razorpay twice')
    const open = await sql<{ order_id: string; pending: number; succeeded: number }>(
      `select order_id, count(*) filter (where status = 'PENDING')::int as pending, count(*) filter (where status = 'SUCCEEDED')::int as succeeded
         from payments where order_id = any($1) group by order_id`,
      [load.placed.map((p) => p.orderId)],
    )
    assert.equal(open.length, load.placed.length)
    assert.deepEqual(open.filter((o) => o.pending !== 1 || o.succeeded !== 0), [], 'one open checkout per order')
    const receipts = new Set(razorpay.requests.filter(isSession).map((r) => r.body?.receipt))
    assert.equal(receipts.size, load.placed.length, 'Razorpay saw one receipt (order number) per order')

    // Reconciliation. Every third customer paid in the checkout and Razorpay's webhook never came;
    // the others never paid. The reservations run out (moved into the past) while Razorpay's status
    // API is still down: the sweeper cannot tell who paid, so it cancels nothing. Once Razorpay is
    // back, every order is resolved within two sweeper runs: paid ones confirmed, the rest cancelled
    // with their stock back, nothing refunded.
    const sessions = await sql<{ order_id: string; provider_session_id: string; amount: string }>(
      `select order_id, provider_session_id, amount::text from payments where status = 'PENDING' and order_id = any($1) order by order_id`,
      [load.placed.map((p) => p.orderId)],
    )
    const paidAtRazorpay = new Set(sessions.filter((_, i) => i % 3 === 0).map((s) => s.order_id))
    for (const [i, session] of sessions.entries()) {
      if (!paidAtRazorpay.has(session.order_id)) continue
      const payment = { id: `pay_OutLate${i}`, entity: 'payment' as const, order_id: session.provider_session_id, amount: Number(session.amount), currency: 'INR', status: 'captured' as const }
      razorpay.paymentsByOrder.set(session.provider_session_id, [payment])
    }
    const isStatus = (r: { method: string; path: string }) => r.method === 'GET' && /^\/v1\/orders\/[^/]+\/payments$/.test(r.path)
    razorpay.override = (r) => (isStatus(r) ? { status: 500, body: { error: { code: 'SERVER_ERROR', description: 'We are facing some trouble completing your request at the moment.' } } } : null)
    const statusDownAt = Date.now()
    await sql(`update orders set reservation_expires_at = now() - interval '1 second' where id = any($1)`, [load.placed.map((p) => p.orderId)])
    await sleep(2.5 * JOB_INTERVAL_MS)
    const askedWhileDown = new Set(razorpay.requests.filter((r) => isStatus(r) && r.at >= statusDownAt).map((r) => r.path))
    assert.ok(askedWhileDown.size > 0, 'the sweeper ran and asked while the status API was down')
    const whileDown = await sql<{ status: string; n: number }>(`select status, count(*)::int as n from orders where id = any($1) group by status`, [load.placed.map((p) => p.orderId)])
    assert.deepEqual(whileDown, [{ status: 'PENDING_PAYMENT', n: load.placed.length }], 'nothing cancelled or confirmed while payments could not be checked')

    const statusBackAt = Date.now()
    razorpay.override = null
    let resolvedMs = -1
    while (Date.now() - statusBackAt < 4 * JOB_INTERVAL_MS + 10_000) {
      const [{ n }] = (await sql<{ n: number }>(`select count(*)::int as n from orders where id = any($1) and status = 'PENDING_PAYMENT'`, [load.placed.map((p) => p.orderId)])) as [{ n: number }]
      if (n === 0) {
        resolvedMs = Date.now() - statusBackAt
        break
      }
      await sleep(100)
    }
    assert.ok(resolvedMs >= 0, 'every order resolved after Razorpay came back')
    const outcome = await sql<{ id: string; status: string; payment_status: string }>(`select id, status, payment_status from orders where id = any($1)`, [load.placed.map((p) => p.orderId)])
    for (const o of outcome) {
      const expected = paidAtRazorpay.has(o.id) ? ['CONFIRMED', 'PAID'] : ['CANCELLED', 'PENDING']
      assert.deepEqual([o.status, o.payment_status], expected, o.id)
    }
    // Within two runs: no session asked about more than twice after Razorpay came back.
    const askedAfter = new Map<string, number>()
    for (const r of razorpay.requests.filter((r) => isStatus(r) && r.at >= statusBackAt)) askedAfter.set(r.path, (askedAfter.get(r.path) ?? 0) + 1)
    assert.equal(askedAfter.size, sessions.length, 'every open session asked about after recovery')
    assert.deepEqual([...askedAfter].filter(([, n]) => n > 2), [], 'each resolved within two runs')
    assert.equal(stockBefore - (await stockOf()), paidAtRazorpay.size, 'stock of the cancelled orders is back; the paid ones keep theirs')
    assert.equal(razorpay.requests.filter((r) => r.method === 'POST' && /\/refund$/.test(r.path)).length, 0, 'nothing refunded')

    assert.deepEqual(await invariantViolations(fs.database.db, { now: new Date() }), [], 'invariant sweep I1-I8')
    console.log(
      `FT-09 Razorpay 500 for ${((hangAt - errorsAt) / 1000).toFixed(1)} s, then hung ${((recoveredAt - hangAt) / 1000).toFixed(1)} s (timeout ${PROVIDER_TIMEOUT_MS / 1000} s), then back: ` +
        `${load.placed.length} prepaid orders, all 201 and PENDING_PAYMENT, 0 5xx; ${noCheckout.length} answered NONE with the payment FAILED (${duringErrors} during the 500s, ${duringHang} during the hang); ` +
        `order answers during the 500s p99 ${percentile(durations(errorAnswers), 99)} ms, during the hang slowest ${slowest} ms; ` +
        `after recovery ${noCheckout.length}/${noCheckout.length} POST /orders/{id}/payments opened a checkout at the first try; ` +
        `${sessionRequests.length + noCheckout.length} session calls for ${perPayment.size} payment attempts (each sent once), one open checkout per order; ` +
        `reservations expired with the status API down: ${askedWhileDown.size} sessions asked, 0 orders cancelled; after it came back all ${load.placed.length} resolved in ${resolvedMs} ms ` +
        `(${paidAtRazorpay.size} paid without a webhook confirmed, ${load.placed.length - paidAtRazorpay.size} cancelled), each session asked at most ${Math.max(...askedAfter.values())} times; invariant sweep clean`,
    )
  })
})
