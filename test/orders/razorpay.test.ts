// The Razorpay adapter against a local stand-in of Razorpay's REST API (Basic auth, Razorpay-shaped
// answers and errors), and its webhook parsing against bodies signed here as Razorpay signs them.
import assert from 'node:assert/strict'
import { createHash, createHmac } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, beforeEach, describe, test } from 'node:test'
import { createRazorpayProvider, type RazorpayOptions } from '../../src/modules/payments/providers/razorpay.ts'
import { type PaymentProvider, ProviderError, type SessionRequest, WebhookSignatureError } from '../../src/modules/payments/providers/types.ts'
import { createRazorpayStandIn, type RazorpayPayment as Payment } from '../helpers/razorpay-standin.ts'

const KEY_ID = 'rzp_test_1DP5mmOlF5G5ag'
const KEY_SECRET = 'thisIsTheKeySecret0123456789'
const WEBHOOK_SECRET = 'webhook-secret-9876543210'
const BASIC = `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`

// ---- The stand-in (test/helpers/razorpay-standin.ts) -------------------------------------------

const standIn = createRazorpayStandIn({ keyId: KEY_ID, keySecret: KEY_SECRET })
const { requests, paymentsByOrder } = standIn
let apiBase: string

before(async () => {
  apiBase = await standIn.listen()
})
after(() => standIn.close())
beforeEach(() => standIn.reset())

const provider = (options: Partial<RazorpayOptions> = {}): PaymentProvider =>
  createRazorpayProvider({ keyId: KEY_ID, keySecret: KEY_SECRET, webhookSecret: WEBHOOK_SECRET, apiBase, ...options })

const sessionRequest = (overrides: Partial<SessionRequest> = {}): SessionRequest => ({
  paymentId: 'pay_01JABCDEFGHJKMNPQRSTVWXYZ0',
  orderId: 'ord_01JABCDEFGHJKMNPQRSTVWXYZ0',
  orderNumber: 'CA-2611-000123',
  amount: 149_900n,
  currency: 'INR',
  customer: { name: 'Asha Rao', phone: '+919876543210', email: 'asha@example.com' },
  returnUrl: 'https://shop.example.com/orders/CA-2611-000123',
  ...overrides,
})

/** A ProviderError that says what failed and does not carry the credentials. */
function isSafeProviderError(expected: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`)
    assert.match(error.message, expected)
    assert.ok(!error.message.includes(KEY_SECRET), error.message)
    assert.ok(!error.message.includes(BASIC.slice('Basic '.length)), error.message)
    return true
  }
}

// ---- REST calls ---------------------------------------------------------------------------------

describe('createSession', () => {
  test('creates a Razorpay order in paise with the order number as receipt, and returns the Checkout payload', async () => {
    const session = await provider({ merchantName: 'Acme Store' }).createSession(sessionRequest())

    assert.equal(requests.length, 1)
    const [sent] = requests
    assert.equal(sent!.method, 'POST')
    assert.equal(sent!.path, '/v1/orders')
    assert.equal(sent!.headers.authorization, BASIC)
    assert.match(String(sent!.headers['content-type']), /^application\/json/)
    assert.deepEqual(sent!.body, {
      amount: 149_900,
      currency: 'INR',
      receipt: 'CA-2611-000123',
      notes: { paymentId: 'pay_01JABCDEFGHJKMNPQRSTVWXYZ0', orderId: 'ord_01JABCDEFGHJKMNPQRSTVWXYZ0' },
    })

    assert.match(session.sessionId, /^order_\d+$/)
    assert.deepEqual(session.clientAction, {
      type: 'RAZORPAY_CHECKOUT',
      payload: {
        key: KEY_ID,
        order_id: session.sessionId,
        amount: 149_900,
        currency: 'INR',
        name: 'Acme Store',
        description: 'Order CA-2611-000123',
        prefill: { name: 'Asha Rao', contact: '+919876543210', email: 'asha@example.com' },
        notes: { paymentId: 'pay_01JABCDEFGHJKMNPQRSTVWXYZ0', orderId: 'ord_01JABCDEFGHJKMNPQRSTVWXYZ0' },
        callback_url: 'https://shop.example.com/orders/CA-2611-000123',
      },
    })
    assert.ok(!JSON.stringify(session).includes(KEY_SECRET), 'the client action must not carry the key secret')
  })

  test('without a return URL there is no callback_url; the merchant name defaults', async () => {
    const session = await provider().createSession(sessionRequest({ returnUrl: null }))
    const payload = session.clientAction.payload!
    assert.equal('callback_url' in payload, false)
    assert.equal(payload.name, 'Commerce API')
  })

  test('a 401 (wrong key secret) is a ProviderError that names the status, not the secret', async () => {
    const wrongSecret = 'wrongSecretThatMustNotLeak42'
    await assert.rejects(provider({ keySecret: wrongSecret }).createSession(sessionRequest()), (error: unknown) => {
      assert.ok(error instanceof ProviderError)
      assert.match(error.message, /401/)
      assert.match(error.message, /Authentication failed/)
      assert.ok(!error.message.includes(wrongSecret), error.message)
      assert.ok(!error.message.includes(Buffer.from(`${KEY_ID}:${wrongSecret}`).toString('base64')), error.message)
      return true
    })
    assert.equal(requests.length, 1, 'the request reached the stand-in')
  })

  test('a 500 is a ProviderError, even when the error body echoes the credentials', async () => {
    standIn.override = (request) => ({
      status: 500,
      body: { error: { code: 'SERVER_ERROR', description: `Internal error; request had ${request.headers.authorization} for ${KEY_ID}:${KEY_SECRET}` } },
    })
    await assert.rejects(provider().createSession(sessionRequest()), isSafeProviderError(/500.*SERVER_ERROR/))
  })

  test('an unreachable host is a ProviderError', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    await assert.rejects(provider({ apiBase: `http://127.0.0.1:${port}` }).createSession(sessionRequest()), isSafeProviderError(/could not be reached/))
  })

  test('a stand-in that never answers is cut off by timeoutMs', async () => {
    standIn.override = () => 'hang'
    const started = performance.now()
    await assert.rejects(provider({ timeoutMs: 200 }).createSession(sessionRequest()), isSafeProviderError(/timed out after 200 ms/))
    const elapsed = performance.now() - started
    assert.ok(elapsed >= 150 && elapsed < 2000, `gave up after ${Math.round(elapsed)} ms`)
    assert.equal(requests.length, 1, 'the request reached the stand-in')
  })

  test('a 2xx answer that is not JSON is a ProviderError', async () => {
    standIn.override = () => ({ status: 200, body: '<html>Service Unavailable</html>' })
    await assert.rejects(provider().createSession(sessionRequest()), isSafeProviderError(/not JSON/))
  })
})

