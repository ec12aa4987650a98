// The back office's one search box (issue #39): GET /admin/search finds orders (by part of the
// number, an AWB, any form or the last digits of the shipping, alternate or account phone, the
// customer's name or e-mail), customers (name, phone, e-mail) and products (SKU prefix, name part),
// every partner's; exact hits first; pages without overlaps. The order list's search matches alike.
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, test } from 'node:test'
import { createCatalog, importCatalog } from '../../src/modules/catalog/index.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'

interface Hit {
  type: 'ORDER' | 'CUSTOMER' | 'PRODUCT'
  id: string
  title: string
  subtitle: string
  exact: boolean
  status: string
  amount: string | null
  partnerId: string | null
  createdAt: string
}

let t: TestApp
let shop: Shop
let other: Shop
let support: string
let catalogAdmin: string
let asha: CustomerFixture
let ravi: CustomerFixture
let ashaOrder: { id: string; orderNumber: string }
let raviOrder: { id: string; orderNumber: string; totalAmount: string }
let awb: string
const products: Record<string, string> = {}

const search = (query: string, token: string | null = support) =>
  t.app.inject({ method: 'GET', url: `/api/v1/admin/search?${query}`, headers: token ? { authorization: `Bearer ${token}` } : {} })
async function hits(q: string, more = ''): Promise<Hit[]> {
  const res = await search(`q=${encodeURIComponent(q)}${more}`)
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data
}
const ids = (list: Hit[], type?: Hit['type']) => list.filter((h) => !type || h.type === type).map((h) => h.id)

before(async () => {
  t = await createTestApp()
  shop = await givenShop(t)
  other = await givenShop(t)
  support = await givenAdminToken(t.app, t.deps, 'support@search.test', 'SUPPORT')
  catalogAdmin = await givenAdminToken(t.app, t.deps, 'catalog@search.test', 'CATALOG')
  // Asha's account phone, the order's shipping phone and its alternate phone all differ: each is found on its own.
  asha = await givenCustomer(t.app, shop.partner, { phone: '9812345670', name: 'Asha Verma', email: 'asha.verma@example.com' })
  const placed = await placeOrder(t, asha, {
    items: [{ productId: shop.ids.atta!, quantity: 1 }],
    shippingAddress: { ...ADDRESS, name: 'Asha Verma', phone: '9876543210' },
    alternatePhone: '9700011122',
    paymentMode: 'COD',
  })
  assert.equal(placed.statusCode, 201, placed.body)
  ashaOrder = placed.json().data
  const parcel = await t.app.inject({ method: 'POST', url: `/api/v1/admin/orders/${ashaOrder.id}/shipments`, headers: { authorization: `Bearer ${support}` }, payload: { weightGrams: 500 } })
  assert.equal(parcel.statusCode, 201, parcel.body)
  awb = parcel.json().data.awb
  // Another partner's customer and order.
  ravi = await givenCustomer(t.app, other.partner, { phone: '9123400001', name: 'Ravi Kulkarni', email: 'ravi@kulkarni.example' })
  const theirs = await placeOrder(t, ravi, { items: [{ productId: other.ids.atta!, quantity: 1 }], shippingAddress: { ...ADDRESS, name: 'Ravi Kulkarni', phone: '9123400001' }, paymentMode: 'COD' })
  assert.equal(theirs.statusCode, 201, theirs.body)
  raviOrder = theirs.json().data
  // Products of a catalog of their own: ZXS-10 before ZXS-100 (so "newest first" alone would list ZXS-100 first).
  const catalog = await createCatalog(t.deps.database.db, 'Search')
  const db = t.deps.database.db
  const product = (slug: string, name: string, sku: string) => ({ slug, name, brand: 'Weaves', sku, categorySlug: 'sarees', sellingPrice: '4999.00', mrp: '5999.00', stock: 3 })
  await importCatalog(db, catalog.id, { categories: [{ slug: 'sarees', name: 'Sarees' }], products: [product('kanjeevaram', 'Kanjeevaram Silk Saree', 'ZXS-10')] })
  await sleep(5)
  await importCatalog(db, catalog.id, { categories: [{ slug: 'sarees', name: 'Sarees' }], products: [product('banarasi', 'Banarasi Silk Saree', 'ZXS-100')] })
  for (const p of await db.query.products.findMany({ where: (p, { eq }) => eq(p.catalogId, catalog.id) })) products[p.sku] = p.id
})
after(() => t.close())

