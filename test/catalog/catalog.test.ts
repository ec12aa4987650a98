import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createCatalog, importDemoCatalog } from '../../src/modules/catalog/index.ts'
import { type CatalogImport, importCatalog } from '../../src/modules/catalog/import.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenPartner, type PartnerFixture } from '../helpers/factories.ts'

let t: TestApp
let shop: PartnerFixture
let other: PartnerFixture
let demo: PartnerFixture

const fixture: CatalogImport = {
  categories: [
    { slug: 'fashion', name: 'Fashion', parentSlug: null, position: 2 },
    { slug: 'men', name: 'Men', parentSlug: 'fashion' },
    { slug: 'kurtas', name: 'Kurtas', parentSlug: 'men' },
    { slug: 'festive-kurtas', name: 'Festive Kurtas', parentSlug: 'kurtas' },
    { slug: 'electronics', name: 'Electronics', parentSlug: null, position: 1, image: 'https://cdn.example.com/e.jpg' },
    { slug: 'audio', name: 'Audio', parentSlug: 'electronics' },
    { slug: 'retired', name: 'Retired', parentSlug: 'electronics', isActive: false },
  ],
  products: [
    { slug: 'silk-festive-kurta', name: 'Silk Festive Kurta', brand: 'Manyavar', sku: 'MNY-1', categorySlug: 'festive-kurtas', sellingPrice: '2499', mrp: '2999.00', stock: 5 },
    { slug: 'cotton-kurta', name: '100% Cotton Kurta', brand: 'Fabindia', sku: 'fab-2', categorySlug: 'kurtas', sellingPrice: 999.5, mrp: 1299, stock: 0 },
    { slug: 'linen-shirt', name: 'linen_shirt special', brand: 'Allen Solly', sku: 'ALS-3', categorySlug: 'men', sellingPrice: '1499.00', mrp: '1999.00', stock: 3 },
    { slug: 'boat-rockerz-450', name: "boAt Rockerz 450 Wireless Headphones", brand: 'boAt', sku: 'BOAT-450', categorySlug: 'audio', sellingPrice: '1499.00', mrp: '3990.00', stock: 40 },
    { slug: 'boat-airdopes-141', name: 'boAt Airdopes 141 Earbuds', brand: 'BOAT', sku: 'boat-141', categorySlug: 'audio', sellingPrice: '1099.00', mrp: '4490.00', stock: 12 },
    { slug: 'sony-wh-1000xm5', name: 'Sony WH-1000XM5 Headphones', brand: 'Sony', sku: 'SONY-XM5', categorySlug: 'audio', sellingPrice: '29990.00', mrp: '34990.00', stock: 2 },
    { slug: 'jbl-tune-760', name: "JBL Tune 760NC O'Brien \\ Edition", brand: 'JBL', sku: 'JBL-760', categorySlug: 'audio', sellingPrice: '5999.00', mrp: '7999.00', stock: 7 },
    { slug: 'hidden-speaker', name: 'Hidden Speaker', brand: 'Sony', sku: 'SONY-HID', categorySlug: 'audio', sellingPrice: '999.00', mrp: '999.00', stock: 1, isActive: false },
  ],
}
const activeSlugs = fixture.products!.filter((p) => p.isActive !== false).map((p) => p.slug)

before(async () => {
  t = await createTestApp()
  const db = t.deps.database.db
  const shopCatalog = await createCatalog(db, 'Shop')
  await importCatalog(db, shopCatalog.id, fixture)
  shop = await givenPartner(t.deps, 'Shop partner', shopCatalog.id)
  const otherCatalog = await createCatalog(db, 'Other')
  await importCatalog(db, otherCatalog.id, {
    categories: [{ slug: 'secret', name: 'Secret Category' }],
    products: [{ slug: 'secret-headphones', name: 'Secret Headphones', brand: 'Sony', sku: 'S-1', categorySlug: 'secret', sellingPrice: '10', mrp: '10' }],
  })
  other = await givenPartner(t.deps, 'Other partner', otherCatalog.id)
  const demoCatalog = await createCatalog(db, 'Demo')
  await importDemoCatalog(db, demoCatalog.id)
  demo = await givenPartner(t.deps, 'Demo partner', demoCatalog.id)
})
after(() => t.close())

