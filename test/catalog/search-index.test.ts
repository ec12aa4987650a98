// The in-process search index (decision 0011) against PostgreSQL itself: the same matches as
// PostgreSQL's full-text search, pg_trgm's trigrams, tsvector parsing, and an index that stays in
// step with writes, including a write whose transaction began before the index last synced.
import assert from 'node:assert/strict'
import { after, before, describe, mock, test } from 'node:test'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { connectionStringOf, openDatabase, queryRows } from '../../src/db/client.ts'
import { createCatalog, importDemoCatalog } from '../../src/modules/catalog/index.ts'
import { importCatalog } from '../../src/modules/catalog/import.ts'
import { buildIndex, type CatalogIndex, packIndex, parseTsvector, syncIndex, trigramsOfWord, unpackIndex } from '../../src/modules/catalog/search-index.ts'
import { buildIndexInWorker, hitProduct, queryTokens, searchCatalog, syncedIndex } from '../../src/modules/catalog/search.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenAdminToken, givenPartner, type PartnerFixture } from '../helpers/factories.ts'
import { schema } from '../helpers/schema-db.ts'

let t: TestApp
let demoCatalogId: string
let token: string
let catalogId: string
let partner: PartnerFixture

const admin = (method: 'POST' | 'PATCH', url: string, payload: unknown) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${token}` }, payload: payload as string })
const search = async (q: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/search?q=${encodeURIComponent(q)}&type=products&limit=50`, headers: { 'x-api-key': partner.apiKey } })
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data as { products: { slug: string; score: number }[]; totalResults: number }
}

before(async () => {
  t = await createTestApp()
  const db = t.deps.database.db
  demoCatalogId = (await createCatalog(db, 'Index demo')).id
  await importDemoCatalog(db, demoCatalogId)
  token = await givenAdminToken(t.app, t.deps, 'index@example.com', 'CATALOG')
  catalogId = (await admin('POST', '/catalogs', { name: 'Index writes' })).json().data.id
  partner = await givenPartner(t.deps, 'Index partner', catalogId)
})
after(() => t.close())

