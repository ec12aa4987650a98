// Partners (integrations), their secrets and their API keys. Secrets and keys are random 256-bit
// values shown once and stored as SHA-256 hashes.
import type { Redis } from 'ioredis'
import { type SQL, sql, type SQLWrapper } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import type { Clock } from '../../lib/clock.ts'
import { AppError } from '../../lib/errors.ts'
import { safeEqual, sha256, sha256Memo } from '../../lib/hashing.ts'
import { newId, newSecret } from '../../lib/ids.ts'
import { announceRevoked, forgetRevoked, onRevoked } from '../../lib/revocations.ts'
import { createCatalog, findCatalog, findDefaultCatalog } from '../catalog/index.ts'
import { partnerRepo } from './repo.ts'
import { partners } from './schema.sql.ts'

export interface ApiKeyIdentity {
  keyId: string
  partnerId: string
  catalogId: string
}

export interface IssuedApiKey {
  id: string
  apiKey: string
  catalogId: string
}

export async function createApiKey(db: Executor, partnerId: string, catalogId: string, name = 'default'): Promise<IssuedApiKey> {
  if (!(await partnerRepo.findPartner(db, partnerId))) throw new AppError('NOT_FOUND', 'Partner not found')
  if (!(await findCatalog(db, catalogId))) throw new AppError('NOT_FOUND', 'Catalog not found')
  const apiKey = newSecret('ck')
  const row = await partnerRepo.insertApiKey(db, {
    id: newId('key'),
    partnerId,
    catalogId,
    name,
    keyHash: sha256(apiKey),
    keyPrefix: apiKey.slice(0, 10),
  })
  return { id: row.id, apiKey, catalogId }
}

/**
 * A partner with its secret and a first API key. Without a catalog it sells the merchant's main
 * (oldest) catalog, created empty if the database has none yet.
 */
export async function createPartner(db: Executor, input: { name: string; catalogId?: string; returnUrlOrigins?: string[] }) {
  return db.transaction(async (tx) => {
    await assertNameFree(tx, input.name)
    const catalog = input.catalogId
      ? await findCatalog(tx, input.catalogId)
      : ((await findDefaultCatalog(tx)) ?? (await createCatalog(tx, 'Main catalog')))
    if (!catalog) throw new AppError('NOT_FOUND', 'Catalog not found')
    const secret = newSecret('psk')
    const partner = await partnerRepo.insertPartner(tx, { id: newId('prt'), name: input.name, secretHash: sha256(secret), returnUrlOrigins: normalizeOrigins(input.returnUrlOrigins ?? []) })
    const key = await createApiKey(tx, partner.id, catalog.id)
    return { partner: { id: partner.id, name: partner.name }, secret, apiKey: key.apiKey, apiKeyId: key.id, catalogId: catalog.id }
  })
}

/** Partner names are unique, whatever their case (a unique index holds it under races too). */
async function assertNameFree(db: Executor, name: string, exceptId?: string) {
  const taken = await partnerRepo.findPartnerByName(db, name)
  if (taken && taken.id !== exceptId) throw new AppError('CONFLICT', `A partner named ${taken.name} already exists`)
}

/** Revokes a key (409 if it already was); authenticators in this process forget it at once. */
export async function revokeApiKey(db: Executor, clock: Clock, keyId: string): Promise<void> {
  if (!(await partnerRepo.findApiKey(db, keyId))) throw new AppError('NOT_FOUND', 'API key not found')
  const revoked = await partnerRepo.revokeApiKey(db, keyId, clock.now())
  if (!revoked) throw new AppError('CONFLICT', 'API key is already revoked')
  forgetRevoked('api-key', [keyId])
}

/** Authenticators in this process forget these keys (their partner was deactivated). */
export const forgetApiKeys = (keyIds: string[]) => forgetRevoked('api-key', keyIds)

/**
 * Every node forgets these keys now (lib/revocations.ts): this process at once, the others through
 * Redis pub/sub. Revoked keys and deactivated partners are refused by the database read that follows either way.
 */
export const announceRevocations = (redis: Redis | null, prefix: string, keyIds: string[]) => announceRevoked(redis, prefix, 'api-key', keyIds)

/**
 * API-key lookups are on every catalog read, the hottest path: valid keys are remembered for a few
 * seconds. A revocation in this process applies at once; one made by another process (the CLI, or
 * another node) within API_KEY_CACHE_MS.
 */
