// Customer sessions: the partner's server exchanges its secret and a verified phone for a token
// pair. A session is one refresh-token family; each refresh rotates the token, and presenting a
// used token again (a sign that it leaked) revokes the whole family.
import { randomBytes } from 'node:crypto'
import type { Db, Executor } from '../../db/client.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { AppError } from '../../lib/errors.ts'
import { sha256 } from '../../lib/hashing.ts'
import { newId } from '../../lib/ids.ts'
import { type CustomerScope, customerScope } from '../../lib/scope.ts'
import { normalizeIndianMobile } from '../../lib/phone.ts'
import { announceRevoked, onRevoked } from '../../lib/revocations.ts'
import { type Customer, findCustomer, findOrCreateCustomer, toUser } from '../customers/index.ts'
import { recordEvent } from '../events/index.ts'
import { verifyPartnerSecret } from '../partners/index.ts'
import { authRepo } from './repo.ts'
import { createTokenSigner, type TokenSigner } from './tokens.ts'

/** A verified customer: its scope (the only way to list a customer's rows) and its session. */
export interface CustomerIdentity extends CustomerScope {
  sessionId: string
}

const INVALID_REFRESH = 'Invalid or expired refresh token'
export const CUSTOMER_BLOCKED = 'This customer is blocked: contact the merchant'

/**
 * How long a session found live is taken as live without asking the database (as API keys are:
 * partners' API_KEY_CACHE_MS). A revocation, a block or a deactivation is forgotten at once on every
 * node (lib/revocations.ts); only while Redis is down may another node take it as live this long.
 */
export const SESSION_CACHE_MS = 5000
const SESSION_CACHE_ENTRIES = 50_000

export class AuthService {
  readonly signer: TokenSigner
  readonly #db: Db
  readonly #clock: Deps['clock']
  readonly #config: ServiceDeps<'accessTokenTtlSeconds' | 'authSecret' | 'refreshTokenTtlSeconds' | 'redisPrefix'>['config']
  readonly #redis: Deps['redis']
  readonly #sessions = new Map<string, { userId: string; partnerId: string; at: number }>()

