// Read cache with versioned scopes (a catalog, the delivery zones, a partner's settings). Entries
// live in process; each scope has a version, kept in Redis when it is configured so that a
// back-office write on any node (which bumps the version) makes every node miss its old entries on
// the next read. Without Redis the version is local, and a write made by another process (the CLI)
// shows after the entry's TTL. If Redis cannot be asked, the cache is bypassed rather than risk
// serving stale data. Users: catalog answers (catalog/service.ts), checkout settings
// (checkout/service.ts).
import type { Redis } from 'ioredis'

const MAX_ENTRIES = 10_000

export interface VersionedCache {
  get<T>(scope: string, key: string, load: () => Promise<T>): Promise<T>
  invalidate(scope: string): Promise<void>
}

/** `name` keeps the versions of two caches apart in Redis; `ttlMs` bounds how long an entry lives. */
export function createVersionedCache(redis: Redis | null, prefix: string, name: string, ttlMs: number): VersionedCache {
  const entries = new Map<string, { value: unknown; expiresAt: number }>()
  const localVersions = new Map<string, number>()
  const versionKey = (scope: string) => `${prefix}${name}:version:${scope}`

  async function currentVersion(scope: string): Promise<string | null> {
    if (!redis) return String(localVersions.get(scope) ?? 0)
    if (redis.status !== 'ready') return null
    try {
      return (await redis.get(versionKey(scope))) ?? '0'
    } catch {
      return null
    }
  }

  return {
    async get(scope, key, load) {
      const version = await currentVersion(scope)
      if (version === null) return load()
      const entryKey = `${scope}:${version}:${key}`
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
      entries.set(entryKey, { value, expiresAt: now + ttlMs })
      return value
    },
    async invalidate(scope) {
      localVersions.set(scope, (localVersions.get(scope) ?? 0) + 1)
      for (const k of entries.keys()) if (k.startsWith(`${scope}:`)) entries.delete(k)
      // Redis down: other nodes cannot read versions either, so they bypass their caches meanwhile.
      if (redis) await redis.incr(versionKey(scope)).catch(() => undefined)
    },
  }
}
