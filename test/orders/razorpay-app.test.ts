// The whole app with PAYMENT_PROVIDER=razorpay: a local node:http stand-in plays Razorpay's REST API
// (Orders, Payments, Refunds, with Basic auth), and the tests play Razorpay's webhook sender, signing
// raw bodies with the webhook secret as Razorpay does. Covers order creation, signed callbacks
// (repeats, out of order, forged), cancellation refunds settled by webhook, a provider outage when the
// session is opened, and the reservation sweeper asking Razorpay about a late callback.
import assert from 'node:assert/strict'
import { createHmac, randomUUID } from 'node:crypto'
import { after, before, beforeEach, describe, test } from 'node:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/db/client.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenCustomer } from '../helpers/factories.ts'
import { createRazorpayStandIn } from '../helpers/razorpay-standin.ts'
import { ADDRESS, givenShop, placeOrder, type Shop, stockOf } from '../helpers/shop.ts'

const KEY_ID = 'rzp_test_AppLevel0001'
const KEY_SECRET = 'appLevelKeySecret0123456789'
const WEBHOOK_SECRET = 'app-level-webhook-secret-42'
/** The secret being rotated out (RAZORPAY_WEBHOOK_SECRET_PREVIOUS). */
const PREVIOUS_WEBHOOK_SECRET = 'app-level-webhook-secret-41'
/** WH-09's orders: the plan's 200 on PostgreSQL, 50 on the embedded database (one connection). */
const WH09_ORDERS = process.env.TEST_DATABASE_URL ? 200 : 50
const BASIC = `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`
const RESERVATION_MS = 30 * 60_000

// ---- The stand-in of Razorpay's REST API (test/helpers/razorpay-standin.ts) --------------------

const standIn = createRazorpayStandIn({ keyId: KEY_ID, keySecret: KEY_SECRET, idPrefix: 'App' })
const { requests, paymentsByOrder, sent } = standIn

// ---- The app --------------------------------------------------------------------------------------

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop

before(async () => {
  const apiBase = await standIn.listen()
  t = await createTestApp({
    clock,
    env: {
      PAYMENT_PROVIDER: 'razorpay',
      RAZORPAY_KEY_ID: KEY_ID,
      RAZORPAY_KEY_SECRET: KEY_SECRET,
      RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
      RAZORPAY_WEBHOOK_SECRET_PREVIOUS: PREVIOUS_WEBHOOK_SECRET,
      RAZORPAY_API_BASE: apiBase,
      RATE_LIMIT_AUTH_MAX: '100000',
    },
  })
  shop = await givenShop(t)
})
after(async () => {
  await t?.close()
  await standIn.close()
})
beforeEach(() => standIn.reset())

const item = (slug: string, quantity = 1) => ({ productId: shop.ids[slug]!, quantity })
const get = (customer: CustomerFixture, url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: customerHeaders(customer) })
const post = (customer: CustomerFixture, url: string, payload?: object, key?: string) =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { ...customerHeaders(customer), ...(key ? { 'x-idempotency-key': key } : {}) }, payload })
const orderOf = async (customer: CustomerFixture, orderId: string) => {
  const res = await get(customer, `/orders/${orderId}`)
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data
}
/** "1000.00" -> 100000 */
const paiseOf = (rupees: string) => {
  assert.match(rupees, /^\d+\.\d{2}$/)
  return Number(rupees.replace('.', ''))
}

async function prepaidOrder(customer: CustomerFixture, slug = 'earbuds') {
  const res = await placeOrder(t, customer, { items: [item(slug)], shippingAddress: ADDRESS })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data
}

// ---- Razorpay's webhook sender ---------------------------------------------------------------------

const sign = (raw: string, secret = WEBHOOK_SECRET) => createHmac('sha256', secret).update(raw).digest('hex')

function webhook(body: object, eventId: string, options: { secret?: string } = {}) {
  const raw = JSON.stringify(body)
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/webhooks/razorpay',
    headers: { 'content-type': 'application/json', 'x-razorpay-signature': sign(raw, options.secret), 'x-razorpay-event-id': eventId },
    payload: raw,
  })
}

