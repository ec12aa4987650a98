import { asc, eq } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { catalogs } from './schema.sql.ts'

export const catalogRepo = {
  async insert(db: Executor, row: typeof catalogs.$inferInsert) {
    const [created] = await db.insert(catalogs).values(row).returning()
    return created!
  },
  async findById(db: Executor, id: string) {
    const [row] = await db.select().from(catalogs).where(eq(catalogs.id, id)).limit(1)
    return row ?? null
  },
  async findOldest(db: Executor) {
    const [row] = await db.select().from(catalogs).orderBy(asc(catalogs.createdAt), asc(catalogs.id)).limit(1)
    return row ?? null
  },
}
