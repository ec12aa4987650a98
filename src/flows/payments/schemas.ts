// Request and response schemas of the payments module: they validate, type the handlers, serialize
// answers and make the OpenAPI document.
import { Type } from 'typebox'

export const WebhookParams = Type.Object({ provider: Type.String({ maxLength: 40 }) })
export const WebhookReceipt = Type.Object({ received: Type.Boolean(), duplicate: Type.Boolean() })
export const SessionParams = Type.Object({ sessionId: Type.String({ maxLength: 100 }) })
export const SandboxActionParams = Type.Object({ sessionId: Type.String({ maxLength: 100 }), action: Type.Enum(['pay', 'fail', 'close']) })
export const SandboxActionResult = Type.Object({ orderId: Type.String(), paymentId: Type.String(), paymentStatus: Type.String(), orderStatus: Type.String(), message: Type.String() })
