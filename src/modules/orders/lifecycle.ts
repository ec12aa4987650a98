// The order machine and the moves every caller shares (customer, back office, sweeper, provider
// callbacks). Each function runs inside the caller's transaction with the order row locked, and
// writes the order, its history and its event together. What a cancellation, a return to origin or
// a delivery gives back or credits across modules is the order-moves flow's (src/flows/order-moves/).
//
//   PENDING_PAYMENT -> CONFIRMED -> PACKED -> SHIPPED -> OUT_FOR_DELIVERY -> DELIVERED
//   CANCELLED from PENDING_PAYMENT, CONFIRMED or PACKED
//   a failed attempt: SHIPPED | OUT_FOR_DELIVERY -> DELIVERY_FAILED -> OUT_FOR_DELIVERY (retry) | DELIVERED
//   returned to origin: SHIPPED | OUT_FOR_DELIVERY | DELIVERY_FAILED -> RTO (stock back, refund; decision 0024)
import { randomBytes } from 'node:crypto'
import type { Executor } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { formatPaise, lineTotal, shareOfSlice, sumPaise } from '../../lib/money.ts'
import { currentStock, reserveStock } from '../catalog/index.ts'
import { takeUnitsForOrder } from '../inventory/index.ts'
import { type EventType, type NewEvent, recordEvent } from '../events/index.ts'
import { issueInvoices } from '../tax/index.ts'
import { type OrderItemRow, type OrderRow, orderRepo, type PaymentRow } from './repo.ts'
import type { OrderStatus } from './schema.sql.ts'
import { orderView } from './views.ts'
import { shipmentsOfOrder } from '../shipping/index.ts'
import { currentPayment, paymentsOf, refundsOf } from '../payments/index.ts'

export const NEXT_STATUSES: Record<OrderStatus, OrderStatus[]> = {
  PENDING_PAYMENT: ['CONFIRMED', 'CANCELLED'],
  CONFIRMED: ['PACKED', 'CANCELLED'],
  PACKED: ['SHIPPED', 'CANCELLED'],
  SHIPPED: ['OUT_FOR_DELIVERY', 'DELIVERY_FAILED', 'RTO'],
  OUT_FOR_DELIVERY: ['DELIVERED', 'DELIVERY_FAILED', 'RTO'],
  DELIVERY_FAILED: ['OUT_FOR_DELIVERY', 'DELIVERED', 'RTO'],
  DELIVERED: [],
  RTO: [],
  CANCELLED: [],
}

export const CANCELLABLE: OrderStatus[] = ['PENDING_PAYMENT', 'CONFIRMED', 'PACKED']

export interface Actor {
  /** CUSTOMER, ADMIN:<id>, SYSTEM or PROVIDER:<name>. */
  name: string
  note?: string | null
}

/** An order's event: its id and number always in the data. */
export function orderEvent(order: Pick<OrderRow, 'id' | 'partnerId' | 'orderNumber'>, type: EventType, data: Record<string, unknown>, at: Date): NewEvent {
  return { partnerId: order.partnerId, type, subjectId: order.id, data: { orderId: order.id, orderNumber: order.orderNumber, ...data }, at }
}

/** The order as GET /orders/{id} answers it, read through `ex` (inside a transaction: as it is so far). */
export async function answeredOrder(ex: Executor, order: OrderRow) {
  const [items, history, paymentRows, refunds, shipments] = await Promise.all([
    orderRepo.items(ex, order.id),
    orderRepo.history(ex, order.id),
    paymentsOf(ex, order.id),
    refundsOf(ex, order.id),
    shipmentsOfOrder(ex, order.id),
  ])
  return orderView({ order, items, history, payment: currentPayment(paymentRows), refunds, shipments })
}

/** An order's event, carrying the order as the API answers it at that point of the transaction (issue #21). */
export async function emit(tx: Executor, order: OrderRow, type: EventType, data: Record<string, unknown>, at: Date) {
  const current = (await orderRepo.findOrder(tx, order.id)) ?? order
  await recordEvent(tx, orderEvent(order, type, { ...data, order: await answeredOrder(tx, current) }, at))
}

/** Moves the order one step along the machine, with history and event. 409 for a move it does not allow. */
export async function transition(tx: Executor, order: OrderRow, to: OrderStatus, actor: Actor, at: Date, changes: Partial<OrderRow> = {}) {
  if (!NEXT_STATUSES[order.status].includes(to)) {
    throw new AppError('CONFLICT', `Order ${order.orderNumber} cannot move from ${order.status} to ${to}`)
  }
  return move(tx, order, to, actor, at, changes)
}

/** Statuses an order may be in when its last units were lost on the way and refunded. */
const ON_THE_WAY: OrderStatus[] = ['PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERY_FAILED']

