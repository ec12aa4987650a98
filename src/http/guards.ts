// Request guards, written once and declared per route as preValidation hooks (after the rate limiter,
// which runs on onRequest, so failed credentials are counted too). Each one attaches the
// caller's identity to the request; handlers read it with the accessors below.
import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify'
import { AppError } from '../lib/errors.ts'
import { type CustomerScope, type PartnerScope, partnerScope } from '../lib/scope.ts'
import type { Clock } from '../lib/clock.ts'

// What the guards need from the modules that own the credentials, as interfaces of their own: the
// platform imports no feature module (decision 0016). app.ts passes the partners, auth and admins
// modules' implementations in; the compiler checks there that they fit.

/** A valid API key: its partner and catalog (partners module). */
export interface ApiKeyIdentity {
  keyId: string
  partnerId: string
  catalogId: string
}
/** A valid customer access token (auth module). */
export interface CustomerIdentity extends CustomerScope {
  sessionId: string
}
/** The back office's roles (admins module's ADMIN_ROLES). */
export type AdminRole = 'ADMIN' | 'SUPPORT' | 'CATALOG'
/** A valid back-office token (admins module). */
export interface AdminIdentity {
  adminId: string
  email: string
  role: AdminRole
}

export interface Authenticators {
  /** The identity of an API key, or null; flushUsage writes the keys' lastUsedAt (batched). */
  apiKey: { (rawKey: string): Promise<ApiKeyIdentity | null>; flushUsage(): Promise<void> }
  /** The identity of a customer access token, or null; throws for a blocked customer. */
  customer(accessToken: string): Promise<CustomerIdentity | null>
  /** The identity of a back-office token, or null. */
  admin(token: string): Promise<AdminIdentity | null>
  /** The claims of a validly signed token of this audience, or null (rate-limit buckets). */
  verifyToken(token: string, audience: 'customer' | 'admin', now: Date): Promise<Record<string, unknown> | null>
  /** Returns when the partner's current (or overlapping previous) secret is `secret`; throws UNAUTHORIZED otherwise. */
  partnerSecret(partnerId: string, secret: string, now: Date): Promise<unknown>
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKeyIdentity?: ApiKeyIdentity
    customerIdentity?: CustomerIdentity
    adminIdentity?: AdminIdentity
    partnerIdentity?: PartnerScope
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  if (!header) return null
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  return match ? match[1]! : null
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name]
  const text = Array.isArray(value) ? value[0] : value
  return text?.trim() ? text.trim() : undefined
}

export interface Guards {
  apiKey: preValidationAsyncHookHandler
  /** Bearer token of a customer; x-partner-id may be sent and must then match. */
  customer: preValidationAsyncHookHandler
  /** Bearer token of a customer and the x-partner-id it belongs to. */
  customerOfPartner: preValidationAsyncHookHandler
  admin(...roles: AdminRole[]): preValidationAsyncHookHandler
  /** A partner's own server: x-partner-id and x-partner-secret (the current secret, or the previous one during a rotation's overlap). */
  partner: preValidationAsyncHookHandler
  /**
   * The rate-limit bucket of a request: a valid API key, else the subject of a validly signed
   * token, else the client address. Unverified header values never pick a bucket, so junk keys
   * cannot dodge the limit and forged tokens cannot spend someone else's allowance.
   */
  callerKey(request: FastifyRequest): Promise<string>
  /** Writes the lastUsedAt of API keys used since the last write (batched; the app runs it at close). */
  flushKeyUsage(): Promise<void>
}

export function createGuards(clock: Clock, authenticators: Authenticators): Guards {
  const authenticateApiKey = authenticators.apiKey
  const customerGuard = (partnerHeaderRequired: boolean): preValidationAsyncHookHandler =>
    async function customerGuard(request) {
      const partnerId = headerValue(request, 'x-partner-id')
      if (partnerHeaderRequired && !partnerId) throw new AppError('BAD_REQUEST', 'x-partner-id header is required')
      const token = bearerToken(request)
      if (!token) throw new AppError('UNAUTHORIZED', 'Missing bearer token')
      const identity = await authenticators.customer(token)
      if (!identity) throw new AppError('UNAUTHORIZED', 'Invalid or expired access token')
      if (partnerId && partnerId !== identity.partnerId) {
        throw new AppError('UNAUTHORIZED', 'Access token does not belong to this partner')
      }
      request.customerIdentity = identity
    }

  return {
    async apiKey(request) {
      const key = headerValue(request, 'x-api-key')
      if (!key) throw new AppError('UNAUTHORIZED', 'Missing x-api-key header')
      const identity = key.length <= 200 ? await authenticateApiKey(key) : null
      if (!identity) throw new AppError('UNAUTHORIZED', 'Invalid or inactive API key')
      request.apiKeyIdentity = identity
    },
    async callerKey(request) {
      const key = headerValue(request, 'x-api-key')
      if (key && key.length <= 200) {
        const identity = await authenticateApiKey(key)
        if (identity) return `key:${identity.keyId}`
      }
      const token = bearerToken(request)
      if (token) {
        const now = new Date()
        const claims = (await authenticators.verifyToken(token, 'customer', now)) ?? (await authenticators.verifyToken(token, 'admin', now))
        if (typeof claims?.sub === 'string') return `sub:${claims.sub}`
      }
      return `ip:${request.ip}`
    },
    flushKeyUsage: () => authenticateApiKey.flushUsage(),
    async partner(request) {
      const partnerId = headerValue(request, 'x-partner-id')
      const secret = headerValue(request, 'x-partner-secret')
      // The same answers as POST /auth/customer-token, the other route of partner credentials.
      if (!partnerId) throw new AppError('BAD_REQUEST', 'x-partner-id header is required')
      if (!secret) throw new AppError('UNAUTHORIZED', 'Missing x-partner-secret header')
      if (partnerId.length > 100 || secret.length > 200) throw new AppError('UNAUTHORIZED', 'Invalid partner credentials')
      await authenticators.partnerSecret(partnerId, secret, clock.now())
      request.partnerIdentity = partnerScope(partnerId)
    },
    customer: customerGuard(false),
    customerOfPartner: customerGuard(true),
    admin(...roles) {
      return async function adminGuard(request) {
        const token = bearerToken(request)
        if (!token) throw new AppError('UNAUTHORIZED', 'Missing bearer token')
        const identity = await authenticators.admin(token)
        if (!identity) throw new AppError('UNAUTHORIZED', 'Invalid or expired admin token')
        if (identity.role !== 'ADMIN' && !roles.includes(identity.role)) {
          throw new AppError('FORBIDDEN', 'Your role does not allow this action')
        }
        request.adminIdentity = identity
      }
    },
  }
}

export function apiKeyOf(request: FastifyRequest): ApiKeyIdentity {
  if (!request.apiKeyIdentity) throw new Error('route is missing the apiKey guard')
  return request.apiKeyIdentity
}

export function customerOf(request: FastifyRequest): CustomerIdentity {
  if (!request.customerIdentity) throw new Error('route is missing a customer guard')
  return request.customerIdentity
}

export function partnerOf(request: FastifyRequest): PartnerScope {
  if (!request.partnerIdentity) throw new Error('route is missing the partner guard')
  return request.partnerIdentity
}

export function adminOf(request: FastifyRequest): AdminIdentity {
  if (!request.adminIdentity) throw new Error('route is missing the admin guard')
  return request.adminIdentity
}
