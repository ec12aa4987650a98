// Request and response schemas of the checkout module: they validate, type the handlers, serialize
// answers and make the OpenAPI document.
import { Type } from 'typebox'
import { Money, MoneyInput } from '../../http/schemas.ts'

export const Method = Type.Enum(['STANDARD', 'EXPRESS'])
export const Days = Type.Object({ min: Type.Integer(), max: Type.Integer() })
export const DateOnly = Type.String({ description: 'YYYY-MM-DD, Indian time' })
export const Serviceability = Type.Object({
  pincode: Type.String(),
  serviceable: Type.Boolean(),
  city: Type.Union([Type.String(), Type.Null()]),
  state: Type.Union([Type.String(), Type.Null()]),
  items: Type.Array(Type.Object({ productId: Type.String(), available: Type.Boolean(), inStock: Type.Boolean() })),
  deliveryMethods: Type.Array(
    Type.Object({
      method: Method,
      available: Type.Boolean(),
      charge: Money(),
      estimatedDays: Days,
      estimatedDeliveryDate: Type.Union([DateOnly, Type.Null()]),
    }),
  ),
  paymentOptions: Type.Array(Type.Object({ mode: Type.Enum(['PREPAID', 'COD']), available: Type.Boolean(), reason: Type.Optional(Type.String()) })),
})
export const Slabs = Type.Array(Type.Object({ upToGrams: Type.Integer({ minimum: 1, maximum: 1_000_000 }), charge: MoneyInput() }), { maxItems: 20 })
export const Prefix = Type.Object({
  prefix: Type.String({ pattern: '^[1-9][0-9]{0,5}$', 'x-message': 'must be 1 to 6 digits of a PIN code', examples: ['5600'] }),
  city: Type.String({ minLength: 1, maxLength: 100 }),
  state: Type.String({ minLength: 1, maxLength: 100 }),
})
export const ZoneFields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  serviceable: Type.Boolean(),
  standardSlabs: Slabs,
  standardMinDays: Type.Integer({ minimum: 0, maximum: 60 }),
  standardMaxDays: Type.Integer({ minimum: 0, maximum: 60 }),
  expressAvailable: Type.Boolean(),
  expressSlabs: Slabs,
  expressMinDays: Type.Integer({ minimum: 0, maximum: 60 }),
  expressMaxDays: Type.Integer({ minimum: 0, maximum: 60 }),
  freeShippingThreshold: Type.Union([MoneyInput(), Type.Null()]),
  cutoffHour: Type.Integer({ minimum: 0, maximum: 23 }),
  codAvailable: Type.Boolean(),
  codLimit: MoneyInput(),
  codFee: MoneyInput(),
}
