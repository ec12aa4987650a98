// How a parcel's move moves its order (decision 0024; a flow since decision 0035 step 3): a carrier's
// scan applied to the parcel and, through it, to the order; a parcel returned to origin settled as
// a cancellation of its units, or the whole order's return to origin (the sale reversed); a lost or
// damaged parcel resolved by the back office; delivery, which collects COD and earns Reward Points.
// Every function runs in the caller's transaction, the order row locked before the parcel's.
//
//   shipment: CREATED -> IN_TRANSIT -> OUT_FOR_DELIVERY -> DELIVERED
//             ... -> DELIVERY_FAILED -> OUT_FOR_DELIVERY (another attempt) | DELIVERED | RTO_INITIATED
//             ... -> RTO_INITIATED -> RTO_DELIVERED (back at the warehouse);  CREATED -> CANCELLED
//             ... -> LOST | DAMAGED (from anywhere on the way), resolved once by the back office
//
// An event is applied when the shipment makes that move and the event happened after the last one
// applied; otherwise it is kept in the shipment's events as not applied (a late, out-of-order scan).
// A resent event (same carrier event id) is recognised and changes nothing.
import type { Executor } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { pointsEarned } from '../../lib/money.ts'
import { currentStock, reserveStock } from '../../modules/catalog/index.ts'
import { takeUnitsForOrder } from '../../modules/inventory/index.ts'
import { partnerPricingOf } from '../../modules/checkout/index.ts'
import { creditLedger } from '../../modules/ledgers/index.ts'
import {
  type Actor,
  cancelLostOrder,
  emitShipment,
  findOrderById,
  lockOrder,
  moveOrder,
  NEXT_STATUSES,
  orderItemsOf,
  type OrderRow,
  type OrderStatus,
  paidForUncancelledUnits,
  type RefundRow,
  type TrackingUpdate,
  updateOrder,
} from '../../modules/orders/index.ts'
import {
  cashParcelOf,
  findParcel,
  isResolvedLoss,
  lockParcel,
  parcelItems,
  parcelsOfOrder,
  recordParcelEvent,
  SHIPMENT_MOVES,
  type ShipmentRow,
  type ShipmentStatus,
  shippedUnits,
  unshippedUnits,
  updateParcel,
} from '../../modules/shipping/index.ts'
import { settleCancelledUnits } from './partial-cancel.ts'
import { reverseSale } from './reverse-sale.ts'

/**
 * One carrier event for a shipment: recorded once, applied when it moves the shipment forward, and
 * the order follows. Runs in the caller's transaction. Returns provider refunds to send after
 * commit (a prepaid parcel returned to origin) and whether anything changed.
 */
export async function applyTrackingEvent(tx: Executor, shipmentId: string, update: TrackingUpdate, at: Date): Promise<{ applied: boolean; duplicate: boolean; refunds: RefundRow[] }> {
  const found = await findParcel(tx, shipmentId)
  if (!found) return { applied: false, duplicate: false, refunds: [] }
  // The order first, then the shipment: the lock order of every path that changes an order.
  const order = (await lockOrder(tx, found.orderId))!
  const shipment = (await lockParcel(tx, shipmentId))!
  const inOrder = shipment.lastEventAt === null || update.occurredAt.getTime() > shipment.lastEventAt.getTime()
  const applies = inOrder && SHIPMENT_MOVES[shipment.status].includes(update.status)
  const recorded = await insertTrackingEvent(tx, shipment, update, applies, at)
  if (!recorded) return { applied: false, duplicate: true, refunds: [] }
  if (!applies) return { applied: false, duplicate: false, refunds: [] }
  const moved = await updateParcel(tx, shipmentId, {
    status: update.status,
    lastEventAt: update.occurredAt,
    ...(update.expectedDeliveryDate ? { expectedDeliveryDate: update.expectedDeliveryDate } : {}),
    updatedAt: at,
  })
  await emitShipment(tx, order, moved, 'shipment.updated', at, { from: shipment.status })
  if (moved.direction === 'REVERSE') return { applied: true, duplicate: false, refunds: [] }
  const refunds = await followShipments(tx, order, moved, { name: `CARRIER:${moved.carrier}`, note: update.note ?? `${moved.awb}: ${update.status}` }, at)
  return { applied: true, duplicate: false, refunds }
}

