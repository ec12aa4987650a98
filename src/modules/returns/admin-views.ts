// A return as the back office (and the partner's own server) sees it: the customer's answer
// (views.ts) with its history, words for the ids the console would otherwise show (the order's
// number, each item's product name and SKU), and what the back office may do now (allowed.ts).
import type { Executor } from '../../db/client.ts'
import { orderItemsOf, orderRefs } from '../orders/index.ts'
import { allowedActions, unitsComeBackRefusal } from './allowed.ts'
import { activePickup } from './pickup.ts'
import { returnRepo, type ReturnRow } from './repo.ts'
import { returnSummaryView, returnView } from './views.ts'

/** The return's pickup that still counts, read only when its units are to come back (otherwise no action depends on it). */
const pickupThatCounts = async (ex: Executor, row: ReturnRow) => (unitsComeBackRefusal(row) === null ? activePickup(ex, row.id) : null)

/** One return with its history, names and SKUs, the order's number and the allowed actions. */
export async function adminReturnView(ex: Executor, row: ReturnRow) {
  const [view, history, pickup, refs, lines] = await Promise.all([returnView(ex, row), returnRepo.history(ex, row.id), pickupThatCounts(ex, row), orderRefs(ex, [row.orderId]), orderItemsOf(ex, row.orderId)])
  const line = new Map(lines.map((l) => [l.id, l]))
  return {
    ...view,
    items: view.items.map((i) => ({ ...i, name: line.get(i.orderItemId)!.name, sku: line.get(i.orderItemId)!.sku })),
    orderNumber: refs.get(row.orderId)!.orderNumber,
    userId: row.userId,
    history: history.map((h) => ({ fromStatus: h.fromStatus, status: h.toStatus, actor: h.actor.split(':')[0]!, note: h.note, at: h.createdAt.toISOString() })),
    ...allowedActions(row, pickup),
  }
}

/** Lines of the back office's list: the summary, the order's number and the allowed actions. */
export async function adminReturnSummaries(ex: Executor, rows: ReturnRow[]) {
  const [refs, pickups] = await Promise.all([orderRefs(ex, [...new Set(rows.map((r) => r.orderId))]), Promise.all(rows.map((r) => pickupThatCounts(ex, r)))])
  return rows.map((r, i) => ({ ...returnSummaryView(r), orderNumber: refs.get(r.orderId)!.orderNumber, ...allowedActions(r, pickups[i] ?? null) }))
}
