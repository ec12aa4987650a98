// Reading the audit log (issue #39, decision 0033): newest first, filtered by the record (with the
// records under it: an order's lines, parcels, returns, refunds, tickets; a customer's ledger
// entries), by who, by operation and by time. What is recorded, and how, is the migration's trigger.
import { and, desc, eq, gte, lt, or, type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { type Page, pageMeta, pageOffset } from '../../lib/pagination.ts'
import { auditLog, type ObjectType } from './schema.sql.ts'

export interface AuditFilter {
  /** A record's id: its own entries and those of the records under it. */
  object?: string | undefined
  objectType?: ObjectType | undefined
  actorId?: string | undefined
  action?: string | undefined
  from?: Date | undefined
  to?: Date | undefined
}

export interface AuditEntry {
  id: number
  at: string
  actorId: string
  actorEmail: string
  action: string
  requestId: string
  objectType: ObjectType
  objectId: string
  relatedId: string | null
  operation: 'INSERT' | 'UPDATE' | 'DELETE'
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
}

/** Column names as the API spells fields: `selling_price` -> `sellingPrice`. */
const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())
const fields = (values: Record<string, unknown> | null) => (values ? Object.fromEntries(Object.entries(values).map(([k, v]) => [camel(k), v])) : null)

export async function listAuditEntries(db: Executor, filter: AuditFilter, page: Page): Promise<{ data: AuditEntry[]; meta: ReturnType<typeof pageMeta> }> {
  const where: SQL[] = []
  if (filter.object) where.push(or(eq(auditLog.objectId, filter.object), eq(auditLog.relatedId, filter.object))!)
  if (filter.objectType) where.push(eq(auditLog.objectType, filter.objectType))
  if (filter.actorId) where.push(eq(auditLog.actorId, filter.actorId))
  if (filter.action) where.push(eq(auditLog.action, filter.action))
  if (filter.from) where.push(gte(auditLog.at, filter.from))
  if (filter.to) where.push(lt(auditLog.at, filter.to))
  const condition = where.length > 0 ? and(...where) : undefined
  const [rows, [total]] = await Promise.all([
    db.select().from(auditLog).where(condition).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(page.limit).offset(pageOffset(page)),
    db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(condition),
  ])
  const data = rows.map((r) => ({ ...r, at: r.at.toISOString(), before: fields(r.before ?? null), after: fields(r.after ?? null) }))
  return { data, meta: pageMeta(total?.n ?? 0, page) }
}
