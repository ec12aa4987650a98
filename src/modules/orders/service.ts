// The customer's order operations: create (placement.ts, as named steps), list, read, and
// the payment attempts of an order waiting for payment, and a COD order's conversion to prepaid
// (prepaid-conversion.ts).
//
// POST /orders: the idempotency key is checked by answerOnce (answer-once.ts); then in ONE
// transaction (customer row locked first) the order is priced with the same function as the wallet
// quote, stock reserved with conditional decrements, the coupon redeemed, Wallet Cash and Reward
// Points debited, and the order, its lines and history, its payment, its event and the idempotency
// record written. Commit. Then the provider session is opened (a network call, so outside the
// transaction) and the answer stored under the key.
import type { Database, Executor } from '../../db/client.ts'
import type { ServiceDeps } from '../../deps.ts'
import type { Clock } from '../../lib/clock.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { pageMeta } from '../../lib/pagination.ts'
import { maxPaise, formatPaise as rupees } from '../../lib/money.ts'
import type { CustomerScope, PartnerScope } from '../../lib/scope.ts'
import type { CheckoutService } from '../checkout/index.ts'
import { lockCustomer } from '../customers/index.ts'
import { answerOnce, type Answer, type Created, type StoredAnswer } from './answer-once.ts'
import { fingerprintOf, type IdempotencyScope, idempotencyRepo } from './idempotency.ts'
import { documentsOfOrder } from './invoices.ts'
import { answeredOrder, emit, isOwnOrder } from './lifecycle.ts'
import type { CreateOrderInput, CustomerRef } from './order-request.ts'
import type { PaymentDesk } from './payment-desk.ts'
import { OrderPlacement, type PlacementSettings } from './placement.ts'
import { type ConversionQuote, conversionQuote, conversionQuoteView } from './prepaid-conversion.ts'
import { type OrderRow, orderRepo } from './repo.ts'
import type { OrderStatus } from './schema.sql.ts'
import { orderSummaryView } from './views.ts'
import { expireActivePayments, findPayment, insertPayment, NO_CLIENT_ACTION, paymentView, updatePayment } from '../payments/index.ts'

export type { StoredAnswer } from './answer-once.ts'
export type { CreateOrderInput, CustomerRef } from './order-request.ts'

export class OrderService {
  readonly #db: Database['db']
  readonly #clock: Clock
  readonly #payments: PaymentDesk
  readonly #placement: OrderPlacement

  constructor(deps: ServiceDeps<PlacementSettings>, checkout: CheckoutService, payments: PaymentDesk) {
    this.#db = deps.database.db
    this.#clock = deps.clock
    this.#payments = payments
    this.#placement = new OrderPlacement(deps, checkout, payments)
  }

