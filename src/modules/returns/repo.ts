// Data access of return requests, their items and history.
import { and, asc, count, desc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm'
import { containing } from '../../db/like.ts'
import { type Executor, queryRows } from '../../db/client.ts'
import { scopeConditions } from '../../db/scope.ts'
import type { ListScope } from '../../lib/scope.ts'
import { newId } from '../../lib/ids.ts'
import { orderIdsWithNumberLike } from '../orders/index.ts'
import { type Resolution, returnHistory, returnItems, returnRequests, type ReturnStatus } from './schema.sql.ts'

export type ReturnRow = typeof returnRequests.$inferSelect
export type ReturnItemRow = typeof returnItems.$inferSelect

/** What a list may narrow by, within its scope (whose returns: src/lib/scope.ts). */
export interface ReturnFilter {
  status?: ReturnStatus
  resolution?: Resolution
  /** Reason, detail or order number, case-insensitive, partial. */
  search?: string
}

function filterWhere(scope: ListScope, f: ReturnFilter): SQL | undefined {
  const c: SQL[] = scopeConditions(scope, returnRequests)
  if (f.status) c.push(eq(returnRequests.status, f.status))
  if (f.resolution) c.push(eq(returnRequests.requestedResolution, f.resolution))
  if (f.search) {
    const like = containing(f.search)
    c.push(
      or(
        ilike(returnRequests.reason, like),
        ilike(returnRequests.detail, like),
        inArray(returnRequests.orderId, orderIdsWithNumberLike(like)),
      )!,
    )
  }
  return c.length ? and(...c) : undefined
}

export const returnRepo = {
  /** What the order's other returns that were refunded (reached REFUND_PENDING, whatever came after) asked for. */
  async refundedBefore(tx: Executor, orderId: string, exceptId: string): Promise<bigint> {
    const rows = await queryRows<{ total: string }>(
      tx,
      sql`select coalesce(sum(rr.requested_amount), 0)::text as total from return_requests rr
          where rr.order_id = ${orderId} and rr.id <> ${exceptId}
            and exists (select 1 from return_history h where h.return_request_id = rr.id and h.to_status = 'REFUND_PENDING')`,
    )
    return BigInt(rows[0]?.total ?? '0')
  },
  async insert(tx: Executor, row: typeof returnRequests.$inferInsert, items: (typeof returnItems.$inferInsert)[]) {
    const [created] = await tx.insert(returnRequests).values(row).returning()
    await tx.insert(returnItems).values(items)
    return created!
  },
  async find(db: Executor, id: string) {
    const [row] = await db.select().from(returnRequests).where(eq(returnRequests.id, id)).limit(1)
    return row ?? null
  },
  async lock(tx: Executor, id: string) {
    const [row] = await tx.select().from(returnRequests).where(eq(returnRequests.id, id)).for('update')
    return row ?? null
  },
  async update(tx: Executor, id: string, changes: Partial<typeof returnRequests.$inferInsert>) {
    const [row] = await tx.update(returnRequests).set(changes).where(eq(returnRequests.id, id)).returning()
    return row!
  },
  items(db: Executor, returnIds: string[]) {
    if (returnIds.length === 0) return Promise.resolve([])
    return db.select().from(returnItems).where(inArray(returnItems.returnRequestId, returnIds)).orderBy(asc(returnItems.id))
  },
  /** Units of each order item already in returns that were not REJECTED. */
  async returnedQuantities(db: Executor, orderId: string): Promise<Map<string, number>> {
    const rows = await db
      .select({ orderItemId: returnItems.orderItemId, n: sql<number>`sum(${returnItems.quantity})::int` })
      .from(returnItems)
      .innerJoin(returnRequests, eq(returnRequests.id, returnItems.returnRequestId))
      .where(and(eq(returnRequests.orderId, orderId), ne(returnRequests.status, 'REJECTED')))
      .groupBy(returnItems.orderItemId)
    return new Map(rows.map((r) => [r.orderItemId, r.n]))
  },
  async page(db: Executor, scope: ListScope, filter: ReturnFilter, page: number, limit: number) {
    const where = filterWhere(scope, filter)
    const [rows, totals] = await Promise.all([
      db.select().from(returnRequests).where(where).orderBy(desc(returnRequests.createdAt), desc(returnRequests.id)).limit(limit).offset((page - 1) * limit),
      db.select({ n: count() }).from(returnRequests).where(where),
    ])
    return { rows, total: totals[0]?.n ?? 0 }
  },
  async addHistory(tx: Executor, row: Omit<typeof returnHistory.$inferInsert, 'id'>) {
    await tx.insert(returnHistory).values({ id: newId('rth', row.createdAt.getTime()), ...row })
  },
  history(db: Executor, id: string) {
    return db.select().from(returnHistory).where(eq(returnHistory.returnRequestId, id)).orderBy(asc(returnHistory.createdAt), asc(returnHistory.id))
  },
}