const paymentEvent = (event: 'payment.captured' | 'payment.failed' | 'order.paid', entity: { id: string; order_id: string; amount: number } & Record<string, unknown>) => ({
  entity: 'event',
  account_id: 'acc_AppLevel0001',
  event,
  contains: event === 'order.paid' ? ['payment', 'order'] : ['payment'],
  payload: {
    payment: {
      entity: {
        entity: 'payment',
        currency: 'INR',
        status: event === 'payment.failed' ? 'failed' : 'captured',
        method: 'upi',
        captured: event !== 'payment.failed',
        error_code: event === 'payment.failed' ? 'BAD_REQUEST_ERROR' : null,
        error_description: event === 'payment.failed' ? 'Payment was unsuccessful as the bank declined it' : null,
        created_at: 1_700_000_000,
        ...entity,
      },
    },
  },
  created_at: 1_700_000_005,
})

const refundEvent = (event: 'refund.processed' | 'refund.failed', refund: { id: string; payment_id: string; amount: number }, orderId: string) => ({
  entity: 'event',
  account_id: 'acc_AppLevel0001',
  event,
  contains: ['refund', 'payment'],
  payload: {
    refund: { entity: { entity: 'refund', currency: 'INR', status: event === 'refund.processed' ? 'processed' : 'failed', speed_processed: 'normal', ...refund } },
    payment: { entity: { id: refund.payment_id, entity: 'payment', amount: refund.amount, currency: 'INR', status: 'refunded', order_id: orderId } },
  },
  created_at: 1_700_000_010,
})

/** Places a prepaid order and pays it with a signed payment.captured; answers the order and Razorpay ids. */
async function paidOrder(customer: CustomerFixture) {
  const order = await prepaidOrder(customer)
  const rzpOrderId: string = order.paymentClientAction.payload.order_id
  const rzpPaymentId = `pay_${randomUUID().replace(/-/g, '').slice(0, 14)}`
  const amount = paiseOf(order.amountPayable)
  const res = await webhook(paymentEvent('payment.captured', { id: rzpPaymentId, order_id: rzpOrderId, amount }), `evt_${randomUUID()}`)
  assert.equal(res.statusCode, 200, res.body)
  assert.equal((await orderOf(customer, order.id)).status, 'CONFIRMED')
  return { order, rzpOrderId, rzpPaymentId, amount }
}

// ---- Tests ------------------------------------------------------------------------------------------

describe('POST /orders with Razorpay', () => {
  test('opens a Razorpay order for the amount payable and answers the Checkout options', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const stock = await stockOf(t, shop.ids.earbuds!)
    const key = randomUUID()
    const res = await placeOrder(t, customer, { items: [item('earbuds')], shippingAddress: ADDRESS }, key)
    assert.equal(res.statusCode, 201, res.body)
    const order = res.json().data
    assert.equal(order.status, 'PENDING_PAYMENT')
    assert.equal(order.paymentStatus, 'PENDING')
    assert.equal(order.payment.provider, 'razorpay')
    assert.equal(order.payment.status, 'PENDING')
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 1)

    const created = sent('POST', '/v1/orders')
    assert.equal(created.length, 1, 'one Razorpay order per payment')
    const [call] = created
    assert.equal(call!.headers.authorization, BASIC)
    assert.match(String(call!.headers['content-type']), /^application\/json/)
    const amount = paiseOf(order.amountPayable)
    assert.ok(amount > 0)
    assert.deepEqual(call!.body, { amount, currency: 'INR', receipt: order.orderNumber, notes: { paymentId: order.payment.id, orderId: order.id } })

    const action = order.paymentClientAction
    assert.equal(action.type, 'RAZORPAY_CHECKOUT')
    assert.match(action.payload.order_id, /^order_App\d+$/)
    // The id the stand-in answered, not one of ours.
    assert.equal(requests.length, 1)
    assert.equal(action.payload.order_id, `order_App${standIn.counter}`)
    assert.equal(action.payload.amount, amount)
    assert.equal(action.payload.currency, 'INR')
    assert.equal(action.payload.key, KEY_ID)
    assert.deepEqual(action.payload.notes, { paymentId: order.payment.id, orderId: order.id })
    assert.ok(!res.body.includes(KEY_SECRET), 'the answer must not carry the key secret')
    assert.ok(!res.body.includes(WEBHOOK_SECRET), 'the answer must not carry the webhook secret')

    // The same key again replays the answer without opening a second Razorpay order.
    const again = await placeOrder(t, customer, { items: [item('earbuds')], shippingAddress: ADDRESS }, key)
    assert.equal(again.statusCode, 201)
    assert.equal(again.headers['idempotent-replayed'], 'true')
    assert.equal(again.json().data.paymentClientAction.payload.order_id, action.payload.order_id)
    assert.equal(sent('POST', '/v1/orders').length, 1)
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 1)
  })
})

