// What a catalog import says about a file with problems, and what it writes: every problem counted
// by kind with no cap, limit messages that give the limit and the size, skipping the invalid rows
// (and the products of an invalid category row), and products without a brand. Real database.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { and, count, eq } from 'drizzle-orm'
import { AppError } from '../../src/lib/errors.ts'
import { createCatalog } from '../../src/modules/catalog/index.ts'
import { type CatalogImport, checkCatalogImport, importCatalog, problemReport, type ProductImportRow } from '../../src/modules/catalog/import.ts'
import { categories, products } from '../../src/modules/catalog/schema.sql.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenPartner, type PartnerFixture } from '../helpers/factories.ts'

let t: TestApp
let catalogId: string
let partner: PartnerFixture

before(async () => {
  t = await createTestApp()
  catalogId = (await createCatalog(t.deps.database.db, 'Import problems')).id
  await importCatalog(t.deps.database.db, catalogId, { categories: [{ slug: 'staples', name: 'Staples' }] })
  partner = await givenPartner(t.deps, 'Import problems partner', catalogId)
})
after(() => t.close())

const product = (key: string, fields: Partial<Record<keyof ProductImportRow, unknown>> = {}) =>
  ({ slug: `p-${key}`, name: `Product ${key}`, brand: 'Brand', sku: `SKU-${key}`, categorySlug: 'staples', sellingPrice: '10.00', mrp: '12.00', ...fields }) as ProductImportRow
const productCount = async () => (await t.deps.database.db.select({ n: count() }).from(products).where(eq(products.catalogId, catalogId)))[0]!.n
const check = (input: CatalogImport) => checkCatalogImport(t.deps.database.db, catalogId, input)

async function refusal(input: CatalogImport): Promise<AppError> {
  try {
    await importCatalog(t.deps.database.db, catalogId, input)
  } catch (err) {
    assert.ok(err instanceof AppError, String(err))
    return err
  }
  assert.fail('the import was accepted')
}

test('a file with many kinds of problems has every one counted by kind, far past 100; the first 1,000 are listed, nothing is written', async () => {
  const rows = [
    ...Array.from({ length: 1200 }, (_, i) => product(`long-${i}`, { name: 'N'.repeat(201 + (i % 50)) })),
    ...Array.from({ length: 250 }, (_, i) => product(`nosku-${i}`, { sku: '' })),
    ...Array.from({ length: 120 }, (_, i) => product(`price-${i}`, { sellingPrice: 'ten' })),
    ...Array.from({ length: 3 }, (_, i) => product(`brand-${i}`, { brand: 'B'.repeat(101) })),
    ...Array.from({ length: 40 }, (_, i) => product(`nowhere-${i}`, { categorySlug: 'nowhere' })),
    ...Array.from({ length: 500 }, (_, i) => product(`good-${i}`)),
    product('good-0', { sku: 'SKU-again-0' }),
    product('good-1', { sku: 'SKU-again-1' }),
  ]
  const before = await productCount()
  const report = problemReport(await check({ products: rows }))
  const byKind = { 'bad price': 120, 'brand too long': 3, 'duplicate slug': 2, 'missing sku': 250, 'name too long': 1200, 'unknown category': 40 }
  assert.deepEqual(report.problems.byKind, byKind)
  assert.equal(report.problems.total, 1615)
  assert.deepEqual(report.invalid, { categories: 0, products: 1615 })
  assert.deepEqual(report.checked, { categories: 0, products: rows.length })
  assert.equal(report.problems.first.length, 1000)
  assert.equal(report.problems.first[0], 'products[0]: name must be at most 200 characters, got 201')

  const refused = await refusal({ products: rows })
  assert.equal(refused.code, 'BAD_REQUEST')
  assert.equal(refused.message, 'The import has invalid rows; nothing was imported (1615 problems in 1615 rows: bad price: 120, brand too long: 3, duplicate slug: 2, missing sku: 250, name too long: 1200, unknown category: 40)')
  assert.equal(refused.details!.length, 1001, 'the first 1,000 problems and one line for the rest')
  assert.deepEqual(refused.details!.slice(0, 1000), report.problems.first)
  assert.equal(refused.details![1000], '…and 615 more problems, 1615 in all (bad price: 120, brand too long: 3, duplicate slug: 2, missing sku: 250, name too long: 1200, unknown category: 40)')
  assert.equal(await productCount(), before, 'nothing was written')
})

