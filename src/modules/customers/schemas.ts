// Request and response schemas of the customers module: they validate, type the handlers, serialize
// answers and make the OpenAPI document.
import { Type } from 'typebox'
import { AddressPincode, Money, Nullable, Time } from '../../http/schemas.ts'

export const UserFields = {
  id: Type.String(),
  partnerId: Type.String({ description: 'Integration ID' }),
  phone: Type.String(),
  name: Type.String(),
  email: Type.String(),
  role: Type.String({ description: 'USER for customers' }),
}
export const AddressFields = {
  id: Type.String(),
  label: Type.String(),
  line1: Type.String(),
  line2: Type.String(),
  city: Type.String(),
  state: Type.String(),
  pincode: Type.String(),
  isDefault: Type.Boolean(),
}
export const Address = Type.Object(AddressFields)
export const AddressListItem = Type.Object({ ...AddressFields, userId: Type.String() })
export const User = Type.Object(UserFields)
export const Profile = Type.Object({ ...UserFields, addresses: Type.Array(Address) })
export const AddressBody = {
  label: Type.String({ minLength: 1, maxLength: 50, description: 'For example Home or Work' }),
  line1: Type.String({ minLength: 1, maxLength: 200 }),
  line2: Type.String({ maxLength: 200 }),
  city: Type.String({ minLength: 1, maxLength: 100 }),
  state: Type.String({ minLength: 1, maxLength: 100, description: 'A state or union territory the pincode is in (case, spacing, & or and, and old names such as Orissa or Pondicherry are accepted); otherwise 400 naming both' }),
  pincode: AddressPincode,
  isDefault: Type.Boolean(),
}
export const AddressParams = Type.Object({ addressId: Type.String({ maxLength: 100 }) })
export const Customer = Type.Object({
  ...UserFields,
  blocked: Type.Boolean(),
  blockedAt: Nullable(Time),
  blockedReason: Nullable(Type.String()),
  createdAt: Time,
  updatedAt: Time,
})
export const CustomerDetail = Type.Object({
  ...Customer.properties,
  addresses: Type.Array(Type.Object(AddressFields)),
  balances: Type.Object({ walletCash: Money(), rewardPoints: Type.Integer() }),
  recentOrders: Type.Array(Type.Object({ id: Type.String(), orderNumber: Type.String(), status: Type.String(), paymentStatus: Type.String(), paymentMode: Type.String(), totalAmount: Money(), itemCount: Type.Integer(), createdAt: Time })),
  recentReturns: Type.Array(Type.Object({ id: Type.String(), orderId: Type.String(), status: Type.String(), reason: Type.String(), requestedResolution: Type.String(), requestedAmount: Money() })),
  recentTickets: Type.Array(Type.Object({ id: Type.String(), orderId: Nullable(Type.String()), topic: Type.String(), status: Type.String(), createdAt: Time, updatedAt: Time })),
})
