// Migration 0021/0022 (decision 0029) on data from before registrations: catalogs that share a GSTIN
// become one registration; where their series collided, the issued numbers stay as printed and the
// merged series continues after the highest; a document belongs to the GSTIN printed on it, so a
// catalog that moved GSTIN leaves its old documents with the old registration.
import assert from 'node:assert/strict'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { type Database, openDatabase, queryRows } from '../../src/db/client.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { projectFile } from '../../src/lib/paths.ts'
import { schema } from '../helpers/schema-db.ts'

let database: Database
let folder: string

/** The migrations before registrations: a copy of drizzle/ whose journal ends at 0020. */
function migrationsBeforeRegistrations(): string {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-0020-'))
  cpSync(projectFile('drizzle'), dir, { recursive: true })
  const journal = JSON.parse(readFileSync(join(dir, 'meta', '_journal.json'), 'utf8')) as { entries: { idx: number }[] }
  journal.entries = journal.entries.filter((e) => e.idx <= 20)
  writeFileSync(join(dir, 'meta', '_journal.json'), JSON.stringify(journal))
  return dir
}

const X = '27AAPFU0939F1ZV'
const Y = '29AABCU9603R1ZM'
const seller = (gstin: string, name: string) => ({ name, tradeName: null, gstin, phone: null, stateCode: gstin.slice(0, 2), address: { line1: '12 Nariman Point', line2: null, city: 'Mumbai', state: 'Maharashtra', pincode: '400021' } })

async function legacyDocument(id: string, catalogId: string, serial: number, gstin: string, type = 'TAX_INVOICE', invoiceId: string | null = null) {
  const number = `${type === 'TAX_INVOICE' ? 'IN' : 'CN'}/26-27/${String(serial).padStart(7, '0')}`
  const document = { id, type, number, seller: seller(gstin, `Seller ${gstin}`), lines: [{ position: 1, hsnCode: '1101', description: 'Atta' }] }
  await database.db.execute(sql`insert into tax_documents (id, type, catalog_id, partner_id, financial_year, serial, number, order_id, invoice_id, issued_at, issue_date, place_of_supply_state_code, intra_state, taxable_value, cgst, sgst, igst, total, document)
    values (${id}, ${type}, ${catalogId}, 'prt_legacy', '2026-27', ${serial}, ${number}, ${`ord_${id}`}, ${invoiceId}, now(), '2026-11-20', '27', true, 10000, 250, 250, 0, 10500, ${JSON.stringify(document)}::jsonb)`)
  await database.db.execute(sql`insert into tax_document_lines (document_id, position, kind, quantity, gst_rate_bps, amount, discount, taxable_value, cgst, sgst, igst) values (${id}, 1, 'GOODS', 1, 500, 10500, 0, 10000, 250, 250, 0)`)
}

before(async () => {
  database = await openDatabase({ databaseUrl: null, pgliteDir: null, poolSize: 1, schema })
  folder = migrationsBeforeRegistrations()
  await migrate(drizzle(database.pglite!), { migrationsFolder: folder })
  const db = database.db
  for (const id of ['cat_a', 'cat_b', 'cat_moved']) await db.execute(sql`insert into catalogs (id, name) values (${id}, ${id})`)
  // Two catalogs of GSTIN X; a third that sold under X and then moved to Y.
  for (const [catalogId, gstin] of [['cat_a', X], ['cat_b', X], ['cat_moved', Y]] as const) {
    await db.execute(sql`insert into gst_sellers (catalog_id, legal_name, gstin, state_code, address_line1, city, state, pincode) values (${catalogId}, ${`Seller ${gstin}`}, ${gstin}, ${gstin.slice(0, 2)}, '12 Nariman Point', 'Mumbai', 'Maharashtra', '400021')`)
  }
  // The defect: each catalog of X ran its own series, so IN/26-27/0000001 and 0000002 were issued twice.
  await legacyDocument('doc_a1', 'cat_a', 1, X)
  await legacyDocument('doc_a2', 'cat_a', 2, X)
  await legacyDocument('doc_a3', 'cat_a', 3, X)
  await legacyDocument('doc_b1', 'cat_b', 1, X)
  await legacyDocument('doc_b2', 'cat_b', 2, X)
  await legacyDocument('doc_m1', 'cat_moved', 4, X) // sold under X before the move
  await legacyDocument('doc_m2', 'cat_moved', 5, Y) // its series went on after the move to Y
  await legacyDocument('doc_c1', 'cat_a', 1, X, 'CREDIT_NOTE', 'doc_a1')
  await migrateDatabase(database)
})
after(async () => {
  await database.close()
  rmSync(folder, { recursive: true, force: true })
})

test('catalogs sharing a GSTIN share one registration; each document joins the GSTIN printed on it', async () => {
  const registrations = await queryRows<{ id: string; gstin: string }>(database.db, sql`select id, gstin from gst_registrations order by gstin`)
  assert.deepEqual(
    registrations.map((r) => r.gstin),
    [X, Y],
  )
  const byGstin = new Map(registrations.map((r) => [r.gstin, r.id]))
  const links = await queryRows<{ catalog_id: string; registration_id: string }>(database.db, sql`select catalog_id, registration_id from gst_sellers order by catalog_id`)
  assert.deepEqual(
    links.map((l) => [l.catalog_id, l.registration_id]),
    [['cat_a', byGstin.get(X)], ['cat_b', byGstin.get(X)], ['cat_moved', byGstin.get(Y)]],
  )
  const docs = await queryRows<{ id: string; registration_id: string; number: string; duplicate_serial: boolean }>(database.db, sql`select id, registration_id, number, duplicate_serial from tax_documents order by id`)
  const of = new Map(docs.map((d) => [d.id, d]))
  assert.equal(of.get('doc_m1')!.registration_id, byGstin.get(X), 'a document issued under X stays with X after its catalog moved')
  assert.equal(of.get('doc_m2')!.registration_id, byGstin.get(Y))
  assert.deepEqual(
    docs.map((d) => d.number),
    ['IN/26-27/0000001', 'IN/26-27/0000002', 'IN/26-27/0000003', 'IN/26-27/0000001', 'IN/26-27/0000002', 'CN/26-27/0000001', 'IN/26-27/0000004', 'IN/26-27/0000005'],
    'every issued number is kept as printed',
  )
  assert.deepEqual(
    docs.filter((d) => d.duplicate_serial).map((d) => d.id),
    ['doc_b1', 'doc_b2'],
    'the later of each colliding pair is marked',
  )
})

test('the merged series continue after the highest serial each GSTIN issued', async () => {
  const series = await queryRows<{ gstin: string; series: string; last_serial: number }>(
    database.db,
    sql`select r.gstin, s.series, s.last_serial from gst_document_series s join gst_registrations r on r.id = s.registration_id order by 1, 2`,
  )
  assert.deepEqual(
    series.map((s) => [s.gstin, s.series, Number(s.last_serial)]),
    [[X, 'CN', 1], [X, 'IN', 4], [Y, 'IN', 5]],
  )
  // The unique index of the registration's series holds from here on.
  await assert.rejects(
    database.db.execute(sql`update tax_documents set serial = 3, number = 'IN/26-27/0000003' where id = 'doc_m1'`),
    (error: Error) => /tax_documents_registration_series_uq/.test(String(error.cause)),
  )
})
