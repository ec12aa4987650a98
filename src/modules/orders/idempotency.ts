// Idempotency keys for POST /orders and POST /orders/{id}/payments.
//
// A key is scoped to (partner, customer, route, key) and remembers a fingerprint of the body (the
// SHA-256 of its canonical JSON: keys sorted, so property order does not matter). The record is
// inserted in the same transaction as the effect it guards, after the customer's row lock, so two
// requests with one key cannot both create: the second waits for the lock and then sees the first's
// record. A rolled-back attempt leaves no record, so a failed request can be retried with its key.
// Records live IDEMPOTENCY_TTL_HOURS (24 h); the background job deletes them after that.
import { and, eq, lte } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { sha256 } from '../../lib/hashing.ts'
import { idempotencyKeys } from './schema.sql.ts'

export const IDEMPOTENCY_TTL_HOURS = 24
/** The primary key of idempotency_keys, as drizzle-kit named it in the migration. */
export const IDEMPOTENCY_KEY_CONSTRAINT = 'idempotency_keys_partner_id_user_id_route_key_pk'
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7e]{1,255}$/
export const DIFFERENT_PAYLOAD = 'Checkout idempotency key has already been used with a different payload'

export interface IdempotencyScope {
  partnerId: string
  userId: string
  route: string
  key: string
}

export type IdempotencyRecord = typeof idempotencyKeys.$inferSelect

/** JSON with object keys sorted at every depth. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

export const fingerprintOf = (body: unknown) => sha256(canonicalJson(body ?? {}))

/**
 * The header's value, checked: sent once, 1-255 printable ASCII characters. Read from the raw
 * header list (name, value, name, value…): Node joins a repeated header into "a, b", which would
 * otherwise pass as one key.
 */
export function idempotencyKeyOf(rawHeaders: string[]): string {
  const values = rawHeaders.filter((_, i) => i % 2 === 1 && rawHeaders[i - 1]!.toLowerCase() === 'x-idempotency-key')
  if (values.length > 1) throw new AppError('BAD_REQUEST', 'x-idempotency-key must be sent once')
  const value = values[0]
  if (value === undefined || value === '') throw new AppError('BAD_REQUEST', 'x-idempotency-key header is required')
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) throw new AppError('BAD_REQUEST', 'x-idempotency-key must be 1 to 255 printable characters')
  return value
}

const where = (scope: IdempotencyScope) =>
  and(
    eq(idempotencyKeys.partnerId, scope.partnerId),
    eq(idempotencyKeys.userId, scope.userId),
    eq(idempotencyKeys.route, scope.route),
    eq(idempotencyKeys.key, scope.key),
  )

export const idempotencyRepo = {
  /** The live record of this scope, if any (an expired one counts as absent). */
  async find(db: Executor, scope: IdempotencyScope, now: Date): Promise<IdempotencyRecord | null> {
    const [row] = await db.select().from(idempotencyKeys).where(where(scope)).limit(1)
    if (!row) return null
    if (row.expiresAt <= now) {
      await db.delete(idempotencyKeys).where(and(where(scope), lte(idempotencyKeys.expiresAt, now)))
      return null
    }
    return row
  },
  /**
   * The insert that records the key in the effect's transaction (not yet run: order creation writes
   * it in the same statement as the order); with `answer`, already DONE (no outside call follows).
   * A key recorded meanwhile by another request makes the statement fail on the primary key, and
   * the whole transaction with it: the caller then answers from that request's record.
   */
  beginInsert(tx: Executor, scope: IdempotencyScope, fingerprint: string, resourceId: string, now: Date, answer?: { status: number; body: unknown }) {
    return tx.insert(idempotencyKeys).values({
      ...scope,
      fingerprint,
      state: answer ? 'DONE' : 'IN_PROGRESS',
      responseStatus: answer?.status ?? null,
      responseBody: answer?.body ?? null,
      resourceId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_HOURS * 3_600_000),
    })
  },
  async begin(tx: Executor, scope: IdempotencyScope, fingerprint: string, resourceId: string, now: Date) {
    await idempotencyRepo.beginInsert(tx, scope, fingerprint, resourceId, now)
  },
  async complete(db: Executor, scope: IdempotencyScope, status: number, body: unknown) {
    await db.update(idempotencyKeys).set({ state: 'DONE', responseStatus: status, responseBody: body }).where(where(scope))
  },
  /** Deletes the keys that find() already treats as gone (expiresAt <= now), the boundary included. */
  async purgeExpired(db: Executor, now: Date) {
    const deleted = await db.delete(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, now)).returning({ key: idempotencyKeys.key })
    return deleted.length
  },
}

/** A key already used: same body -> the stored answer (or null while still in progress); another body -> 409. */
export function checkReuse(record: IdempotencyRecord, fingerprint: string): { status: number; body: unknown } | null {
  if (record.fingerprint !== fingerprint) throw new AppError('CONFLICT', DIFFERENT_PAYLOAD)
  if (record.state === 'DONE') return { status: record.responseStatus!, body: record.responseBody }
  return null
}
