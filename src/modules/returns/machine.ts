// The return machine: which moves are allowed, and the one function that makes a move (the row,
// its history and its return.status_changed event, in the caller's transaction).
//
//   REQUESTED -> UNDER_REVIEW -> NEEDS_INFO <-> UNDER_REVIEW -> APPROVED | REJECTED
//   APPROVED -> REFUND_PENDING -> REFUNDED | REFUND_FAILED;  REFUND_FAILED -> REFUND_PENDING (retry)
//   REFUNDED -> RESOLVED;  an approved REPLACEMENT -> RESOLVED with a zero-value replacement order
import type { Executor } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { recordEvent } from '../events/index.ts'
import { countReturnedUnits } from '../orders/index.ts'
import { returnRepo, type ReturnRow } from './repo.ts'
import type { ReturnStatus } from './schema.sql.ts'
import { returnView } from './views.ts'

export const RETURN_MOVES: Record<ReturnStatus, ReturnStatus[]> = {
  REQUESTED: ['UNDER_REVIEW'],
  UNDER_REVIEW: ['NEEDS_INFO', 'APPROVED', 'REJECTED'],
  NEEDS_INFO: ['UNDER_REVIEW'],
  APPROVED: ['REFUND_PENDING', 'RESOLVED'],
  REJECTED: [],
  REFUND_PENDING: ['REFUNDED', 'REFUND_FAILED'],
  REFUNDED: ['RESOLVED'],
  REFUND_FAILED: ['REFUND_PENDING'],
  RESOLVED: [],
}

/** 409 unless the machine allows the move. */
export function checkMove(from: ReturnStatus, to: ReturnStatus) {
  if (!RETURN_MOVES[from].includes(to)) throw new AppError('CONFLICT', `Return request cannot move from ${from} to ${to}`)
}

/** Moves the return one step, with history and event (carrying the return as it is after the move). */
export async function moveReturn(tx: Executor, row: ReturnRow, to: ReturnStatus, actor: string, note: string | null, at: Date, changes: Partial<ReturnRow> = {}) {
  checkMove(row.status, to)
  const updated = await returnRepo.update(tx, row.id, { ...changes, status: to, updatedAt: at })
  // A rejected return's units can be asked for again: the order's lines get them back.
  if (to === 'REJECTED') await countReturnedUnits(tx, (await returnRepo.items(tx, [row.id])).map((i) => ({ orderItemId: i.orderItemId, quantity: -i.quantity })))
  await returnRepo.addHistory(tx, { returnRequestId: row.id, fromStatus: row.status, toStatus: to, actor, note, createdAt: at })
  await recordEvent(tx, { partnerId: row.partnerId, type: 'return.status_changed', subjectId: row.id, data: { returnId: row.id, orderId: row.orderId, from: row.status, status: to, return: await returnView(tx, updated) }, at })
  return updated
}
