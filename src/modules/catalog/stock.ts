// Stock: the only ways other modules move a product's stock (reserveStock, releaseStock), and the
// notice every committed transaction that moved it gives the catalog's caches (onStockMoved).
import { eq } from 'drizzle-orm'
import { afterCommit, type Db, type Executor, inTransaction } from '../../db/client.ts'
import { catalogRepo } from './repo.ts'
import { products } from './schema.sql.ts'
import { defaultVariantId } from './variants.ts'

/**
 * Stock moved by orders shows in catalog answers at once, on every node: each transaction that
 * moves stock (through reserveStock or releaseStock, the only ways other modules can) tells the
 * catalog caches of its database, once it commits, which catalogs it moved. No caller has to
 * remember to (issue #20: cancelled and expired orders left public stock stale for minutes).
 */
type StockListener = (catalogIds: string[]) => Promise<void>
const stockListeners = new WeakMap<Db, Set<StockListener>>()
const movedInTransaction = new WeakMap<Executor, Set<string>>()

/** Calls `listener` after every committed transaction of `db` that moved stock (the catalog cache). */
export function onStockMoved(db: Db, listener: StockListener): void {
  let listeners = stockListeners.get(db)
  if (!listeners) stockListeners.set(db, (listeners = new Set()))
  listeners.add(listener)
}

async function stockMoved(tx: Executor, catalogId: string) {
  const moved = movedInTransaction.get(tx)
  if (moved) {
    moved.add(catalogId)
    return
  }
  // One notice per transaction, with every catalog it moved; a statement outside one has committed.
  const catalogIds = new Set([catalogId])
  if (inTransaction(tx)) movedInTransaction.set(tx, catalogIds)
  await afterCommit(tx, async (db) => {
    for (const listener of stockListeners.get(db) ?? []) await listener([...catalogIds])
  })
}

/** What stock is held for: a product's variant (its default variant: the product's own row, decision 0043). */
export interface StockUnit {
  productId: string
  variantId: string
}

/**
 * Takes `quantity` from stock unless that would go below zero: the new stock, or null if short.
 * The product's row is moved (and so locked) first, then its stored variant's, so every writer
 * takes a product's rows in one order (the back office's variant writes lock the product first
 * too): two orders of two variants of one product never wait on each other in a cycle. A product
 * without options is one statement, as before variants, and so is a stored variant (one CTE that
 * keeps that order; a product's first variant, which keeps the default's id, takes two). Null
 * leaves the product's summary moved: every caller refuses the whole transaction then.
 */
export async function reserveStock(tx: Executor, unit: StockUnit, quantity: number): Promise<number | null> {
  if (unit.variantId !== defaultVariantId(unit.productId)) {
    // A stored variant (its id is not the default's): both rows in one statement.
    const taken = await catalogRepo.takeVariantStock(tx, unit.productId, unit.variantId, quantity)
    if (!taken || !taken.hasVariants || taken.variantStock === null) return null
    await stockMoved(tx, taken.catalogId)
    return taken.variantStock
  }
  const row = await catalogRepo.moveStock(tx, unit.productId, -quantity)
  if (!row) return null
  let left = row.stock
  if (row.hasVariants) {
    const variant = await catalogRepo.moveVariantStock(tx, unit.productId, unit.variantId, -quantity)
    if (!variant || !variant.isActive) return null
    left = variant.stock
  }
  await stockMoved(tx, row.catalogId)
  return left
}

/**
 * Gives reserved units back (cancellation, expiry, a return restocked). A variant since deleted
 * or deactivated takes nothing back, and the product's summary (its active variants' sum) neither.
 */
export async function releaseStock(tx: Executor, unit: StockUnit, quantity: number): Promise<void> {
  const product = await catalogRepo.lockProduct(tx, unit.productId)
  if (!product) return
  if (product.hasVariants) {
    const variant = await catalogRepo.moveVariantStock(tx, unit.productId, unit.variantId, quantity)
    if (!variant?.isActive) return
  }
  await catalogRepo.moveStock(tx, unit.productId, quantity)
  await stockMoved(tx, product.catalogId)
}

/** The units of `unit` in stock now (a stored variant's own; a product without options: its row's). */
export async function currentStock(db: Executor, unit: StockUnit): Promise<number> {
  const variant = await catalogRepo.variantStock(db, unit.productId, unit.variantId)
  if (variant !== null) return variant
  const [row] = await db.select({ stock: products.stock, options: products.options }).from(products).where(eq(products.id, unit.productId)).limit(1)
  return row && row.options.length === 0 ? row.stock : 0
}
