import { and, eq } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { users } from './schema.sql.ts'

export const customerRepo = {
  /** Inserts the customer unless (partner, phone) exists, then returns the stored row. */
  async upsertByPhone(db: Executor, row: typeof users.$inferInsert) {
    await db.insert(users).values(row).onConflictDoNothing({ target: [users.partnerId, users.phone] })
    const [stored] = await db
      .select()
      .from(users)
      .where(and(eq(users.partnerId, row.partnerId), eq(users.phone, row.phone)))
      .limit(1)
    return stored!
  },
  async update(db: Executor, id: string, changes: Partial<typeof users.$inferInsert>) {
    const [row] = await db.update(users).set(changes).where(eq(users.id, id)).returning()
    return row!
  },
  async findById(db: Executor, id: string) {
    const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1)
    return row ?? null
  },
}
