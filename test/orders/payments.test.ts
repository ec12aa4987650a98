import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { sql } from 'drizzle-orm'
import { ManualClock } from '../../src/lib/clock.ts'
import { createCoupon } from '../../src/modules/checkout/coupons.ts'
import { ledgerBalances } from '../../src/modules/ledgers/ledger.ts'
import { createPaymentProvider } from '../../src/modules/payments/providers/index.ts'
import { SANDBOX_SIGNATURE_HEADER, type SandboxProvider } from '../../src/modules/payments/providers/sandbox.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, credit, givenShop, placeOrder, sandboxAction, type Shop, stockOf } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop
let sandbox: SandboxProvider

before(async () => {
  t = await createTestApp({ clock })
  shop = await givenShop(t)
  sandbox = createPaymentProvider(t.deps.config).sandbox!
  await createCoupon(t.deps.database.db, shop.partner.partnerId, { code: 'TEN', kind: 'FLAT', value: 1000n, totalUsageLimit: 100 }, clock.now())
})
after(() => t.close())

const item = (slug: string, quantity = 1) => ({ productId: shop.ids[slug]!, quantity })
const get = (customer: CustomerFixture, url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: customerHeaders(customer) })
const post = (customer: CustomerFixture, url: string, payload?: object, key?: string) =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { ...customerHeaders(customer), ...(key ? { 'x-idempotency-key': key } : {}) }, payload })
const webhook = (body: Buffer, headers: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/v1/payments/webhooks/sandbox', headers: headers as Record<string, string>, payload: body })
const events = (subjectId: string, type: string) =>
  t.deps.database.db.query.outboxEvents.findMany({ where: (e, { and, eq }) => and(eq(e.subjectId, subjectId), eq(e.type, type)) })

async function prepaidOrder(customer: CustomerFixture, payload: object = {}) {
  const res = await placeOrder(t, customer, { items: [item('earbuds')], shippingAddress: ADDRESS, ...payload })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data
}

describe('provider webhooks', () => {
  test('delivered three times and out of order (failure after success): one effect', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await prepaidOrder(customer)
    const session = { sessionId: order.paymentClientAction.payload.sessionId, amount: 100_000n, currency: 'INR' }
    const paid = sandbox.signedEvent(sandbox.eventFor('pay', session))
    const failed = sandbox.signedEvent(sandbox.eventFor('fail', session))
    const answers = []
    for (const e of [paid, failed, paid, paid]) answers.push((await webhook(e.rawBody, e.headers)).json().data)
    assert.deepEqual(answers.map((a) => a.duplicate), [false, false, true, true])
    const fetched = (await get(customer, `/orders/${order.id}`)).json().data
    assert.equal(fetched.status, 'CONFIRMED')
    assert.equal(fetched.payment.status, 'SUCCEEDED')
    assert.equal(fetched.statusHistory.length, 2)
    assert.equal((await events(order.id, 'payment.succeeded')).length, 1)
    assert.equal((await events(order.id, 'payment.failed')).length, 0)
  })

  test('a failure first, then a success, still confirms; a drop after success changes nothing', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await prepaidOrder(customer)
    const session = { sessionId: order.paymentClientAction.payload.sessionId, amount: 100_000n, currency: 'INR' }
    for (const action of ['fail', 'pay', 'close'] as const) {
      const e = sandbox.signedEvent(sandbox.eventFor(action, session))
      assert.equal((await webhook(e.rawBody, e.headers)).statusCode, 200)
    }
    const fetched = (await get(customer, `/orders/${order.id}`)).json().data
    assert.equal(fetched.status, 'CONFIRMED')
    assert.equal(fetched.payment.status, 'SUCCEEDED')
  })

  test('a forged or stale signature is refused with 401 and changes nothing', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await prepaidOrder(customer)
    const session = { sessionId: order.paymentClientAction.payload.sessionId, amount: 100_000n, currency: 'INR' }
    const real = sandbox.signedEvent(sandbox.eventFor('pay', session))
    const forgedBody = Buffer.from(real.rawBody.toString().replace('"amount":100000', '"amount":1'))
    const stale = `t=${Math.floor(Date.now() / 1000) - 3600},v1=${'0'.repeat(64)}`
    for (const [body, signature] of [
      [forgedBody, real.headers['x-sandbox-signature']],
      [real.rawBody, 'garbage'],
      [real.rawBody, stale],
      [real.rawBody, undefined],
    ] as const) {
      const res = await webhook(body, { 'content-type': 'application/json', ...(signature ? { 'x-sandbox-signature': signature } : {}) })
      assert.equal(res.statusCode, 401, String(signature))
      assert.equal(res.json().message, 'Invalid webhook signature')
    }
    assert.equal((await get(customer, `/orders/${order.id}`)).json().data.status, 'PENDING_PAYMENT')
  })

  test('a signed body that is JSON but not an event (null, a number, a list, an amount that is not whole paise) is refused 401, never a 500, and changes nothing', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await prepaidOrder(customer)
    const session = { sessionId: order.paymentClientAction.payload.sessionId, amount: 100_000n, currency: 'INR' }
    const real = sandbox.eventFor('pay', session)
    for (const body of [null, 5, [real], { ...real, amount: 1.5 }, { ...real, amount: 'all of it' }]) {
      const e = sandbox.signedEvent(body as unknown as typeof real)
      const res = await webhook(e.rawBody, e.headers)
      assert.equal(res.statusCode, 401, `${JSON.stringify(body)}: ${res.body}`)
      assert.equal(res.json().message, 'Invalid webhook signature')
    }
    assert.equal((await get(customer, `/orders/${order.id}`)).json().data.status, 'PENDING_PAYMENT')
  })

  test('a signature header with two v1 values (a secret being rotated) is accepted if one matches; v1 values of another body or secret are not', async () => {
    const secret = createHmac('sha256', t.deps.config.authSecret).update('sandbox-webhook').digest('hex')
    const v1 = (raw: Buffer | string, timestamp: number, key = secret) => createHmac('sha256', key).update(`${timestamp}.${raw.toString()}`).digest('hex')
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await prepaidOrder(customer)
    const event = sandbox.signedEvent(sandbox.eventFor('pay', { sessionId: order.paymentClientAction.payload.sessionId, amount: 100_000n, currency: 'INR' }))
    const other = sandbox.signedEvent(sandbox.eventFor('fail', { sessionId: order.paymentClientAction.payload.sessionId, amount: 100_000n, currency: 'INR' }))
    const now = Math.floor(Date.now() / 1000)
    const send = (signature: string) => webhook(event.rawBody, { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature })
    for (const refused of [
      `t=${now},v1=${v1(other.rawBody, now)}`,
      `t=${now},v1=${v1(event.rawBody, now, 'an-old-secret')},v1=${v1(other.rawBody, now)}`,
      `t=${now},v1=${v1(event.rawBody, now)},`,
      `t=${now},v1=${v1(event.rawBody, now)} ,v1=${'0'.repeat(64)}`,
      `v1=${v1(event.rawBody, now)},t=${now}`,
    ]) {
      const res = await send(refused)
      assert.equal(res.statusCode, 401, refused)
    }
    assert.equal((await get(customer, `/orders/${order.id}`)).json().data.status, 'PENDING_PAYMENT')
    const accepted = await send(`t=${now},v1=${v1(event.rawBody, now, 'an-old-secret')},v1=${v1(event.rawBody, now)}`)
    assert.equal(accepted.statusCode, 200, accepted.body)
    assert.equal((await get(customer, `/orders/${order.id}`)).json().data.status, 'CONFIRMED')
  })

  test('a success whose amount does not match is not marked paid', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await prepaidOrder(customer)
    const e = sandbox.signedEvent(sandbox.eventFor('pay', { sessionId: order.paymentClientAction.payload.sessionId, amount: 100n, currency: 'INR' }))
    assert.equal((await webhook(e.rawBody, e.headers)).statusCode, 200)
    const fetched = (await get(customer, `/orders/${order.id}`)).json().data
    assert.equal(fetched.status, 'PENDING_PAYMENT')
    assert.equal(fetched.payment.status, 'FAILED')
    assert.match(fetched.payment.failureReason, /expected INR 1000.00/)
  })

  test('a valid signature 299 s old is accepted; 301 s old or 301 s ahead is refused with 401', async () => {
    // The sandbox checks the signature timestamp against Date.now() (not the injected clock), with a
    // 300-second tolerance. Rounding is chosen so the accepted case stays inside and the refused ones outside.
    const secret = createHmac('sha256', t.deps.config.authSecret).update('sandbox-webhook').digest('hex')
    const signedAt = (raw: Buffer, timestamp: number) => ({
      'content-type': 'application/json',
      [SANDBOX_SIGNATURE_HEADER]: `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${raw.toString('utf8')}`).digest('hex')}`,
    })
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await prepaidOrder(customer)
    const event = sandbox.signedEvent(sandbox.eventFor('pay', { sessionId: order.paymentClientAction.payload.sessionId, amount: 100_000n, currency: 'INR' }))
    for (const timestamp of [Math.floor(Date.now() / 1000) - 301, Math.ceil(Date.now() / 1000) + 301]) {
      const res = await webhook(event.rawBody, signedAt(event.rawBody, timestamp))
      assert.equal(res.statusCode, 401, `t=${timestamp}: ${res.body}`)
      assert.equal(res.json().message, 'Invalid webhook signature')
    }
    const unchanged = (await get(customer, `/orders/${order.id}`)).json().data
    assert.equal(unchanged.status, 'PENDING_PAYMENT')
    assert.equal(unchanged.payment.status, 'PENDING')
    const recorded = await t.deps.database.db.query.paymentWebhookEvents.findMany({ where: (e, { eq }) => eq(e.eventId, JSON.parse(event.rawBody.toString()).id) })
    assert.equal(recorded.length, 0)
    const accepted = await webhook(event.rawBody, signedAt(event.rawBody, Math.ceil(Date.now() / 1000) - 299))
    assert.equal(accepted.statusCode, 200, accepted.body)
    assert.equal((await get(customer, `/orders/${order.id}`)).json().data.status, 'CONFIRMED')
  })

  test('a success with the right amount but another currency is not marked paid', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const stock = await stockOf(t, shop.ids.earbuds!)
    const order = await prepaidOrder(customer)
    const e = sandbox.signedEvent(sandbox.eventFor('pay', { sessionId: order.paymentClientAction.payload.sessionId, amount: 100_000n, currency: 'USD' }))
    assert.equal((await webhook(e.rawBody, e.headers)).statusCode, 200)
    const fetched = (await get(customer, `/orders/${order.id}`)).json().data
    assert.equal(fetched.status, 'PENDING_PAYMENT')
    assert.notEqual(fetched.paymentStatus, 'PAID')
    assert.equal(fetched.payment.status, 'FAILED')
    assert.match(fetched.payment.failureReason, /Provider reported USD 1000.00, expected INR 1000.00/)
    assert.equal((await events(order.id, 'payment.succeeded')).length, 0)
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 1, 'the reservation stays, nothing more is committed')
  })

  test("a fault inside the webhook's transaction answers 5xx and records nothing; the redelivery applies once", async () => {
    const db = t.deps.database.db
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await prepaidOrder(customer)
    const e = sandbox.signedEvent(sandbox.eventFor('pay', { sessionId: order.paymentClientAction.payload.sessionId, amount: 100_000n, currency: 'INR' }))
    const eventId = JSON.parse(e.rawBody.toString()).id as string
    // A real database fault on the success's last write (its outbox event), for this order only.
    for (const statement of [
      'create table if not exists test_webhook_faults (order_id text primary key)',
      `create or replace function test_webhook_fault() returns trigger language plpgsql as $$
       begin
         if exists (select 1 from test_webhook_faults f where f.order_id = new.subject_id) then
           raise exception 'injected webhook fault';
         end if;
         return new;
       end $$`,
      'drop trigger if exists test_webhook_fault on outbox_events',
      'create trigger test_webhook_fault before insert on outbox_events for each row execute function test_webhook_fault()',
      `insert into test_webhook_faults values ('${order.id}')`,
    ]) await db.execute(sql.raw(statement))
    try {
      const failed = await webhook(e.rawBody, e.headers)
      assert.ok(failed.statusCode >= 500, `${failed.statusCode} ${failed.body}`)
      assert.equal((await db.query.paymentWebhookEvents.findMany({ where: (w, { eq }) => eq(w.eventId, eventId) })).length, 0, 'event id not stored')
      const unchanged = (await get(customer, `/orders/${order.id}`)).json().data
      assert.equal(unchanged.status, 'PENDING_PAYMENT')
      assert.equal(unchanged.payment.status, 'PENDING')
      assert.equal(unchanged.statusHistory.length, 1)
    } finally {
      await db.execute(sql.raw(`delete from test_webhook_faults where order_id = '${order.id}'`))
    }
    const redelivered = await webhook(e.rawBody, e.headers)
    assert.equal(redelivered.statusCode, 200, redelivered.body)
    assert.equal(redelivered.json().data.duplicate, false)
    assert.equal((await webhook(e.rawBody, e.headers)).json().data.duplicate, true)
    const fetched = (await get(customer, `/orders/${order.id}`)).json().data
    assert.equal(fetched.status, 'CONFIRMED')
    assert.equal(fetched.payment.status, 'SUCCEEDED')
    assert.equal(fetched.statusHistory.length, 2)
    assert.equal((await events(order.id, 'payment.succeeded')).length, 1)
    assert.equal((await db.query.paymentWebhookEvents.findMany({ where: (w, { eq }) => eq(w.eventId, eventId) })).length, 1)
    await db.execute(sql.raw('drop trigger if exists test_webhook_fault on outbox_events'))
  })

  test('an unknown provider name answers 404', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payments/webhooks/stripe', payload: {} })
    assert.equal(res.statusCode, 404)
  })
})

describe('payments of an order', () => {
  test('abandon -> USER_DROPPED, stock stays reserved; a retry opens a new session that can be paid', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const stock = await stockOf(t, shop.ids.earbuds!)
    const order = await prepaidOrder(customer)
    const dropped = await post(customer, `/orders/${order.id}/payments/${order.payment.id}/abandon`)
    assert.equal(dropped.statusCode, 200, dropped.body)
    assert.equal(dropped.json().data.status, 'USER_DROPPED')
    assert.equal((await post(customer, `/orders/${order.id}/payments/${order.payment.id}/abandon`)).json().data.status, 'USER_DROPPED', 'abandon twice is harmless')
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 1)

    const retry = await post(customer, `/orders/${order.id}/payments`, undefined, 'retry-1')
    assert.equal(retry.statusCode, 201, retry.body)
    const { payment, clientAction } = retry.json().data
    assert.notEqual(payment.id, order.payment.id)
    assert.equal(payment.status, 'PENDING')
    assert.equal(payment.amount, '1000.00')
    assert.equal(clientAction.type, 'REDIRECT')
    const again = await post(customer, `/orders/${order.id}/payments`, undefined, 'retry-1')
    assert.equal(again.headers['idempotent-replayed'], 'true')
    assert.deepEqual(again.json(), retry.json())

    assert.equal((await sandboxAction(t, clientAction, 'pay')).json().data.orderStatus, 'CONFIRMED')
    const late = await post(customer, `/orders/${order.id}/payments`, undefined, 'retry-2')
    assert.equal(late.statusCode, 409)
    assert.equal(late.json().message, `Order ${order.orderNumber} is CONFIRMED, not waiting for payment`)
    const abandonPaid = await post(customer, `/orders/${order.id}/payments/${payment.id}/abandon`)
    assert.equal(abandonPaid.statusCode, 409)
    assert.equal(abandonPaid.json().message, `Payment ${payment.id} is SUCCEEDED and can no longer be abandoned`)
  })

  test('a new payment after the reservation period: 409', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await prepaidOrder(customer)
    clock.advance(31 * 60_000)
    const fresh = await givenCustomer(t.app, shop.partner, { phone: customer.phone })
    const res = await post(fresh, `/orders/${order.id}/payments`, undefined, 'late')
    assert.equal(res.statusCode, 409)
    assert.equal(res.json().message, `The payment window of order ${order.orderNumber} has closed`)
  })

  test('a payment that succeeds after its order was cancelled is refunded', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await prepaidOrder(customer)
    const cancelled = await post(customer, `/orders/${order.id}/cancel`, { reason: 'Changed my mind' })
    assert.equal(cancelled.statusCode, 200, cancelled.body)
    assert.equal(cancelled.json().data.status, 'CANCELLED')
    const paid = await sandboxAction(t, order.paymentClientAction, 'pay')
    assert.equal(paid.statusCode, 200)
    const fetched = (await get(customer, `/orders/${order.id}`)).json().data
    assert.equal(fetched.status, 'CANCELLED')
    assert.equal(fetched.paymentStatus, 'REFUNDED')
    assert.equal(fetched.refunds.length, 1)
    assert.equal(fetched.refunds[0].status, 'SUCCEEDED')
    assert.equal(fetched.refunds[0].amount, '1000.00')
    assert.equal(fetched.refunds[0].method, 'ORIGINAL_PAYMENT')
  })
  test('expired and swept, then the same success delivered twice: exactly one refund, order stays cancelled', async () => {
    // A shop of its own: the sweeper also releases other tests' unpaid orders.
    const own = await givenShop(t)
    let customer = await givenCustomer(t.app, own.partner)
    const stock = await stockOf(t, own.ids.earbuds!)
    const placed = await placeOrder(t, customer, { items: [{ productId: own.ids.earbuds!, quantity: 1 }], shippingAddress: ADDRESS })
    assert.equal(placed.statusCode, 201, placed.body)
    const order = placed.json().data
    assert.equal(await stockOf(t, own.ids.earbuds!), stock - 1)
    clock.advance(31 * 60_000)
    customer = await givenCustomer(t.app, own.partner, { phone: customer.phone })
    assert.ok((await t.app.payments.sweepExpiredReservations()) >= 1)
    assert.equal((await get(customer, `/orders/${order.id}`)).json().data.status, 'CANCELLED')
    assert.equal(await stockOf(t, own.ids.earbuds!), stock)
    const e = sandbox.signedEvent(sandbox.eventFor('pay', { sessionId: order.paymentClientAction.payload.sessionId, amount: 100_000n, currency: 'INR' }))
    const answers = [await webhook(e.rawBody, e.headers), await webhook(e.rawBody, e.headers)]
    assert.deepEqual(answers.map((a) => [a.statusCode, a.json().data.duplicate]), [[200, false], [200, true]])
    const fetched = (await get(customer, `/orders/${order.id}`)).json().data
    assert.equal(fetched.status, 'CANCELLED')
    assert.equal(fetched.paymentStatus, 'REFUNDED')
    assert.equal(fetched.refunds.length, 1)
    assert.deepEqual([fetched.refunds[0].status, fetched.refunds[0].amount], ['SUCCEEDED', '1000.00'])
    const refunds = await t.deps.database.db.query.refunds.findMany({ where: (r, { eq }) => eq(r.orderId, order.id) })
    assert.equal(refunds.length, 1)
    assert.equal(await stockOf(t, own.ids.earbuds!), stock, 'no stock taken for the late payment')
  })
})

describe('cancellation', () => {
  test('a paid order cancelled before shipment: card refunded, wallet, points, coupon and stock back', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    await credit(t, clock, customer, 'WALLET_CASH', 10_000n)
    await credit(t, clock, customer, 'REWARD_POINTS', 50n)
    const stock = await stockOf(t, shop.ids.earbuds!)
    const coupon = () => t.deps.database.db.query.coupons.findFirst({ where: (c, { eq }) => eq(c.code, 'TEN') })
    const usedBefore = (await coupon())!.usedCount
    const order = await prepaidOrder(customer, { couponCode: 'TEN', useWalletCash: true, useRewardPoints: true })
    assert.equal(order.walletCashUsed, '100.00')
    assert.equal(order.rewardPointsUsed, 50)
    assert.equal((await coupon())!.usedCount, usedBefore + 1)
    await sandboxAction(t, order.paymentClientAction, 'pay')
    const res = await post(customer, `/orders/${order.id}/cancel`, {})
    assert.equal(res.statusCode, 200, res.body)
    const cancelled = res.json().data
    assert.equal(cancelled.status, 'CANCELLED')
    assert.equal(cancelled.cancelReason, 'Cancelled by the customer')
    assert.equal(cancelled.paymentStatus, 'REFUNDED')
    assert.deepEqual(cancelled.refunds.map((r: { amount: string; status: string }) => [r.amount, r.status]), [[order.amountPayable, 'SUCCEEDED']])
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock)
    assert.equal((await coupon())!.usedCount, usedBefore)
    assert.deepEqual(await ledgerBalances(t.deps.database.db, customer.userId), { walletCash: 10_000n, rewardPoints: 50n })
    const twice = await post(customer, `/orders/${order.id}/cancel`, {})
    assert.equal(twice.statusCode, 409)
    assert.equal(twice.json().message, `Order ${order.orderNumber} cannot be cancelled once it is CANCELLED`)
    assert.deepEqual(await ledgerBalances(t.deps.database.db, customer.userId), { walletCash: 10_000n, rewardPoints: 50n })
  })

  test('a paid order whose second capture (a late success on its older session) was refunded can still be cancelled; each capture is refunded once', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    await credit(t, clock, customer, 'WALLET_CASH', 10_000n)
    const order = await prepaidOrder(customer, { useWalletCash: true })
    const second = await post(customer, `/orders/${order.id}/payments`, {}, `second-session-${order.id}`)
    assert.equal(second.statusCode, 201, second.body)
    assert.equal((await sandboxAction(t, second.json().data.clientAction, 'pay')).statusCode, 200)
    // The first session's success arrives after the order was paid through the second: refunded at once.
    assert.equal((await sandboxAction(t, order.paymentClientAction, 'pay')).statusCode, 200)
    const paidTwice = (await get(customer, `/orders/${order.id}`)).json().data
    assert.deepEqual(paidTwice.refunds.map((r: { amount: string; status: string }) => [r.amount, r.status]), [[order.amountPayable, 'SUCCEEDED']])
    // Cancelling queued a refund of every capture, the refunded one too: the refund limit refused it (409).
    const res = await post(customer, `/orders/${order.id}/cancel`, {})
    assert.equal(res.statusCode, 200, res.body)
    const cancelled = res.json().data
    assert.equal(cancelled.status, 'CANCELLED')
    assert.equal(cancelled.paymentStatus, 'REFUNDED')
    const captures = (await t.deps.database.db.query.payments.findMany({ where: (p, { eq }) => eq(p.orderId, order.id) })).filter((p) => p.status === 'SUCCEEDED')
    assert.equal(captures.length, 2)
    const refunds = await t.deps.database.db.query.refunds.findMany({ where: (r, { eq }) => eq(r.orderId, order.id) })
    for (const capture of captures) {
      const back = refunds.filter((r) => r.paymentId === capture.id && r.status === 'SUCCEEDED')
      assert.deepEqual(back.map((r) => r.amount), [capture.amount], `capture ${capture.id} refunded exactly once, in full`)
    }
    assert.deepEqual(await ledgerBalances(t.deps.database.db, customer.userId), { walletCash: 10_000n, rewardPoints: 0n })
  })
})

describe('GET /orders', () => {
  test('newest first, paged, filtered by status, only the customer own orders', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const other = await givenCustomer(t.app, shop.partner)
    await placeOrder(t, other, { items: [item('atta')], shippingAddress: ADDRESS })
    const a = await prepaidOrder(customer)
    clock.advance(1000)
    const b = (await placeOrder(t, customer, { items: [item('atta', 2)], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
    const list = (await get(customer, '/orders?limit=1')).json()
    assert.deepEqual(list.meta, { total: 2, page: 1, limit: 1, totalPages: 2 })
    assert.equal(list.data[0].id, b.id)
    assert.deepEqual(Object.keys(list.data[0]).sort(), ['amountPayable', 'createdAt', 'id', 'itemCount', 'orderNumber', 'partnerId', 'paymentMode', 'paymentStatus', 'status', 'totalAmount'])
    assert.equal(list.data[0].itemCount, 2)
    assert.equal((await get(customer, '/orders?page=2&limit=1')).json().data[0].id, a.id)
    const pending = (await get(customer, '/orders?status=PENDING_PAYMENT')).json()
    assert.deepEqual(pending.data.map((o: { id: string }) => o.id), [a.id])
    assert.equal((await get(customer, '/orders?limit=101')).statusCode, 400)
    assert.equal((await get(customer, '/orders?status=LOST')).statusCode, 400)
  })
})
