// Catalog answers are cached for 5 minutes per catalog version (src/lib/versioned-cache.ts). Read
// from a replica, an answer loaded just after a back-office write may predate it (replication
// lag), so entries then live 10 seconds: a write shows on every node within the lag plus 10 s.
//
// Two versions per catalog. Its own, bumped by back-office writes, covers everything (categories,
// the search index, product answers). Its stock version, bumped after any transaction that moved
// stock (orders placed, cancelled or expired, replacements), covers only what shows stock: product
// lists and pages. So an order never makes the search index rebuild or the category tree reload.
import type { Redis } from 'ioredis'
import { createVersionedCache, type VersionedCacheStats } from '../../lib/versioned-cache.ts'

export interface CatalogCacheLimits {
  maxEntries: number
  maxBytes: number
}

export interface CatalogCache {
  /** An answer that changes only with back-office writes (categories, the search index). */
  get<T>(catalogId: string, key: string, load: () => Promise<T>, bytes?: (value: T) => number): Promise<T>
  /** An answer that shows stock (product lists and pages). */
  getWithStock<T>(catalogId: string, key: string, load: () => Promise<T>, bytes?: (value: T) => number): Promise<T>
  /** After a back-office write: every answer of the catalog, on every node. */
  invalidate(catalogId: string): Promise<void>
  /** After stock moved: the answers that show stock, on every node. */
  stockChanged(catalogIds: Iterable<string>): Promise<void>
  stats(): VersionedCacheStats
}

const stockScope = (catalogId: string) => `${catalogId}:stock`

export function createCatalogCache(redis: Redis | null, prefix: string, limits: CatalogCacheLimits, fromReplica = false): CatalogCache {
  const cache = createVersionedCache(redis, prefix, { name: 'catalog', ttlMs: fromReplica ? 10_000 : 5 * 60_000, ...limits })
  return {
    get: (catalogId, key, load, bytes) => cache.get(catalogId, key, load, bytes),
    getWithStock: (catalogId, key, load, bytes) => cache.get(stockScope(catalogId), key, load, bytes),
    invalidate: (catalogId) => cache.invalidate(catalogId, stockScope(catalogId)),
    stockChanged: (catalogIds) => cache.invalidate(...[...new Set(catalogIds)].map(stockScope)),
    stats: () => cache.stats(),
  }
}
