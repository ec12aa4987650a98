// Refunds of orders paid in cash on delivery (issue #25): the customer chooses where the cash goes
// back (a UPI ID or a bank account; Wallet Cash when none is given), paid out through the sandbox
// payout provider. Account numbers are sealed at rest and never shown or sent whole outside the
// payout itself; bad UPI IDs, IFSCs and account numbers are 400s naming the field, and nothing is
// written for them. The RazorpayX adapter has its own tests (test/payments/razorpayx-payouts.test.ts).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { eq } from 'drizzle-orm'
import { ManualClock } from '../../src/lib/clock.ts'
import { createSecretBox } from '../../src/lib/secret-box.ts'
import { payoutAccounts } from '../../src/modules/payments/schema.sql.ts'
import { SANDBOX_FAILING_VPA } from '../../src/modules/payments/payouts/sandbox.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, credit, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-26T10:00:00+05:30'))
let t: TestApp
let shop: Shop
let agent: string

const ACCOUNT_NUMBER = '50100123454321'
const BANK = { method: 'BANK', accountHolderName: 'Asha Rao', ifsc: 'hdfc0001234', accountNumber: ACCOUNT_NUMBER }

before(async () => {
  t = await createTestApp({ clock })
  shop = await givenShop(t)
  agent = await givenAdminToken(t.app, t.deps, 'cod-refunds@admin.test', 'ADMIN')
})
after(() => t?.close())

