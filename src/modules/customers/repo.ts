import { and, asc, count, desc, eq, ilike, ne, type SQL, sql } from 'drizzle-orm'
import { containing } from '../../db/like.ts'
import type { Executor } from '../../db/client.ts'
import { addresses, users } from './schema.sql.ts'

/**
 * GET /users/me's one query, built once per database and prepared on the server (a named statement:
 * parsed and planned once per connection), so a profile read builds no SQL (issue #43).
 */
const buildWithAddresses = (db: Executor) =>
  db
    .select({ user: users, address: addresses })
    .from(users)
    .leftJoin(addresses, eq(addresses.userId, users.id))
    .where(eq(users.id, sql.placeholder('id')))
    .orderBy(desc(addresses.isDefault), asc(addresses.createdAt), asc(addresses.id))
    .prepare('customer_with_addresses')
const withAddressesQueries = new WeakMap<Executor, ReturnType<typeof buildWithAddresses>>()
const withAddressesQuery = (db: Executor) => withAddressesQueries.get(db) ?? withAddressesQueries.set(db, buildWithAddresses(db)).get(db)!

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
  /** Serialises address changes of one customer (default flag, cap) behind a row lock. */
  async lockCustomer(db: Executor, id: string) {
    const [row] = await db.select().from(users).where(eq(users.id, id)).for('update')
    return row ?? null
  },
  /** The customer and its addresses (default first) in one round trip: a profile read. */
  async findWithAddresses(db: Executor, id: string) {
    const rows = await withAddressesQuery(db).execute({ id })
    if (rows.length === 0) return null
    return { user: rows[0]!.user, addresses: rows.flatMap((r) => (r.address ? [r.address] : [])) }
  },
  listAddresses(db: Executor, userId: string) {
    return db.select().from(addresses).where(eq(addresses.userId, userId)).orderBy(desc(addresses.isDefault), asc(addresses.createdAt), asc(addresses.id))
  },
  async countAddresses(db: Executor, userId: string) {
    const [row] = await db.select({ n: count() }).from(addresses).where(eq(addresses.userId, userId))
    return row?.n ?? 0
  },
  async findAddress(db: Executor, userId: string, id: string) {
    const [row] = await db.select().from(addresses).where(and(eq(addresses.id, id), eq(addresses.userId, userId))).limit(1)
    return row ?? null
  },
  async insertAddress(db: Executor, row: typeof addresses.$inferInsert) {
    const [created] = await db.insert(addresses).values(row).returning()
    return created!
  },
  async updateAddress(db: Executor, id: string, changes: Partial<typeof addresses.$inferInsert>) {
    const [row] = await db.update(addresses).set(changes).where(eq(addresses.id, id)).returning()
    return row!
  },
  async clearDefault(db: Executor, userId: string, exceptId?: string) {
    const where = exceptId
      ? and(eq(addresses.userId, userId), eq(addresses.isDefault, true), ne(addresses.id, exceptId))
      : and(eq(addresses.userId, userId), eq(addresses.isDefault, true))
    await db.update(addresses).set({ isDefault: false }).where(where)
  },
  async deleteAddress(db: Executor, id: string) {
    await db.delete(addresses).where(eq(addresses.id, id))
  },
  /** Customers, newest first, within the back office's scope (one partner or all). */
  async page(db: Executor, filter: { partnerId?: string; phone?: string; email?: string; name?: string }, page: number, limit: number) {
    const c: SQL[] = []
    if (filter.partnerId !== undefined) c.push(eq(users.partnerId, filter.partnerId))
    if (filter.phone !== undefined) c.push(eq(users.phone, filter.phone))
    if (filter.email !== undefined) c.push(eq(users.email, filter.email))
    if (filter.name !== undefined) c.push(ilike(users.name, containing(filter.name)))
    const where = c.length ? and(...c) : undefined
    const [rows, totals] = await Promise.all([
      db.select().from(users).where(where).orderBy(desc(users.createdAt), desc(users.id)).limit(limit).offset((page - 1) * limit),
      db.select({ n: count() }).from(users).where(where),
    ])
    return { rows, total: totals[0]?.n ?? 0 }
  },
  async mostRecentAddress(db: Executor, userId: string) {
    const [row] = await db.select().from(addresses).where(eq(addresses.userId, userId)).orderBy(desc(addresses.createdAt), desc(addresses.id)).limit(1)
    return row ?? null
  },
}
