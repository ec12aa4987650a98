// Tests read rows with Drizzle's relational queries (`db.query.products.findFirst`), which need every
// module's tables. The service's own database handle knows none (src/db/client.ts: the platform
// imports no module), so the test app opens its database with them, and its deps say so in types.
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import type { Database } from '../../src/db/client.ts'
import type { Deps } from '../../src/deps.ts'
import * as schema from '../../src/schema.ts'

export { schema }
export type SchemaDb = PgDatabase<PgQueryResultHKT, typeof schema>
export type TestDatabase = Omit<Database, 'db' | 'readDb'> & { db: SchemaDb; readDb: SchemaDb }
export type TestDeps = Omit<Deps, 'database'> & { database: TestDatabase }

/** The database opened with the tables: its handles answer relational queries. */
export const withTables = (database: Database): TestDatabase => database as unknown as TestDatabase