describe('fetchStatus', () => {
  const payment = (id: string, status: string, amount = 149_900): Payment => ({ id, order_id: 'order_S', amount, currency: 'INR', status })

  test('a captured payment among failed ones: SUCCEEDED with its id, amount and currency', async () => {
    paymentsByOrder.set('order_S', [payment('pay_F1', 'failed'), payment('pay_C1', 'captured', 149_900)])
    const status = await provider().fetchStatus('order_S')
    assert.deepEqual(status, { status: 'SUCCEEDED', providerPaymentId: 'pay_C1', amount: 149_900n, currency: 'INR' })
    assert.equal(requests[0]!.method, 'GET')
    assert.equal(requests[0]!.path, '/v1/orders/order_S/payments')
    assert.equal(requests[0]!.headers.authorization, BASIC)
  })

  test('only failed payments: FAILED', async () => {
    paymentsByOrder.set('order_S', [payment('pay_F1', 'failed'), payment('pay_F2', 'failed')])
    assert.deepEqual(await provider().fetchStatus('order_S'), { status: 'FAILED' })
  })

  test('a failed payment and one still authorised: PENDING', async () => {
    paymentsByOrder.set('order_S', [payment('pay_F1', 'failed'), payment('pay_A1', 'authorized')])
    assert.deepEqual(await provider().fetchStatus('order_S'), { status: 'PENDING' })
  })

  test('no payments yet: PENDING', async () => {
    assert.deepEqual(await provider().fetchStatus('order_S'), { status: 'PENDING' })
    assert.equal(requests.length, 1)
  })

  test('an error answer is a ProviderError, not PENDING', async () => {
    standIn.override = () => ({ status: 502, body: { error: { code: 'GATEWAY_ERROR', description: 'Bad gateway' } } })
    await assert.rejects(provider().fetchStatus('order_S'), isSafeProviderError(/502/))
  })
})

