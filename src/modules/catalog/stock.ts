// Stock: the only ways other modules move a product's stock (reserveStock, releaseStock), and the
// notice every committed transaction that moved it gives the catalog's caches (onStockMoved).
import { eq } from 'drizzle-orm'
import { AppError } from '../../lib/errors.ts'
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
 * takes nothing back; one deactivated takes them into its own stock, but the product's summary
 * (its active variants' sum) does not. True when the unit's own stock took them (so its stock
 * locations take them too, decision 0043); false when the product or variant is gone.
 */
export async function releaseStock(tx: Executor, unit: StockUnit, quantity: number): Promise<boolean> {
  const product = await catalogRepo.lockProduct(tx, unit.productId)
  if (!product) return false
  if (product.hasVariants) {
    const variant = await catalogRepo.moveVariantStock(tx, unit.productId, unit.variantId, quantity)
    if (!variant) return false
    if (!variant.isActive) return true
  }
  await catalogRepo.moveStock(tx, unit.productId, quantity)
  await stockMoved(tx, product.catalogId)
  return true
}

/** The units of `unit` in stock now (a stored variant's own; a product without options: its row's). */
export async function currentStock(db: Executor, unit: StockUnit): Promise<number> {
  const variant = await catalogRepo.variantStock(db, unit.productId, unit.variantId)
  if (variant !== null) return variant
  const [row] = await db.select({ stock: products.stock, options: products.options }).from(products).where(eq(products.id, unit.productId)).limit(1)
  return row && row.options.length === 0 ? row.stock : 0
}

/**
 * Moves a unit's stock by `delta` for the inventory module's receipts and adjustments (decision
 * 0043, step 5): the variant's own stock whether or not it is on sale, and its product's summary
 * (its active variants' sum) when it is. False, moving nothing the caller keeps, when it would go
 * below zero or the unit is gone: the caller refuses the transaction.
 */
export async function moveUnitStock(tx: Executor, unit: StockUnit, delta: number): Promise<boolean> {
  const product = await catalogRepo.lockProduct(tx, unit.productId)
  if (!product) return false
  if (product.hasVariants) {
    const variant = await catalogRepo.moveVariantStock(tx, unit.productId, unit.variantId, delta)
    if (!variant) return false
    if (variant.isActive && !(await catalogRepo.moveStock(tx, unit.productId, delta))) return false
  } else if (unit.variantId !== defaultVariantId(unit.productId) || !(await catalogRepo.moveStock(tx, unit.productId, delta))) return false
  await stockMoved(tx, product.catalogId)
  return true
}

/**
 * The unit a back-office stock write names in a catalog: a product and its variant (left out: the
 * default of a product without options). 404 for a product of another catalog; 400 naming
 * `variantId` when a product with options names none, or names one of another product.
 */
export async function stockUnitOf(db: Executor, catalogId: string, productId: string, variantId: string | undefined): Promise<StockUnit> {
  const product = await catalogRepo.findProduct(db, productId)
  if (!product || product.catalogId !== catalogId) throw new AppError('NOT_FOUND', 'Product not found')
  if (product.options.length === 0) {
    if (variantId !== undefined && variantId !== defaultVariantId(productId)) throw new AppError('BAD_REQUEST', `variantId ${variantId} is not a variant of product ${productId}`)
    return { productId, variantId: defaultVariantId(productId) }
  }
  const variants = (await catalogRepo.variantsOf(db, [productId])).get(productId) ?? []
  if (variantId === undefined) throw new AppError('BAD_REQUEST', `variantId is required: product ${productId} has several variants (${variants.map((v) => v.optionValues.join(' / ')).join(', ')})`)
  if (!variants.some((v) => v.id === variantId)) throw new AppError('BAD_REQUEST', `variantId ${variantId} is not a variant of product ${productId}`)
  return { productId, variantId }
}

/** Whether a catalog keeps its stock at locations, and marking it so (the inventory module's first location). */
export const stockAtLocations = (db: Executor, catalogId: string) => catalogRepo.stockAtLocations(db, catalogId)
export const keepStockAtLocations = (db: Executor, catalogId: string) => catalogRepo.keepStockAtLocations(db, catalogId)
export const unitsInStock = (db: Executor, catalogId: string) => catalogRepo.unitsInStock(db, catalogId)
export const stockUnitNames = (db: Executor, units: StockUnit[]) => catalogRepo.unitNames(db, units)
