// COD -> prepaid (issue #25): GET|POST /orders/{id}/convert-to-prepaid and
// POST /partner/orders/{id}/convert-to-prepaid. A confirmed, unshipped COD order is paid online
// for amountPayable - codFee - the prepaid discount; until the payment succeeds it stays a COD
// order; a success after it was shipped, cancelled or converted is refunded. The expected figures
// are computed here from the order's published amounts, independently of the code.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer, type PartnerFixture } from '../helpers/factories.ts'
import { ADDRESS, credit, givenShop, placeOrder, sandboxAction, type Shop, stockOf } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop
let admin: string
let support: string

before(async () => {
  t = await createTestApp({ clock })
  shop = await givenShop(t)
  admin = await givenAdminToken(t.app, t.deps, `convert-${randomUUID()}@admin.test`, 'ADMIN')
  support = await givenAdminToken(t.app, t.deps, `convert-support-${randomUUID()}@admin.test`, 'SUPPORT')
  // 5 % of the items' paid value, at most ₹40.
  const pricing = await asAdmin('PUT', `/partners/${shop.partner.partnerId}/pricing`, { rewardEarnPercent: 1, rewardRedeemCapPercent: 10, paisePerPoint: 100, prepaidDiscountPercent: 5, prepaidDiscountCap: '40.00' })
  assert.equal(pricing.statusCode, 200, pricing.body)
})
after(() => t.close())

const db = () => t.deps.database.db
const paise = (rupees: string) => {
  assert.match(rupees, /^\d+\.\d{2}$/)
  return BigInt(rupees.replace('.', ''))
}
function rupees(p: bigint) {
  const s = p.toString().padStart(3, '0')
  return `${s.slice(0, -2)}.${s.slice(-2)}`
}
const item = (slug: string, quantity: number) => ({ productId: shop.ids[slug]!, quantity })
const asCustomer = (c: CustomerFixture, method: 'GET' | 'POST', url: string, options: { payload?: object; key?: string } = {}) =>
  t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { ...customerHeaders(c), ...(options.key ? { 'x-idempotency-key': options.key } : {}) },
    ...(options.payload ? { payload: options.payload } : {}),
  })
function asAdmin(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object, token = admin) {
  return t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) })
}
const quote = (c: CustomerFixture, orderId: string) => asCustomer(c, 'GET', `/orders/${orderId}/convert-to-prepaid`)
const convert = (c: CustomerFixture, orderId: string, key = randomUUID()) => asCustomer(c, 'POST', `/orders/${orderId}/convert-to-prepaid`, { key })
const orderOf = async (c: CustomerFixture, orderId: string) => (await asCustomer(c, 'GET', `/orders/${orderId}`)).json().data

async function codOrder(customer: CustomerFixture, items = [item('earbuds', 1), item('atta', 1)], extra: object = {}) {
  const res = await placeOrder(t, customer, { items, shippingAddress: ADDRESS, paymentMode: 'COD', ...extra })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data
}
async function eventsOf(orderId: string, type: string) {
  return db().query.outboxEvents.findMany({ where: (e, { and, eq }) => and(eq(e.subjectId, orderId), eq(e.type, type)) })
}
async function refundsOf(orderId: string) {
  return db().query.refunds.findMany({ where: (r, { eq }) => eq(r.orderId, orderId) })
}
/** The largest-remainder split of `amount` over two weights, written again. */
function splitTwo(amount: bigint, a: bigint, b: bigint): [bigint, bigint] {
  const total = a + b
  let x = (amount * a) / total
  let y = (amount * b) / total
  if (x + y < amount) {
    if ((amount * a) % total >= (amount * b) % total) x += 1n
    else y += 1n
  }
  return [x, y]
}

