// Ranking rules of /search (decision 0020): an exact full name first whatever the number of equal
// candidates and the page size, model numbers matched as written and by prefix, prefixes reaching
// the surface word when its stem differs, BM25's rare-word and field weights, Hinglish words, and a
// tie-break by the shorter name, then the id.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { importCatalog } from '../../src/modules/catalog/index.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenAdminToken, givenPartner, type PartnerFixture } from '../helpers/factories.ts'

let t: TestApp
let partner: PartnerFixture

const search = async (q: string, limit = 10) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/search?q=${encodeURIComponent(q)}&type=products&limit=${limit}`, headers: { 'x-api-key': partner.apiKey } })
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data as { products: { slug: string; name: string; score: number }[]; totalResults: number }
}
const slugs = async (q: string, limit = 10) => (await search(q, limit)).products.map((p) => p.slug)

const product = (slug: string, name: string, brand = 'Acme', categorySlug = 'misc') => ({ slug, name, brand, sku: slug.toUpperCase(), categorySlug, sellingPrice: '100', mrp: '100', stock: 5 })

before(async () => {
  t = await createTestApp()
  const token = await givenAdminToken(t.app, t.deps, 'ranking@example.com', 'CATALOG')
  const created = await t.app.inject({ method: 'POST', url: '/api/v1/admin/catalogs', headers: { authorization: `Bearer ${token}` }, payload: { name: 'Ranking' } })
  const catalogId = created.json().data.id as string
  partner = await givenPartner(t.deps, 'Ranking partner', catalogId)
  // 40 products share every word of one name, and come before it in id order.
  const crowd = Array.from({ length: 40 }, (_, i) => product(`punch-${i}`, `Tootpado Punches Punching Machines Office Paper Hole Set ${i}`, 'Tootpado'))
  await importCatalog(t.deps.database.db, catalogId, {
    categories: [{ slug: 'misc', name: 'Misc' }, { slug: 'footwear', name: 'Footwear' }, { slug: 'bags', name: 'Bags' }],
    products: [
      ...crowd,
      product('punch-exact', 'Tootpado Punches & Punching Machines', 'Tootpado'),
      product('maxima-watch', 'Maxima 05712LMLY Analog Watch', 'Maxima'),
      product('maxima-other', 'Maxima 05713LMLS Analog Watch', 'Maxima'),
      product('titli-clip', 'Titli Butterfly Hair Clip'),
      product('cotton-zari-saree', 'Cotton Zari Saree', 'Acme'),
      ...Array.from({ length: 6 }, (_, i) => product(`cotton-kurta-${i}`, `Cotton Kurta ${i}`)),
      product('brand-only', 'Travel Pouch', 'Zaribox'),
      product('zari-named', 'Zari Box Pouch', 'Acme'),
      product('women-chappal', "Women's Rubber Chappal Flat", 'Relaxo', 'footwear'),
      product('men-chappal', "Men's Rubber Chappal Flat", 'Relaxo', 'footwear'),
      product('kids-school-bag', 'Kids Waterproof School Bag', 'Skybags', 'bags'),
      product('office-bag', 'Office Laptop Bag', 'Skybags', 'bags'),
      product('steel-bottle-long', 'Steel Water Bottle Leak Proof', 'Acme'),
      product('steel-bottle', 'Steel Water Bottle', 'Acme'),
    ],
  })
})
after(() => t.close())

describe('search ranking', () => {
  test('the product whose name is the query comes first, behind 40 equal matches and whatever the page size', async () => {
    for (const limit of [1, 5, 20, 50]) {
      assert.equal((await slugs('Tootpado Punches & Punching Machines', limit))[0], 'punch-exact', `limit ${limit}`)
    }
    assert.equal((await slugs('tootpado punches punching machines'))[0], 'punch-exact', 'lower-case, without the ampersand')
  })

  test('a model number is matched as written, in any case, and by its start, never through a stemmer', async () => {
    assert.deepEqual(await slugs('05712LMLY'), ['maxima-watch'])
    assert.deepEqual(await slugs('05712lmly'), ['maxima-watch'])
    assert.equal((await slugs('05712lm'))[0], 'maxima-watch')
    assert.equal((await slugs('maxima 05713lmls analog watch'))[0], 'maxima-other')
  })

  test('a prefix reaches the word as written when its stem is shorter ("titl" finds titli, whose stem is tit)', async () => {
    assert.deepEqual(await slugs('titl'), ['titli-clip'])
    assert.deepEqual(await slugs('titli butterfly'), ['titli-clip'])
  })

  test('a rare word weighs more than a common one, and a name match more than a brand match', async () => {
    const found = await slugs('cotton zari')
    assert.equal(found[0], 'cotton-zari-saree', 'both words')
    assert.ok(found.indexOf('zari-named') < found.indexOf('cotton-kurta-0'), `zari (rare) before cotton (common): ${found.join(', ')}`)
    const zari = await slugs('zari')
    assert.ok(zari.indexOf('zari-named') < zari.indexOf('brand-only'), `name before brand-only: ${zari.join(', ')}`)
  })

  test('Hinglish words find their English meaning, and Hindi little words ask nothing', async () => {
    assert.equal((await slugs('ladies chappal'))[0], 'women-chappal')
    assert.equal((await slugs('gents chappal'))[0], 'men-chappal')
    assert.equal((await slugs('bachon ke liye school bag'))[0], 'kids-school-bag')
  })

  test('equal matches go by the shorter name, then by id, the same on every call', async () => {
    assert.deepEqual((await slugs('steel water bottle')).slice(0, 2), ['steel-bottle', 'steel-bottle-long'])
    const kurtas = await search('cotton kurta', 6)
    const ordered = kurtas.products.map((p) => p.slug)
    assert.deepEqual(ordered, await slugs('cotton kurta', 6))
    const scores = kurtas.products.map((p) => p.score)
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a))
    for (const s of scores) assert.ok(s > 0 && s < 1, `score ${s} in (0, 1)`)
  })
})
