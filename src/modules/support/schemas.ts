// Request and response schemas of the support module: they validate, type the handlers, serialize
// answers and make the OpenAPI document.
import { Type } from 'typebox'
import { Nullable, PageQuery, Time } from '../../http/schemas.ts'

export const Status = Type.Enum(['OPEN', 'IN_PROGRESS', 'RESOLVED', 'CLOSED'])
export const Ticket = Type.Object({
  id: Type.String(),
  partnerId: Type.String({ description: 'Integration ID' }),
  orderId: Nullable(Type.String()),
  topic: Type.String(),
  detail: Type.String(),
  imageUrls: Type.Array(Type.String()),
  status: Status,
  order: Nullable(Type.Object({ id: Type.String(), orderNumber: Type.String(), status: Type.String(), totalAmount: Type.String() })),
  createdAt: Time,
  updatedAt: Time,
})
export const Message = Type.Object({ id: Type.String(), ticketId: Type.String(), author: Type.Enum(['CUSTOMER', 'AGENT']), body: Type.String(), imageUrls: Type.Array(Type.String()), createdAt: Time })
export const ImageUrls = (max: number) => Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: max, description: 'publicUrls of support uploads of this customer' })
/** An agent's reply: text, and images uploaded for the ticket (POST /admin/support/tickets/{id}/uploads/signed-urls). */
export const AgentReplyBody = Type.Object({
  body: Type.String({ minLength: 1, maxLength: 5000 }),
  imageUrls: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 5, description: "publicUrls of support uploads issued for this ticket's customer" })),
})
export const ListQuery = {
  ...PageQuery,
  status: Type.Optional(Status),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Topic, detail or order number' })),
}
export const Params = Type.Object({ ticketId: Type.String({ maxLength: 100 }) })
