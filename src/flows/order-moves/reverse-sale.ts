// Reversing a sale, whole (decision 0035 step 3): a cancellation before shipment, and the return to
// origin or loss of an order's every parcel (parcel-moves.ts). Each function runs in the caller's
// transaction with the order row locked, and reads top to bottom:
//
//   cancelOrder          409 unless CANCELLABLE, or while a parcel is booked; reverseSale; CANCELLED
//   reverseSale          what the order took is given back, what was paid is queued for refund:
//     releaseReservation   stock (catalog), the coupon's use (checkout), Wallet Cash and Reward
//                          Points (ledgers), once, less what cancelled units gave back before
//     expireActivePayments open provider sessions expire (payments)
//     queueProviderRefund  what is left of each captured payment, PENDING, sent after commit
//     issueCreditNotes     an invoiced sale's credit note (tax)
//
// Compensation: none inside; every step writes in the one transaction, so a failure rolls all of it
// back. The refunds come back to the caller, which sends them after commit (PaymentService.sendRefunds);
// one not sent is retried by the refund sweeper.
import type { Executor } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { sumPaise } from '../../lib/money.ts'
import { releaseStock } from '../../modules/catalog/index.ts'
import { giveUnitsBack } from '../../modules/inventory/index.ts'
import { releaseCoupon } from '../../modules/checkout/index.ts'
import { creditLedger } from '../../modules/ledgers/index.ts'
import { type Actor, CANCELLABLE, moveOrder, orderItemsOf, type OrderRow, type PaymentRow, type RefundRow, updateOrder } from '../../modules/orders/index.ts'
import { expireActivePayments, insertRefund, paymentsOf, refundsOf } from '../../modules/payments/index.ts'
import { parcelsOfOrder } from '../../modules/shipping/index.ts'
import { issueCreditNotes } from '../../modules/tax/index.ts'
import { givenBackForCancelledUnits } from './cancelled-units.ts'

/**
 * Cancels before shipment: the sale is reversed (reverseSale) and the order ends CANCELLED.
 * Returns the order and the provider refunds to send after commit.
 */
export async function cancelOrder(tx: Executor, order: OrderRow, actor: Actor & { reason: string }, at: Date): Promise<{ order: OrderRow; refunds: RefundRow[] }> {
  if (!CANCELLABLE.includes(order.status)) {
    throw new AppError('CONFLICT', `Order ${order.orderNumber} cannot be cancelled once it is ${order.status}`)
  }
  await checkNoLiveParcel(tx, order, 'cancelled')
  const { order: reversed, refunds } = await reverseSale(tx, order, `Order cancelled: ${actor.reason}`, at)
  const cancelled = await moveOrder(tx, reversed, 'CANCELLED', { name: actor.name, note: actor.reason }, at, { cancelReason: actor.reason })
  return { order: cancelled, refunds }
}

/** 409 while a parcel of the order is booked with a carrier: it would still travel (and collect cash). */
export async function checkNoLiveParcel(tx: Executor, order: OrderRow, what: string) {
  const live = (await parcelsOfOrder(tx, order.id)).find((s) => s.direction === 'FORWARD' && s.status !== 'CANCELLED')
  if (live) throw new AppError('CONFLICT', `Order ${order.orderNumber} cannot be ${what} while parcel ${live.awb} is booked (${live.status}): cancel the parcel first`)
}

/**
 * What a cancellation, or a parcel returned to origin, gives back: the reservation (stock, coupon,
 * Wallet Cash, Reward Points), open provider sessions expire, what is left of each captured payment
 * is queued for refund, and an invoiced sale gets its credit note. The caller moves the order.
 * `restock: false`: the goods were lost on the way, and no stock comes back.
 */
export async function reverseSale(tx: Executor, order: OrderRow, reason: string, at: Date, options: { restock: boolean } = { restock: true }) {
  const released = await releaseReservation(tx, order, at, options)
  await expireActivePayments(tx, order.id, at)
  const captured = (await paymentsOf(tx, order.id)).filter((p) => p.status === 'SUCCEEDED')
  // Only what is left of each capture: a second capture (a late success on an older session) was
  // refunded when it arrived, and refunding it again would exceed what was paid (the refund limit
  // trigger then refused the whole cancellation).
  const earlier = await refundsOf(tx, order.id)
  const refunds: RefundRow[] = []
  for (const payment of captured) {
    const refunded = sumPaise(earlier.filter((r) => r.paymentId === payment.id && r.status !== 'FAILED').map((r) => r.amount))
    if (refunded < payment.amount) refunds.push(await queueProviderRefund(tx, order, payment, reason, at, payment.amount - refunded))
  }
  // A sale already invoiced is reversed by a credit note (decision 0022).
  if (order.taxableValue !== null && order.status !== 'PENDING_PAYMENT') await issueCreditNotes(tx, order, { reason }, at)
  return { order: released, refunds }
}

/**
 * Gives back the stock, coupon use, Wallet Cash and Reward Points the order reserved, exactly once:
 * what units cancelled earlier already gave back (partial-cancel.ts) is not given again.
 */
export async function releaseReservation(tx: Executor, order: OrderRow, at: Date, options: { restock: boolean } = { restock: true }) {
  if (order.releasedAt) return order
  const items = await orderItemsOf(tx, order.id)
  if (options.restock) {
    for (const item of items) {
      if (item.quantity <= item.cancelledQuantity) continue
      // Back to the stock locations it came from too (a catalog without locations: nothing), when the unit still exists.
      if ((await releaseStock(tx, item, item.quantity - item.cancelledQuantity)) && item.catalogId) await giveUnitsBack(tx, { orderId: order.id, catalogId: item.catalogId }, item, item.quantity - item.cancelledQuantity, 'RELEASE', at)
    }
  }
  if (order.couponId) await releaseCoupon(tx, { couponId: order.couponId, orderId: order.id })
  const given = await givenBackForCancelledUnits(tx, order, items)
  const back = { userId: order.userId, partnerId: order.partnerId, reason: 'ORDER_CANCELLED', reference: order.id, at }
  if (order.walletCashUsed > given.walletCash) await creditLedger(tx, { ...back, kind: 'WALLET_CASH', amount: order.walletCashUsed - given.walletCash })
  if (order.rewardPointsUsed > given.rewardPoints) await creditLedger(tx, { ...back, kind: 'REWARD_POINTS', amount: order.rewardPointsUsed - given.rewardPoints })
  return updateOrder(tx, order.id, { releasedAt: at })
}

/** A provider refund of a captured payment (all of it unless told), sent after the transaction commits (PaymentService.sendRefunds). */
export async function queueProviderRefund(tx: Executor, order: OrderRow, payment: PaymentRow, reason: string, at: Date, amount: bigint = payment.amount) {
  return insertRefund(tx, {
    id: newId('ref', at.getTime()),
    orderId: order.id,
    paymentId: payment.id,
    amount,
    method: 'ORIGINAL_PAYMENT',
    status: 'PENDING',
    reason,
    createdAt: at,
    updatedAt: at,
  })
}
