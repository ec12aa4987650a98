// Payments through Razorpay, the whole app against a stand-in of Razorpay's API
// (test/helpers/razorpay-app.ts): order creation, signed callbacks (repeats, out of order, forged,
// a rotated secret), cancellation refunds settled by webhook, and a provider outage when the session
// is opened. The reservation sweeper's checks with Razorpay are in razorpay-sweeper.test.ts.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, test } from 'node:test'
import { givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, placeOrder, stockOf } from '../helpers/shop.ts'
import { BASIC, KEY_ID, KEY_SECRET, PREVIOUS_WEBHOOK_SECRET, WEBHOOK_SECRET, clock, item, orderOf, paidOrder, paiseOf, paymentEvent, post, prepaidOrder, refundEvent, requests, sent, shop, sign, standIn, t, webhook } from '../helpers/razorpay-app.ts'

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
