// /users/me: the customer's profile and address book (bearer token; x-partner-id optional).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { customerOf, type Guards } from '../../http/guards.ts'
import type { ProfileService } from './service.ts'
import { Email, security } from '../../http/schemas.ts'
import { Address, AddressBody, AddressListItem, AddressParams, Profile, User } from './schemas.ts'

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
      schema: { operationId: 'getProfile', tags, summary: 'The customer with their addresses', security: security.customer, response: { 200: Envelope(Profile), ...errorResponses(401) } },
    },
    async (request) => ok(await profiles.profile(customerOf(request).userId), 'Profile retrieved'),
  )

  app.patch(
    '/users/me',
    {
      ...common,
      schema: {
        operationId: 'updateProfile',
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
      schema: { operationId: 'listAddresses', tags, summary: 'Saved addresses, default first', security: security.customer, response: { 200: Envelope(Type.Array(AddressListItem)), ...errorResponses(401) } },
    },
    async (request) => ok(await profiles.listAddresses(customerOf(request).userId), 'Addresses retrieved'),
  )

  app.post(
    '/users/me/addresses',
    {
      ...common,
      schema: {
        operationId: 'createAddress',
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
        operationId: 'updateAddress',
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
        operationId: 'deleteAddress',
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
