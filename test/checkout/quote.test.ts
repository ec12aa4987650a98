import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createCatalog } from '../../src/modules/catalog/index.ts'
import { importCatalog } from '../../src/modules/catalog/import.ts'
import { createCoupon, redeemCoupon } from '../../src/modules/checkout/coupons.ts'
import { creditLedger, debitLedger, ledgerBalances } from '../../src/modules/ledgers/ledger.ts'
import { seedDeliveryZones } from '../../src/modules/checkout/seed-zones.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let partner: PartnerFixture
let other: PartnerFixture
const ids: Record<string, string> = {}
let staplesId: string

before(async () => {
  t = await createTestApp({ clock })
  const db = t.deps.database.db
  await seedDeliveryZones(db)
  const catalog = await createCatalog(db, 'Quote')
  await importCatalog(db, catalog.id, {
    categories: [{ slug: 'staples', name: 'Staples' }, { slug: 'audio', name: 'Audio' }],
    products: [
      { slug: 'atta', name: 'Atta 5 kg', brand: 'Aashirvaad', sku: 'A', categorySlug: 'staples', sellingPrice: '300.00', mrp: '320.00', stock: 10, weightGrams: 5000 },
      { slug: 'earbuds', name: 'Earbuds', brand: 'boAt', sku: 'E', categorySlug: 'audio', sellingPrice: '1000.00', mrp: '2000.00', stock: 10, weightGrams: 200 },
      { slug: 'old', name: 'Old', brand: 'X', sku: 'O', categorySlug: 'audio', sellingPrice: '10.00', mrp: '10.00', stock: 5, isActive: false },
    ],
  })
  for (const p of await db.query.products.findMany()) ids[p.slug] = p.id
  staplesId = (await db.query.categories.findMany()).find((c) => c.slug === 'staples')!.id
  partner = await givenPartner(t.deps, 'Quote partner', catalog.id)
  other = await givenPartner(t.deps, 'Other partner', catalog.id)
  const now = clock.now()
  await createCoupon(db, partner.partnerId, { code: 'save10', kind: 'PERCENT', value: 10n, maxDiscount: 5000n }, now)
  await createCoupon(db, partner.partnerId, { code: 'FLAT100', kind: 'FLAT', value: 10_000n, minOrderValue: 50_000n }, now)
  await createCoupon(db, partner.partnerId, { code: 'STAPLES20', kind: 'PERCENT', value: 20n, categoryIds: [staplesId] }, now)
  await createCoupon(db, partner.partnerId, { code: 'OLD', kind: 'FLAT', value: 100n, validUntil: new Date('2026-11-01T00:00:00Z') }, now)
  await createCoupon(db, partner.partnerId, { code: 'SOON', kind: 'FLAT', value: 100n, validFrom: new Date('2026-12-01T00:00:00Z') }, now)
  await createCoupon(db, partner.partnerId, { code: 'ONCE', kind: 'FLAT', value: 100n, perCustomerLimit: 1 }, now)
  await createCoupon(db, partner.partnerId, { code: 'GONE', kind: 'FLAT', value: 100n, totalUsageLimit: 0 }, now)
  await createCoupon(db, other.partnerId, { code: 'THEIRS', kind: 'FLAT', value: 100n }, now)
})
after(() => t.close())

const quote = (customer: CustomerFixture, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(customer), payload })

async function credit(customer: CustomerFixture, kind: 'WALLET_CASH' | 'REWARD_POINTS', amount: bigint) {
  await t.deps.database.db.transaction((tx) =>
    creditLedger(tx, { userId: customer.userId, partnerId: customer.partnerId, kind, amount, reason: 'PROMOTION', reference: 'test', at: clock.now() }),
  )
}