describe('Razorpay webhooks', () => {
  test('payment.captured confirms; the same event again is a duplicate; a later payment.failed changes nothing', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await prepaidOrder(customer)
    const rzpOrderId: string = order.paymentClientAction.payload.order_id
    const amount = paiseOf(order.amountPayable)
    const captured = paymentEvent('payment.captured', { id: 'pay_AppCaptured01', order_id: rzpOrderId, amount })

    const first = await webhook(captured, 'evt_AppCaptured01')
    assert.equal(first.statusCode, 200, first.body)
    assert.deepEqual(first.json().data, { received: true, duplicate: false })
    const confirmed = await orderOf(customer, order.id)
    assert.equal(confirmed.status, 'CONFIRMED')
    assert.equal(confirmed.paymentStatus, 'PAID')
    assert.equal(confirmed.payment.status, 'SUCCEEDED')
    assert.equal(confirmed.payment.failureReason, null)
    assert.deepEqual(confirmed.statusHistory.map((h: { status: string; actor: string }) => [h.status, h.actor]), [['PENDING_PAYMENT', 'CUSTOMER'], ['CONFIRMED', 'PROVIDER']])

    clock.advance(1000)
    const repeat = await webhook(captured, 'evt_AppCaptured01')
    assert.equal(repeat.statusCode, 200, repeat.body)
    assert.deepEqual(repeat.json().data, { received: true, duplicate: true })
    assert.deepEqual(await orderOf(customer, order.id), confirmed)

    clock.advance(1000)
    const failed = await webhook(paymentEvent('payment.failed', { id: 'pay_AppFailed01', order_id: rzpOrderId, amount }), 'evt_AppFailed01')
    assert.equal(failed.statusCode, 200, failed.body)
    assert.deepEqual(failed.json().data, { received: true, duplicate: false })
    assert.deepEqual(await orderOf(customer, order.id), confirmed, 'nothing overrides a success')
  })

  test('a body signed with the wrong secret, or tampered with after signing, is 401 and changes nothing', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await prepaidOrder(customer)
    const rzpOrderId: string = order.paymentClientAction.payload.order_id
    const amount = paiseOf(order.amountPayable)
    const captured = paymentEvent('payment.captured', { id: 'pay_AppForged01', order_id: rzpOrderId, amount })
    const before = await orderOf(customer, order.id)

    const wrongSecret = await webhook(captured, 'evt_AppForged01', { secret: 'not-the-webhook-secret' })
    assert.equal(wrongSecret.statusCode, 401, wrongSecret.body)
    assert.equal(wrongSecret.json().message, 'Invalid webhook signature')

    const raw = JSON.stringify(captured)
    const tampered = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/webhooks/razorpay',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': sign(raw), 'x-razorpay-event-id': 'evt_AppForged02' },
      payload: raw.replace('"pay_AppForged01"', '"pay_AppForged02"'),
    })
    assert.equal(tampered.statusCode, 401, tampered.body)
    assert.equal(tampered.json().message, 'Invalid webhook signature')

    const unsigned = await t.app.inject({ method: 'POST', url: '/api/v1/payments/webhooks/razorpay', headers: { 'content-type': 'application/json' }, payload: raw })
    assert.equal(unsigned.statusCode, 401, unsigned.body)
    assert.deepEqual(await orderOf(customer, order.id), before)

    // The refused event id was not recorded: the same event, correctly signed, is applied.
    const genuine = await webhook(captured, 'evt_AppForged01')
    assert.equal(genuine.statusCode, 200, genuine.body)
    assert.deepEqual(genuine.json().data, { received: true, duplicate: false })
    assert.equal((await orderOf(customer, order.id)).status, 'CONFIRMED')
  })

  test('a body signed with the previous secret is accepted while RAZORPAY_WEBHOOK_SECRET_PREVIOUS names it; any other secret is not', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await prepaidOrder(customer)
    const captured = paymentEvent('payment.captured', { id: 'pay_AppRotated01', order_id: order.paymentClientAction.payload.order_id, amount: paiseOf(order.amountPayable) })
    const older = await webhook(captured, 'evt_AppRotated01', { secret: 'app-level-webhook-secret-40' })
    assert.equal(older.statusCode, 401, older.body)
    assert.equal((await orderOf(customer, order.id)).status, 'PENDING_PAYMENT')
    const previous = await webhook(captured, 'evt_AppRotated01', { secret: PREVIOUS_WEBHOOK_SECRET })
    assert.equal(previous.statusCode, 200, previous.body)
    assert.equal((await orderOf(customer, order.id)).status, 'CONFIRMED')
  })
})

