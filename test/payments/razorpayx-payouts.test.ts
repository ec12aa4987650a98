// RazorpayX payouts (issue #25) against a local stand-in of its API: the cash of a COD order's
// return paid out to a UPI ID or bank account through a contact, a fund account and a payout under
// the refund's payout key; settled by signed webhooks; retried with back-off when RazorpayX cannot
// be reached, given up as FAILED after PAYOUT_MAX_ATTEMPTS; and never paid twice, even when an
// answer is lost after the payout was made.
import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { createRazorpayXStandIn, type StandInPayout } from '../helpers/razorpayx-standin.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'

const KEY_ID = 'rzp_test_PayoutsKey01'
const KEY_SECRET = 'payoutsKeySecret0123456789'
const WEBHOOK_SECRET = 'payouts-webhook-secret-77'
const ACCOUNT = '2323230041626905'
const MAX_ATTEMPTS = 3
const ACCOUNT_NUMBER = '50100987650001'

const clock = new ManualClock(new Date('2026-11-26T10:00:00+05:30'))
const standIn = createRazorpayXStandIn({ keyId: KEY_ID, keySecret: KEY_SECRET, accountNumber: ACCOUNT })
let t: TestApp
let shop: Shop
let agent: string

before(async () => {
  await standIn.listen()
  t = await createTestApp({
    clock,
    env: {
      RAZORPAYX_KEY_ID: KEY_ID,
      RAZORPAYX_KEY_SECRET: KEY_SECRET,
      RAZORPAYX_ACCOUNT_NUMBER: ACCOUNT,
      RAZORPAYX_WEBHOOK_SECRET: WEBHOOK_SECRET,
      RAZORPAYX_API_BASE: standIn.apiBase,
      RAZORPAYX_TIMEOUT_MS: '2000',
      PAYOUT_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      JOB_INTERVAL_MS: '15000',
    },
  })
  shop = await givenShop(t)
  agent = await givenAdminToken(t.app, t.deps, 'payouts@admin.test', 'ADMIN')
})
after(async () => {
  await t?.close()
  await standIn.close()
})
beforeEach(() => standIn.reset())

