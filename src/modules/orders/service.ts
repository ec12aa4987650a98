// The customer's order operations: list, read, and the payment attempts of an order waiting for
// payment. Placing an order is the placement flow's (src/flows/placement/), a COD order's
// conversion to prepaid the cod-conversion flow's.
import type { Database } from '../../db/client.ts'
import type { Deps } from '../../deps.ts'
import type { Clock } from '../../lib/clock.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { pageMeta } from '../../lib/pagination.ts'
import type { CustomerScope } from '../../lib/scope.ts'
import { lockCustomer } from '../customers/index.ts'
import { answerOnce, type Created, type StoredAnswer } from './answer-once.ts'
import type { IdempotencyScope } from './idempotency.ts'
import { documentsOfOrder } from './invoices.ts'
import { answeredOrder, type CustomerRef, emit, isOwnOrder } from './lifecycle.ts'
import { openPaymentAttempt, paymentAttemptAnswer } from './payment-attempts.ts'
import type { PaymentDesk } from './payment-desk.ts'
import { type OrderRow, orderRepo } from './repo.ts'
import type { OrderStatus } from './schema.sql.ts'
import { orderSummaryView } from './views.ts'
import { findPayment, paymentView, updatePayment } from '../payments/index.ts'


export class OrderService {
  readonly #db: Database['db']
  readonly #clock: Clock
  readonly #payments: PaymentDesk

  constructor(deps: Pick<Deps, 'database' | 'clock'>, payments: PaymentDesk) {
    this.#db = deps.database.db
    this.#clock = deps.clock
    this.#payments = payments
  }

  /** The order as GET /orders/{id} answers it. */
  detail(order: OrderRow) {
    return answeredOrder(this.#db, order)
  }

  async listOrders(customer: CustomerScope, query: { page: number; limit: number; status?: OrderStatus }) {
    const result = await orderRepo.page(this.#db, customer, { status: query.status }, query.page, query.limit)
    const counts = await orderRepo.itemCounts(this.#db, result.rows.map((o) => o.id))
    return { data: result.rows.map((o) => orderSummaryView(o, counts.get(o.id) ?? 0)), meta: pageMeta(result.total, query) }
  }

  async getOrder(customer: CustomerRef, orderId: string) {
    return this.detail(await this.#ownOrder(customer, orderId))
  }

  /** The customer's own order with its GST documents (404 for another's, or while it has none). */
  async documents(customer: CustomerRef, orderId: string) {
    const order = await this.#ownOrder(customer, orderId)
    return { order, documents: await documentsOfOrder(this.#db, order) }
  }

  /** A new provider session for an order still waiting for payment, inside its grace period. */
  async initiatePayment(customer: CustomerRef, orderId: string, key: string): Promise<StoredAnswer> {
    await this.#ownOrder(customer, orderId)
    const scope = { ...customer, route: `POST /orders/${orderId}/payments`, key }
    return answerOnce(
      this.#db,
      this.#clock,
      scope,
      {},
      () => this.#newPaymentAttempt(customer, orderId, scope),
      (paymentId) => paymentAttemptAnswer(this.#db, this.#payments, orderId, paymentId),
    )
  }

  /** The customer closed the provider checkout: USER_DROPPED; the stock stays reserved. */
  async abandonPayment(customer: CustomerRef, orderId: string, paymentId: string) {
    await this.#ownOrder(customer, orderId)
    const payment = await this.#db.transaction(async (tx) => {
      const now = this.#clock.now()
      const order = (await orderRepo.lockOrder(tx, orderId))!
      const current = await findPayment(tx, paymentId)
      if (!current || current.orderId !== orderId) throw notFound('Payment')
      if (current.status === 'USER_DROPPED') return current
      if (current.status !== 'PENDING' && current.status !== 'CREATED') {
        throw new AppError('CONFLICT', `Payment ${paymentId} is ${current.status} and can no longer be abandoned`)
      }
      const dropped = (await updatePayment(tx, paymentId, { status: 'USER_DROPPED', updatedAt: now }))!
      await emit(tx, order, 'payment.user_dropped', { paymentId }, now)
      return dropped
    })
    return paymentView(payment)
  }

  async #ownOrder(customer: CustomerRef, orderId: string) {
    const order = await orderRepo.findOrder(this.#db, orderId)
    if (!isOwnOrder(order, customer)) throw notFound('Order')
    return order
  }

  /** In one transaction (customer, then order locked): earlier sessions expire, a new CREATED payment and the key's record. */
  #newPaymentAttempt(customer: CustomerRef, orderId: string, scope: IdempotencyScope): Promise<Created> {
    return this.#db.transaction(async (tx) => {
      const now = this.#clock.now()
      await lockCustomer(tx, customer.userId)
      const order = (await orderRepo.lockOrder(tx, orderId))!
      if (order.status !== 'PENDING_PAYMENT') throw new AppError('CONFLICT', `Order ${order.orderNumber} is ${order.status}, not waiting for payment`)
      if (!order.reservationExpiresAt || order.reservationExpiresAt <= now) {
        throw new AppError('CONFLICT', `The payment window of order ${order.orderNumber} has closed`)
      }
      return openPaymentAttempt(tx, this.#payments.providerName, order, order.amountPayable, scope, now)
    })
  }
}