const get = (url: string, key = shop.apiKey) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { 'x-api-key': key } })
const listAll = async (query = '') => (await get(`/products?limit=100${query}`)).json()

describe('credentials', () => {
  test('every catalog route needs a valid x-api-key', async () => {
    for (const url of ['/categories', '/products', '/products/cotton-kurta', '/search?q=kurta']) {
      const missing = await t.app.inject({ method: 'GET', url: `/api/v1${url}` })
      assert.equal(missing.statusCode, 401)
      assert.equal(missing.json().message, 'Missing x-api-key header')
      const wrong = await get(url, 'ck_wrong')
      assert.equal(wrong.statusCode, 401)
      assert.equal(wrong.json().message, 'Invalid or inactive API key')
    }
  })
})

describe('GET /categories', () => {
  test('answers active top-level categories by position, each with its direct children', async () => {
    const res = await get('/categories')
    assert.equal(res.statusCode, 200)
    const data = res.json().data
    assert.deepEqual(data.map((c: { slug: string }) => c.slug), ['electronics', 'fashion'])
    const electronics = data[0]
    assert.deepEqual(Object.keys(electronics).sort(), ['children', 'id', 'name', 'parentId', 'slug'])
    assert.equal(electronics.parentId, null)
    assert.deepEqual(electronics.children.map((c: { slug: string }) => c.slug), ['audio'], 'inactive children are hidden')
    assert.deepEqual(Object.keys(electronics.children[0]).sort(), ['id', 'name', 'parentId', 'slug'])
    assert.equal(electronics.children[0].parentId, electronics.id)
  })

  test("another catalog's categories are invisible", async () => {
    const data = (await get('/categories', other.apiKey)).json().data
    assert.deepEqual(data.map((c: { slug: string }) => c.slug), ['secret'])
  })
})

