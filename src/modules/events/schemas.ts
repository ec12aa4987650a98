// Request and response schemas of the events module: they validate, type the handlers, serialize
// answers and make the OpenAPI document.
import { Type } from 'typebox'
import { Nullable, Time } from '../../http/schemas.ts'

export const Status = Type.Enum(['PENDING', 'DELIVERED', 'FAILED'])
export const Webhook = Type.Object({
  partnerId: Type.String(),
  url: Nullable(Type.String()),
  hasSecret: Type.Boolean(),
  secret: Type.Optional(Type.String({ description: 'The signing secret: shown only when it is created or rotated' })),
  previousSecretExpiresAt: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'After a rotation: until when deliveries are also signed with the previous secret' }))),
})
export const Ping = Type.Object({
  url: Type.String(),
  delivered: Type.Boolean({ description: 'The receiver answered 2xx' }),
  statusCode: Nullable(Type.Integer()),
  durationMs: Type.Integer(),
  error: Nullable(Type.String()),
})
export const EventFields = {
  id: Type.String(),
  partnerId: Type.String(),
  type: Type.String(),
  subjectId: Type.String(),
  data: Type.Object({}, { additionalProperties: true }),
  status: Status,
  attempts: Type.Integer(),
  nextAttemptAt: Nullable(Time),
  lastError: Nullable(Type.String()),
  deliveredAt: Nullable(Time),
  createdAt: Time,
}
export const Event = Type.Object(EventFields)
export const EventDetail = Type.Object({
  ...EventFields,
  deliveries: Type.Array(
    Type.Object({ id: Type.String(), url: Type.String(), statusCode: Nullable(Type.Integer()), error: Nullable(Type.String()), durationMs: Type.Integer(), createdAt: Time }),
  ),
})
