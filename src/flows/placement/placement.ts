// Placing an order (POST /orders), as named steps, read top to bottom in OrderPlacement.insert. The
// request runs once per x-idempotency-key (orders' answerOnce: a repeat answers what the first did).
//
//   before the transaction: nothing written, so nothing to undo
//     checkRequest        the return URL's origin, the alternate phone, the defaults
//     checkCart           the cart read outside the transaction: a product already short, or seen
//                         sold out by this process meanwhile, is refused without taking a connection
//                         for a transaction and the customer's lock (a flash sale's crowd)
//   ONE transaction, the customer's row locked first; any failure rolls back every step
//     lockBuyer           one customer's orders are serialised; the profile must have a name
//     shippingAddressFor  a saved address or the one sent, checked (order-request.ts)
//     priceOrder          the same pricing as the wallet quote, so the two agree to the paisa
//     checkUnpaidLimit    prepaid: at most MAX_UNPAID_ORDERS_PER_CUSTOMER waiting for payment
//     checkCodRisk        COD: the partner's risk rules for this customer (checkout's cod-risk.ts),
//                         counted under the customer's lock
//     reserveOrderStock   conditional decrements, in product id order       undo: releaseReservation
//     orderRows           the order, its lines, history and payment, in memory
//     redeemOrderCoupon   one use of the coupon                              undo: releaseReservation
//     debitLedgers        Wallet Cash and Reward Points spent                undo: releaseReservation
//     insertOrder         the order, lines, history, payment, its order.created event and the
//                         idempotency key's record, in one statement
//   after commit
//     openPaymentSession  the provider call (a network call, so outside the transaction); a failure
//                         leaves the payment FAILED and the order standing (POST /orders/{id}/payments
//                         tries again); its answer is then stored under the key (answer-once.ts)
//
// The undo of a committed order's reservation (stock, coupon use, Wallet Cash, Reward Points) is
// the order-moves flow's releaseReservation (reverse-sale.ts), run once when the order is cancelled
// or its payment window closes (the payments flow's sweeper).
import { afterCommit, type Executor } from '../../db/client.ts'
import type { ServiceDeps } from '../../deps.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { formatPaise } from '../../lib/money.ts'
import { currentStock, defaultVariantId, reserveStock } from '../../modules/catalog/index.ts'
import { takeUnitsForOrder } from '../../modules/inventory/index.ts'
import { gstRegistrationOf } from '../../modules/tax/index.ts'
import { type CheckoutService, type DeliveryMethod, redeemCoupon, retaxBySupplier } from '../../modules/checkout/index.ts'
import { lockCustomer } from '../../modules/customers/index.ts'
import { eventInsert, type NewEvent } from '../../modules/events/index.ts'
import { debitLedger } from '../../modules/ledgers/index.ts'
import {
  type Answer,
  answeredOrder,
  answerOnce,
  countUnpaidOrders,
  type Created,
  type CustomerRef,
  findOrderById,
  fingerprintOf,
  type HistoryRow,
  type IdempotencyScope,
  invoiceOrder,
  newOrderNumber,
  type OrderDetail,
  orderEvent,
  type OrderItemRow,
  type OrderRow,
  type OrderStatus,
  orderView,
  type PaymentDesk,
  type PaymentRow,
  type ShippingAddress,
  type StoredAnswer,
  writeNewOrder,
} from '../../modules/orders/index.ts'
import { currentPayment, NO_CLIENT_ACTION, paymentsOf } from '../../modules/payments/index.ts'
import { alternatePhoneOf, checkReturnUrl, type CreateOrderInput, shippingAddressFor } from './order-request.ts'
import { HotStockGate } from './hot-stock.ts'
import { outOfStock, SoldOutSightings, type SoldUnit } from './sold-out.ts'

type Cart = Awaited<ReturnType<CheckoutService['loadCart']>>
type PricedOrder = Awaited<ReturnType<CheckoutService['priceForCustomer']>>
type OrderRows = Omit<OrderDetail, 'refunds'>