describe('GET /products', () => {
  test("defaults: page 1, limit 20, newest first, active only, exactly the spec fields and the variants' additive ones (decision 0043)", async () => {
    const res = await get('/products')
    assert.equal(res.statusCode, 200)
    const body = res.json()
    assert.deepEqual(body.meta, { total: activeSlugs.length, page: 1, limit: 20, totalPages: 1 })
    assert.deepEqual(body.data.map((p: { slug: string }) => p.slug), [...activeSlugs].reverse())
    const kurta = body.data.find((p: { slug: string }) => p.slug === 'cotton-kurta')
    const SPEC_FIELDS = ['brand', 'categoryId', 'id', 'images', 'isActive', 'mrp', 'name', 'sellingPrice', 'sku', 'slug', 'stock']
    assert.deepEqual(Object.keys(kurta).sort(), [...SPEC_FIELDS, 'options', 'priceRange'].sort())
    assert.equal(kurta.sellingPrice, '999.50')
    assert.equal(kurta.mrp, '1299.00')
    assert.equal(kurta.stock, 0)
    assert.equal(kurta.isActive, true)
  })

  test('every sortBy in both orders matches an independent sort, ties broken by id', async () => {
    const all = (await listAll()).data as Record<string, string>[]
    const createdOrder = [...activeSlugs]
    for (const sortBy of ['createdAt', 'updatedAt', 'name', 'brand', 'sku']) {
      for (const sortOrder of ['asc', 'desc']) {
        const got = (await listAll(`&sortBy=${sortBy}&sortOrder=${sortOrder}`)).data.map((p: { slug: string }) => p.slug)
        let expected: string[]
        if (sortBy === 'createdAt' || sortBy === 'updatedAt') {
          expected = sortOrder === 'asc' ? createdOrder : [...createdOrder].reverse()
        } else {
          const key = (p: Record<string, string>) => p[sortBy]!.toLowerCase()
          const cmp = (a: Record<string, string>, b: Record<string, string>) =>
            key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id! < b.id! ? -1 : a.id! > b.id! ? 1 : 0
          expected = [...all].sort((a, b) => (sortOrder === 'asc' ? cmp(a, b) : cmp(b, a))).map((p) => p.slug!)
        }
        assert.deepEqual(got, expected, `${sortBy} ${sortOrder}`)
      }
    }
  })

  test('pages never repeat or skip items, and meta adds up', async () => {
    const seen: string[] = []
    for (let page = 1; page <= 3; page++) {
      const body = (await get(`/products?limit=3&page=${page}&sortBy=brand&sortOrder=asc`)).json()
      assert.deepEqual(body.meta, { total: 7, page, limit: 3, totalPages: 3 })
      seen.push(...body.data.map((p: { slug: string }) => p.slug))
    }
    assert.equal(seen.length, 7)
    assert.equal(new Set(seen).size, 7)
    const beyond = (await get('/products?limit=3&page=4')).json()
    assert.deepEqual(beyond.data, [])
    assert.equal(beyond.meta.total, 7)
  })

  test('categoryId includes descendants at any depth', async () => {
    const tree = (await get('/categories')).json().data
    const fashion = tree.find((c: { slug: string }) => c.slug === 'fashion')
    const slugs = (await listAll(`&categoryId=${fashion.id}`)).data.map((p: { slug: string }) => p.slug).sort()
    assert.deepEqual(slugs, ['cotton-kurta', 'linen-shirt', 'silk-festive-kurta'])
    assert.equal((await listAll('&categoryId=ctg_unknown')).meta.total, 0)
  })

  test('brand filters case-insensitively', async () => {
    const slugs = (await listAll('&brand=bOaT')).data.map((p: { slug: string }) => p.slug).sort()
    assert.deepEqual(slugs, ['boat-airdopes-141', 'boat-rockerz-450'])
  })

  test('search matches name or brand, partially and case-insensitively', async () => {
    assert.deepEqual((await listAll('&search=HEADPH')).data.map((p: { slug: string }) => p.slug).sort(), ['boat-rockerz-450', 'sony-wh-1000xm5'])
    assert.deepEqual((await listAll('&search=fabin')).data.map((p: { slug: string }) => p.slug), ['cotton-kurta'])
  })

  test('LIKE metacharacters and quotes in search match literally, never a 500', async () => {
    const cases: [string, string[]][] = [
      ['100%', ['cotton-kurta']],
      ['%', ['cotton-kurta']],
      ['_', ['linen-shirt']],
      ["o'brien", ['jbl-tune-760']],
      ['\\', ['jbl-tune-760']],
      ["'; drop table products; --", []],
    ]
    for (const [search, expected] of cases) {
      const res = await get(`/products?limit=100&search=${encodeURIComponent(search)}`)
      assert.equal(res.statusCode, 200, search)
      assert.deepEqual(res.json().data.map((p: { slug: string }) => p.slug), expected, search)
    }
  })

  test('limit 100 is accepted, 101 rejected; page and limit must be positive integers; enums are checked', async () => {
    assert.equal((await get('/products?limit=100')).statusCode, 200)
    const cases: [string, string][] = [
      ['limit=101', 'limit must not be greater than 100'],
      ['limit=0', 'limit must not be less than 1'],
      ['limit=-5', 'limit must not be less than 1'],
      ['page=0', 'page must not be less than 1'],
      ['page=abc', 'page must be an integer number'],
      ['limit=2.5', 'limit must be an integer number'],
      ['sortBy=price', 'sortBy must be one of the following values: createdAt, updatedAt, name, brand, sku'],
      ['sortOrder=up', 'sortOrder must be one of the following values: asc, desc'],
    ]
    for (const [query, message] of cases) {
      const res = await get(`/products?${query}`)
      assert.equal(res.statusCode, 400, query)
      assert.deepEqual(res.json().message, [message], query)
      assert.equal(res.json().path, '/api/v1/products')
    }
  })

  test("another catalog's products are invisible", async () => {
    const data = (await get('/products?limit=100', other.apiKey)).json().data
    assert.deepEqual(data.map((p: { slug: string }) => p.slug), ['secret-headphones'])
  })
})

