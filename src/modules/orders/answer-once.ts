// Runs a keyed request (x-idempotency-key) once, and answers a repeat with what the first answered.
// Used by POST /orders and POST /orders/{id}/payments; the key's record itself is idempotency.ts.
import type { Executor } from '../../db/client.ts'
import type { Clock } from '../../lib/clock.ts'
import { AppError, isUniqueViolation } from '../../lib/errors.ts'
import { checkReuse, fingerprintOf, IDEMPOTENCY_KEY_CONSTRAINT, type IdempotencyScope, idempotencyRepo } from './idempotency.ts'
import type { OrderDetail } from './views.ts'

export interface StoredAnswer {
  status: number
  body: unknown
  replayed: boolean
}

export interface Answer {
  status: number
  body: unknown
}

/** What a creating transaction hands on: the new resource, its rows, and its answer when already final. */
export interface Created {
  resourceId: string
  answer?: Answer
  rows?: Omit<OrderDetail, 'refunds'>
}

/** The phase after the transaction (an outside call, then the answer); safe to run again for the same resource. */
export type Finish = (resourceId: string, created?: Created) => Promise<Answer>

/** How long a second request with a key waits for the first to finish before answering 409. */
const IN_PROGRESS_WAIT_MS = 3000
const STALE_IN_PROGRESS_MS = 30_000

/**
 * Runs `create` once per key, or answers with what the key already produced. `create` records the
 * key in its transaction (idempotencyRepo.beginInsert), so a key used before makes it fail: on any
 * failure the key's record, if there is one, gives the answer. A fresh key costs no lookup; a
 * replay costs a transaction that rolls back. `finish` turns the created resource into the answer.
 */
export async function answerOnce(db: Executor, clock: Clock, scope: IdempotencyScope, body: unknown, create: () => Promise<Created>, finish: Finish): Promise<StoredAnswer> {
  const fingerprint = fingerprintOf(body)
  for (let attempt = 1; ; attempt++) {
    let created: Created
    try {
      created = await create()
    } catch (err) {
      // A replay, or a request with the same key that committed first (this one then failed on
      // the key's record, or on something the first one changed, such as the last unit of stock).
      const previous = await previousAnswer(db, clock, scope, fingerprint, finish)
      if (previous) return previous
      // Nothing recorded: an expired record was in the way (find() removed it), or the order number drawn was taken.
      const retry = isUniqueViolation(err, IDEMPOTENCY_KEY_CONSTRAINT) || isUniqueViolation(err, 'orders_order_number_uq')
      if (retry && attempt < 3) continue
      throw err
    }
    // Stored with the effect itself: nothing was left to do outside the transaction.
    if (created.answer) return { ...created.answer, replayed: false }
    const answer = await finish(created.resourceId, created)
    await idempotencyRepo.complete(db, scope, answer.status, answer.body)
    return { ...answer, replayed: false }
  }
}

/** What an earlier request with the key answered, waiting a moment while it is in progress; null when the key is unused. */
export async function previousAnswer(db: Executor, clock: Clock, scope: IdempotencyScope, fingerprint: string, finish: Finish): Promise<StoredAnswer | null> {
  const deadline = Date.now() + IN_PROGRESS_WAIT_MS
  for (;;) {
    const existing = await idempotencyRepo.find(db, scope, clock.now())
    if (!existing) return null
    const stored = checkReuse(existing, fingerprint)
    if (stored) return { ...stored, replayed: true }
    // The first request committed its effect but has not stored its answer yet.
    if (clock.now().getTime() - existing.createdAt.getTime() > STALE_IN_PROGRESS_MS) {
      // Its process died between commit and answer: finish the job for it.
      const answer = await finish(existing.resourceId!)
      await idempotencyRepo.complete(db, scope, answer.status, answer.body)
      return { ...answer, replayed: true }
    }
    if (Date.now() > deadline) throw new AppError('CONFLICT', 'A request with this x-idempotency-key is still in progress; retry in a moment')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
