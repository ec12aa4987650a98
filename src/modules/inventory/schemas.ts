// Request and response schemas of the inventory module's back office.
import { Type } from 'typebox'
import { AddressPincode, Limit } from '../../http/schemas.ts'
import { MOVE_KINDS } from './schema.sql.ts'

const Name = Type.String({ minLength: 1, maxLength: 120 })

export const Location = Type.Object({
  id: Type.String(),
  catalogId: Type.String(),
  name: Type.String({ examples: ['Bhiwandi warehouse'] }),
  addressLine1: Type.String(),
  city: Type.String(),
  state: Type.String(),
  pincode: Type.String(),
  registrationId: Type.Union([Type.String(), Type.Null()], { description: "The GST registration its goods ship under (in its state); null: the catalog's seller" }),
  pickupName: Type.Union([Type.String(), Type.Null()], { description: "The carrier's name for it as a pickup location" }),
  isActive: Type.Boolean(),
  position: Type.Integer({ description: 'Its place among the catalog\'s locations: the tie-break of allocation' }),
  unitsOnHand: Type.Integer({ description: 'Units it holds, every variant together' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
})

const LocationFields = {
  name: Name,
  addressLine1: Type.String({ minLength: 1, maxLength: 200 }),
  city: Type.String({ minLength: 1, maxLength: 100 }),
  state: Type.String({ minLength: 1, maxLength: 100, description: "The pincode's state" }),
  pincode: AddressPincode,
  registrationId: Type.Union([Type.String({ maxLength: 100 }), Type.Null()]),
  pickupName: Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()]),
  position: Type.Integer({ minimum: 0, maximum: 10_000 }),
}

export const CreateLocation = Type.Object({
  name: LocationFields.name,
  addressLine1: LocationFields.addressLine1,
  city: LocationFields.city,
  state: LocationFields.state,
  pincode: LocationFields.pincode,
  registrationId: Type.Optional(LocationFields.registrationId),
  pickupName: Type.Optional(LocationFields.pickupName),
  position: Type.Optional(LocationFields.position),
})

export const UpdateLocation = Type.Object(
  {
    name: Type.Optional(LocationFields.name),
    addressLine1: Type.Optional(LocationFields.addressLine1),
    city: Type.Optional(LocationFields.city),
    state: Type.Optional(LocationFields.state),
    pincode: Type.Optional(LocationFields.pincode),
    registrationId: Type.Optional(LocationFields.registrationId),
    pickupName: Type.Optional(LocationFields.pickupName),
    position: Type.Optional(LocationFields.position),
    isActive: Type.Optional(Type.Boolean({ description: 'false: closed to allocation; refused while it holds units (transfer them first)' })),
  },
  { minProperties: 1 },
)

const Unit = {
  productId: Type.String({ maxLength: 100 }),
  variantId: Type.Optional(Type.String({ maxLength: 100, description: 'Required for a product with options; left out: the default variant of a product without' })),
}

export const StockMove = Type.Object({
  ...Unit,
  kind: Type.Enum(['RECEIVE', 'ADJUST'], { description: 'RECEIVE: units arrived (quantity above zero); ADJUST: a count corrected (quantity signed, never leaving the level below zero)' }),
  quantity: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }),
  reason: Type.String({ minLength: 1, maxLength: 300, examples: ['PO 4471 from Surat'] }),
})

export const Transfer = Type.Object({
  ...Unit,
  toLocationId: Type.String({ maxLength: 100 }),
  quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  reason: Type.String({ minLength: 1, maxLength: 300 }),
})

export const Level = Type.Object({
  locationId: Type.String(),
  productId: Type.String(),
  variantId: Type.String(),
  name: Type.String(),
  sku: Type.String(),
  variantTitle: Type.Union([Type.String(), Type.Null()]),
  onHand: Type.Integer({ description: 'Units here not given to an order: the sum of its moves' }),
})

export const Move = Type.Object({
  id: Type.String(),
  locationId: Type.String(),
  productId: Type.String(),
  variantId: Type.String(),
  kind: Type.Enum([...MOVE_KINDS]),
  quantity: Type.Integer({ description: 'Signed: what the level gained' }),
  actor: Type.String({ description: 'The back-office user, or system (orders, returns)' }),
  reason: Type.String(),
  reference: Type.Union([Type.String(), Type.Null()], { description: 'The order or transfer it belongs to' }),
  createdAt: Type.String({ format: 'date-time' }),
})

export const PageQuery = { page: Limit(100_000, 1), limit: Limit(100, 50) }
export const MovesQuery = Type.Object({
  ...PageQuery,
  locationId: Type.Optional(Type.String({ maxLength: 100 })),
  productId: Type.Optional(Type.String({ maxLength: 100 })),
  variantId: Type.Optional(Type.String({ maxLength: 100 })),
  kind: Type.Optional(Type.Enum([...MOVE_KINDS])),
})