test('a limit is stated with the size found; an empty required field is said to be required; characters are counted, not UTF-16 units', async () => {
  const found = await check({
    categories: [{ slug: 'long-category', name: 'C'.repeat(121) }],
    products: [
      product('a', { name: 'N'.repeat(301) }),
      product('b', { description: 'D'.repeat(5123) }),
      product('c', { brand: 'B'.repeat(130), sku: 'S'.repeat(70) }),
      product('d', { slug: 'd'.repeat(201) }),
      product('e', { name: '', sku: '   ', categorySlug: '', sellingPrice: '', mrp: undefined }),
      product('f', { stock: -1, weightGrams: 0, images: Array.from({ length: 11 }, (_, i) => `https://cdn.example.com/${i}.jpg`) }),
      product('g', { stock: '12.5', images: ['ftp://cdn.example.com/a.jpg'] }),
      product('h', { name: '😀'.repeat(200) }),
      product('i', { name: '😀'.repeat(201) }),
    ],
  })
  assert.deepEqual(
    found.problems.map((p) => p.message),
    [
      'categories[0]: name must be at most 120 characters, got 121',
      'products[0]: name must be at most 200 characters, got 301',
      'products[1]: description must be at most 5000 characters, got 5123',
      'products[2]: brand must be at most 100 characters, got 130',
      'products[2]: sku must be at most 64 characters, got 70',
      `products[3]: slug must be at most 200 characters, got 201`,
      'products[4]: name is required',
      'products[4]: sku is required',
      'products[4]: categorySlug is required',
      'products[4]: sellingPrice is required',
      'products[4]: mrp is required',
      'products[5]: stock must be a whole number from 0 to 10000000, got -1',
      'products[5]: weightGrams must be a whole number from 1 to 1000000, got 0',
      'products[5]: images must be at most 10 URLs, got 11',
      'products[6]: stock must be a whole number from 0 to 10000000, got "12.5"',
      'products[6]: images must be http(s) URLs, got "ftp://cdn.example.com/a.jpg"',
      'products[8]: name must be at most 200 characters, got 201',
    ],
  )
  assert.deepEqual(
    found.problems.map((p) => p.kind),
    ['name too long', 'name too long', 'description too long', 'brand too long', 'sku too long', 'slug too long', 'missing name', 'missing sku', 'missing category', 'missing price', 'missing price', 'bad stock', 'bad weight', 'too many images', 'bad stock', 'bad image', 'name too long'],
  )
})

test('skipping invalid rows writes the valid ones and leaves out the invalid, with the products and children of an invalid category row', async () => {
  const before = await productCount()
  const { written, check: found } = await importCatalog(
    t.deps.database.db,
    catalogId,
    {
      categories: [
        { slug: 'oils', name: 'Oils' },
        { slug: 'spices', name: 'S'.repeat(121) },
        { slug: 'whole-spices', name: 'Whole spices', parentSlug: 'spices' },
      ],
      products: [
        product('mustard-oil', { categorySlug: 'oils' }),
        product('jeera', { categorySlug: 'whole-spices' }),
        product('haldi', { categorySlug: 'spices' }),
        product('no-sku', { sku: '' }),
        product('atta'),
      ],
    },
    { invalidRows: 'skip' },
  )
  assert.deepEqual(written, { categories: { created: 1, updated: 0 }, products: { created: 2, updated: 0 } })
  assert.deepEqual(
    [...found.invalidCategories],
    [
      [1, ['name must be at most 120 characters, got 121']],
      [2, ['parentSlug "spices" is a category row with problems']],
    ],
  )
  assert.deepEqual(
    [...found.invalidProducts],
    [
      [1, ['categorySlug "whole-spices" is a category row with problems']],
      [2, ['categorySlug "spices" is a category row with problems']],
      [3, ['sku is required']],
    ],
  )
  assert.equal(await productCount(), before + 2)
  const db = t.deps.database.db
  const slugs = (await db.select({ slug: categories.slug }).from(categories).where(eq(categories.catalogId, catalogId))).map((c) => c.slug).sort()
  assert.deepEqual(slugs, ['oils', 'staples'], 'the invalid category rows were not written')
  const written2 = await db.select({ slug: products.slug }).from(products).where(and(eq(products.catalogId, catalogId), eq(products.sku, 'SKU-atta')))
  assert.deepEqual(written2, [{ slug: 'p-atta' }])
})

test('a SKU another product of the catalog holds is a problem of the row, not a failed transaction', async () => {
  await importCatalog(t.deps.database.db, catalogId, { products: [product('holder', { sku: 'HELD-1' })] })
  const found = await check({ products: [product('taker', { sku: 'HELD-1' }), product('holder', { sku: 'HELD-1', name: 'Holder renamed' })] })
  assert.deepEqual(
    found.problems.map((p) => [p.kind, p.message]),
    [['duplicate sku', 'products[1]: duplicate sku "HELD-1"']],
    'the holder is in the file too, so the file is judged on its own: the second row repeats the SKU',
  )
  const alone = await check({ products: [product('taker', { sku: 'HELD-1' })] })
  assert.deepEqual(alone.problems.map((p) => [p.kind, p.message]), [['sku taken', 'products[0]: sku "HELD-1" belongs to another product of the catalog ("p-holder")']])
  const { written } = await importCatalog(t.deps.database.db, catalogId, { products: [product('taker', { sku: 'HELD-1' }), product('free', { sku: 'FREE-1' })] }, { invalidRows: 'skip' })
  assert.deepEqual(written.products, { created: 1, updated: 0 })
})

