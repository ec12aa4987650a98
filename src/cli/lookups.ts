// Checks the command line makes before acting, so that its messages name what was not found (the
// services' own messages are the API's and stay as they are).
import type { Executor } from '../db/client.ts'
import { AppError } from '../lib/errors.ts'

export async function requireCatalog(db: Executor, catalogId: string): Promise<void> {
  const { findCatalog } = await import('../modules/catalog/index.ts')
  if (!(await findCatalog(db, catalogId))) throw new AppError('NOT_FOUND', `Catalog ${catalogId} not found`)
}

export async function requirePartner(db: Executor, partnerId: string): Promise<void> {
  const { findPartner } = await import('../modules/partners/index.ts')
  if (!(await findPartner(db, partnerId))) throw new AppError('NOT_FOUND', `Partner ${partnerId} not found`)
}

/** The catalog given with --catalog (checked), or the main catalog. */
export async function catalogOrDefault(db: Executor, given: string | undefined): Promise<string> {
  if (given !== undefined) {
    await requireCatalog(db, given)
    return given
  }
  const { findDefaultCatalog } = await import('../modules/catalog/index.ts')
  const main = await findDefaultCatalog(db)
  if (!main) throw new AppError('NOT_FOUND', 'No catalog exists yet: pass --catalog')
  return main.id
}
