// Partial cancellation (issue #24): before shipping, some units of some lines are cancelled and
// settled for exactly those units, by the allocation rules of returns (return-settlement/settlement.ts
// and returns/request.ts), in the caller's transaction with the order row locked. Read top to bottom:
//
//   cancelOrderItems      the route-facing step: the order is CONFIRMED or PACKED, every line is
//                         the order's own, and no more units than remain (ordered - cancelled -
//                         in live forward shipments); cancelling all that remains is the whole
//                         order's cancellation (reverse-sale.ts cancelOrder) instead
//   settleCancelledUnits  the settlement, also called by parcel-moves.ts for a parcel returned
//                         to origin (allowShipped), and for a lost one refunded (no restock):
//     cancelUnits           order_items.cancelled_quantity grows (a conditional update)
//     releaseStock          the stock of exactly those units
//     priceUnits            each line's units carry their share of its paidAmount and of its
//                           Reward Points discount, the units cancelled before coming first (the
//                           same cumulative slices as returns: all the units of a line add up to it)
//     splitOverTenders      the card's share rounds up, capped at what is left of its payment; the
//                           rest to Wallet Cash (lib/money.ts splitRefund). A COD order not yet
//                           collected: the cash share lowers amountPayable, the Wallet Cash share
//                           is refunded
//     refundToWallet        a SUCCEEDED WALLET_CREDIT refund, its ledger credit, refund.succeeded
//     givePointsBack        the points spent on those units (ledger ORDER_ITEMS_CANCELLED)
//     creditCancelledUnits  a credit note for exactly those units when the order was invoiced
//     refreshRefundStatus   the order's paymentStatus
//     order.items_cancelled the event, with the items, the amounts per tender and the reason
//
// The coupon stays used (its minimum order value is not checked again), and shipping and the COD
// fee are not refunded: they go back only with the whole order (docs/orders.md).
import type { Executor } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { formatPaise as rupees, minPaise, paisePerPointOf, pointsFor, pointsForSlice, shareOfSlice, splitRefund, sumPaise } from '../../lib/money.ts'
import { releaseStock } from '../../modules/catalog/index.ts'
import { giveUnitsBack } from '../../modules/inventory/index.ts'
import { recordEvent } from '../../modules/events/index.ts'
import { creditLedger } from '../../modules/ledgers/index.ts'
import {
  type Actor,
  cancelOrderUnits,
  capturedWithBalance,
  emit,
  findOrderById,
  orderItemsOf,
  type OrderItemRow,
  type OrderRow,
  type OrderStatus,
  type PaymentRow,
  type RefundRow,
  refreshRefundStatus,
  updateOrder,
} from '../../modules/orders/index.ts'
import { insertRefund, refundView } from '../../modules/payments/index.ts'
import { shippedUnits, shippedUnitsByLocation } from '../../modules/shipping/index.ts'
import { issueCreditNotes } from '../../modules/tax/index.ts'
import { cancelledPointsValue, ITEMS_CANCELLED_REFUND } from './cancelled-units.ts'
import { cancelOrder, checkNoLiveParcel, queueProviderRefund } from './reverse-sale.ts'

/** Units of one line to cancel. */
export interface CancelLine {
  orderItemId: string
  quantity: number
}

export interface CancelItemsRequest {
  items: CancelLine[]
  reason: string
}

/** Ledger reason of the Wallet Cash and Reward Points given back for cancelled units (reference: the order id). */
export const ITEMS_CANCELLED = 'ORDER_ITEMS_CANCELLED'

/** Statuses in which some units may be cancelled: confirmed, not yet shipped. */
const PARTIALLY_CANCELLABLE: OrderStatus[] = ['CONFIRMED', 'PACKED']

/** 400 unless each order item is listed once. */
export function checkDistinctLines(lines: CancelLine[]) {
  const ids = lines.map((l) => l.orderItemId)
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i)
  if (repeated) throw new AppError('BAD_REQUEST', `items must not list order item ${repeated} twice`)
}

/**
 * POST /orders/{id}/cancel-items and its back-office twin, with the order row locked: checks the
 * request, then settles the units, or cancels the whole order when no unit would remain.
 * Returns the order and the provider refunds to send after commit.
 */
export async function cancelOrderItems(tx: Executor, order: OrderRow, request: CancelItemsRequest, actor: Actor, at: Date): Promise<{ order: OrderRow; refunds: RefundRow[] }> {
  checkDistinctLines(request.items)
  const items = await orderItemsOf(tx, order.id)
  await checkCancellable(tx, order, items, request.items)
  const wanted = new Map(request.items.map((l) => [l.orderItemId, l.quantity]))
  const remaining = items.reduce((n, i) => n + i.quantity - i.cancelledQuantity - (wanted.get(i.id) ?? 0), 0)
  if (remaining === 0) return cancelOrder(tx, order, { name: actor.name, reason: request.reason }, at)
  const refunds = await settle(tx, order, items, request.items, actor, request.reason, at, true)
  return { order: (await findOrderById(tx, order.id))!, refunds }
}