describe('refund', () => {
  const request = { refundId: 'ref_01JABCDEFGHJKMNPQRSTVWXYZ0', providerPaymentId: 'pay_C1', amount: 50_000n }

  test('processed: SUCCEEDED, with the amount in paise, the refund id as receipt and idempotency key', async () => {
    const refund = await provider().refund(request)
    assert.equal(refund.status, 'SUCCEEDED')
    assert.match(refund.providerRefundId, /^rfnd_\d+$/)

    const [sent] = requests
    assert.equal(sent!.method, 'POST')
    assert.equal(sent!.path, '/v1/payments/pay_C1/refund')
    assert.equal(sent!.headers.authorization, BASIC)
    assert.equal(sent!.headers['x-refund-idempotency'], 'ref_01JABCDEFGHJKMNPQRSTVWXYZ0')
    assert.deepEqual(sent!.body, { amount: 50_000, receipt: 'ref_01JABCDEFGHJKMNPQRSTVWXYZ0', notes: { refundId: 'ref_01JABCDEFGHJKMNPQRSTVWXYZ0' } })
  })

  test('pending: PENDING', async () => {
    standIn.refundStatus = 'pending'
    const refund = await provider().refund(request)
    assert.equal(refund.status, 'PENDING')
    assert.match(refund.providerRefundId, /^rfnd_\d+$/)
  })

  test('failed: FAILED', async () => {
    standIn.refundStatus = 'failed'
    assert.equal((await provider().refund(request)).status, 'FAILED')
  })

  test('a refused refund is a ProviderError', async () => {
    standIn.override = () => ({ status: 400, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'The refund amount provided is greater than amount captured' } } })
    await assert.rejects(provider().refund(request), isSafeProviderError(/400.*greater than amount captured/))
  })
})

// ---- Webhooks -----------------------------------------------------------------------------------

const sign = (raw: string, secret = WEBHOOK_SECRET) => createHmac('sha256', secret).update(raw).digest('hex')

function signed(body: object, eventId: string | null = 'evt_Lx1', secret = WEBHOOK_SECRET): { rawBody: Buffer; headers: IncomingHttpHeaders } {
  const raw = JSON.stringify(body)
  return {
    rawBody: Buffer.from(raw),
    headers: { 'content-type': 'application/json', 'x-razorpay-signature': sign(raw, secret), ...(eventId ? { 'x-razorpay-event-id': eventId } : {}) },
  }
}

const paymentEvent = (event: string, entity: Record<string, unknown>) => ({
  entity: 'event',
  account_id: 'acc_BFQ7uQEaa7j2z7',
  event,
  contains: ['payment'],
  payload: {
    payment: {
      entity: {
        id: 'pay_DESp9bgForNoUd',
        entity: 'payment',
        amount: 149_900,
        currency: 'INR',
        status: 'captured',
        order_id: 'order_DESlfW9H8K9uqM',
        method: 'upi',
        captured: true,
        error_code: null,
        error_description: null,
        notes: { paymentId: 'pay_01J', orderId: 'ord_01J' },
        created_at: 1_700_000_000,
        ...entity,
      },
    },
  },
  created_at: 1_700_000_005,
})

const refundEvent = (event: string, status: string) => ({
  entity: 'event',
  account_id: 'acc_BFQ7uQEaa7j2z7',
  event,
  contains: ['refund', 'payment'],
  payload: {
    refund: { entity: { id: 'rfnd_Heax5rxucwf2aS', entity: 'refund', amount: 50_000, currency: 'INR', payment_id: 'pay_DESp9bgForNoUd', receipt: 'ref_01J', status } },
    payment: { entity: { id: 'pay_DESp9bgForNoUd', entity: 'payment', amount: 149_900, currency: 'INR', status: 'refunded', order_id: 'order_DESlfW9H8K9uqM' } },
  },
  created_at: 1_700_000_010,
})

