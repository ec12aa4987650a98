// Catalog answers are cached for 5 minutes per catalog version (src/lib/versioned-cache.ts).
import type { Redis } from 'ioredis'
import { createVersionedCache, type VersionedCache } from '../../lib/versioned-cache.ts'

export type CatalogCache = VersionedCache

export const createCatalogCache = (redis: Redis | null, prefix: string): CatalogCache => createVersionedCache(redis, prefix, 'catalog', 5 * 60_000)
