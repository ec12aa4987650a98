// GST on the wallet quote and the order, over real HTTP (issue #28, decision 0021). The seller is
// registered in Maharashtra; an address in Maharashtra is intra-state (CGST + SGST, the odd paisa to
// CGST), one in Karnataka inter-state (IGST). Prices include tax; a line is taxed on its line total
// less its coupon share; shipping and the COD fee at the rate of the principal supply. Every order
// here is also quoted with the same inputs: the two agree to the paisa, and lines add up to totals.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'drizzle-orm'
import { ManualClock } from '../../src/lib/clock.ts'
import { createCoupon } from '../../src/modules/checkout/coupons.ts'
import { seedDeliveryZones } from '../../src/modules/checkout/seed-zones.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'
import { ADDRESS as KARNATAKA, credit, placeOrder, stockOf } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
const MAHARASHTRA = { ...KARNATAKA, line1: '4 Marine Drive', city: 'Mumbai', state: 'Maharashtra', pincode: '400001' }
const SELLER = {
  legalName: 'Acme Retail Private Limited',
  gstin: '27AAPFU0939F1ZV',
  address: { line1: '12 Nariman Point', city: 'Mumbai', state: 'Maharashtra', pincode: '400021' },
}

let t: TestApp
let admin: string
let partner: PartnerFixture
let unregistered: PartnerFixture
const ids: Record<string, string> = {}

