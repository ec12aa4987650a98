// The back-office lists that were answered whole (delivery zones, a partner's coupons and API keys,
// a catalog's categories, a partner's COD-blocked pincodes) page on the server when asked: with
// neither page nor limit they answer the whole list as before (old clients keep working), with
// either they answer one page in a stable order and meta.total; each has its search.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createCatalog } from '../../src/modules/catalog/index.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenAdminToken, givenPartner, type PartnerFixture } from '../helpers/factories.ts'

let t: TestApp
let token: string
let partner: PartnerFixture
let other: PartnerFixture
let catalogId: string

const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${token}` } })
const post = async (url: string, payload: object) => {
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${token}` }, payload })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data
}
const zone = (name: string, prefix: string) => ({
  name,
  standardSlabs: [{ upToGrams: 1000, charge: '40.00' }],
  standardMinDays: 2,
  standardMaxDays: 4,
  expressAvailable: false,
  expressMinDays: 0,
  expressMaxDays: 0,
  freeShippingThreshold: null,
  cutoffHour: 14,
  codAvailable: true,
  codLimit: '5000',
  codFee: '30',
  pincodes: [{ prefix, city: `${name} city`, state: 'Karnataka' }],
})

before(async () => {
  t = await createTestApp()
  token = await givenAdminToken(t.app, t.deps, 'lists@example.com', 'ADMIN')
  catalogId = (await createCatalog(t.deps.database.db, 'Lists')).id
  partner = await givenPartner(t.deps, 'Lists', catalogId)
  other = await givenPartner(t.deps, 'Other', catalogId)
  // Made one at a time so that "newest first" has one answer.
  for (const code of ['SAVE10', 'SAVE20', 'DIWALI', 'SAVE30', 'HOLI', 'SAVE_50']) await post(`/partners/${partner.partnerId}/coupons`, { code, kind: 'FLAT', value: '10' })
  await post(`/partners/${other.partnerId}/coupons`, { code: 'SAVE99', kind: 'FLAT', value: '10' })
  for (const [name, prefix] of [['Bengaluru', '560'], ['Mysuru', '570'], ['Hubballi', '580'], ['Mangaluru', '575'], ['Belagavi', '590']] as const) await post('/delivery-zones', zone(name, prefix))
  const fashion = await post(`/catalogs/${catalogId}/categories`, { name: 'Fashion', slug: 'fashion' })
  await post(`/catalogs/${catalogId}/categories`, { name: 'Home', slug: 'home' })
  for (const name of ['Shirts', 'Sarees', 'Kurtas']) await post(`/catalogs/${catalogId}/categories`, { name, slug: name.toLowerCase(), parentId: fashion.id })
  for (const pincode of ['110001', '110002', '400001', '560001', '560002']) await post(`/partners/${partner.partnerId}/cod-blocked-pincodes`, { pincode })
  for (const name of ['two', 'three', 'four']) await post(`/partners/${partner.partnerId}/api-keys`, { name })
})
after(() => t.close())

/** Every page of a list, `limit` at a time, checking each page's meta on the way. */
async function everyPage(url: string, limit: number) {
  const rows: { id?: string }[] = []
  const first = (await get(`${url}${url.includes('?') ? '&' : '?'}page=1&limit=${limit}`)).json()
  const { total, totalPages } = first.meta
  assert.equal(totalPages, Math.ceil(total / limit))
  for (let page = 1; page <= totalPages; page++) {
    const res = await get(`${url}${url.includes('?') ? '&' : '?'}page=${page}&limit=${limit}`)
    assert.equal(res.statusCode, 200, res.body)
    const body = res.json()
    assert.deepEqual(body.meta, { total, page, limit, totalPages })
    assert.equal(body.data.length, page < totalPages ? limit : total - limit * (totalPages - 1))
    rows.push(...body.data)
  }
  return rows
}

const LISTS = () => [
  { name: 'delivery zones', url: '/delivery-zones', key: 'id' },
  { name: "a partner's coupons", url: `/partners/${partner.partnerId}/coupons`, key: 'id' },
  { name: "a catalog's categories", url: `/catalogs/${catalogId}/categories`, key: 'id' },
  { name: "a partner's API keys", url: `/partners/${partner.partnerId}/api-keys`, key: 'id' },
  { name: "a partner's COD-blocked pincodes", url: `/partners/${partner.partnerId}/cod-blocked-pincodes`, key: 'pincode' },
]

