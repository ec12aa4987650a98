// Cash-on-delivery risk rules (issue #25): a partner's limits on one customer's COD, edited in the
// back office, answered by GET /checkout/cod-eligibility and the serviceability answer in plain
// words, and enforced by POST /orders in the order's transaction (400 with the same sentence).
// Each rule at its edge: the limit exactly met passes, one more refuses.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, beforeEach, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'

const DAY = 86_400_000
const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
const ADMIN_EMAIL = `admin-${randomUUID()}@cod-risk.test`
let adminToken: string
let catalogToken: string

before(async () => {
  t = await createTestApp({ clock })
  adminToken = await givenAdminToken(t.app, t.deps, ADMIN_EMAIL, 'ADMIN')
  catalogToken = await givenAdminToken(t.app, t.deps, `catalog-${randomUUID()}@cod-risk.test`, 'CATALOG')
})
after(() => t.close())
// Some tests move the clock by days, past the admin token's life.
beforeEach(() => relogin())

/** Logs the admin in again (after the clock moved past its token's life). */
async function relogin() {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/admin/auth/login', payload: { email: ADMIN_EMAIL, password: 'long-enough-password' } })
  adminToken = res.json().data.accessToken
}

const admin = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object, token = adminToken) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) })
const setRules = async (shop: Shop, rules: object) => {
  const res = await admin('PUT', `/partners/${shop.partner.partnerId}/cod-rules`, rules)
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data
}
const eligibility = async (customer: CustomerFixture, collectableAmount: string, pincode = ADDRESS.pincode) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/checkout/cod-eligibility?pincode=${pincode}&collectableAmount=${collectableAmount}`, headers: customerHeaders(customer) })
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data as { eligible: boolean; collectableAmount: string; codFee: string; maxCodAmount: string; reasons: string[] }
}
const codOption = async (customer: CustomerFixture, shop: Shop, slug = 'earbuds', pincode = ADDRESS.pincode) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/checkout/serviceability', headers: customerHeaders(customer), payload: { pincode, items: [{ productId: shop.ids[slug]!, quantity: 1 }] } })
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data.paymentOptions.find((o: { mode: string }) => o.mode === 'COD')
}
const codOrder = (customer: CustomerFixture, shop: Shop, slug = 'earbuds', quantity = 1, address: object = ADDRESS) =>
  placeOrder(t, customer, { items: [{ productId: shop.ids[slug]!, quantity }], shippingAddress: address, paymentMode: 'COD' })
async function placed(customer: CustomerFixture, shop: Shop, slug = 'earbuds', quantity = 1) {
  const res = await codOrder(customer, shop, slug, quantity)
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as { id: string; amountPayable: string }
}
function assertRefused(res: { statusCode: number; body: string; json(): { message: string } }, message: string) {
  assert.equal(res.statusCode, 400, res.body)
  assert.equal(res.json().message, message)
}
const move = async (orderId: string, ...statuses: string[]) => {
  for (const status of statuses) {
    // Every unit in a parcel (the merchant's own delivery) before SHIPPED: an order is not shipped with nothing in one.
    if (status === 'SHIPPED') assert.equal((await admin('POST', `/orders/${orderId}/shipments`, { carrier: 'manual' })).statusCode, 201)
    const res = await admin('POST', `/orders/${orderId}/status`, { status })
    assert.equal(res.statusCode, 200, res.body)
  }
}
const NO_RULES = { maxOpenCodOrders: null, maxCodValue: null, rtoLimit: null, rtoWindowDays: null, maxRefusedDeliveries: null, refusedWindowDays: null, firstOrderCap: null }
/** An earbuds COD order to 560001: ₹1000.00, free shipping over ₹499, ₹49.00 COD fee. */
const EARBUDS_COD = '1049.00'

describe('back office: COD rules and blocked pincodes', () => {
  test('a partner without rules has every limit null; PUT replaces them all, a field left out is no limit', async () => {
    const shop = await givenShop(t)
    const url = `/partners/${shop.partner.partnerId}/cod-rules`
    assert.deepEqual((await admin('GET', url)).json().data, NO_RULES)
    const full = { maxOpenCodOrders: 3, maxCodValue: '5000', rtoLimit: 2, rtoWindowDays: 90, maxRefusedDeliveries: 2, refusedWindowDays: 60, firstOrderCap: 1500.5 }
    const saved = { maxOpenCodOrders: 3, maxCodValue: '5000.00', rtoLimit: 2, rtoWindowDays: 90, maxRefusedDeliveries: 2, refusedWindowDays: 60, firstOrderCap: '1500.50' }
    assert.deepEqual(await setRules(shop, full), saved)
    assert.deepEqual((await admin('GET', url)).json().data, saved)
    assert.deepEqual(await setRules(shop, { maxOpenCodOrders: 1, firstOrderCap: null }), { ...NO_RULES, maxOpenCodOrders: 1 })
    assert.deepEqual(await setRules(shop, {}), NO_RULES)
  })

  test('when a value is negative, not a number, or rtoLimit comes without its window, then 400 and nothing changes', async () => {
    const shop = await givenShop(t)
    await setRules(shop, { maxOpenCodOrders: 4 })
    const url = `/partners/${shop.partner.partnerId}/cod-rules`
    const cases: [object, RegExp][] = [
      [{ maxOpenCodOrders: -1 }, /maxOpenCodOrders/],
      [{ maxOpenCodOrders: 0 }, /maxOpenCodOrders/],
      [{ maxOpenCodOrders: 1.5 }, /maxOpenCodOrders/],
      [{ maxCodValue: '-1.00' }, /maxCodValue/],
      [{ maxCodValue: -5 }, /maxCodValue/],
      [{ maxCodValue: '10.001' }, /maxCodValue/],
      [{ firstOrderCap: -0.01 }, /firstOrderCap/],
      [{ rtoLimit: -2, rtoWindowDays: 30 }, /rtoLimit/],
      [{ rtoLimit: 2, rtoWindowDays: 0 }, /rtoWindowDays/],
      [{ rtoLimit: 2, rtoWindowDays: 3651 }, /rtoWindowDays/],
      [{ maxRefusedDeliveries: 0, refusedWindowDays: 30 }, /maxRefusedDeliveries/],
      [{ maxRefusedDeliveries: 2, refusedWindowDays: 3651 }, /refusedWindowDays/],
      [{ unknownLimit: 1 }, /unknownLimit/],
    ]
    for (const [body, field] of cases) {
      const res = await admin('PUT', url, body)
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`)
      assert.match([res.json().message].flat().join('; '), field, JSON.stringify(body))
    }
    for (const body of [{ rtoLimit: 2 }, { rtoWindowDays: 90 }, { rtoLimit: 2, rtoWindowDays: null }]) {
      const res = await admin('PUT', url, body)
      assert.equal(res.statusCode, 400, res.body)
      assert.equal(res.json().message, 'rtoLimit and rtoWindowDays must be set together, or both left out')
    }
    assert.deepEqual((await admin('GET', url)).json().data, { ...NO_RULES, maxOpenCodOrders: 4 })
  })

  test('when the partner does not exist, then 404 on every COD route', async () => {
    const base = `/partners/prt_${randomUUID()}`
    for (const [method, url, body] of [
      ['GET', `${base}/cod-rules`],
      ['PUT', `${base}/cod-rules`, { maxOpenCodOrders: 1 }],
      ['GET', `${base}/cod-blocked-pincodes`],
      ['POST', `${base}/cod-blocked-pincodes`, { pincode: '560001' }],
      ['DELETE', `${base}/cod-blocked-pincodes/560001`],
    ] as const) {
      const res = await admin(method, url, body)
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`)
      assert.equal(res.json().message, 'Partner not found')
    }
  })

  test('when the role is CATALOG, then 403 and the rules stay as they were', async () => {
    const shop = await givenShop(t)
    const base = `/partners/${shop.partner.partnerId}`
    for (const [method, url, body] of [
      ['GET', `${base}/cod-rules`],
      ['PUT', `${base}/cod-rules`, { maxOpenCodOrders: 1 }],
      ['GET', `${base}/cod-blocked-pincodes`],
      ['POST', `${base}/cod-blocked-pincodes`, { pincode: '560001' }],
      ['DELETE', `${base}/cod-blocked-pincodes/560001`],
    ] as const) {
      const res = await admin(method, url, body, catalogToken)
      assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`)
    }
    assert.deepEqual((await admin('GET', `${base}/cod-rules`)).json().data, NO_RULES)
    assert.deepEqual((await admin('GET', `${base}/cod-blocked-pincodes`)).json().data, [])
  })

  test('blocked pincodes are added once (409 the second time), listed by pincode and removed (404 when not blocked); a bad pincode is 400', async () => {
    const shop = await givenShop(t)
    const url = `/partners/${shop.partner.partnerId}/cod-blocked-pincodes`
    const added = await admin('POST', url, { pincode: '560001', reason: '  Three refusals in October  ' })
    assert.equal(added.statusCode, 201, added.body)
    assert.deepEqual(added.json().data, { pincode: '560001', reason: 'Three refusals in October', createdAt: clock.now().toISOString() })
    assert.equal((await admin('POST', url, { pincode: '110001' })).statusCode, 201)
    const again = await admin('POST', url, { pincode: '560001' })
    assert.equal(again.statusCode, 409, again.body)
    assert.equal(again.json().message, 'Pincode 560001 is already blocked for cash on delivery')
    assert.deepEqual(
      (await admin('GET', url)).json().data.map((b: { pincode: string; reason: string | null }) => [b.pincode, b.reason]),
      [['110001', null], ['560001', 'Three refusals in October']],
    )
    for (const pincode of ['56001', '056001', '5600011', 'abcdef']) {
      const res = await admin('POST', url, { pincode })
      assert.equal(res.statusCode, 400, `${pincode}: ${res.body}`)
      assert.deepEqual(res.json().message, ['pincode must be a 6-digit Indian PIN code'])
    }
    assert.equal((await admin('DELETE', `${url}/56001`)).statusCode, 400)
    const removed = await admin('DELETE', `${url}/110001`)
    assert.equal(removed.statusCode, 200, removed.body)
    assert.equal(removed.json().data.pincode, '110001')
    const gone = await admin('DELETE', `${url}/110001`)
    assert.equal(gone.statusCode, 404)
    assert.equal(gone.json().message, 'Pincode 110001 is not blocked for cash on delivery')
    assert.deepEqual((await admin('GET', url)).json().data.map((b: { pincode: string }) => b.pincode), ['560001'])
  })
})

