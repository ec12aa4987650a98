// Applies the committed SQL migrations in drizzle/. On PostgreSQL, several nodes may start at once:
// an advisory lock makes them take turns, and the later ones find nothing left to do.
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { projectFile } from '../lib/paths.ts'
import type { Database } from './client.ts'

const migrationsFolder = projectFile('drizzle')
const MIGRATION_LOCK = 72_616_001

/** When the newest migration of drizzle/ was made: drizzle's journal records it as `when`. */
function newestMigrationMillis(): number {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: { when: number }[] }
  return Math.max(...journal.entries.map((e) => e.when))
}

/**
 * True when the database has every migration of drizzle/ already: one query. Drizzle's migrator
 * decides the same way (a migration runs when it is newer than the newest applied one) but first
 * reads and hashes every SQL file and runs its DDL; skipping that takes ~70 ms off every start and
 * command on the embedded database. False on any doubt (no migrations table yet): the migrator runs.
 */
async function upToDate(query: (text: string) => Promise<{ rows: unknown[] }>): Promise<boolean> {
  try {
    const { rows } = await query('select max(created_at)::text as newest from drizzle.__drizzle_migrations')
    const newest = Number((rows[0] as { newest: string | null } | undefined)?.newest)
    return Number.isFinite(newest) && newest >= newestMigrationMillis()
  } catch {
    return false
  }
}

export async function migrateDatabase(database: Database): Promise<void> {
  if (database.pglite) {
    if (await upToDate((text) => database.pglite!.query(text))) return
    await migratePglite(drizzlePglite(database.pglite), { migrationsFolder })
    return
  }
  if (await upToDate((text) => database.pool!.query(text))) return
  const [{ drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([import('drizzle-orm/node-postgres'), import('drizzle-orm/node-postgres/migrator')])
  const client = await database.pool!.connect()
  try {
    // Nodes starting together wait here for the first one's migrations, however long they take
    // (the pool's lock_timeout is for requests).
    await client.query('set lock_timeout = 0')
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
    await migratePg(drizzlePg(client), { migrationsFolder })
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {})
    await client.query('reset lock_timeout').catch(() => {})
    client.release()
  }
}
