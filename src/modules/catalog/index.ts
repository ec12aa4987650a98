// The catalog module: catalogs, categories, products and search. Other modules use only this file.
import { readFileSync } from 'node:fs'
import { eq } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client.ts'
import { newId } from '../../lib/ids.ts'
import { type CatalogImport, importCatalog } from './import.ts'
import { catalogRepo } from './repo.ts'
import { products } from './schema.sql.ts'

export async function createCatalog(db: Executor, name: string) {
  return catalogRepo.insert(db, { id: newId('cat'), name })
}

export const findCatalog = (db: Executor, id: string) => catalogRepo.findById(db, id)

/** The merchant's main catalog: the oldest one. New partners sell it unless told otherwise. */
export const findDefaultCatalog = (db: Executor) => catalogRepo.findOldest(db)

/** Loads the shipped demo catalog (Indian brands, INR prices) into a catalog that has no products yet. */
export async function importDemoCatalog(db: Db, catalogId: string): Promise<boolean> {
  const [existing] = await db.select({ id: products.id }).from(products).where(eq(products.catalogId, catalogId)).limit(1)
  if (existing) return false
  const file = new URL('./demo/catalog.json', import.meta.url)
  await importCatalog(db, catalogId, JSON.parse(readFileSync(file, 'utf8')) as CatalogImport)
  return true
}
