// /admin/auth: back-office login. Two limits guard it against password guessing: the per-address
// limit of every auth route (onRequest), and one on failed attempts per account here, whatever the
// address, so guesses spread over many addresses still get few tries at one admin.
import { createHash } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { Email } from '../../http/schemas.ts'
import { AppError } from '../../lib/errors.ts'
import { ADMIN_ROLES, type AdminService } from './index.ts'

/**
 * Failed logins one account may have per window: a sixth of what one address may send to the auth
 * routes (30 a minute by default, so 5), so one address can try six accounts at this pace.
 */
export const failedLoginsPerAccount = (authMax: number) => Math.max(1, Math.floor(authMax / 6))

const accountKey = (request: FastifyRequest) => {
  const email = String((request.body as { email?: unknown } | undefined)?.email ?? '').trim().toLowerCase()
  return `admin-login:${createHash('sha256').update(email).digest('base64url').slice(0, 22)}`
}

export const adminAuthRoutes: FastifyPluginAsyncTypebox<{ admins: AdminService; rateLimit: { max: number; timeWindow: number } }> = async (
  app,
  { admins, rateLimit },
) => {
  const failures = app.createRateLimit({ max: failedLoginsPerAccount(rateLimit.max), timeWindow: rateLimit.timeWindow, keyGenerator: accountKey })

  app.post(
    '/admin/auth/login',
    {
      config: { rateLimit },
      // After validation, so the email is there. Once an account has its allowance of failures,
      // every attempt is refused, the right password too: a limit that let it through would tell
      // a guesser when it had found it. Only failures count, so an admin who logs in often is not
      // locked out. Concurrent guesses all read the count before any adds to it; the per-address
      // limit bounds how many one client can send at once.
      preHandler: async (request, reply) => {
        const limit = await failures(request, { increment: false })
        if (limit.isAllowed || limit.remaining > 0) return
        reply.header('x-ratelimit-limit', limit.max)
        reply.header('x-ratelimit-remaining', 0)
        reply.header('x-ratelimit-reset', limit.ttlInSeconds)
        reply.header('retry-after', limit.ttlInSeconds)
        throw new AppError('RATE_LIMITED', `Too many failed logins for this account, retry in ${limit.ttlInSeconds} seconds`)
      },
      schema: {
        tags: ['Admin'],
        summary: 'Log in to the back office',
        description:
          'Limited per client address (RATE_LIMIT_AUTH_MAX a minute) and per account: after RATE_LIMIT_AUTH_MAX / 6 failed logins (5 by default) in a minute every attempt on that account is 429 with retry-after, whatever the address.',
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
    async (request) => {
      try {
        return ok(await admins.login(request.body.email, request.body.password), 'Logged in')
      } catch (err) {
        if (err instanceof AppError && err.code === 'UNAUTHORIZED') await failures(request)
        throw err
      }
    },
  )
}