/**
 * A carrier event recorded without being applied: the order could not follow it (the back office
 * moved it past where the scan leads). The carrier's well-signed callback is kept, never refused.
 */
export async function recordUnappliedTrackingEvent(tx: Executor, shipmentId: string, update: TrackingUpdate, at: Date): Promise<{ applied: false; duplicate: boolean; refunds: RefundRow[] }> {
  const shipment = (await findParcel(tx, shipmentId))!
  const recorded = await insertTrackingEvent(tx, shipment, update, false, at)
  return { applied: false, duplicate: recorded === null, refunds: [] }
}

/** A carrier event kept once (its carrier and id are unique); null when it was kept before. */
function insertTrackingEvent(tx: Executor, shipment: { id: string; carrier: string }, update: TrackingUpdate, applied: boolean, at: Date) {
  return recordParcelEvent(tx, {
    id: newId('sev', at.getTime()),
    shipmentId: shipment.id,
    carrier: shipment.carrier,
    eventId: update.eventId,
    status: update.status,
    location: update.location,
    note: update.note,
    occurredAt: update.occurredAt,
    receivedAt: at,
    applied,
    refused: update.refused,
  })
}

/** The next move towards a status, when there is one: a carrier may skip scans, the order never does. */
function stepTowards(from: OrderStatus, to: OrderStatus): OrderStatus | null {
  if (NEXT_STATUSES[from].includes(to)) return to
  if (from === 'CONFIRMED') return 'PACKED'
  if (from === 'PACKED') return 'SHIPPED'
  if (from === 'SHIPPED' && to === 'DELIVERED') return 'OUT_FOR_DELIVERY'
  return null
}

/** Moves the order one allowed step at a time towards `to`, each with its history and event; stops where the machine does. */
async function walkTo(tx: Executor, order: OrderRow, to: OrderStatus, actor: Actor, at: Date): Promise<OrderRow> {
  let current = order
  for (let next = stepTowards(current.status, to); next !== null && current.status !== to; next = stepTowards(current.status, to)) {
    current = next === 'DELIVERED' ? await deliverOrder(tx, current, actor, at) : await moveOrder(tx, current, next, actor, at)
  }
  return current
}

/**
 * Where the order goes when one of its forward shipments moved. Every unit shipped and every
 * parcel at an end: DELIVERED when one was delivered (parcels returned to origin settled on their
 * own), RTO when all came back. Otherwise the moved parcel leads: in transit -> SHIPPED, out for
 * delivery -> OUT_FOR_DELIVERY, an attempt failed or the parcel turned back -> DELIVERY_FAILED.
 */
async function followShipments(tx: Executor, order: OrderRow, moved: ShipmentRow, actor: Actor, at: Date): Promise<RefundRow[]> {
  const refunds: RefundRow[] = []
  // A lost parcel resolved holds no units any more; one not resolved yet keeps the order from ending.
  const all = (await parcelsOfOrder(tx, order.id)).filter((s) => s.direction === 'FORWARD' && s.status !== 'CANCELLED' && !isResolvedLoss(s))
  const ended = all.every((s) => s.status === 'DELIVERED' || s.status === 'RTO_DELIVERED')
  const allBack = all.every((s) => s.status === 'RTO_DELIVERED')
  const everyUnitShippedNow = async () => {
    const shipped = await shippedUnits(tx, order.id)
    return (await orderItemsOf(tx, order.id)).every((i) => unshippedUnits(i, shipped) <= 0)
  }
  if (moved.status === 'RTO_DELIVERED' && !(allBack && (await everyUnitShippedNow()))) {
    // One parcel of several came back: its units are settled as a cancellation of them (decision 0024).
    refunds.push(...(await settleReturnedParcel(tx, order, moved, actor, at)))
  }
  const everyUnitShipped = await everyUnitShippedNow()
  let current = (await findOrderById(tx, order.id))!
  // The parcel carrying a COD order's cash was delivered: the cash is collected, whatever parcels are
  // still to come (a split order's next parcel is booked once it is: decision 0043).
  if (moved.status === 'DELIVERED' && current.paymentStatus === 'COD_PENDING' && cashParcelOf(all)?.id === moved.id) current = await updateOrder(tx, current.id, { paymentStatus: 'PAID' })
  if (everyUnitShipped && ended && !allBack) {
    await walkTo(tx, current, 'DELIVERED', actor, at)
    return refunds
  }
  if (everyUnitShipped && allBack) {
    // An RTO the back office recorded by hand before the carrier's scan came was settled then: once.
    if (current.status !== 'RTO') {
      current = await walkTo(tx, current, 'SHIPPED', actor, at)
      refunds.push(...(await returnToOrigin(tx, current, actor, at)))
    }
    await updateParcel(tx, moved.id, { settledAt: at })
    return refunds
  }
  const lead: Partial<Record<ShipmentStatus, OrderStatus>> = {
    IN_TRANSIT: 'SHIPPED',
    OUT_FOR_DELIVERY: 'OUT_FOR_DELIVERY',
    DELIVERY_FAILED: 'DELIVERY_FAILED',
    RTO_INITIATED: 'DELIVERY_FAILED',
    DELIVERED: 'SHIPPED',
    RTO_DELIVERED: 'SHIPPED',
  }
  // Never backwards (walkTo only moves forward): a parcel in transit does not undo another's OUT_FOR_DELIVERY.
  const to = lead[moved.status]
  if (to) await walkTo(tx, current, to, actor, at)
  return refunds
}

