// A customer's return request, as named steps (ReturnService.create runs them with the order row
// locked, so two returns of one order can never share the same units):
//
//   checkReturnable   the order is delivered, paid, and inside the partner's return window
//   returnItemsFor    each line's units checked against what can still be returned, priced at
//                     what the customer paid for them, with the Reward Points spent on them
//   insertReturn      the request, its items, its first history row and return.created
//
// The requested amount is what the customer paid for the units (the order lines' paidAmount, which
// already has the coupon and Reward Points spread over them), split over the units so that all the
// units of a line add up to the line exactly (lib/money.ts shareOfSlice); units cancelled before
// shipping come first, then the units returned before.

import type { Executor } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { paisePerPointOf, pointsForSlice, shareOfSlice, sumPaise } from '../../lib/money.ts'
import { partnerPricingOf } from '../checkout/index.ts'
import { recordEvent } from '../events/index.ts'
import { countReturnedUnits, type OrderItemRow, type OrderRow, orderItemsOf, type PayoutAccountRow } from '../orders/index.ts'
import { type PayoutAccountInput, payoutToOf } from '../payments/index.ts'
import { type ReturnItemRow, returnRepo, type ReturnRow } from './repo.ts'
import type { Resolution } from './schema.sql.ts'
import { returnView } from './views.ts'

export interface CustomerRef {
  userId: string
  partnerId: string
}

export interface CreateReturnInput {
  orderId: string
  reason: string
  detail: string
  requestedResolution: Resolution
  items: { orderItemId: string; quantity: number; reason: string }[]
  imageUrls?: string[]
  refundTo?: RefundToInput
}

/** The body's refundTo, formats already checked by the route's schema. */
export interface RefundToInput {
  method: 'UPI' | 'BANK'
  vpa?: string
  accountHolderName?: string
  ifsc?: string
  accountNumber?: string
}

type NewReturnItem = ReturnItemRow & { returnRequestId: string }

/** 400 unless each order item is listed once. */
export function checkDistinctItems(input: Pick<CreateReturnInput, 'items'>) {
  const ids = input.items.map((i) => i.orderItemId)
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i)
  if (repeated) throw new AppError('BAD_REQUEST', `items must not list order item ${repeated} twice`)
}

/**
 * A refund to a UPI ID or bank account: only of cash collected on delivery (an order paid online is
 * refunded to its payment), only for ORIGINAL_PAYMENT_REFUND, with exactly the fields of its method.
 */
export function refundToInput(order: OrderRow, resolution: Resolution, refundTo: RefundToInput): PayoutAccountInput {
  if (resolution !== 'ORIGINAL_PAYMENT_REFUND') throw new AppError('BAD_REQUEST', 'refundTo is only taken with requestedResolution ORIGINAL_PAYMENT_REFUND')
  if (order.paymentMode !== 'COD') {
    throw new AppError('BAD_REQUEST', `refundTo is only taken for an order paid in cash on delivery; order ${order.orderNumber} is refunded to its online payment`)
  }
  const needed = refundTo.method === 'UPI' ? (['vpa'] as const) : (['accountHolderName', 'ifsc', 'accountNumber'] as const)
  const other = refundTo.method === 'UPI' ? (['accountHolderName', 'ifsc', 'accountNumber'] as const) : (['vpa'] as const)
  const problems = [
    ...needed.filter((f) => refundTo[f] === undefined).map((f) => `refundTo.${f} should not be empty`),
    ...other.filter((f) => refundTo[f] !== undefined).map((f) => `refundTo.${f} is not taken with method ${refundTo.method}`),
  ]
  if (problems.length > 0) throw new AppError('BAD_REQUEST', problems[0]!, problems)
  return refundTo.method === 'UPI'
    ? { method: 'UPI', vpa: refundTo.vpa! }
    : { method: 'BANK', accountHolderName: refundTo.accountHolderName!, ifsc: refundTo.ifsc!, accountNumber: refundTo.accountNumber! }
}

/** 400 unless the (locked) order is delivered, paid, and its return window still open at `now`. */
export async function checkReturnable(tx: Executor, order: OrderRow, now: Date) {
  if (order.status !== 'DELIVERED') throw new AppError('BAD_REQUEST', `Order ${order.orderNumber} has not been delivered`)
  if (!['PAID', 'PARTIALLY_REFUNDED'].includes(order.paymentStatus)) throw new AppError('BAD_REQUEST', `Order ${order.orderNumber} has not been paid`)
  const settings = await partnerPricingOf(tx, order.partnerId)
  const windowDays = settings?.returnWindowDays ?? 7
  const closes = new Date(order.deliveredAt!.getTime() + windowDays * 86_400_000)
  if (now > closes) throw new AppError('BAD_REQUEST', `The return window of order ${order.orderNumber} closed on ${closes.toISOString()}`)
}