describe('GET /products/{slug}', () => {
  test('answers the product; an inactive one with isActive false', async () => {
    const res = await get('/products/silk-festive-kurta')
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().data.name, 'Silk Festive Kurta')
    assert.equal(res.json().data.sellingPrice, '2499.00')
    const hidden = await get('/products/hidden-speaker')
    assert.equal(hidden.statusCode, 200)
    assert.equal(hidden.json().data.isActive, false)
  })

  test('a slug of another catalog or none answers 404 in the error body', async () => {
    for (const slug of ['secret-headphones', 'no-such-thing']) {
      const res = await get(`/products/${slug}`)
      assert.equal(res.statusCode, 404)
      assert.equal(res.json().message, 'Product not found')
      assert.equal(res.json().path, `/api/v1/products/${slug}`)
    }
  })
})

describe('GET /search', () => {
  test('answers products and categories with exactly the spec fields, sorted by score; topScore is the first score', async () => {
    const res = await get('/search?q=headphones&source=web')
    assert.equal(res.statusCode, 200)
    const data = res.json().data
    assert.deepEqual(Object.keys(data).sort(), ['categories', 'products', 'topScore', 'totalResults'])
    assert.ok(data.products.length >= 2)
    for (const p of data.products) {
      assert.deepEqual(Object.keys(p).sort(), ['brand', 'categoryId', 'id', 'images', 'name', 'score', 'sellingPrice', 'slug'])
      assert.ok(p.score > 0 && p.score < 1)
    }
    const scores = data.products.map((p: { score: number }) => p.score)
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a))
    assert.equal(data.topScore, Math.max(scores[0], data.categories[0]?.score ?? 0))
    assert.equal(data.totalResults, data.products.length + data.categories.length)
    assert.ok(!data.products.some((p: { slug: string }) => p.slug === 'secret-headphones'), 'other catalog invisible')
  })

  test('categories carry id, slug, name, image and score; type filters the lists', async () => {
    const data = (await get('/search?q=audio&type=categories')).json().data
    assert.deepEqual(data.products, [])
    assert.equal(data.categories[0].slug, 'audio')
    assert.deepEqual(Object.keys(data.categories[0]).sort(), ['id', 'image', 'name', 'score', 'slug'])
    const productsOnly = (await get('/search?q=audio&type=products')).json().data
    assert.deepEqual(productsOnly.categories, [])
  })

  test('inactive products are not found', async () => {
    const data = (await get('/search?q=hidden%20speaker&type=products')).json().data
    assert.ok(!data.products.some((p: { slug: string }) => p.slug === 'hidden-speaker'))
  })

  test('typos and prefixes find the right product in the demo catalog', async () => {
    const top = async (q: string) => (await get(`/search?q=${encodeURIComponent(q)}&type=products`, demo.apiKey)).json().data.products[0]
    assert.equal((await top('samsng')).brand, 'Samsung')
    assert.match((await top('headphnes')).name, /headphone/i)
    assert.match((await top('iph')).name, /iphone/i)
    assert.match((await top('prestge cooker')).name, /prestige.*cooker/i)
    assert.match((await top('kurta')).name, /kurta/i)
    assert.match((await top('atta')).name, /atta/i)
  })

  test('limit defaults to 20, accepts 50 and rejects 51; q is required and bounded', async () => {
    assert.ok((await get('/search?q=a', demo.apiKey)).json().data.products.length <= 20)
    assert.equal((await get('/search?q=a&limit=50', demo.apiKey)).statusCode, 200)
    const cases: [string, string][] = [
      ['q=a&limit=51', 'limit must not be greater than 50'],
      ['limit=5', 'q should not be empty'],
      ['q=', 'q should not be empty'],
      [`q=${'x'.repeat(10_000)}`, 'q must be shorter than or equal to 200 characters'],
      ['q=a&type=everything', 'type must be one of the following values: products, categories, all'],
    ]
    for (const [query, message] of cases) {
      const res = await get(`/search?${query}`)
      assert.equal(res.statusCode, 400, query.slice(0, 40))
      assert.deepEqual(res.json().message, [message], query.slice(0, 40))
    }
    assert.equal((await get('/search?q=%20%20')).statusCode, 400)
  })

  test('tsquery and regex metacharacters answer 200 with a correct (possibly empty) result', async () => {
    for (const q of [':*', '&|!', "'", '\\', '%_', '(((', 'kurta:* & !', '.*', '<->']) {
      const res = await get(`/search?q=${encodeURIComponent(q)}`)
      assert.equal(res.statusCode, 200, q)
      const data = res.json().data
      assert.equal(data.totalResults, data.products.length + data.categories.length)
    }
    const kurta = (await get(`/search?q=${encodeURIComponent('kurta:* & !')}&type=products`)).json().data
    assert.ok(kurta.products.some((p: { slug: string }) => p.slug === 'cotton-kurta'))
  })

  test('every search is recorded with query, source, result count, top score and partner', async () => {
    await get('/search?q=zzqqxx%20nothing&source=app')
    // Searches are written in batches (within half a second): wait for the row, not for a time.
    const recorded = async () => (await t.deps.database.db.query.searchQueries.findMany()).find((r) => r.query === 'zzqqxx nothing')
    let row = await recorded()
    for (const deadline = Date.now() + 10_000; !row && Date.now() < deadline; row = await recorded()) await new Promise((r) => setTimeout(r, 25))
    assert.ok(row)
    assert.equal(row.source, 'app')
    assert.equal(row.resultCount, 0)
    assert.equal(row.topScore, 0)
    assert.equal(row.partnerId, shop.partnerId)
  })
})