/**
 * A shipped order none of whose units will arrive: every unit left was in parcels lost or damaged
 * on the way, refunded by the back office (decision 0030). It ends CANCELLED, a move the machine
 * offers nobody by hand; the caller has reversed the sale.
 */
export async function cancelLostOrder(tx: Executor, order: OrderRow, actor: Actor, reason: string, at: Date) {
  if (!ON_THE_WAY.includes(order.status)) throw new AppError('CONFLICT', `Order ${order.orderNumber} cannot be cancelled once it is ${order.status}`)
  return move(tx, order, 'CANCELLED', { name: actor.name, note: actor.note ?? reason }, at, { cancelReason: reason })
}

async function move(tx: Executor, order: OrderRow, to: OrderStatus, actor: Actor, at: Date, changes: Partial<OrderRow>) {
  const updated = await orderRepo.updateOrder(tx, order.id, { ...changes, status: to, updatedAt: at })
  await orderRepo.addHistory(tx, { orderId: order.id, fromStatus: order.status, toStatus: to, actor: actor.name, note: actor.note ?? null, createdAt: at })
  await emit(tx, updated, 'order.status_changed', { from: order.status, status: to, paymentStatus: updated.paymentStatus }, at)
  return updated
}

/**
 * The captured payment a refund goes to: the one with something left after its refunds (a second
 * capture was refunded in full when it arrived), with what is left of it; null when none has.
 */
export async function capturedWithBalance(tx: Executor, orderId: string): Promise<{ payment: PaymentRow; left: bigint } | null> {
  const [paid, refunds] = await Promise.all([paymentsOf(tx, orderId), refundsOf(tx, orderId)])
  for (const payment of paid.filter((p) => p.status === 'SUCCEEDED' && p.providerPaymentId)) {
    const left = payment.amount - sumPaise(refunds.filter((r) => r.paymentId === payment.id && r.status !== 'FAILED').map((r) => r.amount))
    if (left > 0n) return { payment, left }
  }
  return null
}

/** The first successful payment of a PENDING_PAYMENT order confirms it. */
export async function confirmPaidOrder(tx: Executor, order: OrderRow, payment: PaymentRow, provider: string, at: Date) {
  const confirmed = await transition(tx, order, 'CONFIRMED', { name: `PROVIDER:${provider}`, note: `Payment ${payment.id} succeeded` }, at, { paymentStatus: 'PAID' })
  await emit(tx, confirmed, 'payment.succeeded', { paymentId: payment.id, amount: formatPaise(payment.amount) }, at)
  await invoiceOrder(tx, confirmed, at)
  return confirmed
}

/** The tax invoices of a confirmed order whose sale was taxed (decision 0022); nothing for one that was not. */
export async function invoiceOrder(tx: Executor, order: OrderRow, at: Date, items?: OrderItemRow[]) {
  if (order.taxableValue === null) return
  await issueInvoices(tx, { ...order, items: items ?? (await orderRepo.items(tx, order.id)) }, at)
}

/**
 * What the order's units that were not cancelled cost the customer after coupon and points: the base
 * of the Reward Points earned on delivery. Units cancelled before shipping, or whose parcel came
 * back, earn nothing (their share is the first units' slice, as partial cancellation prices it).
 */
export const paidForUncancelledUnits = (items: OrderItemRow[]) => sumPaise(items.map((i) => i.paidAmount - shareOfSlice(i.paidAmount, i.quantity, 0, i.cancelledQuantity)))

/** Whose order: the customer and the partner they came through. */
export interface CustomerRef {
  userId: string
  partnerId: string
}

export const isOwnOrder = (order: OrderRow | null, customer: CustomerRef): order is OrderRow =>
  order !== null && order.userId === customer.userId && order.partnerId === customer.partnerId

/**
 * After a refund: REFUNDED when refunds cover what was paid, PARTIALLY_REFUNDED otherwise. A
 * cancelled order's Wallet Cash went back with its reservation, so only provider payments count there
 * (and Wallet Cash refunded for units cancelled before). A COD order not collected yet stays
 * COD_PENDING: the cash is still to collect.
 */
export async function refreshRefundStatus(tx: Executor, order: OrderRow, at: Date) {
  if (order.paymentStatus === 'COD_PENDING') return order
  const [paid, refunds] = await Promise.all([paymentsOf(tx, order.id), refundsOf(tx, order.id)])
  const providerPaid = sumPaise(paid.filter((p) => p.status === 'SUCCEEDED').map((p) => p.amount))
  const refunded = sumPaise(refunds.filter((r) => r.status === 'SUCCEEDED').map((r) => r.amount))
  if (refunded === 0n) return order
  const codCollected = order.paymentMode === 'COD' ? order.amountPayable : 0n
  const walletRefunded = sumPaise(refunds.filter((r) => r.method === 'WALLET_CREDIT' && r.status !== 'FAILED').map((r) => r.amount))
  // A cancelled or returned-to-origin order's Wallet Cash went back with its reservation (a ledger credit, not a refund).
  const total = order.status === 'CANCELLED' || order.status === 'RTO' ? providerPaid + walletRefunded : sumPaise([providerPaid, order.walletCashUsed, codCollected])
  return orderRepo.updateOrder(tx, order.id, { paymentStatus: refunded >= total ? 'REFUNDED' : 'PARTIALLY_REFUNDED', updatedAt: at })
}