  /** The order as GET /orders/{id} answers it. */
  detail(order: OrderRow) {
    return answeredOrder(this.#db, order)
  }

  /** POST /orders: places the order once per idempotency key (placement.ts), then opens its payment session. */
  async createOrder(customer: CustomerRef, input: CreateOrderInput, key: string): Promise<StoredAnswer> {
    const scope = { ...customer, route: 'POST /orders', key }
    const placement = this.#placement
    return answerOnce(
      this.#db,
      this.#clock,
      scope,
      input,
      () => placement.insert(customer, input, scope, fingerprintOf(input)),
      (orderId, created) => placement.openPaymentSession(orderId, created),
    )
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
      (paymentId) => this.#paymentAttemptAnswer(orderId, paymentId),
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

  /** GET /orders/{id}/convert-to-prepaid: whether the COD order may be paid online, and what it saves (nothing is written). */
  async prepaidConversionQuote(customer: CustomerRef, orderId: string) {
    return conversionQuoteView(await conversionQuote(this.#db, await this.#ownOrder(customer, orderId)))
  }

  /** POST /orders/{id}/convert-to-prepaid (customer), once per idempotency key: a provider session for the conversion payment. */
  async convertToPrepaid(customer: CustomerRef, orderId: string, key: string): Promise<StoredAnswer> {
    await this.#ownOrder(customer, orderId)
    return this.#convert({ partnerId: customer.partnerId, userId: customer.userId, route: `POST /orders/${orderId}/convert-to-prepaid`, key }, orderId)
  }

  /** POST /partner/orders/{id}/convert-to-prepaid: the same for the partner's server (another partner's order: 404). */
  async partnerConvertToPrepaid(partner: PartnerScope, orderId: string, key: string): Promise<StoredAnswer> {
    const order = await orderRepo.findOrder(this.#db, orderId)
    if (!order || order.partnerId !== partner.partnerId) throw notFound('Order')
    return this.#convert({ partnerId: order.partnerId, userId: order.userId, route: `POST /partner/orders/${orderId}/convert-to-prepaid`, key }, orderId)
  }

  #convert(scope: IdempotencyScope, orderId: string) {
    let quoted: ConversionQuote | undefined
    return answerOnce(
      this.#db,
      this.#clock,
      scope,
      {},
      async () => {
        const { created, quote } = await this.#newConversionAttempt(orderId, scope)
        quoted = quote
        return created
      },
      (paymentId) => this.#conversionAnswer(orderId, paymentId, quoted),
    )
  }

  /**
   * In one transaction (customer, then order locked): 409 unless the order may convert; earlier
   * sessions expire; a new CREATED payment of the quoted amount and the key's record. The order
   * itself is not changed: it stays cash on delivery until the payment succeeds.
   */
  #newConversionAttempt(orderId: string, scope: IdempotencyScope): Promise<{ created: Created; quote: ConversionQuote }> {
    return this.#db.transaction(async (tx) => {
      const now = this.#clock.now()
      await lockCustomer(tx, scope.userId)
      const order = (await orderRepo.lockOrder(tx, orderId))!
      const quote = await conversionQuote(tx, order)
      if (!quote.eligible) throw new AppError('CONFLICT', quote.reasons[0]!)
      return { created: await this.#openPaymentAttempt(tx, order, quote.amountToPay, scope, now), quote }
    })
  }

  /** After commit: the provider session, then `{payment, clientAction, saving}` (saving: what the COD order costs more than the payment). */
  async #conversionAnswer(orderId: string, paymentId: string, quote?: ConversionQuote): Promise<Answer> {
    const { body } = await this.#paymentAttemptAnswer(orderId, paymentId)
    let saving = quote?.saving
    if (saving === undefined) {
      // Finishing for a request whose process died after its commit: the saving is read off the
      // order (a COD order: what it costs more than the payment; converted already: its discount).
      const [order, payment] = await Promise.all([orderRepo.findOrder(this.#db, orderId), findPayment(this.#db, paymentId)])
      saving = order!.paymentMode === 'COD' ? maxPaise(0n, order!.amountPayable - payment!.amount) : order!.prepaidDiscount
    }
    return { status: 201, body: { ...(body as object), saving: rupees(saving) } }
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
      return this.#openPaymentAttempt(tx, order, order.amountPayable, scope, now)
    })
  }

  /** In the caller's transaction, the order locked: earlier sessions expire, a new CREATED payment of `amount`, and the key's record. */
  async #openPaymentAttempt(tx: Executor, order: OrderRow, amount: bigint, scope: IdempotencyScope, now: Date): Promise<Created> {
    await expireActivePayments(tx, order.id, now)
    const payment = await insertPayment(tx, {
      id: newId('pay', now.getTime()),
      orderId: order.id,
      partnerId: order.partnerId,
      provider: this.#payments.providerName,
      amount,
      status: 'CREATED',
      createdAt: now,
      updatedAt: now,
    })
    await idempotencyRepo.begin(tx, scope, fingerprintOf({}), payment.id, now)
    return { resourceId: payment.id }
  }

  /** After commit: the provider session of the new payment (when not open yet), then the answer. */
  async #paymentAttemptAnswer(orderId: string, paymentId: string): Promise<Answer> {
    let payment = (await findPayment(this.#db, paymentId))!
    if (payment.status === 'CREATED') payment = await this.#payments.startSession(payment, (await orderRepo.findOrder(this.#db, orderId))!)
    const clientAction = payment.status === 'PENDING' && payment.clientAction ? payment.clientAction : NO_CLIENT_ACTION
    return { status: 201, body: { payment: paymentView(payment), clientAction } }
  }
}
