import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createCoupon } from '../../src/modules/checkout/coupons.ts'
import { setPartnerReturnOrigins } from '../../src/modules/partners/index.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { customerHeaders, givenCustomer, givenPartner } from '../helpers/factories.ts'
import { ADDRESS, credit, givenShop, placeOrder, sandboxAction, type Shop, stockOf } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop

before(async () => {
  t = await createTestApp({ clock })
  shop = await givenShop(t)
  await createCoupon(t.deps.database.db, shop.partner.partnerId, { code: 'SAVE10', kind: 'PERCENT', value: 10n, maxDiscount: 5000n }, clock.now())
})
after(() => t.close())

const item = (slug: string, quantity = 1) => ({ productId: shop.ids[slug]!, quantity })

describe('POST /orders', () => {
  test('a prepaid order waits for payment, reserves stock, and carries a sandbox checkout action', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const before = await stockOf(t, shop.ids.earbuds!)
    const res = await placeOrder(t, customer, { items: [item('earbuds', 2)], shippingAddress: ADDRESS })
    assert.equal(res.statusCode, 201, res.body)
    const order = res.json().data
    assert.equal(order.status, 'PENDING_PAYMENT')
    assert.equal(order.paymentStatus, 'PENDING')
    assert.equal(order.partnerId, shop.partner.partnerId)
    assert.match(order.orderNumber, /^CM-[2-9A-Z]{4}-[2-9A-Z]{4}$/)
    assert.equal(order.totalAmount, '2000.00')
    assert.equal(order.amountPayable, '2000.00')
    assert.equal(order.items[0].unitPrice, '1000.00')
    assert.equal(order.items[0].name, 'Earbuds')
    assert.equal(order.items[0].returnableQuantity, 2)
    assert.equal(order.shippingAddress.landmark, ADDRESS.landmark)
    assert.equal(new Date(order.reservationExpiresAt).getTime() - clock.now().getTime(), 30 * 60_000)
    assert.equal(order.paymentClientAction.type, 'REDIRECT')
    assert.match(order.paymentClientAction.payload.url, /\/api\/v1\/sandbox\/checkout\/sbx_/)
    assert.equal(order.payment.status, 'PENDING')
    assert.equal(order.payment.amount, '2000.00')
    assert.equal(await stockOf(t, shop.ids.earbuds!), before - 2)
    assert.deepEqual(order.statusHistory.map((h: { status: string }) => h.status), ['PENDING_PAYMENT'])
  })

  test('paying on the sandbox page confirms the order through the signed webhook', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = (await placeOrder(t, customer, { items: [item('atta')], shippingAddress: ADDRESS })).json().data
    const page = await t.app.inject({ method: 'GET', url: `/api/v1/sandbox/checkout/${order.paymentClientAction.payload.sessionId}` })
    assert.equal(page.statusCode, 200)
    assert.match(page.body, new RegExp(order.orderNumber))
    const paid = await sandboxAction(t, order.paymentClientAction, 'pay')
    assert.equal(paid.statusCode, 200, paid.body)
    assert.equal(paid.json().data.orderStatus, 'CONFIRMED')
    const fetched = (await t.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: customerHeaders(customer) })).json().data
    assert.equal(fetched.status, 'CONFIRMED')
    assert.equal(fetched.paymentStatus, 'PAID')
    assert.equal(fetched.payment.status, 'SUCCEEDED')
    assert.equal(fetched.reservationExpiresAt, null)
    assert.deepEqual(fetched.statusHistory.map((h: { status: string }) => h.status), ['PENDING_PAYMENT', 'CONFIRMED'])
  })

  test('COD: CONFIRMED at once, COD fee charged, no provider session', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const res = await placeOrder(t, customer, { items: [item('atta')], shippingAddress: ADDRESS, paymentMode: 'COD' })
    assert.equal(res.statusCode, 201, res.body)
    const order = res.json().data
    assert.equal(order.status, 'CONFIRMED')
    assert.equal(order.paymentStatus, 'COD_PENDING')
    assert.equal(order.codFee, '49.00')
    assert.deepEqual(order.paymentClientAction, { type: 'NONE', payload: null })
    assert.equal(order.payment, null)
  })

  test('an order fully paid by Wallet Cash and Reward Points is CONFIRMED and PAID with no provider session', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    await credit(t, clock, customer, 'REWARD_POINTS', 1000n)
    await credit(t, clock, customer, 'WALLET_CASH', 500_000n)
    const res = await placeOrder(t, customer, { items: [item('earbuds')], shippingAddress: ADDRESS, useRewardPoints: true, useWalletCash: true })
    assert.equal(res.statusCode, 201, res.body)
    const order = res.json().data
    assert.equal(order.status, 'CONFIRMED')
    assert.equal(order.paymentStatus, 'PAID')
    assert.equal(order.rewardPointsUsed, 100)
    assert.equal(order.walletCashUsed, '900.00')
    assert.equal(order.amountPayable, '0.00')
    assert.deepEqual(order.paymentClientAction, { type: 'NONE', payload: null })
    const wallet = (await t.app.inject({ method: 'GET', url: '/api/v1/wallet', headers: customerHeaders(customer) })).json().data
    assert.deepEqual(wallet.balances, { walletCash: '4100.00', rewardPoints: 900 })
  })

  test('the order agrees with the wallet quote of the same inputs to the paisa', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    await credit(t, clock, customer, 'REWARD_POINTS', 333n)
    await credit(t, clock, customer, 'WALLET_CASH', 12_345n)
    const inputs = { items: [item('atta', 3), item('earbuds', 1)], couponCode: 'SAVE10', useRewardPoints: true, useWalletCash: true, paymentMode: 'COD' as const }
    const quote = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(customer), payload: { ...inputs, pincode: ADDRESS.pincode } })
    assert.equal(quote.statusCode, 200, quote.body)
    const q = quote.json().data
    const order = (await placeOrder(t, customer, { ...inputs, shippingAddress: ADDRESS })).json().data
    for (const field of ['itemsTotal', 'mrpTotal', 'couponDiscount', 'shippingCharge', 'codFee', 'totalAmount', 'rewardPointsUsed', 'rewardPointsValue', 'walletCashUsed'] as const) {
      assert.equal(order[field], q[field], field)
    }
    assert.equal(order.amountPayable, q.remainingPayable)
    const lines = order.items.reduce((s: number, i: { paidAmount: string }) => s + Math.round(Number(i.paidAmount) * 100), 0)
    assert.equal(lines, Math.round((Number(q.itemsTotal) - Number(q.couponDiscount) - Number(q.rewardPointsValue)) * 100))
  })

  test('a saved address with a landmark', async () => {
    const customer = await givenCustomer(t.app, shop.partner, { name: 'Ravi Kumar' })
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/me/addresses',
      headers: customerHeaders(customer),
      payload: { label: 'Home', line1: '5 Park Street', city: 'Kolkata', state: 'West Bengal', pincode: '700016', isDefault: true },
    })
    assert.equal(saved.statusCode, 201, saved.body)
    const res = await placeOrder(t, customer, { items: [item('atta')], shippingAddress: { addressId: saved.json().data.id, landmark: 'Near the park' } })
    assert.equal(res.statusCode, 201, res.body)
    assert.deepEqual(res.json().data.shippingAddress, {
      name: 'Ravi Kumar', phone: customer.phone, line1: '5 Park Street', line2: '', landmark: 'Near the park', city: 'Kolkata', state: 'West Bengal', pincode: '700016',
    })
  })
})

