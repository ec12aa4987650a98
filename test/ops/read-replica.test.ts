// DATABASE_READ_URL: partners' catalog reads (product pages, lists, categories, search) go to the
// read replica; everything that writes or must see its own writes (back office, carts and orders)
// stays on the primary. A "replica" here is a second database holding the same rows with one
// product renamed, so the answer shows which database served it. Runs on both suites against the
// machine's PostgreSQL (the embedded database has no replicas).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { type Database, openDatabase } from '../../src/db/client.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import type { Deps } from '../../src/deps.ts'
import { systemClock } from '../../src/lib/clock.ts'
import { createCatalog } from '../../src/modules/catalog/index.ts'
import { importCatalog } from '../../src/modules/catalog/import.ts'
import { catalogs, categories, products } from '../../src/modules/catalog/schema.sql.ts'
import { createPartner } from '../../src/modules/partners/index.ts'
import { freshPostgres, POSTGRES_URL, TEST_AUTH_SECRET } from '../helpers/app.ts'
import { testLogger } from '../helpers/log-capture.ts'
import { unlessMachineHas } from '../helpers/machine-services.ts'
import { schema } from '../helpers/schema-db.ts'

const skip = await unlessMachineHas('postgres')

let primary: Awaited<ReturnType<typeof freshPostgres>>
let replica: Awaited<ReturnType<typeof freshPostgres>>
let database: Database
let app: Awaited<ReturnType<typeof buildApp>>
let apiKey: string

before(async () => {
  if (skip) return
  primary = await freshPostgres(POSTGRES_URL)
  replica = await freshPostgres(POSTGRES_URL)
  for (const url of [primary.url, replica.url]) {
    const db = await openDatabase({ databaseUrl: url, pgliteDir: null, poolSize: 2, schema })
    await migrateDatabase(db)
    await db.close()
  }
  const config = loadConfig({ NODE_ENV: 'test', AUTH_SECRET: TEST_AUTH_SECRET, LOG_LEVEL: 'silent', DATABASE_URL: primary.url, DATABASE_READ_URL: replica.url })
  database = await openDatabase({ databaseUrl: config.databaseUrl, readUrl: config.databaseReadUrl, pgliteDir: null, poolSize: 4, schema })
  const catalog = await createCatalog(database.db, 'Replica test')
  await importCatalog(database.db, catalog.id, {
    categories: [{ slug: 'tools', name: 'Tools' }],
    products: [{ slug: 'widget', name: 'Widget primary', brand: 'Acme', sku: 'W-1', categorySlug: 'tools', sellingPrice: '100.00', mrp: '120.00', stock: 5 }],
  })
  apiKey = (await createPartner(database.db, { name: 'Replica partner', catalogId: catalog.id })).apiKey
  // The replica holds the same catalog rows, as streaming replication would, but for the name.
  await database.readDb.insert(catalogs).values(await database.db.select().from(catalogs))
  await database.readDb.insert(categories).values(await database.db.select().from(categories))
  const rows = await database.db.select().from(products)
  await database.readDb.insert(products).values(rows.map((p) => ({ ...p, name: 'Widget replica' })))
  const deps: Deps = { config, database, redis: null, clock: systemClock, logger: testLogger(config) }
  app = await buildApp(deps)
  await app.ready()
})

after(async () => {
  await app?.close()
  await database?.close()
  await primary?.drop()
  await replica?.drop()
})

describe('DATABASE_READ_URL', { skip }, () => {
  const get = async (url: string) => (await app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { 'x-api-key': apiKey } })).json()

  test('product pages, lists, categories and search answer from the replica', async () => {
    assert.equal((await get('/products/widget')).data.name, 'Widget replica')
    assert.deepEqual(
      (await get('/products?limit=5')).data.map((p: { name: string }) => p.name),
      ['Widget replica'],
    )
    assert.deepEqual(
      (await get('/categories')).data.map((c: { slug: string }) => c.slug),
      ['tools'],
    )
    assert.deepEqual(
      (await get('/search?q=widget&type=products')).data.products.map((p: { name: string }) => p.name),
      ['Widget replica'],
    )
  })

  test('API keys are checked on the primary: a partner the replica has never seen is served', async () => {
    assert.equal((await app.inject({ method: 'GET', url: '/api/v1/products/widget', headers: { 'x-api-key': apiKey } })).statusCode, 200)
  })
})
