// GST back office over real HTTP: the seller of a catalog (GSTIN checked, state from the GSTIN and the
// address), HSN codes and GST rates on products and categories (a rate must be in force on the day in
// India, from the rates table), the products that cannot be taxed, and the public product shape that
// none of it reaches. The clock starts on 21 September 2025 at 23:30 in India, half an hour before the
// rates of 22 September 2025.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { TaxService } from '../../src/modules/tax/index.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenAdminToken, givenPartner, type PartnerFixture } from '../helpers/factories.ts'

const LAST_EVENING_OF_OLD_RATES = new Date('2025-09-21T18:00:00Z') // 23:30 IST on 21 September 2025
const clock = new ManualClock(LAST_EVENING_OF_OLD_RATES)
let t: TestApp
let adminToken: string
let catalogToken: string
let partner: PartnerFixture
let catalogId: string

const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown, token = adminToken) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as string }) })

const SELLER = {
  legalName: 'Acme Retail Private Limited',
  tradeName: 'Acme',
  gstin: '27AAPFU0939F1ZV',
  address: { line1: '12 Nariman Point', city: 'Mumbai', state: 'Maharashtra', pincode: '400021' },
}

let n = 0
const product = (extra: Record<string, unknown>) => {
  n++
  return { name: `Product ${n}`, slug: `product-${n}`, brand: 'Acme', sku: `SKU-${n}`, sellingPrice: '99.99', mrp: '120.00', stock: 5, ...extra }
}

before(async () => {
  t = await createTestApp({ clock })
  adminToken = await givenAdminToken(t.app, t.deps, 'gst-admin@example.com', 'ADMIN')
  catalogToken = await givenAdminToken(t.app, t.deps, 'gst-catalog@example.com', 'CATALOG')
  catalogId = (await call('POST', '/catalogs', { name: 'GST test catalog' })).json().data.id
  partner = await givenPartner(t.deps, 'GST partner', catalogId)
})
after(() => t.close())

describe('seller of a catalog', () => {
  test('before one is registered, GET answers 404', async () => {
    const res = await call('GET', `/catalogs/${catalogId}/seller`)
    assert.equal(res.statusCode, 404)
  })

  test('PUT with a valid GSTIN registers the seller, with the state code and name from the GSTIN; GET answers it', async () => {
    const res = await call('PUT', `/catalogs/${catalogId}/seller`, { ...SELLER, gstin: ' 27aapfu0939f1zv ' })
    assert.equal(res.statusCode, 200, res.body)
    const seller = res.json().data
    assert.equal(seller.gstin, '27AAPFU0939F1ZV', 'stored upper case, trimmed')
    assert.equal(seller.stateCode, '27')
    assert.equal(seller.stateName, 'Maharashtra')
    assert.deepEqual(seller.address, { ...SELLER.address, line2: null })
    assert.deepEqual((await call('GET', `/catalogs/${catalogId}/seller`)).json().data, seller)
  })

  test('PUT again replaces the seller', async () => {
    const res = await call('PUT', `/catalogs/${catalogId}/seller`, { ...SELLER, legalName: 'Acme Retail LLP', tradeName: null })
    assert.equal(res.statusCode, 200)
    const got = (await call('GET', `/catalogs/${catalogId}/seller`)).json().data
    assert.equal(got.legalName, 'Acme Retail LLP')
    assert.equal(got.tradeName, null)
  })

  test('a GSTIN with a wrong check character: 400 naming gstin, and the seller is unchanged', async () => {
    const res = await call('PUT', `/catalogs/${catalogId}/seller`, { ...SELLER, legalName: 'Changed', gstin: '27AAPFU0939F1ZW' })
    assert.equal(res.statusCode, 400)
    assert.match(res.json().message, /^gstin .*check character/)
    assert.equal((await call('GET', `/catalogs/${catalogId}/seller`)).json().data.legalName, 'Acme Retail LLP')
  })

  test('a GSTIN of the wrong shape: 400 naming gstin and the rule', async () => {
    for (const [gstin, rule] of [
      ['27AAPFU0939F1Z', /15 characters/],
      ['40AAPFU0939F1ZV', /state code/],
      ['27AAPF10939F1ZV', /PAN/],
      ['27AAPFU0939F1YV', /must be Z/],
    ] as const) {
      const res = await call('PUT', `/catalogs/${catalogId}/seller`, { ...SELLER, gstin })
      assert.equal(res.statusCode, 400, gstin)
      assert.match(res.json().message, /^gstin /)
      assert.match(res.json().message, rule)
    }
  })

  test("an address in another state than the GSTIN's: 400 naming address.state", async () => {
    const res = await call('PUT', `/catalogs/${catalogId}/seller`, { ...SELLER, address: { ...SELLER.address, state: 'Karnataka', pincode: '560001' } })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().message, "address.state Karnataka does not match the GSTIN's state code 27 (Maharashtra)")
  })

  test("a pincode outside the address's state: 400 naming address.pincode", async () => {
    const res = await call('PUT', `/catalogs/${catalogId}/seller`, { ...SELLER, address: { ...SELLER.address, pincode: '560001' } })
    assert.equal(res.statusCode, 400)
    assert.match(res.json().message, /address\.state Maharashtra does not match address\.pincode 560001 \(Karnataka\)/)
  })

  test('an unknown field is refused', async () => {
    const res = await call('PUT', `/catalogs/${catalogId}/seller`, { ...SELLER, address: { ...SELLER.address, country: 'IN' } })
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json().message, ['address.property country should not exist'])
  })

  test('an unknown catalog: 404', async () => {
    assert.equal((await call('PUT', '/catalogs/cat_missing/seller', SELLER)).statusCode, 404)
    assert.equal((await call('GET', '/catalogs/cat_missing/seller')).statusCode, 404)
  })

  test('the CATALOG role may not read or change the seller (ADMIN only)', async () => {
    assert.equal((await call('GET', `/catalogs/${catalogId}/seller`, undefined, catalogToken)).statusCode, 403)
    assert.equal((await call('PUT', `/catalogs/${catalogId}/seller`, SELLER, catalogToken)).statusCode, 403)
  })
})

