// verifyWebhook (packages/sdk) accepts exactly what the server signs: the header the dispatcher
// writes with the partner's secret (src/lib/signature.ts signPayload), one v1 or two during a
// rotation, within five minutes; and refuses a changed body, another secret, an old or future
// timestamp and a malformed or missing header.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { verifyWebhook, WebhookVerificationError } from '../../packages/sdk/src/index.ts'
import { signPayload } from '../../src/modules/events/signing.ts'

const SECRET = 'whsec_current_0123456789abcdef'
const PREVIOUS = 'whsec_previous_0123456789abcdef'
const NOW = Date.parse('2026-11-26T10:00:00Z')
const nowSeconds = NOW / 1000
const body = JSON.stringify({ id: 'evt_01', type: 'payment.succeeded', createdAt: '2026-11-26T10:00:00.000Z', data: { orderId: 'ord_01', orderNumber: 'CM-1', paymentId: 'pay_01', amount: '698.00' } })
const headers = (signature: string) => ({ 'x-commerce-signature': signature, 'x-commerce-event-id': 'evt_01', 'x-commerce-event-type': 'payment.succeeded' })
const refused = (reason: WebhookVerificationError['reason']) => (e: unknown) => e instanceof WebhookVerificationError && e.reason === reason

describe('verifyWebhook accepts', () => {
  test('a body signed by the server with the secret, and answers the parsed event', async () => {
    const event = await verifyWebhook<'payment.succeeded'>(body, headers(signPayload(SECRET, nowSeconds, body)), SECRET, { now: NOW })
    assert.equal(event.type, 'payment.succeeded')
    assert.equal(event.data.amount, '698.00')
  })

  test('raw bytes and a Headers object, as a fetch-style handler (edge, browser worker) has them', async () => {
    const bytes = new TextEncoder().encode(body)
    const event = await verifyWebhook(bytes, new Headers(headers(signPayload(SECRET, nowSeconds, body))), SECRET, { now: NOW })
    assert.equal(event.id, 'evt_01')
  })

  test('during a rotation, a receiver holding either the new or the previous secret', async () => {
    const signature = signPayload([SECRET, PREVIOUS], nowSeconds, body)
    assert.equal((await verifyWebhook(body, headers(signature), SECRET, { now: NOW })).id, 'evt_01')
    assert.equal((await verifyWebhook(body, headers(signature), PREVIOUS, { now: NOW })).id, 'evt_01')
    // A receiver deploying its own new secret tries both.
    assert.equal((await verifyWebhook(body, headers(signPayload(SECRET, nowSeconds, body)), ['whsec_other', SECRET], { now: NOW })).id, 'evt_01')
  })

  test('a timestamp up to five minutes away, either way', async () => {
    await verifyWebhook(body, headers(signPayload(SECRET, nowSeconds - 300, body)), SECRET, { now: NOW })
    await verifyWebhook(body, headers(signPayload(SECRET, nowSeconds + 300, body)), SECRET, { now: NOW })
  })
})

describe('verifyWebhook refuses', () => {
  test('a body changed by one character', async () => {
    const signature = signPayload(SECRET, nowSeconds, body)
    await assert.rejects(verifyWebhook(body.replace('698.00', '998.00'), headers(signature), SECRET, { now: NOW }), refused('signature-mismatch'))
  })

  test('a signature made with another secret', async () => {
    await assert.rejects(verifyWebhook(body, headers(signPayload('whsec_attacker', nowSeconds, body)), SECRET, { now: NOW }), refused('signature-mismatch'))
  })

  test('a timestamp more than five minutes old or ahead (a replay), or outside a tolerance given', async () => {
    await assert.rejects(verifyWebhook(body, headers(signPayload(SECRET, nowSeconds - 301, body)), SECRET, { now: NOW }), refused('timestamp-out-of-tolerance'))
    await assert.rejects(verifyWebhook(body, headers(signPayload(SECRET, nowSeconds + 301, body)), SECRET, { now: NOW }), refused('timestamp-out-of-tolerance'))
    await assert.rejects(verifyWebhook(body, headers(signPayload(SECRET, nowSeconds - 61, body)), SECRET, { now: NOW, toleranceSeconds: 60 }), refused('timestamp-out-of-tolerance'))
  })

  test('a signature whose timestamp was changed to look fresh', async () => {
    const old = signPayload(SECRET, nowSeconds - 3600, body)
    await assert.rejects(verifyWebhook(body, headers(old.replace(/^t=\d+/, `t=${nowSeconds}`)), SECRET, { now: NOW }), refused('signature-mismatch'))
  })

  test('a missing or malformed signature header', async () => {
    await assert.rejects(verifyWebhook(body, {}, SECRET, { now: NOW }), refused('missing-signature'))
    for (const header of ['v1=abc', `t=${nowSeconds}`, `t=${nowSeconds},v1=XYZ`, `t=${nowSeconds},v0=${'a'.repeat(64)}`]) {
      await assert.rejects(verifyWebhook(body, headers(header), SECRET, { now: NOW }), refused('malformed-signature'), header)
    }
  })
})