describe('POST /orders body rules', () => {
  const base = () => ({ items: [item('atta')], shippingAddress: ADDRESS })

  test('each rule answers 400 with its message, and nothing is reserved', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const stock = await stockOf(t, shop.ids.atta!)
    const cases: [object, string | string[]][] = [
      [{ ...base(), items: [] }, ['items must contain at least 1 elements']],
      [{ ...base(), items: [{ productId: shop.ids.atta, quantity: 0 }] }, ['items.0.quantity must not be less than 1']],
      [{ ...base(), items: [{ productId: shop.ids.atta, quantity: 10000 }] }, ['items.0.quantity must not be greater than 9999']],
      [{ ...base(), items: [{ productId: shop.ids.atta, quantity: 1.5 }] }, ['items.0.quantity must be an integer number']],
      [{ ...base(), alternatePhone: '12345' }, ['alternatePhone must be a valid Indian mobile number']],
      [{ ...base(), paymentReturnUrl: 'not a url' }, ['paymentReturnUrl must be a URL address']],
      [{ ...base(), paymentReturnUrl: 'javascript:alert(1)' }, ['paymentReturnUrl must be an absolute http or https URL']],
      [{ ...base(), couponCode: 'NOPE' }, 'Coupon NOPE does not exist'],
      [{ items: base().items, shippingAddress: { ...ADDRESS, landmark: undefined } }, ['shippingAddress.landmark should not be empty']],
      [{ items: base().items, shippingAddress: { landmark: 'x', pincode: '560001' } }, ['shippingAddress.name should not be empty', 'shippingAddress.phone should not be empty', 'shippingAddress.line1 should not be empty', 'shippingAddress.city should not be empty', 'shippingAddress.state should not be empty']],
      [{ ...base(), paymentMode: 'CARD' }, ['paymentMode must be one of the following values: PREPAID, COD']],
      [{ ...base(), deliveryMethod: 'DRONE' }, ['deliveryMethod must be one of the following values: STANDARD, EXPRESS']],
      [{ ...base(), useWalletCash: 'yes' }, ['useWalletCash must be a boolean value']],
      [{ ...base(), extra: true }, ['property extra should not exist']],
      [{ ...base(), items: [item('old')] }, `Product ${shop.ids.old} is not available`],
      [{ ...base(), items: [{ productId: 'prd_missing', quantity: 1 }] }, 'Product prd_missing does not exist'],
      [{ ...base(), shippingAddress: { ...ADDRESS, city: 'Port Blair', state: 'Andaman and Nicobar Islands', pincode: '744101' }, paymentMode: 'COD' }, 'Cash on delivery is not available for this pincode'],
      [{ ...base(), shippingAddress: { ...ADDRESS, city: 'Jaipur', state: 'Rajasthan', pincode: '302001' }, deliveryMethod: 'EXPRESS' }, 'EXPRESS delivery is not available for pincode 302001'],
    ]
    for (const [payload, message] of cases) {
      const res = await placeOrder(t, customer, payload)
      assert.equal(res.statusCode, 400, `${JSON.stringify(payload)} -> ${res.body}`)
      const got = res.json().message
      assert.deepEqual(Array.isArray(got) ? [...got].sort() : got, Array.isArray(message) ? [...message].sort() : message, JSON.stringify(payload))
    }
    assert.equal(await stockOf(t, shop.ids.atta!), stock)
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/orders', headers: customerHeaders(customer) })).json()
    assert.equal(list.meta.total, 0)
  })

  test('a NUL character in a field stored as JSON is a 400, not a 500', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const res = await placeOrder(t, customer, { ...base(), shippingAddress: { ...ADDRESS, landmark: 'a\u0000b' } })
    assert.equal(res.statusCode, 400, res.body)
    assert.equal(res.json().message, 'Text must not contain NUL characters')
  })

  test('the profile name must not be empty', async () => {
    const customer = await givenCustomer(t.app, shop.partner, { name: '' })
    const res = await placeOrder(t, customer, base())
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().message, 'Customer profile name must not be empty: set it with PATCH /users/me before placing an order')
  })

  test('the idempotency header is required and must be 1-255 printable characters', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const without = await t.app.inject({ method: 'POST', url: '/api/v1/orders', headers: customerHeaders(customer), payload: base() })
    assert.equal(without.statusCode, 400)
    assert.equal(without.json().message, 'x-idempotency-key header is required')
    for (const key of ['x'.repeat(256), 'tab\there']) {
      const res = await placeOrder(t, customer, base(), key)
      assert.equal(res.statusCode, 400)
      assert.equal(res.json().message, 'x-idempotency-key must be 1 to 255 printable characters')
    }
    assert.equal((await placeOrder(t, customer, base(), 'k'.repeat(255))).statusCode, 201)
  })

  test('the same product on two lines is a 400 and reserves nothing', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const stock = await stockOf(t, shop.ids.atta!)
    for (const items of [[item('atta', 30), item('atta', 30)], [item('atta', 1), item('earbuds', 1), item('atta', 1)]]) {
      const res = await placeOrder(t, customer, { ...base(), items })
      assert.equal(res.statusCode, 400, res.body)
      assert.equal(res.json().message, `items must not list product ${shop.ids.atta} twice`)
    }
    assert.equal(await stockOf(t, shop.ids.atta!), stock)
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/orders', headers: customerHeaders(customer) })).json()
    assert.equal(list.meta.total, 0)
  })

  test('an empty, non-ASCII or repeated x-idempotency-key is a 400 and creates no order', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const stock = await stockOf(t, shop.ids.atta!)
    const send = (key: string | string[]) =>
      t.app.inject({ method: 'POST', url: '/api/v1/orders', headers: { ...customerHeaders(customer), 'x-idempotency-key': key }, payload: base() })
    const cases: [string | string[], string][] = [
      ['', 'x-idempotency-key header is required'],
      [Buffer.from('clé-ü', 'utf8').toString('latin1'), 'x-idempotency-key must be 1 to 255 printable characters'],
      [['first-key', 'second-key'], 'x-idempotency-key must be sent once'],
      [['same-key', 'same-key'], 'x-idempotency-key must be sent once'],
    ]
    for (const [key, message] of cases) {
      const res = await send(key)
      assert.equal(res.statusCode, 400, `${JSON.stringify(key)} -> ${res.body}`)
      assert.equal(res.json().message, message, JSON.stringify(key))
    }
    assert.equal(await stockOf(t, shop.ids.atta!), stock)
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/orders', headers: customerHeaders(customer) })).json()
    assert.equal(list.meta.total, 0)
  })

  test('quantity is never coerced: true, "", "1e3", " 5 ", -1 and 2^53 are each a 400', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const stock = await stockOf(t, shop.ids.atta!)
    const cases: [unknown, string][] = [
      [true, 'items.0.quantity must be an integer number'],
      ['', 'items.0.quantity must be an integer number'],
      ['1e3', 'items.0.quantity must be an integer number'],
      [' 5 ', 'items.0.quantity must be an integer number'],
      [-1, 'items.0.quantity must not be less than 1'],
      [2 ** 53, 'items.0.quantity must not be greater than 9999'],
    ]
    for (const [quantity, message] of cases) {
      const res = await placeOrder(t, customer, { ...base(), items: [{ productId: shop.ids.atta, quantity }] })
      assert.equal(res.statusCode, 400, `${JSON.stringify(quantity)} -> ${res.body}`)
      assert.deepEqual(res.json().message, [message], JSON.stringify(quantity))
    }
    assert.equal(await stockOf(t, shop.ids.atta!), stock)
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/orders', headers: customerHeaders(customer) })).json()
    assert.equal(list.meta.total, 0)
  })

  test('x-partner-id is required; a coupon of another partner does not exist here', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/orders', headers: { authorization: `Bearer ${customer.accessToken}`, 'x-idempotency-key': 'a' }, payload: base() })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().message, 'x-partner-id header is required')
    const other = await givenPartner(t.deps, 'Coupon owner', shop.catalogId)
    await createCoupon(t.deps.database.db, other.partnerId, { code: 'THEIRS', kind: 'FLAT', value: 100n }, clock.now())
    const theirs = await placeOrder(t, customer, { ...base(), couponCode: 'THEIRS' })
    assert.equal(theirs.statusCode, 400)
    assert.equal(theirs.json().message, 'Coupon THEIRS does not exist')
  })

  test('paymentReturnUrl must be on an origin the partner registered, when it registered any', async () => {
    const partner = await givenPartner(t.deps, 'Origins partner', shop.catalogId)
    await setPartnerReturnOrigins(t.deps.database.db, partner.partnerId, ['https://shop.example/'])
    const customer = await givenCustomer(t.app, partner)
    const bad = await placeOrder(t, customer, { ...base(), paymentReturnUrl: 'https://evil.example/back' })
    assert.equal(bad.statusCode, 400)
    assert.equal(bad.json().message, 'paymentReturnUrl origin https://evil.example is not registered for this partner')
    const good = await placeOrder(t, customer, { ...base(), paymentReturnUrl: 'https://shop.example/orders/back?x=1' })
    assert.equal(good.statusCode, 201, good.body)
  })
})

