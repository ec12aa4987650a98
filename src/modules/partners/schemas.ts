// Request and response schemas of the partners module: they validate, type the handlers, serialize
// answers and make the OpenAPI document.
import { Type } from 'typebox'
import { Nullable, Time } from '../../http/schemas.ts'

export const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', 'x-message': 'must contain a visible character' })
export const Origins = Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { maxItems: 20, description: 'Origins (https://shop.example) where paymentReturnUrl may point; empty: any absolute URL' })
export const Partner = Type.Object({
  id: Type.String({ description: 'The x-partner-id value' }),
  name: Type.String(),
  isActive: Type.Boolean(),
  returnUrlOrigins: Type.Array(Type.String()),
  webhookUrl: Nullable(Type.String()),
  ecoGstin: Nullable(Type.String({ description: "The partner's GSTIN as an e-commerce operator collecting the payment (TCS): sales through it are reported in GSTR-1 Table 14" })),
  activeApiKeys: Type.Integer(),
  previousSecretExpiresAt: Nullable(Type.String({ format: 'date-time', description: 'While a rotation overlaps: when the previous secret stops working' })),
  createdAt: Time,
  updatedAt: Time,
})
export const EcoGstin = Nullable(
  Type.String({ minLength: 1, maxLength: 20, description: "The partner's GSTIN as an e-commerce operator, when its app collects the payment (TCS, section 52); null: it does not. Applies to documents issued after the change" }),
)
export const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to tell keys apart' }),
  catalogId: Type.String(),
  createdAt: Time,
  lastUsedAt: Nullable(Type.String({ format: 'date-time', description: 'Written in batches: up to a minute old' })),
  revokedAt: Nullable(Time),
})
export const IssuedApiKey = Type.Object({ ...ApiKey.properties, apiKey: Type.String({ description: 'The key itself: shown only now' }) })