/** The request as checked before the transaction. */
interface CheckedRequest {
  /** performance.now() when the request began (sold-out sightings are compared with it). */
  began: number
  alternatePhone: string | null
  paymentMode: 'PREPAID' | 'COD'
  deliveryMethod: DeliveryMethod
}

/** How the order is to be paid, decided from its price. */
interface Settlement {
  status: OrderStatus
  /** A provider payment is to be made (prepaid, something left to pay). */
  prepaid: boolean
  nothingToPay: boolean
}

/** The settings placement reads. */
export type PlacementSettings = 'maxUnpaidOrdersPerCustomer' | 'reservationMinutes'

export class OrderPlacement {
  readonly #deps: ServiceDeps<PlacementSettings>
  readonly #checkout: CheckoutService
  readonly #payments: PaymentDesk
  readonly #soldOut = new SoldOutSightings()
  readonly #hotStock = new HotStockGate()

  constructor(deps: ServiceDeps<PlacementSettings>, checkout: CheckoutService, payments: PaymentDesk) {
    this.#deps = deps
    this.#checkout = checkout
    this.#payments = payments
  }

  /** POST /orders: places the order once per idempotency key (insert), then opens its payment session (openPaymentSession). */
  async createOrder(customer: CustomerRef, input: CreateOrderInput, key: string): Promise<StoredAnswer> {
    const scope = { ...customer, route: 'POST /orders', key }
    const { database, clock } = this.#deps
    return answerOnce(
      database.db,
      clock,
      scope,
      input,
      () => this.insert(customer, input, scope, fingerprintOf(input)),
      (orderId, created) => this.openPaymentSession(orderId, created),
    )
  }