/**
 * Settles the cancellation of `lines` (each line of the order once, within what is left of it):
 * stock, money by tender, Reward Points, credit note, event. Unless `allowShipped`, the order must
 * be CONFIRMED or PACKED and the units not in a shipment. Returns the provider refunds to send
 * after commit (payments.sendRefunds).
 */
export async function settleCancelledUnits(
  tx: Executor,
  order: OrderRow,
  lines: CancelLine[],
  actor: { name: string; note?: string | null },
  reason: string,
  at: Date,
  options: { allowShipped?: boolean; restock?: boolean } = {},
): Promise<RefundRow[]> {
  checkDistinctLines(lines)
  const items = await orderItemsOf(tx, order.id)
  if (!options.allowShipped) await checkCancellable(tx, order, items, lines)
  return settle(tx, order, items, lines, actor, reason, at, options.restock ?? true)
}

/** 409 outside CONFIRMED and PACKED; 400 for a line of another order; 409 for more units than can still be cancelled. */
async function checkCancellable(tx: Executor, order: OrderRow, items: OrderItemRow[], lines: CancelLine[]) {
  if (order.status === 'PENDING_PAYMENT') {
    throw new AppError('CONFLICT', `Order ${order.orderNumber} is waiting for payment: cancel the whole order instead (POST /orders/${order.id}/cancel)`)
  }
  if (!PARTIALLY_CANCELLABLE.includes(order.status)) throw new AppError('CONFLICT', `Items of order ${order.orderNumber} cannot be cancelled once it is ${order.status}`)
  // The cash to collect is printed on the booked parcel's label and told to the carrier: it cannot change under it.
  if (order.paymentMode === 'COD' && order.paymentStatus === 'COD_PENDING') await checkNoLiveParcel(tx, order, 'changed')
  const byId = new Map(items.map((i) => [i.id, i]))
  const shipped = await shippedUnits(tx, order.id)
  for (const line of lines) {
    const item = byId.get(line.orderItemId)
    if (!item) throw new AppError('BAD_REQUEST', `Order item ${line.orderItemId} is not part of order ${order.orderNumber}`)
    const inShipments = shipped.get(item.id) ?? 0
    const left = item.quantity - item.cancelledQuantity - inShipments
    if (line.quantity > left) {
      throw new AppError(
        'CONFLICT',
        `Order item ${item.id}: ${line.quantity} units cannot be cancelled, only ${left} of its ${item.quantity} can (${item.cancelledQuantity} cancelled already, ${inShipments} in shipments)`,
      )
    }
  }
}

interface PricedLine {
  item: OrderItemRow
  quantity: number
  /** What the customer paid for these units. */
  amount: bigint
  /** The Reward Points spent on them. */
  points: bigint
}

async function settle(
  tx: Executor,
  order: OrderRow,
  items: OrderItemRow[],
  lines: CancelLine[],
  actor: { name: string; note?: string | null },
  reason: string,
  at: Date,
  restock: boolean,
): Promise<RefundRow[]> {
  const priced = priceUnits(order, items, lines)
  // Units not shipped go back to the locations still holding them, not to one a parcel left from.
  const shippedFrom = restock ? await shippedUnitsByLocation(tx, order.id) : new Map<string, Map<string, number>>()
  for (const line of [...priced].sort((a, b) => (a.item.productId < b.item.productId ? -1 : a.item.productId > b.item.productId ? 1 : 0))) {
    if (!(await cancelOrderUnits(tx, line.item.id, line.quantity))) {
      throw new AppError('CONFLICT', `Order item ${line.item.id}: ${line.quantity} units cannot be cancelled, more than are left of its ${line.item.quantity}`)
    }
    // Units lost or damaged on the way are gone: nothing comes back to stock.
    if (restock) {
      if ((await releaseStock(tx, line.item, line.quantity)) && line.item.catalogId) await giveUnitsBack(tx, { orderId: order.id, catalogId: line.item.catalogId }, line.item, line.quantity, 'RELEASE', at, shippedFrom.get(line.item.id))
    }
  }
  const amount = sumPaise(priced.map((l) => l.amount))
  const tenders = await splitOverTenders(tx, order, amount)
  const note = `${ITEMS_CANCELLED_REFUND}${reason}`
  const refunds: RefundRow[] = []
  if (tenders.payment && tenders.provider > 0n) refunds.push(await queueProviderRefund(tx, order, tenders.payment, note, at, tenders.provider))
  let current = await updateOrder(tx, order.id, { amountPayable: order.amountPayable - tenders.cashNotCollected, updatedAt: at })
  if (tenders.wallet > 0n) await refundToWallet(tx, order, tenders.wallet, note, at)
  const points = sumPaise(priced.map((l) => l.points))
  if (points > 0n) await creditLedger(tx, { userId: order.userId, partnerId: order.partnerId, kind: 'REWARD_POINTS', amount: points, reason: ITEMS_CANCELLED, reference: order.id, at })
  // A sale already invoiced is reversed for exactly these units (decision 0022); shipping stays invoiced.
  if (order.taxableValue !== null) await issueCreditNotes(tx, order, { reason: note, cancelled: { items: lines } }, at)
  current = await refreshRefundStatus(tx, current, at)
  await emit(
    tx,
    current,
    'order.items_cancelled',
    {
      items: priced.map((l) => ({ orderItemId: l.item.id, quantity: l.quantity, amount: rupees(l.amount), rewardPoints: Number(l.points) })),
      amount: rupees(amount),
      refunded: { originalPayment: rupees(tenders.provider), walletCash: rupees(tenders.wallet) },
      cashToCollectReducedBy: rupees(tenders.cashNotCollected),
      rewardPointsReturned: Number(points),
      reason,
      by: actor.name.split(':')[0],
    },
    at,
  )
  return refunds
}