describe('the quote (GET /orders/{id}/convert-to-prepaid)', () => {
  test('shows the COD fee waived and the prepaid discount before the customer decides, and creates nothing', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await codOrder(customer, [item('atta', 1)])
    assert.ok(paise(order.codFee) > 0n)
    const res = await quote(customer, order.id)
    assert.equal(res.statusCode, 200, res.body)
    const discount = paise(lineOfAtta(order).paidAmount) * 5n / 100n // ₹15.00: under the ₹40 cap
    assert.equal(discount, 1500n)
    assert.deepEqual(res.json().data, {
      eligible: true,
      reasons: [],
      amountToPay: rupees(paise(order.amountPayable) - paise(order.codFee) - discount),
      codFeeWaived: order.codFee,
      prepaidDiscount: rupees(discount),
      saving: rupees(paise(order.codFee) + discount),
    })
    const after = await orderOf(customer, order.id)
    assert.equal(after.payment, null, 'no payment was created')
    assert.equal(after.paymentMode, 'COD')
  })

  test('the discount stops at the cap', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await codOrder(customer, [item('earbuds', 2)]) // 5 % of ₹2000 = ₹100, capped at ₹40
    const data = (await quote(customer, order.id)).json().data
    assert.equal(data.prepaidDiscount, '40.00')
    assert.equal(data.amountToPay, rupees(paise(order.amountPayable) - paise(order.codFee) - 4000n))
  })

  test('an order that cannot convert: eligible false with the reason in words; another customer: 404', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const prepaid = (await placeOrder(t, customer, { items: [item('atta', 1)], shippingAddress: ADDRESS })).json().data
    const data = (await quote(customer, prepaid.id)).json().data
    assert.equal(data.eligible, false)
    assert.match(data.reasons[0], /waiting for its online payment/)
    assert.equal(data.amountToPay, '0.00')
    const stranger = await givenCustomer(t.app, shop.partner)
    assert.equal((await quote(stranger, prepaid.id)).statusCode, 404)
  })
})

const lineOfAtta = (order: { items: { productId: string; paidAmount: string; prepaidDiscount?: string }[] }) => order.items.find((i) => i.productId === shop.ids.atta)!