describe('maxOpenCodOrders', () => {
  test('with a limit of 2: the second open COD order passes, the third is refused; delivered, cancelled and prepaid orders do not count', async () => {
    const shop = await givenShop(t)
    await setRules(shop, { maxOpenCodOrders: 2 })
    const customer = await givenCustomer(t.app, shop.partner)
    const first = await placed(customer, shop)
    assert.deepEqual(await eligibility(customer, EARBUDS_COD), { eligible: true, collectableAmount: EARBUDS_COD, codFee: '49.00', maxCodAmount: '50000.00', reasons: [] })
    const second = await placed(customer, shop)
    const refusal = 'You have 2 open cash-on-delivery orders; the limit is 2'
    assert.deepEqual(await eligibility(customer, EARBUDS_COD), { eligible: false, collectableAmount: EARBUDS_COD, codFee: '49.00', maxCodAmount: '0.00', reasons: [refusal] })
    assert.deepEqual(await codOption(customer, shop), { mode: 'COD', available: false, reason: refusal })
    assertRefused(await codOrder(customer, shop), refusal)
    // A prepaid order is not limited and does not count.
    const prepaid = await placeOrder(t, customer, { items: [{ productId: shop.ids.atta!, quantity: 1 }], shippingAddress: ADDRESS })
    assert.equal(prepaid.statusCode, 201, prepaid.body)
    assertRefused(await codOrder(customer, shop), refusal)
    // Another customer of the partner has its own count.
    const other = await givenCustomer(t.app, shop.partner)
    assert.equal((await eligibility(other, EARBUDS_COD)).eligible, true)
    // Cancelled: one open order left.
    const cancelled = await t.app.inject({ method: 'POST', url: `/api/v1/orders/${first.id}/cancel`, headers: customerHeaders(customer), payload: { reason: 'Changed my mind' } })
    assert.equal(cancelled.statusCode, 200, cancelled.body)
    assert.deepEqual(await codOption(customer, shop), { mode: 'COD', available: true })
    const third = await placed(customer, shop)
    assertRefused(await codOrder(customer, shop), refusal)
    // Delivered: no longer open.
    await move(second.id, 'PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED')
    assert.equal((await eligibility(customer, EARBUDS_COD)).eligible, true)
    await placed(customer, shop)
    // Shipped and failed deliveries are still open.
    await move(third.id, 'PACKED', 'SHIPPED', 'DELIVERY_FAILED')
    assertRefused(await codOrder(customer, shop), refusal)
  })

  test('with a limit of 1: one open order is "1 open cash-on-delivery order"', async () => {
    const shop = await givenShop(t)
    await setRules(shop, { maxOpenCodOrders: 1 })
    const customer = await givenCustomer(t.app, shop.partner)
    await placed(customer, shop)
    assert.deepEqual((await eligibility(customer, '10.00')).reasons, ['You have 1 open cash-on-delivery order; the limit is 1'])
    assertRefused(await codOrder(customer, shop, 'atta'), 'You have 1 open cash-on-delivery order; the limit is 1')
  })

  test('when several COD orders of one customer arrive at once against a limit of 1, then exactly one is created', async () => {
    const shop = await givenShop(t)
    await setRules(shop, { maxOpenCodOrders: 1 })
    const customer = await givenCustomer(t.app, shop.partner)
    const answers = await Promise.all(Array.from({ length: 5 }, () => codOrder(customer, shop)))
    assert.deepEqual(answers.map((r) => r.statusCode).sort(), [201, 400, 400, 400, 400], answers.map((r) => r.body).join('\n'))
    for (const r of answers.filter((a) => a.statusCode === 400)) assert.equal(r.json().message, 'You have 1 open cash-on-delivery order; the limit is 1')
    const mine = await t.app.inject({ method: 'GET', url: '/api/v1/orders', headers: customerHeaders(customer) })
    assert.equal(mine.json().data.length, 1)
  })
})