/**
 * Each line's units priced as returns price them: the slice after the units cancelled before, of
 * the line's paidAmount and of its Reward Points discount (lib/money.ts shareOfSlice). Points are
 * counted over the value of every unit cancelled so far (all lines), so cancelling a unit at a
 * time gives back as many points as at once, never more than were spent.
 */
export function priceUnits(order: OrderRow, items: OrderItemRow[], lines: CancelLine[]): PricedLine[] {
  const byId = new Map(items.map((i) => [i.id, i]))
  const pointValue = paisePerPointOf(order.rewardPointsValue, order.rewardPointsUsed)
  let valueBefore = cancelledPointsValue(items)
  let pointsLeft = order.rewardPointsUsed - pointsFor(valueBefore, pointValue)
  return lines.map((line) => {
    const item = byId.get(line.orderItemId)
    if (!item) throw new AppError('BAD_REQUEST', `Order item ${line.orderItemId} is not part of order ${order.orderNumber}`)
    const value = shareOfSlice(item.rewardPointsDiscount, item.quantity, item.cancelledQuantity, line.quantity)
    const points = minPaise(pointsForSlice(valueBefore, value, pointValue), pointsLeft > 0n ? pointsLeft : 0n)
    valueBefore += value
    pointsLeft -= points
    return { item, quantity: line.quantity, amount: shareOfSlice(item.paidAmount, item.quantity, item.cancelledQuantity, line.quantity), points }
  })
}

interface Tenders {
  payment: PaymentRow | null
  /** Back to the provider payment (sent after commit). */
  provider: bigint
  /** To Wallet Cash, at once. */
  wallet: bigint
  /** COD not collected yet: taken off what the courier collects (amountPayable). */
  cashNotCollected: bigint
}

/**
 * The amount over the tenders that paid, as a return's refund is split (return-settlement/settlement.ts):
 * the provider's proportional share rounds up and is capped at what is left of its payment, Wallet
 * Cash takes the rest. A COD order not collected yet splits the same way between the cash to
 * collect (what it was at the start: total - points - Wallet Cash, capped at what is still to
 * collect) and Wallet Cash; the cash share is simply not collected.
 */
async function splitOverTenders(tx: Executor, order: OrderRow, amount: bigint): Promise<Tenders> {
  if (order.paymentMode === 'COD' && order.paymentStatus === 'COD_PENDING') {
    const cashAtStart = order.totalAmount - order.rewardPointsValue - order.walletCashUsed
    const split = splitRefund(amount, { providerPaid: cashAtStart, walletPaid: order.walletCashUsed, providerLeft: order.amountPayable })
    return { payment: null, provider: 0n, wallet: split.wallet, cashNotCollected: split.provider }
  }
  const captured = await capturedWithBalance(tx, order.id)
  if (!captured) return { payment: null, provider: 0n, wallet: amount, cashNotCollected: 0n }
  const split = splitRefund(amount, { providerPaid: captured.payment.amount, walletPaid: order.walletCashUsed, providerLeft: captured.left })
  return { payment: captured.payment, provider: split.provider, wallet: split.wallet, cashNotCollected: 0n }
}

/** A Wallet Cash refund: done at once (SUCCEEDED), credited to the ledger, with its refund.succeeded event (as a return's). */
async function refundToWallet(tx: Executor, order: OrderRow, amount: bigint, reason: string, at: Date) {
  const refund = await insertRefund(tx, {
    id: newId('ref', at.getTime()),
    orderId: order.id,
    paymentId: null,
    amount,
    method: 'WALLET_CREDIT',
    status: 'SUCCEEDED',
    reason,
    createdAt: at,
    updatedAt: at,
  })
  await creditLedger(tx, { userId: order.userId, partnerId: order.partnerId, kind: 'WALLET_CASH', amount, reason: ITEMS_CANCELLED, reference: order.id, at })
  await recordEvent(tx, { partnerId: order.partnerId, type: 'refund.succeeded', subjectId: order.id, data: { orderId: order.id, refundId: refund.id, amount: rupees(amount), method: 'WALLET_CREDIT', refund: refundView(refund) }, at })
}

