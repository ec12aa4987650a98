// An order's units and the locations they come from (decision 0043, step 5). Called in the order's
// own transaction beside catalog's reserveStock and releaseStock, which keep the catalog's stock:
// here the same units leave (SALE) or come back to (RELEASE, RETURN) a location's level, written to
// the ledger, so a catalog's stock stays the sum of its locations' levels. A catalog without
// locations is left alone (one indexed read).
import type { Executor } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { allocate, nearestFirst } from './allocation.ts'
import { inventoryRepo } from './repo.ts'
import type { MoveKind } from './schema.sql.ts'

export interface OrderUnits {
  orderId: string
  catalogId: string
  /** Where the goods go: the allocation's nearness. */
  delivery: { pincode: string; state: string }
}

/**
 * Takes an order's units from the catalog's locations (after catalog reserved them): the nearest
 * location holding them all, else line by line. A 409 when the locations hold fewer than the
 * catalog's stock said (they never should: the transaction is refused).
 */
export async function takeUnitsForOrder(tx: Executor, order: OrderUnits, lines: { productId: string; variantId: string; quantity: number }[], at: Date): Promise<void> {
  if (lines.length === 0 || !(await inventoryRepo.hasLocations(tx, order.catalogId))) return
  const wanted = mergeLines(lines)
  const places = nearestFirst(await inventoryRepo.locationsOf(tx, order.catalogId, true), order.delivery)
  const levels = new Map<string, Map<string, number>>()
  for (const l of await inventoryRepo.levelsForAllocation(tx, order.catalogId, [...new Set(wanted.map((w) => w.variantId))])) {
    if (!levels.has(l.locationId)) levels.set(l.locationId, new Map())
    levels.get(l.locationId)!.set(l.variantId, l.onHand)
  }
  const takes = allocate(wanted, places, levels)
  if (!takes) throw new AppError('CONFLICT', 'The stock locations hold fewer units than the catalog shows: nothing was ordered (the back office should check the inventory ledger)')
  const productOf = new Map(wanted.map((w) => [w.variantId, w.productId]))
  for (const take of takes) {
    const unit = { locationId: take.locationId, productId: productOf.get(take.variantId)!, variantId: take.variantId }
    if ((await inventoryRepo.moveLevel(tx, unit, -take.quantity, at)) === null) throw new AppError('CONFLICT', 'The stock locations hold fewer units than the catalog shows: nothing was ordered')
    await inventoryRepo.addAllocation(tx, { orderId: order.orderId, ...unit, quantity: take.quantity })
  }
  await inventoryRepo.insertMoves(
    tx,
    takes.map((take) => ({ id: newId('imv', at.getTime()), catalogId: order.catalogId, locationId: take.locationId, productId: productOf.get(take.variantId)!, variantId: take.variantId, kind: 'SALE' as const, quantity: -take.quantity, actor: 'system', reason: 'Order placed', reference: order.orderId, createdAt: at })),
  )
}

/**
 * Gives units of an order back to the locations it took them from (most units first), as catalog's
 * releaseStock gives them back to the catalog's stock: a cancellation (RELEASE) or a return checked
 * back in (RETURN). Units of an order placed before the catalog had locations go to its first.
 */
export async function giveUnitsBack(tx: Executor, order: { orderId: string; catalogId: string }, unit: { productId: string; variantId: string }, quantity: number, kind: Extract<MoveKind, 'RELEASE' | 'RETURN'>, at: Date): Promise<void> {
  if (quantity <= 0 || !(await inventoryRepo.hasLocations(tx, order.catalogId))) return
  const reason = kind === 'RETURN' ? 'Return checked back in' : 'Order cancelled'
  let left = quantity
  const moves: { locationId: string; quantity: number }[] = []
  for (const allocation of await inventoryRepo.allocationsOf(tx, order.orderId, unit.variantId)) {
    const back = Math.min(left, allocation.quantity)
    if (back === 0) continue
    await inventoryRepo.takeFromAllocation(tx, { orderId: order.orderId, locationId: allocation.locationId, variantId: unit.variantId }, back)
    moves.push({ locationId: allocation.locationId, quantity: back })
    left -= back
    if (left === 0) break
  }
  if (left > 0) {
    const [first] = await inventoryRepo.locationsOf(tx, order.catalogId, true)
    const [any] = first ? [first] : await inventoryRepo.locationsOf(tx, order.catalogId)
    moves.push({ locationId: any!.id, quantity: left })
  }
  for (const move of moves) await inventoryRepo.moveLevel(tx, { locationId: move.locationId, ...unit }, move.quantity, at)
  await inventoryRepo.insertMoves(
    tx,
    moves.map((m) => ({ id: newId('imv', at.getTime()), catalogId: order.catalogId, locationId: m.locationId, productId: unit.productId, variantId: unit.variantId, kind, quantity: m.quantity, actor: 'system', reason, reference: order.orderId, createdAt: at })),
  )
}

/** Lines of one variant added together, in the variants' first order. */
function mergeLines(lines: { productId: string; variantId: string; quantity: number }[]) {
  const out = new Map<string, { productId: string; variantId: string; quantity: number }>()
  for (const l of lines) {
    const seen = out.get(l.variantId)
    if (seen) seen.quantity += l.quantity
    else out.set(l.variantId, { ...l })
  }
  return [...out.values()]
}
