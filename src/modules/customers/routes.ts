// /users/me: the customer's profile (bearer token; x-partner-id optional). The address book's
// routes are the flow src/flows/address-book.ts (an address's state is checked against checkout's
// serviceability data).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { customerOf, type Guards } from '../../http/guards.ts'
import type { ProfileService } from './service.ts'
import { Email, security } from '../../http/schemas.ts'
import { Profile, User } from './schemas.ts'

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
}
