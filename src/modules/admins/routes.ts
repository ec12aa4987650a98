// /admin/auth: back-office login. Two limits guard it against password guessing: the per-address
// limit of every auth route (onRequest), and one on failed attempts per account here, whatever the
// address, so guesses spread over many addresses still get few tries at one admin.
import { createHash } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AttemptLimiter } from '../../http/attempt-limit.ts'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { security } from '../../http/schemas.ts'
import { AppError } from '../../lib/errors.ts'
import type { AdminService } from './service.ts'
import { AdminSession, LoginBody } from './schemas.ts'

/**
 * Failed logins one account may have per window: a sixth of what one address may send to the auth
 * routes (30 a minute by default, so 5), so one address can try six accounts at this pace.
 */
export const failedLoginsPerAccount = (authMax: number) => Math.max(1, Math.floor(authMax / 6))

/** The account's counter: a hash, so no email address is kept in Redis or in memory. */
const accountKey = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 22)

export const adminAuthRoutes: FastifyPluginAsyncTypebox<{ admins: AdminService; rateLimit: { max: number; timeWindow: number }; failedLogins: AttemptLimiter }> = async (
  app,
  { admins, rateLimit, failedLogins },
) => {
  app.post(
    '/admin/auth/login',
    {
      config: { rateLimit },
      schema: {
        operationId: 'adminLogin',
        tags: ['Admin'],
        summary: 'Log in to the back office',
        security: security.public,
        description:
          'Limited per client address (RATE_LIMIT_AUTH_MAX per RATE_LIMIT_WINDOW_MS, 30 a minute by default) and per account: at most RATE_LIMIT_AUTH_MAX / 6 failed logins (5 by default) per window, whatever the address; logins still being checked count, so concurrent guesses get no more. Past it every attempt on that account, the right password too, is 429 with retry-after.',
        body: LoginBody,
        response: {
          200: Envelope(AdminSession),
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (request, reply) => {
      // The attempt is counted before the password is checked, and given back unless it failed:
      // a burst of concurrent guesses cannot all pass a check that none of them has counted yet.
      // Once the account's budget is spent every attempt is refused, the right password too: a
      // limit that let it through would tell a guesser when it had found it. Only failures stay
      // counted, so an admin who logs in often is not locked out.
      const attempt = await failedLogins.reserve(accountKey(request.body.email))
      if (!attempt.allowed) {
        reply.header('x-ratelimit-limit', attempt.max)
        reply.header('x-ratelimit-remaining', 0)
        reply.header('x-ratelimit-reset', attempt.retryAfterSeconds)
        reply.header('retry-after', attempt.retryAfterSeconds)
        throw new AppError('RATE_LIMITED', `Too many failed logins for this account, retry in ${attempt.retryAfterSeconds} seconds`)
      }
      let failed = false
      try {
        return ok(await admins.login(request.body.email, request.body.password), 'Logged in')
      } catch (err) {
        failed = err instanceof AppError && err.code === 'UNAUTHORIZED'
        throw err
      } finally {
        if (!failed) await attempt.release()
      }
    },
  )
}