  constructor({ database, clock, config, redis }: ServiceDeps<'accessTokenTtlSeconds' | 'authSecret' | 'refreshTokenTtlSeconds' | 'redisPrefix'>) {
    this.#db = database.db
    this.#clock = clock
    this.#config = config
    this.#redis = redis
    this.signer = createTokenSigner(config.authSecret)
    // A revoked session, a blocked customer or a deactivated partner is forgotten at once, on every node.
    onRevoked('session', (id) => this.#sessions.delete(id))
    onRevoked('customer', (userId) => this.#forgetWhere((s) => s.userId === userId))
    onRevoked('partner', (partnerId) => this.#forgetWhere((s) => s.partnerId === partnerId))
  }

  #forgetWhere(matches: (s: { userId: string; partnerId: string }) => boolean) {
    for (const [id, s] of this.#sessions) if (matches(s)) this.#sessions.delete(id)
  }

  /** The session revoked in the database and forgotten by every node. */
  async #revokeSession(sessionId: string, at: Date, reason: string) {
    await authRepo.revokeSession(this.#db, sessionId, at, reason)
    await announceRevoked(this.#redis, this.#config.redisPrefix, 'session', [sessionId])
  }

  async #issuePair(tx: Executor, user: Customer, sessionId: string) {
    const now = this.#clock.now()
    const refreshToken = `rt_${randomBytes(32).toString('base64url')}`
    await authRepo.insertRefreshToken(tx, {
      id: newId('rtk'),
      sessionId,
      tokenHash: sha256(refreshToken),
      expiresAt: new Date(now.getTime() + this.#config.refreshTokenTtlSeconds * 1000),
      createdAt: now,
    })
    const accessToken = await this.signer.sign(
      { pid: user.partnerId, sid: sessionId },
      user.id,
      'customer',
      this.#config.accessTokenTtlSeconds,
      now,
    )
    return {
      accessToken,
      tokenType: 'Bearer' as const,
      expiresIn: this.#config.accessTokenTtlSeconds,
      refreshToken,
      user: toUser(user),
    }
  }

  async issueCustomerToken(partnerId: string, partnerSecret: string, input: { phone: string; name?: string; email?: string }) {
    await verifyPartnerSecret(this.#db, partnerId, partnerSecret, this.#clock.now())
    const phone = normalizeIndianMobile(input.phone)
    if (!phone) throw new AppError('BAD_REQUEST', 'phone must be a valid Indian mobile number')
    return this.#db.transaction(async (tx) => {
      const { customer: user, created } = await findOrCreateCustomer(tx, this.#clock, { partnerId, phone, name: input.name, email: input.email })
      if (user.blockedAt) throw new AppError('FORBIDDEN', CUSTOMER_BLOCKED)
      if (created) {
        await recordEvent(tx, { partnerId, type: 'customer.created', subjectId: user.id, data: { customerId: user.id, customer: toUser(user) }, at: this.#clock.now() })
      }
      const sessionId = newId('ses')
      await authRepo.insertSession(tx, { id: sessionId, userId: user.id, partnerId, createdAt: this.#clock.now() })
      return this.#issuePair(tx, user, sessionId)
    })
  }

  async refresh(refreshToken: string) {
    const now = this.#clock.now()
    const found = await authRepo.findRefreshToken(this.#db, sha256(refreshToken))
    if (!found || !found.partnerActive || found.session.revokedAt || found.token.expiresAt <= now) {
      throw new AppError('UNAUTHORIZED', INVALID_REFRESH)
    }
    if (found.userBlocked) throw new AppError('FORBIDDEN', CUSTOMER_BLOCKED)
    if (found.token.usedAt) {
      await this.#revokeSession(found.session.id, now, 'refresh token reused')
      throw new AppError('UNAUTHORIZED', INVALID_REFRESH)
    }
    const result = await this.#db.transaction(async (tx) => {
      if (!(await authRepo.markUsed(tx, found.token.id, now))) return null
      const user = await findCustomer(tx, found.session.userId)
      if (!user) return null
      return this.#issuePair(tx, user, found.session.id)
    })
    if (!result) {
      // Lost a race with another refresh of the same token: that is reuse too.
      await this.#revokeSession(found.session.id, now, 'refresh token reused')
      throw new AppError('UNAUTHORIZED', INVALID_REFRESH)
    }
    return result
  }

  /** Revokes the session of this refresh token. Unknown tokens succeed too: logout is idempotent. */
  async logout(refreshToken: string) {
    const found = await authRepo.findRefreshToken(this.#db, sha256(refreshToken))
    if (found) await this.#revokeSession(found.session.id, this.#clock.now(), 'logout')
  }

  /**
   * The customer behind a bearer token, or null if it is forged, expired or its session revoked;
   * a blocked customer's valid token is a 403 (the session and token stay, and work again once
   * the back office unblocks the customer).
   */
  async authenticateCustomer(accessToken: string): Promise<CustomerIdentity | null> {
    const claims = await this.signer.verify(accessToken, 'customer', this.#clock.now())
    if (!claims || typeof claims.sub !== 'string' || typeof claims.pid !== 'string' || typeof claims.sid !== 'string' || !claims.sub || !claims.pid) {
      return null
    }
    const identity = { ...customerScope(claims.pid, claims.sub), sessionId: claims.sid }
    // A session found live a moment ago is taken as live (SESSION_CACHE_MS; revocations, blocks and
    // deactivations are forgotten at once): one query less on every customer request.
    const known = this.#sessions.get(claims.sid)
    if (known && Date.now() - known.at < SESSION_CACHE_MS) return known.userId === claims.sub && known.partnerId === claims.pid ? identity : null
    const found = await authRepo.findSession(this.#db, claims.sid)
    if (!found || !found.partnerActive || found.session.revokedAt || found.session.userId !== claims.sub) return null
    if (found.userBlocked) throw new AppError('FORBIDDEN', CUSTOMER_BLOCKED)
    if (this.#sessions.size >= SESSION_CACHE_ENTRIES) this.#sessions.clear()
    this.#sessions.set(claims.sid, { userId: found.session.userId, partnerId: found.session.partnerId, at: Date.now() })
    return identity
  }
}

