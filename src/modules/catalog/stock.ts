// Stock: the only ways other modules move a product's stock (reserveStock, releaseStock), and the
// notice every committed transaction that moved it gives the catalog's caches (onStockMoved).
import { eq } from 'drizzle-orm'
import { afterCommit, type Db, type Executor, inTransaction } from '../../db/client.ts'
import { catalogRepo } from './repo.ts'
import { products } from './schema.sql.ts'

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

/** Takes `quantity` from stock unless that would go below zero: the new stock, or null if short. */
export async function reserveStock(tx: Executor, productId: string, quantity: number): Promise<number | null> {
  const row = await catalogRepo.moveStock(tx, productId, -quantity)
  if (!row) return null
  await stockMoved(tx, row.catalogId)
  return row.stock
}

/** Gives reserved units back (cancellation, expiry). */
export async function releaseStock(tx: Executor, productId: string, quantity: number): Promise<void> {
  const row = await catalogRepo.moveStock(tx, productId, quantity)
  if (row) await stockMoved(tx, row.catalogId)
}

export async function currentStock(db: Executor, productId: string): Promise<number> {
  const [row] = await db.select({ stock: products.stock }).from(products).where(eq(products.id, productId)).limit(1)
  return row?.stock ?? 0
}

