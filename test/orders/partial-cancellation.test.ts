// Partial cancellation (issue #24): POST /orders/{id}/cancel-items and POST /admin/orders/{id}/cancel-items.
// Units of a confirmed order are cancelled before shipping and settled for exactly those units, by
// the allocation rules of returns: the units' share of their line's paidAmount (cumulative slices),
// the card's share rounded up and capped, the rest to Wallet Cash; a COD order collects less. The
// expected figures are computed here from the order's published lines, independently of the code.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createCoupon } from '../../src/modules/checkout/coupons.ts'
import { shipmentItems, shipments } from '../../src/modules/shipping/schema.sql.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, credit, givenShop, placeOrder, sandboxAction, type Shop, stockOf } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop
let agent: string

before(async () => {
  t = await createTestApp({ clock })
  shop = await givenShop(t)
  agent = await givenAdminToken(t.app, t.deps, `partial-${randomUUID()}@admin.test`, 'SUPPORT')
  await createCoupon(t.deps.database.db, shop.partner.partnerId, { code: 'SAVE10', kind: 'PERCENT', value: 10n, maxDiscount: 50000n }, clock.now())
})
after(() => t.close())

const db = () => t.deps.database.db
const paise = (rupees: string) => {
  assert.match(rupees, /^\d+\.\d{2}$/)
  return BigInt(rupees.replace('.', ''))
}
const sum = (xs: bigint[]) => xs.reduce((s, x) => s + x, 0n)
const item = (slug: string, quantity: number) => ({ productId: shop.ids[slug]!, quantity })
const asCustomer = (c: CustomerFixture, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: customerHeaders(c), ...(payload ? { payload } : {}) })
const asAdmin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${agent}` }, ...(payload ? { payload } : {}) })
const cancelItems = (c: CustomerFixture, orderId: string, items: { orderItemId: string; quantity: number }[], reason = 'Ordered too many') =>
  asCustomer(c, 'POST', `/orders/${orderId}/cancel-items`, { items, reason })

interface Line {
  id: string
  productId: string
  quantity: number
  cancelledQuantity: number
  returnableQuantity: number
  paidAmount: string
  rewardPointsDiscount: string
}
interface OrderAnswer {
  id: string
  status: string
  paymentStatus: string
  amountPayable: string
  walletCashUsed: string
  rewardPointsUsed: number
  rewardPointsValue: string
  totalAmount: string
  items: Line[]
}
const lineOf = (order: OrderAnswer, slug: string) => order.items.find((i) => i.productId === shop.ids[slug])!

/** shareOfSlice, written again: floor(total x (from + n) / whole) - floor(total x from / whole). */
const slice = (total: bigint, whole: number, from: number, n: number) => (total * BigInt(from + n)) / BigInt(whole) - (total * BigInt(from)) / BigInt(whole)
/** The provider's share of `amount`, rounded up, capped at what is left of its payment. */
const providerShare = (amount: bigint, providerPaid: bigint, walletPaid: bigint, providerLeft: bigint) => {
  const exact = (amount * providerPaid + providerPaid + walletPaid - 1n) / (providerPaid + walletPaid)
  return exact < providerLeft ? exact : providerLeft
}

async function refundsOf(orderId: string) {
  return (await db().query.refunds.findMany({ where: (r, { eq }) => eq(r.orderId, orderId) })).filter((r) => r.status !== 'FAILED')
}
async function ledgerOf(customer: CustomerFixture, reference: string) {
  return db().query.ledgerEntries.findMany({ where: (e, { and, eq }) => and(eq(e.userId, customer.userId), eq(e.reference, reference)) })
}
async function eventsOf(orderId: string, type: string) {
  return db().query.outboxEvents.findMany({ where: (e, { and, eq }) => and(eq(e.subjectId, orderId), eq(e.type, type)) })
}
async function capturedPayment(orderId: string) {
  const rows = (await db().query.payments.findMany({ where: (p, { eq }) => eq(p.orderId, orderId) })).filter((p) => p.status === 'SUCCEEDED')
  assert.equal(rows.length, 1)
  return rows[0]!
}

/** 3 atta (₹300) and 2 earbuds (₹1000) with SAVE10, 150 Reward Points and ₹777.77 of Wallet Cash; the card pays the rest on the sandbox. */
async function prepaidOrder() {
  const customer = await givenCustomer(t.app, shop.partner)
  await credit(t, clock, customer, 'WALLET_CASH', 77_777n)
  await credit(t, clock, customer, 'REWARD_POINTS', 150n)
  const res = await placeOrder(t, customer, {
    items: [item('atta', 3), item('earbuds', 2)],
    shippingAddress: ADDRESS,
    paymentMode: 'PREPAID',
    couponCode: 'SAVE10',
    useWalletCash: true,
    useRewardPoints: true,
  })
  assert.equal(res.statusCode, 201, res.body)
  const created = res.json().data
  assert.equal(created.walletCashUsed, '777.77')
  assert.equal(created.rewardPointsUsed, 150)
  assert.ok(paise(created.couponDiscount) > 0n)
  assert.equal((await sandboxAction(t, created.paymentClientAction, 'pay')).statusCode, 200)
  const order = (await asCustomer(customer, 'GET', `/orders/${created.id}`)).json().data as OrderAnswer
  assert.equal(order.status, 'CONFIRMED')
  return { customer, order }
}

/** 4 atta with SAVE10 and ₹100.01 of Wallet Cash, cash on delivery. */
async function codOrder(quantity = 4) {
  const customer = await givenCustomer(t.app, shop.partner)
  await credit(t, clock, customer, 'WALLET_CASH', 10_001n)
  const res = await placeOrder(t, customer, { items: [item('atta', quantity)], shippingAddress: ADDRESS, paymentMode: 'COD', couponCode: 'SAVE10', useWalletCash: true })
  assert.equal(res.statusCode, 201, res.body)
  const order = res.json().data as OrderAnswer
  assert.equal(order.status, 'CONFIRMED')
  assert.equal(order.paymentStatus, 'COD_PENDING')
  return { customer, order }
}

describe('POST /orders/{id}/cancel-items: settled for exactly the cancelled units', () => {
  test('a prepaid order with a coupon, Wallet Cash and Reward Points: card share + wallet share to the paisa, stock and points back, the event', async () => {
    const atta0 = await stockOf(t, shop.ids.atta!)
    const earbuds0 = await stockOf(t, shop.ids.earbuds!)
    const { customer, order } = await prepaidOrder()
    const card = await capturedPayment(order.id)
    const atta = lineOf(order, 'atta')
    const earbuds = lineOf(order, 'earbuds')

    const res = await cancelItems(customer, order.id, [{ orderItemId: atta.id, quantity: 2 }, { orderItemId: earbuds.id, quantity: 1 }])
    assert.equal(res.statusCode, 200, res.body)
    const answer = res.json().data as OrderAnswer
    assert.equal(answer.status, 'CONFIRMED')
    assert.deepEqual([lineOf(answer, 'atta').cancelledQuantity, lineOf(answer, 'atta').returnableQuantity], [2, 1])
    assert.deepEqual([lineOf(answer, 'earbuds').cancelledQuantity, lineOf(answer, 'earbuds').returnableQuantity], [1, 1])
    assert.equal(answer.amountPayable, order.amountPayable, 'a prepaid order keeps what it paid; the refunds say what went back')
    assert.equal(answer.paymentStatus, 'PARTIALLY_REFUNDED')

    // Expected, from the published lines.
    const amount = slice(paise(atta.paidAmount), 3, 0, 2) + slice(paise(earbuds.paidAmount), 2, 0, 1)
    const wallet = paise(order.walletCashUsed)
    const cardPart = providerShare(amount, card.amount, wallet, card.amount)
    const walletPart = amount - cardPart
    const refunds = await refundsOf(order.id)
    assert.deepEqual(
      refunds.map((r) => [r.method, r.amount, r.status]).sort(),
      [['ORIGINAL_PAYMENT', cardPart, 'SUCCEEDED'], ['WALLET_CREDIT', walletPart, 'SUCCEEDED']].sort(),
    )
    assert.ok(cardPart > 0n && walletPart > 0n)
    // Points: value of the cancelled slices of the points discount, in whole points (1 point = ₹1).
    const pointsValue = slice(paise(atta.rewardPointsDiscount), 3, 0, 2) + slice(paise(earbuds.rewardPointsDiscount), 2, 0, 1)
    const points = pointsValue / 100n
    const ledger = await ledgerOf(customer, order.id)
    const back = (kind: string) => sum(ledger.filter((e) => e.reason === 'ORDER_ITEMS_CANCELLED' && e.kind === kind).map((e) => e.amount))
    assert.equal(back('WALLET_CASH'), walletPart)
    assert.equal(back('REWARD_POINTS'), points)
    assert.ok(points > 0n)
    assert.equal(await stockOf(t, shop.ids.atta!), atta0 - 1)
    assert.equal(await stockOf(t, shop.ids.earbuds!), earbuds0 - 1)

    const [event] = await eventsOf(order.id, 'order.items_cancelled')
    assert.ok(event)
    const data = event.data as Record<string, unknown>
    assert.deepEqual(data.items, [
      { orderItemId: atta.id, quantity: 2, amount: rupees(slice(paise(atta.paidAmount), 3, 0, 2)), rewardPoints: Number(slice(paise(atta.rewardPointsDiscount), 3, 0, 2) / 100n) },
      { orderItemId: earbuds.id, quantity: 1, amount: rupees(slice(paise(earbuds.paidAmount), 2, 0, 1)), rewardPoints: Number(points) - Number(slice(paise(atta.rewardPointsDiscount), 3, 0, 2) / 100n) },
    ])
    assert.deepEqual(data.refunded, { originalPayment: rupees(cardPart), walletCash: rupees(walletPart) })
    assert.equal(data.amount, rupees(amount))
    assert.equal(data.reason, 'Ordered too many')
    assert.equal(data.rewardPointsReturned, Number(points))
    assert.equal((data.order as OrderAnswer).items.find((i) => i.id === atta.id)!.cancelledQuantity, 2)
    const walletEvents = (await eventsOf(order.id, 'refund.succeeded')).filter((e) => (e.data as { method?: string }).method === 'WALLET_CREDIT')
    assert.deepEqual(walletEvents.map((e) => (e.data as { amount: string }).amount), [rupees(walletPart)])

    // The whole order cancelled afterwards gives back only the rest: each tender exactly what it paid in all.
    const cancelled = await asCustomer(customer, 'POST', `/orders/${order.id}/cancel`, { reason: 'Changed my mind' })
    assert.equal(cancelled.statusCode, 200, cancelled.body)
    assert.equal(cancelled.json().data.status, 'CANCELLED')
    assert.equal(cancelled.json().data.paymentStatus, 'REFUNDED')
    const all = await refundsOf(order.id)
    assert.equal(sum(all.filter((r) => r.method === 'ORIGINAL_PAYMENT').map((r) => r.amount)), card.amount, 'the card gets back exactly what it paid')
    const ledgerAfter = await ledgerOf(customer, order.id)
    const net = (kind: string) => sum(ledgerAfter.filter((e) => e.kind === kind).map((e) => e.amount))
    assert.equal(net('WALLET_CASH'), 0n, 'Wallet Cash: debited once, given back exactly once in all')
    assert.equal(net('REWARD_POINTS'), 0n, 'Reward Points: spent once, given back exactly once in all')
    assert.equal(await stockOf(t, shop.ids.atta!), atta0)
    assert.equal(await stockOf(t, shop.ids.earbuds!), earbuds0)
    const redemptions = await db().query.couponRedemptions.findMany({ where: (r, { eq }) => eq(r.orderId, order.id) })
    assert.equal(redemptions.length, 0, 'the whole cancellation gives the coupon use back')
  })

  test('cancelling every remaining unit is the whole cancellation: CANCELLED, the rest refunded once, never more than was paid', async () => {
    const atta0 = await stockOf(t, shop.ids.atta!)
    const { customer, order } = await prepaidOrder()
    const card = await capturedPayment(order.id)
    const atta = lineOf(order, 'atta')
    const earbuds = lineOf(order, 'earbuds')
    assert.equal((await cancelItems(customer, order.id, [{ orderItemId: atta.id, quantity: 1 }])).statusCode, 200)
    const res = await cancelItems(customer, order.id, [{ orderItemId: atta.id, quantity: 2 }, { orderItemId: earbuds.id, quantity: 2 }], 'Not needed')
    assert.equal(res.statusCode, 200, res.body)
    const answer = res.json().data as OrderAnswer & { cancelReason: string }
    assert.equal(answer.status, 'CANCELLED')
    assert.equal(answer.cancelReason, 'Not needed')
    const all = await refundsOf(order.id)
    const cardBack = sum(all.filter((r) => r.method === 'ORIGINAL_PAYMENT').map((r) => r.amount))
    assert.equal(cardBack, card.amount)
    assert.equal(all.filter((r) => r.method === 'ORIGINAL_PAYMENT').length, 2, 'the partial share, then the rest once')
    const ledger = await ledgerOf(customer, order.id)
    assert.equal(sum(ledger.filter((e) => e.kind === 'WALLET_CASH').map((e) => e.amount)), 0n)
    assert.equal(sum(ledger.filter((e) => e.kind === 'REWARD_POINTS').map((e) => e.amount)), 0n)
    assert.ok(cardBack + sum(all.filter((r) => r.method === 'WALLET_CREDIT').map((r) => r.amount)) <= card.amount + paise(order.walletCashUsed))
    assert.equal(await stockOf(t, shop.ids.atta!), atta0)
    assert.equal((await eventsOf(order.id, 'order.items_cancelled')).length, 1, 'the last step is a cancellation of the order, not of items')
    // Once cancelled, nothing more can be cancelled.
    const again = await cancelItems(customer, order.id, [{ orderItemId: atta.id, quantity: 1 }])
    assert.equal(again.statusCode, 409)
  })

  test('COD: nothing refunded but the Wallet Cash share; the cash to collect goes down by the cash share; COD_PENDING stays', async () => {
    const atta0 = await stockOf(t, shop.ids.atta!)
    const { customer, order } = await codOrder()
    const atta = lineOf(order, 'atta')
    const res = await cancelItems(customer, order.id, [{ orderItemId: atta.id, quantity: 1 }])
    assert.equal(res.statusCode, 200, res.body)
    const answer = res.json().data as OrderAnswer
    const amount = slice(paise(atta.paidAmount), 4, 0, 1)
    const wallet = paise(order.walletCashUsed)
    const cash = paise(order.amountPayable)
    const cashPart = providerShare(amount, cash, wallet, cash)
    assert.equal(answer.amountPayable, rupees(cash - cashPart))
    assert.equal(answer.paymentStatus, 'COD_PENDING')
    const refunds = await refundsOf(order.id)
    assert.deepEqual(refunds.map((r) => [r.method, r.amount]), [['WALLET_CREDIT', amount - cashPart]])
    assert.equal(await stockOf(t, shop.ids.atta!), atta0 - 3)
    const data = (await eventsOf(order.id, 'order.items_cancelled'))[0]!.data as Record<string, unknown>
    assert.deepEqual(data.refunded, { originalPayment: '0.00', walletCash: rupees(amount - cashPart) })
    assert.equal(data.cashToCollectReducedBy, rupees(cashPart))

    // The rest cancelled through cancel-items: CANCELLED, Wallet Cash back exactly once in all, stock exact.
    const rest = await cancelItems(customer, order.id, [{ orderItemId: atta.id, quantity: 3 }])
    assert.equal(rest.statusCode, 200, rest.body)
    assert.equal(rest.json().data.status, 'CANCELLED')
    const ledger = await ledgerOf(customer, order.id)
    assert.equal(sum(ledger.filter((e) => e.kind === 'WALLET_CASH').map((e) => e.amount)), 0n)
    assert.equal(await stockOf(t, shop.ids.atta!), atta0)
  })

  test('the back office cancels units of a PACKED order (SUPPORT): the answer is the admin view', async () => {
    const { order } = await codOrder(2)
    assert.equal((await asAdmin('POST', `/orders/${order.id}/status`, { status: 'PACKED' })).statusCode, 200)
    const res = await asAdmin('POST', `/orders/${order.id}/cancel-items`, { items: [{ orderItemId: order.items[0]!.id, quantity: 1 }], reason: 'Damaged in the warehouse' })
    assert.equal(res.statusCode, 200, res.body)
    const data = res.json().data
    assert.equal(data.status, 'PACKED')
    assert.equal(data.items[0].cancelledQuantity, 1)
    assert.ok(Array.isArray(data.payments))
    const event = (await eventsOf(order.id, 'order.items_cancelled'))[0]!
    assert.equal((event.data as { by: string }).by, 'ADMIN')
  })

  test('a return after a partial cancellation cannot include the cancelled units, and asks what the rest cost', async () => {
    const { customer, order } = await codOrder(3)
    const atta = lineOf(order, 'atta')
    assert.equal((await cancelItems(customer, order.id, [{ orderItemId: atta.id, quantity: 1 }])).statusCode, 200)
    // Every unit in a parcel first (the merchant's own delivery): an order is not SHIPPED with nothing in one.
    assert.equal((await asAdmin('POST', `/orders/${order.id}/shipments`, { carrier: 'manual' })).statusCode, 201)
    for (const status of ['SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) assert.equal((await asAdmin('POST', `/orders/${order.id}/status`, { status })).statusCode, 200)
    const delivered = (await asCustomer(customer, 'GET', `/orders/${order.id}`)).json().data as OrderAnswer
    assert.equal(lineOf(delivered, 'atta').returnableQuantity, 2)
    const body = (quantity: number) => ({ orderId: order.id, reason: 'Damaged', detail: 'Torn pack', requestedResolution: 'WALLET_CREDIT', items: [{ orderItemId: atta.id, quantity, reason: 'Torn' }] })
    const tooMany = await asCustomer(customer, 'POST', '/returns', body(3))
    assert.equal(tooMany.statusCode, 400)
    assert.match(tooMany.json().message, /quantity 3 is more than the 2 that can still be returned \(1 of its units were cancelled\)/)
    const ok = await asCustomer(customer, 'POST', '/returns', body(2))
    assert.equal(ok.statusCode, 201, ok.body)
    assert.equal(ok.json().data.requestedAmount, rupees(slice(paise(atta.paidAmount), 3, 1, 2)), 'the units after the cancelled one')
  })
})

describe('POST /orders/{id}/cancel-items: what is refused', () => {
  test('another order’s line 400; too many units 409; a line twice 400; unknown order 404; another customer’s order 404', async () => {
    const { customer, order } = await codOrder(2)
    const other = await codOrder(1)
    const line = order.items[0]!.id
    const foreign = await cancelItems(customer, order.id, [{ orderItemId: other.order.items[0]!.id, quantity: 1 }])
    assert.equal(foreign.statusCode, 400)
    assert.match(foreign.json().message, new RegExp(`Order item ${other.order.items[0]!.id} is not part of order`))
    const tooMany = await cancelItems(customer, order.id, [{ orderItemId: line, quantity: 3 }])
    assert.equal(tooMany.statusCode, 409)
    assert.equal(tooMany.json().message, `Order item ${line}: 3 units cannot be cancelled, only 2 of its 2 can (0 cancelled already, 0 in shipments)`)
    const twice = await cancelItems(customer, order.id, [{ orderItemId: line, quantity: 1 }, { orderItemId: line, quantity: 1 }])
    assert.equal(twice.statusCode, 400)
    assert.equal(twice.json().message, `items must not list order item ${line} twice`)
    assert.equal((await cancelItems(customer, 'ord_nope', [{ orderItemId: line, quantity: 1 }])).statusCode, 404)
    assert.equal((await cancelItems(other.customer, order.id, [{ orderItemId: line, quantity: 1 }])).statusCode, 404)
    const empty = await asCustomer(customer, 'POST', `/orders/${order.id}/cancel-items`, { items: [], reason: 'x' })
    assert.equal(empty.statusCode, 400)
    const noReason = await asCustomer(customer, 'POST', `/orders/${order.id}/cancel-items`, { items: [{ orderItemId: line, quantity: 1 }] })
    assert.equal(noReason.statusCode, 400)
    assert.equal((await asAdmin('POST', '/orders/ord_nope/cancel-items', { items: [{ orderItemId: line, quantity: 1 }], reason: 'x' })).statusCode, 404)
    // Nothing of it was settled.
    assert.equal((await refundsOf(order.id)).length, 0)
    assert.equal(((await asCustomer(customer, 'GET', `/orders/${order.id}`)).json().data as OrderAnswer).items[0]!.cancelledQuantity, 0)
  })

  test('a SHIPPED order 409; a PENDING_PAYMENT order 409 (cancel the whole order); units in a shipment 409', async () => {
    const { customer, order } = await codOrder(2)
    const line = order.items[0]!.id
    // Every unit in a parcel first (the merchant's own delivery): an order is not SHIPPED with nothing in one.
    assert.equal((await asAdmin('POST', `/orders/${order.id}/shipments`, { carrier: 'manual' })).statusCode, 201)
    for (const status of ['SHIPPED']) assert.equal((await asAdmin('POST', `/orders/${order.id}/status`, { status })).statusCode, 200)
    const shipped = await cancelItems(customer, order.id, [{ orderItemId: line, quantity: 1 }])
    assert.equal(shipped.statusCode, 409)
    assert.match(shipped.json().message, /cannot be cancelled once it is SHIPPED/)

    const pendingCustomer = await givenCustomer(t.app, shop.partner)
    const pending = (await placeOrder(t, pendingCustomer, { items: [item('atta', 2)], shippingAddress: ADDRESS, paymentMode: 'PREPAID' })).json().data as OrderAnswer
    assert.equal(pending.status, 'PENDING_PAYMENT')
    const unpaid = await cancelItems(pendingCustomer, pending.id, [{ orderItemId: pending.items[0]!.id, quantity: 1 }])
    assert.equal(unpaid.statusCode, 409)
    assert.match(unpaid.json().message, /is waiting for payment: cancel the whole order instead/)

    // A parcel booked with one of three units of a paid order (the shipping module books parcels;
    // written here directly). An unpaid COD order with a parcel booked cannot be changed at all:
    // test/shipping/fulfilment.test.ts.
    const packed = await prepaidOrder()
    const packedLine = packed.order.items.find((i) => i.quantity === 3)!.id
    assert.equal((await asAdmin('POST', `/orders/${packed.order.id}/status`, { status: 'PACKED' })).statusCode, 200)
    const now = clock.now()
    const shipmentId = `shp_${randomUUID()}`
    await db().insert(shipments).values({ id: shipmentId, orderId: packed.order.id, partnerId: shop.partner.partnerId, direction: 'FORWARD', carrier: 'test', awb: randomUUID(), trackingUrl: 'https://track.example/1', status: 'CREATED', weightGrams: 500, createdAt: now, updatedAt: now })
    await db().insert(shipmentItems).values({ shipmentId, orderItemId: packedLine, quantity: 1 })
    const inParcel = await cancelItems(packed.customer, packed.order.id, [{ orderItemId: packedLine, quantity: 3 }])
    assert.equal(inParcel.statusCode, 409)
    assert.equal(inParcel.json().message, `Order item ${packedLine}: 3 units cannot be cancelled, only 2 of its 3 can (0 cancelled already, 1 in shipments)`)
    const fits = await cancelItems(packed.customer, packed.order.id, [{ orderItemId: packedLine, quantity: 2 }])
    assert.equal(fits.statusCode, 200, fits.body)
    assert.equal(fits.json().data.status, 'PACKED', 'the unit in the parcel remains: not a whole cancellation')
  })
})

describe('credit note for the cancelled units of an invoiced order', () => {
  test('exactly the cancelled units of the line, no shipping; the whole cancellation later credits what is left', async () => {
    const admin = await givenAdminToken(t.app, t.deps, `partial-gst-${randomUUID()}@admin.test`, 'ADMIN')
    const asAdminUser = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: object) => t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${admin}` }, payload })
    const seller = await asAdminUser('PUT', `/catalogs/${shop.catalogId}/seller`, {
      legalName: 'Acme Retail Private Limited',
      gstin: '27AAPFU0939F1ZV',
      address: { line1: '12 Nariman Point', city: 'Mumbai', state: 'Maharashtra', pincode: '400021' },
    })
    assert.equal(seller.statusCode, 200, seller.body)
    assert.equal((await asAdminUser('PATCH', `/products/${shop.ids.hot}`, { hsnCode: '85183000', gstRateBps: 1800 })).statusCode, 200)
    const customer = await givenCustomer(t.app, shop.partner)
    const placed = await placeOrder(t, customer, { items: [item('hot', 3)], shippingAddress: ADDRESS, paymentMode: 'COD' })
    assert.equal(placed.statusCode, 201, placed.body)
    const order = placed.json().data
    const res = await cancelItems(customer, order.id, [{ orderItemId: order.items[0].id, quantity: 1 }])
    assert.equal(res.statusCode, 200, res.body)
    const docs = (await asCustomer(customer, 'GET', `/orders/${order.id}/invoice`)).json().data
    assert.equal(docs.invoices.length, 1)
    assert.equal(docs.creditNotes.length, 1)
    const note = docs.creditNotes[0]
    assert.deepEqual(note.lines.map((l: { kind: string; quantity: number }) => [l.kind, l.quantity]), [['GOODS', 1]])
    const invoiced = docs.invoices[0].lines.find((l: { kind: string }) => l.kind === 'GOODS')
    // One unit of three: a third of the line (cumulative half-up shares), its tax included.
    const third = (value: string) => (paise(value) * 2n + 3n) / 6n
    assert.equal(note.lines[0].total, rupees(third(invoiced.total)))
    assert.equal(note.reason, 'Items cancelled: Ordered too many')
    // The rest of the order cancelled: the second credit note takes the other two units and the charges.
    assert.equal((await asCustomer(customer, 'POST', `/orders/${order.id}/cancel`, { reason: 'No longer needed' })).statusCode, 200)
    const after = (await asCustomer(customer, 'GET', `/orders/${order.id}/invoice`)).json().data
    assert.equal(after.creditNotes.length, 2)
    const goods = after.creditNotes.flatMap((n: { lines: { kind: string; quantity: number; total: string }[] }) => n.lines.filter((l) => l.kind === 'GOODS'))
    assert.equal(goods.reduce((n: number, l: { quantity: number }) => n + l.quantity, 0), 3)
    assert.equal(rupees(sum(goods.map((l: { total: string }) => paise(l.total)))), invoiced.total, 'the credit notes of the line add up to the line')
  })
})

function rupees(p: bigint) {
  const s = (p < 0n ? -p : p).toString().padStart(3, '0')
  return `${p < 0n ? '-' : ''}${s.slice(0, -2)}.${s.slice(-2)}`
}