describe('maxCodValue', () => {
  test('the open COD orders plus this one may come to the limit exactly, not a paisa more', async () => {
    const shop = await givenShop(t)
    await setRules(shop, { maxCodValue: '2098.00' })
    const customer = await givenCustomer(t.app, shop.partner)
    assert.equal((await eligibility(customer, '2098.00')).eligible, true)
    assert.deepEqual(await eligibility(customer, '2098.01'), {
      eligible: false,
      collectableAmount: '2098.01',
      codFee: '49.00',
      maxCodAmount: '2098.00',
      reasons: ['Cash on delivery is limited to ₹2098.00 across open orders; with this one they come to ₹2098.01'],
    })
    const first = await placed(customer, shop)
    assert.equal(first.amountPayable, EARBUDS_COD)
    assert.deepEqual(await eligibility(customer, EARBUDS_COD), { eligible: true, collectableAmount: EARBUDS_COD, codFee: '49.00', maxCodAmount: '1049.00', reasons: [] })
    assert.deepEqual((await eligibility(customer, '1049.01')).reasons, ['Cash on delivery is limited to ₹2098.00 across open orders; with this one they come to ₹2098.01'])
    await placed(customer, shop) // 1049.00 + 1049.00: exactly the limit
    const atta = (await t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(customer), payload: { items: [{ productId: shop.ids.atta!, quantity: 1 }], pincode: ADDRESS.pincode, paymentMode: 'COD' } })).json().data.remainingPayable
    const total = (209800 + Math.round(Number(atta) * 100)) / 100
    assertRefused(await codOrder(customer, shop, 'atta'), `Cash on delivery is limited to ₹2098.00 across open orders; with this one they come to ₹${total.toFixed(2)}`)
    assert.equal((await eligibility(customer, '0.00')).maxCodAmount, '0.00')
  })
})

