// Queries of the tax module's tables: rate slabs and sellers.
import { and, asc, eq, gt, isNull, lte, or } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { gstRateSlabs, gstSellers } from './schema.sql.ts'

export type RateSlabRow = typeof gstRateSlabs.$inferSelect
export type SellerRow = typeof gstSellers.$inferSelect

export const taxRepo = {
  /** The slabs in force on `day` (YYYY-MM-DD): from <= day < to. */
  slabsInForce(db: Executor, day: string) {
    return db
      .select()
      .from(gstRateSlabs)
      .where(and(lte(gstRateSlabs.effectiveFrom, day), or(isNull(gstRateSlabs.effectiveTo), gt(gstRateSlabs.effectiveTo, day))))
      .orderBy(asc(gstRateSlabs.rateBps), asc(gstRateSlabs.effectiveFrom))
  },
  async findSeller(db: Executor, catalogId: string) {
    const [row] = await db.select().from(gstSellers).where(eq(gstSellers.catalogId, catalogId)).limit(1)
    return row ?? null
  },
  async upsertSeller(db: Executor, row: typeof gstSellers.$inferInsert) {
    const { catalogId: _c, createdAt: _a, ...changes } = row
    const [saved] = await db.insert(gstSellers).values(row).onConflictDoUpdate({ target: gstSellers.catalogId, set: changes }).returning()
    return saved!
  },
}