describe('conversion succeeds (POST /orders/{id}/convert-to-prepaid, then the provider)', () => {
  test('the order becomes PREPAID and PAID: COD fee 0.00, the discount on the order and its lines, amounts to the paisa; stock untouched; events', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await codOrder(customer)
    const stock = { earbuds: await stockOf(t, shop.ids.earbuds!), atta: await stockOf(t, shop.ids.atta!) }
    const codFee = paise(order.codFee)
    const earbuds = order.items.find((i: { productId: string }) => i.productId === shop.ids.earbuds)
    const atta = lineOfAtta(order)
    // 5 % of ₹1300 = ₹65, capped at ₹40; split over the lines by their paid value.
    const discount = 4000n
    const [earbudsShare, attaShare] = splitTwo(discount, paise(earbuds.paidAmount), paise(atta.paidAmount))
    const toPay = paise(order.amountPayable) - codFee - discount

    const res = await convert(customer, order.id)
    assert.equal(res.statusCode, 201, res.body)
    const started = res.json().data
    assert.equal(started.payment.amount, rupees(toPay))
    assert.equal(started.payment.status, 'PENDING')
    assert.equal(started.saving, rupees(codFee + discount))
    assert.equal(started.clientAction.type, 'REDIRECT')
    // Until the payment succeeds, nothing on the order changed.
    const waiting = await orderOf(customer, order.id)
    assert.equal(waiting.paymentMode, 'COD')
    assert.equal(waiting.codFee, order.codFee)
    assert.equal(waiting.amountPayable, order.amountPayable)

    assert.equal((await sandboxAction(t, started.clientAction, 'pay')).statusCode, 200)
    const paid = await orderOf(customer, order.id)
    assert.equal(paid.status, 'CONFIRMED')
    assert.equal(paid.paymentMode, 'PREPAID')
    assert.equal(paid.paymentStatus, 'PAID')
    assert.equal(paid.codFee, '0.00')
    assert.equal(paid.prepaidDiscount, rupees(discount))
    assert.equal(paid.amountPayable, rupees(toPay))
    assert.equal(paid.totalAmount, rupees(paise(order.totalAmount) - codFee - discount))
    // totalAmount = itemsTotal - couponDiscount - prepaidDiscount + shipping + codFee; amountPayable = total - points - Wallet Cash.
    assert.equal(paise(paid.totalAmount), paise(paid.itemsTotal) - paise(paid.couponDiscount) - paise(paid.prepaidDiscount) + paise(paid.shippingCharge) + paise(paid.codFee))
    assert.equal(paise(paid.amountPayable), paise(paid.totalAmount) - paise(paid.rewardPointsValue) - paise(paid.walletCashUsed))
    const paidEarbuds = paid.items.find((i: { productId: string }) => i.productId === shop.ids.earbuds)
    const paidAtta = lineOfAtta(paid)
    assert.equal(paidEarbuds.prepaidDiscount, rupees(earbudsShare))
    assert.equal(paidAtta.prepaidDiscount, rupees(attaShare))
    assert.equal(paidEarbuds.paidAmount, rupees(paise(earbuds.paidAmount) - earbudsShare))
    assert.equal(paidAtta.paidAmount, rupees(paise(atta.paidAmount) - attaShare))
    assert.equal(paid.payment.status, 'SUCCEEDED')
    assert.equal(paid.payment.amount, rupees(toPay))
    assert.deepEqual({ earbuds: await stockOf(t, shop.ids.earbuds!), atta: await stockOf(t, shop.ids.atta!) }, stock, 'stock untouched')

    const succeeded = await eventsOf(order.id, 'payment.succeeded')
    assert.equal(succeeded.length, 1)
    assert.equal((succeeded[0]!.data as { amount: string }).amount, rupees(toPay))
    const converted = await eventsOf(order.id, 'order.converted_to_prepaid')
    assert.equal(converted.length, 1)
    const data = converted[0]!.data as Record<string, unknown> & { order: { paymentMode: string } }
    assert.equal(data.codFeeWaived, order.codFee)
    assert.equal(data.prepaidDiscount, rupees(discount))
    assert.equal(data.saving, rupees(codFee + discount))
    assert.equal(data.amountPaid, rupees(toPay))
    assert.equal(data.order.paymentMode, 'PREPAID')
    assert.equal((await eventsOf(order.id, 'order.status_changed')).length, 0, 'the status did not change')
    assert.equal((await refundsOf(order.id)).length, 0)

    // Converted: the quote says so, and converting again is 409.
    assert.match((await quote(customer, order.id)).json().data.reasons[0], /already prepaid/)
    const again = await convert(customer, order.id)
    assert.equal(again.statusCode, 409)
    assert.match(again.json().message, /already prepaid/)
    // A cancellation now refunds exactly what was paid online.
    assert.equal((await asCustomer(customer, 'POST', `/orders/${order.id}/cancel`, { payload: { reason: 'Changed my mind' } })).statusCode, 200)
    const refunds = await refundsOf(order.id)
    assert.deepEqual(refunds.map((r) => [r.amount, r.status]), [[toPay, 'SUCCEEDED']])
  })

  test('a partner without a prepaid discount: only the COD fee goes', async () => {
    const other = await givenShop(t)
    const customer = await givenCustomer(t.app, other.partner)
    const order = (await placeOrder(t, customer, { items: [{ productId: other.ids.atta!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
    const started = (await convert(customer, order.id)).json().data
    assert.equal(started.payment.amount, rupees(paise(order.amountPayable) - paise(order.codFee)))
    assert.equal(started.saving, order.codFee)
    await sandboxAction(t, started.clientAction, 'pay')
    const paid = await orderOf(customer, order.id)
    assert.deepEqual([paid.paymentMode, paid.paymentStatus, paid.codFee, paid.prepaidDiscount], ['PREPAID', 'PAID', '0.00', '0.00'])
  })
})

describe('abandon, retry, walk away', () => {
  test('abandon then retry: the first session is dropped, a new one opens, and paying it converts', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await codOrder(customer)
    const first = (await convert(customer, order.id)).json().data
    const abandoned = await asCustomer(customer, 'POST', `/orders/${order.id}/payments/${first.payment.id}/abandon`)
    assert.equal(abandoned.statusCode, 200, abandoned.body)
    assert.equal(abandoned.json().data.status, 'USER_DROPPED')
    const still = await orderOf(customer, order.id)
    assert.deepEqual([still.paymentMode, still.paymentStatus, still.codFee], ['COD', 'COD_PENDING', order.codFee])

    const retry = await convert(customer, order.id)
    assert.equal(retry.statusCode, 201, retry.body)
    const second = retry.json().data
    assert.notEqual(second.payment.id, first.payment.id)
    assert.equal(second.payment.amount, first.payment.amount)
    const payments = await db().query.payments.findMany({ where: (p, { eq }) => eq(p.orderId, order.id) })
    assert.equal(payments.find((p) => p.id === first.payment.id)!.status, 'EXPIRED', 'the earlier session expired')
    await sandboxAction(t, second.clientAction, 'pay')
    const paid = await orderOf(customer, order.id)
    assert.deepEqual([paid.paymentMode, paid.paymentStatus, paid.codFee], ['PREPAID', 'PAID', '0.00'])
  })

  test('the customer walks away: the order stays a valid COD order (and can be shipped and delivered for cash)', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await codOrder(customer, [item('atta', 1)])
    assert.equal((await convert(customer, order.id)).statusCode, 201)
    const still = await orderOf(customer, order.id)
    assert.deepEqual([still.status, still.paymentMode, still.paymentStatus, still.codFee, still.amountPayable], ['CONFIRMED', 'COD', 'COD_PENDING', order.codFee, order.amountPayable])
    assert.equal((await asAdmin('POST', `/orders/${order.id}/shipments`, { carrier: 'manual' }, support)).statusCode, 201)
    for (const status of ['SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) {
      const moved = await asAdmin('POST', `/orders/${order.id}/status`, { status }, support)
      assert.equal(moved.statusCode, 200, moved.body)
    }
    const delivered = await orderOf(customer, order.id)
    assert.deepEqual([delivered.paymentMode, delivered.paymentStatus], ['COD', 'PAID'])
  })
})

describe('a late success is refunded and the order stays as it was', () => {
  test('after the order was shipped (a parcel booked)', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await codOrder(customer)
    const started = (await convert(customer, order.id)).json().data
    const parcel = await asAdmin('POST', `/orders/${order.id}/shipments`, { weightGrams: 1200 }, support)
    assert.equal(parcel.statusCode, 201, parcel.body)
    const before = await orderOf(customer, order.id)
    assert.equal((await sandboxAction(t, started.clientAction, 'pay')).statusCode, 200)
    const after = await orderOf(customer, order.id)
    assert.deepEqual(
      [after.status, after.paymentMode, after.paymentStatus, after.codFee, after.prepaidDiscount, after.totalAmount, after.amountPayable],
      [before.status, 'COD', 'COD_PENDING', order.codFee, '0.00', order.totalAmount, order.amountPayable],
    )
    const refunds = await refundsOf(order.id)
    assert.equal(refunds.length, 1)
    assert.equal(refunds[0]!.amount, paise(started.payment.amount))
    assert.equal(refunds[0]!.method, 'ORIGINAL_PAYMENT')
    assert.equal(refunds[0]!.status, 'SUCCEEDED')
    assert.match(refunds[0]!.reason, /stays cash on delivery/)
    assert.equal((await eventsOf(order.id, 'order.converted_to_prepaid')).length, 0)
    // Converting now: 409 naming the parcel.
    const res = await convert(customer, order.id)
    assert.equal(res.statusCode, 409)
    assert.match(res.json().message, /handed to the carrier/)
  })

  test('after the order was cancelled', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await codOrder(customer, [item('atta', 1)])
    const started = (await convert(customer, order.id)).json().data
    assert.equal((await asCustomer(customer, 'POST', `/orders/${order.id}/cancel`, { payload: { reason: 'No longer needed' } })).statusCode, 200)
    await sandboxAction(t, started.clientAction, 'pay')
    const after = await orderOf(customer, order.id)
    assert.deepEqual([after.status, after.paymentMode], ['CANCELLED', 'COD'])
    const refunds = await refundsOf(order.id)
    assert.deepEqual(refunds.map((r) => [r.amount, r.reason]), [[paise(started.payment.amount), 'Payment arrived after the order was cancelled']])
  })

  test('after the order was already converted by another session', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await codOrder(customer)
    const first = (await convert(customer, order.id)).json().data
    const second = (await convert(customer, order.id)).json().data
    await sandboxAction(t, second.clientAction, 'pay')
    const converted = await orderOf(customer, order.id)
    assert.equal(converted.paymentMode, 'PREPAID')
    await sandboxAction(t, first.clientAction, 'pay')
    const after = await orderOf(customer, order.id)
    assert.deepEqual([after.paymentMode, after.codFee, after.prepaidDiscount, after.totalAmount, after.amountPayable], ['PREPAID', '0.00', converted.prepaidDiscount, converted.totalAmount, converted.amountPayable])
    const refunds = await refundsOf(order.id)
    assert.deepEqual(refunds.map((r) => [r.paymentId, r.amount]), [[first.payment.id, paise(first.payment.amount)]])
    assert.equal((await eventsOf(order.id, 'order.converted_to_prepaid')).length, 1)
  })

  test('a repeat delivery of the success webhook changes nothing', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await codOrder(customer, [item('atta', 1)])
    const started = (await convert(customer, order.id)).json().data
    await sandboxAction(t, started.clientAction, 'pay')
    const once = await orderOf(customer, order.id)
    await sandboxAction(t, started.clientAction, 'pay')
    const twice = await orderOf(customer, order.id)
    assert.deepEqual([twice.totalAmount, twice.prepaidDiscount, twice.paymentStatus], [once.totalAmount, once.prepaidDiscount, 'PAID'])
    assert.equal((await eventsOf(order.id, 'order.converted_to_prepaid')).length, 1)
    assert.equal((await refundsOf(order.id)).length, 0)
  })
})

