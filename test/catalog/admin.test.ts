import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import pino from 'pino'
import { buildApp } from '../../src/app.ts'
import { closeRedis, openRedis } from '../../src/db/redis.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenCustomer, givenAdminToken, givenPartner, type PartnerFixture } from '../helpers/factories.ts'
import { REDIS_URL, unlessMachineHas } from '../helpers/machine-services.ts'

// The cache in Redis, as on several nodes; in process on a machine without Redis.
const noRedis = await unlessMachineHas('redis')
let t: TestApp
let token: string
let supportToken: string
let catalogId: string
let partner: PartnerFixture

const login = (email: string, role: 'ADMIN' | 'SUPPORT' | 'CATALOG') => givenAdminToken(t.app, t.deps, email, role)

const admin = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method,
    url: `/api/v1/admin${url}`,
    headers: { authorization: `Bearer ${token}`, ...headers },
    ...(payload === undefined ? {} : { payload: payload as string }),
  })
const publicGet = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { 'x-api-key': partner.apiKey } })

before(async () => {
  t = await createTestApp(noRedis ? {} : { redisUrl: REDIS_URL })
  token = await login('catalog@example.com', 'CATALOG')
  supportToken = await login('support@example.com', 'SUPPORT')
  catalogId = (await admin('POST', '/catalogs', { name: 'Admin test catalog' })).json().data.id
  partner = await givenPartner(t.deps, 'Admin test partner', catalogId)
})
after(() => t.close())

describe('roles', () => {
  test('SUPPORT is refused with 403, a customer token and no token with 401', async () => {
    const support = await t.app.inject({ method: 'GET', url: '/api/v1/admin/catalogs', headers: { authorization: `Bearer ${supportToken}` } })
    assert.equal(support.statusCode, 403)
    const customer = await givenCustomer(t.app, partner)
    const asCustomer = await t.app.inject({ method: 'GET', url: '/api/v1/admin/catalogs', headers: { authorization: `Bearer ${customer.accessToken}` } })
    assert.equal(asCustomer.statusCode, 401)
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/admin/catalogs' })).statusCode, 401)
  })
})