/**
 * The whole order came back to the warehouse: RTO. What a cancellation gives back is given back
 * (stock, coupon, Wallet Cash, Reward Points, the captured payment, a credit note), once.
 */
export async function returnToOrigin(tx: Executor, order: OrderRow, actor: Actor, at: Date): Promise<RefundRow[]> {
  const reason = 'Returned to origin: the parcel was not delivered'
  const { order: reversed, refunds } = await reverseSale(tx, order, reason, at)
  await moveOrder(tx, reversed, 'RTO', { name: actor.name, note: actor.note ?? reason }, at, { cancelReason: reason })
  return refunds
}

/**
 * One parcel of a split order came back: its units are settled as a partial cancellation (stock
 * back, their share of the payment refunded), once per parcel.
 */
async function settleReturnedParcel(tx: Executor, order: OrderRow, parcel: ShipmentRow, actor: Actor, at: Date): Promise<RefundRow[]> {
  if (parcel.settledAt) return []
  const lines = (await parcelItems(tx, [parcel.id])).map((i) => ({ orderItemId: i.orderItemId, quantity: i.quantity }))
  const refunds = await settleCancelledUnits(tx, order, lines, actor, `Parcel ${parcel.awb} returned to origin`, at, { allowShipped: true })
  await updateParcel(tx, parcel.id, { settledAt: at })
  return refunds
}

export type LossResolution = 'RESHIP' | 'REFUND'

/**
 * The back office resolves a forward parcel its carrier declared LOST or DAMAGED, once (decision
 * 0030), in the caller's transaction, the order row locked before the parcel's:
 *
 *   RESHIP  its units are back to ship, their stock taken again (409 when there is not enough:
 *           refund them instead); the new parcel is booked as any other (POST …/shipments), and it
 *           collects a COD order's cash in its place
 *   REFUND  its units are cancelled and refunded as a partial cancellation, nothing back to stock;
 *           when no unit of the order is left, the whole sale is reversed (shipping and COD fee
 *           too) and the order ends CANCELLED; when the other parcels were delivered, DELIVERED
 *
 * Null when there is no such parcel. Returns the provider refunds to send after commit.
 */
