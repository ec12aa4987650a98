// Data access of support tickets and their messages.
import { and, asc, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm'
import { containing } from '../../db/like.ts'
import type { Executor } from '../../db/client.ts'
import { scopeConditions } from '../../db/scope.ts'
import type { ListScope } from '../../lib/scope.ts'
import { orderIdsWithNumberLike } from '../orders/index.ts'
import { supportTickets, type TicketStatus, ticketMessages } from './schema.sql.ts'

export type TicketRow = typeof supportTickets.$inferSelect
export type MessageRow = typeof ticketMessages.$inferSelect

/** What a list may narrow by, within its scope (whose tickets: src/lib/scope.ts). */
export interface TicketFilter {
  status?: TicketStatus
  /** Topic, detail or order number, case-insensitive, partial. */
  search?: string
}

function filterWhere(scope: ListScope, f: TicketFilter): SQL | undefined {
  const c: SQL[] = scopeConditions(scope, supportTickets)
  if (f.status) c.push(eq(supportTickets.status, f.status))
  if (f.search) {
    const like = containing(f.search)
    c.push(
      or(
        ilike(supportTickets.topic, like),
        ilike(supportTickets.detail, like),
        inArray(supportTickets.orderId, orderIdsWithNumberLike(like)),
      )!,
    )
  }
  return c.length ? and(...c) : undefined
}

/**
 * A customer's tickets, newest first, a page with the count of all (a window over the same rows):
 * built once per database and prepared on the server (issue #43, as GET /users/me's query).
 */
const buildCustomerPage = (db: Executor) =>
  db
    .select({ ticket: supportTickets, total: sql<number>`(count(*) over ())::int`.mapWith(Number) })
    .from(supportTickets)
    .where(and(eq(supportTickets.partnerId, sql.placeholder('partnerId')), eq(supportTickets.userId, sql.placeholder('userId'))))
    .orderBy(desc(supportTickets.createdAt), desc(supportTickets.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('customer_tickets_page')
const customerPageQueries = new WeakMap<Executor, ReturnType<typeof buildCustomerPage>>()
const customerPageQuery = (db: Executor) => customerPageQueries.get(db) ?? customerPageQueries.set(db, buildCustomerPage(db)).get(db)!

export const ticketRepo = {
  async insert(tx: Executor, row: typeof supportTickets.$inferInsert) {
    const [created] = await tx.insert(supportTickets).values(row).returning()
    return created!
  },
  async find(db: Executor, id: string) {
    const [row] = await db.select().from(supportTickets).where(eq(supportTickets.id, id)).limit(1)
    return row ?? null
  },
  async lock(tx: Executor, id: string) {
    const [row] = await tx.select().from(supportTickets).where(eq(supportTickets.id, id)).for('update')
    return row ?? null
  },
  async update(tx: Executor, id: string, changes: Partial<typeof supportTickets.$inferInsert>) {
    const [row] = await tx.update(supportTickets).set(changes).where(eq(supportTickets.id, id)).returning()
    return row!
  },
  async page(db: Executor, scope: ListScope, filter: TicketFilter, page: number, limit: number) {
    if (scope.kind === 'customer' && !filter.status && !filter.search) {
      // A customer's own list, unfiltered (what apps show): one prepared query with its count.
      const rows = await customerPageQuery(db).execute({ partnerId: scope.partnerId, userId: scope.userId, limit, offset: (page - 1) * limit })
      if (rows.length > 0 || page === 1) return { rows: rows.map((r) => r.ticket), total: rows[0]?.total ?? 0 }
    }
    const where = filterWhere(scope, filter)
    const [rows, totals] = await Promise.all([
      db.select().from(supportTickets).where(where).orderBy(desc(supportTickets.createdAt), desc(supportTickets.id)).limit(limit).offset((page - 1) * limit),
      db.select({ n: count() }).from(supportTickets).where(where),
    ])
    return { rows, total: totals[0]?.n ?? 0 }
  },
  async addMessage(tx: Executor, row: typeof ticketMessages.$inferInsert) {
    const [created] = await tx.insert(ticketMessages).values(row).returning()
    return created!
  },
  messages(db: Executor, ticketId: string) {
    return db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, ticketId)).orderBy(asc(ticketMessages.createdAt), asc(ticketMessages.id))
  },
}