describe('the index matches what PostgreSQL matches', () => {
  // Words the catalog has (no typo correction), single and several, prefixes, numbers, stop words.
  const queries = ['samsung', 'boat airdopes 141', 'pressure cooker', 'atta 5 kg', 'iph', 'sams', 'kurta', 'silk saree for wedding', 'tata', 'headphones', 'rice', 'ghee 1 l', 'mens cotton kurta']

  test('each query finds exactly the products PostgreSQL full-text search finds or whose words start with the query words, and no others', async () => {
    const db = t.deps.database.db
    for (const q of queries) {
      const tokens = queryTokens(q)
      const whole = (w: string) => w.length < 2 || /^\d+$/.test(w)
      // A query word matches a product when PostgreSQL's full-text search says so (its stem, as a
      // prefix), or when a word of the product's name, brand or category path starts with it (is it,
      // for numbers and single letters). Stop words ask nothing.
      const stop = async (w: string) => (await queryRows<{ s: string | null }>(db, sql`select (ts_lexize('english_stem', ${w}))[1] as s`))[0]!.s === null
      const asked: string[] = []
      for (const w of tokens) if (!(await stop(w))) asked.push(w)
      const condition = (w: string) =>
        sql`(search_vector @@ to_tsquery('english', ${whole(w) ? w : `${w}:*`}) or search_text ~ ${`(^|[^[:alnum:]])${w}${whole(w) ? '($|[^[:alnum:]])' : ''}`})`
      const matching = async (operator: string) =>
        (await queryRows<{ id: string }>(db, sql`
          select id from products where catalog_id = ${demoCatalogId} and is_active
            and (${sql.join(asked.map(condition), sql.raw(operator === ' & ' ? ' and ' : ' or '))})`)).map((r) => r.id)
      const all = await matching(' & ')
      const expected = new Set(all.length >= 50 || tokens.length === 1 ? all : await matching(' | '))
      const found = await searchCatalog(db, { catalogId: demoCatalogId, q, limit: 50, products: true, categories: false })
      assert.ok(expected.size > 0, `${q}: the demo catalog has matches`)
      assert.equal(found.totalProducts, expected.size, `${q}: total`)
      assert.equal(found.products.length, Math.min(50, expected.size), `${q}: page`)
      for (const p of found.products) assert.ok(expected.has(p.id), `${q}: ${hitProduct(p).slug} is not a PostgreSQL match`)
      const scores = found.products.map((p) => p.score)
      assert.deepEqual(scores, [...scores].sort((a, b) => b - a), `${q}: sorted by score`)
      for (const s of scores) assert.ok(s > 0 && s < 1, `${q}: score ${s} in (0, 1)`)
    }
  })

  test("trigrams are pg_trgm's, and tsvector text parses to PostgreSQL's own lexemes and weights", async () => {
    const db = t.deps.database.db
    for (const word of ['samsung', 'a', 'iphone15', 'ghee', 'aashirvaad']) {
      const [row] = await queryRows<{ t: string[] }>(db, sql`select show_trgm(${word}) as t`)
      assert.deepEqual(trigramsOfWord(word).sort(), [...row!.t].sort(), word)
    }
    // pg_trgm shows a trigram of multi-byte letters as a hash: the count is what can be compared.
    const [hindi] = await queryRows<{ n: number }>(db, sql`select cardinality(show_trgm('आटा')) as n`)
    assert.equal(trigramsOfWord('आटा').length, hindi!.n)
    const [row] = await queryRows<{ v: string; lexemes: { lexeme: string; weights: string[] }[] }>(db, sql`
      with v as (select setweight(to_tsvector('english', ${"O'Brien's back\\slash"}), 'A') || setweight(to_tsvector('english', 'brien kettle'), 'C') || to_tsvector('simple', 'x''y z') as v)
      select v::text as v, (select json_agg(json_build_object('lexeme', lexeme, 'weights', weights)) from unnest((select v from v))) as lexemes from v`)
    const parsed = parseTsvector(row!.v)
    const rank = { A: 1, B: 0.6, C: 0.3, D: 0.1 } as const
    assert.deepEqual(
      [...parsed].sort(),
      row!.lexemes.map((l) => [l.lexeme, Math.max(...l.weights.map((w) => rank[w as keyof typeof rank]))] as [string, number]).sort(),
    )
  })
})

