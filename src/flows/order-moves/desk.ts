// What the customer and the back office ask of an order that moves it and settles money (decision
// 0035 step 3): cancel it, cancel some of its units, move it by hand. Each request is one
// transaction (the order row locked first) of the steps in reverse-sale.ts, partial-cancel.ts and
// parcel-moves.ts; the provider refunds they queue are sent after commit.
import type { Db } from '../../db/client.ts'
import type { Deps } from '../../deps.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import {
  answeredOrder,
  type CustomerRef,
  findOrderById,
  findOwnOrder,
  linesNotInParcel,
  lockOrder,
  moveOrder,
  NEEDS_PARCELS,
  NEXT_STATUSES,
  type OrderAdminService,
  type OrderStatus,
  type RefundRow,
} from '../../modules/orders/index.ts'
import { deliverOrder, returnToOrigin } from './parcel-moves.ts'
import { type CancelItemsRequest, cancelOrderItems, checkDistinctLines } from './partial-cancel.ts'
import { cancelOrder } from './reverse-sale.ts'

/** Where refunds queued in a transaction go once it committed (the payments flow's PaymentService). */
export interface RefundSender {
  sendRefunds(refunds: RefundRow[]): Promise<unknown>
}

export class OrderMoves {
  readonly #db: Db
  readonly #clock: Deps['clock']
  readonly #refunds: RefundSender
  readonly #admin: OrderAdminService

  constructor({ database, clock }: Pick<Deps, 'database' | 'clock'>, refunds: RefundSender, admin: OrderAdminService) {
    this.#db = database.db
    this.#clock = clock
    this.#refunds = refunds
    this.#admin = admin
  }

  /** POST /orders/{id}/cancel: the customer's own order, cancelled before shipment. */
  async cancel(customer: CustomerRef, orderId: string, reason: string) {
    await this.#ownOrder(customer, orderId)
    const { order, refunds } = await this.#db.transaction(async (tx) => cancelOrder(tx, (await lockOrder(tx, orderId))!, { name: 'CUSTOMER', reason }, this.#clock.now()))
    await this.#refunds.sendRefunds(refunds)
    return answeredOrder(this.#db, (await findOrderById(this.#db, order.id))!)
  }

  /** POST /orders/{id}/cancel-items: some units cancelled before shipping and settled; all that was left: the whole order is cancelled. */
  async cancelItems(customer: CustomerRef, orderId: string, request: CancelItemsRequest) {
    await this.#ownOrder(customer, orderId)
    checkDistinctLines(request.items)
    const { order, refunds } = await this.#db.transaction(async (tx) => cancelOrderItems(tx, (await lockOrder(tx, orderId))!, request, { name: 'CUSTOMER' }, this.#clock.now()))
    await this.#refunds.sendRefunds(refunds)
    return answeredOrder(this.#db, (await findOrderById(this.#db, order.id))!)
  }

  /** POST /admin/orders/{id}/cancel-items: the same rules, by the back office. */
  async adminCancelItems(adminId: string, orderId: string, request: CancelItemsRequest) {
    checkDistinctLines(request.items)
    const refunds = await this.#db.transaction(async (tx) => {
      const order = await lockOrder(tx, orderId)
      if (!order) throw notFound('Order')
      return (await cancelOrderItems(tx, order, request, { name: `ADMIN:${adminId}` }, this.#clock.now())).refunds
    })
    await this.#refunds.sendRefunds(refunds)
    return this.#admin.view(orderId)
  }

  /**
   * POST /admin/orders/{id}/status: one move along the machine. CANCELLED reverses the sale,
   * DELIVERED collects COD and earns Reward Points, RTO gives back what a cancellation does; a move
   * saying the goods left is refused while units are in no parcel, and an unpaid order is
   * confirmed by its payment, not by hand.
   */
  async setStatus(adminId: string, orderId: string, to: OrderStatus, note: string | undefined) {
    const actor = { name: `ADMIN:${adminId}`, note: note ?? null }
    const refunds = await this.#db.transaction(async (tx): Promise<RefundRow[]> => {
      const now = this.#clock.now()
      const order = await lockOrder(tx, orderId)
      if (!order) throw notFound('Order')
      if (order.status === 'PENDING_PAYMENT' && to === 'CONFIRMED') {
        throw new AppError('CONFLICT', `Order ${order.orderNumber} is confirmed by its payment, not by hand`)
      }
      if (to === 'CANCELLED') return (await cancelOrder(tx, order, { ...actor, reason: note ?? 'Cancelled by the merchant' }, now)).refunds
      if (NEEDS_PARCELS.includes(to) && NEXT_STATUSES[order.status].includes(to)) {
        const unparcelled = (await linesNotInParcel(tx, order.id)).reduce((n, line) => n + line.quantity, 0)
        if (unparcelled > 0) {
          throw new AppError(
            'CONFLICT',
            `Order ${order.orderNumber} has ${unparcelled} unit(s) in no parcel: book a parcel for them first (POST /admin/orders/${order.id}/shipments; carrier "manual" for your own delivery), or cancel them (POST /admin/orders/${order.id}/cancel-items)`,
          )
        }
      }
      if (to === 'DELIVERED' && (order.status === 'OUT_FOR_DELIVERY' || order.status === 'DELIVERY_FAILED')) await deliverOrder(tx, order, actor, now)
      else if (to === 'RTO' && NEXT_STATUSES[order.status].includes('RTO')) return returnToOrigin(tx, order, actor, now)
      else await moveOrder(tx, order, to, actor, now)
      return []
    })
    await this.#refunds.sendRefunds(refunds)
    return this.#admin.view(orderId)
  }

  async #ownOrder(customer: CustomerRef, orderId: string) {
    const order = await findOwnOrder(this.#db, customer, orderId)
    if (!order) throw notFound('Order')
    return order
  }
}
