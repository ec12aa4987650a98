// What the customer and the partner's server ask of a COD order's conversion to prepaid: the quote
// (nothing written), and the conversion's payment, once per idempotency key (orders' answerOnce):
//
//   newConversionAttempt  ONE transaction, the customer's row then the order's locked: 409 unless
//                         the order may convert (conversion.ts); earlier sessions expire; a new
//                         CREATED payment of the quoted amount and the key's record. The order itself
//                         is not changed: it stays cash on delivery until the payment succeeds
//   conversionAnswer      after commit: the provider session (a network call), then the answer with
//                         what the conversion saves; stored under the key
//
// The captured payment is applied by the payments flow (convertPaidCodOrder, conversion.ts).
import type { Db } from '../../db/client.ts'
import type { Deps } from '../../deps.ts'
import type { Clock } from '../../lib/clock.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { maxPaise, formatPaise as rupees } from '../../lib/money.ts'
import type { PartnerScope } from '../../lib/scope.ts'
import { lockCustomer } from '../../modules/customers/index.ts'
import {
  type Answer,
  answerOnce,
  type Created,
  type CustomerRef,
  findOrderById,
  findOwnOrder,
  type IdempotencyScope,
  lockOrder,
  openPaymentAttempt,
  paymentAttemptAnswer,
  type PaymentDesk,
  type StoredAnswer,
} from '../../modules/orders/index.ts'
import { findPayment } from '../../modules/payments/index.ts'
import { type ConversionQuote, conversionQuote, conversionQuoteView } from './conversion.ts'

export class CodConversion {
  readonly #db: Db
  readonly #clock: Clock
  readonly #payments: PaymentDesk

  constructor({ database, clock }: Pick<Deps, 'database' | 'clock'>, payments: PaymentDesk) {
    this.#db = database.db
    this.#clock = clock
    this.#payments = payments
  }

  /** GET /orders/{id}/convert-to-prepaid: whether the COD order may be paid online, and what it saves (nothing is written). */
  async quote(customer: CustomerRef, orderId: string) {
    const order = await findOwnOrder(this.#db, customer, orderId)
    if (!order) throw notFound('Order')
    return conversionQuoteView(await conversionQuote(this.#db, order))
  }

  /** POST /orders/{id}/convert-to-prepaid (customer), once per idempotency key: a provider session for the conversion payment. */
  async convert(customer: CustomerRef, orderId: string, key: string): Promise<StoredAnswer> {
    if (!(await findOwnOrder(this.#db, customer, orderId))) throw notFound('Order')
    return this.#convert({ partnerId: customer.partnerId, userId: customer.userId, route: `POST /orders/${orderId}/convert-to-prepaid`, key }, orderId)
  }

  /** POST /partner/orders/{id}/convert-to-prepaid: the same for the partner's server (another partner's order: 404). */
  async partnerConvert(partner: PartnerScope, orderId: string, key: string): Promise<StoredAnswer> {
    const order = await findOrderById(this.#db, orderId)
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

  #newConversionAttempt(orderId: string, scope: IdempotencyScope): Promise<{ created: Created; quote: ConversionQuote }> {
    return this.#db.transaction(async (tx) => {
      const now = this.#clock.now()
      await lockCustomer(tx, scope.userId)
      const order = (await lockOrder(tx, orderId))!
      const quote = await conversionQuote(tx, order)
      if (!quote.eligible) throw new AppError('CONFLICT', quote.reasons[0]!)
      return { created: await openPaymentAttempt(tx, this.#payments.providerName, order, quote.amountToPay, scope, now), quote }
    })
  }

  /** `{payment, clientAction, saving}` (saving: what the COD order costs more than the payment). */
  async #conversionAnswer(orderId: string, paymentId: string, quote?: ConversionQuote): Promise<Answer> {
    const { body } = await paymentAttemptAnswer(this.#db, this.#payments, orderId, paymentId)
    let saving = quote?.saving
    if (saving === undefined) {
      // Finishing for a request whose process died after its commit: the saving is read off the
      // order (a COD order: what it costs more than the payment; converted already: its discount).
      const [order, payment] = await Promise.all([findOrderById(this.#db, orderId), findPayment(this.#db, paymentId)])
      saving = order!.paymentMode === 'COD' ? maxPaise(0n, order!.amountPayable - payment!.amount) : order!.prepaidDiscount
    }
    return { status: 201, body: { ...(body as object), saving: rupees(saving) } }
  }
}
