// Read cache with versioned scopes (a catalog, the delivery zones, a partner's settings). Entries
// live in process; each scope has a version, kept in Redis when it is configured so that a
// back-office write on any node (which bumps the version) makes every node miss its old entries on
// the next read. Without Redis the version is local, and a write made by another process (the CLI)
// shows after the entry's TTL. If Redis cannot be asked, the cache is bypassed rather than risk
// serving stale data. Users: catalog answers (catalog/cache.ts), checkout settings
// (checkout/service.ts).
//
// The cache is bounded by entries and by bytes (issue #20: keys that grew without bound took a
// node from 228 to 496 MiB): an entry's size is its estimated bytes plus its key's. Expired entries
// are dropped before live ones when room is needed; past that the least recently used go.
import type { Redis } from 'ioredis'
import { LRUCache } from 'lru-cache'

export interface VersionedCacheOptions {
  /** Keeps the versions of two caches apart in Redis. */
  name: string
  /** How long an entry lives. */
  ttlMs: number
  /** At most this many entries... */
  maxEntries: number
  /** ...and at most this many bytes (estimated: see `approximateBytes`). */
  maxBytes: number
}

export interface VersionedCacheStats {
  entries: number
  bytes: number
  maxEntries: number
  maxBytes: number
}

export interface VersionedCache {
  /** `bytes` estimates a value's size (default `approximateBytes`). */
  get<T>(scope: string, key: string, load: () => Promise<T>, bytes?: (value: T) => number): Promise<T>
  /** Bumps the versions of the scopes (one Redis round trip for several). */
  invalidate(...scopes: string[]): Promise<void>
  stats(): VersionedCacheStats
}

/** Bookkeeping per entry beside its value and key (lru-cache's own arrays, the scope index). */
const ENTRY_OVERHEAD_BYTES = 200
/** Purging expired entries scans them all: when the cache is full, at most once a second. */
const PURGE_INTERVAL_MS = 1000

/**
 * A cheap upper-ish estimate of what a value holds: a Buffer's length, a string's UTF-16 size, and
 * for anything else the length of its JSON. Values that hold a Buffer next to small fields (a
 * cached answer and its ETag) count the Buffer.
 */
export function approximateBytes(value: unknown): number {
  if (Buffer.isBuffer(value)) return value.length
  if (typeof value === 'string') return value.length * 2
  if (value === null || typeof value !== 'object') return 8
  let size = 0
  let rest = false
  for (const field of Object.values(value)) {
    if (Buffer.isBuffer(field)) size += field.length
    else rest = true
  }
  if (!rest) return size
  try {
    return size + JSON.stringify(value, (_k, v: unknown) => (Buffer.isBuffer(v) ? '' : typeof v === 'bigint' ? v.toString() : v)).length * 2
  } catch {
    return size + 1024
  }
}

interface Entry {
  value: unknown
  scope: string
  bytes: number
}

export function createVersionedCache(redis: Redis | null, prefix: string, options: VersionedCacheOptions): VersionedCache {
  const localVersions = new Map<string, number>()
  // The keys of each scope, so that invalidating one drops its entries without scanning the others'.
  const keysOfScope = new Map<string, Set<string>>()
  const entries = new LRUCache<string, Entry>({
    max: options.maxEntries,
    maxSize: options.maxBytes,
    sizeCalculation: (entry, key) => entry.bytes + key.length * 2 + ENTRY_OVERHEAD_BYTES,
    ttl: options.ttlMs,
    dispose: (entry, key) => {
      const keys = keysOfScope.get(entry.scope)
      keys?.delete(key)
      if (keys?.size === 0) keysOfScope.delete(entry.scope)
    },
  })
  const loading = new Map<string, Promise<unknown>>()
  let lastPurge = 0
  const versionKey = (scope: string) => `${prefix}${options.name}:version:${scope}`

  async function currentVersion(scope: string): Promise<string | null> {
    if (!redis) return String(localVersions.get(scope) ?? 0)
    if (redis.status !== 'ready') return null
    try {
      return (await redis.get(versionKey(scope))) ?? '0'
    } catch {
      return null
    }
  }

  /** Expired entries go first: evicting a live entry while dead ones hold the room would be a waste. */
  function makeRoom(size: number) {
    if (entries.size < options.maxEntries && entries.calculatedSize + size <= options.maxBytes) return
    const now = performance.now()
    if (now - lastPurge < PURGE_INTERVAL_MS) return
    lastPurge = now
    entries.purgeStale()
  }

  return {
    async get<T>(scope: string, key: string, load: () => Promise<T>, bytes: (value: T) => number = approximateBytes) {
      const version = await currentVersion(scope)
      if (version === null) return load()
      const entryKey = `${scope}:${version}:${key}`
      const hit = entries.get(entryKey)
      if (hit) return hit.value as T
      // Requests that miss the same entry at once share one load: a version bump (an order's stock
      // change) under load costs one query per node and key, not one per waiting request.
      const pending = loading.get(entryKey)
      if (pending) return pending as Promise<T>
      const loaded = load().finally(() => loading.delete(entryKey))
      loading.set(entryKey, loaded)
      const value = await loaded
      const entry: Entry = { value, scope, bytes: bytes(value) }
      const size = entry.bytes + entryKey.length * 2 + ENTRY_OVERHEAD_BYTES
      // An entry bigger than the whole bound is answered but not kept.
      if (size > options.maxBytes) return value
      makeRoom(size)
      entries.set(entryKey, entry)
      let keys = keysOfScope.get(scope)
      if (!keys) keysOfScope.set(scope, (keys = new Set()))
      keys.add(entryKey)
      return value
    },
    async invalidate(...scopes) {
      for (const scope of scopes) {
        localVersions.set(scope, (localVersions.get(scope) ?? 0) + 1)
        for (const k of [...(keysOfScope.get(scope) ?? [])]) entries.delete(k)
      }
      // Redis down: other nodes cannot read versions either, so they bypass their caches meanwhile.
      if (!redis || scopes.length === 0) return
      if (scopes.length === 1) await redis.incr(versionKey(scopes[0]!)).catch(() => undefined)
      else {
        const batch = redis.multi()
        for (const scope of scopes) batch.incr(versionKey(scope))
        await batch.exec().catch(() => undefined)
      }
    },
    stats() {
      return { entries: entries.size, bytes: entries.calculatedSize, maxEntries: options.maxEntries, maxBytes: options.maxBytes }
    },
  }
}
