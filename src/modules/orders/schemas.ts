// Response and body schemas of the orders module (also the OpenAPI document).
import { Type } from 'typebox'
import { IndianMobile, Money, Nullable, Pincode, TaxBlockFields, Time } from '../../http/schemas.ts'
import { CartLines } from '../checkout/index.ts'
import { Shipment } from '../shipping/index.ts'

export const OrderStatusSchema = Type.Enum(['PENDING_PAYMENT', 'CONFIRMED', 'PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED', 'DELIVERY_FAILED', 'RTO', 'CANCELLED'])
export const PaymentStatusSchema = Type.Enum(['CREATED', 'PENDING', 'USER_DROPPED', 'SUCCEEDED', 'FAILED', 'EXPIRED'])
export const OrderPaymentStatusSchema = Type.Enum(['PENDING', 'PAID', 'COD_PENDING', 'REFUNDED', 'PARTIALLY_REFUNDED'])
export const Payment = Type.Object({
  id: Type.String(),
  orderId: Type.String(),
  provider: Type.String(),
  status: PaymentStatusSchema,
  amount: Money(),
  currency: Type.String(),
  failureReason: Nullable(Type.String()),
  createdAt: Time,
  updatedAt: Time,
})
export const ClientAction = Type.Object(
  {
    type: Type.String({ description: 'REDIRECT (sandbox checkout page), RAZORPAY_CHECKOUT (payload for Razorpay Checkout), or NONE' }),
    payload: Nullable(Type.Object({}, { additionalProperties: true })),
  },
  { description: 'What the partner app does to collect the payment' },
)
/** A UPI ID or bank account as shown in answers: the account number masked to its last four digits. */
export const PayoutDestination = Type.Object(
  {
    method: Type.Enum(['UPI', 'BANK']),
    vpa: Nullable(Type.String({ description: 'UPI: the UPI ID (VPA)', examples: ['ravi.kumar@okhdfcbank'] })),
    accountHolderName: Nullable(Type.String({ description: 'BANK: the name on the account' })),
    ifsc: Nullable(Type.String({ description: "BANK: the branch's IFSC", examples: ['HDFC0001234'] })),
    accountNumber: Nullable(Type.String({ description: 'BANK: the account number, masked to its last four digits', examples: ['XXXXXXXX4321'] })),
  },
  { description: 'Where cash collected on delivery is refunded to' },
)
export const Refund = Type.Object({
  id: Type.String(),
  returnRequestId: Nullable(Type.String()),
  orderId: Type.String(),
  amount: Money(),
  method: Type.Enum(['ORIGINAL_PAYMENT', 'WALLET_CREDIT', 'UPI_PAYOUT', 'BANK_PAYOUT'], {
    description: 'ORIGINAL_PAYMENT: back to the online payment. WALLET_CREDIT: Wallet Cash. UPI_PAYOUT, BANK_PAYOUT: cash collected on delivery, paid out to a UPI ID or a bank account',
  }),
  status: Type.Enum(['PENDING', 'SUCCEEDED', 'FAILED']),
  providerRefundId: Nullable(Type.String({ description: "The payment provider's refund id, or the payout provider's payout id" })),
  payoutTo: Nullable(PayoutDestination),
  failureReason: Nullable(Type.String({ description: 'Why the refund FAILED' })),
  createdAt: Time,
})
export const Address = Type.Object({
  name: Type.String(),
  phone: Type.String(),
  line1: Type.String(),
  line2: Type.String(),
  landmark: Type.String(),
  city: Type.String(),
  state: Type.String(),
  pincode: Type.String(),
})
export const OrderFields = {
  id: Type.String(),
  orderNumber: Type.String(),
  partnerId: Type.String({ description: 'Integration ID' }),
  userId: Type.String(),
  status: OrderStatusSchema,
  paymentStatus: OrderPaymentStatusSchema,
  paymentMode: Type.Enum(['PREPAID', 'COD']),
  deliveryMethod: Type.Enum(['STANDARD', 'EXPRESS']),
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      productId: Type.String(),
      variantId: Type.String({ description: 'The variant sold (a product without options: its default variant)' }),
      variantTitle: Nullable(Type.String({ description: 'The variant as sold, its option values joined: M / Red (null: a product without options)' })),
      options: Type.Array(Type.Object({ name: Type.String(), value: Type.String() }), { description: "The variant's option values as sold, by option name (none: a product without options)" }),
      name: Type.String(),
      sku: Type.String(),
      imageUrl: Nullable(Type.String()),
      quantity: Type.Integer(),
      unitPrice: Money(),
      mrp: Money(),
      lineTotal: Money(),
      couponDiscount: Money(),
      rewardPointsDiscount: Money(),
      prepaidDiscount: Money("The line's share of the order's prepaidDiscount (a COD order paid online)"),
      paidAmount: Money('lineTotal - couponDiscount - rewardPointsDiscount - prepaidDiscount: what the customer pays for the line, by any means'),
      cancelledQuantity: Type.Integer({ description: 'Units cancelled before shipping while the rest of the order went on (POST /orders/{orderId}/cancel-items); a CANCELLED order cancelled all its units' }),
      returnableQuantity: Type.Integer({ description: 'Units that may still be returned: ordered, less cancelled, less in returns that were not rejected' }),
      hsnCode: Nullable(Type.String({ description: 'GST at the time of sale (null: not taxed): HSN code' })),
      gstRateBps: Nullable(Type.Integer({ description: 'GST rate at the time of sale, basis points (1800 = 18 %)' })),
      taxableValue: Nullable(Money('lineTotal - couponDiscount, less its tax')),
      cgst: Nullable(Money()),
      sgst: Nullable(Money()),
      igst: Nullable(Money()),
      totalTax: Nullable(Money()),
    }),
  ),
  shippingAddress: Address,
  alternatePhone: Nullable(Type.String()),
  couponCode: Nullable(Type.String()),
  itemsTotal: Money(),
  mrpTotal: Money(),
  couponDiscount: Money(),
  prepaidDiscount: Money('Discount for paying a COD order online (POST /orders/{orderId}/convert-to-prepaid); 0.00 otherwise'),
  shippingCharge: Money(),
  codFee: Money('Cash on delivery fee; 0.00 once a COD order was paid online (never charged)'),
  totalAmount: Money('itemsTotal - couponDiscount - prepaidDiscount + shippingCharge + codFee'),
  rewardPointsUsed: Type.Integer(),
  rewardPointsValue: Money(),
  walletCashUsed: Money(),
  amountPayable: Money(),
  rewardPointsEarned: Type.Integer(),
  reservationExpiresAt: Nullable(Time),
  cancelReason: Nullable(Type.String()),
  statusHistory: Type.Array(
    Type.Object({ fromStatus: Nullable(OrderStatusSchema), status: OrderStatusSchema, note: Nullable(Type.String()), actor: Type.String(), at: Time }),
  ),
  payment: Nullable(Payment),
  refunds: Type.Array(Refund),
  shipments: Type.Array(Shipment),
  deliveredAt: Nullable(Time),
  tax: Nullable(
    Type.Object(TaxBlockFields, {
      description: 'GST included in the prices, at the time of sale (decision 0021); totals are the sums of the items’ and charges’ figures. Null when nothing was taxed',
    }),
  ),
  createdAt: Time,
  updatedAt: Time,
}
export const Order = Type.Object(OrderFields)
export const CreatedOrder = Type.Object({ ...OrderFields, paymentClientAction: ClientAction })
export const OrderSummary = Type.Object({
  id: Type.String(),
  orderNumber: Type.String(),
  partnerId: Type.String(),
  status: OrderStatusSchema,
  paymentStatus: OrderPaymentStatusSchema,
  paymentMode: Type.Enum(['PREPAID', 'COD']),
  totalAmount: Money(),
  amountPayable: Money(),
  itemCount: Type.Integer(),
  createdAt: Time,
})
export const CreateOrderBody = Type.Object({
  items: CartLines,
  shippingAddress: Type.Object(
    {
      addressId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A saved address of the customer; then send only landmark beside it' })),
      name: Type.Optional(Type.String({ maxLength: 100 })),
      phone: Type.Optional(IndianMobile()),
      line1: Type.Optional(Type.String({ maxLength: 200 })),
      line2: Type.Optional(Type.String({ maxLength: 200 })),
      landmark: Type.String({ minLength: 1, maxLength: 200 }),
      city: Type.Optional(Type.String({ maxLength: 100 })),
      state: Type.Optional(Type.String({ maxLength: 100, description: 'A state or union territory the pincode is in (case, spacing, & or and, and old names such as Orissa or Pondicherry are accepted); otherwise 400 naming both' })),
      pincode: Type.Optional(Pincode),
    },
    { description: 'Either {name, phone, line1, line2?, landmark, city, state, pincode} or {addressId, landmark}' },
  ),
  alternatePhone: Type.Optional(IndianMobile('Another 10-digit Indian mobile for the courier')),
  paymentMode: Type.Optional(Type.Enum(['PREPAID', 'COD'], { default: undefined, description: 'Default PREPAID' })),
  deliveryMethod: Type.Optional(Type.Enum(['STANDARD', 'EXPRESS'], { description: 'Default STANDARD' })),
  couponCode: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  useRewardPoints: Type.Optional(Type.Boolean()),
  useWalletCash: Type.Optional(Type.Boolean()),
  paymentReturnUrl: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Absolute URL; on an origin the partner registered, if it registered any' })),
}, {
  // The OpenAPI document's example of the request (decision 0026).
  examples: [
    {
      items: [{ productId: 'prd_01JD3Q8Z4K7M2X9R6T1V0B8C5N', quantity: 2 }],
      shippingAddress: { name: 'Asha Rao', phone: '9876543210', line1: '12 MG Road', landmark: 'Opposite the metro station', city: 'Bengaluru', state: 'Karnataka', pincode: '560001' },
      paymentMode: 'PREPAID',
      paymentReturnUrl: 'https://partner.example/orders/return',
    },
  ],
})
export const IdempotencyHeaders = Type.Object({
  'x-idempotency-key': Type.String({ description: '1-255 printable characters, the same for every retry of one request. Kept 24 hours.' }),
})
export const OrderParams = Type.Object({ orderId: Type.String({ maxLength: 100 }) })
export const SyncedOrder = Type.Object({ ...OrderSummary.properties, userId: Type.String(), updatedAt: Time })
export const CancelItemsBody = Type.Object({
  items: Type.Array(
    Type.Object({ orderItemId: Type.String({ minLength: 1, maxLength: 100 }), quantity: Type.Integer({ minimum: 1, maximum: 9999 }) }),
    { minItems: 1, maxItems: 100, description: 'Lines of the order and how many of their units to cancel, each line once' },
  ),
  reason: Type.String({ minLength: 1, maxLength: 500 }),
})

