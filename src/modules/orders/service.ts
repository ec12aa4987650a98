// Order creation and the customer's order operations.
//
// POST /orders, read top to bottom: check the idempotency key; then in ONE transaction (customer
// row locked first) price the cart with the same function as the wallet quote, reserve stock with
// conditional decrements, redeem the coupon, debit Wallet Cash and Reward Points, write the order,
// its lines and history, its payment, its event and the idempotency record. Commit. Then open the
// provider session (a network call, so outside the transaction) and store the answer under the key.
import type { Executor } from '../../db/client.ts'
import type { Deps } from '../../deps.ts'
import { AppError, isUniqueViolation, notFound } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { formatPaise } from '../../lib/money.ts'
import { pageMeta } from '../../lib/pagination.ts'
import type { CustomerScope } from '../../lib/scope.ts'
import { normalizeIndianMobile } from '../../lib/phone.ts'
import { currentStock, reserveStock } from '../catalog/index.ts'
import { debitLedger } from '../ledgers/index.ts'
import { type CheckoutService, type DeliveryMethod, redeemCoupon } from '../checkout/index.ts'
import { findAddress, lockCustomer } from '../customers/index.ts'
import { eventInsert } from '../events/index.ts'
import { partnerReturnOrigins } from '../partners/index.ts'
import { checkReuse, fingerprintOf, IDEMPOTENCY_KEY_CONSTRAINT, type IdempotencyScope, idempotencyRepo } from './idempotency.ts'
import { answeredOrder, cancelOrder, emit, isOwnOrder, newOrderNumber, orderEvent } from './lifecycle.ts'
import type { PaymentService } from '../payments/index.ts'
import { type HistoryRow, type OrderItemRow, type OrderRow, orderRepo, type PaymentRow } from './repo.ts'
import type { OrderStatus, ShippingAddress } from './schema.sql.ts'
import { currentPayment, NO_CLIENT_ACTION, type OrderDetail, orderSummaryView, orderView, paymentView } from './views.ts'

export interface CustomerRef {
  userId: string
  partnerId: string
}

export interface CreateOrderInput {
  items: { productId: string; quantity: number }[]
  shippingAddress: Partial<ShippingAddress> & { addressId?: string; landmark: string }
  alternatePhone?: string
  paymentMode?: 'PREPAID' | 'COD'
  deliveryMethod?: DeliveryMethod
  couponCode?: string
  useRewardPoints?: boolean
  useWalletCash?: boolean
  paymentReturnUrl?: string
}

export interface StoredAnswer {
  status: number
  body: unknown
  replayed: boolean
}

/** What a creating transaction hands on: the new resource, its rows, and its answer when already final. */
interface Created {
  resourceId: string
  answer?: { status: number; body: unknown }
  rows?: Omit<OrderDetail, 'refunds'>
}

const ADDRESS_FIELDS = ['name', 'phone', 'line1', 'city', 'state', 'pincode'] as const
/** Sold-out sightings kept before old ones are dropped, and how old one may be when dropped. */
const SOLD_OUT_SIGHTINGS = 10_000
const SOLD_OUT_SIGHTING_MS = 60_000
/** How long a second request with a key waits for the first to finish before answering 409. */
const IN_PROGRESS_WAIT_MS = 3000
const STALE_IN_PROGRESS_MS = 30_000

