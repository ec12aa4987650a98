import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'drizzle-orm'
import { ManualClock } from '../../src/lib/clock.ts'
import { createCatalog } from '../../src/modules/catalog/index.ts'
import { importCatalog } from '../../src/modules/catalog/import.ts'
import { createCoupon } from '../../src/modules/checkout/coupons.ts'
import { ledgerBalances } from '../../src/modules/ledgers/ledger.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'
import { ADDRESS, credit, placeOrder, sandboxAction } from '../helpers/shop.ts'
import { uploadedImage } from '../helpers/uploads.ts'
import { seedDeliveryZones } from '../../src/modules/checkout/seed-zones.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let partner: PartnerFixture
let agent: string
const ids: Record<string, string> = {}

before(async () => {
  t = await createTestApp({ clock })
  const db = t.deps.database.db
  await seedDeliveryZones(db)
  const catalog = await createCatalog(db, 'Returns')
  await importCatalog(db, catalog.id, {
    categories: [{ slug: 'shoes', name: 'Shoes' }],
    products: [
      { slug: 'sneaker', name: 'Sneaker', brand: 'Campus', sku: 'S', categorySlug: 'shoes', sellingPrice: '1000.00', mrp: '1500.00', stock: 1000 },
      { slug: 'sock', name: 'Sock', brand: 'Jockey', sku: 'K', categorySlug: 'shoes', sellingPrice: '333.00', mrp: '400.00', stock: 1000 },
      { slug: 'odd', name: 'Odd', brand: 'Jockey', sku: 'O', categorySlug: 'shoes', sellingPrice: '500.13', mrp: '600.00', stock: 1000 },
    ],
  })
  for (const p of await db.query.products.findMany()) ids[p.slug] = p.id
  partner = await givenPartner(t.deps, 'Returns partner', catalog.id)
  await createCoupon(db, partner.partnerId, { code: 'FLAT100', kind: 'FLAT', value: 10_000n }, clock.now())
  agent = await givenAdminToken(t.app, t.deps, 'returns@admin.test', 'SUPPORT')
})
after(() => t.close())