describe('categories and products', () => {
  let audioId: string
  let productId: string

  test('create a category tree and a product; the public API sees them', async () => {
    const electronics = await admin('POST', `/catalogs/${catalogId}/categories`, { name: 'Electronics', slug: 'electronics' })
    assert.equal(electronics.statusCode, 201)
    const audio = await admin('POST', `/catalogs/${catalogId}/categories`, { name: 'Audio', slug: 'audio', parentId: electronics.json().data.id })
    audioId = audio.json().data.id
    const created = await admin('POST', `/catalogs/${catalogId}/products`, {
      name: 'boAt Rockerz 255 Neckband',
      slug: 'boat-rockerz-255',
      brand: 'boAt',
      sku: 'BOAT-255',
      categoryId: audioId,
      sellingPrice: '999',
      mrp: 2990,
      stock: 10,
      images: ['https://cdn.example.com/boat-255.jpg'],
    })
    assert.equal(created.statusCode, 201, created.body)
    const product = created.json().data
    productId = product.id
    assert.equal(product.sellingPrice, '999.00')
    assert.equal(product.mrp, '2990.00')
    const tree = (await publicGet('/categories')).json().data
    assert.equal(tree[0].children[0].slug, 'audio')
    const found = (await publicGet('/search?q=rockerz&type=products')).json().data.products
    assert.equal(found[0]?.slug, 'boat-rockerz-255')
  })

  test('bad input: unknown fields, bad money, selling above MRP, foreign category, duplicate slug', async () => {
    const bad = await admin('POST', `/catalogs/${catalogId}/products`, { name: 'X', slug: 'Bad Slug', brand: 'B', sku: 'S', categoryId: audioId, sellingPrice: '9.999', mrp: true, colour: 'red' })
    assert.equal(bad.statusCode, 400)
    assert.deepEqual([...bad.json().message].sort(), [
      'mrp must be an amount with at most two decimals',
      'property colour should not exist',
      'sellingPrice must be an amount with at most two decimals',
      'slug must be lower-case words joined by hyphens',
    ])
    const above = await admin('POST', `/catalogs/${catalogId}/products`, { name: 'X', slug: 'x', brand: 'B', sku: 'S', categoryId: audioId, sellingPrice: '10', mrp: '9' })
    assert.equal(above.statusCode, 400)
    assert.equal(above.json().message, 'sellingPrice must not be greater than mrp')
    const foreign = await admin('POST', `/catalogs/${catalogId}/products`, { name: 'X', slug: 'x', brand: 'B', sku: 'S', categoryId: 'ctg_nope', sellingPrice: '1', mrp: '1' })
    assert.equal(foreign.statusCode, 400)
    const duplicate = await admin('POST', `/catalogs/${catalogId}/products`, { name: 'X', slug: 'boat-rockerz-255', brand: 'B', sku: 'OTHER', categoryId: audioId, sellingPrice: '1', mrp: '1' })
    assert.equal(duplicate.statusCode, 409)
    assert.equal((await admin('PATCH', '/products/prd_unknown', { stock: 1 })).statusCode, 404)
  })

  test('a write is visible to the next read at once (the read cache is invalidated)', async () => {
    const before = (await publicGet('/products/boat-rockerz-255')).json().data
    assert.equal(before.sellingPrice, '999.00')
    await publicGet('/products?limit=10')
    const patched = await admin('PATCH', `/products/${productId}`, { sellingPrice: '899.50', stock: 25 })
    assert.equal(patched.statusCode, 200)
    assert.equal((await publicGet('/products/boat-rockerz-255')).json().data.sellingPrice, '899.50')
    assert.equal((await publicGet('/products?limit=10')).json().data[0].stock, 25)
  })

  test('deactivating hides a product from list and search but not from its slug', async () => {
    await admin('PATCH', `/products/${productId}`, { isActive: false })
    assert.equal((await publicGet('/products')).json().meta.total, 0)
    assert.equal((await publicGet('/search?q=rockerz&type=products')).json().data.products.length, 0)
    assert.equal((await publicGet('/products/boat-rockerz-255')).json().data.isActive, false)
    await admin('PATCH', `/products/${productId}`, { isActive: true })
    assert.equal((await publicGet('/products')).json().meta.total, 1)
  })

  test('stock adjusts by a delta and never goes below zero', async () => {
    const up = await admin('POST', `/products/${productId}/stock`, { delta: 5 })
    assert.equal(up.json().data.stock, 30)
    const tooMuch = await admin('POST', `/products/${productId}/stock`, { delta: -31 })
    assert.equal(tooMuch.statusCode, 409)
    assert.equal((await admin('POST', `/products/${productId}/stock`, { delta: -30 })).json().data.stock, 0)
    assert.equal((await admin('POST', `/products/${productId}/stock`, { delta: '1' })).statusCode, 400)
  })

  test('renaming a category re-indexes search; a category cannot move under its own descendant', async () => {
    const tree = (await admin('GET', `/catalogs/${catalogId}/categories`)).json().data
    const electronics = tree.find((c: { slug: string }) => c.slug === 'electronics')
    await admin('PATCH', `/categories/${audioId}`, { name: 'Neckbands' })
    const hit = (await publicGet('/search?q=neckbands&type=products')).json().data.products
    assert.equal(hit[0]?.slug, 'boat-rockerz-255')
    const cycle = await admin('PATCH', `/categories/${electronics.id}`, { parentId: audioId })
    assert.equal(cycle.statusCode, 409)
    await admin('PATCH', `/categories/${audioId}`, { isActive: false })
    assert.deepEqual((await publicGet('/categories')).json().data[0].children, [])
  })

  test('one category reads by its id, inactive included, as the list shows it; an unknown id is 404', async () => {
    const inList = (await admin('GET', `/catalogs/${catalogId}/categories`)).json().data.find((c: { id: string }) => c.id === audioId)
    await admin('PATCH', `/categories/${audioId}`, { isActive: false })
    const one = await admin('GET', `/categories/${audioId}`)
    assert.equal(one.statusCode, 200, one.body)
    assert.deepEqual(one.json().data, { ...inList, isActive: false, updatedAt: one.json().data.updatedAt })
    const missing = await admin('GET', '/categories/ctg_missing')
    assert.equal(missing.statusCode, 404)
    assert.equal(missing.json().message, 'Category not found')
  })
})

