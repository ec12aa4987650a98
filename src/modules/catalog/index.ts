// The catalog module: catalogs, categories, products and search. Other modules use only this file.
import type { Executor } from '../../db/client.ts'
import { newId } from '../../lib/ids.ts'
import { catalogRepo } from './repo.ts'

export async function createCatalog(db: Executor, name: string) {
  return catalogRepo.insert(db, { id: newId('cat'), name })
}

export const findCatalog = (db: Executor, id: string) => catalogRepo.findById(db, id)

/** The merchant's main catalog: the oldest one. New partners sell it unless told otherwise. */
export const findDefaultCatalog = (db: Executor) => catalogRepo.findOldest(db)
