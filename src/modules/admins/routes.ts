// /admin/auth: back-office login.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { Email } from '../../http/schemas.ts'
import { ADMIN_ROLES, type AdminService } from './index.ts'

export const adminAuthRoutes: FastifyPluginAsyncTypebox<{ admins: AdminService; rateLimit: object }> = async (
  app,
  { admins, rateLimit },
) => {
  app.post(
    '/admin/auth/login',
    {
      config: { rateLimit },
      schema: {
        tags: ['Admin'],
        summary: 'Log in to the back office',
        body: Type.Object({ email: Email(), password: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: {
          200: Envelope(
            Type.Object({
              accessToken: Type.String(),
              tokenType: Type.Literal('Bearer'),
              expiresIn: Type.Integer(),
              admin: Type.Object({ id: Type.String(), email: Type.String(), role: Type.Enum(ADMIN_ROLES) }),
            }),
          ),
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (request) => ok(await admins.login(request.body.email, request.body.password), 'Logged in'),
  )
}
