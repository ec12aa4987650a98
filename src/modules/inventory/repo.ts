// The inventory module's data access: locations, levels, the moves ledger and orders' allocations.
import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm'
import { type Executor, queryRows } from '../../db/client.ts'
import { inventoryAllocations, inventoryLevels, inventoryMoves, locations, type MoveKind } from './schema.sql.ts'

export type LocationRow = typeof locations.$inferSelect

export const inventoryRepo = {
  async locationsOf(db: Executor, catalogId: string, onlyActive = false): Promise<LocationRow[]> {
    const where = onlyActive ? and(eq(locations.catalogId, catalogId), eq(locations.isActive, true)) : eq(locations.catalogId, catalogId)
    return db.select().from(locations).where(where).orderBy(asc(locations.position), asc(locations.createdAt), asc(locations.id))
  },
  async hasLocations(db: Executor, catalogId: string): Promise<boolean> {
    const rows = await queryRows<{ one: number }>(db, sql`select 1 as one from ${locations} where ${locations.catalogId} = ${catalogId} limit 1`)
    return rows.length > 0
  },
  async findLocation(db: Executor, id: string, forUpdate = false): Promise<LocationRow | null> {
    const query = db.select().from(locations).where(eq(locations.id, id))
    const [row] = forUpdate ? await query.for('update') : await query
    return row ?? null
  },
  async insertLocation(db: Executor, row: typeof locations.$inferInsert) {
    const [created] = await db.insert(locations).values(row).returning()
    return created!
  },
  async updateLocation(db: Executor, id: string, changes: Partial<typeof locations.$inferInsert>) {
    const [row] = await db.update(locations).set(changes).where(eq(locations.id, id)).returning()
    return row!
  },
  async levelOf(db: Executor, locationId: string, variantId: string): Promise<number> {
    const [row] = await db.select({ onHand: inventoryLevels.onHand }).from(inventoryLevels).where(and(eq(inventoryLevels.locationId, locationId), eq(inventoryLevels.variantId, variantId)))
    return row?.onHand ?? 0
  },
  /** Units a location holds, all variants together. */
  async unitsAt(db: Executor, locationId: string): Promise<number> {
    const [row] = await queryRows<{ n: number }>(db, sql`select coalesce(sum(${inventoryLevels.onHand}), 0)::int as n from ${inventoryLevels} where ${inventoryLevels.locationId} = ${locationId}`)
    return row?.n ?? 0
  },
  /**
   * Moves a level by `delta` (creating it at zero first), unless it would go below zero: its new
   * units, or null when short.
   */
  async moveLevel(db: Executor, level: { locationId: string; productId: string; variantId: string }, delta: number, at: Date): Promise<number | null> {
    // Units taken: the level must exist and hold them. Units given: the level is made if need be.
    const rows =
      delta < 0
        ? await queryRows<{ onHand: number }>(db, sql`
            update ${inventoryLevels} set on_hand = on_hand + ${delta}, updated_at = ${at.toISOString()}::timestamptz
            where location_id = ${level.locationId} and variant_id = ${level.variantId} and on_hand + ${delta} >= 0
            returning on_hand as "onHand"`)
        : await queryRows<{ onHand: number }>(db, sql`
            insert into ${inventoryLevels} (location_id, product_id, variant_id, on_hand, updated_at)
            values (${level.locationId}, ${level.productId}, ${level.variantId}, ${delta}, ${at.toISOString()}::timestamptz)
            on conflict (location_id, variant_id) do update set on_hand = ${inventoryLevels.onHand} + ${delta}, updated_at = excluded.updated_at
            returning on_hand as "onHand"`)
    return rows[0]?.onHand ?? null
  },
  /** The levels of these variants at the catalog's active locations (allocation's candidates), for an order locked in a fixed order. */
  async levelsForAllocation(db: Executor, catalogId: string, variantIds: string[], lock: boolean) {
    return queryRows<{ locationId: string; variantId: string; onHand: number }>(db, sql`
      select l.location_id as "locationId", l.variant_id as "variantId", l.on_hand as "onHand"
      from ${inventoryLevels} l join ${locations} loc on loc.id = l.location_id
      where loc.catalog_id = ${catalogId} and loc.is_active and l.variant_id = any(${sql.param(variantIds)}::text[]) and l.on_hand > 0
      order by l.location_id, l.variant_id
      ${lock ? sql`for update of l` : sql``}`)
  },
  async insertMoves(db: Executor, rows: (typeof inventoryMoves.$inferInsert)[]) {
    if (rows.length > 0) await db.insert(inventoryMoves).values(rows)
  },
  async addAllocation(db: Executor, row: { orderId: string; locationId: string; productId: string; variantId: string; quantity: number }) {
    await db
      .insert(inventoryAllocations)
      .values(row)
      .onConflictDoUpdate({ target: [inventoryAllocations.orderId, inventoryAllocations.variantId, inventoryAllocations.locationId], set: { quantity: sql`${inventoryAllocations.quantity} + ${row.quantity}` } })
  },
  /** An order's allocations of a variant still held, locked, the most recent location first. */
  async allocationsOf(db: Executor, orderId: string, variantId?: string) {
    const where = variantId ? and(eq(inventoryAllocations.orderId, orderId), eq(inventoryAllocations.variantId, variantId)) : eq(inventoryAllocations.orderId, orderId)
    return db.select().from(inventoryAllocations).where(and(where, sql`${inventoryAllocations.quantity} > 0`)).orderBy(asc(inventoryAllocations.locationId)).for('update')
  },
  /** An order's units held for it at each location (allocations not given back), with the location, by the locations' order. */
  async heldForOrder(db: Executor, orderId: string) {
    return db
      .select({ location: locations, variantId: inventoryAllocations.variantId, quantity: inventoryAllocations.quantity })
      .from(inventoryAllocations)
      .innerJoin(locations, eq(locations.id, inventoryAllocations.locationId))
      .where(and(eq(inventoryAllocations.orderId, orderId), sql`${inventoryAllocations.quantity} > 0`))
      .orderBy(asc(locations.position), asc(locations.createdAt), asc(locations.id), asc(inventoryAllocations.variantId))
  },
  async takeFromAllocation(db: Executor, row: { orderId: string; locationId: string; variantId: string }, quantity: number) {
    await db
      .update(inventoryAllocations)
      .set({ quantity: sql`${inventoryAllocations.quantity} - ${quantity}` })
      .where(and(eq(inventoryAllocations.orderId, row.orderId), eq(inventoryAllocations.locationId, row.locationId), eq(inventoryAllocations.variantId, row.variantId)))
  },
  async levelsPage(db: Executor, locationId: string, page: { limit: number; offset: number }) {
    const where = and(eq(inventoryLevels.locationId, locationId), sql`${inventoryLevels.onHand} > 0`)
    const [rows, [total]] = await Promise.all([
      db.select().from(inventoryLevels).where(where).orderBy(asc(inventoryLevels.productId), asc(inventoryLevels.variantId)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(inventoryLevels).where(where),
    ])
    return { rows, total: total?.n ?? 0 }
  },
  async movesPage(db: Executor, catalogId: string, filter: { locationId?: string; productId?: string; variantId?: string; kind?: MoveKind }, page: { limit: number; offset: number }) {
    const conditions: SQL[] = [eq(inventoryMoves.catalogId, catalogId)]
    if (filter.locationId) conditions.push(eq(inventoryMoves.locationId, filter.locationId))
    if (filter.productId) conditions.push(eq(inventoryMoves.productId, filter.productId))
    if (filter.variantId) conditions.push(eq(inventoryMoves.variantId, filter.variantId))
    if (filter.kind) conditions.push(eq(inventoryMoves.kind, filter.kind))
    const where = and(...conditions)
    const [rows, [total]] = await Promise.all([
      db.select().from(inventoryMoves).where(where).orderBy(desc(inventoryMoves.seq)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(inventoryMoves).where(where),
    ])
    return { rows, total: total?.n ?? 0 }
  },
  /** Levels whose units are not the sum of their moves (the ledger's invariant; the ops check). */
  async levelsOffTheirLedger(db: Executor, catalogId: string) {
    return queryRows<{ locationId: string; variantId: string; onHand: number; ledger: number }>(db, sql`
      select l.location_id as "locationId", l.variant_id as "variantId", l.on_hand as "onHand", coalesce(m.total, 0)::int as ledger
      from ${inventoryLevels} l join ${locations} loc on loc.id = l.location_id
      left join (select location_id, variant_id, sum(quantity) as total from ${inventoryMoves} group by location_id, variant_id) m
        on m.location_id = l.location_id and m.variant_id = l.variant_id
      where loc.catalog_id = ${catalogId} and l.on_hand <> coalesce(m.total, 0)`)
  },
}
