// COD -> prepaid (issue #25, docs/orders.md "COD to prepaid"): a confirmed cash-on-delivery order
// not yet handed to a carrier may be paid online instead. Read top to bottom:
//
//   conversionQuote     whether the order may convert (reasons in plain words when not) and what
//                       it would cost: amountToPay = amountPayable - codFee - prepaidDiscount, the
//                       discount being the partner's prepaidDiscountPercent of the items' paid
//                       value (capped by prepaidDiscountCap, and so that at least ₹1 is left to pay)
//   convertPaidCodOrder the provider reported the conversion payment captured (flows/payments,
//                       once per event, order row locked): when the order may still convert at
//                       exactly that amount, in the same transaction it becomes PREPAID and PAID,
//                       the COD fee goes (never charged), the discount is recorded on the order and
//                       spread over its lines, an invoiced COD fee is credited, and the events are
//                       written. Otherwise (shipped, cancelled, already converted, or changed since
//                       the session opened) it answers null and the caller refunds the payment.
//
// Until that success the order is an ordinary COD order: opening, abandoning or walking away from
// a conversion session changes nothing on it, and stock is never touched.
import type { Executor } from '../../db/client.ts'
import { allocate, formatPaise, maxPaise, minPaise, percentOf, sumPaise } from '../../lib/money.ts'
import { partnerPricingOf } from '../../modules/checkout/index.ts'
import { emit, type OrderItemRow, orderItemsOf, type OrderRow, type PaymentRow, updateOrder, updateOrderItem } from '../../modules/orders/index.ts'
import { parcelsOfOrder } from '../../modules/shipping/index.ts'
import { issueCreditNotes } from '../../modules/tax/index.ts'

/** The least a conversion leaves to pay (paise): the discount stops there (Razorpay's minimum payment is ₹1). */
const LEAST_TO_PAY = 100n

export interface ConversionQuote {
  eligible: boolean
  /** Why not, in words a customer understands; empty when eligible. */
  reasons: string[]
  /** What the prepaid payment is for; 0 when not eligible. */
  amountToPay: bigint
  codFeeWaived: bigint
  prepaidDiscount: bigint
  /** codFeeWaived + prepaidDiscount. */
  saving: bigint
  /** The discount's share of each line (in the order of `items`). */
  lineShares: bigint[]
}

/** Why the order cannot convert, or null when it may (the first reason is the 409's message). */
async function refusal(ex: Executor, order: OrderRow): Promise<string | null> {
  const name = `Order ${order.orderNumber}`
  if (order.status === 'PENDING_PAYMENT') return `${name} is waiting for its online payment, not cash on delivery: pay it with POST /orders/${order.id}/payments`
  if (order.status === 'CANCELLED') return `${name} is cancelled`
  if (order.paymentMode !== 'COD') return `${name} is already prepaid`
  if (order.status !== 'CONFIRMED' && order.status !== 'PACKED') return `${name} has been shipped (${order.status}): its cash is collected on delivery`
  const parcels = await parcelsOfOrder(ex, order.id)
  if (parcels.some((s) => s.direction === 'FORWARD' && s.status !== 'CANCELLED')) return `${name} has been handed to the carrier: its cash is collected on delivery`
  if (order.paymentStatus !== 'COD_PENDING' || order.amountPayable - order.codFee <= 0n) return `${name} has nothing left to pay on delivery`
  return null
}

/**
 * The quote of converting `order`, read through `ex` (inside a transaction: with the order locked).
 * The discount's base is the paid value of the lines with no unit cancelled: a line whose first
 * units were cancelled keeps the shares those units were settled with (flows/order-moves/partial-cancel.ts).
 */