describe('idempotency (x-idempotency-key)', () => {
  test('the same key answers the same payment again; none opens a second session; no key: 400', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await codOrder(customer, [item('atta', 1)])
    const key = randomUUID()
    const first = await convert(customer, order.id, key)
    const again = await convert(customer, order.id, key)
    assert.equal(again.statusCode, 201)
    assert.equal(again.headers['idempotent-replayed'], 'true')
    assert.deepEqual(again.json().data, first.json().data)
    const payments = await db().query.payments.findMany({ where: (p, { eq }) => eq(p.orderId, order.id) })
    assert.equal(payments.length, 1)
    const missing = await asCustomer(customer, 'POST', `/orders/${order.id}/convert-to-prepaid`)
    assert.equal(missing.statusCode, 400)
    assert.equal(missing.json().message, 'x-idempotency-key header is required')
  })
})

describe('orders that cannot convert: 409 in words; another customer: 404', () => {
  test('shipped, cancelled, prepaid, waiting for payment, nothing to pay', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const shipped = await codOrder(customer, [item('atta', 1)])
    // Every unit in a parcel first (the merchant's own delivery): an order is not SHIPPED with nothing in one.
    assert.equal((await asAdmin('POST', `/orders/${shipped.id}/shipments`, { carrier: 'manual' }, support)).statusCode, 201)
    for (const status of ['SHIPPED']) assert.equal((await asAdmin('POST', `/orders/${shipped.id}/status`, { status }, support)).statusCode, 200)
    const cancelled = await codOrder(customer, [item('atta', 1)])
    await asCustomer(customer, 'POST', `/orders/${cancelled.id}/cancel`, { payload: { reason: 'No' } })
    const pending = (await placeOrder(t, customer, { items: [item('atta', 1)], shippingAddress: ADDRESS })).json().data
    const prepaid = (await placeOrder(t, customer, { items: [item('atta', 1)], shippingAddress: ADDRESS })).json().data
    await sandboxAction(t, prepaid.paymentClientAction, 'pay')
    const rich = await givenCustomer(t.app, shop.partner)
    await credit(t, clock, rich, 'WALLET_CASH', 10_000_000n)
    const covered = await codOrder(rich, [item('atta', 1)], { useWalletCash: true })
    assert.equal(covered.amountPayable, '0.00')
    const cases: [CustomerFixture, string, RegExp][] = [
      [customer, shipped.id, /has been shipped \(SHIPPED\)/],
      [customer, cancelled.id, /is cancelled/],
      [customer, pending.id, /waiting for its online payment/],
      [customer, prepaid.id, /already prepaid/],
      [rich, covered.id, /nothing left to pay on delivery/],
    ]
    for (const [who, orderId, message] of cases) {
      const res = await convert(who, orderId)
      assert.equal(res.statusCode, 409, `${orderId}: ${res.body}`)
      assert.match(res.json().message, message)
    }
    const stranger = await givenCustomer(t.app, shop.partner)
    const mine = await codOrder(customer, [item('atta', 1)])
    assert.equal((await convert(stranger, mine.id)).statusCode, 404)
    assert.equal((await convert(stranger, 'ord_missing')).statusCode, 404)
  })
})

