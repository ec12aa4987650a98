// What cancelling some of an order's units gave back, read by the partial cancellation that gives it
// and by the release of the whole order, which must not give it again.
import type { Executor } from '../../db/client.ts'
import { minPaise, paisePerPointOf, pointsFor, shareOfSlice, sumPaise } from '../../lib/money.ts'
import type { OrderItemRow, OrderRow } from '../../modules/orders/index.ts'
import { refundsOf } from '../../modules/payments/index.ts'

/** The reason of a refund of cancelled units starts with this. */
export const ITEMS_CANCELLED_REFUND = 'Items cancelled: '

/** The Reward Points value of the units cancelled so far, line by line. */
export const cancelledPointsValue = (items: OrderItemRow[]) => sumPaise(items.map((i) => shareOfSlice(i.rewardPointsDiscount, i.quantity, 0, i.cancelledQuantity)))

/**
 * What cancellations of some units already gave back, which the release of the whole order must
 * not give again: Wallet Cash refunded (its WALLET_CREDIT refunds of cancelled units) and the Reward
 * Points of the units cancelled (the same cumulative count as priceUnits).
 */
export async function givenBackForCancelledUnits(tx: Executor, order: OrderRow, items: OrderItemRow[]): Promise<{ walletCash: bigint; rewardPoints: bigint }> {
  const refunds = await refundsOf(tx, order.id)
  const walletCash = sumPaise(
    refunds.filter((r) => r.method === 'WALLET_CREDIT' && r.returnRequestId === null && r.reason.startsWith(ITEMS_CANCELLED_REFUND) && r.status !== 'FAILED').map((r) => r.amount),
  )
  const points = pointsFor(cancelledPointsValue(items), paisePerPointOf(order.rewardPointsValue, order.rewardPointsUsed))
  return { walletCash, rewardPoints: minPaise(points, order.rewardPointsUsed) }
}
