import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createCatalog } from '../../src/modules/catalog/index.ts'
import { importCatalog } from '../../src/modules/catalog/import.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenCustomer, givenAdminToken, givenPartner, type PartnerFixture } from '../helpers/factories.ts'

let t: TestApp
let adminToken: string
let supportToken: string
let partner: PartnerFixture
let customer: CustomerFixture
let productId: string

const login = (email: string, role: 'ADMIN' | 'SUPPORT' | 'CATALOG') => givenAdminToken(t.app, t.deps, email, role)
const admin = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object, token = adminToken) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) })

before(async () => {
  t = await createTestApp()
  adminToken = await login('boss@example.com', 'ADMIN')
  supportToken = await login('help@example.com', 'SUPPORT')
  const catalog = await createCatalog(t.deps.database.db, 'C')
  await importCatalog(t.deps.database.db, catalog.id, {
    categories: [{ slug: 'c', name: 'C' }],
    products: [{ slug: 'p', name: 'P', brand: 'B', sku: 'S', categorySlug: 'c', sellingPrice: '1000.00', mrp: '1000.00', stock: 5, weightGrams: 300 }],
  })
  productId = (await t.deps.database.db.query.products.findMany())[0]!.id
  partner = await givenPartner(t.deps, 'P', catalog.id)
  customer = await givenCustomer(t.app, partner)
})
after(() => t.close())

const quote = (payload: object) => t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(customer), payload })

describe('zones', () => {
  test('a zone created in the back office serves its pincodes; a patch changes its rules', async () => {
    const created = await admin('POST', '/delivery-zones', {
      name: 'Goa',
      standardSlabs: [{ upToGrams: 1000, charge: '55.00' }],
      standardMinDays: 2,
      standardMaxDays: 4,
      expressAvailable: false,
      expressMinDays: 0,
      expressMaxDays: 0,
      freeShippingThreshold: null,
      cutoffHour: 13,
      codAvailable: true,
      codLimit: '5000',
      codFee: 30,
      pincodes: [{ prefix: '403', city: 'Panaji', state: 'Goa' }],
    })
    assert.equal(created.statusCode, 201, created.body)
    const zone = created.json().data
    const items = [{ productId, quantity: 1 }]
    const before = (await quote({ items, pincode: '403001', paymentMode: 'COD' })).json().data
    assert.equal(before.shippingCharge, '55.00')
    assert.equal(before.codFee, '30.00')
    await admin('PATCH', `/delivery-zones/${zone.id}`, { codAvailable: false })
    const refused = await quote({ items, pincode: '403001', paymentMode: 'COD' })
    assert.equal(refused.json().message, 'Cash on delivery is not available for this pincode')
    assert.equal((await admin('PATCH', '/delivery-zones/zon_nope', { codAvailable: true })).statusCode, 404)
    const bad = await admin('POST', '/delivery-zones', { name: 'X', pincodes: [{ prefix: '0', city: 'a', state: 'b' }] })
    assert.equal(bad.statusCode, 400)
    assert.ok(bad.json().message.includes('pincodes.0.prefix must be 1 to 6 digits of a PIN code'))
  })
})