describe('cancelling a paid Razorpay order', () => {
  test('refunds through Razorpay; a pending refund is settled by refund.processed', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const stock = await stockOf(t, shop.ids.earbuds!)
    const { order, rzpOrderId, rzpPaymentId, amount } = await paidOrder(customer)
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 1)
    requests.length = 0
    standIn.refundStatus = 'pending'

    const res = await post(customer, `/orders/${order.id}/cancel`, { reason: 'Ordered by mistake' })
    assert.equal(res.statusCode, 200, res.body)
    const cancelled = res.json().data
    assert.equal(cancelled.status, 'CANCELLED')
    assert.equal(cancelled.paymentStatus, 'PAID', 'not refunded until Razorpay says so')
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock)

    const refundCalls = sent('POST', /^\/v1\/payments\/[^/]+\/refund$/)
    assert.equal(refundCalls.length, 1)
    const [call] = refundCalls
    assert.equal(call!.path, `/v1/payments/${rzpPaymentId}/refund`)
    assert.equal(call!.headers.authorization, BASIC)
    assert.equal(cancelled.refunds.length, 1)
    const [refund] = cancelled.refunds
    assert.equal(call!.body!.amount, amount)
    assert.equal(call!.body!.receipt, refund.id)
    assert.equal(call!.headers['x-refund-idempotency'], refund.id)
    assert.equal(refund.status, 'PENDING')
    assert.equal(refund.method, 'ORIGINAL_PAYMENT')
    assert.equal(refund.amount, order.amountPayable)
    const rzpRefundId: string = refund.providerRefundId
    assert.equal(rzpRefundId, `rfnd_App${standIn.counter}`, 'the refund id Razorpay answered')

    // The background job does not send a refund that Razorpay already has.
    await t.app.payments.retryRefundsAndPurgeKeys()
    assert.equal(sent('POST', /refund$/).length, 1)
    assert.deepEqual((await orderOf(customer, order.id)).refunds, cancelled.refunds)

    clock.advance(1000)
    const processed = await webhook(refundEvent('refund.processed', { id: rzpRefundId, payment_id: rzpPaymentId, amount }, rzpOrderId), 'evt_AppRefund01')
    assert.equal(processed.statusCode, 200, processed.body)
    assert.deepEqual(processed.json().data, { received: true, duplicate: false })
    const settled = await orderOf(customer, order.id)
    assert.equal(settled.status, 'CANCELLED')
    assert.equal(settled.paymentStatus, 'REFUNDED')
    assert.deepEqual(settled.refunds.map((r: { id: string; status: string; providerRefundId: string }) => [r.id, r.status, r.providerRefundId]), [[refund.id, 'SUCCEEDED', rzpRefundId]])

    const repeat = await webhook(refundEvent('refund.processed', { id: rzpRefundId, payment_id: rzpPaymentId, amount }, rzpOrderId), 'evt_AppRefund01')
    assert.deepEqual(repeat.json().data, { received: true, duplicate: true })
    assert.deepEqual(await orderOf(customer, order.id), settled)
    assert.equal(sent('POST', /refund$/).length, 1, 'refunded once')
  })
})