export const PrepaidConversionQuote = Type.Object(
  {
    eligible: Type.Boolean(),
    reasons: Type.Array(Type.String(), { description: 'Why the order cannot be paid online instead, in plain words; empty when eligible' }),
    amountToPay: Money('What the online payment would be: amountPayable - codFee - prepaidDiscount; 0.00 when not eligible'),
    codFeeWaived: Money('The COD fee, never charged once paid online'),
    prepaidDiscount: Money("The partner's prepaid discount (a percent of the items' paid value, capped)"),
    saving: Money('codFeeWaived + prepaidDiscount'),
  },
  { description: 'Converting a COD order to prepaid, before the customer decides (nothing is created)' },
)
export const PrepaidConversionStarted = Type.Object({
  payment: Payment,
  clientAction: ClientAction,
  saving: Money('COD fee waived + prepaid discount, once the payment succeeds'),
})

/** An order as the back office sees it: with all its payments, the moves it may make and the units in no parcel. */
export const AdminOrder = Type.Object({
  ...Order.properties,
  payments: Type.Array(Payment),
  nextStatuses: Type.Array(OrderStatusSchema, {
    description:
      'The statuses the order machine allows from this one, less SHIPPED, OUT_FOR_DELIVERY and DELIVERED while units are in no parcel (POST /admin/orders/{id}/status may still refuse one with 409, e.g. while a parcel is booked)',
    examples: [['PACKED', 'CANCELLED']],
  }),
  unparcelled: Type.Array(Type.Object({ orderItemId: Type.String(), quantity: Type.Integer({ minimum: 1 }) }), {
    description: 'Units of each line neither cancelled nor in a forward parcel: what a parcel may still be booked for (lines with none left out)',
  }),
})
