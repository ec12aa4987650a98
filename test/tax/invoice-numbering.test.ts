// Invoice numbers under concurrency across processes (decisions 0022, 0029): two catalogs selling under
// one GSTIN, two processes, each issuing 40 invoices over 4 connections at once, alternating between
// the catalogs, numbered after their commits in batches or (a third) inside their transactions, a
// fifth of them rolled back after being numbered. The committed numbers are 1..N of
// the registration's one series: no gap, no duplicate, whichever catalog sold. Uses the
// machine's PostgreSQL in both suites (TEST_DATABASE_URL's server, or 127.0.0.1:5432): an embedded
// database belongs to one process.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'
import { asc, eq } from 'drizzle-orm'
import { type Database, openDatabase } from '../../src/db/client.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { createCatalog } from '../../src/modules/catalog/index.ts'
import { gstRegistrations, gstSellers, taxDocuments } from '../../src/modules/tax/schema.sql.ts'
import { freshPostgres } from '../helpers/app.ts'
import { unlessMachineHas } from '../helpers/machine-services.ts'
import { schema } from '../helpers/schema-db.ts'

const run = promisify(execFile)
let database: Database
let url: string
let drop: () => Promise<void>
const skip = await unlessMachineHas('postgres')

before(async () => {
  if (skip) return
  const fresh = await freshPostgres()
  url = fresh.url
  drop = fresh.drop
  database = await openDatabase({ databaseUrl: url, pgliteDir: null, poolSize: 2, schema })
  await migrateDatabase(database)
})
after(async () => {
  await database?.close()
  await drop?.()
})

test('two catalogs of one GSTIN, orders alternating between them from two processes: one series, consecutive numbers, none missing, none twice, rolled-back ones given back', { skip }, async () => {
  const catalogs = [await createCatalog(database.db, 'Sold through partner one'), await createCatalog(database.db, 'Sold through partner two')]
  await database.db.insert(gstRegistrations).values({ id: 'gsr_numbering', legalName: 'Acme Retail Private Limited', gstin: '27AAPFU0939F1ZV', stateCode: '27', addressLine1: '12 Nariman Point', city: 'Mumbai', state: 'Maharashtra', pincode: '400021' })
  await database.db.insert(gstSellers).values(catalogs.map((c) => ({ catalogId: c.id, registrationId: 'gsr_numbering' })))
  const worker = new URL('./invoice-numbering.worker.ts', import.meta.url).pathname
  const spawnWorker = (name: string) =>
    run(process.execPath, ['--import', 'tsx', worker], { env: { ...process.env, DATABASE_URL: url, CATALOG_IDS: catalogs.map((c) => c.id).join(','), COUNT: '40', NAME: name }, timeout: 120_000 })
  const outputs = await Promise.all([spawnWorker('A'), spawnWorker('B')])
  const committed = outputs.flatMap((o) => JSON.parse(o.stdout.trim().split('\n').at(-1)!) as string[])
  assert.equal(committed.length, 64, '32 of 40 commit in each process')

  const rows = await database.db.select().from(taxDocuments).where(eq(taxDocuments.registrationId, 'gsr_numbering')).orderBy(asc(taxDocuments.serial))
  for (const c of catalogs) assert.ok(rows.filter((r) => r.catalogId === c.id).length >= 30, 'both catalogs sold')
  assert.deepEqual(
    rows.map((r) => r.serial),
    Array.from({ length: 64 }, (_, i) => i + 1),
    'serials 1..64',
  )
  assert.deepEqual(rows.map((r) => r.orderId).sort(), [...committed].sort(), 'what the processes committed is what is stored')
  assert.equal(new Set(rows.map((r) => r.number)).size, 64)
  for (const r of rows) assert.equal(r.number, `IN/${r.financialYear.slice(2)}/${String(r.serial).padStart(7, '0')}`)
  for (const r of rows) assert.equal(r.document.number, r.number, 'the answered document carries its number')
})