const asAdmin = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${agent}` }, ...(payload ? { payload } : {}) })
const asCustomer = (customer: CustomerFixture, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: customerHeaders(customer), ...(payload ? { payload } : {}) })

interface Ctx {
  t: TestApp
  shop: Shop
  agent: string
}

/** A COD order of `quantity` earbuds (₹1000.00 each, ₹49.00 COD fee), delivered: its cash collected. */
async function deliveredCodOrderIn(ctx: Ctx, customer: CustomerFixture, options: { quantity?: number; useWalletCash?: boolean } = {}) {
  const placed = await placeOrder(ctx.t, customer, {
    items: [{ productId: ctx.shop.ids.earbuds, quantity: options.quantity ?? 1 }],
    shippingAddress: ADDRESS,
    paymentMode: 'COD',
    ...(options.useWalletCash ? { useWalletCash: true } : {}),
  })
  assert.equal(placed.statusCode, 201, placed.body)
  const order = placed.json().data
  for (const status of ['PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) {
    // Every unit in a parcel (the merchant's own delivery) before SHIPPED: an order is not shipped with nothing in one.
    if (status === 'SHIPPED') assert.equal((await ctx.t.app.inject({ method: 'POST', url: `/api/v1/admin/orders/${order.id}/shipments`, headers: { authorization: `Bearer ${ctx.agent}` }, payload: { carrier: 'manual' } })).statusCode, 201)
    const moved = await ctx.t.app.inject({ method: 'POST', url: `/api/v1/admin/orders/${order.id}/status`, headers: { authorization: `Bearer ${ctx.agent}` }, payload: { status } })
    assert.equal(moved.statusCode, 200, moved.body)
  }
  const delivered = (await ctx.t.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: customerHeaders(customer) })).json().data
  assert.equal(delivered.paymentStatus, 'PAID')
  return delivered
}
const deliveredCodOrder = (customer: CustomerFixture, options: { quantity?: number; useWalletCash?: boolean } = {}) => deliveredCodOrderIn({ t, shop, agent }, customer, options)

const returnBody = (order: { id: string; items: { id: string }[] }, extra: object = {}, quantity = 1) => ({
  orderId: order.id,
  reason: 'Defective',
  detail: 'The left earbud does not charge',
  requestedResolution: 'ORIGINAL_PAYMENT_REFUND',
  items: [{ orderItemId: order.items[0]!.id, quantity, reason: 'Defective' }],
  ...extra,
})

/** Approved and refunded by the back office; the answer of the REFUND_PENDING move. */
async function approveAndRefund(returnId: string) {
  assert.equal((await asAdmin('POST', `/returns/${returnId}/status`, { status: 'UNDER_REVIEW' })).statusCode, 200)
  assert.equal((await asAdmin('POST', `/returns/${returnId}/status`, { status: 'APPROVED' })).statusCode, 200)
  return asAdmin('POST', `/returns/${returnId}/status`, { status: 'REFUND_PENDING' })
}

async function returnsOf(orderId: string) {
  return t.deps.database.db.query.returnRequests.findMany({ where: (r, { eq }) => eq(r.orderId, orderId) })
}

describe('where the cash of a COD order goes back', () => {
  test('a return refunded to a UPI ID is paid out at once (UPI_PAYOUT), and the order shows it refunded', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await deliveredCodOrder(customer)
    const created = await asCustomer(customer, 'POST', '/returns', returnBody(order, { refundTo: { method: 'UPI', vpa: 'Asha.Rao@okhdfcbank' } }))
    assert.equal(created.statusCode, 201, created.body)
    assert.deepEqual(created.json().data.refundTo, { method: 'UPI', vpa: 'asha.rao@okhdfcbank', accountHolderName: null, ifsc: null, accountNumber: null })

    const refunded = await approveAndRefund(created.json().data.id)
    assert.equal(refunded.statusCode, 200, refunded.body)
    const view = (await asCustomer(customer, 'GET', `/returns/${created.json().data.id}`)).json().data
    assert.equal(view.status, 'REFUNDED')
    assert.equal(view.refunds.length, 1)
    const [refund] = view.refunds
    assert.deepEqual(
      { method: refund.method, status: refund.status, amount: refund.amount, payoutTo: refund.payoutTo, failureReason: refund.failureReason },
      { method: 'UPI_PAYOUT', status: 'SUCCEEDED', amount: '1000.00', payoutTo: { method: 'UPI', vpa: 'asha.rao@okhdfcbank', accountHolderName: null, ifsc: null, accountNumber: null }, failureReason: null },
    )
    assert.match(refund.providerRefundId, /^spout_/)
    const after = (await asCustomer(customer, 'GET', `/orders/${order.id}`)).json().data
    // The COD fee (₹49.00) is not part of the return: the order is partly refunded.
    assert.equal(after.paymentStatus, 'PARTIALLY_REFUNDED')
  })

  test('without refundTo the cash goes back as Wallet Cash, as before', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await deliveredCodOrder(customer)
    const created = await asCustomer(customer, 'POST', '/returns', returnBody(order))
    assert.equal(created.json().data.refundTo, null)
    await approveAndRefund(created.json().data.id)
    const refunds = (await asCustomer(customer, 'GET', `/returns/${created.json().data.id}`)).json().data.refunds
    assert.deepEqual(refunds.map((r: { method: string; status: string; amount: string }) => [r.method, r.status, r.amount]), [['WALLET_CREDIT', 'SUCCEEDED', '1000.00']])
  })

  test('an order paid partly with Wallet Cash: the cash share is paid out, the wallet share credited back, together the return amount', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    await credit(t, clock, customer, 'WALLET_CASH', 30_000n)
    const order = await deliveredCodOrder(customer, { quantity: 2, useWalletCash: true })
    assert.equal(order.walletCashUsed, '300.00')
    const created = await asCustomer(customer, 'POST', '/returns', returnBody(order, { refundTo: BANK }))
    assert.equal((await approveAndRefund(created.json().data.id)).statusCode, 200)
    const refunds = (await asCustomer(customer, 'GET', `/returns/${created.json().data.id}`)).json().data.refunds as { method: string; status: string; amount: string }[]
    // ₹1000.00 of a ₹2049.00 order paid ₹300.00 Wallet Cash, ₹1749.00 cash: the cash share rounds up.
    assert.deepEqual(refunds.map((r) => [r.method, r.status, r.amount]).sort(), [['BANK_PAYOUT', 'SUCCEEDED', '853.59'], ['WALLET_CREDIT', 'SUCCEEDED', '146.41']])
  })

  test('a refused payout fails the refund with the reason; the customer corrects the UPI ID and the retry pays once', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await deliveredCodOrder(customer)
    const created = await asCustomer(customer, 'POST', '/returns', returnBody(order, { refundTo: { method: 'UPI', vpa: SANDBOX_FAILING_VPA } }))
    const id = created.json().data.id
    await approveAndRefund(id)
    let view = (await asAdmin('GET', `/returns/${id}`)).json().data
    assert.equal(view.status, 'REFUND_FAILED')
    assert.deepEqual(view.refunds.map((r: { status: string; failureReason: string }) => [r.status, r.failureReason]), [['FAILED', "The beneficiary's bank refused the payout (sandbox)"]])
    assert.match(view.history.find((h: { status: string }) => h.status === 'REFUND_FAILED').note, /refused the payout/)

    const corrected = await asCustomer(customer, 'PUT', `/returns/${id}/refund-to`, { method: 'UPI', vpa: 'asha@oksbi' })
    assert.equal(corrected.statusCode, 200, corrected.body)
    assert.equal(corrected.json().data.refundTo.vpa, 'asha@oksbi')
    assert.equal((await asAdmin('POST', `/returns/${id}/status`, { status: 'REFUND_PENDING' })).statusCode, 200)
    view = (await asAdmin('GET', `/returns/${id}`)).json().data
    assert.equal(view.status, 'REFUNDED')
    assert.deepEqual(
      view.refunds.map((r: { status: string; payoutTo: { vpa: string } }) => [r.status, r.payoutTo.vpa]).sort(),
      [['FAILED', SANDBOX_FAILING_VPA], ['SUCCEEDED', 'asha@oksbi']],
    )
    // Refunded once: the cash paid out is the return's amount, not twice it.
    const all = await t.deps.database.db.query.refunds.findMany({ where: (r, { eq }) => eq(r.orderId, order.id) })
    assert.equal(all.filter((r) => r.status === 'SUCCEEDED').reduce((sum, r) => sum + r.amount, 0n), 100_000n)

    const tooLate = await asCustomer(customer, 'PUT', `/returns/${id}/refund-to`, { method: 'UPI', vpa: 'asha@okaxis' })
    assert.equal(tooLate.statusCode, 409, tooLate.body)
    assert.match(tooLate.json().message, /Return request is REFUNDED/)
  })
})

describe('bank account numbers', () => {
  test('are sealed at rest and shown only as their last four digits in every answer and event', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await deliveredCodOrder(customer)
    const created = await asCustomer(customer, 'POST', '/returns', returnBody(order, { refundTo: BANK }))
    assert.equal(created.statusCode, 201, created.body)
    const id = created.json().data.id
    assert.deepEqual(created.json().data.refundTo, { method: 'BANK', vpa: null, accountHolderName: 'Asha Rao', ifsc: 'HDFC0001234', accountNumber: 'XXXXXXXX4321' })
    await approveAndRefund(id)

    const answers = [
      created.body,
      (await asCustomer(customer, 'GET', `/returns/${id}`)).body,
      (await asCustomer(customer, 'GET', `/orders/${order.id}`)).body,
      (await asAdmin('GET', `/returns/${id}`)).body,
      (await asAdmin('GET', `/orders/${order.id}`)).body,
      (await asAdmin('GET', `/returns?orderId=${order.id}`)).body,
    ]
    const refund = (await asCustomer(customer, 'GET', `/returns/${id}`)).json().data.refunds[0]
    assert.deepEqual([refund.method, refund.status, refund.payoutTo.accountNumber], ['BANK_PAYOUT', 'SUCCEEDED', 'XXXXXXXX4321'])
    const events = await t.deps.database.db.query.outboxEvents.findMany()
    const stored = await t.deps.database.db.query.payoutAccounts.findMany({ where: (a, { eq }) => eq(a.userId, customer.userId) })
    assert.equal(stored.length, 1)
    assert.equal(stored[0]!.accountNumberLast4, '4321')
    assert.match(stored[0]!.accountNumberSealed!, /^v1\./)
    for (const text of [...answers, JSON.stringify(events), JSON.stringify(stored)]) {
      assert.ok(!text.includes(ACCOUNT_NUMBER), `the whole account number appears in: ${text.slice(0, 200)}`)
    }
    assert.ok(answers[1]!.includes('XXXXXXXX4321'))
  })
  test('a number that can no longer be unsealed (AUTH_SECRET changed) fails the payout with a reason, and nothing is sent', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await deliveredCodOrder(customer)
    const id = (await asCustomer(customer, 'POST', '/returns', returnBody(order, { refundTo: BANK }))).json().data.id
    // Sealed under another secret: what a rotated AUTH_SECRET leaves behind.
    const other = createSecretBox('another-secret-that-is-long-enough-000', 'payout-account').seal(ACCOUNT_NUMBER)
    await t.deps.database.db.update(payoutAccounts).set({ accountNumberSealed: other }).where(eq(payoutAccounts.userId, customer.userId))
    assert.equal((await approveAndRefund(id)).statusCode, 200)
    const view = (await asAdmin('GET', `/returns/${id}`)).json().data
    assert.equal(view.status, 'REFUND_FAILED')
    assert.match(view.refunds[0].failureReason, /^The bank account can no longer be read/)
  })
})

describe('bad refund destinations', () => {
  let customer: CustomerFixture
  let order: { id: string; items: { id: string }[] }
  before(async () => {
    customer = await givenCustomer(t.app, shop.partner)
    order = await deliveredCodOrder(customer)
  })

  const cases: [string, object, string][] = [
    ['a UPI ID without a handle', { method: 'UPI', vpa: 'asha.rao' }, 'refundTo.vpa must be a UPI ID such as name@bank'],
    ['a UPI ID with a space', { method: 'UPI', vpa: 'asha rao@oksbi' }, 'refundTo.vpa must be a UPI ID such as name@bank'],
    ['an IFSC without its fifth-character zero', { ...BANK, ifsc: 'HDFC1001234' }, 'refundTo.ifsc must be an 11-character IFSC such as HDFC0001234'],
    ['an IFSC of 10 characters', { ...BANK, ifsc: 'HDFC000123' }, 'refundTo.ifsc must be an 11-character IFSC such as HDFC0001234'],
    ['an account number of 8 digits', { ...BANK, accountNumber: '12345678' }, 'refundTo.accountNumber must be a bank account number of 9 to 18 digits'],
    ['an account number with letters', { ...BANK, accountNumber: '5010012345432X' }, 'refundTo.accountNumber must be a bank account number of 9 to 18 digits'],
    ['a bank account without its IFSC', { method: 'BANK', accountHolderName: 'Asha Rao', accountNumber: ACCOUNT_NUMBER }, 'refundTo.ifsc should not be empty'],
    ['a UPI refund without the UPI ID', { method: 'UPI' }, 'refundTo.vpa should not be empty'],
    ['a UPI ID on a bank refund', { ...BANK, vpa: 'asha@oksbi' }, 'refundTo.vpa is not taken with method BANK'],
    ['an unknown method', { method: 'CHEQUE' }, 'refundTo.method must be one of the following values: UPI, BANK'],
  ]
  for (const [name, refundTo, message] of cases) {
    test(`${name}: 400 naming the field, and no return is written`, async () => {
      const res = await asCustomer(customer, 'POST', '/returns', returnBody(order, { refundTo }))
      assert.equal(res.statusCode, 400, res.body)
      const body = res.json()
      assert.ok([body.message].flat().includes(message), `expected "${message}" in ${res.body}`)
      assert.equal((await returnsOf(order.id)).length, 0)
    })
  }

  test('refundTo with a Wallet Cash resolution: 400', async () => {
    const res = await asCustomer(customer, 'POST', '/returns', returnBody(order, { requestedResolution: 'WALLET_CREDIT', refundTo: BANK }))
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().message, 'refundTo is only taken with requestedResolution ORIGINAL_PAYMENT_REFUND')
  })

  test('refundTo for an order paid online: 400, its refund goes back to the payment', async () => {
    const other = await givenCustomer(t.app, shop.partner)
    const placed = (await placeOrder(t, other, { items: [{ productId: shop.ids.atta, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'PREPAID' })).json().data
    await t.app.inject({ method: 'POST', url: `/api/v1/sandbox/checkout/${placed.paymentClientAction.payload.sessionId}/pay` })
    // Every unit in a parcel (the merchant's own delivery) before SHIPPED: an order is not shipped with nothing in one.
    await asAdmin('POST', `/orders/${placed.id}/shipments`, { carrier: 'manual' })
    for (const status of ['SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) await asAdmin('POST', `/orders/${placed.id}/status`, { status })
    const res = await asCustomer(other, 'POST', '/returns', returnBody(placed, { refundTo: { method: 'UPI', vpa: 'x1@oksbi' } }))
    assert.equal(res.statusCode, 400, res.body)
    assert.match(res.json().message, /^refundTo is only taken for an order paid in cash on delivery; order CM-.+ is refunded to its online payment$/)
  })

  test("another customer's return: 404 on changing where its refund goes", async () => {
    const created = await asCustomer(customer, 'POST', '/returns', returnBody(order, { refundTo: BANK }))
    assert.equal(created.statusCode, 201, created.body)
    const stranger = await givenCustomer(t.app, shop.partner)
    const res = await asCustomer(stranger, 'PUT', `/returns/${created.json().data.id}/refund-to`, { method: 'UPI', vpa: 'thief@oksbi' })
    assert.equal(res.statusCode, 404)
  })
})

describe('without a payout provider (production without RazorpayX)', () => {
  test('a UPI or bank refund is refused with a 400 that says Wallet Cash is there', async () => {
    const app = await createTestApp({ clock, env: { PAYOUT_SANDBOX: 'false' } })
    try {
      const own = await givenShop(app)
      const ownAgent = await givenAdminToken(app.app, app.deps, 'no-payouts@admin.test', 'ADMIN')
      const customer = await givenCustomer(app.app, own.partner)
      const order = await deliveredCodOrderIn({ t: app, shop: own, agent: ownAgent }, customer)
      const res = await app.app.inject({ method: 'POST', url: '/api/v1/returns', headers: customerHeaders(customer), payload: returnBody(order, { refundTo: { method: 'UPI', vpa: 'asha@oksbi' } }) })
      assert.equal(res.statusCode, 400, res.body)
      assert.equal(res.json().message, 'refundTo: refunds to a UPI ID or a bank account are not available; leave refundTo out for Wallet Cash')
      // Wallet Cash is there.
      assert.equal((await app.app.inject({ method: 'POST', url: '/api/v1/returns', headers: customerHeaders(customer), payload: returnBody(order) })).statusCode, 201)
    } finally {
      await app.close()
    }
  })
})
