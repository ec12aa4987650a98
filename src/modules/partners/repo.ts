import { and, asc, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm'
import { containing } from '../../db/like.ts'
import type { Executor } from '../../db/client.ts'
import { apiKeys, partners } from './schema.sql.ts'

export const partnerRepo = {
  async insertPartner(db: Executor, row: typeof partners.$inferInsert) {
    const [created] = await db.insert(partners).values(row).returning()
    return created!
  },
  async findPartner(db: Executor, id: string) {
    const [row] = await db.select().from(partners).where(eq(partners.id, id)).limit(1)
    return row ?? null
  },
  /** By name, whatever its case (names are unique that way). */
  async findPartnerByName(db: Executor, name: string) {
    const [row] = await db.select().from(partners).where(sql`lower(${partners.name}) = lower(${name})`).orderBy(asc(partners.createdAt)).limit(1)
    return row ?? null
  },
  async lockPartner(db: Executor, id: string) {
    const [row] = await db.select().from(partners).where(eq(partners.id, id)).for('update')
    return row ?? null
  },
  async updatePartner(db: Executor, id: string, changes: Partial<typeof partners.$inferInsert>) {
    await db.update(partners).set(changes).where(eq(partners.id, id))
  },
  webhooks(db: Executor, ids: string[]) {
    if (ids.length === 0) return Promise.resolve([])
    return db
      .select({
        partnerId: partners.id,
        url: partners.webhookUrl,
        secretEncrypted: partners.webhookSecretEncrypted,
        previousSecretEncrypted: partners.previousWebhookSecretEncrypted,
        previousSecretExpiresAt: partners.previousWebhookSecretExpiresAt,
      })
      .from(partners)
      .where(inArray(partners.id, ids))
  },
  async insertApiKey(db: Executor, row: typeof apiKeys.$inferInsert) {
    const [created] = await db.insert(apiKeys).values(row).returning()
    return created!
  },
  /** The key with this hash if it is active and its partner is active. */
  async findActiveKeyByHash(db: Executor, keyHash: string) {
    const [row] = await db
      .select({ id: apiKeys.id, partnerId: apiKeys.partnerId, catalogId: apiKeys.catalogId })
      .from(apiKeys)
      .innerJoin(partners, eq(partners.id, apiKeys.partnerId))
      .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt), eq(partners.isActive, true)))
      .limit(1)
    return row ?? null
  },
  async revokeApiKey(db: Executor, keyId: string, at: Date) {
    const rows = await db
      .update(apiKeys)
      .set({ revokedAt: at })
      .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id })
    return rows.length > 0
  },
  /** The same set as a subquery, to filter by in one round trip. */
  activeCatalogIdsQuery(db: Executor, partnerId: string) {
    return db.selectDistinct({ catalogId: apiKeys.catalogId }).from(apiKeys).where(and(eq(apiKeys.partnerId, partnerId), isNull(apiKeys.revokedAt)))
  },
  async activeCatalogIds(db: Executor, partnerId: string): Promise<string[]> {
    const rows = await db
      .selectDistinct({ catalogId: apiKeys.catalogId })
      .from(apiKeys)
      .where(and(eq(apiKeys.partnerId, partnerId), isNull(apiKeys.revokedAt)))
    return rows.map((r) => r.catalogId)
  },
  async page(db: Executor, filter: { search?: string; isActive?: boolean }, page: number, limit: number) {
    const c: SQL[] = []
    if (filter.search) {
      const like = containing(filter.search)
      c.push(or(ilike(partners.name, like), eq(partners.id, filter.search))!)
    }
    if (filter.isActive !== undefined) c.push(eq(partners.isActive, filter.isActive))
    const where = c.length ? and(...c) : undefined
    const [rows, totals] = await Promise.all([
      db.select().from(partners).where(where).orderBy(desc(partners.createdAt), desc(partners.id)).limit(limit).offset((page - 1) * limit),
      db.select({ n: count() }).from(partners).where(where),
    ])
    return { rows, total: totals[0]?.n ?? 0 }
  },
  keysOf(db: Executor, partnerId: string, window = { limit: Number.MAX_SAFE_INTEGER, offset: 0 }) {
    return db.select().from(apiKeys).where(eq(apiKeys.partnerId, partnerId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(window.limit).offset(window.offset)
  },
  async keyCount(db: Executor, partnerId: string) {
    return (await db.select({ n: count() }).from(apiKeys).where(eq(apiKeys.partnerId, partnerId)))[0]!.n
  },
  /** Active key counts of these partners. */
  async activeKeyCounts(db: Executor, partnerIds: string[]): Promise<Map<string, number>> {
    if (partnerIds.length === 0) return new Map()
    const rows = await db
      .select({ partnerId: apiKeys.partnerId, n: count() })
      .from(apiKeys)
      .where(and(inArray(apiKeys.partnerId, partnerIds), isNull(apiKeys.revokedAt)))
      .groupBy(apiKeys.partnerId)
    return new Map(rows.map((r) => [r.partnerId, r.n]))
  },
  /** Marks keys used at `at` (batched by the authenticator; never earlier than what is stored). */
  async touchKeys(db: Executor, keyIds: string[], at: Date) {
    if (keyIds.length === 0) return
    await db
      .update(apiKeys)
      .set({ lastUsedAt: at })
      .where(and(inArray(apiKeys.id, keyIds), sql`(${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < ${at.toISOString()})`))
  },
  async findApiKey(db: Executor, keyId: string) {
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).limit(1)
    return row ?? null
  },
}
