// The back office of partners and their API keys: create (the secret and a first key are shown
// once), list, view, update, deactivate, rotate the secret with an overlap, issue and revoke keys.
import type { Db } from '../../db/client.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { AppError } from '../../lib/errors.ts'
import { checkGstin } from '../../lib/gstin.ts'
import { type OptionalPage, pageMeta, wholeOrPage } from '../../lib/pagination.ts'
import { findCatalog } from '../catalog/index.ts'
import { announceRevoked } from '../../lib/revocations.ts'
import { announceRevocations, createApiKey, createPartner, normalizeOrigins, revokeApiKey, rotatePartnerSecret } from './partners.ts'
import { partnerRepo } from './repo.ts'
import type { apiKeys, partners } from './schema.sql.ts'

type PartnerRow = typeof partners.$inferSelect
type ApiKeyRow = typeof apiKeys.$inferSelect

const iso = (d: Date | null) => (d ? d.toISOString() : null)

function partnerView(p: PartnerRow, activeApiKeys: number, now: Date) {
  const overlapLive = p.previousSecretExpiresAt && p.previousSecretExpiresAt > now
  return {
    id: p.id,
    name: p.name,
    isActive: p.isActive,
    returnUrlOrigins: p.returnUrlOrigins,
    webhookUrl: p.webhookUrl,
    ecoGstin: p.ecoGstin,
    activeApiKeys,
    previousSecretExpiresAt: overlapLive ? iso(p.previousSecretExpiresAt) : null,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  }
}

function keyView(k: ApiKeyRow) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.keyPrefix,
    catalogId: k.catalogId,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: iso(k.lastUsedAt),
    revokedAt: iso(k.revokedAt),
  }
}

export class PartnerAdminService {
  readonly #db: Db
  readonly #clock: Deps['clock']
  readonly #config: ServiceDeps<'partnerSecretOverlapSeconds' | 'redisPrefix'>['config']
  readonly #redis: Deps['redis']

  constructor({ database, clock, config, redis }: ServiceDeps<'partnerSecretOverlapSeconds' | 'redisPrefix'>) {
    this.#db = database.db
    this.#clock = clock
    this.#config = config
    this.#redis = redis
  }

  async #partnerOrThrow(partnerId: string) {
    const partner = await partnerRepo.findPartner(this.#db, partnerId)
    if (!partner) throw new AppError('NOT_FOUND', 'Partner not found')
    return partner
  }

