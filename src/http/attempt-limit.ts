// A budget of attempts that may fail (password guesses) per key and window, counted BEFORE the
// attempt is made: a caller reserves a slot, makes its attempt, and gives the slot back when the
// attempt succeeded. Reading the count first and adding failures afterwards lets a burst of
// concurrent guesses all pass the check before any of them is counted; reserving first means N
// concurrent guesses get at most `max` attempts. Counters live in Redis when it is configured (one
// Lua script: atomic across nodes, with the window as the key's TTL) and in process otherwise or
// while Redis fails, as the request rate limits do (src/http/rate-limit.ts).
import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'

export type Reservation =
  | { allowed: true; release(): Promise<void> }
  | { allowed: false; max: number; retryAfterSeconds: number }

export interface AttemptLimiter {
  /** Counts one attempt on `key` unless the window's budget is spent. */
  reserve(key: string): Promise<Reservation>
}

interface AttemptStore {
  /** [allowed, milliseconds left in the window] */
  reserve(key: string): Promise<[boolean, number]>
  release(key: string): Promise<void>
}

// The check and the increment in one step; the first attempt of a window starts its TTL.
const RESERVE = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local allowed = 0
if count < tonumber(ARGV[1]) then
  redis.call('INCR', KEYS[1])
  allowed = 1
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {allowed, ttl}`

// Gives a slot back in the window that still holds it; never creates a key or goes below zero.
const RELEASE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('DECR', KEYS[1]) <= 0 then redis.call('DEL', KEYS[1]) end
return 1`

function redisStore(redis: Redis, keyPrefix: string, max: number, windowMs: number): AttemptStore {
  return {
    async reserve(key) {
      const [allowed, ttl] = (await redis.eval(RESERVE, 1, keyPrefix + key, max, windowMs)) as [number, number]
      return [allowed === 1, ttl]
    },
    async release(key) {
      await redis.eval(RELEASE, 1, keyPrefix + key)
    },
  }
}

/** Bounded: past this many keys the expired ones go, then the oldest windows. */
const LOCAL_MAX_KEYS = 50_000

function localStore(max: number, windowMs: number, now: () => number): AttemptStore {
  const windows = new Map<string, { count: number; resetAt: number }>()
  const prune = (t: number) => {
    for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key)
    for (const key of windows.keys()) {
      if (windows.size <= LOCAL_MAX_KEYS * 0.9) break
      windows.delete(key)
    }
  }
  return {
    async reserve(key) {
      const t = now()
      let w = windows.get(key)
      if (w && w.resetAt <= t) {
        windows.delete(key)
        w = undefined
      }
      if (!w) {
        if (windows.size >= LOCAL_MAX_KEYS) prune(t)
        w = { count: 0, resetAt: t + windowMs }
        windows.set(key, w)
      }
      if (w.count >= max) return [false, w.resetAt - t]
      w.count++
      return [true, w.resetAt - t]
    },
    async release(key) {
      const w = windows.get(key)
      if (!w || w.resetAt <= now()) return
      if (--w.count <= 0) windows.delete(key)
    },
  }
}

export function createAttemptLimiter(options: {
  /** Names the counters: `<redis prefix>attempts:<name>:<key>`. */
  name: string
  max: number
  windowMs: number
  redis: Redis | null
  redisPrefix: string
  log: FastifyBaseLogger
  now?: () => number
}): AttemptLimiter {
  const { max, windowMs, redis, log } = options
  const local = localStore(max, windowMs, options.now ?? Date.now)
  const remote = redis ? redisStore(redis, `${options.redisPrefix}attempts:${options.name}:`, max, windowMs) : null
  let lastWarning = 0

  // Redis when it answers, else this process: a degraded budget is better than none.
  const reserveIn = async (key: string): Promise<[AttemptStore, [boolean, number]]> => {
    if (remote && redis?.status === 'ready') {
      try {
        return [remote, await remote.reserve(key)]
      } catch (err) {
        if (Date.now() - lastWarning >= 60_000) {
          lastWarning = Date.now()
          log.warn({ err: (err as Error).message }, `attempt limit ${options.name}: Redis command failed, counting in process`)
        }
      }
    }
    return [local, await local.reserve(key)]
  }

  return {
    async reserve(key) {
      const [store, [allowed, ttlMs]] = await reserveIn(key)
      if (!allowed) return { allowed: false, max, retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) }
      return {
        allowed: true,
        // The slot goes back to the store that gave it; losing a release only costs the account
        // one attempt of this window, so it never fails the caller's request.
        release: () => store.release(key).catch((err: Error) => log.warn({ err: err.message }, `attempt limit ${options.name}: release failed`)),
      }
    },
  }
}