describe('the index follows writes', () => {
  let audioId: string
  const ids: Record<string, string> = {}
  const product = (slug: string, name: string) => ({ name, slug, brand: 'Acme', sku: slug.toUpperCase(), categoryId: audioId, sellingPrice: '100', mrp: '100', stock: 1 })

  test('equal scores are ordered by id, also after a product leaves and comes back', async () => {
    audioId = (await admin('POST', `/catalogs/${catalogId}/categories`, { name: 'Audio', slug: 'audio' })).json().data.id
    for (const slug of ['zither-one', 'zither-two', 'zither-three']) {
      const res = await admin('POST', `/catalogs/${catalogId}/products`, product(slug, 'Zither'))
      assert.equal(res.statusCode, 201, res.body)
      ids[slug] = res.json().data.id
    }
    const byId = ['zither-one', 'zither-two', 'zither-three'].sort((a, b) => (ids[a]! < ids[b]! ? -1 : 1))
    assert.deepEqual((await search('zither')).products.map((p) => p.slug), byId)
    // The first product leaves and comes back: the index adds it again at its end.
    await admin('PATCH', `/products/${ids[byId[0]!]}`, { isActive: false })
    assert.deepEqual((await search('zither')).products.map((p) => p.slug), byId.slice(1))
    await admin('PATCH', `/products/${ids[byId[0]!]}`, { isActive: true })
    const back = await search('zither')
    assert.deepEqual(back.products.map((p) => p.slug), byId)
    assert.equal(back.totalResults, 3)
  })

  test('past the candidates scored, equal ranks still go by id, also for a product that came back', async () => {
    const products = Array.from({ length: 130 }, (_, i) => ({ ...product(`kazoo-${i}`, `Kazoo ${i}`), categorySlug: 'audio', categoryId: undefined }))
    const imported = await admin('POST', `/catalogs/${catalogId}/import`, { products })
    assert.equal(imported.statusCode, 200, imported.body)
    const rows = await queryRows<{ id: string; slug: string }>(t.deps.database.db, sql`select id, slug from products where catalog_id = ${catalogId} and slug like 'kazoo-%' order by id`)
    const page = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/search?q=kazoo&type=products&limit=20', headers: { 'x-api-key': partner.apiKey } })
      return res.json().data as { products: { slug: string; score: number }[]; totalResults: number }
    }
    const first = await page()
    assert.equal(first.totalResults, 130)
    assert.equal(new Set(first.products.map((p) => p.score)).size, 1, 'one score for all (names of the same length)')
    assert.deepEqual(first.products.map((p) => p.slug), rows.slice(0, 20).map((r) => r.slug))
    await admin('PATCH', `/products/${rows[0]!.id}`, { isActive: false })
    assert.deepEqual((await page()).products.map((p) => p.slug), rows.slice(1, 21).map((r) => r.slug))
    await admin('PATCH', `/products/${rows[0]!.id}`, { isActive: true })
    const back = await page()
    assert.deepEqual(back.products.map((p) => p.slug), rows.slice(0, 20).map((r) => r.slug))
    assert.equal(back.totalResults, 130)
  })

  test('a name with quotes, a backslash, a tab and non-Latin letters comes back from the indexed JSON as it was', async () => {
    const name = 'Sitar "Raga" O\'Neil \\ Edition\tसितार'
    const res = await admin('POST', `/catalogs/${catalogId}/products`, { ...product('sitar-raga', name), images: ['https://cdn.example.com/sitar.jpg?v=1&x=2'] })
    assert.equal(res.statusCode, 201, res.body)
    const answer = await t.app.inject({ method: 'GET', url: '/api/v1/search?q=sitar&limit=5', headers: { 'x-api-key': partner.apiKey } })
    const [hit] = answer.json().data.products
    assert.deepEqual(Object.keys(hit).sort(), ['brand', 'categoryId', 'id', 'images', 'name', 'score', 'sellingPrice', 'slug'])
    assert.equal(hit.name, name)
    assert.deepEqual(hit.images, ['https://cdn.example.com/sitar.jpg?v=1&x=2'])
    assert.equal(hit.sellingPrice, '100.00')
  })

  test('a renamed product is found by its new name only', async () => {
    await admin('PATCH', `/products/${ids['zither-two']}`, { name: 'Ukulele Deluxe' })
    assert.deepEqual((await search('ukulele')).products.map((p) => p.slug), ['zither-two'])
    assert.equal((await search('zither')).totalResults, 2)
  })

  test('a write whose transaction began before the last sync is still picked up', async () => {
    assert.equal((await search('harmonium')).totalResults, 0)
    // As a long transaction would leave it: its updated_at older than the index's last sync.
    await t.deps.database.db.execute(sql`
      update products set name = 'Harmonium', updated_at = now() - interval '1 hour',
        search_vector = to_tsvector('english', 'Harmonium'), search_text = 'harmonium acme audio'
      where id = ${ids['zither-three']!}`)
    // Any later back-office write bumps the catalog's version, and the next search syncs.
    assert.equal((await admin('POST', `/products/${ids['zither-one']}/stock`, { delta: 1 })).statusCode, 200)
    assert.deepEqual((await search('harmonium')).products.map((p) => p.slug), ['zither-three'])
  })
})