describe('bulk import', () => {
  test('JSON import creates then updates by slug', async () => {
    const body = {
      categories: [{ slug: 'grocery', name: 'Grocery' }, { slug: 'atta', name: 'Atta & Flours', parentSlug: 'grocery' }],
      products: [
        { slug: 'aashirvaad-atta-5kg', name: 'Aashirvaad Shudh Chakki Atta 5 kg', brand: 'Aashirvaad', sku: 'AASH-5', categorySlug: 'atta', sellingPrice: '289.00', mrp: '320.00', stock: 50 },
      ],
    }
    const first = await admin('POST', `/catalogs/${catalogId}/import`, body)
    assert.equal(first.statusCode, 200)
    assert.deepEqual(first.json().data, { categories: { created: 2, updated: 0 }, products: { created: 1, updated: 0 } })
    body.products[0]!.sellingPrice = '279.00'
    const second = await admin('POST', `/catalogs/${catalogId}/import`, body)
    assert.deepEqual(second.json().data, { categories: { created: 0, updated: 2 }, products: { created: 0, updated: 1 } })
    assert.equal((await publicGet('/products/aashirvaad-atta-5kg')).json().data.sellingPrice, '279.00')
  })

  test('CSV import with quoted fields', async () => {
    const csv = [
      'slug,name,brand,sku,categorySlug,sellingPrice,mrp,stock,images,description',
      'fortune-besan-1kg,"Fortune Besan, 1 kg",Fortune,FOR-BES-1,atta,95.00,110.00,20,https://cdn.example.com/a.jpg|https://cdn.example.com/b.jpg,"Made from ""desi"" chana"',
    ].join('\n')
    const res = await admin('POST', `/catalogs/${catalogId}/import`, csv, { 'content-type': 'text/csv' })
    assert.equal(res.statusCode, 200, res.body)
    const product = (await publicGet('/products/fortune-besan-1kg')).json().data
    assert.equal(product.name, 'Fortune Besan, 1 kg')
    assert.equal(product.images.length, 2)
  })

  test('an import cannot put a category under itself, and null rows are refused', async () => {
    const loop = await admin('POST', `/catalogs/${catalogId}/import`, { categories: [{ slug: 'grocery', name: 'Grocery', parentSlug: 'atta' }] })
    assert.equal(loop.statusCode, 400)
    assert.deepEqual(loop.json().message, ['categories[0]: parentSlug "atta" would put the category under itself'])
    const nulls = await admin('POST', `/catalogs/${catalogId}/import`, { categories: [null], products: [null] })
    assert.equal(nulls.statusCode, 400)
    assert.deepEqual(nulls.json().message, ['categories[0]: must be an object', 'products[0]: must be an object'])
  })

  test('when isActive is not a boolean (object, "yes", 1, null, CSV "yes"), then 400 naming each bad row and nothing is imported', async () => {
    const before = (await publicGet('/products?limit=100')).json().meta.total
    const row = (i: number, isActive: unknown) => ({ slug: `flag-${i}`, name: 'Flag', brand: 'B', sku: `FL-${i}`, categorySlug: 'atta', sellingPrice: '10', mrp: '10', isActive })
    const res = await admin('POST', `/catalogs/${catalogId}/import`, {
      categories: [{ slug: 'flags', name: 'Flags', isActive: 'yes' }],
      products: [row(0, { a: 1 }), row(1, 'yes'), row(2, 1), row(3, null), row(4, true), row(5, false)],
    })
    assert.equal(res.statusCode, 400, res.body)
    assert.deepEqual(res.json().message, [
      'categories[0]: isActive must be true or false',
      'products[0]: isActive must be true or false',
      'products[1]: isActive must be true or false',
      'products[2]: isActive must be true or false',
      'products[3]: isActive must be true or false',
    ])
    const csv = ['slug,name,brand,sku,categorySlug,sellingPrice,mrp,isActive', 'flag-csv,Flag,B,FL-C,atta,10,10,yes', 'flag-csv-2,Flag,B,FL-C2,atta,10,10,false'].join('\n')
    const fromCsv = await admin('POST', `/catalogs/${catalogId}/import`, csv, { 'content-type': 'text/csv' })
    assert.equal(fromCsv.statusCode, 400, fromCsv.body)
    assert.deepEqual(fromCsv.json().message, ['line 2: isActive must be true or false'])
    assert.equal((await publicGet('/products?limit=100')).json().meta.total, before, 'nothing was imported')
  })

  test('a CSV body is read strictly, as the command line reads a file: an unknown or missing column is refused on line 1, problems name their line', async () => {
    const before = (await publicGet('/products?limit=100')).json().meta.total
    const unknown = await admin('POST', `/catalogs/${catalogId}/import`, 'slug,name,brand,sku,categorySlug,sellingPrice,mrp,colour\nred-flag,Flag,B,RF-1,atta,10,10,red', { 'content-type': 'text/csv' })
    assert.equal(unknown.statusCode, 400, unknown.body)
    assert.match(unknown.json().message[0], /^line 1: column colour should not exist/)
    const missing = await admin('POST', `/catalogs/${catalogId}/import`, 'slug,name,brand,categorySlug,sellingPrice,mrp\nred-flag,Flag,B,atta,10,10', { 'content-type': 'text/csv' })
    assert.equal(missing.statusCode, 400, missing.body)
    assert.deepEqual(missing.json().message, ['line 1: column sku is missing'])
    const quoted = 'slug,name,brand,sku,categorySlug,sellingPrice,mrp\nok-flag,Flag,B,OK-1,atta,10,10\n"multi-line","Flag\nTwo",B,ML-1,atta,10,20000\nbad-flag,Flag,B,BF-1,atta,30,10'
    const lines = await admin('POST', `/catalogs/${catalogId}/import`, quoted, { 'content-type': 'text/csv' })
    assert.equal(lines.statusCode, 400, lines.body)
    assert.deepEqual(lines.json().message, ['line 5: sellingPrice must not be greater than mrp'], 'the quoted newline counts as a line')
    assert.equal((await publicGet('/products?limit=100')).json().meta.total, before, 'nothing was imported')
  })

  test('any bad row rejects the whole import and reports every bad row', async () => {
    const before = (await publicGet('/products?limit=100')).json().meta.total
    const res = await admin('POST', `/catalogs/${catalogId}/import`, {
      products: [
        { slug: 'good-one', name: 'Good', brand: 'B', sku: 'G-1', categorySlug: 'atta', sellingPrice: '10', mrp: '10' },
        { slug: 'Bad Slug', name: '', brand: 'B', sku: 'G-2', categorySlug: 'nowhere', sellingPrice: 'ten', mrp: '10' },
        { slug: 'good-one', name: 'Dup', brand: 'B', sku: 'G-1', categorySlug: 'atta', sellingPrice: '20', mrp: '10' },
      ],
    })
    assert.equal(res.statusCode, 400)
    const messages = res.json().message as string[]
    assert.ok(messages.includes('products[1]: slug must be lower-case words joined by hyphens'))
    assert.ok(messages.includes('products[1]: categorySlug "nowhere" does not exist'))
    assert.ok(messages.includes('products[1]: sellingPrice must be an amount with at most two decimals'))
    assert.ok(messages.includes('products[2]: duplicate slug "good-one"'))
    assert.ok(messages.includes('products[2]: sellingPrice must not be greater than mrp'))
    assert.equal((await publicGet('/products?limit=100')).json().meta.total, before, 'nothing was imported')
  })
})