describe('GST rates as data with dates', () => {
  test('on 21 September 2025 the old slabs are in force; from 22 September 12 % is gone and 40 % exists', async () => {
    const on = async (day: string) => (await call('GET', `/tax/rates?on=${day}`)).json().data.map((s: { rateBps: number }) => s.rateBps)
    assert.deepEqual(await on('2025-09-21'), [0, 25, 300, 500, 1200, 1800, 2800])
    assert.deepEqual(await on('2025-09-22'), [0, 25, 300, 500, 1800, 2800, 4000])
  })

  test('the slab of a rate at an instant turns at midnight in India: 28 % general until 21 September, 28 % with cess after', async () => {
    const tax = new TaxService(t.deps)
    const lastSecondOld = new Date('2025-09-21T18:29:59Z') // 23:59:59 IST
    const firstSecondNew = new Date('2025-09-21T18:30:00Z') // 00:00:00 IST on 22 September
    assert.equal((await tax.rateAt(2800, lastSecondOld))?.id, 'gst_28_2017')
    assert.equal((await tax.rateAt(2800, firstSecondNew))?.id, 'gst_28_cess_2025')
    assert.equal((await tax.rateAt(1200, lastSecondOld))?.id, 'gst_12_2017')
    assert.equal(await tax.rateAt(1200, firstSecondNew), null)
    assert.equal(await tax.rateAt(4000, lastSecondOld), null)
    assert.equal((await tax.rateAt(4000, firstSecondNew))?.rateBps, 4000)
    assert.equal(await tax.rateAt(1000, firstSecondNew), null, 'no such slab')
  })

  test('without a day, the rates of today in India', async () => {
    const res = await call('GET', '/tax/rates', undefined, catalogToken)
    assert.equal(res.statusCode, 200)
    assert.ok(res.json().data.some((s: { rateBps: number }) => s.rateBps === 1200), 'still 21 September in India')
  })
})

