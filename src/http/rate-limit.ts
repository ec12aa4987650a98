// Rate limits: per API key on catalog routes, per customer on customer routes, per client address
// otherwise, a tighter per-address limit on /auth routes and one of its own on the public GET of
// uploaded files. Only the load balancer's probes (/health/live, /health/ready) are exempt. Counters live in Redis when it is
// configured so every node shares them; while Redis is unreachable each node counts in process
// (a degraded limit is better than none, which is what skipOnError would give).
import { createRequire } from 'node:module'
import rateLimit from '@fastify/rate-limit'
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import type { RateLimitConfig } from '../config.ts'
import { AppError } from '../lib/errors.ts'

type StoreCallback = (err: Error | null, res?: { current: number; ttl: number }) => void
interface Store {
  incr(key: string, cb: StoreCallback, timeWindow: number, max: number): void
  read(key: string, cb: StoreCallback, timeWindow: number, max: number): void
  child(routeOptions: unknown): Store
}
type StoreClass = new (...args: unknown[]) => Store

const require = createRequire(import.meta.url)
// The package exposes its stores only as files; they are the tested implementations we build on.
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreClass
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreClass

function fallbackStore(redis: Redis | null, prefix: string, log: FastifyBaseLogger) {
  let lastWarning = 0
  const warnFallback = (err: Error) => {
    if (Date.now() - lastWarning < 60_000) return
    lastWarning = Date.now()
    log.warn({ err: err.message }, 'rate limit: Redis command failed, counting in process')
  }
  return class FallbackStore implements Store {
    #local: Store
    #remote: Store | null
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }, routeKey = '') {
      this.#local = new LocalStore(params.continueExceeding, params.exponentialBackoff, 10_000)
      this.#remote = redis ? new RedisStore(params.continueExceeding, params.exponentialBackoff, redis, `${prefix}rl:${routeKey}`) : null
    }
    incr(key: string, cb: StoreCallback, timeWindow: number, max: number) {
      if (!this.#remote || redis?.status !== 'ready') {
        return this.#local.incr(key, cb, timeWindow, max)
      }
      this.#remote.incr(
        key,
        (err, res) => {
          if (!err) return cb(null, res)
          warnFallback(err)
          this.#local.incr(key, cb, timeWindow, max)
        },
        timeWindow,
        max,
      )
    }
    // A limiter made with app.createRateLimit (a route's own extra limit) has no routeInfo: its keys carry their own prefix.
    /** The count so far without adding to it (a limiter called with { increment: false }). */
    read(key: string, cb: StoreCallback, timeWindow: number, max: number) {
      if (!this.#remote || redis?.status !== 'ready') return this.#local.read(key, cb, timeWindow, max)
      this.#remote.read(
        key,
        (err, res) => {
          if (!err) return cb(null, res)
          warnFallback(err)
          this.#local.read(key, cb, timeWindow, max)
        },
        timeWindow,
        max,
      )
    }
    child(routeOptions: { routeInfo: { method?: string; url?: string }; continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      return new FallbackStore(routeOptions, `${routeOptions.routeInfo.method ?? ''}${routeOptions.routeInfo.url ?? ''}-`)
    }
  }
}

export async function registerRateLimit(
  app: FastifyInstance,
  config: RateLimitConfig,
  redis: Redis | null,
  prefix: string,
  callerKey: (request: FastifyRequest) => Promise<string>,
) {
  await app.register(rateLimit, {
    global: true,
    max: config.max,
    timeWindow: config.windowMs,
    store: fallbackStore(redis, prefix, app.log) as never,
    keyGenerator: callerKey,
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', `Too many requests, retry in ${context.after}`),
  })
}

/** Route config for /auth routes: a tighter limit keyed by client address. */
export function authRateLimit(config: RateLimitConfig) {
  return { max: config.authMax, timeWindow: config.windowMs, keyGenerator: (request: FastifyRequest) => `ip:${request.ip}` }
}

/** Route config for the public GET of uploaded files: a budget of its own per client address. */
export function uploadReadRateLimit(config: RateLimitConfig) {
  return { max: config.uploadReadMax, timeWindow: config.windowMs, keyGenerator: (request: FastifyRequest) => `ip:${request.ip}` }
}
