// Request and response schemas of the returns module: they validate, type the handlers, serialize
// answers and make the OpenAPI document.
import { Type } from 'typebox'
import { Money, Nullable, PageQuery, Time } from '../../http/schemas.ts'
import { Refund, Shipment } from '../orders/index.ts'

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
export const ReturnListItem = Type.Object({ id: Type.String(), orderId: Type.String(), status: Status, reason: Type.String(), requestedResolution: Resolution, requestedAmount: Money() })
export const ImageUrls = Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 10, description: 'publicUrls of returns uploads of this customer' })
export const ListQuery = {
  ...PageQuery,
  status: Type.Optional(Status),
  resolution: Type.Optional(Resolution),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Reason, detail or order number' })),
}
export const Params = Type.Object({ returnRequestId: Type.String({ maxLength: 100 }) })