describe('while Redis cannot be asked', () => {
  test('a search syncs the index at most once a second: a write shows within a second, not at every search', async () => {
    const down = await createTestApp({ redisUrl: 'redis://127.0.0.1:1' })
    try {
      const db = down.deps.database.db
      const catalog = await createCatalog(db, 'Redis down')
      const shop = await givenPartner(down.deps, 'Redis down partner', catalog.id)
      await importCatalog(db, catalog.id, {
        categories: [{ slug: 'audio', name: 'Audio' }],
        products: [{ slug: 'ocarina', name: 'Ocarina', brand: 'Acme', sku: 'OC-1', categorySlug: 'audio', sellingPrice: '10', mrp: '10' }],
      })
      const found = async (q: string) =>
        (await down.app.inject({ method: 'GET', url: `/api/v1/search?q=${q}&type=products`, headers: { 'x-api-key': shop.apiKey } })).json().data.totalResults as number
      assert.notEqual(down.deps.redis?.status, 'ready')
      assert.equal(await found('ocarina'), 1)
      await db.execute(sql`update products set name = 'Theremin', search_vector = to_tsvector('english', 'Theremin'), search_text = 'theremin acme audio', updated_at = now() where slug = 'ocarina'`)
      // The second passes on a mocked Date (the index's sync time is Date.now()), not in a sleep.
      mock.timers.enable({ apis: ['Date'], now: Date.now() })
      try {
        assert.equal(await found('theremin'), 0, 'no sync at every search')
        mock.timers.tick(1100)
        assert.equal(await found('theremin'), 1, 'synced after a second')
      } finally {
        mock.timers.reset()
      }
    } finally {
      await down.close()
    }
  })
})