describe('coupons and pricing settings', () => {
  test('issue, use in a quote, deactivate; usage is listed; SUPPORT may not issue', async () => {
    const created = await admin('POST', `/partners/${partner.partnerId}/coupons`, { code: 'diwali', kind: 'PERCENT', value: 15, maxDiscount: '100' })
    assert.equal(created.statusCode, 201, created.body)
    assert.equal(created.json().data.code, 'DIWALI')
    assert.equal((await quote({ items: [{ productId, quantity: 1 }], couponCode: 'Diwali' })).json().data.couponDiscount, '100.00')
    const nobody = await admin('POST', '/partners/prt_nope/coupons', { code: 'GHOST', kind: 'FLAT', value: 1 })
    assert.equal(nobody.statusCode, 404, 'no coupons for a partner that does not exist')
    const nothing = await admin('PATCH', `/coupons/${created.json().data.id}`, {})
    assert.equal(nothing.statusCode, 400, 'an empty patch is a 400, not a 500')
    assert.equal(nothing.json().message, 'Send at least one of isActive, validUntil')
    await admin('PATCH', `/coupons/${created.json().data.id}`, { isActive: false })
    assert.equal((await quote({ items: [{ productId, quantity: 1 }], couponCode: 'DIWALI' })).json().message, 'Coupon DIWALI is not active')
    const list = (await admin('GET', `/partners/${partner.partnerId}/coupons`)).json().data
    assert.equal(list[0].usedCount, 0)
    assert.equal((await admin('POST', `/partners/${partner.partnerId}/coupons`, { code: 'DIWALI', kind: 'FLAT', value: 1 })).statusCode, 409)
    assert.equal((await admin('POST', `/partners/${partner.partnerId}/coupons`, { code: 'PCT', kind: 'PERCENT', value: 150 })).statusCode, 400)
    assert.equal((await admin('POST', `/partners/${partner.partnerId}/coupons`, { code: 'NOPE', kind: 'FLAT', value: 1 }, supportToken)).statusCode, 403)
  })

  test('the redeem cap is a partner setting', async () => {
    const rich = await givenCustomer(t.app, partner)
    await admin('POST', `/customers/${rich.userId}/ledger`, { kind: 'REWARD_POINTS', amount: '1000', reason: 'welcome bonus' }, supportToken)
    const usePoints = () => t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(rich), payload: { items: [{ productId, quantity: 1 }], useRewardPoints: true } })
    // Read once with the current cap, so a cached setting would be stale after the write below.
    const capBefore = Number((await usePoints()).json().data.rewardPointsUsed)
    assert.notEqual(capBefore, 250)
    await admin('PUT', `/partners/${partner.partnerId}/pricing`, { rewardEarnPercent: 2, rewardRedeemCapPercent: 25, paisePerPoint: 100 })
    const data = (await t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(rich), payload: { items: [{ productId, quantity: 1 }], useRewardPoints: true } })).json().data
    assert.equal(data.rewardPointsUsed, 250)
    assert.equal(data.remainingPayable, '750.00')
  })
})

describe('ledger adjustments', () => {
  test('credits and debits with a reason; never below zero; unknown customer 404', async () => {
    const someone = await givenCustomer(t.app, partner)
    const credited = await admin('POST', `/customers/${someone.userId}/ledger`, { kind: 'WALLET_CASH', amount: '250.50', reason: 'goodwill for a late delivery' }, supportToken)
    assert.equal(credited.statusCode, 200, credited.body)
    assert.deepEqual(credited.json().data, { walletCash: '250.50', rewardPoints: 0 })
    const over = await admin('POST', `/customers/${someone.userId}/ledger`, { kind: 'WALLET_CASH', amount: '-300', reason: 'correction' }, supportToken)
    assert.equal(over.statusCode, 409)
    assert.equal(over.json().message, 'Insufficient Wallet Cash balance')
    const debited = await admin('POST', `/customers/${someone.userId}/ledger`, { kind: 'WALLET_CASH', amount: -50.5, reason: 'correction' }, supportToken)
    assert.equal(debited.json().data.walletCash, '200.00')
    const wallet = (await t.app.inject({ method: 'GET', url: '/api/v1/wallet', headers: customerHeaders(someone) })).json().data
    assert.equal(wallet.entries[0].reason, 'ADJUSTMENT: correction')
    assert.equal((await admin('POST', '/customers/usr_nope/ledger', { kind: 'WALLET_CASH', amount: '1', reason: 'x y z' })).statusCode, 404)
    assert.equal((await admin('POST', `/customers/${someone.userId}/ledger`, { kind: 'REWARD_POINTS', amount: '1.5', reason: 'half' })).statusCode, 400)
  })
})
