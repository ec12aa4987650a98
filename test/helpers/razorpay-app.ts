// The whole app with PAYMENT_PROVIDER=razorpay, shared by the Razorpay test files: a local node:http
// stand-in plays Razorpay's REST API (Orders, Payments, Refunds, with Basic auth), and the tests play
// Razorpay's webhook sender, signing raw bodies with the webhook secret as Razorpay does. Importing
// this module registers the hooks that start the app (one per test file) and stop it; `t` and `shop`
// are live bindings, set once the app is up.
import assert from 'node:assert/strict'
import { createHmac, randomUUID } from 'node:crypto'
import { after, before, beforeEach } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from './app.ts'
import { type CustomerFixture, customerHeaders } from './factories.ts'
import { createRazorpayStandIn } from './razorpay-standin.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from './shop.ts'
import { type RazorpayPaymentEvent, razorpayPaymentEvent } from './webhook-bodies.ts'

export const KEY_ID = 'rzp_test_AppLevel0001'
export const KEY_SECRET = 'appLevelKeySecret0123456789'
export const WEBHOOK_SECRET = 'app-level-webhook-secret-42'
/** The secret being rotated out (RAZORPAY_WEBHOOK_SECRET_PREVIOUS). */
export const PREVIOUS_WEBHOOK_SECRET = 'app-level-webhook-secret-41'
/** WH-09's orders: the plan's 200 on PostgreSQL, 50 on the embedded database (one connection). */
export const WH09_ORDERS = process.env.TEST_DATABASE_URL ? 200 : 50
export const BASIC = `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`
export const RESERVATION_MS = 30 * 60_000

// ---- The stand-in of Razorpay's REST API (test/helpers/razorpay-standin.ts) --------------------

export const standIn = createRazorpayStandIn({ keyId: KEY_ID, keySecret: KEY_SECRET, idPrefix: 'App' })
export const { requests, paymentsByOrder, sent } = standIn

// ---- The app --------------------------------------------------------------------------------------

export const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
export let t: TestApp
export let shop: Shop

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
      // The race test sends 200 webhooks from one address, each resent on a 503 as Razorpay would:
      // on a loaded machine the resends alone passed the per-address limit (600 a minute).
      RATE_LIMIT_MAX: '100000',
    },
  })
  shop = await givenShop(t)
})
after(async () => {
  await t?.close()
  await standIn.close()
})
beforeEach(() => standIn.reset())

export const item = (slug: string, quantity = 1) => ({ productId: shop.ids[slug]!, quantity })
export const get = (customer: CustomerFixture, url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: customerHeaders(customer) })
export const post = (customer: CustomerFixture, url: string, payload?: object, key?: string) =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { ...customerHeaders(customer), ...(key ? { 'x-idempotency-key': key } : {}) }, payload })
export const orderOf = async (customer: CustomerFixture, orderId: string) => {
  const res = await get(customer, `/orders/${orderId}`)
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data
}
/** "1000.00" -> 100000 */
export const paiseOf = (rupees: string) => {
  assert.match(rupees, /^\d+\.\d{2}$/)
  return Number(rupees.replace('.', ''))
}

export async function prepaidOrder(customer: CustomerFixture, slug = 'earbuds') {
  const res = await placeOrder(t, customer, { items: [item(slug)], shippingAddress: ADDRESS })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data
}

// ---- Razorpay's webhook sender ---------------------------------------------------------------------

export const sign = (raw: string, secret = WEBHOOK_SECRET) => createHmac('sha256', secret).update(raw).digest('hex')

export function webhook(body: object, eventId: string, options: { secret?: string } = {}) {
  const raw = JSON.stringify(body)
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/webhooks/razorpay',
    headers: { 'content-type': 'application/json', 'x-razorpay-signature': sign(raw, options.secret), 'x-razorpay-event-id': eventId },
    payload: raw,
  })
}

/** A Razorpay payment event as Razorpay sends it (webhook-bodies.ts), from this app's account. */
export const paymentEvent = (event: RazorpayPaymentEvent, entity: { id: string; order_id: string; amount: number } & Record<string, unknown>) =>
  razorpayPaymentEvent(event, entity, 'acc_AppLevel0001')

export const refundEvent = (event: 'refund.processed' | 'refund.failed', refund: { id: string; payment_id: string; amount: number }, orderId: string) => ({
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
export async function paidOrder(customer: CustomerFixture) {
  const order = await prepaidOrder(customer)
  const rzpOrderId: string = order.paymentClientAction.payload.order_id
  const rzpPaymentId = `pay_${randomUUID().replace(/-/g, '').slice(0, 14)}`
  const amount = paiseOf(order.amountPayable)
  const res = await webhook(paymentEvent('payment.captured', { id: rzpPaymentId, order_id: rzpOrderId, amount }), `evt_${randomUUID()}`)
  assert.equal(res.statusCode, 200, res.body)
  assert.equal((await orderOf(customer, order.id)).status, 'CONFIRMED')
  return { order, rzpOrderId, rzpPaymentId, amount }
}