/**
 * The return's items: each checked against the units of its line not yet returned, its amount the
 * share of the line's paidAmount those units carry (the units returned before come first). Points
 * come back whole, counted over the value of all the units returned so far (every line, earlier
 * returns included): rounded per line or per return, returning every unit would give back fewer
 * points than were spent.
 */
export async function returnItemsFor(tx: Executor, order: OrderRow, returnId: string, wanted: CreateReturnInput['items'], now: Date): Promise<NewReturnItem[]> {
  const orderItems = new Map((await orderItemsOf(tx, order.id)).map((i) => [i.id, i]))
  const returned = await returnRepo.returnedQuantities(tx, order.id)
  const pointValue = paisePerPointOf(order.rewardPointsValue, order.rewardPointsUsed)
  // Units cancelled before shipping (flows/order-moves/partial-cancel.ts) are the first slices of their line:
  // they were settled then, and are neither returnable nor counted again here.
  const settledBefore = (i: OrderItemRow) => i.cancelledQuantity + (returned.get(i.id) ?? 0)
  let pointsValueBack = sumPaise([...orderItems.values()].map((i) => shareOfSlice(i.rewardPointsDiscount, i.quantity, 0, settledBefore(i))))
  const items: NewReturnItem[] = []
  for (const line of wanted) {
    const item = orderItems.get(line.orderItemId)
    if (!item) throw new AppError('BAD_REQUEST', `Order item ${line.orderItemId} is not part of order ${order.orderNumber}`)
    const already = settledBefore(item)
    const remaining = item.quantity - already
    if (line.quantity > remaining) {
      const cancelled = item.cancelledQuantity > 0 ? ` (${item.cancelledQuantity} of its units were cancelled)` : ''
      throw new AppError('BAD_REQUEST', `Order item ${item.id}: quantity ${line.quantity} is more than the ${remaining} that can still be returned${cancelled}`)
    }
    const pointsValue = shareOfSlice(item.rewardPointsDiscount, item.quantity, already, line.quantity)
    items.push({
      id: newId('rti', now.getTime()),
      returnRequestId: returnId,
      orderItemId: item.id,
      quantity: line.quantity,
      reason: line.reason.trim(),
      requestedAmount: shareOfSlice(item.paidAmount, item.quantity, already, line.quantity),
      rewardPoints: pointsForSlice(pointsValueBack, pointsValue, pointValue),
    })
    pointsValueBack += pointsValue
  }
  return items
}

/** The request (REQUESTED, its amount the sum of its items'), its items, its first history row and return.created. */
export async function insertReturn(
  tx: Executor,
  customer: CustomerRef,
  order: OrderRow,
  returnId: string,
  input: CreateReturnInput,
  imageUrls: string[],
  items: NewReturnItem[],
  payoutAccount: PayoutAccountRow | null,
  now: Date,
): Promise<ReturnRow> {
  const created = await returnRepo.insert(
    tx,
    {
      id: returnId,
      partnerId: customer.partnerId,
      userId: customer.userId,
      orderId: order.id,
      status: 'REQUESTED',
      reason: input.reason.trim(),
      detail: input.detail.trim(),
      requestedResolution: input.requestedResolution,
      requestedAmount: sumPaise(items.map((i) => i.requestedAmount)),
      imageUrls,
      payoutAccountId: payoutAccount?.id ?? null,
      refundTo: payoutAccount ? payoutToOf(payoutAccount) : null,
      createdAt: now,
      updatedAt: now,
    },
    items,
  )
  await countReturnedUnits(tx, items.map((i) => ({ orderItemId: i.orderItemId, quantity: i.quantity })))
  await returnRepo.addHistory(tx, { returnRequestId: returnId, fromStatus: null, toStatus: 'REQUESTED', actor: 'CUSTOMER', note: null, createdAt: now })
  await recordEvent(tx, {
    partnerId: customer.partnerId,
    type: 'return.created',
    subjectId: returnId,
    data: { returnId, orderId: order.id, status: 'REQUESTED', requestedResolution: input.requestedResolution, return: await returnView(tx, created) },
    at: now,
  })
  return created
}