describe('bulk import of a large file with problems', () => {
  test('when more than 1,000 problems, then 400 lists the first 1,000, each naming its row, and one line with the rest by kind; nothing is imported', async () => {
    const before = (await publicGet('/products?limit=100')).json().meta.total
    const products = Array.from({ length: 1100 }, (_, i) => ({ slug: `many-${i}`, name: 'N'.repeat(201), sku: i < 5 ? '' : `MANY-${i}`, categorySlug: 'atta', sellingPrice: '10', mrp: '10' }))
    const res = await admin('POST', `/catalogs/${catalogId}/import`, { products })
    assert.equal(res.statusCode, 400, res.body)
    const message = res.json().message as string[]
    assert.equal(message.length, 1001)
    assert.deepEqual(message.slice(0, 3), ['products[0]: name must be at most 200 characters, got 201', 'products[0]: sku is required', 'products[1]: name must be at most 200 characters, got 201'])
    assert.ok(message.slice(0, 1000).every((m) => /^products\[\d+\]: /.test(m)))
    assert.equal(message[1000], '…and 105 more problems, 1105 in all (missing sku: 5, name too long: 1100)')
    assert.equal((await publicGet('/products?limit=100')).json().meta.total, before, 'nothing was imported')
  })

  test('a product without a brand is imported with brand ""', async () => {
    const res = await admin('POST', `/catalogs/${catalogId}/import`, { products: [{ slug: 'loose-jaggery', name: 'Loose jaggery', sku: 'JAG-1', categorySlug: 'atta', sellingPrice: '60', mrp: '60' }] })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal((await publicGet('/products/loose-jaggery')).json().data.brand, '')
  })
})

describe('search analytics', () => {
  test('top queries and queries that found nothing', async () => {
    // No wait: the analytics endpoint writes the batched search log before it reads.
    for (const q of ['atta', 'atta', 'ATTA', 'unobtainium']) await publicGet(`/search?q=${q}&source=app`)
    const res = await admin('GET', `/catalogs/${catalogId}/search-analytics?days=1`)
    assert.equal(res.statusCode, 200)
    const data = res.json().data
    assert.equal(data.topQueries[0].query, 'atta')
    assert.equal(data.topQueries[0].searches, 3)
    const zero = data.zeroResultQueries.map((q: { query: string }) => q.query)
    assert.ok(zero.includes('unobtainium'))
    assert.ok(!zero.includes('atta'))
  })
})

describe('several nodes sharing Redis', { skip: noRedis }, () => {
  test('a write on one node is seen by the next read on another', async () => {
    const logger = pino({ level: 'silent' })
    const redis = openRedis(REDIS_URL, logger)
    await new Promise((r) => (redis.status === 'ready' ? r(null) : redis.once('ready', r)))
    const second = await buildApp({ ...t.deps, redis })
    try {
      const read = () => second.inject({ method: 'GET', url: '/api/v1/products/aashirvaad-atta-5kg', headers: { 'x-api-key': partner.apiKey } })
      assert.equal((await read()).json().data.stock, 50)
      const product = (await read()).json().data
      await admin('PATCH', `/products/${product.id}`, { stock: 7 })
      assert.equal((await read()).json().data.stock, 7)
    } finally {
      await second.close()
      await closeRedis(redis)
    }
  })
})
