// Variants in the catalog import and export (decision 0043, step 4): JSON and CSV rows of products
// with options, Shopify's product CSV read as it is (its unused columns named) and written back,
// round trips that give the same file, and the grid's rules as problems naming the row and field.
// The real app over a real database: the back office's routes and `commerce catalog` in this process.
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { main } from '../../src/cli/index.ts'
import { createCatalog } from '../../src/modules/catalog/index.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenAdminToken } from '../helpers/factories.ts'

let t: TestApp
let admin: string
const dir = mkdtempSync(join(tmpdir(), 'commerce-import-variants-'))

before(async () => {
  t = await createTestApp()
  admin = await givenAdminToken(t.app, t.deps, 'import-variants@example.com', 'CATALOG')
})
after(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

const CATEGORIES = [
  { slug: 'ethnic', name: 'Ethnic wear', parentSlug: null, image: null, position: 0, isActive: true, hsnCode: '6211', gstRateBps: 500 },
  { slug: 'kurtas', name: 'Kurtas', parentSlug: 'ethnic', image: null, position: 0, isActive: true, hsnCode: null, gstRateBps: null },
]

/** A new catalog holding the categories above (the CSV formats carry products only). */
async function givenCatalog(name: string): Promise<string> {
  const catalogId = (await createCatalog(t.deps.database.db, name)).id
  const res = await importJson(catalogId, { categories: CATEGORIES })
  assert.equal(res.statusCode, 200, res.body)
  return catalogId
}
const importJson = (catalogId: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/api/v1/admin/catalogs/${catalogId}/import`, headers: { authorization: `Bearer ${admin}` }, payload })
const importCsv = (catalogId: string, csv: string) =>
  t.app.inject({ method: 'POST', url: `/api/v1/admin/catalogs/${catalogId}/import`, headers: { authorization: `Bearer ${admin}`, 'content-type': 'text/csv' }, payload: csv })
async function exported(catalogId: string, format: 'json' | 'csv' | 'shopify'): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/admin/catalogs/${catalogId}/export?format=${format}`, headers: { authorization: `Bearer ${admin}` } })
  assert.equal(res.statusCode, 200, res.body)
  assert.match(res.headers['content-type'] as string, format === 'json' ? /^application\/json/ : /^text\/csv/)
  return res.body
}
const product = async (catalogId: string, slug: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/admin/catalogs/${catalogId}/products?limit=100`, headers: { authorization: `Bearer ${admin}` } })
  return res.json().data.find((p: { slug: string }) => p.slug === slug)
}

const KURTA = {
  slug: 'cotton-kurta', name: 'Cotton Kurta', brand: 'Fabindia', categorySlug: 'kurtas', images: ['https://cdn.example.com/kurta.jpg'], description: 'Hand-block printed',
  weightGrams: 300, dimensionsCm: null, isActive: true, hsnCode: '6211', gstRateBps: 500,
  options: [{ name: 'Size', values: ['M', 'L'] }, { name: 'Colour', values: ['Red', 'Blue'] }],
  variants: [
    { options: [{ name: 'Size', value: 'M' }, { name: 'Colour', value: 'Red' }], sku: 'KURTA-M-RED', sellingPrice: '899.00', mrp: '1299.00', stock: 3, weightGrams: null, dimensionsCm: null, barcode: '8901030865275', hsnCode: null, gstRateBps: null, images: [], isActive: true },
    { options: [{ name: 'Size', value: 'M' }, { name: 'Colour', value: 'Blue' }], sku: 'KURTA-M-BLUE', sellingPrice: '999.00', mrp: '1299.00', stock: 4, weightGrams: 320, dimensionsCm: { length: 30, breadth: 20, height: 3 }, barcode: null, hsnCode: null, gstRateBps: null, images: ['https://cdn.example.com/kurta-blue.jpg'], isActive: true },
    { options: [{ name: 'Size', value: 'L' }, { name: 'Colour', value: 'Red' }], sku: 'KURTA-L-RED', sellingPrice: '1099.00', mrp: '1399.00', stock: 5, weightGrams: null, dimensionsCm: null, barcode: null, hsnCode: null, gstRateBps: null, images: [], isActive: false },
  ],
}
const ATTA = {
  slug: 'atta-5kg', name: 'Atta 5 kg', brand: 'Aashirvaad', sku: 'ATTA-5', categorySlug: 'ethnic', sellingPrice: '289.00', mrp: '320.00', stock: 40, images: [], description: '',
  weightGrams: 5000, dimensionsCm: { length: 40, breadth: 25, height: 10 }, isActive: true, hsnCode: null, gstRateBps: null,
}

describe('variant rows in the JSON and CSV formats', () => {
  test('a JSON product with options and variants is imported as the grid writes it: its flat SKU, price, MRP and stock are their summary', async () => {
    const catalogId = await givenCatalog('JSON variants')
    const res = await importJson(catalogId, { products: [KURTA, ATTA] })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(res.json().data.products, { created: 2, updated: 0 })
    const kurta = await product(catalogId, 'cotton-kurta')
    assert.deepEqual([kurta.sku, kurta.sellingPrice, kurta.mrp, kurta.stock], ['KURTA-M-RED', '899.00', '1299.00', 7])
    assert.deepEqual(kurta.options, KURTA.options)
    assert.deepEqual(kurta.variants.map((v: { title: string; sku: string; barcode: string | null }) => [v.title, v.sku, v.barcode]), [
      ['M / Red', 'KURTA-M-RED', '8901030865275'], ['M / Blue', 'KURTA-M-BLUE', null], ['L / Red', 'KURTA-L-RED', null],
    ])
  })

  test('importing the same grid again updates it in place: a variant of the same combination keeps its id', async () => {
    const catalogId = await givenCatalog('JSON variants again')
    await importJson(catalogId, { products: [KURTA] })
    const before = (await product(catalogId, 'cotton-kurta')).variants.map((v: { id: string }) => v.id)
    const cheaper = { ...KURTA, variants: KURTA.variants.map((v) => ({ ...v, sellingPrice: '799.00' })) }
    const res = await importJson(catalogId, { products: [cheaper] })
    assert.deepEqual(res.json().data.products, { created: 0, updated: 1 }, res.body)
    const after = await product(catalogId, 'cotton-kurta')
    assert.deepEqual(after.variants.map((v: { id: string }) => v.id), before)
    assert.equal(after.sellingPrice, '799.00')
  })

  test('JSON export, import into an empty catalog and export again give the same file, variants and all', async () => {
    const from = await givenCatalog('JSON round trip')
    assert.equal((await importJson(from, { products: [KURTA, ATTA] })).statusCode, 200)
    const first = await exported(from, 'json')
    assert.deepEqual(JSON.parse(first), { categories: CATEGORIES, products: [KURTA, ATTA] })
    const to = (await createCatalog(t.deps.database.db, 'JSON round trip, empty')).id
    assert.equal((await importJson(to, JSON.parse(first))).statusCode, 200)
    assert.equal(await exported(to, 'json'), first)
  })

  test('CSV export is a row per variant; imported into a catalog with the same categories and exported again it is the same file', async () => {
    const from = await givenCatalog('CSV round trip')
    await importJson(from, { products: [KURTA, ATTA] })
    const first = await exported(from, 'csv')
    const lines = first.trimEnd().split('\n')
    assert.equal(lines.length, 1 + 3 + 1)
    assert.match(lines[0]!, /^slug,name,brand,sku,categorySlug,sellingPrice,mrp,.*,option1Name,option1Value,.*,variantSku,variantSellingPrice,variantMrp,/)
    assert.match(lines[2]!, /^cotton-kurta,,,,,,,.*,Size,M,Colour,Blue,,,KURTA-M-BLUE,999.00,1299.00,4,320,30,20,3,/)
    const to = await givenCatalog('CSV round trip, empty')
    const res = await importCsv(to, first)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(await exported(to, 'csv'), first)
  })

  test("bad variants are problems naming the row and the field: an unknown option value, a repeated combination, 251 variants, another product's SKU", async () => {
    const catalogId = await givenCatalog('Bad variants')
    await importJson(catalogId, { products: [ATTA] })
    const variant = (size: string, sku: string) => ({ options: [{ name: 'Size', value: size }], sku, sellingPrice: '10.00', mrp: '10.00' })
    const sized = (slug: string, variants: object[]) => ({ slug, name: slug, categorySlug: 'kurtas', options: [{ name: 'Size', values: ['S', 'M'] }], variants })
    const many = { ...sized('many', []), options: [{ name: 'Size', values: Array.from({ length: 100 }, (_, i) => `S${i}`) }, { name: 'Fit', values: ['A', 'B', 'C'] }] }
    many.variants = Array.from({ length: 251 }, (_, i) => ({ ...variant(`S${i % 100}`, `MANY-${i}`), options: [{ name: 'Size', value: `S${i % 100}` }, { name: 'Fit', value: ['A', 'B', 'C'][Math.floor(i / 100)]! }] }))
    const res = await importJson(catalogId, {
      products: [sized('unknown', [variant('XL', 'U-1')]), sized('twice', [variant('S', 'T-1'), variant('s', 'T-2')]), many, sized('taker', [variant('S', 'ATTA-5')])],
    })
    assert.equal(res.statusCode, 400, res.body)
    assert.deepEqual(res.json().message, [
      'products[0]: variants[0].options: XL is not a value of option Size (S, M)',
      'products[1]: variants[1].options repeats the combination of variants[0] (S)',
      'products[2]: variants must be at most 250, got 251',
      'products[3]: variants[0].sku "ATTA-5" belongs to another product of the catalog ("atta-5kg")',
    ])
    assert.equal(await product(catalogId, 'unknown'), undefined)
  })

  test('in a CSV file a bad variant row names its own line, and rejects its whole product', async () => {
    const catalogId = await givenCatalog('Bad CSV variants')
    const csv = [
      'slug,name,categorySlug,option1Name,option1Value,variantSku,variantSellingPrice,variantMrp,variantBarcode',
      'shirt,Shirt,kurtas,Size,M,SHIRT-M,499.00,599.00,',
      'shirt,,,Size,L,SHIRT-L,499.999,599.00,',
      'shirt,Another name,,Size,XL,SHIRT-XL,abc,599.00,12345678',
      'shirt,,,Size,M,SHIRT-M2,10,10,',
      'plain,Plain,kurtas,Size,S,PLAIN-S,10,10,',
    ].join('\n')
    const res = await importCsv(catalogId, csv)
    assert.equal(res.statusCode, 400, res.body)
    assert.deepEqual(res.json().message, [
      'line 3: variants[1].sellingPrice must be an amount with at most two decimals',
      'line 4: variants[2].sellingPrice must be an amount with at most two decimals',
      'line 4: variants[2].barcode "12345678" is not a GTIN (8, 12, 13 or 14 digits, the last its check digit)',
      'line 5: variants[3].options repeats the combination of variants[0] (M)',
      "line 4: name differs from the product's first row (line 2): leave it empty or repeat it",
    ])
  })
})

/** A Shopify export of a kurta in two sizes and colours (one draft variant-less product too), as Shopify writes it. */
const SHOPIFY_HEADER =
  'Handle,Title,Body (HTML),Vendor,Product Category,Type,Tags,Published,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Option3 Name,Option3 Value,Variant SKU,Variant Grams,Variant Inventory Tracker,Variant Inventory Qty,Variant Inventory Policy,Variant Fulfillment Service,Variant Price,Variant Compare At Price,Variant Requires Shipping,Variant Taxable,Variant Barcode,Image Src,Image Position,Image Alt Text,Gift Card,SEO Title,SEO Description,Variant Image,Variant Weight Unit,Variant Tax Code,Cost per item,Status'
const SHOPIFY = [
  SHOPIFY_HEADER,
  'silk-kurta,Silk Kurta,<p>Pure <b>silk</b></p>,Fabindia,,Kurtas,,true,Size,M,Colour,Red,,,SILK-M-RED,400,shopify,3,deny,manual,1499.00,1999.00,true,true,8901030865275,https://cdn.example.com/silk-1.jpg,1,,false,,,,g,,,active',
  'silk-kurta,,,,,,,,,M,,Blue,,,SILK-M-BLUE,400,shopify,0,deny,manual,1599.00,1999.00,true,true,,,,,,,,https://cdn.example.com/silk-blue.jpg,g,,,',
  'silk-kurta,,,,,,,,,L,,Red,,,SILK-L-RED,450,shopify,7,deny,manual,1499.00,1499.00,true,true,,,,,,,,,g,,,',
  'silk-kurta,,,,,,,,,,,,,,,,,,,,,,,,,https://cdn.example.com/silk-2.jpg,2,,,,,,,,,',
  'ghee-1l,Ghee 1 l,,Amul,,Ethnic wear,,false,Title,Default Title,,,,,GHEE-1,1000,shopify,12,deny,manual,649.00,699.00,true,true,,,,,false,,,,g,,,draft',
].join('\n') + '\n'

describe("Shopify's product CSV", () => {
  test('a Shopify CSV with variants is read as it is, its unused columns named, and exported back identical', async () => {
    const catalogId = await givenCatalog('Shopify round trip')
    const res = await importCsv(catalogId, SHOPIFY)
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(res.json().data, {
      categories: { created: 0, updated: 0 },
      products: { created: 2, updated: 0 },
      unusedColumns: ['Product Category', 'Tags', 'Published', 'Variant Inventory Tracker', 'Variant Inventory Policy', 'Variant Fulfillment Service', 'Variant Requires Shipping', 'Variant Taxable', 'Image Alt Text', 'Gift Card', 'SEO Title', 'SEO Description', 'Variant Weight Unit', 'Variant Tax Code', 'Cost per item'],
    })
    const silk = await product(catalogId, 'silk-kurta')
    assert.deepEqual([silk.name, silk.brand, silk.description, silk.sellingPrice, silk.mrp, silk.stock, silk.weightGrams, silk.images], [
      'Silk Kurta', 'Fabindia', '<p>Pure <b>silk</b></p>', '1499.00', '1999.00', 10, 400, ['https://cdn.example.com/silk-1.jpg', 'https://cdn.example.com/silk-2.jpg'],
    ])
    assert.deepEqual(silk.variants.map((v: { title: string; mrp: string; weightGrams: number | null; images: string[] }) => [v.title, v.mrp, v.weightGrams, v.images]), [
      ['M / Red', '1999.00', null, []], ['M / Blue', '1999.00', null, ['https://cdn.example.com/silk-blue.jpg']], ['L / Red', '1499.00', 450, []],
    ])
    const ghee = await product(catalogId, 'ghee-1l')
    assert.deepEqual([ghee.sku, ghee.sellingPrice, ghee.mrp, ghee.stock, ghee.isActive, ghee.options], ['GHEE-1', '649.00', '699.00', 12, false, []])
    assert.equal(await exported(catalogId, 'shopify'), SHOPIFY)
  })

  test('a JSON catalog exported as Shopify CSV and imported into a catalog with the same categories exports the same file', async () => {
    const from = await givenCatalog('Shopify export')
    await importJson(from, { products: [KURTA, ATTA] })
    const first = await exported(from, 'shopify')
    assert.ok(first.startsWith(`${SHOPIFY_HEADER}\n`))
    const to = await givenCatalog('Shopify export, empty')
    assert.equal((await importCsv(to, first)).statusCode, 200)
    assert.equal(await exported(to, 'shopify'), first)
  })

  test('a Shopify price with three decimals or none at all is refused naming its line; an unknown Type names the row', async () => {
    const catalogId = await givenCatalog('Shopify bad prices')
    const csv = [
      'Handle,Title,Type,Option1 Name,Option1 Value,Variant SKU,Variant Price',
      'a,A,Kurtas,Title,Default Title,A-1,499.999',
      'b,B,kurtas,Size,M,B-M,abc',
      'b,,,,L,B-L,10',
      'c,C,Sarees,Title,Default Title,C-1,10',
    ].join('\n')
    const res = await importCsv(catalogId, csv)
    assert.equal(res.statusCode, 400, res.body)
    assert.deepEqual(res.json().message, [
      'line 2: sellingPrice must be an amount with at most two decimals',
      'line 3: variants[0].sellingPrice must be an amount with at most two decimals',
      'line 5: categorySlug "Sarees" does not exist',
    ])
  })

  test('commerce catalog export writes each format; commerce catalog import reads a Shopify file and names its unused columns; --category fills an empty Type', async () => {
    const catalogId = await givenCatalog('CLI Shopify')
    const env = { DATA_DIR: dir, AUTH_SECRET: 'c'.repeat(40), PATH: process.env.PATH ?? '' }
    const cli = async (...args: string[]) => {
      let stdout = ''
      let stderr = ''
      const code = await main(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s), isTTY: false }, env, runtime: t.deps })
      return { code, stdout, stderr }
    }
    const path = join(dir, 'shopify.csv')
    const { writeFileSync } = await import('node:fs')
    writeFileSync(path, SHOPIFY.replace('Fabindia,,Kurtas,', 'Fabindia,,,'))
    const run = await cli('catalog', 'import', path, '--catalog', catalogId, '--category', 'Kurtas', '--json')
    assert.equal(run.code, 0, run.stderr)
    assert.deepEqual(JSON.parse(run.stdout).products, { created: 2, updated: 0 })
    assert.ok(JSON.parse(run.stdout).unusedColumns.includes('Tags'))
    const out = join(dir, 'out.csv')
    const exportRun = await cli('catalog', 'export', '--catalog', catalogId, '--format', 'shopify', '--output', out)
    assert.equal(exportRun.code, 0, exportRun.stderr)
    assert.equal(readFileSync(out, 'utf8'), SHOPIFY)
    const json = await cli('catalog', 'export', '--catalog', catalogId)
    assert.equal(`${json.stdout}`, await exported(catalogId, 'json'))
    assert.equal((await cli('catalog', 'export', '--format', 'xml')).code, 2)
  })
})

describe('an export of more products than one page', () => {
  test('is written a page at a time and is still the whole catalog, each product once, in order: JSON, CSV and Shopify alike, and a round trip', async () => {
    const catalogId = await givenCatalog('Export pages')
    const plain = Array.from({ length: 2_050 }, (_, i) => ({
      slug: `paged-${String(i).padStart(4, '0')}`, name: `Paged product ${i}`, brand: 'Acme', sku: `PAGED-${i}`, categorySlug: 'kurtas', sellingPrice: '10.00', mrp: '12.00', stock: i % 7,
    }))
    const res = await importJson(catalogId, { products: [...plain.slice(0, 1_000), KURTA, ...plain.slice(1_000)] })
    assert.equal(res.statusCode, 200, res.body)
    const json = JSON.parse(await exported(catalogId, 'json')) as { products: { slug: string }[] }
    assert.deepEqual(json.products.map((p) => p.slug), [...plain.slice(0, 1_000).map((p) => p.slug), KURTA.slug, ...plain.slice(1_000).map((p) => p.slug)])
    const csvLines = (await exported(catalogId, 'csv')).trim().split('\n')
    assert.equal(csvLines.length, 1 + 2_050 + KURTA.variants.length)
    const shopify = (await exported(catalogId, 'shopify')).trim().split('\n')
    assert.equal(new Set(shopify.slice(1).map((l) => l.split(',')[0])).size, 2_051)
    // The JSON imported into an empty catalog exports as the same file.
    const again = await createCatalog(t.deps.database.db, 'Export pages again')
    const text = await exported(catalogId, 'json')
    assert.equal((await importJson(again.id, JSON.parse(text))).statusCode, 200)
    assert.equal(await exported(again.id, 'json'), text)
  })
})

