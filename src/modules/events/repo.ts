// Data access of the outbox and its delivery attempts.
import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import { type Executor, queryRows } from '../../db/client.ts'
import { partnerHasWebhook } from '../partners/index.ts'
import { type OutboxStatus, outboxEvents, webhookDeliveries } from './schema.sql.ts'

export type OutboxEvent = typeof outboxEvents.$inferSelect
export type Delivery = typeof webhookDeliveries.$inferSelect

export interface EventFilter {
  partnerId?: string
  type?: string
  status?: OutboxStatus
  subjectId?: string
}

const filterWhere = (f: EventFilter): SQL | undefined => {
  const c: SQL[] = []
  if (f.partnerId) c.push(eq(outboxEvents.partnerId, f.partnerId))
  if (f.type) c.push(eq(outboxEvents.type, f.type))
  if (f.status) c.push(eq(outboxEvents.status, f.status))
  if (f.subjectId) c.push(eq(outboxEvents.subjectId, f.subjectId))
  return c.length ? and(...c) : undefined
}

export const eventRepo = {
  /**
   * Takes up to `limit` due events of partners that have a webhook URL, oldest first, and leases
   * them until `lockedUntil`. Rows another dispatcher is taking are skipped (SKIP LOCKED) and rows
   * it leased are not due, so two dispatchers never hold the same event.
   */
  async claim(db: Executor, now: Date, lockedUntil: Date, limit: number): Promise<OutboxEvent[]> {
    const claimed = await queryRows<{ id: string }>(db, sql`
      update outbox_events set locked_until = ${lockedUntil.toISOString()}, attempts = attempts + 1
      where id in (
        select e.id from outbox_events e
        where ${partnerHasWebhook(sql`e.partner_id`)} and e.status = 'PENDING' and e.next_attempt_at <= ${now.toISOString()}
          and (e.locked_until is null or e.locked_until <= ${now.toISOString()})
        order by e.created_at, e.id
        limit ${limit}
        for update of e skip locked
      )
      returning id`)
    const ids = claimed.map((r) => r.id)
    if (ids.length === 0) return []
    return db.select().from(outboxEvents).where(inArray(outboxEvents.id, ids)).orderBy(outboxEvents.createdAt, outboxEvents.id)
  },
  /**
   * Gives events claimed with the lease `lockedUntil` back unsent: claimable again at once, the claim
   * not counted as an attempt. An event whose lease ran out and was claimed by another node is left alone.
   */
  async release(db: Executor, ids: string[], lockedUntil: Date) {
    await db
      .update(outboxEvents)
      .set({ lockedUntil: null, attempts: sql`${outboxEvents.attempts} - 1` })
      .where(and(inArray(outboxEvents.id, ids), eq(outboxEvents.status, 'PENDING'), eq(outboxEvents.lockedUntil, lockedUntil)))
  },
  async recordDelivery(db: Executor, row: typeof webhookDeliveries.$inferInsert) {
    await db.insert(webhookDeliveries).values(row)
  },
  /** Changes an event; with `lockedUntil`, only while it is still held under that lease (null when it is not). */
  async update(db: Executor, id: string, changes: Partial<typeof outboxEvents.$inferInsert>, lockedUntil?: Date) {
    const held = lockedUntil ? and(eq(outboxEvents.id, id), eq(outboxEvents.lockedUntil, lockedUntil)) : eq(outboxEvents.id, id)
    const [row] = await db.update(outboxEvents).set(changes).where(held).returning()
    return row ?? null
  },
  async find(db: Executor, id: string) {
    const [row] = await db.select().from(outboxEvents).where(eq(outboxEvents.id, id)).limit(1)
    return row ?? null
  },
  deliveries(db: Executor, eventId: string) {
    return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId)).orderBy(webhookDeliveries.createdAt, webhookDeliveries.id)
  },
  async page(db: Executor, filter: EventFilter, page: number, limit: number) {
    const where = filterWhere(filter)
    const [rows, totals] = await Promise.all([
      db.select().from(outboxEvents).where(where).orderBy(desc(outboxEvents.createdAt), desc(outboxEvents.id)).limit(limit).offset((page - 1) * limit),
      db.select({ n: count() }).from(outboxEvents).where(where),
    ])
    return { rows, total: totals[0]?.n ?? 0 }
  },
  async requeue(db: Executor, where: SQL | undefined, now: Date) {
    const rows = await db
      .update(outboxEvents)
      .set({ status: 'PENDING', nextAttemptAt: now, lockedUntil: null, lastError: null })
      .where(where)
      .returning({ id: outboxEvents.id })
    return rows.length
  },
  filterWhere,
}