  /** Phase 1: everything the order holds, in one transaction. Returns the order id (and its answer when final). */
  async insert(customer: CustomerRef, input: CreateOrderInput, scope: IdempotencyScope, fingerprint: string): Promise<Created> {
    const request = await this.checkRequest(customer, input)
    const cart = await this.checkCart(customer, input, request.began)

    const soldOut = new Set<SoldUnit>() // variants this order sold out
    let txBegan = 0
    // A flash sale's crowd waits here, not in the pool's queue (hot-stock.ts); the place is given
    // back as the transaction commits, before its after-commit work (the invoice's numbering).
    const leave = await this.#hotStock.enter(input.items.map((i) => i.variantId ?? defaultVariantId(i.productId)))
    const created = await this.#deps.database.db.transaction(async (tx): Promise<Created> => {
      await afterCommit(tx, async () => leave())
      soldOut.clear()
      // The connection may have come after a long wait in the pool's queue.
      this.#soldOut.refuseIfSoldOutSince(request.began, input.items)
      txBegan = performance.now()
      const now = this.#deps.clock.now()
      const buyer = await lockBuyer(tx, customer)
      const address = await shippingAddressFor(tx, this.#checkout, customer, buyer.name, buyer.phone, input.shippingAddress)
      const priced = await this.priceOrder(tx, customer, input, request, address, cart)
      const orderId = newId('ord', now.getTime())
      const settlement = settlementOf(request, priced)
      if (settlement.prepaid) await this.checkUnpaidLimit(tx, customer)
      if (request.paymentMode === 'COD') await this.checkCodRisk(tx, customer, address.pincode, priced)
      await this.reserveOrderStock(tx, priced, soldOut)
      const supplied = await bySupplier(tx, priced, await takeOrderUnits(tx, orderId, address, priced.cart.lines, now))
      const rows = this.orderRows(customer, input, request, supplied.priced, address, orderId, settlement, now, supplied.registrations)
      await redeemOrderCoupon(tx, customer, priced, orderId, now)
      await debitLedgers(tx, customer, priced, orderId, now)
      const inserted = await insertOrder(tx, rows, settlement, scope, fingerprint, now)
      // Confirmed at once (COD, or nothing left to pay): invoiced now, the invoice numbered once this
      // commits (decision 0045).
      if (settlement.status === 'CONFIRMED') await invoiceOrder(tx, rows.order, now, rows.items)
      return inserted
    }).finally(leave)
    // Catalog answers showing this stock were dropped when the transaction committed (catalog/index.ts).
    for (const unit of soldOut) this.#soldOut.saw(unit, txBegan)
    return created
  }

  /** Phase 2: the provider session of a new prepaid order, then the answer. Safe to run again. */
  async openPaymentSession(orderId: string, created?: Created): Promise<Answer> {
    const db = this.#deps.database.db
    const fresh = created?.rows
    const order = fresh?.order ?? (await findOrderById(db, orderId))!
    let payment: PaymentRow | null = fresh ? fresh.payment : currentPayment(await paymentsOf(db, orderId))
    if (payment?.status === 'CREATED') payment = await this.#payments.startSession(payment, order)
    // A new order's rows are at hand; a resumed one is read back.
    const view = fresh ? orderView({ ...fresh, payment, refunds: [] }) : await answeredOrder(db, order)
    const paymentClientAction = payment?.status === 'PENDING' && payment.clientAction ? payment.clientAction : NO_CLIENT_ACTION
    return { status: 201, body: { ...view, paymentClientAction } }
  }

  /** The return URL and alternate phone checked, the payment mode and delivery method defaulted. */
  async checkRequest(customer: CustomerRef, input: CreateOrderInput): Promise<CheckedRequest> {
    const began = performance.now()
    await checkReturnUrl(this.#deps.database.db, customer.partnerId, input.paymentReturnUrl)
    const alternatePhone = alternatePhoneOf(input)
    return { began, alternatePhone, paymentMode: input.paymentMode ?? 'PREPAID', deliveryMethod: input.deliveryMethod ?? 'STANDARD' }
  }

  /**
   * The cart, read before the transaction: a product already sold out is refused without taking a
   * connection for a transaction and the customer's lock (a flash sale's crowd), and the transaction
   * is shorter. The stock itself is taken in the transaction, conditionally.
   */
  async checkCart(customer: CustomerRef, input: CreateOrderInput, began: number): Promise<Cart> {
    const cart = await this.#checkout.loadCart(customer.partnerId, input.items)
    const short = cart.lines.find((l) => l.product.isActive && l.product.stock < l.quantity)
    if (short) throw outOfStock({ productId: short.productId, variantId: short.product.variantId, variantTitle: short.product.variantTitle }, short.quantity, short.product.stock)
    this.#soldOut.refuseIfSoldOutSince(began, input.items)
    return cart
  }

  /** The order priced by the wallet quote's function, on the cart read before and the balances under the lock. */
  priceOrder(tx: Executor, customer: CustomerRef, input: CreateOrderInput, request: CheckedRequest, address: ShippingAddress, cart: Cart): Promise<PricedOrder> {
    return this.#checkout.priceForCustomer(
      customer,
      {
        items: input.items,
        pincode: address.pincode,
        deliveryMethod: request.deliveryMethod,
        paymentMode: request.paymentMode,
        couponCode: input.couponCode,
        useRewardPoints: input.useRewardPoints,
        useWalletCash: input.useWalletCash,
      },
      tx,
      'when-used',
      cart,
      address.state,
    )
  }

  /**
   * Stock hoarding: every unpaid order holds its stock for the reservation window, so one customer
   * may hold only so many at once. Counted under the customer's lock, so concurrent orders of one
   * customer cannot pass the cap together.
   */
  async checkUnpaidLimit(tx: Executor, customer: CustomerRef) {
    const unpaid = await countUnpaidOrders(tx, customer.userId)
    if (unpaid >= this.#deps.config.maxUnpaidOrdersPerCustomer) {
      throw new AppError(
        'CONFLICT',
        `Customer already has ${unpaid} orders waiting for payment, the most allowed: pay or cancel one before placing another prepaid order`,
      )
    }
  }

  /**
   * The partner's COD risk rules (open COD orders, value outstanding, recent RTOs, the cap until the
   * first delivery, blocked pincodes), judged as GET /checkout/cod-eligibility judges them, on the
   * amount to collect. Counted in this transaction after lockBuyer locked the customer's row, so
   * two concurrent COD orders of one customer cannot both pass a limit of one: the second counts
   * once the first has committed. Refused like the zone's COD limit: 400 with the first reason.
   */
  async checkCodRisk(tx: Executor, customer: CustomerRef, pincode: string, priced: PricedOrder) {
    const { reasons } = await this.#checkout.codRisk(customer, pincode, priced.remainingPayable, tx)
    if (reasons.length > 0) throw new AppError('BAD_REQUEST', reasons[0]!)
  }

  /**
   * Conditional decrements, in product id order so two orders never wait on each other's rows in a
   * cycle (a variant's row is taken after its product's: reserveStock). A short product is a 409 with the stock read then (a 0 is remembered as a sighting);
   * products this order takes the last unit of are added to `soldOut`.
   */
  async reserveOrderStock(tx: Executor, priced: PricedOrder, soldOut: Set<SoldUnit>) {
    for (const line of [...priced.cart.lines].sort((a, b) => (a.productId < b.productId ? -1 : 1))) {
      const unit = { productId: line.productId, variantId: line.product.variantId, variantTitle: line.product.variantTitle }
      const left = await reserveStock(tx, unit, line.quantity)
      if (left === null) {
        const reading = performance.now()
        const available = await currentStock(tx, unit)
        if (available === 0) this.#soldOut.saw(unit, reading)
        throw outOfStock(unit, line.quantity, available)
      }
      if (left === 0) soldOut.add(unit)
    }
  }

  /** The new order's rows, in memory: the order, its lines (price and discount snapshots), its first history row, and its payment when prepaid. */
  orderRows(
    customer: CustomerRef,
    input: CreateOrderInput,
    request: CheckedRequest,
    priced: PricedOrder,
    address: ShippingAddress,
    orderId: string,
    settlement: Settlement,
    now: Date,
    registrations: (string | null)[],
  ): OrderRows {
    const { config } = this.#deps
    const { status, prepaid, nothingToPay } = settlement
    const order: OrderRow = {
      id: orderId,
      orderNumber: newOrderNumber(),
      partnerId: customer.partnerId,
      userId: customer.userId,
      status,
      paymentStatus: nothingToPay ? 'PAID' : request.paymentMode === 'COD' ? 'COD_PENDING' : 'PENDING',
      paymentMode: request.paymentMode,
      deliveryMethod: request.deliveryMethod,
      shippingAddress: address,
      alternatePhone: request.alternatePhone,
      paymentReturnUrl: input.paymentReturnUrl ?? null,
      couponId: priced.coupon?.id ?? null,
      couponCode: priced.coupon?.code ?? null,
      itemsTotal: priced.itemsTotal,
      mrpTotal: priced.mrpTotal,
      couponDiscount: priced.couponDiscount,
      prepaidDiscount: 0n,
      shippingCharge: priced.shippingCharge,
      codFee: priced.codFee,
      totalAmount: priced.totalAmount,
      rewardPointsUsed: priced.rewardPointsUsed,
      rewardPointsValue: priced.rewardPointsValue,
      walletCashUsed: priced.walletCashUsed,
      amountPayable: priced.remainingPayable,
      rewardPointsEarned: 0n,
      reservationExpiresAt: prepaid ? new Date(now.getTime() + config.reservationMinutes * 60_000) : null,
      releasedAt: null,
      cancelReason: null,
      deliveredAt: null,
      ...orderTaxColumns(priced.tax),
      createdAt: now,
      updatedAt: now,
    }
    const items: OrderItemRow[] = priced.lines.map((l, position) => {
      const unit = priced.cart.lines[position]!.product
      return {
      id: newId('itm', now.getTime()),
      orderId,
      productId: l.productId,
      variantId: unit.variantId,
      variantTitle: unit.variantTitle,
      variantOptions: unit.variantOptions,
      catalogId: unit.catalogId,
      name: unit.name,
      sku: unit.sku,
      imageUrl: unit.images[0] ?? null,
      cancelledQuantity: 0,
      returnedQuantity: 0,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      unitMrp: l.unitMrp,
      lineTotal: l.lineTotal,
      couponDiscount: l.couponDiscount,
      rewardPointsDiscount: l.rewardPointsDiscount,
      prepaidDiscount: 0n,
      paidAmount: l.paidAmount,
      position,
      ...lineTaxColumns(priced.tax?.lines[position] ?? null),
      gstRegistrationId: priced.tax?.lines[position] ? (registrations[position] ?? null) : null,
      }
    })
    const history: HistoryRow[] = [{ id: newId('osh', now.getTime()), orderId, fromStatus: null, toStatus: status, actor: 'CUSTOMER', note: null, createdAt: now }]
    const payment: PaymentRow | null = prepaid
      ? {
          id: newId('pay', now.getTime()),
          orderId,
          partnerId: customer.partnerId,
          provider: this.#payments.providerName,
          providerSessionId: null,
          providerPaymentId: null,
          amount: priced.remainingPayable,
          currency: 'INR',
          status: 'CREATED',
          clientAction: null,
          failureReason: null,
          createdAt: now,
          updatedAt: now,
        }
      : null
    return { order, items, history, payment }
  }
}

