// Rows -> API shapes. Money leaves the service as two-decimal rupee strings.
import { formatPaise as rupees } from '../../lib/money.ts'
import type { HistoryRow, OrderItemRow, OrderRow, PaymentRow, RefundRow } from './repo.ts'
import { paymentView, refundView } from '../payments/index.ts'
import type { ShipmentView } from '../shipping/index.ts'

export function orderSummaryView(o: OrderRow, itemCount: number) {
  return {
    id: o.id,
    orderNumber: o.orderNumber,
    partnerId: o.partnerId,
    status: o.status,
    paymentStatus: o.paymentStatus,
    paymentMode: o.paymentMode,
    totalAmount: rupees(o.totalAmount),
    amountPayable: rupees(o.amountPayable),
    itemCount,
    createdAt: o.createdAt.toISOString(),
  }
}

export interface OrderDetail {
  order: OrderRow
  items: OrderItemRow[]
  history: HistoryRow[]
  payment: PaymentRow | null
  refunds: RefundRow[]
  /** Units of each line already in returns that were not rejected (returns module); none yet: 0. */
  /** Parcels of the order (decision 0024); none yet: []. */
  shipments?: ShipmentView[]
}

export function orderView({ order: o, items, history, payment, refunds, shipments }: OrderDetail) {
  return {
    id: o.id,
    orderNumber: o.orderNumber,
    partnerId: o.partnerId,
    userId: o.userId,
    status: o.status,
    paymentStatus: o.paymentStatus,
    paymentMode: o.paymentMode,
    deliveryMethod: o.deliveryMethod,
    items: items.map((i) => ({
      id: i.id,
      productId: i.productId,
      variantId: i.variantId,
      variantTitle: i.variantTitle,
      options: i.variantOptions,
      name: i.name,
      sku: i.sku,
      imageUrl: i.imageUrl,
      quantity: i.quantity,
      unitPrice: rupees(i.unitPrice),
      mrp: rupees(i.unitMrp),
      lineTotal: rupees(i.lineTotal),
      couponDiscount: rupees(i.couponDiscount),
      rewardPointsDiscount: rupees(i.rewardPointsDiscount),
      prepaidDiscount: rupees(i.prepaidDiscount),
      paidAmount: rupees(i.paidAmount),
      cancelledQuantity: i.cancelledQuantity,
      returnableQuantity: i.quantity - i.cancelledQuantity - i.returnedQuantity,
      ...itemTaxView(i),
    })),
    shippingAddress: o.shippingAddress,
    alternatePhone: o.alternatePhone,
    couponCode: o.couponCode,
    itemsTotal: rupees(o.itemsTotal),
    mrpTotal: rupees(o.mrpTotal),
    couponDiscount: rupees(o.couponDiscount),
    prepaidDiscount: rupees(o.prepaidDiscount),
    shippingCharge: rupees(o.shippingCharge),
    codFee: rupees(o.codFee),
    totalAmount: rupees(o.totalAmount),
    rewardPointsUsed: Number(o.rewardPointsUsed),
    rewardPointsValue: rupees(o.rewardPointsValue),
    walletCashUsed: rupees(o.walletCashUsed),
    amountPayable: rupees(o.amountPayable),
    rewardPointsEarned: Number(o.rewardPointsEarned),
    reservationExpiresAt: o.status === 'PENDING_PAYMENT' ? (o.reservationExpiresAt?.toISOString() ?? null) : null,
    cancelReason: o.cancelReason,
    statusHistory: history.map((h) => ({ fromStatus: h.fromStatus, status: h.toStatus, note: h.note, actor: h.actor.split(':')[0]!, at: h.createdAt.toISOString() })),
    payment: payment ? paymentView(payment) : null,
    refunds: refunds.map(refundView),
    shipments: shipments ?? [],
    deliveredAt: o.deliveredAt?.toISOString() ?? null,
    tax: orderTaxView(o),
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  }
}

const taxMoney = (t: { taxableValue: bigint; cgst: bigint; sgst: bigint; igst: bigint }) => ({
  taxableValue: rupees(t.taxableValue),
  cgst: rupees(t.cgst),
  sgst: rupees(t.sgst),
  igst: rupees(t.igst),
  totalTax: rupees(t.cgst + t.sgst + t.igst),
})

/** A line's GST at the time of sale; every field null when the line was not taxed. */
function itemTaxView(i: OrderItemRow) {
  if (i.taxableValue === null || i.hsnCode === null || i.gstRateBps === null) {
    return { hsnCode: null, gstRateBps: null, taxableValue: null, cgst: null, sgst: null, igst: null, totalTax: null }
  }
  return { hsnCode: i.hsnCode, gstRateBps: i.gstRateBps, ...taxMoney({ taxableValue: i.taxableValue, cgst: i.cgst ?? 0n, sgst: i.sgst ?? 0n, igst: i.igst ?? 0n }) }
}

/** The order's GST block as the quote shows it (without its lines: the items carry them); null when nothing was taxed. */
function orderTaxView(o: OrderRow) {
  if (o.taxableValue === null || o.placeOfSupplyState === null) return null
  return {
    placeOfSupply: { stateCode: o.placeOfSupplyStateCode, state: o.placeOfSupplyState },
    intraState: o.taxIntraState ?? false,
    ...taxMoney({ taxableValue: o.taxableValue, cgst: o.cgst ?? 0n, sgst: o.sgst ?? 0n, igst: o.igst ?? 0n }),
    charges: (o.taxCharges ?? []).map((c) => ({
      kind: c.kind,
      amount: rupees(BigInt(c.amount)),
      hsnCode: c.hsnCode,
      gstRateBps: c.gstRateBps,
      ...taxMoney({ taxableValue: BigInt(c.taxableValue), cgst: BigInt(c.cgst), sgst: BigInt(c.sgst), igst: BigInt(c.igst) }),
    })),
  }
}

export type OrderView = ReturnType<typeof orderView>

/** A line's goods as a person packing or carrying them reads them: the name, and the variant sold (`Cotton Kurta (M / Red)`). */
export const soldAs = (item: { name: string; variantTitle: string | null }) => (item.variantTitle ? `${item.name} (${item.variantTitle})` : item.name)