describe('firstOrderCap', () => {
  test('until a first order is delivered, a COD order may collect the cap exactly, not more; after delivery the cap is gone', async () => {
    const shop = await givenShop(t)
    await setRules(shop, { firstOrderCap: EARBUDS_COD })
    const customer = await givenCustomer(t.app, shop.partner)
    const refusal = 'Cash on delivery is limited to ₹1049.00 until your first order is delivered'
    assert.deepEqual(await eligibility(customer, EARBUDS_COD), { eligible: true, collectableAmount: EARBUDS_COD, codFee: '49.00', maxCodAmount: EARBUDS_COD, reasons: [] })
    assert.deepEqual((await eligibility(customer, '1049.01')).reasons, [refusal])
    const first = await placed(customer, shop) // exactly the cap
    assert.equal(first.amountPayable, EARBUDS_COD)
    assertRefused(await codOrder(customer, shop, 'earbuds', 2), refusal)
    // The serviceability answer judges the items total (₹2000.00 for two earbuds would be refused; one is ₹1000.00).
    assert.deepEqual(await codOption(customer, shop), { mode: 'COD', available: true })
    await move(first.id, 'PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED')
    assert.deepEqual(await eligibility(customer, '1049.01'), { eligible: true, collectableAmount: '1049.01', codFee: '49.00', maxCodAmount: '50000.00', reasons: [] })
    await placed(customer, shop, 'earbuds', 2)
  })

  test('a delivered prepaid order counts as a first delivery', async () => {
    const shop = await givenShop(t)
    await setRules(shop, { firstOrderCap: '100.00' })
    const customer = await givenCustomer(t.app, shop.partner)
    const paid = (await placeOrder(t, customer, { items: [{ productId: shop.ids.earbuds!, quantity: 1 }], shippingAddress: ADDRESS })).json().data
    await t.app.inject({ method: 'POST', url: `/api/v1/sandbox/checkout/${paid.paymentClientAction.payload.sessionId}/pay` })
    assert.deepEqual((await eligibility(customer, '100.01')).reasons, ['Cash on delivery is limited to ₹100.00 until your first order is delivered'])
    await move(paid.id, 'PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED')
    assert.equal((await eligibility(customer, '100.01')).eligible, true)
  })
})