/** `CM-7K3P-9QX2`: short enough to read over the phone, no 0/O or 1/I confusion. */
export function newOrderNumber(): string {
  const alphabet = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ'
  const bytes = randomBytes(8)
  const chars = Array.from(bytes, (b) => alphabet[b % 32]).join('')
  return `CM-${chars.slice(0, 4)}-${chars.slice(4)}`
}

/**
 * A zero-value order sending the same products again (an approved REPLACEMENT return). It reserves
 * stock like any order and starts CONFIRMED and PAID.
 */
export async function createReplacementOrder(tx: Executor, original: OrderRow, lines: { item: OrderItemRow; quantity: number }[], at: Date) {
  for (const { item, quantity } of [...lines].sort((a, b) => (a.item.productId < b.item.productId ? -1 : 1))) {
    if ((await reserveStock(tx, item, quantity)) === null) {
      throw new AppError('CONFLICT', `Not enough stock of product ${item.productId} for the replacement: ${quantity} needed, ${await currentStock(tx, item)} available`)
    }
  }
  const id = newId('ord', at.getTime())
  let order: OrderRow | null = null
  while (!order) {
    order = await orderRepo.insertOrder(tx, {
      ...original,
      id,
      orderNumber: newOrderNumber(),
      status: 'CONFIRMED',
      paymentStatus: 'PAID',
      paymentMode: 'PREPAID',
      paymentReturnUrl: null,
      couponId: null,
      couponCode: null,
      itemsTotal: 0n,
      mrpTotal: sumPaise(lines.map((l) => lineTotal(l.item.unitMrp, l.quantity))),
      couponDiscount: 0n,
      prepaidDiscount: 0n,
      shippingCharge: 0n,
      codFee: 0n,
      totalAmount: 0n,
      rewardPointsUsed: 0n,
      rewardPointsValue: 0n,
      walletCashUsed: 0n,
      amountPayable: 0n,
      rewardPointsEarned: 0n,
      reservationExpiresAt: null,
      releasedAt: null,
      cancelReason: null,
      deliveredAt: null,
      // A replacement is no sale: nothing is taxed on it (the original order's invoice stands).
      placeOfSupplyStateCode: null,
      placeOfSupplyState: null,
      taxIntraState: null,
      taxableValue: null,
      cgst: null,
      sgst: null,
      igst: null,
      taxCharges: null,
      createdAt: at,
      updatedAt: at,
    })
  }
  await orderRepo.insertItems(
    tx,
    lines.map(({ item, quantity }, position) => ({
      ...item,
      id: newId('itm', at.getTime()),
      orderId: id,
      quantity,
      // The replacement's own units: none cancelled or in returns yet, whatever the original's were.
      cancelledQuantity: 0,
      returnedQuantity: 0,
      unitPrice: 0n,
      lineTotal: 0n,
      couponDiscount: 0n,
      rewardPointsDiscount: 0n,
      prepaidDiscount: 0n,
      paidAmount: 0n,
      position,
      hsnCode: null,
      gstRateBps: null,
      taxableValue: null,
      cgst: null,
      sgst: null,
      igst: null,
    })),
  )
  // Its units from the stock locations, nearest the delivery first (a catalog without locations: nothing).
  for (const catalogId of new Set(lines.flatMap((l) => (l.item.catalogId ? [l.item.catalogId] : [])))) {
    const units = lines.filter((l) => l.item.catalogId === catalogId).map((l) => ({ productId: l.item.productId, variantId: l.item.variantId, quantity: l.quantity }))
    await takeUnitsForOrder(tx, { orderId: id, catalogId, delivery: { pincode: original.shippingAddress.pincode, state: original.shippingAddress.state } }, units, at)
  }
  await orderRepo.addHistory(tx, { orderId: id, fromStatus: null, toStatus: 'CONFIRMED', actor: 'SYSTEM', note: `Replacement for order ${original.orderNumber}`, createdAt: at })
  await emit(tx, order, 'order.created', { status: 'CONFIRMED', paymentMode: 'PREPAID', totalAmount: formatPaise(0n), amountPayable: formatPaise(0n), replacementFor: original.id }, at)
  return order
}