describe('catalog answers after orders', () => {
  test("an order moves the product's stock but not its updatedAt (the merchant's last edit)", async () => {
    const db = t.deps.database.db
    const before = await db.query.products.findFirst({ where: (p, { eq }) => eq(p.id, shop.ids.earbuds!) })
    const customer = await givenCustomer(t.app, shop.partner)
    clock.advance(60_000)
    assert.equal((await placeOrder(t, customer, { items: [item('earbuds')], shippingAddress: ADDRESS, paymentMode: 'COD' })).statusCode, 201)
    const after = await db.query.products.findFirst({ where: (p, { eq }) => eq(p.id, shop.ids.earbuds!) })
    assert.equal(after!.stock, before!.stock - 1)
    assert.equal(after!.updatedAt.toISOString(), before!.updatedAt.toISOString())
  })


  test('an order that sells a product out drops the cached catalog answers at once', async () => {
    const db = t.deps.database.db
    const { defaultVariantId, reserveStock } = await import('../../src/modules/catalog/index.ts')
    const left = await stockOf(t, shop.ids.hot!)
    await db.transaction((tx) => reserveStock(tx, { productId: shop.ids.hot!, variantId: defaultVariantId(shop.ids.hot!) }, left - 1))
    const read = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/v1/products/hot', headers: { 'x-api-key': shop.partner.apiKey } })).json().data.stock
    assert.equal(await read(), 1)
    const customer = await givenCustomer(t.app, shop.partner)
    assert.equal((await placeOrder(t, customer, { items: [item('hot')], shippingAddress: ADDRESS, paymentMode: 'COD' })).statusCode, 201)
    assert.equal(await read(), 0)
  })
})