/** The order's GST columns from the priced tax (all null when nothing was taxed). */
export function orderTaxColumns(tax: PricedOrder['tax']) {
  const paise = (n: bigint) => n.toString()
  return {
    placeOfSupplyStateCode: tax?.placeOfSupply.stateCode ?? null,
    placeOfSupplyState: tax?.placeOfSupply.state ?? null,
    taxIntraState: tax?.intraState ?? null,
    taxableValue: tax?.taxable ?? null,
    cgst: tax?.cgst ?? null,
    sgst: tax?.sgst ?? null,
    igst: tax?.igst ?? null,
    taxCharges:
      tax?.charges.map((c) => ({
        kind: c.charge,
        hsnCode: c.hsnCode,
        gstRateBps: c.rateBps,
        intraState: c.kind === 'INTRA_STATE',
        amount: paise(c.amount),
        taxableValue: paise(c.taxable),
        cgst: paise(c.cgst),
        sgst: paise(c.sgst),
        igst: paise(c.igst),
      })) ?? null,
  }
}

/** A line's GST columns (all null when the line was not taxed). */
export function lineTaxColumns(line: NonNullable<PricedOrder['tax']>['lines'][number]) {
  return {
    hsnCode: line?.hsnCode ?? null,
    gstRateBps: line?.rateBps ?? null,
    taxableValue: line?.taxable ?? null,
    cgst: line?.cgst ?? null,
    sgst: line?.sgst ?? null,
    igst: line?.igst ?? null,
  }
}