describe('POST /wallet/quote', () => {
  test('items, coupon, shipping, COD fee, points up to the cap, then wallet, in that order', async () => {
    const customer = await givenCustomer(t.app, partner)
    await credit(customer, 'REWARD_POINTS', 500n)
    await credit(customer, 'WALLET_CASH', 20_000n)
    const res = await quote(customer, {
      items: [{ productId: ids.atta, quantity: 1 }, { productId: ids.earbuds, quantity: 1 }],
      pincode: '560001',
      paymentMode: 'COD',
      couponCode: 'save10',
      useRewardPoints: true,
      useWalletCash: true,
    })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(res.json().data, {
      itemsTotal: '1300.00',
      mrpTotal: '2320.00',
      couponDiscount: '50.00',
      shippingCharge: '0.00',
      codFee: '49.00',
      totalAmount: '1299.00',
      rewardPointsUsed: 125,
      rewardPointsValue: '125.00',
      walletCashUsed: '200.00',
      remainingPayable: '974.00',
      balances: { walletCash: '200.00', rewardPoints: 500 },
      tax: null, // the catalog has no registered GST seller (test/tax/gst-checkout.test.ts taxes)
    })
  })

  test('without balances used, remainingPayable is the total; without a pincode there is no shipping', async () => {
    const customer = await givenCustomer(t.app, partner)
    const data = (await quote(customer, { items: [{ productId: ids.earbuds, quantity: 2 }] })).json().data
    assert.equal(data.totalAmount, '2000.00')
    assert.equal(data.remainingPayable, '2000.00')
    assert.equal(data.shippingCharge, '0.00')
    const shipped = (await quote(customer, { items: [{ productId: ids.earbuds, quantity: 1 }], pincode: '302001' })).json().data
    assert.equal(shipped.shippingCharge, '0.00', 'tier-2 free shipping from ₹999')
  })

  test('a category coupon only discounts its lines', async () => {
    const customer = await givenCustomer(t.app, partner)
    const data = (await quote(customer, { items: [{ productId: ids.atta, quantity: 1 }, { productId: ids.earbuds, quantity: 1 }], couponCode: 'STAPLES20' })).json().data
    assert.equal(data.couponDiscount, '60.00')
  })

  test('every coupon refusal says which rule failed', async () => {
    const customer = await givenCustomer(t.app, partner)
    const once = await t.deps.database.db.query.coupons.findFirst({ where: (c, { eq }) => eq(c.code, 'ONCE') })
    await t.deps.database.db.transaction((tx) => redeemCoupon(tx, { couponId: once!.id, userId: customer.userId, orderId: null, at: clock.now() }))
    const cases: [string, string][] = [
      ['THEIRS', 'Coupon THEIRS does not exist'],
      ['NOPE', 'Coupon NOPE does not exist'],
      ['OLD', 'Coupon OLD has expired'],
      ['SOON', 'Coupon SOON is not valid yet'],
      ['GONE', 'Coupon GONE has been fully used'],
      ['ONCE', 'Coupon ONCE has already been used the most times allowed for this customer'],
      ['FLAT100', 'Coupon FLAT100 needs a minimum order value of ₹500.00'],
    ]
    for (const [code, message] of cases) {
      const res = await quote(customer, { items: [{ productId: ids.atta, quantity: 1 }], couponCode: code })
      assert.equal(res.statusCode, 400, code)
      assert.equal(res.json().message, message)
    }
    const fresh = await givenCustomer(t.app, partner)
    assert.equal((await quote(fresh, { items: [{ productId: ids.atta, quantity: 1 }], couponCode: 'ONCE' })).statusCode, 200)
  })

  test('bad input: COD without pincode or on a non-COD zone, express-less pincode, inactive product, wrong types', async () => {
    const customer = await givenCustomer(t.app, partner)
    const cases: [object, string | string[]][] = [
      [{ items: [{ productId: ids.atta, quantity: 1 }], paymentMode: 'COD' }, 'pincode is required for cash on delivery'],
      [{ items: [{ productId: ids.atta, quantity: 1 }], paymentMode: 'COD', pincode: '744101' }, 'Cash on delivery is not available for this pincode'],
      [{ items: [{ productId: ids.atta, quantity: 1 }], deliveryMethod: 'EXPRESS', pincode: '302001' }, 'EXPRESS delivery is not available for pincode 302001'],
      [{ items: [{ productId: ids.old, quantity: 1 }] }, `Product ${ids.old} is not available`],
      [{ items: [{ productId: ids.atta, quantity: 1 }], useWalletCash: 'yes', extra: 1 }, ['useWalletCash must be a boolean value', 'property extra should not exist']],
    ]
    for (const [payload, message] of cases) {
      const res = await quote(customer, payload)
      assert.equal(res.statusCode, 400, JSON.stringify(payload))
      const got = res.json().message
      assert.deepEqual(Array.isArray(got) ? [...got].sort() : got, Array.isArray(message) ? [...message].sort() : message)
    }
  })
})

