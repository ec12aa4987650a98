// Request and response schemas of the checkout module: they validate, type the handlers, serialize
// answers and make the OpenAPI document.
import { Type } from 'typebox'
import { Money, MoneyInput } from '../../http/schemas.ts'

export const Method = Type.Enum(['STANDARD', 'EXPRESS'])
/** A cart line as quotes, serviceability and orders take it (decision 0043: variantId optional while a product has one variant). */
export const CartLines = Type.Array(
  Type.Object({
    productId: Type.String({ minLength: 1, maxLength: 100 }),
    variantId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: "One of the product's variants (GET /products/{slug}: variants[].id); omitted: its default variant" }),
    ),
    quantity: Type.Integer({ minimum: 1, maximum: 9999 }),
  }),
  { minItems: 1, maxItems: 100 },
)
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

const SlabView = Type.Object({ upToGrams: Type.Integer(), charge: Money() })
export const ZoneView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  serviceable: Type.Boolean(),
  standardSlabs: Type.Array(SlabView),
  standardMinDays: Type.Integer(),
  standardMaxDays: Type.Integer(),
  expressAvailable: Type.Boolean(),
  expressSlabs: Type.Array(SlabView),
  expressMinDays: Type.Integer(),
  expressMaxDays: Type.Integer(),
  freeShippingThreshold: Type.Union([Money('Items total from which STANDARD ships free'), Type.Null()]),
  cutoffHour: Type.Integer({ description: 'Hour of the day (IST) after which an order is dispatched the next working day' }),
  codAvailable: Type.Boolean(),
  codLimit: Money(),
  codFee: Money(),
  updatedAt: Type.String({ format: 'date-time' }),
  pincodes: Type.Array(Type.Object({ prefix: Type.String(), city: Type.String(), state: Type.String() }), { description: 'Its pincode prefixes, in order' }),
})
export const CouponView = Type.Object({
  id: Type.String(),
  partnerId: Type.String(),
  code: Type.String(),
  kind: Type.Enum(['PERCENT', 'FLAT']),
  value: Type.String({ description: 'PERCENT: whole percent; FLAT: rupees with two decimals' }),
  maxDiscount: Type.Union([Money(), Type.Null()]),
  minOrderValue: Money(),
  validFrom: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  validUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  totalUsageLimit: Type.Union([Type.Integer(), Type.Null()]),
  perCustomerLimit: Type.Union([Type.Integer(), Type.Null()]),
  usedCount: Type.Integer(),
  categoryIds: Type.Union([Type.Array(Type.String()), Type.Null()]),
  isActive: Type.Boolean(),
})