describe('Razorpay unreachable when the order is placed', () => {
  test('the order stands with a FAILED payment; POST /orders/{id}/payments opens a new Razorpay checkout', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const stock = await stockOf(t, shop.ids.earbuds!)
    standIn.override = (request) =>
      request.method === 'POST' && request.path === '/v1/orders'
        ? { status: 500, body: { error: { code: 'SERVER_ERROR', description: 'We are facing some trouble completing your request at the moment.' } } }
        : null

    const order = await prepaidOrder(customer)
    assert.equal(sent('POST', '/v1/orders').length, 1, 'Razorpay was asked')
    assert.equal(order.status, 'PENDING_PAYMENT')
    assert.deepEqual(order.paymentClientAction, { type: 'NONE', payload: null })
    assert.equal(order.payment.status, 'FAILED')
    assert.equal(typeof order.payment.failureReason, 'string')
    assert.ok(order.payment.failureReason.length > 0)
    assert.ok(!order.payment.failureReason.includes(KEY_SECRET))
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 1, 'the stock stays held for a retry')

    standIn.override = null
    clock.advance(1000)
    const retry = await post(customer, `/orders/${order.id}/payments`, undefined, randomUUID())
    assert.equal(retry.statusCode, 201, retry.body)
    const { payment, clientAction } = retry.json().data
    assert.notEqual(payment.id, order.payment.id)
    assert.equal(payment.status, 'PENDING')
    assert.equal(payment.provider, 'razorpay')
    assert.equal(clientAction.type, 'RAZORPAY_CHECKOUT')
    const created = sent('POST', '/v1/orders')
    assert.equal(created.length, 2)
    assert.equal(clientAction.payload.order_id, `order_App${standIn.counter}`)
    assert.equal(clientAction.payload.amount, paiseOf(order.amountPayable))
    assert.deepEqual(created[1]!.body, { amount: paiseOf(order.amountPayable), currency: 'INR', receipt: order.orderNumber, notes: { paymentId: payment.id, orderId: order.id } })

    // The new checkout can be paid.
    const paid = await webhook(paymentEvent('payment.captured', { id: 'pay_AppRetry01', order_id: clientAction.payload.order_id, amount: paiseOf(order.amountPayable) }), 'evt_AppRetry01')
    assert.equal(paid.statusCode, 200, paid.body)
    const confirmed = await orderOf(customer, order.id)
    assert.equal(confirmed.status, 'CONFIRMED')
    assert.equal(confirmed.paymentStatus, 'PAID')
    assert.equal(confirmed.payment.id, payment.id)
    assert.equal(confirmed.payment.status, 'SUCCEEDED')
  })
})

