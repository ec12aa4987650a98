// An order's units and the locations they come from (decision 0043, step 5). Called in the order's
// own transaction beside catalog's reserveStock and releaseStock, which keep the catalog's stock:
// here the same units leave (SALE) or come back to (RELEASE, RETURN) a location's level, written to
// the ledger, so a catalog's stock stays the sum of its locations' levels. A catalog without
// locations is left alone (one indexed read).
import type { Executor } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { allocate, nearestFirst } from './allocation.ts'
import { gstRegistrationOf } from '../tax/index.ts'
import { inventoryRepo } from './repo.ts'
import type { MoveKind } from './schema.sql.ts'

export interface OrderUnits {
  orderId: string
  catalogId: string
  /** Where the goods go: the allocation's nearness. */
  delivery: { pincode: string; state: string }
}

/** The units of these lines the catalog's active locations hold (location -> variant -> units), locked for an order. */
async function levelsOf(tx: Executor, catalogId: string, variantIds: string[], lock: boolean) {
  const levels = new Map<string, Map<string, number>>()
  for (const l of await inventoryRepo.levelsForAllocation(tx, catalogId, variantIds, lock)) {
    if (!levels.has(l.locationId)) levels.set(l.locationId, new Map())
    levels.get(l.locationId)!.set(l.variantId, l.onHand)
  }
  return levels
}

/** The catalog's active locations nearest the delivery first, and where these lines' units would come from (allocation.ts). */
async function plan(tx: Executor, order: Omit<OrderUnits, 'orderId'>, wanted: { variantId: string; quantity: number }[], lock: boolean) {
  const places = nearestFirst(await inventoryRepo.locationsOf(tx, order.catalogId, true), order.delivery)
  const levels = await levelsOf(tx, order.catalogId, [...new Set(wanted.map((w) => w.variantId))], lock)
  return { places, levels, allocated: allocate(wanted, places.map((p) => ({ id: p.id, ships: p.registrationId ?? '' })), levels) }
}

/**
 * Takes an order's units from the catalog's locations (after catalog reserved them): the nearest
 * location holding them all, else line by line (allocation.ts). Answers, by variant, the GST
 * registration its units ship under (null: the catalog's seller's; an empty map for a catalog
 * without locations). A 409 when the locations hold fewer than the catalog's stock said (they never
 * should), or when a line's units are only to be had from locations under two registrations.
 */
export async function takeUnitsForOrder(tx: Executor, order: OrderUnits, lines: { productId: string; variantId: string; quantity: number }[], at: Date): Promise<Map<string, string | null>> {
  const suppliers = new Map<string, string | null>()
  if (lines.length === 0 || !(await inventoryRepo.hasLocations(tx, order.catalogId))) return suppliers
  const wanted = mergeLines(lines)
  const { places, levels, allocated } = await plan(tx, order, wanted, true)
  if ('short' in allocated) {
    const line = wanted.find((w) => w.variantId === allocated.short)!
    const total = [...levels.values()].reduce((n, held) => n + (held.get(line.variantId) ?? 0), 0)
    throw new AppError(
      'CONFLICT',
      total >= line.quantity
        ? `The ${line.quantity} unit(s) of ${line.variantId} asked are held at stock locations that ship under different GST registrations, and one line is invoiced by one: order fewer, or the merchant moves units between them`
        : 'The stock locations hold fewer units than the catalog shows: nothing was ordered (the back office should check the inventory ledger)',
    )
  }
  const { takes } = allocated
  const productOf = new Map(wanted.map((w) => [w.variantId, w.productId]))
  const registrationOf = new Map(places.map((p) => [p.id, p.registrationId]))
  for (const take of takes) {
    const unit = { locationId: take.locationId, productId: productOf.get(take.variantId)!, variantId: take.variantId }
    if ((await inventoryRepo.moveLevel(tx, unit, -take.quantity, at)) === null) throw new AppError('CONFLICT', 'The stock locations hold fewer units than the catalog shows: nothing was ordered')
    await inventoryRepo.addAllocation(tx, { orderId: order.orderId, ...unit, quantity: take.quantity })
    suppliers.set(take.variantId, registrationOf.get(take.locationId) ?? null)
  }
  await inventoryRepo.insertMoves(
    tx,
    takes.map((take) => ({ id: newId('imv', at.getTime()), catalogId: order.catalogId, locationId: take.locationId, productId: productOf.get(take.variantId)!, variantId: take.variantId, kind: 'SALE' as const, quantity: -take.quantity, actor: 'system', reason: 'Order placed', reference: order.orderId, createdAt: at })),
  )
  return suppliers
}

/**
 * Whether a catalog keeps stock at locations, for quotes: a catalog that has one always will (a
 * location is closed, never deleted), so `true` is kept; `false` for LOCATIONS_MEMO_MS (a first
 * location made on another node shows in this node's quotes that much later; orders read it exactly).
 */
const LOCATIONS_MEMO_MS = 5000
const withLocations = new Map<string, { has: boolean; at: number }>()
async function hasLocationsForQuote(db: Executor, catalogId: string): Promise<boolean> {
  const known = withLocations.get(catalogId)
  if (known && (known.has || Date.now() - known.at < LOCATIONS_MEMO_MS)) return known.has
  const has = await inventoryRepo.hasLocations(db, catalogId)
  if (withLocations.size >= 10_000) withLocations.clear()
  withLocations.set(catalogId, { has, at: Date.now() })
  return has
}

