// Applies the committed SQL migrations in drizzle/. On PostgreSQL, several nodes may start at once:
// an advisory lock makes them take turns, and the later ones find nothing left to do.
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { projectFile } from '../lib/paths.ts'
import type { Database } from './client.ts'

const migrationsFolder = projectFile('drizzle')
const MIGRATION_LOCK = 72_616_001

export async function migrateDatabase(database: Database): Promise<void> {
  if (database.pglite) {
    await migratePglite(drizzlePglite(database.pglite), { migrationsFolder })
    return
  }
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