export async function conversionQuote(ex: Executor, order: OrderRow, items?: OrderItemRow[]): Promise<ConversionQuote> {
  const reason = await refusal(ex, order)
  if (reason) return { eligible: false, reasons: [reason], amountToPay: 0n, codFeeWaived: 0n, prepaidDiscount: 0n, saving: 0n, lineShares: [] }
  const [lines, settings] = await Promise.all([items ?? orderItemsOf(ex, order.id), partnerPricingOf(ex, order.partnerId)])
  const cashLeft = order.amountPayable - order.codFee
  const weights = lines.map((l) => (l.cancelledQuantity === 0 ? l.paidAmount : 0n))
  const percent = settings?.prepaidDiscountPercent ?? 0
  const cap = settings?.prepaidDiscountCap ?? null
  let discount = percentOf(sumPaise(weights), percent)
  if (cap !== null) discount = minPaise(discount, cap)
  discount = maxPaise(0n, minPaise(discount, cashLeft - LEAST_TO_PAY))
  return {
    eligible: true,
    reasons: [],
    amountToPay: cashLeft - discount,
    codFeeWaived: order.codFee,
    prepaidDiscount: discount,
    saving: order.codFee + discount,
    lineShares: allocate(discount, weights),
  }
}

export const conversionQuoteView = (q: ConversionQuote) => ({
  eligible: q.eligible,
  reasons: q.reasons,
  amountToPay: formatPaise(q.amountToPay),
  codFeeWaived: formatPaise(q.codFeeWaived),
  prepaidDiscount: formatPaise(q.prepaidDiscount),
  saving: formatPaise(q.saving),
})

/**
 * The captured conversion payment turns the order prepaid, in the caller's transaction with the
 * order row locked. Null (nothing written) when the order may no longer convert, or no longer at
 * the payment's amount (units cancelled, or the discount changed, while the checkout was open):
 * the caller refunds the payment and the order stays as it was.
 */
export async function convertPaidCodOrder(tx: Executor, order: OrderRow, payment: PaymentRow, at: Date): Promise<OrderRow | null> {
  const items = await orderItemsOf(tx, order.id)
  const quote = await conversionQuote(tx, order, items)
  if (!quote.eligible || quote.amountToPay !== payment.amount) return null
  for (const [i, item] of items.entries()) {
    const share = quote.lineShares[i]!
    if (share > 0n) await updateOrderItem(tx, item.id, { prepaidDiscount: item.prepaidDiscount + share, paidAmount: item.paidAmount - share })
  }
  // The order's GST block loses the COD fee's charge (its tax goes with it): totals stay the sums
  // of the lines' and charges' figures. The invoice keeps it; a credit note takes it back below.
  const feeCharge = order.taxCharges?.find((c) => c.kind === 'COD_FEE')
  const taxChanges =
    feeCharge && order.taxableValue !== null
      ? {
          taxCharges: order.taxCharges!.filter((c) => c !== feeCharge),
          taxableValue: order.taxableValue - BigInt(feeCharge.taxableValue),
          cgst: (order.cgst ?? 0n) - BigInt(feeCharge.cgst),
          sgst: (order.sgst ?? 0n) - BigInt(feeCharge.sgst),
          igst: (order.igst ?? 0n) - BigInt(feeCharge.igst),
        }
      : {}
  const converted = await updateOrder(tx, order.id, {
    paymentMode: 'PREPAID',
    paymentStatus: 'PAID',
    codFee: 0n,
    prepaidDiscount: order.prepaidDiscount + quote.prepaidDiscount,
    totalAmount: order.totalAmount - quote.saving,
    amountPayable: payment.amount,
    ...taxChanges,
    updatedAt: at,
  })
  if (feeCharge && order.taxableValue !== null) {
    await issueCreditNotes(tx, order, { reason: 'Cash on delivery fee waived: the order was paid online', charges: ['COD_FEE'] }, at)
  }
  await emit(tx, converted, 'payment.succeeded', { paymentId: payment.id, amount: formatPaise(payment.amount) }, at)
  await emit(
    tx,
    converted,
    'order.converted_to_prepaid',
    {
      paymentId: payment.id,
      amountPaid: formatPaise(payment.amount),
      codFeeWaived: formatPaise(quote.codFeeWaived),
      prepaidDiscount: formatPaise(quote.prepaidDiscount),
      saving: formatPaise(quote.saving),
      paymentMode: 'PREPAID',
      paymentStatus: 'PAID',
    },
    at,
  )
  return converted
}
