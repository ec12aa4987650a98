// The orders module: orders, their lines and history, and idempotency keys. Payments and refunds are
// the payments module's (below it). What other modules, the flows and app.ts use of orders is
// exported here, and nothing else of it.
import { inArray, type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { formatPaise } from '../../lib/money.ts'
import { type IdempotencyScope, idempotencyRepo } from './idempotency.ts'
import { isOwnOrder } from './lifecycle.ts'
import { orderRepo } from './repo.ts'
import { orders } from './schema.sql.ts'

export interface OrderRef {
  id: string
  orderNumber: string
  status: string
  totalAmount: string
}

/** The customer's own order, or null (also for another customer's or partner's order). */
export async function findOwnOrder(db: Executor, customer: { userId: string; partnerId: string }, orderId: string) {
  const order = await orderRepo.findOrder(db, orderId)
  return isOwnOrder(order, customer) ? order : null
}

/** `{id, orderNumber, status, totalAmount}` of each order, by id. */
export async function orderRefs(db: Executor, ids: string[]): Promise<Map<string, OrderRef>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .select({ id: orders.id, orderNumber: orders.orderNumber, status: orders.status, totalAmount: orders.totalAmount })
    .from(orders)
    .where(inArray(orders.id, ids))
  return new Map(rows.map((r) => [r.id, { ...r, totalAmount: formatPaise(r.totalAmount) }]))
}

/**
 * A subquery of the ids of orders whose number matches the ILIKE `pattern`, for another module's
 * search to join on (`inArray(orderId, orderIdsWithNumberLike(pattern))`): the same SQL as a join
 * on this module's table, without handing out the table.
 */
export const orderIdsWithNumberLike = (pattern: string): SQL => sql`(select ${orders.id} from ${orders} where ${orders.orderNumber} ilike ${pattern})`

export {
  answeredOrder,
  CANCELLABLE,
  cancelLostOrder,
  capturedWithBalance,
  confirmPaidOrder,
  createReplacementOrder,
  emit,
  NEXT_STATUSES,
  paidForUncancelledUnits,
  refreshRefundStatus,
} from './lifecycle.ts'
export type { HistoryRow, OrderItemRow, OrderRow, PaymentRow, PayoutAccountRow, RefundRow } from './repo.ts'
export type { CustomerRef } from './lifecycle.ts'
/** The back office's search (issue #39): orders by number, id, a parcel's AWB, phone, or the customer's name or e-mail. */
export { orderHits, type OrderHit, orderSearchCondition, orderSearchKeys } from './repo.ts'
export type { OrderStatus, ShippingAddress } from './schema.sql.ts'
export const findOrderById = (db: Executor, id: string) => orderRepo.findOrder(db, id)
export const orderStatusOf = async (db: Executor, id: string) => (await orderRepo.findOrder(db, id))?.status ?? null
/** The returns module counts a return's units on their lines when it is asked for, and gives them back (negative quantities) when it is rejected. */
export const countReturnedUnits = (tx: Executor, lines: { orderItemId: string; quantity: number }[]) => orderRepo.countReturnedUnits(tx, lines)
export const lockOrder = (tx: Executor, id: string) => orderRepo.lockOrder(tx, id)
/** The order's own columns changed (the flows that move it: release, amounts, payment status). */
export const updateOrder = (tx: Executor, id: string, changes: Parameters<typeof orderRepo.updateOrder>[2]) => orderRepo.updateOrder(tx, id, changes)
/** `quantity` more units of a line cancelled, unless fewer are left: false then (a conditional update). */
/** A line's discount share taken off what is paid for it (a COD order converted to prepaid). */
export const updateOrderItem = (tx: Executor, orderItemId: string, changes: Parameters<typeof orderRepo.updateItem>[2]) => orderRepo.updateItem(tx, orderItemId, changes)
export const cancelOrderUnits = (tx: Executor, orderItemId: string, quantity: number) => orderRepo.cancelUnits(tx, orderItemId, quantity)
/** A customer's COD history for checkout's risk rules (injected into CheckoutService by app.ts: checkout does not read orders). */
export const codHistoryOf = (db: Executor, userId: string, rtoSince: Date | null, refusedSince: Date | null) => orderRepo.codHistory(db, userId, rtoSince, refusedSince)
export const orderItemsOf = (db: Executor, orderId: string) => orderRepo.items(db, orderId)
/** Unpaid orders whose reservation ran out, locked (skipping rows another sweeper holds); only among `ids` when given. */
export const expiredReservations = (tx: Executor, now: Date, limit: number, ids?: string[]) => orderRepo.expiredReservations(tx, now, limit, ids)
/** The placement flow's: how many of the customer's orders wait for payment (under the customer's lock). */
export const countUnpaidOrders = (tx: Executor, userId: string) => orderRepo.countUnpaid(tx, userId)
/**
 * A placed order written in one statement (the placement flow's last step): its rows, `alongside`
 * (its event's insert), and the POST /orders key's record, holding the answer when it is final.
 */
export const writeNewOrder = (
  tx: Executor,
  rows: Parameters<typeof orderRepo.insertNewOrder>[1],
  alongside: Parameters<typeof orderRepo.insertNewOrder>[2],
  key: { scope: IdempotencyScope; fingerprint: string; answer?: { status: number; body: unknown } },
  at: Date,
) => orderRepo.insertNewOrder(tx, rows, [...alongside, idempotencyRepo.beginInsert(tx, key.scope, key.fingerprint, rows.order.id, at, key.answer)])
export { invoiceOrder, newOrderNumber, orderEvent } from './lifecycle.ts'
export { type OrderDetail, orderView, soldAs } from './views.ts'
export const purgeExpiredIdempotencyKeys = (db: Executor, now: Date) => idempotencyRepo.purgeExpired(db, now)

/** A keyed request (x-idempotency-key) run once, and a new provider payment opened as one (the placement and cod-conversion flows). */
export { type Answer, answerOnce, type Created, type StoredAnswer } from './answer-once.ts'
export { fingerprintOf, type IdempotencyScope, idempotencyKeyOf } from './idempotency.ts'
export { openPaymentAttempt, paymentAttemptAnswer } from './payment-attempts.ts'
export type { PaymentDesk } from './payment-desk.ts'
export { answer as keyedAnswer } from './route-shared.ts'
export { OrderService } from './service.ts'
export { orderRoutes } from './routes.ts'
export { linesNotInParcel, NEEDS_PARCELS, OrderAdminService } from './admin-service.ts'
export { orderAdminRoutes } from './admin-routes.ts'
export { orderPartnerRoutes } from './partner-routes.ts'
export { AdminOrder, CancelItemsBody, CreatedOrder, CreateOrderBody, IdempotencyHeaders, Order, OrderParams, OrderStatusSchema, PayoutDestination, PrepaidConversionQuote, PrepaidConversionStarted, Refund } from './schemas.ts'
export { tags as orderTags } from './route-shared.ts'

/** A booked parcel recorded with its order (decision 0024), for the fulfilment flow and returns. */
export { emitShipment, recordShipment, SHIPPABLE, type TrackingUpdate } from './shipments.ts'
/** Orders and lines by id, for the flows that print a day's parcels. */
export const findOrdersByIds = (db: Executor, ids: string[]) => orderRepo.findOrders(db, ids)
export const orderItemsByIds = (db: Executor, ids: string[]) => orderRepo.itemsByIds(db, ids)
export { transition as moveOrder } from './lifecycle.ts'
export type { Actor } from './lifecycle.ts'