const asAdmin = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${agent}` }, ...(payload ? { payload } : {}) })
const refundsOfReturn = (returnId: string) => t.deps.database.db.query.refunds.findMany({ where: (r, { eq }) => eq(r.returnRequestId, returnId), orderBy: (r, { asc }) => [asc(r.createdAt), asc(r.id)] })
const returnStatus = async (returnId: string) => (await asAdmin('GET', `/returns/${returnId}`)).json().data.status as string
const webhook = (event: string, payout: StandInPayout, eventId: string, secret = WEBHOOK_SECRET) => {
  const { payload, headers } = standIn.webhook(event, payout, secret, eventId)
  return t.app.inject({ method: 'POST', url: '/api/v1/payouts/webhooks/razorpayx', headers, payload })
}
/** The payout job, as the server runs it on its timer, after `minutes` have passed. */
const jobAfter = async (minutes: number) => {
  clock.advance(minutes * 60_000)
  await t.app.payments.retryRefundsAndPurgeKeys()
}

/** A delivered ₹1000.00 COD order and its return asking for the cash back to `refundTo`, approved. */
async function approvedReturn(refundTo: object): Promise<{ customer: CustomerFixture; returnId: string }> {
  const customer = await givenCustomer(t.app, shop.partner)
  const placed = await placeOrder(t, customer, { items: [{ productId: shop.ids.earbuds, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
  assert.equal(placed.statusCode, 201, placed.body)
  const order = placed.json().data
  // Every unit in a parcel (the merchant's own delivery) before SHIPPED: an order is not shipped with nothing in one.
  assert.equal((await asAdmin('POST', `/orders/${order.id}/shipments`, { carrier: 'manual' })).statusCode, 201)
  for (const status of ['SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) assert.equal((await asAdmin('POST', `/orders/${order.id}/status`, { status })).statusCode, 200)
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/returns',
    headers: customerHeaders(customer),
    payload: { orderId: order.id, reason: 'Defective', detail: 'Dead on arrival', requestedResolution: 'ORIGINAL_PAYMENT_REFUND', items: [{ orderItemId: order.items[0].id, quantity: 1, reason: 'Defective' }], refundTo },
  })
  assert.equal(created.statusCode, 201, created.body)
  const returnId = created.json().data.id
  for (const status of ['UNDER_REVIEW', 'APPROVED']) assert.equal((await asAdmin('POST', `/returns/${returnId}/status`, { status })).statusCode, 200)
  return { customer, returnId }
}
const startRefund = async (returnId: string) => {
  const res = await asAdmin('POST', `/returns/${returnId}/status`, { status: 'REFUND_PENDING' })
  assert.equal(res.statusCode, 200, res.body)
}
const outage = () => {
  standIn.override = () => ({ status: 503, body: { error: { code: 'SERVER_ERROR', description: 'Service unavailable' } } })
}

describe('a UPI payout through RazorpayX', () => {
  test('makes a contact, a fund account and a payout under the refund id; payout.processed settles it, once', async () => {
    const { returnId } = await approvedReturn({ method: 'UPI', vpa: 'asha@oksbi' })
    await startRefund(returnId)
    const [refund] = await refundsOfReturn(returnId)
    assert.equal(standIn.payouts.length, 1)
    const payout = standIn.payouts[0]!
    assert.deepEqual(
      { method: refund!.method, status: refund!.status, providerRefundId: refund!.providerRefundId, payoutKey: refund!.payoutKey },
      { method: 'UPI_PAYOUT', status: 'PENDING', providerRefundId: payout.id, payoutKey: refund!.id },
    )
    const [contact] = standIn.sent('POST', '/v1/contacts')
    assert.equal(contact!.body!.type, 'customer')
    const [fund] = standIn.sent('POST', '/v1/fund_accounts')
    assert.deepEqual(fund!.body, { contact_id: 'cont_1', account_type: 'vpa', vpa: { address: 'asha@oksbi' } })
    const [sent] = standIn.sent('POST', '/v1/payouts')
    assert.equal(sent!.headers['x-payout-idempotency'], refund!.id)
    assert.deepEqual(
      { amount: payout.amount, currency: payout.currency, mode: payout.mode, purpose: payout.purpose, reference_id: payout.reference_id, account: sent!.body!.account_number },
      { amount: 100_000, currency: 'INR', mode: 'UPI', purpose: 'refund', reference_id: refund!.id, account: ACCOUNT },
    )
    assert.match(payout.narration, /^Refund CM[0-9A-Z]{8}$/)
    assert.equal(await returnStatus(returnId), 'REFUND_PENDING')

    const processed = await webhook('payout.processed', { ...payout, status: 'processed' }, 'evt_processed_1')
    assert.equal(processed.statusCode, 200, processed.body)
    assert.deepEqual(processed.json().data, { received: true, duplicate: false })
    assert.equal((await refundsOfReturn(returnId))[0]!.status, 'SUCCEEDED')
    assert.equal(await returnStatus(returnId), 'REFUNDED')
    const again = await webhook('payout.processed', { ...payout, status: 'processed' }, 'evt_processed_1')
    assert.deepEqual(again.json().data, { received: true, duplicate: true })
  })

  test('a webhook with a wrong signature is 401 and changes nothing; an unknown provider is 404', async () => {
    const { returnId } = await approvedReturn({ method: 'UPI', vpa: 'forged@oksbi' })
    await startRefund(returnId)
    const payout = standIn.payouts[0]!
    const forged = await webhook('payout.processed', { ...payout, status: 'processed' }, 'evt_forged', 'not-the-secret')
    assert.equal(forged.statusCode, 401)
    assert.equal((await refundsOfReturn(returnId))[0]!.status, 'PENDING')
    const sandbox = await t.app.inject({ method: 'POST', url: '/api/v1/payouts/webhooks/sandbox', headers: { 'content-type': 'application/json' }, payload: '{}' })
    assert.equal(sandbox.statusCode, 404)
  })

  test('payout.failed fails the refund with RazorpayX words; the retry is a new payout under a new key', async () => {
    const { returnId } = await approvedReturn({ method: 'UPI', vpa: 'closed@oksbi' })
    await startRefund(returnId)
    const first = standIn.payouts[0]!
    const failed = await webhook('payout.failed', { ...first, status: 'failed', status_details: { description: 'The beneficiary account is closed' } }, 'evt_failed_1')
    assert.equal(failed.statusCode, 200)
    const [refund] = await refundsOfReturn(returnId)
    assert.deepEqual([refund!.status, refund!.failureReason, refund!.outcomeUnknown], ['FAILED', 'The beneficiary account is closed', false])
    assert.equal(await returnStatus(returnId), 'REFUND_FAILED')

    await startRefund(returnId)
    const refunds = await refundsOfReturn(returnId)
    assert.equal(refunds.length, 2)
    const retry = refunds.find((r) => r.id !== refund!.id)!
    assert.notEqual(retry.payoutKey, refund!.payoutKey)
    assert.equal(standIn.payouts.length, 2)
    assert.equal(standIn.payouts[1]!.reference_id, retry.payoutKey)
  })
})

describe('when RazorpayX cannot be reached', () => {
  test('an answer lost after the payout was made: the retry finds that payout by its reference and pays nothing more', async () => {
    const { returnId } = await approvedReturn({ method: 'UPI', vpa: 'lost@oksbi' })
    standIn.loseAnswers = true
    await startRefund(returnId)
    let [refund] = await refundsOfReturn(returnId)
    assert.deepEqual([refund!.status, refund!.providerRefundId, refund!.attempts], ['PENDING', null, 1])
    assert.equal(standIn.payouts.length, 1)

    // Backed off: the job does not send it again before its time.
    standIn.loseAnswers = false
    const before = standIn.requests.length
    await jobAfter(0)
    assert.equal(standIn.requests.length, before)
    await jobAfter(1)
    ;[refund] = await refundsOfReturn(returnId)
    assert.deepEqual([refund!.status, refund!.providerRefundId], ['PENDING', standIn.payouts[0]!.id])
    assert.equal(standIn.payouts.length, 1, 'paid once')
    assert.equal(standIn.sent('POST', '/v1/payouts').length, 1)
    await webhook('payout.processed', { ...standIn.payouts[0]!, status: 'processed' }, 'evt_lost_processed')
    assert.equal(await returnStatus(returnId), 'REFUNDED')
  })

  test(`an outage: tried ${MAX_ATTEMPTS} times with back-off, then FAILED saying so; the retry sends the same payout key`, async () => {
    const { returnId } = await approvedReturn({ method: 'UPI', vpa: 'outage@oksbi' })
    outage()
    await startRefund(returnId)
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) await jobAfter(10)
    const [refund] = await refundsOfReturn(returnId)
    assert.equal(refund!.status, 'FAILED')
    assert.equal(refund!.attempts, MAX_ATTEMPTS)
    assert.equal(refund!.outcomeUnknown, true)
    assert.equal(refund!.failureReason, `The payout provider could not be reached in ${MAX_ATTEMPTS} attempts; a retry sends the same payout again, never a second one`)
    assert.equal(await returnStatus(returnId), 'REFUND_FAILED')
    assert.equal(standIn.sent('GET', '/v1/payouts').length, MAX_ATTEMPTS)
    await jobAfter(60)
    assert.equal(standIn.sent('GET', '/v1/payouts').length, MAX_ATTEMPTS, 'a FAILED payout is not sent again by the job')

    standIn.override = null
    await startRefund(returnId)
    const retry = (await refundsOfReturn(returnId)).find((r) => r.id !== refund!.id)!
    assert.equal(retry.payoutKey, refund!.payoutKey)
    assert.equal(standIn.payouts.length, 1)
    assert.equal(standIn.payouts[0]!.reference_id, refund!.payoutKey)
  })

  test('a payout given up on that went through after all: its payout.processed settles the refund and the return', async () => {
    const { returnId } = await approvedReturn({ method: 'UPI', vpa: 'late@oksbi' })
    standIn.loseAnswers = true
    await startRefund(returnId)
    outage()
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) await jobAfter(10)
    assert.equal((await refundsOfReturn(returnId))[0]!.status, 'FAILED')
    assert.equal(await returnStatus(returnId), 'REFUND_FAILED')

    const res = await webhook('payout.processed', { ...standIn.payouts[0]!, status: 'processed' }, 'evt_late_processed')
    assert.equal(res.statusCode, 200, res.body)
    const [refund] = await refundsOfReturn(returnId)
    assert.deepEqual([refund!.status, refund!.failureReason, refund!.providerRefundId], ['SUCCEEDED', null, standIn.payouts[0]!.id])
    assert.equal(await returnStatus(returnId), 'REFUNDED')
  })
})

describe('a bank payout', () => {
  test('goes by IMPS with the account in the fund account, and never shows the number whole', async () => {
    const { customer, returnId } = await approvedReturn({ method: 'BANK', accountHolderName: 'Asha Rao', ifsc: 'HDFC0001234', accountNumber: ACCOUNT_NUMBER })
    await startRefund(returnId)
    const [fund] = standIn.sent('POST', '/v1/fund_accounts')
    assert.deepEqual(fund!.body!.bank_account, { name: 'Asha Rao', ifsc: 'HDFC0001234', account_number: ACCOUNT_NUMBER })
    assert.equal(standIn.payouts[0]!.mode, 'IMPS')
    const view = await t.app.inject({ method: 'GET', url: `/api/v1/returns/${returnId}`, headers: customerHeaders(customer) })
    assert.ok(!view.body.includes(ACCOUNT_NUMBER))
    assert.equal(view.json().data.refunds[0].payoutTo.accountNumber, 'XXXXXXXX0001')
  })

  test('an IFSC RazorpayX refuses fails the refund at once with its description, not retried', async () => {
    const { returnId } = await approvedReturn({ method: 'BANK', accountHolderName: 'Asha Rao', ifsc: 'UTIB0000009', accountNumber: ACCOUNT_NUMBER })
    await startRefund(returnId)
    const [refund] = await refundsOfReturn(returnId)
    assert.deepEqual(
      [refund!.status, refund!.failureReason, refund!.attempts, refund!.outcomeUnknown],
      ['FAILED', 'The payout provider refused the payout: Invalid IFSC Code in Bank Account', 0, false],
    )
    assert.equal(standIn.sent('POST', '/v1/payouts').length, 0)
    assert.equal(await returnStatus(returnId), 'REFUND_FAILED')
    await jobAfter(60)
    assert.equal(standIn.sent('POST', '/v1/fund_accounts').length, 1)
  })

  test("a refusal that quotes the account number is stored and shown with the number masked", async () => {
    const { customer, returnId } = await approvedReturn({ method: 'BANK', accountHolderName: 'Asha Rao', ifsc: 'HDFC0001234', accountNumber: ACCOUNT_NUMBER })
    standIn.override = (r) =>
      r.path === '/v1/fund_accounts' ? { status: 400, body: { error: { code: 'BAD_REQUEST_ERROR', description: `Account ${ACCOUNT_NUMBER} is closed` } } } : null
    await startRefund(returnId)
    const [refund] = await refundsOfReturn(returnId)
    assert.equal(refund!.failureReason, 'The payout provider refused the payout: Account XXXXXXXX0001 is closed')
    const view = await t.app.inject({ method: 'GET', url: `/api/v1/returns/${returnId}`, headers: customerHeaders(customer) })
    assert.ok(!view.body.includes(ACCOUNT_NUMBER))
  })
})