describe('an index built in a worker thread (large catalogs on PostgreSQL)', () => {
  const queries = ['samsung', 'boat airdopes 141', 'pressure cooker', 'iph', 'silk saree for wedding', 'samsng', 'kurta', 'ghee 1 l', 'xyzzy']
  /** Every answer of every query, bytes included, from one index. */
  async function answers(index: CatalogIndex) {
    const db = t.deps.database.db
    const out = []
    for (const q of queries) {
      const found = await searchCatalog(db, { catalogId: index.catalogId, q, limit: 50, products: true, categories: true }, async () => index)
      out.push({ ...found, products: found.products.map((p) => ({ ...p, json: Buffer.from(p.json).toString() })) })
    }
    return out
  }

  test('packed, sent with its buffers transferred and unpacked, the index answers exactly as built, and keeps in step with writes', async () => {
    const db = t.deps.database.db
    const expected = await answers(await buildIndex(db, demoCatalogId))
    const sent = await buildIndex(db, demoCatalogId)
    const { packed, transfer } = packIndex(sent)
    assert.ok(transfer.length > 0, 'typed arrays are moved, not copied')
    const received = unpackIndex(structuredClone(packed, { transfer }))
    assert.equal(sent.wordPool.data.byteLength, 0, "the sender's buffers were moved")
    assert.equal(received.live, sent.live)
    assert.deepEqual(await answers(received), expected)

    // The unpacked index syncs like any other: a new product is found, a removed one is not.
    const res = await admin('POST', `/catalogs/${demoCatalogId}/import`, {
      products: [{ slug: 'worker-zanzibar-kettle', name: 'Zanzibar kettle', brand: 'Prestige', sku: 'WZK-1', categorySlug: 'home-kitchen', sellingPrice: '999.00', mrp: '1299.00', stock: 3 }],
    })
    assert.equal(res.statusCode, 200, res.body)
    const synced = await syncIndex(db, received)
    const found = await searchCatalog(db, { catalogId: demoCatalogId, q: 'zanzibar', limit: 5, products: true, categories: false }, async () => synced)
    assert.deepEqual(found.products.map((p) => hitProduct(p).slug), ['worker-zanzibar-kettle'])
  })

  test('on PostgreSQL a worker thread builds the same index on a connection of its own; the embedded database has none to give it', async () => {
    const db = t.deps.database.db
    const url = connectionStringOf(db)
    if (t.deps.database.kind === 'pglite') {
      // The embedded database lives in this thread: every build stays here.
      assert.equal(url, null)
      return
    }
    assert.ok(url, 'a PostgreSQL pool knows where it connects')
    const built = await buildIndex(db, demoCatalogId)
    const fromWorker = await buildIndexInWorker(url, demoCatalogId)
    assert.equal(fromWorker.live, built.live)
    assert.deepEqual(await answers(fromWorker), await answers(built))
    // A worker that cannot build answers its error (here: no such database, 3D000) instead of hanging.
    await assert.rejects(buildIndexInWorker(url.replace(/\/[^/]*$/, '/no_such_database'), demoCatalogId), (err: Error & { cause?: { code?: string } }) => err.cause?.code === '3D000')
  })

  test('which build runs: from SEARCH_WORKER_MIN_PRODUCTS active products in a worker, fewer here; a worker that cannot connect is logged and the build runs here', async () => {
    const logs: { level: string; message: string; details: Record<string, unknown> }[] = []
    const log = {
      info: (details: object, message: string) => logs.push({ level: 'info', message, details: details as Record<string, unknown> }),
      warn: (details: object, message: string) => logs.push({ level: 'warn', message, details: details as Record<string, unknown> }),
    }
    const expected = await answers(await buildIndex(t.deps.database.db, demoCatalogId))
    const [{ n: products }] = (await queryRows<{ n: number }>(t.deps.database.db, sql`select count(*)::int as n from products where catalog_id = ${demoCatalogId} and is_active`)) as [{ n: number }]
    // Each case on a database handle of its own, so it starts without an index.
    const buildWith = async (workerMinProducts: number) => {
      const url = connectionStringOf(t.deps.database.db)
      const database = url ? await openDatabase({ databaseUrl: url, pgliteDir: null, poolSize: 2, schema }) : t.deps.database
      try {
        const index = await syncedIndex(database.db, demoCatalogId, { workerMinProducts, log })
        assert.deepEqual(await answers(index), expected)
      } finally {
        if (url) await database.close()
      }
    }
    if (t.deps.database.kind === 'pglite') {
      // The embedded database has no connection to give a worker: always here, whatever the threshold.
      await buildWith(1)
      assert.equal(logs.length, 0)
      return
    }
    await buildWith(products + 1)
    assert.equal(logs.length, 0, 'under the threshold: built here')
    await buildWith(products)
    assert.deepEqual(logs.map((l) => [l.level, l.message, l.details.products]), [['info', 'search index built in a worker thread', products]])
    logs.length = 0
    // The worker's own connection is refused (the database takes no new connections); the pool's is open.
    const [{ name }] = (await queryRows<{ name: string }>(t.deps.database.db, sql`select current_database() as name`)) as [{ name: string }]
    const url = connectionStringOf(t.deps.database.db)!
    // A database cannot close itself to connections: the switch is thrown from the server's own.
    const admin = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, '/postgres') })
    await admin.connect()
    const database = await openDatabase({ databaseUrl: url, pgliteDir: null, poolSize: 1, schema })
    try {
      await database.db.execute(sql`select 1`)
      await admin.query(`alter database "${name}" allow_connections false`)
      try {
        const index = await syncedIndex(database.db, demoCatalogId, { workerMinProducts: 1, log })
        assert.deepEqual(await answers(index), expected)
      } finally {
        await admin.query(`alter database "${name}" allow_connections true`)
      }
    } finally {
      await database.close()
      await admin.end()
    }
    assert.deepEqual(logs.map((l) => [l.level, l.message]), [['warn', 'search index worker failed: building in the serving thread']])
    assert.ok(logs[0]!.details.err instanceof Error)
  })
})