describe('orders are found', () => {
  test('by part of the order number, in any case', async () => {
    const part = ashaOrder.orderNumber.slice(3, 7).toLowerCase()
    assert.ok(ids(await hits(part), 'ORDER').includes(ashaOrder.id), part)
    const whole = await hits(ashaOrder.orderNumber.toLowerCase())
    assert.deepEqual(whole[0], { ...whole[0], type: 'ORDER', id: ashaOrder.id, title: ashaOrder.orderNumber, exact: true })
  })

  test('by the AWB of one of its parcels, as an exact hit', async () => {
    const found = await hits(awb)
    assert.deepEqual(ids(found, 'ORDER'), [ashaOrder.id])
    assert.equal(found[0]!.exact, true)
    assert.deepEqual(ids(await hits(awb.slice(0, -1))), [], 'an AWB is matched whole')
  })

  test('by the shipping phone as people write it: +91 98765 43210, 098765 43210, 9876543210', async () => {
    for (const written of ['+91 98765 43210', '098765 43210', '9876543210', '98765-43210']) {
      const found = await hits(written)
      assert.deepEqual(ids(found, 'ORDER'), [ashaOrder.id], written)
      assert.equal(found[0]!.exact, true, written)
    }
  })

  test('by the last digits of the shipping phone (5 here, 4 at least)', async () => {
    const found = await hits('43210')
    assert.deepEqual(ids(found, 'ORDER'), [ashaOrder.id])
    assert.equal(found[0]!.exact, false)
    assert.ok(ids(await hits('3210'), 'ORDER').includes(ashaOrder.id))
  })

  test('by the alternate phone and by the account phone, whole or by the last digits', async () => {
    for (const written of ['+91 97000 11122', '11122', '+91 98123 45670', '098123 45670', '45670']) {
      assert.deepEqual(ids(await hits(written), 'ORDER'), [ashaOrder.id], written)
    }
  })

  test("by part of the customer's name, in any case, and by the e-mail", async () => {
    assert.deepEqual(ids(await hits('asha'), 'ORDER'), [ashaOrder.id])
    assert.deepEqual(ids(await hits('VERMA'), 'ORDER'), [ashaOrder.id])
    assert.deepEqual(ids(await hits('asha.verma@example.com'), 'ORDER'), [ashaOrder.id])
  })

  test("another partner's order is found too: the back office sees every partner", async () => {
    const found = await hits('kulkarni')
    assert.deepEqual(ids(found, 'ORDER'), [raviOrder.id])
    const hit = found.find((h) => h.type === 'ORDER')!
    assert.equal(hit.partnerId, other.partner.partnerId)
    assert.equal(hit.title, raviOrder.orderNumber)
    assert.match(hit.subtitle, /Ravi Kulkarni/)
    assert.equal(hit.amount, raviOrder.totalAmount)
  })

  test('the order list finds alike: last digits, the account phone, the name and the e-mail; its order id and number as before', async () => {
    const list = async (search: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders?search=${encodeURIComponent(search)}`, headers: { authorization: `Bearer ${support}` } })
      assert.equal(res.statusCode, 200, res.body)
      return res.json().data.map((o: { id: string }) => o.id)
    }
    for (const search of ['43210', '11122', '+91 98123 45670', 'Asha', 'asha.verma@example.com', awb, ashaOrder.id, ashaOrder.orderNumber.slice(3, 9)]) {
      assert.deepEqual(await list(search), [ashaOrder.id], search)
    }
    assert.deepEqual(await list('kulkarni'), [raviOrder.id])
  })
})

describe('customers and products are found', () => {
  test('a customer by part of the name, the phone in any form or its last digits, and the e-mail', async () => {
    for (const q of ['asha', 'Asha Ver', '+91 98123 45670', '9812345670', '45670', 'asha.verma@', 'ASHA.VERMA@EXAMPLE.COM']) {
      assert.deepEqual(ids(await hits(q), 'CUSTOMER'), [asha.userId], q)
    }
    const [hit] = (await hits('9812345670')).filter((h) => h.type === 'CUSTOMER')
    assert.deepEqual(hit, { type: 'CUSTOMER', id: asha.userId, title: 'Asha Verma', subtitle: '9812345670 · asha.verma@example.com', exact: true, status: 'ACTIVE', amount: null, partnerId: shop.partner.partnerId, createdAt: hit!.createdAt })
    assert.deepEqual(ids(await hits('ravi'), 'CUSTOMER'), [ravi.userId], "another partner's customer")
  })

  test('a product by the beginning of its SKU, the whole SKU first, and by part of its name', async () => {
    assert.deepEqual(ids(await hits('zxs-1'), 'PRODUCT'), [products['ZXS-100'], products['ZXS-10']], 'newest first')
    const bySku = await hits('ZXS-10')
    assert.deepEqual(ids(bySku, 'PRODUCT'), [products['ZXS-10'], products['ZXS-100']], 'the exact SKU before the newer one')
    assert.deepEqual(bySku.map((h) => h.exact), [true, false])
    assert.deepEqual(ids(await hits('XS-10'), 'PRODUCT'), [], 'a SKU by its beginning only')
    assert.deepEqual(ids(await hits('silk sar'), 'PRODUCT'), [products['ZXS-100'], products['ZXS-10']])
    const [banarasi] = await hits('banarasi')
    assert.deepEqual(banarasi, { type: 'PRODUCT', id: products['ZXS-100'], title: 'Banarasi Silk Saree', subtitle: 'SKU ZXS-100 · Weaves · 3 in stock', exact: false, status: 'ACTIVE', amount: '4999.00', partnerId: null, createdAt: banarasi!.createdAt })
  })
})

describe('who may search, and what', () => {
  test('a CATALOG admin is refused 403, a missing token 401', async () => {
    assert.equal((await search('q=asha', catalogAdmin)).statusCode, 403)
    assert.equal((await search('q=asha', null)).statusCode, 401)
  })

  test('q of 1 or 101 characters, blank or missing is refused 400 with the error body', async () => {
    for (const query of ['q=a', `q=${'a'.repeat(101)}`, 'q=%20%20%20', 'q=%20a%20', '']) {
      const res = await search(query)
      assert.equal(res.statusCode, 400, query)
      assert.equal(res.json().statusCode, 400)
      assert.match(JSON.stringify(res.json().message), /q/, query)
    }
    assert.equal((await search(`q=${'a'.repeat(100)}`)).statusCode, 200)
    assert.equal((await search(`q=${encodeURIComponent("%_'\\")}`)).json().meta.total, 0, 'LIKE operators are taken literally')
  })

  test('pages of 2 go through every hit once, in one order', async () => {
    for (const n of [1, 2, 3, 4, 5]) await givenCustomer(t.app, other.partner, { name: `Pagewise Person ${n}` })
    const everything = await hits('pagewise')
    assert.equal(everything.length, 5)
    const seen: string[] = []
    for (let page = 1; page <= 3; page++) {
      const res = (await search(`q=pagewise&limit=2&page=${page}`)).json()
      assert.deepEqual(res.meta, { total: 5, page, limit: 2, totalPages: 3 })
      seen.push(...res.data.map((h: Hit) => h.id))
    }
    assert.deepEqual(seen, ids(everything), 'the same order, no duplicates, none missing')
    assert.equal(new Set(seen).size, 5)
    assert.deepEqual((await search('q=pagewise&limit=2&page=4')).json().data, [])
  })
})