describe('parseWebhook', () => {
  test('a correctly signed payment.captured: PAYMENT_SUCCEEDED with every field mapped', () => {
    const { rawBody, headers } = signed(paymentEvent('payment.captured', {}), 'evt_Lx1')
    assert.deepEqual(provider().parseWebhook(rawBody, headers), {
      kind: 'PAYMENT_SUCCEEDED',
      eventId: 'evt_Lx1',
      sessionId: 'order_DESlfW9H8K9uqM',
      providerPaymentId: 'pay_DESp9bgForNoUd',
      amount: 149_900n,
      currency: 'INR',
    })
  })

  test('order.paid for the same payment is also PAYMENT_SUCCEEDED, under its own event id', () => {
    const body = { ...paymentEvent('order.paid', {}), contains: ['payment', 'order'] }
    const { rawBody, headers } = signed(body, 'evt_Lx2')
    const event = provider().parseWebhook(rawBody, headers)
    assert.equal(event.kind, 'PAYMENT_SUCCEEDED')
    assert.equal(event.eventId, 'evt_Lx2')
    assert.equal(event.kind === 'PAYMENT_SUCCEEDED' && event.sessionId, 'order_DESlfW9H8K9uqM')
    assert.equal(event.kind === 'PAYMENT_SUCCEEDED' && event.providerPaymentId, 'pay_DESp9bgForNoUd')
  })

  test('without x-razorpay-event-id the event id is the sha256 of the raw body', () => {
    const { rawBody, headers } = signed(paymentEvent('payment.captured', {}), null)
    const event = provider().parseWebhook(rawBody, headers)
    assert.equal(event.eventId, createHash('sha256').update(rawBody).digest('hex'))
  })

  test('a tampered body is refused', () => {
    const { rawBody, headers } = signed(paymentEvent('payment.captured', { amount: 100 }))
    const tampered = Buffer.from(rawBody.toString('utf8').replace('"amount":100', '"amount":149900'))
    assert.notDeepEqual(tampered, rawBody)
    assert.throws(() => provider().parseWebhook(tampered, headers), WebhookSignatureError)
  })

  test('a signed payment event whose amount is not whole paise is refused, not a crash', () => {
    for (const amount of [1.5, '149900', null]) {
      const { rawBody, headers } = signed(paymentEvent('payment.captured', { amount }))
      assert.throws(() => provider().parseWebhook(rawBody, headers), WebhookSignatureError, String(amount))
    }
  })

  test('a body signed with another secret is refused', () => {
    const { rawBody, headers } = signed(paymentEvent('payment.captured', {}), 'evt_Lx1', 'someone-elses-secret')
    assert.throws(() => provider().parseWebhook(rawBody, headers), WebhookSignatureError)
  })

  test('a missing, empty or truncated signature header is refused', () => {
    const { rawBody, headers } = signed(paymentEvent('payment.captured', {}))
    const signature = headers['x-razorpay-signature'] as string
    const without = { ...headers }
    delete without['x-razorpay-signature']
    assert.throws(() => provider().parseWebhook(rawBody, without), WebhookSignatureError)
    assert.throws(() => provider().parseWebhook(rawBody, { ...headers, 'x-razorpay-signature': '' }), WebhookSignatureError)
    assert.throws(() => provider().parseWebhook(rawBody, { ...headers, 'x-razorpay-signature': signature.slice(0, 40) }), WebhookSignatureError)
    // The untouched headers still pass, so the refusals above are about the signature alone.
    assert.equal(provider().parseWebhook(rawBody, headers).kind, 'PAYMENT_SUCCEEDED')
  })

  test('payment.failed: PAYMENT_FAILED with Razorpay\'s error description, or a default reason', () => {
    const failed = signed(paymentEvent('payment.failed', { status: 'failed', captured: false, error_code: 'BAD_REQUEST_ERROR', error_description: 'Payment was unsuccessful as the bank declined it' }), 'evt_F1')
    assert.deepEqual(provider().parseWebhook(failed.rawBody, failed.headers), {
      kind: 'PAYMENT_FAILED',
      eventId: 'evt_F1',
      sessionId: 'order_DESlfW9H8K9uqM',
      providerPaymentId: 'pay_DESp9bgForNoUd',
      reason: 'Payment was unsuccessful as the bank declined it',
    })
    const bare = signed(paymentEvent('payment.failed', { status: 'failed', captured: false }), 'evt_F2')
    const event = provider().parseWebhook(bare.rawBody, bare.headers)
    assert.equal(event.kind === 'PAYMENT_FAILED' && event.reason, 'Payment failed')
  })

  test('refund.processed: REFUND_SUCCEEDED; refund.failed: REFUND_FAILED', () => {
    const processed = signed(refundEvent('refund.processed', 'processed'), 'evt_R1')
    assert.deepEqual(provider().parseWebhook(processed.rawBody, processed.headers), { kind: 'REFUND_SUCCEEDED', eventId: 'evt_R1', providerRefundId: 'rfnd_Heax5rxucwf2aS', refundId: 'ref_01J', reason: null })
    const failed = signed(refundEvent('refund.failed', 'failed'), 'evt_R2')
    const event = provider().parseWebhook(failed.rawBody, failed.headers)
    assert.equal(event.kind, 'REFUND_FAILED')
    assert.equal(event.eventId, 'evt_R2')
    assert.equal(event.kind === 'REFUND_FAILED' && event.providerRefundId, 'rfnd_Heax5rxucwf2aS')
  })

  test('an event we do not handle is IGNORED, with its type', () => {
    const { rawBody, headers } = signed(paymentEvent('payment.authorized', { status: 'authorized', captured: false }), 'evt_A1')
    assert.deepEqual(provider().parseWebhook(rawBody, headers), { kind: 'IGNORED', eventId: 'evt_A1', type: 'payment.authorized' })
  })
})