export function createOrderService(deps: Deps, checkout: CheckoutService, payments: PaymentService) {
  const { database, clock, config } = deps
  const db = database.db
  // Sold-out sightings: product id -> a moment (performance.now()) before which its stock was seen
  // at 0 by this process (a committed order took the last unit, or a refused one read 0). A request
  // that began before that moment and is still waiting for its transaction (a flash sale's crowd in
  // the pool's queue) is refused without running it: the stock was 0 at an instant inside its own
  // lifetime, so "0 available" is a true answer for it, and a refusal never sells anything. A
  // request that begins later reads the stock itself. Only refusals come from here, never a sale.
  const soldOutSince = new Map<string, number>()
  function sawSoldOut(productId: string, at: number) {
    if (soldOutSince.size >= SOLD_OUT_SIGHTINGS) {
      for (const [id, seen] of soldOutSince) if (performance.now() - seen > SOLD_OUT_SIGHTING_MS) soldOutSince.delete(id)
      if (soldOutSince.size >= SOLD_OUT_SIGHTINGS) soldOutSince.clear()
    }
    soldOutSince.set(productId, Math.max(at, soldOutSince.get(productId) ?? at))
  }
  /** Refuses a request that began at `began` if one of its products sold out while it waited. */
  function refuseIfSoldOutSince(began: number, lines: { productId: string; quantity: number }[]) {
    for (const line of lines) {
      const seen = soldOutSince.get(line.productId)
      if (seen !== undefined && seen >= began) throw outOfStock(line.productId, line.quantity, 0)
    }
  }

  const detail = (order: OrderRow) => answeredOrder(db, order)

  async function ownOrder(customer: CustomerRef, orderId: string) {
    const order = await orderRepo.findOrder(db, orderId)
    if (!isOwnOrder(order, customer)) throw notFound('Order')
    return order
  }

  /**
   * Runs `create` once per key, or answers with what the key already produced. `create` records the
   * key in its transaction (idempotencyRepo.beginInsert), so a key used before makes it fail: on any
   * failure the key's record, if there is one, gives the answer. A fresh key costs no lookup; a
   * replay costs a transaction that rolls back. `finish` turns the created resource into the answer.
   */
  async function once(
    scope: IdempotencyScope,
    body: unknown,
    create: () => Promise<Created>,
    finish: (resourceId: string, created?: Created) => Promise<{ status: number; body: unknown }>,
  ): Promise<StoredAnswer> {
    const fingerprint = fingerprintOf(body)
    for (let attempt = 1; ; attempt++) {
      let created: Created
      try {
        created = await create()
      } catch (err) {
        // A replay, or a request with the same key that committed first (this one then failed on
        // the key's record, or on something the first one changed, such as the last unit of stock).
        const previous = await previousAnswer(scope, fingerprint, finish)
        if (previous) return previous
        // Nothing recorded: an expired record was in the way (find() removed it), or the order number drawn was taken.
        const retry = isUniqueViolation(err, IDEMPOTENCY_KEY_CONSTRAINT) || isUniqueViolation(err, 'orders_order_number_uq')
        if (retry && attempt < 3) continue
        throw err
      }
      // Stored with the effect itself: nothing was left to do outside the transaction.
      if (created.answer) return { ...created.answer, replayed: false }
      const answer = await finish(created.resourceId, created)
      await idempotencyRepo.complete(db, scope, answer.status, answer.body)
      return { ...answer, replayed: false }
    }
  }

  /** What an earlier request with the key answered, waiting a moment while it is in progress; null when the key is unused. */
  async function previousAnswer(
    scope: IdempotencyScope,
    fingerprint: string,
    finish: (resourceId: string) => Promise<{ status: number; body: unknown }>,
  ): Promise<StoredAnswer | null> {
    const deadline = Date.now() + IN_PROGRESS_WAIT_MS
    for (;;) {
      const existing = await idempotencyRepo.find(db, scope, clock.now())
      if (!existing) return null
      const stored = checkReuse(existing, fingerprint)
      if (stored) return { ...stored, replayed: true }
      // The first request committed its effect but has not stored its answer yet.
      if (clock.now().getTime() - existing.createdAt.getTime() > STALE_IN_PROGRESS_MS) {
        // Its process died between commit and answer: finish the job for it.
        const answer = await finish(existing.resourceId!)
        await idempotencyRepo.complete(db, scope, answer.status, answer.body)
        return { ...answer, replayed: true }
      }
      if (Date.now() > deadline) throw new AppError('CONFLICT', 'A request with this x-idempotency-key is still in progress; retry in a moment')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  async function shippingAddressFor(tx: Executor, customer: CustomerRef, name: string, phone: string, input: CreateOrderInput['shippingAddress']): Promise<ShippingAddress> {
    const landmark = input.landmark.trim()
    if (input.addressId) {
      const extra = ADDRESS_FIELDS.filter((f) => input[f] !== undefined)
      if (extra.length) throw new AppError('BAD_REQUEST', 'Validation failed', extra.map((f) => `shippingAddress.${f} must not be sent with shippingAddress.addressId`))
      const saved = await findAddress(tx, customer.userId, input.addressId)
      if (!saved) throw notFound('Address')
      return { name, phone, line1: saved.line1, line2: saved.line2, landmark, city: saved.city, state: saved.state, pincode: saved.pincode }
    }
    const missing = ADDRESS_FIELDS.filter((f) => !input[f]?.trim())
    if (missing.length) throw new AppError('BAD_REQUEST', 'Validation failed', missing.map((f) => `shippingAddress.${f} should not be empty`))
    const normalized = normalizeIndianMobile(input.phone!)
    if (!normalized) throw new AppError('BAD_REQUEST', 'Validation failed', ['shippingAddress.phone must be a valid Indian mobile number'])
    const mismatch = await checkout.addressStateMismatch({ state: input.state!, pincode: input.pincode! }, 'shippingAddress.state', tx)
    if (mismatch) throw new AppError('BAD_REQUEST', 'Validation failed', [mismatch])
    return {
      name: input.name!.trim(),
      phone: normalized,
      line1: input.line1!.trim(),
      line2: input.line2?.trim() ?? '',
      landmark,
      city: input.city!.trim(),
      state: input.state!.trim(),
      pincode: input.pincode!,
    }
  }

  async function checkReturnUrl(partnerId: string, returnUrl: string | undefined) {
    if (returnUrl === undefined) return
    let parsed: URL
    try {
      parsed = new URL(returnUrl)
    } catch {
      throw new AppError('BAD_REQUEST', 'Validation failed', ['paymentReturnUrl must be a URL address'])
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      throw new AppError('BAD_REQUEST', 'Validation failed', ['paymentReturnUrl must be an absolute http or https URL'])
    }
    const origins = await partnerReturnOrigins(db, partnerId)
    if (origins.length > 0 && !origins.includes(parsed.origin)) {
      throw new AppError('BAD_REQUEST', `paymentReturnUrl origin ${parsed.origin} is not registered for this partner`)
    }
  }

  /** Phase 1: everything the order holds, in one transaction. Returns the order id. */
  async function insertOrder(customer: CustomerRef, input: CreateOrderInput, scope: IdempotencyScope, fingerprint: string): Promise<Created> {
    const began = performance.now()
    await checkReturnUrl(customer.partnerId, input.paymentReturnUrl)
    const alternatePhone = input.alternatePhone === undefined ? null : normalizeIndianMobile(input.alternatePhone)
    if (input.alternatePhone !== undefined && !alternatePhone) {
      throw new AppError('BAD_REQUEST', 'Validation failed', ['alternatePhone must be a valid Indian mobile number'])
    }
    const paymentMode = input.paymentMode ?? 'PREPAID'
    const deliveryMethod = input.deliveryMethod ?? 'STANDARD'

    // The cart is read before the transaction: a product already sold out is refused without
    // taking a connection for a transaction and the customer's lock (a flash sale's crowd), and
    // the transaction is shorter. The stock itself is taken in the transaction, conditionally.
    const cart = await checkout.loadCart(customer.partnerId, input.items)
    const short = cart.lines.find((l) => l.product.isActive && l.product.stock < l.quantity)
    if (short) throw outOfStock(short.productId, short.quantity, short.product.stock)
    refuseIfSoldOutSince(began, input.items)

    const soldOut = new Set<string>() // products this order sold out
    let txBegan = 0
    const created = await db.transaction(async (tx): Promise<Created> => {
      soldOut.clear()
      // The connection may have come after a long wait in the pool's queue.
      refuseIfSoldOutSince(began, input.items)
      txBegan = performance.now()
      const now = clock.now()
      // One customer's orders are serialised: balances read below stay true until commit, and a
      // second request with the same key waits here, then finds the first one's record.
      const profile = await lockCustomer(tx, customer.userId)
      if (!profile) throw notFound('Customer')
      if (!profile.name.trim()) {
        throw new AppError('BAD_REQUEST', 'Customer profile name must not be empty: set it with PATCH /users/me before placing an order')
      }
      const address = await shippingAddressFor(tx, customer, profile.name.trim(), profile.phone, input.shippingAddress)

      const priced = await checkout.priceForCustomer(
        customer,
        {
          items: input.items,
          pincode: address.pincode,
          deliveryMethod,
          paymentMode,
          couponCode: input.couponCode,
          useRewardPoints: input.useRewardPoints,
          useWalletCash: input.useWalletCash,
        },
        tx,
        'when-used',
        cart,
      )
      const orderId = newId('ord', now.getTime())
      const nothingToPay = priced.remainingPayable === 0n
      const prepaid = paymentMode === 'PREPAID' && !nothingToPay
      const status: OrderStatus = prepaid ? 'PENDING_PAYMENT' : 'CONFIRMED'
      // Stock hoarding: every unpaid order holds its stock for the reservation window, so one
      // customer may hold only so many at once. Counted under the customer's lock taken above, so
      // concurrent orders of one customer cannot pass the cap together.
      if (prepaid) {
        const unpaid = await orderRepo.countUnpaid(tx, customer.userId)
        if (unpaid >= config.maxUnpaidOrdersPerCustomer) {
          throw new AppError(
            'CONFLICT',
            `Customer already has ${unpaid} orders waiting for payment, the most allowed: pay or cancel one before placing another prepaid order`,
          )
        }
      }

      // Stock first, in product id order so two orders never wait on each other's rows in a cycle.
      for (const line of [...priced.cart.lines].sort((a, b) => (a.productId < b.productId ? -1 : 1))) {
        const left = await reserveStock(tx, line.productId, line.quantity)
        if (left === null) {
          const reading = performance.now()
          const available = await currentStock(tx, line.productId)
          if (available === 0) sawSoldOut(line.productId, reading)
          throw outOfStock(line.productId, line.quantity, available)
        }
        if (left === 0) soldOut.add(line.productId)
      }

      const order: OrderRow = {
        id: orderId,
        orderNumber: newOrderNumber(),
        partnerId: customer.partnerId,
        userId: customer.userId,
        status,
        paymentStatus: nothingToPay ? 'PAID' : paymentMode === 'COD' ? 'COD_PENDING' : 'PENDING',
        paymentMode,
        deliveryMethod,
        shippingAddress: address,
        alternatePhone,
        paymentReturnUrl: input.paymentReturnUrl ?? null,
        couponId: priced.coupon?.id ?? null,
        couponCode: priced.coupon?.code ?? null,
        itemsTotal: priced.itemsTotal,
        mrpTotal: priced.mrpTotal,
        couponDiscount: priced.couponDiscount,
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
        createdAt: now,
        updatedAt: now,
      }
      const products = new Map(priced.cart.lines.map((l) => [l.productId, l.product]))
      const items: OrderItemRow[] = priced.lines.map((l, position) => ({
        id: newId('itm', now.getTime()),
        orderId,
        productId: l.productId,
        name: products.get(l.productId)!.name,
        sku: products.get(l.productId)!.sku,
        imageUrl: products.get(l.productId)!.images[0] ?? null,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        unitMrp: l.unitMrp,
        lineTotal: l.lineTotal,
        couponDiscount: l.couponDiscount,
        rewardPointsDiscount: l.rewardPointsDiscount,
        paidAmount: l.paidAmount,
        position,
      }))
      const history: HistoryRow[] = [{ id: newId('osh', now.getTime()), orderId, fromStatus: null, toStatus: status, actor: 'CUSTOMER', note: null, createdAt: now }]
      const payment: PaymentRow | null = prepaid
        ? {
            id: newId('pay', now.getTime()),
            orderId,
            partnerId: customer.partnerId,
            provider: payments.providerName,
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

      if (priced.coupon) await redeemCoupon(tx, { couponId: priced.coupon.id, userId: customer.userId, orderId, at: now })
      const debit = { userId: customer.userId, partnerId: customer.partnerId, reason: 'ORDER_PAYMENT', reference: orderId, at: now }
      if (priced.walletCashUsed > 0n) await debitLedger(tx, { ...debit, kind: 'WALLET_CASH', amount: priced.walletCashUsed })
      if (priced.rewardPointsUsed > 0n) await debitLedger(tx, { ...debit, kind: 'REWARD_POINTS', amount: priced.rewardPointsUsed })

      const rows = { order, items, history, payment }
      // Nothing to pay a provider: the answer is final now and is stored with the order.
      const shown = orderView({ ...rows, refunds: [] })
      const answer = prepaid ? undefined : { status: 201, body: { ...shown, paymentClientAction: NO_CLIENT_ACTION } }
      // The event carries the order as GET /orders/{id} answers it (built from the rows in memory: no query).
      const event = orderEvent(order, 'order.created', { status, paymentMode, totalAmount: formatPaise(order.totalAmount), amountPayable: formatPaise(order.amountPayable), order: shown }, now)
      await orderRepo.insertNewOrder(tx, rows, [eventInsert(tx, event), idempotencyRepo.beginInsert(tx, scope, fingerprint, orderId, now, answer)])
      return { resourceId: orderId, answer, rows }
    })
    // Catalog answers showing this stock were dropped when the transaction committed (catalog/index.ts).
    for (const productId of soldOut) sawSoldOut(productId, txBegan)
    return created
  }

  /** Phase 2: the provider session of a new prepaid order, then the answer. Safe to run again. */
  async function finishOrder(orderId: string, created?: Created) {
    const fresh = created?.rows
    const order = fresh?.order ?? (await orderRepo.findOrder(db, orderId))!
    let payment: PaymentRow | null = fresh ? fresh.payment : currentPayment(await orderRepo.paymentsOf(db, orderId))
    if (payment?.status === 'CREATED') payment = await payments.startSession(payment, order)
    // A new order's rows are at hand; a resumed one is read back.
    const view = fresh ? orderView({ ...fresh, payment, refunds: [] }) : await detail(order)
    const paymentClientAction = payment?.status === 'PENDING' && payment.clientAction ? payment.clientAction : NO_CLIENT_ACTION
    return { status: 201, body: { ...view, paymentClientAction } }
  }

  return {
    detail,

    async createOrder(customer: CustomerRef, input: CreateOrderInput, key: string): Promise<StoredAnswer> {
      const scope = { ...customer, route: 'POST /orders', key }
      return once(scope, input, () => insertOrder(customer, input, scope, fingerprintOf(input)), finishOrder)
    },

    async listOrders(customer: CustomerScope, query: { page: number; limit: number; status?: OrderStatus }) {
      const result = await orderRepo.page(db, customer, { status: query.status }, query.page, query.limit)
      const counts = await orderRepo.itemCounts(db, result.rows.map((o) => o.id))
      return { data: result.rows.map((o) => orderSummaryView(o, counts.get(o.id) ?? 0)), meta: pageMeta(result.total, query) }
    },

    async getOrder(customer: CustomerRef, orderId: string) {
      return detail(await ownOrder(customer, orderId))
    },

    async cancel(customer: CustomerRef, orderId: string, reason: string) {
      await ownOrder(customer, orderId)
      const { order, refunds } = await db.transaction(async (tx) => {
        const locked = (await orderRepo.lockOrder(tx, orderId))!
        return cancelOrder(tx, locked, { name: 'CUSTOMER', reason }, clock.now())
      })
      await payments.sendRefunds(refunds)
      return detail((await orderRepo.findOrder(db, order.id))!)
    },

    /** A new provider session for an order still waiting for payment, inside its grace period. */
    async initiatePayment(customer: CustomerRef, orderId: string, key: string): Promise<StoredAnswer> {
      await ownOrder(customer, orderId)
      const scope = { ...customer, route: `POST /orders/${orderId}/payments`, key }
      const fingerprint = fingerprintOf({})
      const create = () =>
        db.transaction(async (tx) => {
          const now = clock.now()
          await lockCustomer(tx, customer.userId)
          const order = (await orderRepo.lockOrder(tx, orderId))!
          if (order.status !== 'PENDING_PAYMENT') throw new AppError('CONFLICT', `Order ${order.orderNumber} is ${order.status}, not waiting for payment`)
          if (!order.reservationExpiresAt || order.reservationExpiresAt <= now) {
            throw new AppError('CONFLICT', `The payment window of order ${order.orderNumber} has closed`)
          }
          await orderRepo.expireActivePayments(tx, orderId, now)
          const payment = await orderRepo.insertPayment(tx, {
            id: newId('pay', now.getTime()),
            orderId,
            partnerId: order.partnerId,
            provider: payments.providerName,
            amount: order.amountPayable,
            status: 'CREATED',
            createdAt: now,
            updatedAt: now,
          })
          await idempotencyRepo.begin(tx, scope, fingerprint, payment.id, now)
          return { resourceId: payment.id }
        })
      const finish = async (paymentId: string) => {
        let payment = (await orderRepo.findPayment(db, paymentId))!
        if (payment.status === 'CREATED') payment = await payments.startSession(payment, (await orderRepo.findOrder(db, orderId))!)
        const clientAction = payment.status === 'PENDING' && payment.clientAction ? payment.clientAction : NO_CLIENT_ACTION
        return { status: 201, body: { payment: paymentView(payment), clientAction } }
      }
      return once(scope, {}, create, finish)
    },

    /** The customer closed the provider checkout: USER_DROPPED; the stock stays reserved. */
    async abandonPayment(customer: CustomerRef, orderId: string, paymentId: string) {
      await ownOrder(customer, orderId)
      const payment = await db.transaction(async (tx) => {
        const now = clock.now()
        const order = (await orderRepo.lockOrder(tx, orderId))!
        const current = await orderRepo.findPayment(tx, paymentId)
        if (!current || current.orderId !== orderId) throw notFound('Payment')
        if (current.status === 'USER_DROPPED') return current
        if (current.status !== 'PENDING' && current.status !== 'CREATED') {
          throw new AppError('CONFLICT', `Payment ${paymentId} is ${current.status} and can no longer be abandoned`)
        }
        const dropped = (await orderRepo.updatePayment(tx, paymentId, { status: 'USER_DROPPED', updatedAt: now }))!
        await emit(tx, order, 'payment.user_dropped', { paymentId }, now)
        return dropped
      })
      return paymentView(payment)
    },
  }
}

const outOfStock = (productId: string, requested: number, available: number) =>
  new AppError('CONFLICT', `Product ${productId} is out of stock: ${requested} requested, ${available} available`)

export type OrderService = ReturnType<typeof createOrderService>