/**
 * The customer's row locked: one customer's orders are serialised, balances read afterwards stay
 * true until commit, and a second request with the same key waits here, then finds the first one's
 * record. The profile must have a name (it is the default addressee).
 */
export async function lockBuyer(tx: Executor, customer: CustomerRef): Promise<{ name: string; phone: string }> {
  const profile = await lockCustomer(tx, customer.userId)
  if (!profile) throw notFound('Customer')
  if (!profile.name.trim()) {
    throw new AppError('BAD_REQUEST', 'Customer profile name must not be empty: set it with PATCH /users/me before placing an order')
  }
  return { name: profile.name.trim(), phone: profile.phone }
}

/** Prepaid with something left to pay: PENDING_PAYMENT and a provider payment; otherwise CONFIRMED at once (COD, or nothing to pay). */
export function settlementOf(request: Pick<CheckedRequest, 'paymentMode'>, priced: Pick<PricedOrder, 'remainingPayable'>): Settlement {
  const nothingToPay = priced.remainingPayable === 0n
  const prepaid = request.paymentMode === 'PREPAID' && !nothingToPay
  return { status: prepaid ? 'PENDING_PAYMENT' : 'CONFIRMED', prepaid, nothingToPay }
}

/** One use of the order's coupon. Undo: releaseReservation gives it back. */
export async function redeemOrderCoupon(tx: Executor, customer: CustomerRef, priced: PricedOrder, orderId: string, at: Date) {
  if (priced.coupon) await redeemCoupon(tx, { couponId: priced.coupon.id, userId: customer.userId, orderId, at })
}