describe("the partner's server (POST /partner/orders/{id}/convert-to-prepaid)", () => {
  const asPartner = (partner: PartnerFixture, orderId: string, key = randomUUID()) =>
    t.app.inject({ method: 'POST', url: `/api/v1/partner/orders/${orderId}/convert-to-prepaid`, headers: { 'x-partner-id': partner.partnerId, 'x-partner-secret': partner.secret, 'x-idempotency-key': key } })

  test('starts the same session for its own order; another partner: 404', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await codOrder(customer, [item('atta', 1)])
    const expected = (await quote(customer, order.id)).json().data
    const key = randomUUID()
    const res = await asPartner(shop.partner, order.id, key)
    assert.equal(res.statusCode, 201, res.body)
    assert.equal(res.json().data.payment.amount, expected.amountToPay)
    assert.equal(res.json().data.saving, expected.saving)
    assert.equal((await asPartner(shop.partner, order.id, key)).headers['idempotent-replayed'], 'true')
    const other = await givenShop(t)
    assert.equal((await asPartner(other.partner, order.id)).statusCode, 404)
    await sandboxAction(t, res.json().data.clientAction, 'pay')
    assert.equal((await orderOf(customer, order.id)).paymentMode, 'PREPAID')
  })
})

describe('an invoiced COD order', () => {
  test('its COD fee is credited by a credit note; the GST block of the order loses the charge', async () => {
    const taxed = await givenShop(t)
    const seller = await asAdmin('PUT', `/catalogs/${taxed.catalogId}/seller`, {
      legalName: 'Acme Retail Private Limited',
      gstin: '27AAPFU0939F1ZV',
      address: { line1: '12 Nariman Point', city: 'Mumbai', state: 'Maharashtra', pincode: '400021' },
    })
    assert.equal(seller.statusCode, 200, seller.body)
    assert.equal((await asAdmin('PATCH', `/products/${taxed.ids.hot}`, { hsnCode: '85183000', gstRateBps: 1800 })).statusCode, 200)
    const customer = await givenCustomer(t.app, taxed.partner)
    const order = (await placeOrder(t, customer, { items: [{ productId: taxed.ids.hot!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
    assert.ok(order.tax.charges.some((c: { kind: string }) => c.kind === 'COD_FEE'))
    const started = (await convert(customer, order.id)).json().data
    await sandboxAction(t, started.clientAction, 'pay')
    const docs = (await asCustomer(customer, 'GET', `/orders/${order.id}/invoice`)).json().data
    assert.equal(docs.invoices.length, 1)
    assert.equal(docs.creditNotes.length, 1)
    const fee = docs.invoices[0].lines.find((l: { kind: string }) => l.kind === 'COD_FEE')
    const note = docs.creditNotes[0]
    assert.deepEqual(note.lines.map((l: { kind: string; quantity: number; total: string }) => [l.kind, l.quantity, l.total]), [['COD_FEE', 1, fee.total]])
    assert.equal(fee.total, order.codFee)
    assert.match(note.reason, /Cash on delivery fee waived/)
    const paid = await orderOf(customer, order.id)
    assert.equal(paid.tax.charges.some((c: { kind: string }) => c.kind === 'COD_FEE'), false)
    const charges = paid.tax.charges.reduce((n: bigint, c: { totalTax: string }) => n + paise(c.totalTax), 0n)
    const lines = paid.items.reduce((n: bigint, i: { totalTax: string }) => n + paise(i.totalTax), 0n)
    assert.equal(paise(paid.tax.totalTax), charges + lines, 'the order tax is the sum of its lines and charges')
    // A later cancellation credits what is left (the goods and shipping), never the fee again.
    assert.equal((await asCustomer(customer, 'POST', `/orders/${order.id}/cancel`, { payload: { reason: 'No longer needed' } })).statusCode, 200)
    const after = (await asCustomer(customer, 'GET', `/orders/${order.id}/invoice`)).json().data
    const credited = after.creditNotes.flatMap((n: { lines: { kind: string }[] }) => n.lines.map((l) => l.kind))
    assert.equal(credited.filter((k: string) => k === 'COD_FEE').length, 1)
    assert.ok(credited.includes('GOODS'))
  })
})
