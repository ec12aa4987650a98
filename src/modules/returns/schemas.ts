// Request and response schemas of the returns module: they validate, type the handlers, serialize
// answers and make the OpenAPI document.
import { Type } from 'typebox'
import { Money, Nullable, PageQuery, Time } from '../../http/schemas.ts'
import { PayoutDestination, Refund } from '../orders/index.ts'
import { Shipment } from '../shipping/index.ts'

export const Status = Type.Enum(['REQUESTED', 'UNDER_REVIEW', 'NEEDS_INFO', 'APPROVED', 'REJECTED', 'REFUND_PENDING', 'REFUNDED', 'REFUND_FAILED', 'RESOLVED'])
export const Resolution = Type.Enum(['ORIGINAL_PAYMENT_REFUND', 'WALLET_CREDIT', 'REPLACEMENT', 'KEEP_ITEM_WALLET_CREDIT'])
export const ReturnFields = {
  id: Type.String(),
  partnerId: Type.String({ description: 'Integration ID' }),
  orderId: Type.String(),
  status: Status,
  reason: Type.String(),
  detail: Type.String(),
  requestedResolution: Resolution,
  requestedAmount: Money(),
  approvedAmount: Nullable(Money()),
  imageUrls: Type.Array(Type.String()),
  items: Type.Array(Type.Object({ id: Type.String(), orderItemId: Type.String(), quantity: Type.Integer(), reason: Type.String(), requestedAmount: Money() })),
  refunds: Type.Array(Refund),
  refundTo: Nullable(Type.Object(PayoutDestination.properties, { description: 'Where an ORIGINAL_PAYMENT_REFUND of cash collected on delivery is paid out; null: Wallet Cash' })),
  replacementOrderId: Nullable(Type.String()),
  pickup: Nullable(Type.Object(Shipment.properties, { description: 'The reverse parcel picking the units up from the customer, when one was booked' })),
  qualityCheck: Nullable(
    Type.Object(
      { result: Type.Enum(['PASSED', 'FAILED']), note: Nullable(Type.String()), at: Time, restocked: Type.Boolean({ description: 'The units went back to stock (a check that passed)' }) },
      { description: "The back office's check of the units received; null until it is recorded" },
    ),
  ),
  createdAt: Time,
  updatedAt: Time,
}
export const ReturnRequest = Type.Object(ReturnFields)
const ReturnListFields = { id: Type.String(), orderId: Type.String(), status: Status, reason: Type.String(), requestedResolution: Resolution, requestedAmount: Money() }
export const ReturnListItem = Type.Object(ReturnListFields)

/** What the back office may do now (allowed.ts): the same rules the admin routes enforce, so a listed action is accepted and an unlisted one is 409. */
const AllowedFields = {
  nextStatuses: Type.Array(Status, {
    description:
      'The statuses POST /admin/returns/{id}/status accepts now: the machine, less the moves only the system makes (REFUNDED and REFUND_FAILED come from the provider, an approved refund return is RESOLVED once REFUNDED, a REPLACEMENT is not refunded)',
    examples: [['NEEDS_INFO', 'APPROVED', 'REJECTED']],
  }),
  actions: Type.Object(
    {
      startRefund: Type.Boolean({ description: 'Moving to REFUND_PENDING is accepted now: the first refund of an APPROVED return, or the retry of a REFUND_FAILED one (nextStatuses holds REFUND_PENDING)' }),
      bookPickup: Type.Boolean({ description: 'POST /admin/returns/{id}/pickup is accepted now: the units come back (approved, not KEEP_ITEM_WALLET_CREDIT), no pickup is on its way, no quality check yet' }),
      qualityCheck: Type.Boolean({
        description: 'POST /admin/returns/{id}/quality-check records a check now: the units come back, none recorded yet, and the pickup (if one was booked) received. Once recorded: false (the same result again answers 200 and changes nothing; another is 409)',
      }),
    },
    { description: 'The actions besides a status move that the back office may take now' },
  ),
}

/** The back office's return (and, without AllowedFields, the partner's): the customer's answer with its history, words for its ids. */
const PartnerReturnFields = {
  ...ReturnFields,
  items: Type.Array(
    Type.Object({
      ...ReturnFields.items.items.properties,
      name: Type.String({ description: "The product's name as ordered" }),
      sku: Type.String({ description: "The product's SKU as ordered" }),
    }),
  ),
  orderNumber: Type.String({ description: "The order's number, as the customer knows it" }),
  userId: Type.String(),
  history: Type.Array(Type.Object({ fromStatus: Nullable(Status), status: Status, actor: Type.String(), note: Nullable(Type.String()), at: Time })),
}
/** The partner's own server's return: the back office's, without what the back office may do (its server acts on none of it). */
export const PartnerReturn = Type.Object(PartnerReturnFields)
export const AdminReturn = Type.Object({ ...PartnerReturnFields, ...AllowedFields })
export const AdminReturnListItem = Type.Object({ ...ReturnListFields, orderNumber: Type.String({ description: "The order's number" }), ...AllowedFields })
export const ImageUrls = Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 10, description: 'publicUrls of returns uploads of this customer' })
export const ListQuery = {
  ...PageQuery,
  status: Type.Optional(Status),
  resolution: Type.Optional(Resolution),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Reason, detail or order number' })),
}
export const Params = Type.Object({ returnRequestId: Type.String({ maxLength: 100 }) })

/**
 * A UPI ID or a bank account for the refund of an order paid in cash on delivery (issue #25). The
 * formats are checked here (NPCI's UPI ID shape, RBI's IFSC: four letters, a zero, six letters or
 * digits); which fields a method needs is checked by request.ts (refundToInput).
 */
export const RefundTo = Type.Object(
  {
    method: Type.Enum(['UPI', 'BANK'], { description: 'UPI: pay out to vpa. BANK: pay out to accountNumber at ifsc (IMPS, NEFT above ₹5,00,000)' }),
    vpa: Type.Optional(
      Type.String({ maxLength: 100, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{1,255}@[A-Za-z][A-Za-z0-9]{1,63}$', 'x-message': 'must be a UPI ID such as name@bank', examples: ['ravi.kumar@okhdfcbank'] }),
    ),
    accountHolderName: Type.Optional(
      Type.String({ minLength: 3, maxLength: 100, pattern: "^[A-Za-z][A-Za-z .'-]*[A-Za-z.]$", 'x-message': 'must be the name on the account: letters, spaces, dots, apostrophes and hyphens', examples: ['Ravi Kumar'] }),
    ),
    ifsc: Type.Optional(Type.String({ pattern: '^[A-Za-z]{4}0[A-Za-z0-9]{6}$', 'x-message': 'must be an 11-character IFSC such as HDFC0001234', examples: ['HDFC0001234'] })),
    accountNumber: Type.Optional(Type.String({ pattern: '^[0-9]{9,18}$', 'x-message': 'must be a bank account number of 9 to 18 digits', examples: ['50100123454321'] })),
  },
  { description: 'Where the cash collected on delivery is refunded: a UPI ID, or a bank account. Left out: Wallet Cash' },
)
