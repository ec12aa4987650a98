// /users/me: the customer's profile and address book (bearer token; x-partner-id optional).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { customerOf, type Guards } from '../../http/guards.ts'
import { Email, security } from '../../http/schemas.ts'
import type { ProfileService } from './service.ts'

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
const Address = Type.Object(AddressFields)
const AddressListItem = Type.Object({ ...AddressFields, userId: Type.String() })
const User = Type.Object(UserFields)
const Profile = Type.Object({ ...UserFields, addresses: Type.Array(Address) })

const Pincode = Type.String({
  minLength: 6,
  maxLength: 6,
  pattern: '^[1-9][0-9]{5}$',
  'x-message': 'must be a 6-digit Indian PIN code',
  description: '6-digit Indian PIN code',
})
const AddressBody = {
  label: Type.String({ minLength: 1, maxLength: 50, description: 'For example Home or Work' }),
  line1: Type.String({ minLength: 1, maxLength: 200 }),
  line2: Type.String({ maxLength: 200 }),
  city: Type.String({ minLength: 1, maxLength: 100 }),
  state: Type.String({ minLength: 1, maxLength: 100, description: 'A state or union territory the pincode is in (case, spacing, & or and, and old names such as Orissa or Pondicherry are accepted); otherwise 400 naming both' }),
  pincode: Pincode,
  isDefault: Type.Boolean(),
}
const AddressParams = Type.Object({ addressId: Type.String({ maxLength: 100 }) })

export const profileRoutes: FastifyPluginAsyncTypebox<{ profiles: ProfileService; guards: Guards }> = async (
  app,
  { profiles, guards },
) => {
  const common = { preValidation: guards.customer }
  const tags = ['Customer profile']

  app.get(
    '/users/me',
    {
      ...common,
      schema: { tags, summary: 'The customer with their addresses', security: security.customer, response: { 200: Envelope(Profile), ...errorResponses(401) } },
    },
    async (request) => ok(await profiles.profile(customerOf(request).userId), 'Profile retrieved'),
  )

  app.patch(
    '/users/me',
    {
      ...common,
      schema: {
        tags,
        summary: 'Update name and email',
        security: security.customer,
        body: Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), email: Type.Optional(Email()) }),
        response: { 200: Envelope(User), ...errorResponses(400, 401) },
      },
    },
    async (request) => ok(await profiles.updateProfile(customerOf(request).userId, request.body), 'Profile updated'),
  )

  app.get(
    '/users/me/addresses',
    {
      ...common,
      schema: { tags, summary: 'Saved addresses, default first', security: security.customer, response: { 200: Envelope(Type.Array(AddressListItem)), ...errorResponses(401) } },
    },
    async (request) => ok(await profiles.listAddresses(customerOf(request).userId), 'Addresses retrieved'),
  )

  app.post(
    '/users/me/addresses',
    {
      ...common,
      schema: {
        tags,
        summary: 'Save an address (the first one becomes the default)',
        security: security.customer,
        body: Type.Object({
          label: AddressBody.label,
          line1: AddressBody.line1,
          line2: Type.Optional(AddressBody.line2),
          city: AddressBody.city,
          state: AddressBody.state,
          pincode: AddressBody.pincode,
          isDefault: Type.Optional(AddressBody.isDefault),
        }),
        response: { 201: Envelope(Address), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      reply.status(201)
      return ok(await profiles.createAddress(customerOf(request).userId, request.body), 'Address created', 201)
    },
  )

  app.patch(
    '/users/me/addresses/:addressId',
    {
      ...common,
      schema: {
        tags,
        summary: 'Change any subset of an address',
        security: security.customer,
        params: AddressParams,
        body: Type.Partial(Type.Object(AddressBody)),
        response: { 200: Envelope(Address), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) =>
      ok(await profiles.updateAddress(customerOf(request).userId, request.params.addressId, request.body), 'Address updated'),
  )

  app.delete(
    '/users/me/addresses/:addressId',
    {
      ...common,
      schema: {
        tags,
        summary: 'Delete an address (a deleted default passes to the most recent remaining one)',
        security: security.customer,
        params: AddressParams,
        response: { 200: Envelope(Address), ...errorResponses(401, 404) },
      },
    },
    async (request) => ok(await profiles.deleteAddress(customerOf(request).userId, request.params.addressId), 'Address deleted'),
  )
}