describe('COD rules in the quote', () => {
  test('a COD quote above the pincode COD limit is refused', async () => {
    const customer = await givenCustomer(t.app, partner)
    const res = await quote(customer, { items: [{ productId: ids.earbuds, quantity: 60 }], pincode: '560001', paymentMode: 'COD' })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().message, 'Cash on delivery is limited to ₹50000.00 for this pincode')
  })

  test('no COD fee when Reward Points and Wallet Cash leave nothing to collect', async () => {
    const customer = await givenCustomer(t.app, partner)
    await credit(customer, 'WALLET_CASH', 200_000n)
    const data = (await quote(customer, { items: [{ productId: ids.earbuds, quantity: 1 }], pincode: '560001', paymentMode: 'COD', useWalletCash: true })).json().data
    assert.equal(data.codFee, '0.00')
    assert.equal(data.remainingPayable, '0.00')
    assert.equal(data.walletCashUsed, '1000.00')
  })

  test('an unknown nested field is worded as class-validator words it', async () => {
    const customer = await givenCustomer(t.app, partner)
    const res = await quote(customer, { items: [{ productId: ids.earbuds, quantity: 1, colour: 'red' }] })
    assert.deepEqual(res.json().message, ['items.0.property colour should not exist'])
  })
})

describe('GET /wallet and the ledgers', () => {
  test('page must be a bounded integer', async () => {
    const customer = await givenCustomer(t.app, partner)
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/wallet?page=Infinity', headers: customerHeaders(customer) })
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json().message, ['page must not be greater than 100000'])
  })

  test('balances and a page of entries, newest first', async () => {
    const customer = await givenCustomer(t.app, partner)
    await credit(customer, 'WALLET_CASH', 10_000n)
    clock.advance(1000)
    await credit(customer, 'REWARD_POINTS', 40n)
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/wallet?limit=1', headers: customerHeaders(customer) })
    assert.equal(res.statusCode, 200)
    const body = res.json()
    assert.deepEqual(body.data.balances, { walletCash: '100.00', rewardPoints: 40 })
    assert.equal(body.data.entries.length, 1)
    assert.equal(body.data.entries[0].kind, 'REWARD_POINTS')
    assert.equal(body.data.entries[0].amount, '40')
    assert.deepEqual(body.meta, { total: 2, page: 1, limit: 1, totalPages: 2 })
  })

  test('concurrent spends of one balance never overdraw it', async () => {
    const customer = await givenCustomer(t.app, partner)
    await credit(customer, 'WALLET_CASH', 10_000n)
    const spend = () =>
      t.deps.database.db
        .transaction((tx) => debitLedger(tx, { userId: customer.userId, partnerId: customer.partnerId, kind: 'WALLET_CASH', amount: 3000n, reason: 'ORDER', at: clock.now() }))
        .then(() => 'ok', (err: Error) => err.message)
    const results = await Promise.all(Array.from({ length: 6 }, spend))
    assert.equal(results.filter((r) => r === 'ok').length, 3)
    assert.ok(results.filter((r) => r !== 'ok').every((r) => r === 'Insufficient Wallet Cash balance'))
    assert.equal((await ledgerBalances(t.deps.database.db, customer.userId)).walletCash, 1000n)
  })
})