export const API_KEY_CACHE_MS = 5000
/** How often the keys used since the last write get their `lastUsedAt` (one UPDATE for all of them). */
export const KEY_USAGE_FLUSH_MS = 60_000

export interface ApiKeyAuthenticator {
  (rawKey: string): Promise<ApiKeyIdentity | null>
  /** Writes the `lastUsedAt` of the keys used since the last flush (also run every KEY_USAGE_FLUSH_MS). */
  flushUsage(): Promise<void>
}

export function createApiKeyAuthenticator(db: Executor, clock: Clock, maxEntries = 10_000): ApiKeyAuthenticator {
  const cache = new Map<string, { identity: ApiKeyIdentity; at: number }>()
  onRevoked('api-key', (keyId: string) => {
    for (const [hash, entry] of cache) if (entry.identity.keyId === keyId) cache.delete(hash)
  })
  // Use is noted in memory on the request path and written in batches: a key's lastUsedAt is at
  // most KEY_USAGE_FLUSH_MS old, and a catalog read never waits for a write.
  let used = new Set<string>()
  let timer: NodeJS.Timeout | null = null
  const noteUse = (keyId: string) => {
    used.add(keyId)
    if (!timer) {
      timer = setTimeout(() => void authenticate.flushUsage().catch(() => undefined), KEY_USAGE_FLUSH_MS)
      timer.unref()
    }
  }
  const authenticate = (async (rawKey: string): Promise<ApiKeyIdentity | null> => {
    const identity = await lookup(rawKey)
    if (identity) noteUse(identity.keyId)
    return identity
  }) as ApiKeyAuthenticator
  authenticate.flushUsage = async () => {
    if (timer) clearTimeout(timer)
    timer = null
    const ids = [...used]
    used = new Set()
    await partnerRepo.touchKeys(db, ids, clock.now())
  }
  const lookup = async (rawKey: string): Promise<ApiKeyIdentity | null> => {
    const hash = sha256Memo(rawKey)
    const hit = cache.get(hash)
    if (hit && Date.now() - hit.at < API_KEY_CACHE_MS) return hit.identity
    const row = await partnerRepo.findActiveKeyByHash(db, hash)
    if (!row) {
      cache.delete(hash)
      return null
    }
    if (cache.size >= maxEntries) cache.clear()
    const identity = { keyId: row.id, partnerId: row.partnerId, catalogId: row.catalogId }
    cache.set(hash, { identity, at: Date.now() })
    return identity
  }
  return authenticate
}

/**
 * Server-to-server partner authentication (x-partner-id + x-partner-secret): the current secret,
 * or the one before it while the rotation's overlap lasts.
 */
export async function verifyPartnerSecret(db: Executor, partnerId: string, secret: string, now: Date) {
  const partner = await partnerRepo.findPartner(db, partnerId)
  const hash = sha256(secret)
  const current = partner ? safeEqual(partner.secretHash, hash) : false
  const previous =
    partner?.previousSecretHash && partner.previousSecretExpiresAt && partner.previousSecretExpiresAt > now ? safeEqual(partner.previousSecretHash, hash) : false
  if (!partner || !partner.isActive || !(current || previous)) {
    throw new AppError('UNAUTHORIZED', 'Invalid partner credentials')
  }
  return partner
}

export async function isActivePartner(db: Executor, partnerId: string): Promise<boolean> {
  const partner = await partnerRepo.findPartner(db, partnerId)
  return partner?.isActive === true
}

/**
 * Issues a new secret. The old one stays valid for `overlapMs` (so a partner can deploy the new one
 * without downtime); 0 ends it at once. A rotation inside an overlap ends the older secret at once.
 */
export async function rotatePartnerSecret(db: Executor, partnerId: string, now: Date, overlapMs: number): Promise<{ secret: string; previousSecretExpiresAt: Date | null }> {
  const partner = await partnerRepo.findPartner(db, partnerId)
  if (!partner) throw new AppError('NOT_FOUND', 'Partner not found')
  const secret = newSecret('psk')
  const previousSecretExpiresAt = overlapMs > 0 ? new Date(now.getTime() + overlapMs) : null
  await partnerRepo.updatePartner(db, partnerId, {
    secretHash: sha256(secret),
    previousSecretHash: previousSecretExpiresAt ? partner.secretHash : null,
    previousSecretExpiresAt,
    updatedAt: now,
  })
  return { secret, previousSecretExpiresAt }
}

export const findPartnerByName = (db: Executor, name: string) => partnerRepo.findPartnerByName(db, name)

