// /admin/auth: back-office login. Two limits guard it against password guessing: the per-address
// limit of every auth route (onRequest), and one on failed attempts per account here, whatever the
// address, so guesses spread over many addresses still get few tries at one admin.
import { createHash } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AttemptLimiter } from '../../http/attempt-limit.ts'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { adminOf, type Guards } from '../../http/guards.ts'
import { security } from '../../http/schemas.ts'
import { AppError } from '../../lib/errors.ts'
import type { AdminService } from './service.ts'
import { AdminSession, InviteBody, LoginBody, OwnPasswordBody, Person, PersonChanges, PersonParams, PersonWithPassword } from './schemas.ts'

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

/**
 * People (issue #39): ADMINs manage back-office accounts; every admin sets their own password.
 * Temporary passwords are answered once and never logged (the logger redacts request bodies'
 * passwords, and answers are not logged).
 */
export const adminPeopleRoutes: FastifyPluginAsyncTypebox<{ admins: AdminService; guards: Guards }> = async (app, { admins, guards }) => {
  const adminOnly = { preValidation: guards.admin() }
  const tags = ['Admin: people']
  app.get('/admin/admins', { ...adminOnly, schema: { operationId: 'adminListAdmins', tags, security: security.admin, summary: 'Every back-office account, oldest first', response: { 200: Envelope(Type.Array(Person)), ...errorResponses(401, 403) } } }, async () =>
    ok(await admins.list(), 'Admins retrieved'),
  )
  app.post(
    '/admin/admins',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminInviteAdmin',
        tags,
        security: security.admin,
        summary: 'Invite a person: an account with a role and a temporary password, shown once (409 for an e-mail that has one)',
        body: InviteBody,
        response: { 201: Envelope(PersonWithPassword), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      reply.status(201)
      return ok(await admins.invite(request.body), 'Admin invited', 201)
    },
  )
  app.patch(
    '/admin/admins/:adminId',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminUpdateAdmin',
        tags,
        security: security.admin,
        summary: "Change an account's role, or deactivate (its sessions end at once) or reactivate it; never the last active ADMIN (409)",
        params: PersonParams,
        body: PersonChanges,
        response: { 200: Envelope(Person), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ok(await admins.update(adminOf(request).adminId, request.params.adminId, request.body), 'Admin updated'),
  )
  app.post(
    '/admin/admins/:adminId/reset-password',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminResetAdminPassword',
        tags,
        security: security.admin,
        summary: "A new temporary password for an account, shown once; its sessions end at once",
        params: PersonParams,
        response: { 200: Envelope(PersonWithPassword), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ok(await admins.resetPassword(request.params.adminId), 'Password reset'),
  )
  app.put(
    '/admin/me/password',
    {
      preValidation: guards.admin('SUPPORT', 'CATALOG'),
      schema: {
        operationId: 'adminChangeOwnPassword',
        tags,
        security: security.admin,
        summary: 'Set your own password (at least 12 characters; the current one checked): your other sessions end, and a new token is answered',
        body: OwnPasswordBody,
        response: { 200: Envelope(AdminSession), ...errorResponses(400, 401) },
      },
    },
    async (request) => ok(await admins.changeOwnPassword(adminOf(request).adminId, request.body.currentPassword, request.body.newPassword), 'Password changed'),
  )
}
