// Read cache for catalog answers. Entries live in process; each catalog has a version, kept in
// Redis when it is configured so that a back-office write on any node (which bumps the version)
// makes every node miss its old entries on the next read. Without Redis the version is local.
// If Redis cannot be asked, the cache is bypassed rather than risk serving stale data.
import type { Redis } from 'ioredis'

const MAX_ENTRIES = 10_000
const TTL_MS = 5 * 60_000

export interface CatalogCache {
  get<T>(catalogId: string, key: string, load: () => Promise<T>): Promise<T>
  invalidate(catalogId: string): Promise<void>
}

export function createCatalogCache(redis: Redis | null, prefix: string): CatalogCache {
  const entries = new Map<string, { value: unknown; expiresAt: number }>()
  const localVersions = new Map<string, number>()
  const versionKey = (catalogId: string) => `${prefix}catalog:version:${catalogId}`

  async function currentVersion(catalogId: string): Promise<string | null> {
    if (!redis) return String(localVersions.get(catalogId) ?? 0)
    if (redis.status !== 'ready') return null
    try {
      return (await redis.get(versionKey(catalogId))) ?? '0'
    } catch {
      return null
    }
  }

  return {
    async get(catalogId, key, load) {
      const version = await currentVersion(catalogId)
      if (version === null) return load()
      const entryKey = `${catalogId}:${version}:${key}`
      const hit = entries.get(entryKey)
      const now = Date.now()
      if (hit && hit.expiresAt > now) return hit.value as Awaited<ReturnType<typeof load>>
      const value = await load()
      if (entries.size >= MAX_ENTRIES) {
        // Drop the oldest insertions (Map keeps insertion order): a cheap, bounded LRU approximation.
        const excess = entries.size - MAX_ENTRIES + Math.ceil(MAX_ENTRIES / 10)
        let i = 0
        for (const k of entries.keys()) {
          if (i++ >= excess) break
          entries.delete(k)
        }
      }
      entries.set(entryKey, { value, expiresAt: now + TTL_MS })
      return value
    },
    async invalidate(catalogId) {
      localVersions.set(catalogId, (localVersions.get(catalogId) ?? 0) + 1)
      for (const k of entries.keys()) if (k.startsWith(`${catalogId}:`)) entries.delete(k)
      // Redis down: other nodes cannot read versions either, so they bypass their caches meanwhile.
      if (redis) await redis.incr(versionKey(catalogId)).catch(() => undefined)
    },
  }
}