/** The Wallet Cash and Reward Points the order spends. Undo: releaseReservation credits them back. */
export async function debitLedgers(tx: Executor, customer: CustomerRef, priced: PricedOrder, orderId: string, at: Date) {
  const debit = { userId: customer.userId, partnerId: customer.partnerId, reason: 'ORDER_PAYMENT', reference: orderId, at }
  if (priced.walletCashUsed > 0n) await debitLedger(tx, { ...debit, kind: 'WALLET_CASH', amount: priced.walletCashUsed })
  if (priced.rewardPointsUsed > 0n) await debitLedger(tx, { ...debit, kind: 'REWARD_POINTS', amount: priced.rewardPointsUsed })
}

/** order.created, carrying the order as GET /orders/{id} answers it (built from the rows in memory: no query). */
export function orderCreatedEvent(order: OrderRow, shown: ReturnType<typeof orderView>, at: Date): NewEvent {
  return orderEvent(
    order,
    'order.created',
    { status: order.status, paymentMode: order.paymentMode, totalAmount: formatPaise(order.totalAmount), amountPayable: formatPaise(order.amountPayable), order: shown },
    at,
  )
}

/**
 * Writes the order, its lines, history, payment, its event and the idempotency key's record in one
 * statement. Nothing to pay a provider: the answer is final now and is stored with the order.
 */
export async function insertOrder(tx: Executor, rows: OrderRows, settlement: Settlement, scope: IdempotencyScope, fingerprint: string, at: Date): Promise<Created> {
  const shown = orderView({ ...rows, refunds: [] })
  const answer = settlement.prepaid ? undefined : { status: 201, body: { ...shown, paymentClientAction: NO_CLIENT_ACTION } }
  const event = orderCreatedEvent(rows.order, shown, at)
  await writeNewOrder(tx, rows, [eventInsert(tx, event)], { scope, fingerprint, answer }, at)
  return { resourceId: rows.order.id, answer, rows }
}

/**
 * The order's units taken from its catalog's stock locations, nearest the delivery first (a catalog
 * without locations: nothing to do), after catalog reserved them (decision 0043, step 5). Answers
 * the GST registration each variant's units ship under (absent or null: the catalog's seller's).
 */
async function takeOrderUnits(tx: Executor, orderId: string, address: { pincode: string; state: string }, lines: { productId: string; quantity: number; product: { catalogId: string; variantId: string } }[], at: Date) {
  const suppliers = new Map<string, string | null>()
  for (const catalogId of new Set(lines.map((l) => l.product.catalogId))) {
    const units = lines.filter((l) => l.product.catalogId === catalogId).map((l) => ({ productId: l.productId, variantId: l.product.variantId, quantity: l.quantity }))
    for (const [variantId, registrationId] of await takeUnitsForOrder(tx, { orderId, catalogId, delivery: { pincode: address.pincode, state: address.state } }, units, at)) suppliers.set(variantId, registrationId)
  }
  return suppliers
}

/**
 * The lines' suppliers once their units are allocated (decision 0043): a line whose units come from
 * a location under its own GST registration is invoiced by that GSTIN, and the registration's state
 * against the place of supply makes it CGST + SGST or IGST. Prices include GST, so only the split
 * can change, never what the customer pays. A catalog without locations: the priced order as is.
 */
async function bySupplier(tx: Executor, priced: PricedOrder, suppliers: Map<string, string | null>): Promise<{ priced: PricedOrder; registrations: (string | null)[] }> {
  const registrations = priced.cart.lines.map((l) => suppliers.get(l.product.variantId) ?? null)
  if (!priced.tax || registrations.every((r) => r === null)) return { priced, registrations }
  const states = new Map<string, string>()
  for (const id of new Set(registrations)) if (id !== null) states.set(id, (await gstRegistrationOf(tx, id))!.state)
  const tax = retaxBySupplier(
    priced.tax,
    { lines: priced.lines, shippingCharge: priced.shippingCharge, codFee: priced.codFee },
    registrations.map((r) => (r === null ? undefined : states.get(r))),
    priced.tax.placeOfSupply.state,
  )
  return { priced: tax === priced.tax ? priced : { ...priced, tax }, registrations }
}