describe('conditional requests', () => {
  test('an unchanged answer is 304 with no body for If-None-Match; another answer has another ETag', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/v1/products?limit=5', headers: { 'x-api-key': shop.apiKey } })
    const tag = first.headers.etag as string
    assert.match(tag, /^W\/"/)
    const again = await t.app.inject({ method: 'GET', url: '/api/v1/products?limit=5', headers: { 'x-api-key': shop.apiKey, 'if-none-match': tag } })
    assert.equal(again.statusCode, 304)
    assert.equal(again.body, '')
    const six = await t.app.inject({ method: "GET", url: "/api/v1/products?limit=6", headers: { 'x-api-key': shop.apiKey, 'if-none-match': tag } })
    assert.equal(six.statusCode, 200, "another answer, another tag")
    const stale = await t.app.inject({ method: 'GET', url: '/api/v1/products?limit=5', headers: { 'x-api-key': shop.apiKey, 'if-none-match': 'W/"stale"' } })
    assert.equal(stale.statusCode, 200)
    assert.equal(stale.headers.etag, tag)
  })

  test('If-None-Match matches weakly, within a list of tags, and as *', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/v1/categories', headers: { 'x-api-key': shop.apiKey } })
    const tag = first.headers.etag as string
    const strong = tag.replace(/^W\//, '')
    for (const ifNoneMatch of [strong, `W/"other", ${tag}`, `"a" , ${strong}`, '*']) {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/categories', headers: { 'x-api-key': shop.apiKey, 'if-none-match': ifNoneMatch } })
      assert.equal(res.statusCode, 304, ifNoneMatch)
      assert.equal(res.body, '')
    }
  })

  test('an error answer carries no ETag, and If-None-Match never turns it into a 304', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/products/no-such-product', headers: { 'x-api-key': shop.apiKey } })
    assert.equal(missing.statusCode, 404)
    assert.equal(missing.headers.etag, undefined)
    for (const ifNoneMatch of ['*', 'W/"anything"']) {
      const again = await t.app.inject({ method: 'GET', url: '/api/v1/products/no-such-product', headers: { 'x-api-key': shop.apiKey, 'if-none-match': ifNoneMatch } })
      assert.equal(again.statusCode, 404, ifNoneMatch)
      assert.equal(again.json().statusCode, 404)
    }
    const unauthenticated = await t.app.inject({ method: 'GET', url: '/api/v1/categories', headers: { 'if-none-match': '*' } })
    assert.equal(unauthenticated.statusCode, 401)
    assert.equal(unauthenticated.headers.etag, undefined)
  })
})