describe('the reservation sweeper with Razorpay', () => {
  /** Expires and sweeps whatever earlier tests left waiting, so counts below are about one order. */
  async function sweepLeftovers() {
    clock.advance(RESERVATION_MS + 60_000)
    await t.app.payments.sweepExpiredReservations()
    requests.length = 0
  }

  test('a payment captured at Razorpay whose webhook never came: the sweeper confirms the order, cancels nothing', async () => {
    await sweepLeftovers()
    const customer = await givenCustomer(t.app, shop.partner)
    const stock = await stockOf(t, shop.ids.earbuds!)
    const order = await prepaidOrder(customer)
    const rzpOrderId: string = order.paymentClientAction.payload.order_id
    const amount = paiseOf(order.amountPayable)
    paymentsByOrder.set(rzpOrderId, [
      { id: 'pay_AppLateFail1', entity: 'payment', order_id: rzpOrderId, amount, currency: 'INR', status: 'failed' },
      { id: 'pay_AppLate01', entity: 'payment', order_id: rzpOrderId, amount, currency: 'INR', status: 'captured' },
    ])

    clock.advance(RESERVATION_MS + 60_000)
    const cancelled = await t.app.payments.sweepExpiredReservations()
    assert.equal(cancelled, 0)
    const asked = sent('GET', `/v1/orders/${rzpOrderId}/payments`)
    assert.equal(asked.length, 1, 'the sweeper asked Razorpay about the open session')
    assert.equal(asked[0]!.headers.authorization, BASIC)

    const fresh = await givenCustomer(t.app, shop.partner, { phone: customer.phone })
    const fetched = await orderOf(fresh, order.id)
    assert.equal(fetched.status, 'CONFIRMED')
    assert.equal(fetched.paymentStatus, 'PAID')
    assert.equal(fetched.payment.status, 'SUCCEEDED')
    assert.equal(fetched.statusHistory.at(-1).actor, 'PROVIDER')
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 1, 'the stock stays sold')
    assert.equal(sent('POST', /refund$/).length, 0)

    // The webhook arriving at last changes nothing.
    const late = await webhook(paymentEvent('payment.captured', { id: 'pay_AppLate01', order_id: rzpOrderId, amount }), 'evt_AppLate01')
    assert.equal(late.statusCode, 200, late.body)
    assert.deepEqual(await orderOf(fresh, order.id), fetched)

    // The sweeper recorded the captured payment's id: a cancellation refunds that payment.
    const refunded = await post(fresh, `/orders/${order.id}/cancel`, {})
    assert.equal(refunded.statusCode, 200, refunded.body)
    assert.deepEqual(sent('POST', /refund$/).map((r) => [r.path, r.body!.amount]), [['/v1/payments/pay_AppLate01/refund', amount]])
    assert.equal(refunded.json().data.paymentStatus, 'REFUNDED')
  })

  test('nothing paid at Razorpay: the sweeper cancels the order and the stock is back', async () => {
    await sweepLeftovers()
    const customer = await givenCustomer(t.app, shop.partner)
    const stock = await stockOf(t, shop.ids.earbuds!)
    const order = await prepaidOrder(customer)
    const rzpOrderId: string = order.paymentClientAction.payload.order_id
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 1)

    clock.advance(RESERVATION_MS - 60_000)
    assert.equal(await t.app.payments.sweepExpiredReservations(), 0, 'not before the reservation runs out')
    assert.equal((await orderOf(await givenCustomer(t.app, shop.partner, { phone: customer.phone }), order.id)).status, 'PENDING_PAYMENT')
    assert.equal(sent('GET', /payments$/).length, 0)

    clock.advance(2 * 60_000)
    const cancelled = await t.app.payments.sweepExpiredReservations()
    assert.equal(cancelled, 1)
    assert.equal(sent('GET', `/v1/orders/${rzpOrderId}/payments`).length, 1, 'the sweeper asked Razorpay first')

    const fresh = await givenCustomer(t.app, shop.partner, { phone: customer.phone })
    const fetched = await orderOf(fresh, order.id)
    assert.equal(fetched.status, 'CANCELLED')
    assert.equal(fetched.paymentStatus, 'PENDING')
    assert.equal(fetched.payment.status, 'EXPIRED')
    assert.equal(fetched.statusHistory.at(-1).actor, 'SYSTEM')
    assert.deepEqual(fetched.refunds, [])
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock)
    assert.equal(sent('POST', /refund$/).length, 0)
  })

  test(`the captured webhook and the sweeper's own look at Razorpay confirm the same payment at the same moment, for ${WH09_ORDERS} orders: one confirmation each, no refund, no 5xx`, async () => {
    await sweepLeftovers()
    // Five unpaid orders per customer is the cap: a customer for every five orders.
    const customers = await Promise.all(Array.from({ length: WH09_ORDERS / 5 }, () => givenCustomer(t.app, shop.partner)))
    await t.deps.database.db.execute(sql`update products set stock = stock + ${WH09_ORDERS} where id = ${shop.ids.earbuds!}`)
    const placed: Awaited<ReturnType<typeof prepaidOrder>>[] = []
    for (let i = 0; i < WH09_ORDERS; i++) placed.push(await prepaidOrder(customers[i % customers.length]!))
    const captured = placed.map((order, i) => {
      const rzpOrderId: string = order.paymentClientAction.payload.order_id
      const payment = { id: `pay_AppRace${i}`, entity: 'payment' as const, order_id: rzpOrderId, amount: paiseOf(order.amountPayable), currency: 'INR', status: 'captured' as const }
      paymentsByOrder.set(rzpOrderId, [payment])
      return payment
    })
    clock.advance(RESERVATION_MS + 60_000)
    const [cancelled, ...answers] = await Promise.all([
      t.app.payments.sweepExpiredReservations(),
      ...captured.map((payment, i) => webhook(paymentEvent('payment.captured', payment), `evt_AppRace${i}`)),
    ])
    assert.equal(cancelled, 0)
    assert.deepEqual([...new Set(answers.map((a) => a.statusCode))], [200])
    const ids = placed.map((o) => o.id)
    const rows = await queryRows<{ id: string; status: string; payment_status: string; confirmations: number; succeeded: number }>(
      t.deps.database.db,
      sql`select o.id, o.status, o.payment_status,
                 (select count(*)::int from order_status_history h where h.order_id = o.id and h.to_status = 'CONFIRMED') as confirmations,
                 (select count(*)::int from payments p where p.order_id = o.id and p.status = 'SUCCEEDED') as succeeded
            from orders o where o.id in ${ids}`,
    )
    assert.equal(rows.length, WH09_ORDERS)
    assert.deepEqual(rows.filter((r) => r.status !== 'CONFIRMED' || r.payment_status !== 'PAID' || r.confirmations !== 1 || r.succeeded !== 1), [])
    assert.equal(sent('POST', /refund$/).length, 0, 'the same payment seen twice is not a second capture')
  })

  test('a session whose check fails on its own holds the other due orders back for one run only', async () => {
    await sweepLeftovers()
    const [stuck, payer] = await Promise.all([givenCustomer(t.app, shop.partner), givenCustomer(t.app, shop.partner)])
    const stuckOrder = await prepaidOrder(stuck)
    clock.advance(60_000)
    const paidOrder = await prepaidOrder(payer)
    const stuckRzp: string = stuckOrder.paymentClientAction.payload.order_id
    const paidRzp: string = paidOrder.paymentClientAction.payload.order_id
    paymentsByOrder.set(paidRzp, [{ id: 'pay_AppAlone01', entity: 'payment', order_id: paidRzp, amount: paiseOf(paidOrder.amountPayable), currency: 'INR', status: 'captured' }])
    // Razorpay fails for the first (older) order's session only.
    standIn.override = (r) => (r.method === 'GET' && r.path.includes(stuckRzp) ? { status: 500, body: { error: { code: 'SERVER_ERROR', description: 'this one' } } } : null)
    clock.advance(RESERVATION_MS + 60_000)
    const statuses = async () => [(await orderOf(await givenCustomer(t.app, shop.partner, { phone: stuck.phone }), stuckOrder.id)).status, (await orderOf(await givenCustomer(t.app, shop.partner, { phone: payer.phone }), paidOrder.id)).status]
    assert.equal(await t.app.payments.sweepExpiredReservations(), 0)
    assert.deepEqual(sent('GET', /payments$/).map((r) => r.path), [`/v1/orders/${stuckRzp}/payments`], 'the older one first; it failed, so the run stopped asking')
    assert.deepEqual(await statuses(), ['PENDING_PAYMENT', 'PENDING_PAYMENT'])
    assert.equal(await t.app.payments.sweepExpiredReservations(), 0)
    assert.deepEqual(await statuses(), ['PENDING_PAYMENT', 'CONFIRMED'], 'the next run asks the other first')
    standIn.override = null
  })

  test('a run cancels only orders it asked about: when a paid one drops out, the next due order is not cancelled unasked', async () => {
    await sweepLeftovers()
    const customers = await Promise.all([0, 1, 2].map(() => givenCustomer(t.app, shop.partner)))
    const placed: Awaited<ReturnType<typeof prepaidOrder>>[] = []
    for (const customer of customers) {
      placed.push(await prepaidOrder(customer))
      clock.advance(60_000)
    }
    // The first and the last were paid at Razorpay; no webhook came for either.
    for (const i of [0, 2]) {
      const rzpOrderId: string = placed[i].paymentClientAction.payload.order_id
      paymentsByOrder.set(rzpOrderId, [{ id: `pay_AppUnasked${i}`, entity: 'payment', order_id: rzpOrderId, amount: paiseOf(placed[i].amountPayable), currency: 'INR', status: 'captured' }])
    }
    clock.advance(RESERVATION_MS)
    const statuses = async () => Promise.all(placed.map(async (o, i) => (await orderOf(await givenCustomer(t.app, shop.partner, { phone: customers[i]!.phone }), o.id)).status))
    // A run of two: the oldest two are asked about; the first turns out paid, the second is cancelled.
    assert.equal(await t.app.payments.sweepExpiredReservations(2), 1)
    assert.equal(sent('GET', /payments$/).length, 2)
    assert.deepEqual(await statuses(), ['CONFIRMED', 'CANCELLED', 'PENDING_PAYMENT'], 'the third was not asked about, so it waits')
    assert.equal(await t.app.payments.sweepExpiredReservations(2), 0)
    assert.deepEqual(await statuses(), ['CONFIRMED', 'CANCELLED', 'CONFIRMED'])
    assert.equal(sent('POST', /refund$/).length, 0, 'no paid order was cancelled and refunded')
  })

  test('Razorpay cannot be asked: the order is kept for the next run (it may have been paid); asked again once Razorpay is back, it is confirmed or cancelled; unchecked for another reservation period, cancelled anyway', async () => {
    await sweepLeftovers()
    const [payer, leaver] = await Promise.all([givenCustomer(t.app, shop.partner), givenCustomer(t.app, shop.partner)])
    const stock = await stockOf(t, shop.ids.earbuds!)
    const paidOrder = await prepaidOrder(payer)
    const leftOrder = await prepaidOrder(leaver)
    const paidRzp: string = paidOrder.paymentClientAction.payload.order_id
    const amount = paiseOf(paidOrder.amountPayable)
    // Paid at Razorpay; the webhook never comes.
    paymentsByOrder.set(paidRzp, [{ id: 'pay_AppDown01', entity: 'payment', order_id: paidRzp, amount, currency: 'INR', status: 'captured' }])
    const statusOf = async (customer: typeof payer, orderId: string) => (await orderOf(await givenCustomer(t.app, shop.partner, { phone: customer.phone }), orderId)).status

    standIn.override = (r) => (r.method === 'GET' ? { status: 503, body: { error: { code: 'SERVER_ERROR', description: 'down' } } } : null)
    clock.advance(RESERVATION_MS + 60_000)
    assert.equal(await t.app.payments.sweepExpiredReservations(), 0, 'nothing cancelled while its payment cannot be checked')
    assert.equal(sent('GET', /payments$/).length, 1, 'after one failed check the run asks no more')
    assert.equal(await t.app.payments.sweepExpiredReservations(), 0)
    assert.equal(sent('GET', /payments$/).length, 2, 'one call a run while Razorpay is down')
    assert.equal(await statusOf(payer, paidOrder.id), 'PENDING_PAYMENT')
    assert.equal(await statusOf(leaver, leftOrder.id), 'PENDING_PAYMENT')
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 2, 'their stock stays held')

    standIn.override = null
    assert.equal(await t.app.payments.sweepExpiredReservations(), 1, 'the next run after recovery resolves both')
    assert.equal(await statusOf(payer, paidOrder.id), 'CONFIRMED')
    assert.equal(await statusOf(leaver, leftOrder.id), 'CANCELLED')
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 1)
    assert.equal(sent('POST', /refund$/).length, 0)

    // Razorpay's status API stays down: kept until one more reservation period has passed, then cancelled.
    const unlucky = await givenCustomer(t.app, shop.partner)
    const stuckOrder = await prepaidOrder(unlucky)
    standIn.override = (r) => (r.method === 'GET' ? { status: 503, body: { error: { code: 'SERVER_ERROR', description: 'down' } } } : null)
    clock.advance(RESERVATION_MS + 60_000)
    assert.equal(await t.app.payments.sweepExpiredReservations(), 0)
    clock.advance(RESERVATION_MS - 2 * 60_000)
    assert.equal(await t.app.payments.sweepExpiredReservations(), 0, 'still within one more reservation period')
    clock.advance(2 * 60_000)
    assert.equal(await t.app.payments.sweepExpiredReservations(), 1)
    assert.equal(await statusOf(unlucky, stuckOrder.id), 'CANCELLED')
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 1)
  })
})
