// Migrations at start: a database that has every migration of drizzle/ costs one query (the server
// and every command open it; drizzle's migrator would read and hash every SQL file and run its DDL).
// Runs on both backends (openTestDatabase: TEST_DATABASE_URL or the embedded database).
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import type { Database } from '../../src/db/client.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { openTestDatabase } from '../helpers/app.ts'

let opened: Awaited<ReturnType<typeof openTestDatabase>>
let database: Database

before(async () => {
  opened = await openTestDatabase()
  database = opened.database
})
after(() => opened.drop())

/** What the database is sent from now on: each statement's text, and `connect` for a pool checkout. */
function recordCalls(db: Database): { calls: string[]; stop(): void } {
  const calls: string[] = []
  const target = (db.pglite ?? db.pool!) as unknown as Record<string, (...args: unknown[]) => unknown>
  const methods = db.pglite ? ['query', 'exec', 'transaction'] : ['query', 'connect']
  const originals = methods.map((m) => [m, target[m]!] as const)
  let inQuery = false // pg's pool.query checks a client out through pool.connect, synchronously
  for (const [m, original] of originals) {
    target[m] = function (this: unknown, ...args: unknown[]) {
      const first = args[0]
      if (m === 'connect' && inQuery) return original.apply(this, args)
      calls.push(m === 'connect' || m === 'transaction' ? m : typeof first === 'string' ? first : String((first as { text?: string })?.text))
      inQuery = m === 'query'
      try {
        return original.apply(this, args)
      } finally {
        inQuery = false
      }
    }
  }
  return { calls, stop: () => originals.forEach(([m, original]) => (target[m] = original)) }
}

const journal = JSON.parse(readFileSync(new URL('../../drizzle/meta/_journal.json', import.meta.url), 'utf8')) as { entries: { when: number }[] }

test('a database holding every migration is migrated with one query and left as it was', async () => {
  const applied = async () => {
    const rows = database.pglite
      ? (await database.pglite.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations')).rows
      : (await database.pool!.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations')).rows
    return rows[0]!.n
  }
  assert.equal(await applied(), journal.entries.length)
  const recorder = recordCalls(database)
  try {
    await migrateDatabase(database)
  } finally {
    recorder.stop()
  }
  assert.equal(recorder.calls.length, 1, recorder.calls.join('\n'))
  assert.match(recorder.calls[0]!, /max\(created_at\).*__drizzle_migrations/)
  assert.equal(await applied(), journal.entries.length)
})

test('a database whose newest migration is older than drizzle/ newest is handed to the migrator', async () => {
  // The newest row made one millisecond older: drizzle's own rule then applies the newest file again.
  const older = `update drizzle.__drizzle_migrations set created_at = created_at - 1 where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`
  const restore = `update drizzle.__drizzle_migrations set created_at = ${Math.max(...journal.entries.map((e) => e.when))} where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`
  const run = (text: string) => (database.pglite ? database.pglite.query(text) : database.pool!.query(text))
  await run(older)
  const recorder = recordCalls(database)
  let outcome: unknown = 'applied'
  try {
    await migrateDatabase(database)
  } catch (err) {
    // The newest migration ran before (this database has it): running it again may fail, in the
    // migrator's transaction, which rolls back. Either way the migrator was the one to decide.
    outcome = err
  } finally {
    recorder.stop()
    await run(restore)
  }
  assert.ok(recorder.calls.length > 1, `the migrator ran (${recorder.calls.length} call(s); ${String(outcome)})`)
  assert.ok(recorder.calls.includes(database.pglite ? 'transaction' : 'connect') || recorder.calls.some((c) => /create schema/i.test(c)), recorder.calls.slice(0, 5).join('\n'))
})