  async #view(partnerId: string) {
    const partner = await this.#partnerOrThrow(partnerId)
    const counts = await partnerRepo.activeKeyCounts(this.#db, [partnerId])
    return partnerView(partner, counts.get(partnerId) ?? 0, this.#clock.now())
  }

  async create(input: { name: string; catalogId?: string; returnUrlOrigins?: string[] }) {
    const origins = normalizeOrigins(input.returnUrlOrigins ?? [])
    const created = await createPartner(this.#db, { name: input.name, catalogId: input.catalogId, returnUrlOrigins: origins })
    const key = await partnerRepo.findApiKey(this.#db, created.apiKeyId)
    return { partner: await this.#view(created.partner.id), secret: created.secret, apiKey: { ...keyView(key!), apiKey: created.apiKey } }
  }

  async list(filter: { search?: string; isActive?: boolean }, query: { page: number; limit: number }) {
    const { rows, total } = await partnerRepo.page(this.#db, filter, query.page, query.limit)
    const counts = await partnerRepo.activeKeyCounts(this.#db, rows.map((r) => r.id))
    const now = this.#clock.now()
    return { data: rows.map((r) => partnerView(r, counts.get(r.id) ?? 0, now)), meta: pageMeta(total, query) }
  }

  async detail(partnerId: string) {
    const partner = await this.#view(partnerId)
    return { ...partner, apiKeys: (await partnerRepo.keysOf(this.#db, partnerId)).map(keyView) }
  }

  async update(partnerId: string, changes: { name?: string; returnUrlOrigins?: string[]; isActive?: boolean; ecoGstin?: string | null }) {
    if (Object.values(changes).every((v) => v === undefined)) {
      throw new AppError('BAD_REQUEST', 'Send at least one of name, returnUrlOrigins, isActive, ecoGstin')
    }
    const origins = changes.returnUrlOrigins === undefined ? undefined : normalizeOrigins(changes.returnUrlOrigins)
    const eco = changes.ecoGstin ? checkGstin(changes.ecoGstin, { collector: true }) : null
    if (eco && !eco.valid) throw new AppError('BAD_REQUEST', `ecoGstin ${eco.problem}`)
    await this.#db.transaction(async (tx) => {
      const partner = await partnerRepo.lockPartner(tx, partnerId)
      if (!partner) throw new AppError('NOT_FOUND', 'Partner not found')
      if (changes.name !== undefined) {
        const taken = await partnerRepo.findPartnerByName(tx, changes.name)
        if (taken && taken.id !== partnerId) throw new AppError('CONFLICT', `A partner named ${taken.name} already exists`)
      }
      await partnerRepo.updatePartner(tx, partnerId, {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(origins !== undefined ? { returnUrlOrigins: origins } : {}),
        ...(changes.isActive !== undefined ? { isActive: changes.isActive } : {}),
        ...(changes.ecoGstin !== undefined ? { ecoGstin: eco?.valid ? eco.gstin : null } : {}),
        updatedAt: this.#clock.now(),
      })
    })
    // Keys and customer sessions are remembered for a few seconds: every node forgets the partner's now.
    if (changes.isActive === false) {
      await announceRevocations(this.#redis, this.#config.redisPrefix, (await partnerRepo.keysOf(this.#db, partnerId)).map((k) => k.id))
      await announceRevoked(this.#redis, this.#config.redisPrefix, 'partner', [partnerId])
    }
    return this.#view(partnerId)
  }

  async rotateSecret(partnerId: string) {
    const rotated = await rotatePartnerSecret(this.#db, partnerId, this.#clock.now(), this.#config.partnerSecretOverlapSeconds * 1000)
    return { partnerId, secret: rotated.secret, previousSecretExpiresAt: iso(rotated.previousSecretExpiresAt) }
  }

  async keys(partnerId: string, asked: OptionalPage) {
    await this.#partnerOrThrow(partnerId)
    const { data, meta } = await wholeOrPage(
      asked,
      (window) => partnerRepo.keysOf(this.#db, partnerId, window),
      () => partnerRepo.keyCount(this.#db, partnerId),
    )
    return { data: data.map(keyView), meta }
  }

  async createKey(partnerId: string, input: { catalogId?: string; name?: string }) {
    await this.#partnerOrThrow(partnerId)
    let catalogId = input.catalogId
    if (catalogId === undefined) {
      // The catalog of the partner's newest active key, as the partner sells today.
      const active = (await partnerRepo.keysOf(this.#db, partnerId)).find((k) => k.revokedAt === null)
      if (!active) throw new AppError('BAD_REQUEST', 'catalogId should not be empty (the partner has no active key to take it from)')
      catalogId = active.catalogId
    } else if (!(await findCatalog(this.#db, catalogId))) throw new AppError('NOT_FOUND', `Catalog ${catalogId} not found`)
    const issued = await createApiKey(this.#db, partnerId, catalogId, input.name ?? 'default')
    const row = await partnerRepo.findApiKey(this.#db, issued.id)
    return { ...keyView(row!), apiKey: issued.apiKey }
  }

  async revokeKey(partnerId: string, keyId: string) {
    const key = await partnerRepo.findApiKey(this.#db, keyId)
    if (!key || key.partnerId !== partnerId) throw new AppError('NOT_FOUND', 'API key not found')
    await revokeApiKey(this.#db, this.#clock, keyId)
    await announceRevocations(this.#redis, this.#config.redisPrefix, [keyId])
    return keyView((await partnerRepo.findApiKey(this.#db, keyId))!)
  }
}