const call = (customer: CustomerFixture, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: customerHeaders(customer), payload })
const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${agent}` }, payload })
/** Moves the order by hand. Every unit in a parcel (the merchant's own delivery) before SHIPPED: an order is not shipped with nothing in one. */
async function moveOrder(id: string, status: string) {
  if (status === 'SHIPPED' && (await admin('GET', `/orders/${id}`)).json().data.unparcelled?.length) assert.equal((await admin('POST', `/orders/${id}/shipments`, { carrier: 'manual' })).statusCode, 201)
  return admin('POST', `/orders/${id}/status`, { status })
}
const moveReturn = (id: string, status: string, extra: object = {}) => admin('POST', `/returns/${id}/status`, { status, ...extra })

/** A fresh customer (tokens expire on the manual clock) with an order, delivered unless told otherwise. */
async function order(payload: object, options: { prepaid?: boolean; deliver?: boolean; customer?: CustomerFixture } = {}) {
  const customer = options.customer ?? (await givenCustomer(t.app, partner))
  const res = await placeOrder(t, customer, { shippingAddress: ADDRESS, paymentMode: options.prepaid ? 'PREPAID' : 'COD', ...payload })
  assert.equal(res.statusCode, 201, res.body)
  const created = res.json().data
  if (options.prepaid && created.paymentClientAction.type !== 'NONE') await sandboxAction(t, created.paymentClientAction, 'pay')
  if (options.deliver !== false) for (const s of ['PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) assert.equal((await moveOrder(created.id, s)).statusCode, 200)
  const fetched = (await call(customer, 'GET', `/orders/${created.id}`)).json().data
  return { customer, order: fetched }
}

const ret = (customer: CustomerFixture, body: object) => call(customer, 'POST', '/returns', body)

describe('POST /returns', () => {
  test('a return: REQUESTED, items with requested amounts after coupon and points, refunds empty', async () => {
    const customer = await givenCustomer(t.app, partner)
    await credit(t, clock, customer, 'REWARD_POINTS', 1000n)
    const { order: o } = await order({ items: [{ productId: ids.sneaker, quantity: 3 }, { productId: ids.sock, quantity: 1 }], couponCode: 'FLAT100', useRewardPoints: true }, { customer })
    // itemsTotal 3333; coupon 100 spread 1000*3/3333…; points 10% of 3233 = 323 points
    const sneakers = o.items.find((i: { productId: string }) => i.productId === ids.sneaker)
    const image = await uploadedImage(t, customer, 'returns')
    const res = await ret(customer, {
      orderId: o.id,
      reason: 'Too small',
      detail: 'Need one size up',
      requestedResolution: 'ORIGINAL_PAYMENT_REFUND',
      items: [{ orderItemId: sneakers.id, quantity: 2, reason: 'Size' }],
      imageUrls: [image],
    })
    assert.equal(res.statusCode, 201, res.body)
    const r = res.json().data
    assert.equal(r.status, 'REQUESTED')
    assert.equal(r.partnerId, partner.partnerId)
    assert.deepEqual(r.refunds, [])
    assert.deepEqual(r.imageUrls, [image])
    const linePaid = Math.round(Number(sneakers.paidAmount) * 100)
    const expected = Math.floor((linePaid * 2) / 3)
    assert.equal(r.items[0].requestedAmount, (expected / 100).toFixed(2))
    assert.equal(r.requestedAmount, (expected / 100).toFixed(2))
    assert.deepEqual(Object.keys(r.items[0]).sort(), ['id', 'orderItemId', 'quantity', 'reason', 'requestedAmount'])
    // The last unit carries the rest of the line exactly.
    const rest = (await ret(customer, { orderId: o.id, reason: 'r', detail: 'd', requestedResolution: 'WALLET_CREDIT', items: [{ orderItemId: sneakers.id, quantity: 1, reason: 'x' }] })).json().data
    assert.equal(Math.round(Number(rest.requestedAmount) * 100) + expected, linePaid)
  })

  test('refused: not delivered, not paid, outside the window, another customer, an item of another order, above the remaining quantity', async () => {
    const { customer, order: undelivered } = await order({ items: [{ productId: ids.sock, quantity: 2 }] }, { deliver: false })
    const item = (o: typeof undelivered, q = 1) => ({ orderId: o.id, reason: 'r', detail: 'd', requestedResolution: 'WALLET_CREDIT', items: [{ orderItemId: o.items[0].id, quantity: q, reason: 'x' }] })
    const notDelivered = await ret(customer, item(undelivered))
    assert.equal(notDelivered.statusCode, 400)
    assert.equal(notDelivered.json().message, `Order ${undelivered.orderNumber} has not been delivered`)

    const { customer: c2, order: delivered } = await order({ items: [{ productId: ids.sock, quantity: 2 }] })
    await t.deps.database.db.execute(sql`update orders set payment_status = 'COD_PENDING' where id = ${delivered.id}`)
    const unpaid = await ret(c2, item(delivered))
    assert.equal(unpaid.statusCode, 400)
    assert.equal(unpaid.json().message, `Order ${delivered.orderNumber} has not been paid`)
    await t.deps.database.db.execute(sql`update orders set payment_status = 'PAID' where id = ${delivered.id}`)

    const stranger = await givenCustomer(t.app, partner)
    const foreign = await ret(stranger, item(delivered))
    assert.equal(foreign.statusCode, 404)
    assert.equal(foreign.json().message, 'Order not found')

    const otherOrder = await order({ items: [{ productId: ids.sock, quantity: 1 }] }, { customer: await givenCustomer(t.app, partner, { phone: c2.phone }) })
    const wrongItem = await ret(otherOrder.customer, { ...item(otherOrder.order), items: [{ orderItemId: delivered.items[0].id, quantity: 1, reason: 'x' }] })
    assert.equal(wrongItem.statusCode, 400)
    assert.equal(wrongItem.json().message, `Order item ${delivered.items[0].id} is not part of order ${otherOrder.order.orderNumber}`)

    const c3 = otherOrder.customer
    assert.equal((await ret(c3, item(delivered, 1))).statusCode, 201)
    const tooMany = await ret(c3, item(delivered, 2))
    assert.equal(tooMany.statusCode, 400)
    assert.equal(tooMany.json().message, `Order item ${delivered.items[0].id}: quantity 2 is more than the 1 that can still be returned`)

    clock.advance(8 * 86_400_000)
    const late = await givenCustomer(t.app, partner, { phone: c2.phone })
    const outside = await ret(late, item(delivered, 1))
    assert.equal(outside.statusCode, 400)
    assert.match(outside.json().message, new RegExp(`^The return window of order ${delivered.orderNumber} closed on `))
    // Back-office tokens last 8 hours of clock time.
    agent = (await t.app.inject({ method: 'POST', url: '/api/v1/admin/auth/login', payload: { email: 'returns@admin.test', password: 'long-enough-password' } })).json().data.accessToken
  })

  test('a REJECTED return frees its quantity again; two concurrent returns never exceed the item', async () => {
    const { customer, order: o } = await order({ items: [{ productId: ids.sneaker, quantity: 2 }] })
    const body = (q: number) => ({ orderId: o.id, reason: 'r', detail: 'd', requestedResolution: 'WALLET_CREDIT', items: [{ orderItemId: o.items[0].id, quantity: q, reason: 'x' }] })
    const results = await Promise.all([ret(customer, body(2)), ret(customer, body(2)), ret(customer, body(1))])
    const created = results.filter((r) => r.statusCode === 201)
    assert.equal(created.length, 1, results.map((r) => r.body).join('\n'))
    const first = created[0]!.json().data
    await moveReturn(first.id, 'UNDER_REVIEW')
    assert.equal((await moveReturn(first.id, 'REJECTED', { note: 'Worn' })).statusCode, 200)
    assert.equal((await ret(customer, body(2))).statusCode, 201, 'the rejected units can be returned again')
    const view = (await call(customer, 'GET', `/orders/${o.id}`)).json().data
    assert.equal(view.items[0].returnableQuantity, 0)
  })

  test('bad input', async () => {
    const customer = await givenCustomer(t.app, partner)
    const cases: [object, string[]][] = [
      [{ orderId: 'o', reason: 'r', detail: 'd', requestedResolution: 'CASH', items: [{ orderItemId: 'i', quantity: 1, reason: 'x' }] }, ['requestedResolution must be one of the following values: ORIGINAL_PAYMENT_REFUND, WALLET_CREDIT, REPLACEMENT, KEEP_ITEM_WALLET_CREDIT']],
      [{ orderId: 'o', reason: 'r', detail: 'd', requestedResolution: 'WALLET_CREDIT', items: [] }, ['items must contain at least 1 elements']],
      [{ orderId: 'o', reason: 'r', detail: 'd', requestedResolution: 'WALLET_CREDIT', items: [{ orderItemId: 'i', quantity: 0, reason: 'x' }] }, ['items.0.quantity must not be less than 1']],
    ]
    for (const [payload, message] of cases) {
      const res = await ret(customer, payload)
      assert.equal(res.statusCode, 400)
      assert.deepEqual(res.json().message, message)
    }
  })
})

describe('GET /returns', () => {
  test('list shape exact, filters by status and resolution, search by reason, detail and order number; 404 for others', async () => {
    const { customer, order: o } = await order({ items: [{ productId: ids.sock, quantity: 3 }] })
    const make = (reason: string, resolution: string) =>
      ret(customer, { orderId: o.id, reason, detail: `detail of ${reason}`, requestedResolution: resolution, items: [{ orderItemId: o.items[0].id, quantity: 1, reason: 'x' }] })
    const a = (await make('Broken zip', 'WALLET_CREDIT')).json().data
    clock.advance(1000)
    const b = (await make('Wrong colour', 'REPLACEMENT')).json().data
    const list = (await call(customer, 'GET', '/returns')).json()
    assert.deepEqual(list.meta, { total: 2, page: 1, limit: 20, totalPages: 1 })
    assert.deepEqual(list.data.map((r: { id: string }) => r.id), [b.id, a.id])
    assert.deepEqual(Object.keys(list.data[0]).sort(), ['id', 'orderId', 'reason', 'requestedAmount', 'requestedResolution', 'status'])
    const ids_ = async (q: string) => (await call(customer, 'GET', `/returns?${q}`)).json().data.map((r: { id: string }) => r.id)
    assert.deepEqual(await ids_('resolution=REPLACEMENT'), [b.id])
    assert.deepEqual(await ids_('search=zip'), [a.id])
    assert.deepEqual(await ids_('search=COLOUR'), [b.id])
    assert.deepEqual(await ids_(`search=${o.orderNumber}`), [b.id, a.id])
    await moveReturn(a.id, 'UNDER_REVIEW')
    assert.deepEqual(await ids_('status=UNDER_REVIEW'), [a.id])
    assert.equal((await call(customer, 'GET', '/returns?limit=101')).statusCode, 400)
    const one = (await call(customer, 'GET', `/returns/${a.id}`)).json().data
    assert.equal(one.id, a.id)
    assert.equal(one.items.length, 1)
    const stranger = await givenCustomer(t.app, partner)
    const otherPartner = await givenPartner(t.deps, 'Other returns partner')
    const foreigner = await givenCustomer(t.app, otherPartner)
    for (const intruder of [stranger, foreigner]) {
      assert.equal((await call(intruder, 'GET', `/returns/${a.id}`)).statusCode, 404)
      assert.equal((await call(intruder, 'POST', `/returns/${a.id}/respond`, { detail: 'x' })).statusCode, 404)
      assert.equal((await call(intruder, 'GET', '/returns')).json().meta.total, 0)
    }
  })
})

describe('review and refunds', () => {
  test('every allowed and refused transition, NEEDS_INFO answered by the customer', async () => {
    const { customer, order: o } = await order({ items: [{ productId: ids.sock, quantity: 1 }] })
    const r = (await ret(customer, { orderId: o.id, reason: 'r', detail: 'd', requestedResolution: 'WALLET_CREDIT', items: [{ orderItemId: o.items[0].id, quantity: 1, reason: 'x' }] })).json().data
    const refused = async (to: string, from: string) => {
      const res = await moveReturn(r.id, to)
      assert.equal(res.statusCode, 409, `${from} -> ${to}`)
      assert.equal(res.json().message, `Return request cannot move from ${from} to ${to}`)
    }
    for (const to of ['APPROVED', 'REJECTED', 'NEEDS_INFO', 'REFUND_PENDING', 'REFUNDED', 'RESOLVED']) await refused(to, 'REQUESTED')
    await moveReturn(r.id, 'UNDER_REVIEW')
    const early = await call(customer, 'POST', `/returns/${r.id}/respond`, { detail: 'more' })
    assert.equal(early.statusCode, 409)
    assert.equal(early.json().message, 'Return request is UNDER_REVIEW, not waiting for information')
    await moveReturn(r.id, 'NEEDS_INFO', { note: 'Photo of the label please' })
    for (const to of ['APPROVED', 'REFUND_PENDING']) await refused(to, 'NEEDS_INFO')
    const image = await uploadedImage(t, customer, 'returns')
    const answered = await call(customer, 'POST', `/returns/${r.id}/respond`, { detail: 'Here it is', imageUrls: [image] })
    assert.equal(answered.statusCode, 200, answered.body)
    assert.equal(answered.json().data.status, 'UNDER_REVIEW')
    assert.deepEqual(answered.json().data.imageUrls, [image])
    const lowered = await moveReturn(r.id, 'APPROVED', { approvedAmount: '100.00' })
    assert.equal(lowered.statusCode, 400)
    assert.equal(lowered.json().message, 'A note is required when the approved amount is lowered')
    assert.equal((await moveReturn(r.id, 'APPROVED', { approvedAmount: '999.00', note: 'x' })).statusCode, 400)
    const approved = (await moveReturn(r.id, 'APPROVED', { approvedAmount: '300.00', note: 'Packaging missing' })).json().data
    assert.equal(approved.approvedAmount, '300.00')
    const early2 = await moveReturn(r.id, 'RESOLVED')
    assert.equal(early2.statusCode, 409)
    assert.equal(early2.json().message, 'An approved refund return is resolved once it is REFUNDED')
    const view = (await admin('GET', `/returns/${r.id}`)).json().data
    assert.deepEqual(view.history.map((h: { status: string }) => h.status), ['REQUESTED', 'UNDER_REVIEW', 'NEEDS_INFO', 'UNDER_REVIEW', 'APPROVED'])
    assert.equal(view.history[2].note, 'Photo of the label please')
    assert.equal(view.history[3].note, 'Here it is')
  })

  test('WALLET_CREDIT: the approved amount lands in Wallet Cash, points spent come back, points earned go', async () => {
    const customer = await givenCustomer(t.app, partner)
    await credit(t, clock, customer, 'REWARD_POINTS', 100n)
    const { order: o } = await order({ items: [{ productId: ids.sneaker, quantity: 2 }], useRewardPoints: true }, { customer })
    assert.equal(o.rewardPointsUsed, 100)
    assert.equal(o.rewardPointsEarned, 19, '1% of ₹1,900 paid for the items')
    const before = await ledgerBalances(t.deps.database.db, customer.userId)
    assert.deepEqual(before, { walletCash: 0n, rewardPoints: 19n })
    const r = (await ret(customer, { orderId: o.id, reason: 'r', detail: 'd', requestedResolution: 'WALLET_CREDIT', items: [{ orderItemId: o.items[0].id, quantity: 1, reason: 'x' }] })).json().data
    assert.equal(r.requestedAmount, '950.00')
    await moveReturn(r.id, 'UNDER_REVIEW')
    await moveReturn(r.id, 'APPROVED')
    const refunded = (await moveReturn(r.id, 'REFUND_PENDING')).json().data
    assert.equal(refunded.status, 'REFUNDED')
    assert.deepEqual(refunded.refunds.map((x: { method: string; amount: string; status: string }) => [x.method, x.amount, x.status]), [['WALLET_CREDIT', '950.00', 'SUCCEEDED']])
    assert.deepEqual(await ledgerBalances(t.deps.database.db, customer.userId), { walletCash: 95_000n, rewardPoints: 19n + 50n - 9n })
    assert.equal((await moveReturn(r.id, 'RESOLVED')).json().data.status, 'RESOLVED')
    assert.equal((await call(customer, 'GET', `/orders/${o.id}`)).json().data.paymentStatus, 'PARTIALLY_REFUNDED')
  })

  test('ORIGINAL_PAYMENT_REFUND through the sandbox provider, wallet part back to the wallet', async () => {
    const customer = await givenCustomer(t.app, partner)
    await credit(t, clock, customer, 'WALLET_CASH', 50_000n)
    const { order: o } = await order({ items: [{ productId: ids.sneaker, quantity: 2 }], useWalletCash: true }, { prepaid: true, customer })
    assert.equal(o.walletCashUsed, '500.00')
    assert.equal(o.amountPayable, '1500.00')
    assert.equal(o.paymentStatus, 'PAID')
    const r = (await ret(customer, { orderId: o.id, reason: 'r', detail: 'd', requestedResolution: 'ORIGINAL_PAYMENT_REFUND', items: [{ orderItemId: o.items[0].id, quantity: 2, reason: 'x' }] })).json().data
    await moveReturn(r.id, 'UNDER_REVIEW')
    await moveReturn(r.id, 'APPROVED')
    const done = (await moveReturn(r.id, 'REFUND_PENDING')).json().data
    assert.equal(done.status, 'REFUNDED')
    const byMethod = Object.fromEntries(done.refunds.map((x: { method: string; amount: string }) => [x.method, x.amount]))
    assert.deepEqual(byMethod, { ORIGINAL_PAYMENT: '1500.00', WALLET_CREDIT: '500.00' })
    assert.ok(done.refunds.every((x: { status: string }) => x.status === 'SUCCEEDED'))
    assert.equal((await call(customer, 'GET', `/orders/${o.id}`)).json().data.paymentStatus, 'REFUNDED')
    assert.equal((await ledgerBalances(t.deps.database.db, customer.userId)).walletCash, 50_000n)
  })

  test('a failed provider refund: REFUND_FAILED, retried with REFUND_PENDING, then REFUNDED; never twice', async () => {
    const { customer, order: o } = await order({ items: [{ productId: ids.odd, quantity: 1 }] }, { prepaid: true })
    const r = (await ret(customer, { orderId: o.id, reason: 'r', detail: 'd', requestedResolution: 'ORIGINAL_PAYMENT_REFUND', items: [{ orderItemId: o.items[0].id, quantity: 1, reason: 'x' }] })).json().data
    assert.equal(r.requestedAmount, '500.13')
    await moveReturn(r.id, 'UNDER_REVIEW')
    await moveReturn(r.id, 'APPROVED')
    const failed = (await moveReturn(r.id, 'REFUND_PENDING')).json().data
    assert.equal(failed.status, 'REFUND_FAILED')
    assert.deepEqual(failed.refunds.map((x: { status: string }) => x.status), ['FAILED'])
    clock.advance(1000)
    const retried = (await moveReturn(r.id, 'REFUND_PENDING', { note: 'Try again' })).json().data
    assert.equal(retried.status, 'REFUNDED')
    assert.deepEqual(retried.refunds.map((x: { status: string }) => x.status), ['FAILED', 'SUCCEEDED'])
    const again = await moveReturn(r.id, 'REFUND_PENDING')
    assert.equal(again.statusCode, 409)
    const succeeded = (await t.deps.database.db.query.refunds.findMany({ where: (f, { eq }) => eq(f.returnRequestId, r.id) })).filter((f) => f.status === 'SUCCEEDED')
    assert.equal(succeeded.length, 1)
  })

  test('REPLACEMENT: approval creates a zero-value order for the same items and resolves the return', async () => {
    const { customer, order: o } = await order({ items: [{ productId: ids.sneaker, quantity: 1 }] })
    const r = (await ret(customer, { orderId: o.id, reason: 'r', detail: 'd', requestedResolution: 'REPLACEMENT', items: [{ orderItemId: o.items[0].id, quantity: 1, reason: 'x' }] })).json().data
    await moveReturn(r.id, 'UNDER_REVIEW')
    const done = (await moveReturn(r.id, 'APPROVED')).json().data
    assert.equal(done.status, 'RESOLVED')
    assert.ok(done.replacementOrderId)
    const replacement = (await call(customer, 'GET', `/orders/${done.replacementOrderId}`)).json().data
    assert.equal(replacement.status, 'CONFIRMED')
    assert.equal(replacement.totalAmount, '0.00')
    assert.equal(replacement.items[0].productId, ids.sneaker)
    assert.equal(replacement.items[0].quantity, 1)
    assert.deepEqual(done.refunds, [])
  })

  test("REPLACEMENT of a line with cancelled units: the replacement's line has only its own units, none cancelled nor in returns, and ships whole", async () => {
    const { customer, order: placed } = await order({ items: [{ productId: ids.sneaker, quantity: 3 }] }, { deliver: false })
    const cancelled = await call(customer, 'POST', `/orders/${placed.id}/cancel-items`, { items: [{ orderItemId: placed.items[0].id, quantity: 1 }], reason: 'One pair is enough' })
    assert.equal(cancelled.statusCode, 200, cancelled.body)
    for (const s of ['PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) assert.equal((await moveOrder(placed.id, s)).statusCode, 200)
    const r = (await ret(customer, { orderId: placed.id, reason: 'r', detail: 'd', requestedResolution: 'REPLACEMENT', items: [{ orderItemId: placed.items[0].id, quantity: 1, reason: 'x' }] })).json().data
    await moveReturn(r.id, 'UNDER_REVIEW')
    const done = (await moveReturn(r.id, 'APPROVED')).json().data
    const replacement = (await call(customer, 'GET', `/orders/${done.replacementOrderId}`)).json().data
    assert.deepEqual(
      replacement.items.map((i: { quantity: number; cancelledQuantity: number; returnableQuantity: number }) => [i.quantity, i.cancelledQuantity, i.returnableQuantity]),
      [[1, 0, 1]],
    )
    const shipped = await admin('POST', `/orders/${done.replacementOrderId}/shipments`, { carrier: 'manual' })
    assert.equal(shipped.statusCode, 201, shipped.body)
    assert.deepEqual(shipped.json().data.items.map((i: { quantity: number }) => i.quantity), [1])
    const original = (await call(customer, 'GET', `/orders/${placed.id}`)).json().data
    assert.deepEqual([original.items[0].quantity, original.items[0].cancelledQuantity, original.items[0].returnableQuantity], [3, 1, 1])
  })

  test('refunds of an order can never exceed what was paid: the database refuses, even when the code would not', async () => {
    const { order: o } = await order({ items: [{ productId: ids.sock, quantity: 1 }] })
    const insert = (id: string, amount: number) =>
      t.deps.database.db.execute(sql`insert into refunds (id, order_id, amount, method, status, reason, created_at, updated_at) values (${id}, ${o.id}, ${amount}, 'WALLET_CREDIT', 'SUCCEEDED', 'test', now(), now())`)
    const paid = Math.round(Number(o.amountPayable) * 100)
    await insert('ref_t1', paid - 100)
    await assert.rejects(insert('ref_t2', 200), (err: Error) => /exceed what was paid/.test(String((err.cause as Error | undefined)?.message ?? err.message)))
    await insert('ref_t3', 100)
    const [a, b] = await Promise.allSettled([insert('ref_t4', 1), insert('ref_t5', 1)])
    assert.equal([a, b].filter((x) => x.status === 'fulfilled').length, 0)
    const refused = await t.deps.database.db.query.refunds.findMany({ where: (f, { eq }) => eq(f.orderId, o.id) })
    assert.equal(refused.reduce((sum, f) => sum + Number(f.amount), 0), paid)
  })

  test('with one paisa of headroom, two concurrent refunds that each fit alone: exactly one lands; 20 of a tenth: exactly 10', async () => {
    const db = t.deps.database.db
    const refundsOf = async (orderId: string) => (await db.query.refunds.findMany({ where: (f, { eq }) => eq(f.orderId, orderId) })).map((f) => Number(f.amount))
    // Each insert is its own transaction on its own pool connection (PostgreSQL), so the trigger's
    // checks really run side by side.
    const insert = (orderId: string, id: string, paise: number) =>
      db.execute(sql`insert into refunds (id, order_id, amount, method, status, reason, created_at, updated_at) values (${id}, ${orderId}, ${paise}, 'WALLET_CREDIT', 'SUCCEEDED', 'race', now(), now())`)
    const refusedForPaid = (r: PromiseSettledResult<unknown>) =>
      r.status === 'rejected' && /exceed what was paid/.test(String(((r.reason as Error).cause as Error | undefined)?.message ?? (r.reason as Error).message))

    for (let round = 0; round < 5; round++) {
      const { order: o } = await order({ items: [{ productId: ids.sock, quantity: 1 }] })
      const paid = Math.round(Number(o.amountPayable) * 100)
      await insert(o.id, `ref_h${round}_0`, paid - 1)
      const results = await Promise.allSettled([insert(o.id, `ref_h${round}_a`, 1), insert(o.id, `ref_h${round}_b`, 1)])
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, `round ${round}: ${results.map((r) => r.status).join(', ')}`)
      assert.ok(results.filter((r) => r.status === 'rejected').every(refusedForPaid))
      const total = (await refundsOf(o.id)).reduce((a, b) => a + b, 0)
      assert.equal(total, paid, 'Σ refunds = paid, never above')
    }

    const { order: o } = await order({ items: [{ productId: ids.sneaker, quantity: 1 }] })
    const paid = Math.round(Number(o.amountPayable) * 100)
    const tenth = Math.floor(paid / 10)
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => insert(o.id, `ref_tenth_${i}`, tenth)))
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 10)
    assert.ok(results.filter((r) => r.status === 'rejected').every(refusedForPaid))
    const amounts = await refundsOf(o.id)
    assert.equal(amounts.length, 10)
    assert.ok(amounts.reduce((a, b) => a + b, 0) <= paid)
  })

  test('two concurrent back-office moves of one approved return to REFUND_PENDING: one refund, one 409', async () => {
    const { customer, order: o } = await order({ items: [{ productId: ids.sneaker, quantity: 1 }] })
    const r = (await ret(customer, { orderId: o.id, reason: 'r', detail: 'd', requestedResolution: 'WALLET_CREDIT', items: [{ orderItemId: o.items[0].id, quantity: 1, reason: 'x' }] })).json().data
    await moveReturn(r.id, 'UNDER_REVIEW')
    assert.equal((await moveReturn(r.id, 'APPROVED')).statusCode, 200)
    const before = await ledgerBalances(t.deps.database.db, customer.userId)
    const results = await Promise.all([moveReturn(r.id, 'REFUND_PENDING'), moveReturn(r.id, 'REFUND_PENDING')])
    assert.deepEqual(results.map((x) => x.statusCode).sort(), [200, 409], results.map((x) => x.body).join('\n'))
    assert.equal(results.find((x) => x.statusCode === 409)!.json().message, 'Return request cannot move from REFUNDED to REFUND_PENDING')
    const rows = await t.deps.database.db.query.refunds.findMany({ where: (f, { eq }) => eq(f.returnRequestId, r.id) })
    assert.equal(rows.length, 1)
    assert.equal(rows[0]!.amount, BigInt(Math.round(Number(r.requestedAmount) * 100)))
    const after = await ledgerBalances(t.deps.database.db, customer.userId)
    assert.equal(after.walletCash - before.walletCash, rows[0]!.amount, 'Wallet Cash credited once')
  })
})
