// What other modules (support, returns) use of orders.
import { inArray } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { formatPaise } from '../../lib/money.ts'
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

export { orders as ordersTable }

export { createReplacementOrder, refreshRefundStatus } from './lifecycle.ts'
export { refundView } from './views.ts'
export type { OrderItemRow, OrderRow, RefundRow } from './repo.ts'
export const lockOrder = (tx: Executor, id: string) => orderRepo.lockOrder(tx, id)
export const orderItemsOf = (db: Executor, orderId: string) => orderRepo.items(db, orderId)
export const paymentsOfOrder = (db: Executor, orderId: string) => orderRepo.paymentsOf(db, orderId)
export const refundsOfOrder = (db: Executor, orderId: string) => orderRepo.refundsOf(db, orderId)
export const insertRefund = (tx: Executor, row: Parameters<typeof orderRepo.insertRefund>[1]) => orderRepo.insertRefund(tx, row)
export const updateRefund = (tx: Executor, id: string, changes: Parameters<typeof orderRepo.updateRefund>[2]) => orderRepo.updateRefund(tx, id, changes)
