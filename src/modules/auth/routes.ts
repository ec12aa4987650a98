// /auth: token exchange for partners' servers, refresh and logout.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { AppError } from '../../lib/errors.ts'
import type { AuthService } from './service.ts'
import { Email, IndianMobile, security } from '../../http/schemas.ts'
import { RefreshBody, TokenPair } from './schemas.ts'

export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService; rateLimit: object }> = async (app, { auth, rateLimit }) => {
  app.post(
    '/auth/customer-token',
    {
      config: { rateLimit },
      schema: {
        operationId: 'createCustomerToken',
        tags: ['Auth'],
        summary: "Exchange the partner's credentials and a verified phone for a customer token pair",
        security: security.partner,
        headers: Type.Object({
          'x-partner-id': Type.Optional(Type.String({ maxLength: 100 })),
          'x-partner-secret': Type.Optional(Type.String({ maxLength: 200 })),
        }),
        body: Type.Object({
          phone: IndianMobile(),
          name: Type.Optional(Type.String({ maxLength: 100 })),
          email: Type.Optional(Email()),
        }),
        response: { 200: Envelope(TokenPair), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const partnerId = request.headers['x-partner-id']
      const secret = request.headers['x-partner-secret']
      if (!partnerId) throw new AppError('BAD_REQUEST', 'x-partner-id header is required')
      if (!secret) throw new AppError('UNAUTHORIZED', 'Missing x-partner-secret header')
      return ok(await auth.issueCustomerToken(partnerId, secret, request.body), 'Customer token issued')
    },
  )

  app.post(
    '/auth/refresh',
    {
      config: { rateLimit },
      schema: {
        operationId: 'refreshCustomerToken',
        tags: ['Auth'],
        summary: 'Rotate a refresh token for a new token pair',
        security: security.public,
        body: RefreshBody,
        response: { 200: Envelope(TokenPair), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ok(await auth.refresh(request.body.refreshToken), 'Token refreshed'),
  )

  app.post(
    '/auth/logout',
    {
      config: { rateLimit },
      schema: {
        operationId: 'logoutCustomer',
        tags: ['Auth'],
        summary: 'Revoke the session of a refresh token',
        security: security.public,
        body: RefreshBody,
        response: { 200: Envelope(Type.Object({ loggedOut: Type.Boolean() })), ...errorResponses(400, 429) },
      },
    },
    async (request) => {
      await auth.logout(request.body.refreshToken)
      return ok({ loggedOut: true }, 'Logged out')
    },
  )
}
