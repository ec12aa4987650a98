// Catalog answers are cached for 5 minutes per catalog version (src/lib/versioned-cache.ts). Read
// from a replica, an answer loaded just after a back-office write may predate it (replication
// lag), so entries then live 10 seconds: a write shows on every node within the lag plus 10 s.
import type { Redis } from 'ioredis'
import { createVersionedCache, type VersionedCache } from '../../lib/versioned-cache.ts'

export type CatalogCache = VersionedCache

export interface CatalogCacheLimits {
  maxEntries: number
  maxBytes: number
}

export const createCatalogCache = (redis: Redis | null, prefix: string, limits: CatalogCacheLimits, fromReplica = false): CatalogCache =>
  createVersionedCache(redis, prefix, { name: 'catalog', ttlMs: fromReplica ? 10_000 : 5 * 60_000, ...limits })