/** This process's quotes see the catalog's first location at once. */
export const sawFirstLocation = (catalogId: string) => void withLocations.set(catalogId, { has: true, at: Date.now() })

/**
 * The state of the GST registration each line would ship under if it were ordered now (the quote's
 * question; nothing locked or taken): a line whose units would come from a location under its own
 * registration gets that registration's state; undefined: the catalog's seller's (a catalog without
 * locations, or units not to be had: the order will say).
 */
export async function plannedSupplierStates(db: Executor, delivery: OrderUnits['delivery'], lines: { catalogId: string; productId: string; variantId: string; quantity: number }[]): Promise<(string | undefined)[]> {
  const states: (string | undefined)[] = lines.map(() => undefined)
  for (const catalogId of new Set(lines.map((l) => l.catalogId))) {
    if (!(await hasLocationsForQuote(db, catalogId))) continue
    const mine = lines.filter((l) => l.catalogId === catalogId)
    const { places, allocated } = await plan(db, { catalogId, delivery }, mergeLines(mine), false)
    if ('short' in allocated) continue
    const registrationOf = new Map(places.map((p) => [p.id, p.registrationId]))
    const byVariant = new Map(allocated.takes.map((take) => [take.variantId, registrationOf.get(take.locationId) ?? null]))
    for (const [i, line] of lines.entries()) {
      const registrationId = line.catalogId === catalogId ? byVariant.get(line.variantId) : null
      if (registrationId) states[i] = (await gstRegistrationOf(db, registrationId))?.state
    }
  }
  return states
}

/**
 * Gives units of an order back to the locations it took them from, as catalog's releaseStock gives
 * them back to the catalog's stock: a cancellation (RELEASE) or a return checked back in (RETURN).
 * `shipped`: units of this variant already in parcels, by the location they left from; a
 * cancellation of units not shipped gives back first where the order holds more than it shipped
 * (a partial cancellation never "returns" units that are on their way from another location).
 * Units of an order placed before the catalog had locations go to its first.
 */
export async function giveUnitsBack(
  tx: Executor,
  order: { orderId: string; catalogId: string },
  unit: { productId: string; variantId: string },
  quantity: number,
  kind: Extract<MoveKind, 'RELEASE' | 'RETURN'>,
  at: Date,
  shipped: Map<string, number> = new Map(),
): Promise<void> {
  if (quantity <= 0 || !(await inventoryRepo.hasLocations(tx, order.catalogId))) return
  const reason = kind === 'RETURN' ? 'Return checked back in' : 'Order cancelled'
  const allocations = await inventoryRepo.allocationsOf(tx, order.orderId, unit.variantId)
  const held = new Map(allocations.map((a) => [a.locationId, a.quantity]))
  const moves = new Map<string, number>()
  let left = quantity
  const give = (locationId: string, most: number) => {
    const back = Math.min(left, most)
    if (back <= 0) return
    held.set(locationId, (held.get(locationId) ?? 0) - back)
    moves.set(locationId, (moves.get(locationId) ?? 0) + back)
    left -= back
  }
  // Units still waiting at a location first, then the rest (returns come back from the parcels).
  for (const a of allocations) give(a.locationId, a.quantity - (shipped.get(a.locationId) ?? 0))
  for (const a of allocations) give(a.locationId, held.get(a.locationId)!)
  for (const [locationId, back] of moves) await inventoryRepo.takeFromAllocation(tx, { orderId: order.orderId, locationId, variantId: unit.variantId }, back)
  if (left > 0) {
    const [first] = await inventoryRepo.locationsOf(tx, order.catalogId, true)
    const [any] = first ? [first] : await inventoryRepo.locationsOf(tx, order.catalogId)
    moves.set(any!.id, (moves.get(any!.id) ?? 0) + left)
  }
  for (const [locationId, back] of moves) await inventoryRepo.moveLevel(tx, { locationId, ...unit }, back, at)
  await inventoryRepo.insertMoves(
    tx,
    [...moves].map(([locationId, back]) => ({ id: newId('imv', at.getTime()), catalogId: order.catalogId, locationId, productId: unit.productId, variantId: unit.variantId, kind, quantity: back, actor: 'system', reason, reference: order.orderId, createdAt: at })),
  )
}

/** A stock location as a parcel leaves from it. */
export interface HeldAt {
  id: string
  name: string
  pincode: string
  pickupName: string | null
  registrationId: string | null
}

/** A stock location as parcels leave from or come back to it; null: none such. */
export async function locationOf(db: Executor, id: string): Promise<HeldAt | null> {
  const row = await inventoryRepo.findLocation(db, id)
  return row && { id: row.id, name: row.name, pincode: row.pincode, pickupName: row.pickupName, registrationId: row.registrationId }
}

/** What the order holds at each location, variant by variant, in the locations' order (empty: none; a catalog without locations). */
export async function unitsHeldForOrder(db: Executor, orderId: string): Promise<{ location: HeldAt; units: Map<string, number> }[]> {
  const out = new Map<string, { location: HeldAt; units: Map<string, number> }>()
  for (const row of await inventoryRepo.heldForOrder(db, orderId)) {
    const { id, name, pincode, pickupName, registrationId } = row.location
    if (!out.has(id)) out.set(id, { location: { id, name, pincode, pickupName, registrationId }, units: new Map() })
    out.get(id)!.units.set(row.variantId, row.quantity)
  }
  return [...out.values()]
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