describe('rtoLimit in rtoWindowDays', () => {
  test('two orders returned to origin within 90 days refuse COD; the first one leaving the window lets it back', async () => {
    const shop = await givenShop(t)
    await setRules(shop, { rtoLimit: 2, rtoWindowDays: 90 })
    let customer = await givenCustomer(t.app, shop.partner)
    const refusal = 'Cash on delivery is not available after 2 returned deliveries in 90 days'
    const a = await placed(customer, shop)
    const b = await placed(customer, shop)
    await move(a.id, 'PACKED', 'SHIPPED', 'RTO')
    const firstRto = clock.now().getTime()
    assert.equal((await eligibility(customer, EARBUDS_COD)).eligible, true, 'one RTO is under the limit')
    clock.advance(DAY)
    await relogin()
    customer = await givenCustomer(t.app, shop.partner, { phone: customer.phone })
    await move(b.id, 'PACKED', 'SHIPPED', 'RTO')
    assert.deepEqual(await eligibility(customer, EARBUDS_COD), { eligible: false, collectableAmount: EARBUDS_COD, codFee: '49.00', maxCodAmount: '0.00', reasons: [refusal] })
    assert.deepEqual(await codOption(customer, shop), { mode: 'COD', available: false, reason: refusal })
    assertRefused(await codOrder(customer, shop), refusal)
    // The first RTO exactly 90 days ago still counts; a millisecond later it has left the window.
    clock.advance(firstRto + 90 * DAY - clock.now().getTime())
    customer = await givenCustomer(t.app, shop.partner, { phone: customer.phone })
    assertRefused(await codOrder(customer, shop), refusal)
    clock.advance(1)
    assert.deepEqual((await eligibility(customer, EARBUDS_COD)).reasons, [])
    await placed(customer, shop)
  })

  test('a cancelled order is not an RTO; with a limit of 1 in 1 day the sentence is singular', async () => {
    const shop = await givenShop(t)
    await setRules(shop, { rtoLimit: 1, rtoWindowDays: 1 })
    const customer = await givenCustomer(t.app, shop.partner)
    const cancelled = await placed(customer, shop)
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/v1/orders/${cancelled.id}/cancel`, headers: customerHeaders(customer), payload: { reason: 'No' } })).statusCode, 200)
    assert.equal((await eligibility(customer, '10.00')).eligible, true)
    const returned = await placed(customer, shop)
    await move(returned.id, 'PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'RTO')
    assert.deepEqual((await eligibility(customer, '10.00')).reasons, ['Cash on delivery is not available after 1 returned delivery in 1 day'])
  })
})

describe('blocked pincodes', () => {
  test('a blocked pincode refuses COD there, for this partner only, until it is removed', async () => {
    const shop = await givenShop(t)
    const other = await givenShop(t)
    const customer = await givenCustomer(t.app, shop.partner)
    const stranger = await givenCustomer(t.app, other.partner)
    const url = `/partners/${shop.partner.partnerId}/cod-blocked-pincodes`
    assert.equal((await admin('POST', url, { pincode: '560001', reason: 'Refusals' })).statusCode, 201)
    const refusal = 'Cash on delivery is not available for pincode 560001'
    assert.deepEqual(await eligibility(customer, '10.00'), { eligible: false, collectableAmount: '10.00', codFee: '49.00', maxCodAmount: '0.00', reasons: [refusal] })
    assert.deepEqual(await eligibility(customer, '0'), { eligible: false, collectableAmount: '0.00', codFee: '0.00', maxCodAmount: '0.00', reasons: [refusal] })
    assert.deepEqual(await codOption(customer, shop), { mode: 'COD', available: false, reason: refusal })
    assertRefused(await codOrder(customer, shop), refusal)
    // Elsewhere, prepaid, and for another partner: unaffected.
    assert.equal((await eligibility(customer, '10.00', '560002')).eligible, true)
    assert.equal((await eligibility(stranger, '10.00')).eligible, true)
    assert.equal((await placeOrder(t, customer, { items: [{ productId: shop.ids.atta!, quantity: 1 }], shippingAddress: ADDRESS })).statusCode, 201)
    assert.equal((await admin('DELETE', `${url}/560001`)).statusCode, 200)
    assert.equal((await eligibility(customer, '10.00')).eligible, true)
    await placed(customer, shop)
  })

  test('every reason is listed, in a fixed order: zone, blocked pincode, RTOs, open orders, value, first-order cap', async () => {
    const shop = await givenShop(t)
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await placed(customer, shop)
    await move(order.id, 'PACKED', 'SHIPPED', 'RTO')
    await placed(customer, shop)
    await setRules(shop, { maxOpenCodOrders: 1, maxCodValue: '1000.00', rtoLimit: 1, rtoWindowDays: 30, firstOrderCap: '500.00' })
    assert.equal((await admin('POST', `/partners/${shop.partner.partnerId}/cod-blocked-pincodes`, { pincode: '560001' })).statusCode, 201)
    assert.deepEqual((await eligibility(customer, '60000.00')).reasons, [
      'Cash on delivery is limited to ₹50000.00 for this pincode',
      'Cash on delivery is not available for pincode 560001',
      'Cash on delivery is not available after 1 returned delivery in 30 days',
      'You have 1 open cash-on-delivery order; the limit is 1',
      'Cash on delivery is limited to ₹1000.00 across open orders; with this one they come to ₹61049.00',
      'Cash on delivery is limited to ₹500.00 until your first order is delivered',
    ])
  })
})
