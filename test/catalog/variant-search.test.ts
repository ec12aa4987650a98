// Variants, step 3 (decision 0043): option values are searchable words of their product, and search
// says which variant the query named; the product list filters by option value (`size=M`) and
// answers a category's facet counts.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { mergedOrder } from '../../src/modules/catalog/service.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenAdminToken, givenPartner, type PartnerFixture } from '../helpers/factories.ts'

let t: TestApp
let admin: string
let partner: PartnerFixture
let catalogId: string
let ethnic: string
let footwear: string

const adminCall = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${admin}` }, ...(payload ? { payload } : {}) })
const publicGet = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { 'x-api-key': partner.apiKey } })

interface SearchItem {
  slug: string
  score: number
  variant?: { id: string; title: string; options: { name: string; value: string }[]; sellingPrice: string }
}
const search = async (q: string) => {
  const res = await publicGet(`/search?type=products&q=${encodeURIComponent(q)}`)
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data.products as SearchItem[]
}
const list = async (query: string) => {
  const res = await publicGet(`/products?${query}`)
  assert.equal(res.statusCode, 200, res.body)
  return res.json() as { data: { slug: string }[]; meta: { total: number }; facets?: { name: string; values: { value: string; count: number }[] }[] }
}

async function givenProduct(slug: string, name: string, categoryId: string) {
  const res = await adminCall('POST', `/catalogs/${catalogId}/products`, {
    name, slug, brand: 'Fabindia', sku: slug.toUpperCase(), categoryId, sellingPrice: '999.00', mrp: '1299.00', stock: 5,
  })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data.id as string
}

/** Gives a product options and one variant per combination; `inactive`: titles given as inactive. */
async function givenGrid(productId: string, options: { name: string; values: string[] }[], inactive: string[] = []) {
  const combos: string[][] = options.reduce<string[][]>((acc, o) => acc.flatMap((c) => o.values.map((v) => [...c, v])), [[]])
  const res = await adminCall('PUT', `/products/${productId}/variants`, {
    options,
    variants: combos.map((values, i) => ({
      options: values.map((value, j) => ({ name: options[j]!.name, value })),
      sku: `${productId}-${i}`,
      sellingPrice: `${900 + i * 10}.00`,
      mrp: '1499.00',
      stock: 3,
      isActive: !inactive.includes(values.join(' / ')),
    })),
  })
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data.variants as { id: string; title: string }[]
}

before(async () => {
  t = await createTestApp()
  admin = await givenAdminToken(t.app, t.deps, 'variant-search@example.com', 'ADMIN')
  catalogId = (await adminCall('POST', '/catalogs', { name: 'Variant search shop' })).json().data.id
  ethnic = (await adminCall('POST', `/catalogs/${catalogId}/categories`, { name: 'Ethnic wear', slug: 'ethnic' })).json().data.id
  footwear = (await adminCall('POST', `/catalogs/${catalogId}/categories`, { name: 'Footwear', slug: 'footwear' })).json().data.id
  partner = await givenPartner(t.deps, 'Variant search partner', catalogId)
  // Cotton kurta: Size S M L XL x Colour Red Blue (XL / Blue inactive); silk kurta: M L x Green;
  // a plain kurta without options; sandals in sizes 8 and 9.
  const cotton = await givenProduct('cotton-kurta', 'Cotton Kurta', ethnic)
  await givenGrid(cotton, [{ name: 'Size', values: ['S', 'M', 'L', 'XL'] }, { name: 'Colour', values: ['Red', 'Blue'] }], ['XL / Blue'])
  const silk = await givenProduct('silk-kurta', 'Silk Kurta', ethnic)
  await givenGrid(silk, [{ name: 'size', values: ['M', 'L'] }, { name: 'Colour', values: ['Green'] }])
  await givenProduct('plain-kurta', 'Plain Kurta', ethnic)
  const sandals = await givenProduct('leather-sandals', 'Leather Sandals', footwear)
  await givenGrid(sandals, [{ name: 'Size', values: ['8', '9'] }])
})
after(() => t?.close())

describe('search finds products by their option values and says which variant matched', () => {
  test('"red kurta xl" finds the kurta whose variants are Red and XL, first, naming the variant XL / Red with its price', async () => {
    const found = await search('red kurta xl')
    assert.equal(found[0]!.slug, 'cotton-kurta')
    assert.equal(found[0]!.variant?.title, 'XL / Red')
    assert.deepEqual(found[0]!.variant?.options, [{ name: 'Size', value: 'XL' }, { name: 'Colour', value: 'Red' }])
    assert.equal(found[0]!.variant?.sellingPrice, '960.00')
    const detail = (await publicGet('/products/cotton-kurta')).json().data
    assert.equal(found[0]!.variant?.id, detail.variants.find((v: { title: string }) => v.title === 'XL / Red').id)
  })

  test('a product whose name says Red but whose variants are not Red ranks below one that sells Red in XL, and the pasted name still finds it first', async () => {
    const festive = await givenProduct('red-festive-kurta', 'Red Festive Kurta', ethnic)
    await givenGrid(festive, [{ name: 'Size', values: ['XL'] }, { name: 'Colour', values: ['Black'] }])
    const found = await search('red kurta xl')
    const at = (slug: string) => found.findIndex((p) => p.slug === slug)
    assert.ok(at('cotton-kurta') >= 0 && at('red-festive-kurta') > at('cotton-kurta'), found.map((p) => p.slug).join(', '))
    assert.equal(found[at('red-festive-kurta')]!.variant?.title, 'XL / Black')
    assert.equal((await search('Red Festive Kurta'))[0]!.slug, 'red-festive-kurta')
    // The "s" of "men's" is no size S: the product is not taken for one that fails to sell it.
    const mens = await givenProduct('mens-silk-kurta', "Men's Silk Kurta", ethnic)
    await givenGrid(mens, [{ name: 'Size', values: ['M', 'L'] }])
    const plain = await search("men's silk kurta")
    assert.equal(plain[0]!.slug, 'mens-silk-kurta')
    assert.equal(plain[0]!.variant, undefined)
    await adminCall('PATCH', `/products/${festive}`, { isActive: false })
    await adminCall('PATCH', `/products/${mens}`, { isActive: false })
  })

  test('a product imported with options is searched by its option values', async () => {
    const res = await adminCall('POST', `/catalogs/${catalogId}/import`, {
      products: [{
        slug: 'imported-kurta', name: 'Imported Kurta', brand: 'Biba', categorySlug: 'ethnic',
        options: [{ name: 'Size', values: ['M'] }, { name: 'Colour', values: ['Teal'] }],
        variants: [{ options: [{ name: 'Size', value: 'M' }, { name: 'Colour', value: 'Teal' }], sku: 'IMP-M-TEAL', sellingPrice: '799.00', mrp: '999.00', stock: 2 }],
      }],
    })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual((await search('teal kurta')).map((p) => [p.slug, p.variant?.title])[0], ['imported-kurta', 'M / Teal'])
    const off = await adminCall('PATCH', `/products/${(await publicGet('/products/imported-kurta')).json().data.id}`, { isActive: false })
    assert.equal(off.statusCode, 200, off.body)
  })

  test('an option value alone is a word of its product: "green" finds only the silk kurta', async () => {
    const found = await search('green')
    assert.deepEqual(found.map((p) => p.slug), ['silk-kurta'])
    assert.equal(found[0]!.variant?.title, 'M / Green')
  })

  test('a size that is an English stop word or one letter still picks the variant: "kurta m blue" names M / Blue', async () => {
    const found = await search('kurta m blue')
    assert.equal(found[0]!.slug, 'cotton-kurta')
    assert.equal(found[0]!.variant?.title, 'M / Blue')
  })

  test('a query naming no option value answers the products without a variant', async () => {
    const found = await search('kurta')
    assert.deepEqual(found.map((p) => p.slug).sort(), ['cotton-kurta', 'plain-kurta', 'silk-kurta'])
    for (const p of found) assert.equal(p.variant, undefined)
  })

  test('an inactive variant is never the one named: "kurta xl blue" names an active variant', async () => {
    const found = await search('kurta xl blue')
    const cotton = found.find((p) => p.slug === 'cotton-kurta')!
    assert.notEqual(cotton.variant?.title, 'XL / Blue')
    assert.ok(['XL / Red', 'S / Blue'].includes(cotton.variant!.title), cotton.variant!.title)
  })

  test('a variant\'s new price and a product\'s new options are searched after the back-office write', async () => {
    const sandals = (await publicGet('/products/leather-sandals')).json().data
    assert.equal((await adminCall('PATCH', `/products/${sandals.id}/variants/${sandals.variants[1].id}`, { sellingPrice: '777.00' })).statusCode, 200)
    const nine = await search('sandals 9')
    assert.equal(nine[0]!.variant?.title, '9')
    assert.equal(nine[0]!.variant?.sellingPrice, '777.00')
    const plain = (await publicGet('/products/plain-kurta')).json().data
    await givenGrid(plain.id, [{ name: 'Colour', values: ['Saffron'] }])
    assert.deepEqual((await search('saffron')).map((p) => [p.slug, p.variant?.title]), [['plain-kurta', 'Saffron']])
  })
})

describe('the product list filters by option value and answers facets', () => {
  test('size=M finds the products with an active M variant, whatever the case of the option\'s name or value', async () => {
    assert.deepEqual((await list('size=M')).data.map((p) => p.slug).sort(), ['cotton-kurta', 'silk-kurta'])
    assert.deepEqual((await list('SIZE=m')).data.map((p) => p.slug).sort(), ['cotton-kurta', 'silk-kurta'])
    assert.deepEqual((await list('size=9')).data.map((p) => p.slug), ['leather-sandals'])
  })

  test('several values of one option match any; several options must be held by one active variant', async () => {
    assert.deepEqual((await list('size=s,9')).data.map((p) => p.slug).sort(), ['cotton-kurta', 'leather-sandals'])
    assert.deepEqual((await list('size=s&size=9')).data.map((p) => p.slug).sort(), ['cotton-kurta', 'leather-sandals'])
    assert.deepEqual((await list('size=L&colour=Green')).data.map((p) => p.slug), ['silk-kurta'])
    // Cotton has XL (Red) and Blue (S, M, L), but its XL / Blue is inactive.
    const xlBlue = await list('size=XL&colour=Blue')
    assert.deepEqual(xlBlue.data, [])
    assert.equal(xlBlue.meta.total, 0)
  })

  test('option filters combine with the category and brand filters', async () => {
    assert.deepEqual((await list(`size=M&categoryId=${footwear}`)).data, [])
    assert.deepEqual((await list(`size=9&categoryId=${footwear}&brand=fabindia`)).data.map((p) => p.slug), ['leather-sandals'])
  })

  test('with a category, the answer counts each option value\'s products beside the other filters, in the merchant\'s order', async () => {
    const all = await list(`categoryId=${ethnic}`)
    assert.deepEqual(all.facets, [
      { name: 'Size', values: [{ value: 'S', count: 1 }, { value: 'M', count: 2 }, { value: 'L', count: 2 }, { value: 'XL', count: 1 }] },
      { name: 'Colour', values: [{ value: 'Red', count: 1 }, { value: 'Blue', count: 1 }, { value: 'Green', count: 1 }, { value: 'Saffron', count: 1 }] },
    ])
    // Choosing Green: the sizes count what Green holds; the colours still count beside no other filter.
    const green = await list(`categoryId=${ethnic}&colour=green`)
    assert.deepEqual(green.data.map((p) => p.slug), ['silk-kurta'])
    assert.deepEqual(green.facets, [
      { name: 'Size', values: [{ value: 'M', count: 1 }, { value: 'L', count: 1 }] },
      { name: 'Colour', values: [{ value: 'Red', count: 1 }, { value: 'Blue', count: 1 }, { value: 'Green', count: 1 }, { value: 'Saffron', count: 1 }] },
    ])
  })

  test('a category without products with options answers no facets; a list without a category answers none at all', async () => {
    const bare = (await adminCall('POST', `/catalogs/${catalogId}/categories`, { name: 'Home', slug: 'home' })).json().data.id
    assert.deepEqual((await list(`categoryId=${bare}`)).facets, [])
    assert.equal('facets' in (await list('')), false)
  })

  test('a parameter naming no option is refused as an unknown parameter, and an empty value names the option', async () => {
    const unknown = await publicGet('/products?sizee=M')
    assert.equal(unknown.statusCode, 400)
    assert.deepEqual(unknown.json().message, ['property sizee should not exist'])
    const empty = await publicGet('/products?size=,')
    assert.equal(empty.statusCode, 400)
    assert.deepEqual(empty.json().message, ['size should not be empty'])
    const long = await publicGet(`/products?size=${'x'.repeat(201)}`)
    assert.equal(long.statusCode, 400)
    assert.deepEqual(long.json().message, ['size must be shorter than or equal to 200 characters'])
    const many = await publicGet(`/products?size=${Array.from({ length: 51 }, (_, i) => i).join(',')}`)
    assert.deepEqual([many.statusCode, many.json().message], [400, ['size must contain no more than 50 elements']])
  })
})

describe("a facet's values in one order merged from the products' own", () => {
  test('the fullest list first; a value new to it goes after the value before it in its own list, or before the one after (XS before S), else last', () => {
    assert.deepEqual(
      mergedOrder([
        { values: ['M', 'L'], products: 5 },
        { values: ['S', 'M', 'L', 'XL'], products: 1 },
        { values: ['XS', 'S'], products: 2 },
        { values: ['XL', 'XXL'], products: 1 },
        { values: ['Free Size'], products: 1 },
      ]),
      ['xs', 's', 'm', 'l', 'xl', 'xxl', 'free size'],
    )
  })
})