export const findPartner = (db: Executor, id: string) => partnerRepo.findPartner(db, id)

/** The catalogs a partner may sell from: those named by its active API keys. */
export const activeCatalogIds = (db: Executor, partnerId: string) => partnerRepo.activeCatalogIds(db, partnerId)
/** The same, as a subquery for `inArray` (saves a round trip on hot paths). */
export const activeCatalogIdsQuery = (db: Executor, partnerId: string) => partnerRepo.activeCatalogIdsQuery(db, partnerId)

/** The partner's GSTIN as an e-commerce operator, when its app collects the payment (GSTR-1 Table 14); null otherwise. */
export async function ecoGstinOf(db: Executor, partnerId: string): Promise<string | null> {
  return (await partnerRepo.findPartner(db, partnerId))?.ecoGstin ?? null
}

/** Origins the partner registered for payment return URLs (empty: any absolute URL is accepted). */
export async function partnerReturnOrigins(db: Executor, partnerId: string): Promise<string[]> {
  return (await partnerRepo.findPartner(db, partnerId))?.returnUrlOrigins ?? []
}

/** Origins normalised to `scheme://host[:port]`; anything that is not an http(s) URL is a 400. */
export function normalizeOrigins(origins: string[]): string[] {
  return [
    ...new Set(
      origins.map((o) => {
        const url = URL.canParse(o) ? new URL(o) : null
        if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new AppError('BAD_REQUEST', `${o} is not an http(s) origin`)
        return url.origin
      }),
    ),
  ]
}

/** Registers the origins a partner's payment return URLs may use (normalised to `scheme://host[:port]`). */
export async function setPartnerReturnOrigins(db: Executor, partnerId: string, origins: string[]): Promise<string[]> {
  const normalized = normalizeOrigins(origins)
  if (!(await partnerRepo.findPartner(db, partnerId))) throw new AppError('NOT_FOUND', 'Partner not found')
  await partnerRepo.updatePartner(db, partnerId, { returnUrlOrigins: normalized, updatedAt: new Date() })
  return normalized
}

export interface PartnerWebhook {
  partnerId: string
  url: string | null
  secretEncrypted: string | null
  /** After a rotation, the previous signing secret: deliveries carry its signature too until it expires. */
  previousSecretEncrypted: string | null
  previousSecretExpiresAt: Date | null
}

export async function partnerWebhooks(db: Executor, partnerIds: string[]): Promise<Map<string, PartnerWebhook>> {
  const rows = await partnerRepo.webhooks(db, partnerIds)
  return new Map(rows.map((r) => [r.partnerId, r]))
}

export async function setPartnerWebhook(
  db: Executor,
  partnerId: string,
  changes: { url?: string | null; secretEncrypted?: string | null; previous?: { secretEncrypted: string | null; expiresAt: Date | null } },
) {
  if (!(await partnerRepo.findPartner(db, partnerId))) throw new AppError('NOT_FOUND', 'Partner not found')
  await partnerRepo.updatePartner(db, partnerId, {
    ...(changes.url !== undefined ? { webhookUrl: changes.url } : {}),
    ...(changes.secretEncrypted !== undefined ? { webhookSecretEncrypted: changes.secretEncrypted } : {}),
    ...(changes.previous !== undefined ? { previousWebhookSecretEncrypted: changes.previous.secretEncrypted, previousWebhookSecretExpiresAt: changes.previous.expiresAt } : {}),
    updatedAt: new Date(),
  })
  return (await partnerWebhooks(db, [partnerId])).get(partnerId)!
}


/** SQL: is the partner whose id is `partnerId` (a column of the caller's query) active? For a selection, not a join. */
/** SQL: has the partner whose id is `partnerId` (a column of the caller's query) a webhook URL? For the outbox's claim. */
export const partnerHasWebhook = (partnerId: SQLWrapper): SQL<boolean> =>
  sql<boolean>`exists (select 1 from ${partners} where ${partners.id} = ${partnerId} and ${partners.webhookUrl} is not null)`

/** True once any partner exists (the server seeds demo data into an empty embedded database only). */
export async function anyPartnerExists(db: Executor): Promise<boolean> {
  const [row] = await db.select({ id: partners.id }).from(partners).limit(1)
  return row !== undefined
}

export const partnerIsActive = (partnerId: SQLWrapper): SQL<boolean> => sql<boolean>`(select ${partners.isActive} from ${partners} where ${partners.id} = ${partnerId})`