export async function resolveLostParcel(
  tx: Executor,
  shipmentId: string,
  action: LossResolution,
  actor: Actor,
  at: Date,
): Promise<{ shipment: ShipmentRow; refunds: RefundRow[] } | null> {
  const found = await findParcel(tx, shipmentId)
  if (!found) return null
  const order = (await lockOrder(tx, found.orderId))!
  const parcel = (await lockParcel(tx, shipmentId))!
  if (parcel.direction !== 'FORWARD') throw new AppError('CONFLICT', `Shipment ${parcel.awb} is a return pickup: its loss is settled with its return, not here`)
  if (parcel.status !== 'LOST' && parcel.status !== 'DAMAGED') {
    throw new AppError('CONFLICT', `Shipment ${parcel.awb} is ${parcel.status}: only a parcel its carrier declared LOST or DAMAGED is resolved`)
  }
  if (parcel.resolution !== null) {
    throw new AppError('CONFLICT', `Shipment ${parcel.awb} was already resolved (${parcel.resolution} at ${parcel.settledAt!.toISOString()})`)
  }
  const lines = await parcelItems(tx, [parcel.id])
  const items = await orderItemsOf(tx, order.id)
  if (action === 'RESHIP') {
    await takeStockAgain(tx, items, lines)
    // From the stock locations too, nearest the delivery first (a catalog without locations: nothing).
    const units = lines.map((l) => ({ item: items.find((i) => i.id === l.orderItemId)!, quantity: l.quantity }))
    for (const catalogId of new Set(units.flatMap((u) => (u.item.catalogId ? [u.item.catalogId] : [])))) {
      const mine = units.filter((u) => u.item.catalogId === catalogId).map((u) => ({ productId: u.item.productId, variantId: u.item.variantId, quantity: u.quantity }))
      await takeUnitsForOrder(tx, { orderId: order.id, catalogId, delivery: { pincode: order.shippingAddress.pincode, state: order.shippingAddress.state } }, mine, at)
    }
  }
  const resolved = await updateParcel(tx, parcel.id, { settledAt: at, resolution: action, resolutionNote: actor.note ?? null, resolvedBy: actor.name, updatedAt: at })
  await emitShipment(tx, order, resolved, 'shipment.updated', at, { from: parcel.status, resolution: { action, note: actor.note ?? null, by: actor.name } })
  if (action === 'RESHIP') return { shipment: resolved, refunds: [] }

  const reason = `Parcel ${parcel.awb} ${parcel.status === 'LOST' ? 'lost' : 'damaged'} on the way`
  const lost = lines.reduce((n, l) => n + l.quantity, 0)
  const left = items.reduce((n, i) => n + i.quantity - i.cancelledQuantity, 0) - lost
  if (left === 0) {
    const { order: reversed, refunds } = await reverseSale(tx, order, reason, at, { restock: false })
    await cancelLostOrder(tx, reversed, actor, reason, at)
    return { shipment: resolved, refunds }
  }
  const units = lines.map((l) => ({ orderItemId: l.orderItemId, quantity: l.quantity }))
  const refunds = await settleCancelledUnits(tx, order, units, actor, reason, at, { allowShipped: true, restock: false })
  refunds.push(...(await followShipments(tx, (await findOrderById(tx, order.id))!, resolved, actor, at)))
  return { shipment: resolved, refunds }
}

/** The stock of a lost parcel's units, taken again for the parcel that replaces it (products in one order: no deadlock). */
async function takeStockAgain(tx: Executor, items: { id: string; productId: string; variantId: string; sku: string }[], lines: { orderItemId: string; quantity: number }[]) {
  const wanted = lines.map((l) => ({ item: items.find((i) => i.id === l.orderItemId)!, quantity: l.quantity }))
  for (const { item, quantity } of wanted.sort((a, b) => (a.item.productId < b.item.productId ? -1 : a.item.productId > b.item.productId ? 1 : 0))) {
    if ((await reserveStock(tx, item, quantity)) === null) {
      const available = await currentStock(tx, item)
      throw new AppError('CONFLICT', `Not enough stock of ${item.sku} to send ${quantity} again (${available} available): refund the units instead (action REFUND)`)
    }
  }
}

/** Delivery: COD is collected (PAID), and Reward Points are earned on what the items cost the customer. */
export async function deliverOrder(tx: Executor, order: OrderRow, actor: Actor, at: Date) {
  const settings = await partnerPricingOf(tx, order.partnerId)
  const itemsPaid = paidForUncancelledUnits(await orderItemsOf(tx, order.id))
  const points = pointsEarned(itemsPaid, settings?.rewardEarnPercent ?? 1, BigInt(settings?.paisePerPoint ?? 100))
  if (points > 0n) {
    await creditLedger(tx, { userId: order.userId, partnerId: order.partnerId, kind: 'REWARD_POINTS', amount: points, reason: 'ORDER_REWARD', reference: order.id, at })
  }
  return moveOrder(tx, order, 'DELIVERED', actor, at, {
    deliveredAt: at,
    rewardPointsEarned: points,
    ...(order.paymentStatus === 'COD_PENDING' ? { paymentStatus: 'PAID' as const } : {}),
  })
}