describe('lists answered whole page on the server when asked', () => {
  test('without page or limit each list is answered whole, with meta for one page holding all of it', async () => {
    for (const list of LISTS()) {
      const res = await get(list.url)
      assert.equal(res.statusCode, 200, `${list.name}: ${res.body}`)
      const { data, meta } = res.json()
      assert.ok(data.length >= 4, `${list.name}: ${data.length} rows`)
      assert.deepEqual(meta, { total: data.length, page: 1, limit: data.length, totalPages: 1 }, list.name)
    }
  })

  test('the pages of each list, put together, are the whole list in the same order, with no row twice', async () => {
    for (const list of LISTS()) {
      const whole = (await get(list.url)).json().data as Record<string, unknown>[]
      const paged = (await everyPage(list.url, 2)) as Record<string, unknown>[]
      assert.deepEqual(
        paged.map((r) => r[list.key]),
        whole.map((r) => r[list.key]),
        list.name,
      )
      assert.equal(new Set(paged.map((r) => r[list.key])).size, whole.length, list.name)
    }
  })

  test('page alone takes 20 rows; limit alone the first page; a page past the end is empty', async () => {
    const coupons = `/partners/${partner.partnerId}/coupons`
    assert.deepEqual((await get(`${coupons}?page=1`)).json().meta, { total: 6, page: 1, limit: 20, totalPages: 1 })
    const firstTwo = (await get(`${coupons}?limit=2`)).json()
    assert.deepEqual(firstTwo.meta, { total: 6, page: 1, limit: 2, totalPages: 3 })
    assert.deepEqual(
      firstTwo.data.map((c: { code: string }) => c.code),
      ['SAVE_50', 'HOLI'],
    )
    const past = (await get(`${coupons}?page=9&limit=2`)).json()
    assert.deepEqual(past.data, [])
    assert.equal(past.meta.total, 6)
  })

  test('a page size over 100, a page 0 or a non-number is refused 400 naming the parameter', async () => {
    for (const list of LISTS()) {
      for (const [q, name] of [
        ['limit=101', 'limit'],
        ['limit=0', 'limit'],
        ['page=0', 'page'],
        ['page=two', 'page'],
      ] as const) {
        const res = await get(`${list.url}?${q}`)
        assert.equal(res.statusCode, 400, `${list.name} ?${q}: ${res.body}`)
        assert.match(JSON.stringify(res.json().message), new RegExp(name), `${list.name} ?${q}`)
      }
    }
  })

  test("a partner's coupons are only its own, and search finds part of the code, % and _ taken literally", async () => {
    const codes = async (q: string) => (await get(`/partners/${partner.partnerId}/coupons?${q}`)).json().data.map((c: { code: string }) => c.code)
    assert.ok(!(await codes('')).includes('SAVE99'))
    assert.deepEqual(await codes('search=save'), ['SAVE_50', 'SAVE30', 'SAVE20', 'SAVE10'])
    assert.deepEqual(await codes('search=e_'), ['SAVE_50'])
    assert.deepEqual(await codes('search=%25'), [])
    const page = (await get(`/partners/${partner.partnerId}/coupons?search=save&limit=3`)).json()
    assert.deepEqual(page.meta, { total: 4, page: 1, limit: 3, totalPages: 2 })
  })

  test('zones are by name; search finds part of a name, or the zone serving a pincode by its digits', async () => {
    const names = async (q: string) => (await get(`/delivery-zones?${q}`)).json().data.map((z: { name: string }) => z.name)
    const all = await names('')
    assert.deepEqual(all, [...all].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)))
    assert.deepEqual(await names('search=galuru'), ['Bengaluru', 'Mangaluru'])
    assert.deepEqual(await names('search=560034'), ['Bengaluru'])
    assert.deepEqual(await names('search=57'), ['Mangaluru', 'Mysuru'])
    const bengaluru = (await get('/delivery-zones?search=Bengaluru')).json().data[0]
    assert.deepEqual(bengaluru.pincodes, [{ prefix: '560', city: 'Bengaluru city', state: 'Karnataka' }])
    assert.equal(bengaluru.codFee, '30.00')
  })

  test("categories: parentId=root is the top level, a category's id its children, search a part of name or slug", async () => {
    const names = async (q: string) => (await get(`/catalogs/${catalogId}/categories?${q}`)).json().data.map((c: { name: string }) => c.name)
    assert.deepEqual(await names('parentId=root'), ['Fashion', 'Home'])
    const fashion = (await get(`/catalogs/${catalogId}/categories?parentId=root&limit=1`)).json()
    assert.deepEqual(fashion.meta, { total: 2, page: 1, limit: 1, totalPages: 2 })
    assert.deepEqual(await names(`parentId=${fashion.data[0].id}`), ['Kurtas', 'Sarees', 'Shirts'])
    assert.deepEqual(await names('search=ree'), ['Sarees'])
    assert.deepEqual(await names('parentId=root&search=ree'), [])
    const unknown = await get(`/catalogs/cat_missing/categories?page=1`)
    assert.equal(unknown.statusCode, 404)
  })

  test('COD-blocked pincodes: search takes the first digits; anything else is refused 400', async () => {
    const pins = async (q: string) => (await get(`/partners/${partner.partnerId}/cod-blocked-pincodes?${q}`)).json().data.map((b: { pincode: string }) => b.pincode)
    assert.deepEqual(await pins('search=1100'), ['110001', '110002'])
    assert.deepEqual(await pins('search=56&limit=1&page=2'), ['560002'])
    const bad = await get(`/partners/${partner.partnerId}/cod-blocked-pincodes?search=56%25`)
    assert.equal(bad.statusCode, 400)
    assert.match(JSON.stringify(bad.json().message), /search must be 1 to 6 digits of a PIN code/)
    assert.equal((await get(`/partners/${other.partnerId}/cod-blocked-pincodes`)).json().meta.total, 0)
  })

  test("API keys: newest first, the partner's first key last", async () => {
    const keys = (await get(`/partners/${partner.partnerId}/api-keys?limit=100`)).json().data
    assert.deepEqual(
      keys.map((k: { name: string }) => k.name),
      ['four', 'three', 'two', keys.at(-1).name],
    )
    assert.equal(keys.at(-1).id, partner.apiKeyId)
  })
})
