// The units of an approved return coming back (decision 0024): a reverse pickup booked with a
// carrier (the same interface as deliveries), and the back office's quality check when they arrive.
// A check that passes puts the units back in stock, once whatever the retries (the return row is
// locked and restocked_at is the guard); one that fails does not. Refunds keep their own rules.
import type { Executor } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { releaseStock } from '../catalog/index.ts'
import { orderItemsOf, type OrderRow, shipmentRepo, type ShipmentRow } from '../orders/index.ts'
import { returnRepo, type ReturnRow } from './repo.ts'
import type { ReturnStatus } from './schema.sql.ts'

/** Returns whose units are coming back: approved, whatever the refund has done since. */
const COMING_BACK: ReturnStatus[] = ['APPROVED', 'REFUND_PENDING', 'REFUND_FAILED', 'REFUNDED', 'RESOLVED']

/** 409 unless the return's units are to come back to the warehouse. */
export function checkUnitsComeBack(row: ReturnRow) {
  if (row.requestedResolution === 'KEEP_ITEM_WALLET_CREDIT') throw new AppError('CONFLICT', 'The customer keeps the item: nothing comes back')
  if (!COMING_BACK.includes(row.status)) throw new AppError('CONFLICT', `Return request is ${row.status}: units come back once it is approved`)
}

/** The return's reverse parcel that was not cancelled, if there is one. */
export async function activePickup(ex: Executor, returnId: string): Promise<ShipmentRow | null> {
  // A pickup cancelled, or one the carrier brought back to the customer (RTO), is no longer the one.
  return (await shipmentRepo.ofReturn(ex, returnId)).find((s) => s.direction === 'REVERSE' && s.status !== 'CANCELLED' && s.status !== 'RTO_DELIVERED') ?? null
}

/** 409 when a pickup is already booked (one at a time: cancel it to book another). */
export async function checkNoPickup(ex: Executor, row: ReturnRow) {
  const booked = await activePickup(ex, row.id)
  if (booked) throw new AppError('CONFLICT', `Return request already has pickup ${booked.awb} (${booked.status})`)
}

/**
 * The quality check of the units received, in the caller's transaction with the order and return
 * rows locked. The same result again changes nothing; another result is 409. A pickup still on its
 * way is 409: the check is made on what arrived.
 */
export async function recordQualityCheck(tx: Executor, row: ReturnRow, order: OrderRow, check: { result: 'PASSED' | 'FAILED'; note: string | null }, at: Date): Promise<ReturnRow> {
  checkUnitsComeBack(row)
  if (row.qcResult !== null) {
    if (row.qcResult === check.result) return row
    throw new AppError('CONFLICT', `Quality check already recorded as ${row.qcResult}`)
  }
  const pickup = await activePickup(tx, row.id)
  if (pickup && pickup.status !== 'DELIVERED') throw new AppError('CONFLICT', `Pickup ${pickup.awb} is ${pickup.status}: record the check when the parcel is received`)
  const note = check.note ?? null
  if (check.result === 'FAILED') return returnRepo.update(tx, row.id, { qcResult: 'FAILED', qcNote: note, qcAt: at, updatedAt: at })
  const lines = new Map((await orderItemsOf(tx, order.id)).map((i) => [i.id, i]))
  for (const item of await returnRepo.items(tx, [row.id])) await releaseStock(tx, lines.get(item.orderItemId)!.productId, item.quantity)
  return returnRepo.update(tx, row.id, { qcResult: 'PASSED', qcNote: note, qcAt: at, restockedAt: at, updatedAt: at })
}