test('a product without a brand, or with an empty one, is stored with brand "" and is listed, answered and found by search', async () => {
  const { written } = await importCatalog(t.deps.database.db, catalogId, {
    products: [product('zorblax-loose-tea', { brand: undefined, name: 'Zorblax loose tea' }), product('zorblax-tea-bags', { brand: '  ', name: 'Zorblax tea bags' })],
  })
  assert.deepEqual(written.products, { created: 2, updated: 0 })
  const [row] = await t.deps.database.db
    .select({ brand: products.brand, searchText: products.searchText, searchVector: products.searchVector })
    .from(products)
    .where(and(eq(products.catalogId, catalogId), eq(products.slug, 'p-zorblax-loose-tea')))
  assert.equal(row!.brand, '')
  assert.match(row!.searchText, /^zorblax loose tea +staples$/)
  assert.ok(row!.searchVector, 'a search vector from the name and category')

  const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { 'x-api-key': partner.apiKey } })
  const one = await get('/products/p-zorblax-loose-tea')
  assert.equal(one.statusCode, 200, one.body)
  assert.equal(one.json().data.brand, '')
  const list = await get('/products?limit=100&sortBy=brand&sortOrder=asc')
  assert.equal(list.statusCode, 200, list.body)
  assert.deepEqual(
    list.json().data.filter((p: { brand: string }) => p.brand === '').map((p: { slug: string }) => p.slug).sort(),
    ['p-zorblax-loose-tea', 'p-zorblax-tea-bags'],
  )
  const search = await get('/search?q=zorblax&type=products')
  assert.equal(search.statusCode, 200, search.body)
  const hits = search.json().data.products as { slug: string; brand: string }[]
  assert.deepEqual(hits.map((h) => [h.slug, h.brand]).sort(), [['p-zorblax-loose-tea', ''], ['p-zorblax-tea-bags', '']])
})

test("a product's packed size is imported whole: set, kept when a row leaves it out, cleared by null; a partial or out-of-range one is a problem of the row", async () => {
  const size = async (key: string) => {
    const [row] = await t.deps.database.db
      .select({ length: products.lengthCm, breadth: products.breadthCm, height: products.heightCm })
      .from(products)
      .where(and(eq(products.catalogId, catalogId), eq(products.slug, `p-${key}`)))
    return row
  }
  await importCatalog(t.deps.database.db, catalogId, { products: [product('boxed', { dimensionsCm: { length: 40, breadth: 25, height: 10 } })] })
  assert.deepEqual(await size('boxed'), { length: 40, breadth: 25, height: 10 })
  await importCatalog(t.deps.database.db, catalogId, { products: [product('boxed', { name: 'Boxed, renamed' })] })
  assert.deepEqual(await size('boxed'), { length: 40, breadth: 25, height: 10 }, 'a row that leaves the size out keeps it')
  await importCatalog(t.deps.database.db, catalogId, { products: [product('boxed', { dimensionsCm: null })] })
  assert.deepEqual(await size('boxed'), { length: null, breadth: null, height: null })

  const found = await check({
    products: [
      product('half', { dimensionsCm: { length: 30, breadth: null, height: 5 } }),
      product('huge', { dimensionsCm: { length: 30, breadth: 501, height: 5 } }),
      product('text', { dimensionsCm: { length: 30, breadth: '20cm', height: 5 } }),
      product('extra', { dimensionsCm: { length: 30, breadth: 20, height: 5, depth: 2 } }),
      product('flat', { dimensionsCm: '30x20x5' }),
    ],
  })
  assert.deepEqual(
    found.problems.map((p) => [p.kind, p.message]),
    [
      ['bad dimensions', 'products[0]: dimensionsCm needs all three sides or none: breadth missing'],
      ['bad dimensions', 'products[1]: dimensionsCm breadth must be a whole number of centimetres from 1 to 500, got 501'],
      ['bad dimensions', 'products[2]: dimensionsCm breadth must be a whole number of centimetres from 1 to 500, got "20cm"'],
      ['bad dimensions', 'products[3]: dimensionsCm has no depth: its sides are length, breadth and height'],
      ['bad dimensions', 'products[4]: dimensionsCm must be {length, breadth, height} in whole centimetres, or null, got "30x20x5"'],
    ],
  )
})
