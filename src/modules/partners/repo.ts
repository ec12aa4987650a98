import { and, asc, eq, inArray, isNull } from 'drizzle-orm'
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
  async findPartnerByName(db: Executor, name: string) {
    const [row] = await db.select().from(partners).where(eq(partners.name, name)).orderBy(asc(partners.createdAt)).limit(1)
    return row ?? null
  },
  async updatePartner(db: Executor, id: string, changes: Partial<typeof partners.$inferInsert>) {
    await db.update(partners).set(changes).where(eq(partners.id, id))
  },
  webhooks(db: Executor, ids: string[]) {
    if (ids.length === 0) return Promise.resolve([])
    return db
      .select({ partnerId: partners.id, url: partners.webhookUrl, secretEncrypted: partners.webhookSecretEncrypted })
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
  async findApiKey(db: Executor, keyId: string) {
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).limit(1)
    return row ?? null
  },
}
