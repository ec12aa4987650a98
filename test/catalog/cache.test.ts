// The catalog answer cache (issue #20): keys made of the known parameters only, and a bound in
// bytes as well as entries. The app here has a 1 MiB cache so the bound is reached quickly.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createCatalog } from '../../src/modules/catalog/index.ts'
import { importCatalog } from '../../src/modules/catalog/import.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenPartner, type PartnerFixture } from '../helpers/factories.ts'

let t: TestApp
let shop: PartnerFixture
const MAX_BYTES = 1024 * 1024

before(async () => {
  t = await createTestApp({ env: { CATALOG_CACHE_MAX_MB: '1' } })
  const db = t.deps.database.db
  const catalog = await createCatalog(db, 'Cache shop')
  await importCatalog(db, catalog.id, {
    categories: [{ slug: 'kitchen', name: 'Kitchen' }],
    products: Array.from({ length: 120 }, (_, i) => ({
      slug: `pressure-cooker-${i}`,
      name: `Prestige Popular Pressure Cooker ${i} litre`,
      brand: 'Prestige',
      sku: `PRS-${i}`,
      categorySlug: 'kitchen',
      sellingPrice: `${1000 + i}.00`,
      mrp: '2500.00',
      stock: 10 + i,
      images: [`https://img.example/prestige/${i}.jpg`],
    })),
  })
  shop = await givenPartner(t.deps, 'Cache partner', catalog.id)
})
after(() => t.close())

const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { 'x-api-key': shop.apiKey } })
const entries = () => t.app.catalogCache.stats().entries

describe('catalog cache keys', () => {
  test('two product lists differing only in parameter order or spelt-out defaults share one cache entry', async () => {
    const first = await get('/products?limit=50&brand=Prestige')
    assert.equal(first.statusCode, 200)
    const held = entries()
    for (const url of [
      '/products?brand=Prestige&limit=50',
      '/products?limit=50&brand=Prestige&page=1',
      '/products?sortOrder=desc&brand=Prestige&sortBy=createdAt&page=1&limit=50',
      '/products?brand=%20Prestige%20&limit=50',
    ]) {
      const res = await get(url)
      assert.equal(res.statusCode, 200, url)
      assert.equal(res.body, first.body, url)
      assert.equal(entries(), held, `${url} added a cache entry`)
    }
    // Another value of a known parameter is another answer.
    assert.equal((await get('/products?limit=50&brand=Prestige&page=2')).statusCode, 200)
    assert.equal(entries(), held + 1)
  })

  test('unknown query parameters never add a cache entry, whether answered or refused', async () => {
    assert.equal((await get('/products?limit=100')).statusCode, 200)
    // The first parameter the list does not declare reads the catalog's option names (one entry a
    // catalog version: any such parameter is an option filter or refused); none after it adds one.
    assert.equal((await get('/products?limit=100&utm_first=1')).statusCode, 400)
    const held = entries()
    for (let n = 0; n < 50; n++) {
      const res = await get(`/products?limit=100&utm_x=${n}`)
      assert.ok(res.statusCode === 200 || res.statusCode === 400, res.body)
    }
    assert.equal(entries(), held)
  })
})

describe('catalog cache bound', () => {
  test('after many distinct valid filter combinations the cache stays under its byte bound and answers stay right', async () => {
    assert.equal(t.app.catalogCache.stats().maxBytes, MAX_BYTES)
    const sorts = ['createdAt', 'updatedAt', 'name', 'brand', 'sku']
    // Brand filters are case-insensitive: each spelling is a distinct key with the same 100 products.
    const spellings = Array.from({ length: 32 }, (_, mask) => [...'prest'].map((c, i) => (mask & (1 << i) ? c.toUpperCase() : c)).join('') + 'ige')
    let requests = 0
    for (const brand of spellings) {
      for (const sortBy of sorts) {
        for (const sortOrder of ['asc', 'desc']) {
          const res = await get(`/products?limit=100&brand=${brand}&sortBy=${sortBy}&sortOrder=${sortOrder}`)
          assert.equal(res.statusCode, 200)
          assert.equal(res.json().data.length, 100)
          requests++
          const { bytes, maxBytes } = t.app.catalogCache.stats()
          assert.ok(bytes <= maxBytes, `cache holds ${bytes} bytes, bound ${maxBytes}`)
        }
      }
    }
    // The answers held (about 25 kB each) could not all fit: the bound, not the entry count, decided.
    assert.ok(requests * 20_000 > MAX_BYTES)
    assert.ok(entries() < requests, `${entries()} entries after ${requests} distinct lists`)
    // And what is cached still answers right: a hit equals a fresh read of the same list.
    const again = await get('/products?limit=100&brand=PRESTige&sortBy=sku&sortOrder=asc')
    assert.deepEqual(again.json().data.map((p: { sku: string }) => p.sku).slice(0, 3), ['PRS-0', 'PRS-1', 'PRS-10'])
  })
})