const adminCall = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${admin}` }, payload })

async function givenProduct(catalogId: string, categoryId: string, slug: string, price: string, weightGrams: number, tax: { hsnCode?: string; gstRateBps?: number }) {
  const res = await adminCall('POST', `/catalogs/${catalogId}/products`, {
    name: slug, slug, brand: 'Acme', sku: slug.toUpperCase(), categoryId, sellingPrice: price, mrp: price, stock: 100, weightGrams, ...tax,
  })
  assert.equal(res.statusCode, 201, res.body)
  ids[slug] = res.json().data.id
}

before(async () => {
  t = await createTestApp({ clock })
  await seedDeliveryZones(t.deps.database.db)
  admin = await givenAdminToken(t.app, t.deps, 'gst-checkout@example.com', 'ADMIN')
  const catalogId = (await adminCall('POST', '/catalogs', { name: 'GST shop' })).json().data.id
  const categoryId = (await adminCall('POST', `/catalogs/${catalogId}/categories`, { name: 'All', slug: 'all' })).json().data.id
  await givenProduct(catalogId, categoryId, 'atta-5kg', '300.00', 1000, { hsnCode: '1101', gstRateBps: 500 })
  await givenProduct(catalogId, categoryId, 'earbuds', '1000.00', 200, { hsnCode: '85183000', gstRateBps: 1800 })
  await givenProduct(catalogId, categoryId, 'cola', '150.00', 300, { hsnCode: '2202', gstRateBps: 4000 })
  await givenProduct(catalogId, categoryId, 'soap', '99.99', 100, { hsnCode: '3401', gstRateBps: 1800 })
  await givenProduct(catalogId, categoryId, 'tie-5', '105.00', 100, { hsnCode: '1101', gstRateBps: 500 })
  await givenProduct(catalogId, categoryId, 'tie-18', '118.00', 100, { hsnCode: '3401', gstRateBps: 1800 })
  await givenProduct(catalogId, categoryId, 'mystery-box', '50.00', 100, { hsnCode: '9503' })
  await givenProduct(catalogId, categoryId, 'plain-box', '50.00', 100, {})
  await givenProduct(catalogId, categoryId, 'old-rate', '50.00', 100, { hsnCode: '6109', gstRateBps: 500 })
  // A rate that went out of force on 22 September 2025 (12 %), left on the product as the rates change found it.
  await t.deps.database.db.execute(sql`update products set gst_rate_bps = 1200 where id = ${ids['old-rate']!}`)
  assert.equal((await adminCall('PUT', `/catalogs/${catalogId}/seller`, SELLER)).statusCode, 200)
  partner = await givenPartner(t.deps, 'GST partner', catalogId)
  await createCoupon(t.deps.database.db, partner.partnerId, { code: 'GST100', kind: 'FLAT', value: 10_000n }, clock.now())

  const otherCatalogId = (await adminCall('POST', '/catalogs', { name: 'Unregistered shop' })).json().data.id
  const otherCategoryId = (await adminCall('POST', `/catalogs/${otherCatalogId}/categories`, { name: 'All', slug: 'all' })).json().data.id
  await givenProduct(otherCatalogId, otherCategoryId, 'small-seller-earbuds', '1000.00', 200, { hsnCode: '85183000', gstRateBps: 1800 })
  unregistered = await givenPartner(t.deps, 'Unregistered partner', otherCatalogId)
})
after(() => t.close())

const item = (slug: string, quantity = 1) => ({ productId: ids[slug]!, quantity })

interface TaxAmounts {
  taxableValue: string
  cgst: string
  sgst: string
  igst: string
  totalTax: string
}
interface TaxBlock extends TaxAmounts {
  placeOfSupply: { stateCode: string | null; state: string }
  intraState: boolean
  charges: (TaxAmounts & { kind: string; amount: string; hsnCode: string; gstRateBps: number })[]
}
type OrderItem = TaxAmounts & { productId: string; hsnCode: string | null; gstRateBps: number | null; couponDiscount: string; lineTotal: string }

const paise = (rupees: string) => BigInt(rupees.replace('.', ''))
const FIELDS = ['taxableValue', 'cgst', 'sgst', 'igst', 'totalTax'] as const

/** Lines and charges add up to the totals, each taxed amount splits exactly, and tax-inclusive: taxable + tax == what the order costs. */
function assertAddsUp(tax: TaxBlock, items: OrderItem[], totalAmount: string) {
  for (const field of FIELDS) {
    const sum = [...items, ...tax.charges].reduce((s, l) => s + paise(l[field]), 0n)
    assert.equal(sum, paise(tax[field]), `the sum of lines and charges is the total ${field}`)
  }
  for (const line of [...items, ...tax.charges, tax]) assert.equal(paise(line.cgst) + paise(line.sgst) + paise(line.igst), paise(line.totalTax))
  for (const line of items) assert.equal(paise(line.taxableValue) + paise(line.totalTax), paise(line.lineTotal) - paise(line.couponDiscount))
  for (const charge of tax.charges) assert.equal(paise(charge.taxableValue) + paise(charge.totalTax), paise(charge.amount))
  assert.equal(paise(tax.taxableValue) + paise(tax.totalTax), paise(totalAmount), 'prices include tax')
}

/** Quotes, then places the order with the same inputs; both answers' tax must agree to the paisa. Returns the order. */
async function quoteAndOrder(customer: CustomerFixture, payload: { items: object[]; shippingAddress: typeof KARNATAKA } & Record<string, unknown>) {
  const { shippingAddress, ...rest } = payload
  const quoted = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(customer), payload: { ...rest, pincode: shippingAddress.pincode } })
  assert.equal(quoted.statusCode, 200, quoted.body)
  const quote = quoted.json().data
  const res = await placeOrder(t, customer, payload)
  assert.equal(res.statusCode, 201, res.body)
  const order = res.json().data
  const { lines, ...quoteTax } = quote.tax
  assert.deepEqual(order.tax, quoteTax, 'the quote and the order agree to the paisa')
  assert.deepEqual(
    order.items.map((i: OrderItem) => ({ productId: i.productId, hsnCode: i.hsnCode, gstRateBps: i.gstRateBps, ...Object.fromEntries(FIELDS.map((f) => [f, i[f]])) })),
    lines,
    'the quote lines are the order lines',
  )
  assert.equal(order.totalAmount, quote.totalAmount)
  assertAddsUp(order.tax, order.items, order.totalAmount)
  const fetched = (await t.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: customerHeaders(customer) })).json().data
  assert.deepEqual(fetched.tax, order.tax, 'GET /orders/{id} shows what was stored at the time of sale')
  assert.deepEqual(fetched.items, order.items)
  return order
}

describe('GST on the quote and the order', () => {
  test('an address in the seller\'s state: CGST + SGST in halves, the odd paisa to CGST; place of supply Maharashtra (27)', async () => {
    const customer = await givenCustomer(t.app, partner)
    const order = await quoteAndOrder(customer, { items: [item('earbuds'), item('atta-5kg')], shippingAddress: MAHARASHTRA })
    assert.deepEqual(order.tax, {
      placeOfSupply: { stateCode: '27', state: 'Maharashtra' },
      intraState: true,
      taxableValue: '1133.17',
      cgst: '83.42',
      sgst: '83.41',
      igst: '0.00',
      totalTax: '166.83',
      charges: [],
    })
    assert.deepEqual(
      order.items.map((i: OrderItem) => [i.hsnCode, i.gstRateBps, i.taxableValue, i.cgst, i.sgst, i.igst, i.totalTax]),
      [
        ['85183000', 1800, '847.46', '76.27', '76.27', '0.00', '152.54'],
        ['1101', 500, '285.71', '7.15', '7.14', '0.00', '14.29'],
      ],
    )
  })

  test('an address in another state: IGST only; place of supply Karnataka (29)', async () => {
    const customer = await givenCustomer(t.app, partner)
    const order = await quoteAndOrder(customer, { items: [item('earbuds')], shippingAddress: KARNATAKA })
    assert.deepEqual(order.tax, {
      placeOfSupply: { stateCode: '29', state: 'Karnataka' },
      intraState: false,
      taxableValue: '847.46',
      cgst: '0.00',
      sgst: '0.00',
      igst: '152.54',
      totalTax: '152.54',
      charges: [],
    })
    assert.equal(order.items[0].igst, '152.54')
  })

  test('3 x ₹99.99 at 18 %: tax ₹45.76 on the line total (per unit it would be ₹45.75)', async () => {
    const customer = await givenCustomer(t.app, partner)
    const order = await quoteAndOrder(customer, { items: [item('soap', 3)], shippingAddress: KARNATAKA })
    assert.equal(order.items[0].lineTotal, '299.97')
    assert.equal(order.items[0].totalTax, '45.76')
    assert.equal(order.items[0].taxableValue, '254.21')
  })

  test('a coupon over lines at 5, 18 and 40 % lowers each taxable value by its share (largest remainder); Wallet Cash and Reward Points do not', async () => {
    const customer = await givenCustomer(t.app, partner)
    const items = [item('atta-5kg'), item('earbuds'), item('cola')]
    const order = await quoteAndOrder(customer, { items, shippingAddress: KARNATAKA, couponCode: 'GST100' })
    assert.deepEqual(
      order.items.map((i: OrderItem) => [i.couponDiscount, i.taxableValue, i.igst]),
      [
        ['20.69', '266.01', '13.30'],
        ['68.97', '789.01', '142.02'],
        ['10.34', '99.76', '39.90'],
      ],
    )
    assert.equal(order.tax.taxableValue, '1154.78')
    assert.equal(order.tax.totalTax, '195.22')

    const payer = await givenCustomer(t.app, partner)
    await credit(t, clock, payer, 'WALLET_CASH', 50_000n)
    await credit(t, clock, payer, 'REWARD_POINTS', 100n)
    const paidWithBalances = await quoteAndOrder(payer, { items, shippingAddress: KARNATAKA, couponCode: 'GST100', useWalletCash: true, useRewardPoints: true })
    assert.notEqual(paidWithBalances.walletCashUsed, '0.00')
    assert.notEqual(paidWithBalances.rewardPointsValue, '0.00')
    assert.deepEqual(paidWithBalances.tax, order.tax, 'a means of payment is not a discount')
  })

  test('shipping and the COD fee are taxed at the rate of the principal supply (highest taxable value, not highest rate)', async () => {
    const customer = await givenCustomer(t.app, partner)
    const order = await quoteAndOrder(customer, { items: [item('cola'), item('atta-5kg')], shippingAddress: KARNATAKA, paymentMode: 'COD' })
    assert.equal(order.shippingCharge, '69.00')
    assert.equal(order.codFee, '49.00')
    assert.deepEqual(order.tax.charges, [
      { kind: 'SHIPPING', amount: '69.00', hsnCode: '1101', gstRateBps: 500, taxableValue: '65.71', cgst: '0.00', sgst: '0.00', igst: '3.29', totalTax: '3.29' },
      { kind: 'COD_FEE', amount: '49.00', hsnCode: '1101', gstRateBps: 500, taxableValue: '46.67', cgst: '0.00', sgst: '0.00', igst: '2.33', totalTax: '2.33' },
    ])
    assert.equal(order.tax.taxableValue, '505.23')
    assert.equal(order.tax.totalTax, '62.77')
  })

  test('two lines of equal taxable value: the charges take the earlier line\'s rate', async () => {
    const customer = await givenCustomer(t.app, partner)
    const chargeRate = async (items: object[]) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(customer), payload: { items, pincode: '560001' } })
      assert.equal(res.statusCode, 200, res.body)
      const { tax } = res.json().data
      assert.equal(tax.lines[0].taxableValue, tax.lines[1].taxableValue)
      return tax.charges.map((c: { gstRateBps: number }) => c.gstRateBps)
    }
    assert.deepEqual(await chargeRate([item('tie-18'), item('tie-5')]), [1800])
    assert.deepEqual(await chargeRate([item('tie-5'), item('tie-18')]), [500])
  })

  test('a product without its own HSN code or rate is taxed by its category\'s, or the nearest ancestor\'s, field by field', async () => {
    const catalogId = (await adminCall('POST', '/catalogs', { name: 'Inheriting shop' })).json().data.id
    assert.equal((await adminCall('PUT', `/catalogs/${catalogId}/seller`, SELLER)).statusCode, 200)
    const parent = (await adminCall('POST', `/catalogs/${catalogId}/categories`, { name: 'Home', slug: 'home', hsnCode: '9403', gstRateBps: 1800 })).json().data.id
    const child = (await adminCall('POST', `/catalogs/${catalogId}/categories`, { name: 'Tables', slug: 'tables', parentId: parent })).json().data.id
    await givenProduct(catalogId, child, 'plain-table', '118.00', 100, {})
    await givenProduct(catalogId, child, 'cheap-stool', '105.00', 100, { gstRateBps: 500 })
    const inheriting = await givenPartner(t.deps, 'Inheriting partner', catalogId)
    const customer = await givenCustomer(t.app, inheriting)
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(customer), payload: { items: [item('plain-table'), item('cheap-stool')], pincode: '560001' } })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(
      res.json().data.tax.lines.map((l: { hsnCode: string; gstRateBps: number; igst: string }) => [l.hsnCode, l.gstRateBps, l.igst]),
      [
        ['9403', 1800, '18.00'],
        ['9403', 500, '5.00'],
      ],
    )
  })

  test('a quote without a pincode has no place of supply yet: tax null', async () => {
    const customer = await givenCustomer(t.app, partner)
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(customer), payload: { items: [item('earbuds')] } })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().data.tax, null)
  })
})

describe('products that cannot be taxed, and catalogs without a seller', () => {
  test('with a registered seller, a product without a GST rate is refused by the quote and the order, naming it; no stock is taken', async () => {
    const customer = await givenCustomer(t.app, partner)
    const message = 'Product mystery-box has no GST rate; the merchant must set it before it can be sold'
    const quoted = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(customer), payload: { items: [item('earbuds'), item('mystery-box')] } })
    assert.equal(quoted.statusCode, 400)
    assert.equal(quoted.json().message, message)
    const before = await stockOf(t, ids.earbuds!)
    const res = await placeOrder(t, customer, { items: [item('earbuds'), item('mystery-box')], shippingAddress: KARNATAKA })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().message, message)
    assert.equal(await stockOf(t, ids.earbuds!), before)
  })

  test('each product that cannot be taxed is named: no HSN code and no rate, a rate no longer in force', async () => {
    const customer = await givenCustomer(t.app, partner)
    const res = await placeOrder(t, customer, { items: [item('plain-box'), item('old-rate'), item('atta-5kg')], shippingAddress: KARNATAKA })
    assert.equal(res.statusCode, 400)
    assert.equal(
      res.json().message,
      'Product plain-box has no HSN code and no GST rate; Product old-rate has a GST rate of 12 % that is not in force; the merchant must set them before they can be sold',
    )
  })

  test('a seller registered after a quote applies at the next quote (checkout caches sellers and forgets them on every write)', async () => {
    const catalogId = (await adminCall('POST', '/catalogs', { name: 'Registers later' })).json().data.id
    const categoryId = (await adminCall('POST', `/catalogs/${catalogId}/categories`, { name: 'All', slug: 'all' })).json().data.id
    await givenProduct(catalogId, categoryId, 'later-soap', '118.00', 10, { hsnCode: '3401', gstRateBps: 1800 })
    const later = await givenPartner(t.deps, 'Later partner', catalogId)
    const customer = await givenCustomer(t.app, later)
    const quote = () => t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(customer), payload: { items: [{ productId: ids['later-soap']!, quantity: 1 }], pincode: '560001' } })
    assert.equal((await quote()).json().data.tax, null, 'no seller yet')
    assert.equal((await adminCall('PUT', `/catalogs/${catalogId}/seller`, SELLER)).statusCode, 200)
    const taxed = (await quote()).json().data.tax
    assert.equal(taxed?.lines[0].igst, '18.00', `the next quote is taxed: ₹118 at 18 % is ₹18 IGST to Karnataka: ${JSON.stringify(taxed)}`)
  })

  test('a catalog without a registered seller: no tax on the quote or the order', async () => {
    const customer = await givenCustomer(t.app, unregistered)
    const items = [{ productId: ids['small-seller-earbuds']!, quantity: 1 }]
    const quoted = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(customer), payload: { items, pincode: '560001' } })
    assert.equal(quoted.statusCode, 200, quoted.body)
    assert.equal(quoted.json().data.tax, null)
    const res = await placeOrder(t, customer, { items, shippingAddress: KARNATAKA })
    assert.equal(res.statusCode, 201, res.body)
    const order = res.json().data
    assert.equal(order.tax, null)
    assert.deepEqual(
      [order.items[0].hsnCode, order.items[0].gstRateBps, order.items[0].taxableValue, order.items[0].igst, order.items[0].totalTax],
      [null, null, null, null, null],
    )
  })
})
