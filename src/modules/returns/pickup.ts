// The units of an approved return coming back (decision 0024): a reverse pickup booked with a
// carrier (the same interface as deliveries), and the back office's quality check when they arrive.
// A check that passes puts the units back in stock, once whatever the retries (the return row is
// locked and restocked_at is the guard); one that fails does not. Refunds keep their own rules.
import type { Executor } from '../../db/client.ts'
import { releaseStock } from '../catalog/index.ts'
import { giveUnitsBack } from '../inventory/index.ts'
import { orderItemsOf, type OrderRow } from '../orders/index.ts'
import { parcelsOfReturn, type ShipmentRow } from '../shipping/index.ts'
import { pickupRefusal, qualityCheckRefusal, refuse, unitsComeBackRefusal } from './allowed.ts'
import { returnRepo, type ReturnRow } from './repo.ts'

/** The return's reverse parcel that was not cancelled, if there is one. */
export async function activePickup(ex: Executor, returnId: string): Promise<ShipmentRow | null> {
  // A pickup cancelled, or one the carrier brought back to the customer (RTO), is no longer the one.
  return (await parcelsOfReturn(ex, returnId)).find((s) => s.direction === 'REVERSE' && s.status !== 'CANCELLED' && s.status !== 'RTO_DELIVERED') ?? null
}

/** 409 unless a pickup may be booked now (allowed.ts pickupRefusal: the same rule the answers list). */
export async function checkPickupAllowed(ex: Executor, row: ReturnRow) {
  refuse(pickupRefusal(row, await activePickup(ex, row.id)))
}

/**
 * The quality check of the units received, in the caller's transaction with the order and return
 * rows locked, under allowed.ts qualityCheckRefusal. The same result again changes nothing; another
 * result is 409. A pickup still on its way is 409: the check is made on what arrived.
 */
export async function recordQualityCheck(tx: Executor, row: ReturnRow, order: OrderRow, check: { result: 'PASSED' | 'FAILED'; note: string | null }, at: Date): Promise<ReturnRow> {
  refuse(unitsComeBackRefusal(row))
  // The same result again is a retry: it changes nothing.
  if (row.qcResult !== null && row.qcResult === check.result) return row
  refuse(qualityCheckRefusal(row, await activePickup(tx, row.id)))
  const note = check.note ?? null
  if (check.result === 'FAILED') return returnRepo.update(tx, row.id, { qcResult: 'FAILED', qcNote: note, qcAt: at, updatedAt: at })
  const lines = new Map((await orderItemsOf(tx, order.id)).map((i) => [i.id, i]))
  for (const item of await returnRepo.items(tx, [row.id])) {
    const line = lines.get(item.orderItemId)!
    // Back to the stock location the units came from (a catalog without locations: nothing), when the unit still exists.
    if ((await releaseStock(tx, line, item.quantity)) && line.catalogId) await giveUnitsBack(tx, { orderId: order.id, catalogId: line.catalogId }, line, item.quantity, 'RETURN', at)
  }
  return returnRepo.update(tx, row.id, { qcResult: 'PASSED', qcNote: note, qcAt: at, restockedAt: at, updatedAt: at })
}