describe('HSN codes and GST rates on products and categories', () => {
  let categoryId: string
  let plainCategoryId: string
  const ids: Record<string, string> = {}

  before(async () => {
    categoryId = (await call('POST', `/catalogs/${catalogId}/categories`, { name: 'Snacks', slug: 'snacks', hsnCode: '2106', gstRateBps: 500 }, catalogToken)).json().data.id
    plainCategoryId = (await call('POST', `/catalogs/${catalogId}/categories`, { name: 'Misc', slug: 'misc' }, catalogToken)).json().data.id
  })

  test('a product takes hsnCode and gstRateBps in the back office; the public product shape does not change', async () => {
    const res = await call('POST', `/catalogs/${catalogId}/products`, product({ categoryId: plainCategoryId, hsnCode: '85183000', gstRateBps: 1800, slug: 'earphones' }), catalogToken)
    assert.equal(res.statusCode, 201, res.body)
    assert.equal(res.json().data.hsnCode, '85183000')
    assert.equal(res.json().data.gstRateBps, 1800)
    ids.own = res.json().data.id
    const pub = await t.app.inject({ method: 'GET', url: '/api/v1/products/earphones', headers: { 'x-api-key': partner.apiKey } })
    assert.equal(pub.statusCode, 200)
    // The spec's fields and the variants' additive ones (decision 0043); no tax field, in the variants either.
    const publicProduct = pub.json().data
    assert.deepEqual(Object.keys(publicProduct).sort(), ['brand', 'categoryId', 'id', 'images', 'isActive', 'mrp', 'name', 'options', 'priceRange', 'sellingPrice', 'sku', 'slug', 'stock', 'variants'])
    for (const variant of publicProduct.variants) assert.deepEqual(Object.keys(variant).sort(), ['id', 'isActive', 'mrp', 'options', 'sellingPrice', 'sku', 'stock', 'title'])
  })

  test('an HSN code of the wrong shape: 400 naming hsnCode; a 6-digit SAC starting 99 is accepted', async () => {
    for (const hsnCode of ['123', '12345', '1234567', '0012', '9954', '99541234', '12ab']) {
      const res = await call('PATCH', `/products/${ids.own}`, { hsnCode }, catalogToken)
      assert.equal(res.statusCode, 400, hsnCode)
      assert.deepEqual(res.json().message, ['hsnCode must be an HSN code of 4, 6 or 8 digits or a SAC of 6 digits starting with 99, or null'], hsnCode)
    }
    for (const hsnCode of ['8518', '851830', '995411', '85183000']) assert.equal((await call('PATCH', `/products/${ids.own}`, { hsnCode }, catalogToken)).statusCode, 200, hsnCode)
  })

  test('a rate that is no GST rate: 400 naming gstRateBps', async () => {
    const res = await call('PATCH', `/products/${ids.own}`, { gstRateBps: 1000 }, catalogToken)
    assert.equal(res.statusCode, 400)
    assert.match(res.json().message, /^gstRateBps must be a GST rate in force today/)
    const cat = await call('POST', `/catalogs/${catalogId}/categories`, { name: 'Bad', slug: 'bad', gstRateBps: 1000 }, catalogToken)
    assert.equal(cat.statusCode, 400)
    assert.match(cat.json().message, /^gstRateBps /)
    assert.equal((await call('PATCH', `/products/${ids.own}`, { gstRateBps: 18.5 }, catalogToken)).statusCode, 400, 'basis points are integers')
  })

  test('12 % is accepted until midnight in India on 21 September 2025, refused after; 40 % the other way round', async () => {
    const old = await call('POST', `/catalogs/${catalogId}/products`, product({ categoryId: plainCategoryId, hsnCode: '6109', gstRateBps: 1200 }), catalogToken)
    assert.equal(old.statusCode, 201, old.body)
    ids.oldRate = old.json().data.id
    assert.equal((await call('PATCH', `/products/${ids.own}`, { gstRateBps: 4000 }, catalogToken)).statusCode, 400, '40 % not yet in force')

    clock.advance(60 * 60_000) // 00:30 IST on 22 September 2025
    const refused = await call('PATCH', `/products/${ids.own}`, { gstRateBps: 1200 }, catalogToken)
    assert.equal(refused.statusCode, 400)
    assert.match(refused.json().message, /^gstRateBps must be a GST rate in force today.*not 1200$/)
    assert.equal((await call('PATCH', `/products/${ids.own}`, { gstRateBps: 4000 }, catalogToken)).statusCode, 200)
    assert.equal((await call('PATCH', `/products/${ids.own}`, { gstRateBps: 1800 }, catalogToken)).json().data.gstRateBps, 1800)
  })

  test('products without their own values inherit the category defaults, through parent categories too', async () => {
    const child = (await call('POST', `/catalogs/${catalogId}/categories`, { name: 'Chips', slug: 'chips', parentId: categoryId }, catalogToken)).json().data.id
    ids.inherits = (await call('POST', `/catalogs/${catalogId}/products`, product({ categoryId: child }), catalogToken)).json().data.id
    ids.overrides = (await call('POST', `/catalogs/${catalogId}/products`, product({ categoryId: child, gstRateBps: 1800 }), catalogToken)).json().data.id
    ids.bare = (await call('POST', `/catalogs/${catalogId}/products`, product({ categoryId: plainCategoryId }), catalogToken)).json().data.id
    ids.noRate = (await call('POST', `/catalogs/${catalogId}/products`, product({ categoryId: plainCategoryId, hsnCode: '3304' }), catalogToken)).json().data.id
    ids.inactive = (await call('POST', `/catalogs/${catalogId}/products`, product({ categoryId: plainCategoryId, isActive: false }), catalogToken)).json().data.id

    const res = await call('GET', `/catalogs/${catalogId}/tax/missing`, undefined, catalogToken)
    assert.equal(res.statusCode, 200, res.body)
    const { sellerRegistered, checkedOn, products } = res.json().data
    assert.equal(sellerRegistered, true)
    assert.equal(checkedOn, '2025-09-22')
    const byId = Object.fromEntries(products.map((p: { id: string }) => [p.id, p]))
    assert.deepEqual(Object.keys(byId).sort(), [ids.bare, ids.noRate, ids.oldRate].sort(), 'own, inherited and overriding products are complete; inactive ones are not listed')
    assert.deepEqual(byId[ids.bare!].problems, ['HSN_CODE_MISSING', 'GST_RATE_MISSING'])
    assert.deepEqual(byId[ids.noRate!].problems, ['GST_RATE_MISSING'])
    assert.deepEqual(byId[ids.oldRate!].problems, ['GST_RATE_NOT_IN_FORCE'])
    assert.equal(byId[ids.oldRate!].gstRateBps, 1200)
    assert.equal(res.json().meta.total, 3)
  })

  test('setting the category default fixes its products; null on the product goes back to inheriting', async () => {
    assert.equal((await call('PATCH', `/categories/${plainCategoryId}`, { hsnCode: '9999', gstRateBps: 1800 }, catalogToken)).statusCode, 400, '9999 is neither HSN (chapter 99) nor a 6-digit SAC')
    const cat = await call('PATCH', `/categories/${plainCategoryId}`, { hsnCode: '3304', gstRateBps: 1800 }, catalogToken)
    assert.equal(cat.statusCode, 200)
    assert.equal(cat.json().data.gstRateBps, 1800)
    let products = (await call('GET', `/catalogs/${catalogId}/tax/missing`)).json().data.products
    assert.deepEqual(products.map((p: { id: string }) => p.id), [ids.oldRate], 'the 12 % product overrides the default with a rate no longer in force')
    const cleared = await call('PATCH', `/products/${ids.oldRate}`, { gstRateBps: null }, catalogToken)
    assert.equal(cleared.json().data.gstRateBps, null)
    products = (await call('GET', `/catalogs/${catalogId}/tax/missing`)).json().data.products
    assert.deepEqual(products, [])
  })

  test('a catalog without a seller still lists its products, and says it has no seller', async () => {
    const other = (await call('POST', '/catalogs', { name: 'No seller' })).json().data.id
    const c = (await call('POST', `/catalogs/${other}/categories`, { name: 'Any', slug: 'any' })).json().data.id
    await call('POST', `/catalogs/${other}/products`, product({ categoryId: c }))
    const res = (await call('GET', `/catalogs/${other}/tax/missing`)).json()
    assert.equal(res.data.sellerRegistered, false)
    assert.equal(res.data.products.length, 1)
  })
})
