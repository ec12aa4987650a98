// Redis, when REDIS_URL is set: rate-limit counters, caches and locks shared by every node.
// No offline queue and short timeouts, so an outage makes callers fall back at once instead of
// queueing commands and hanging requests.
import { Redis } from 'ioredis'
import type { FastifyBaseLogger as Logger } from 'fastify'

export function openRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    connectTimeout: 2000,
    commandTimeout: 1000,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  })
  let reported = false
  redis.on('error', (err) => {
    if (!reported) logger.warn({ err: err.message }, 'Redis unavailable; falling back to in-process limits')
    reported = true
  })
  redis.on('ready', () => {
    if (reported) logger.info('Redis reconnected')
    reported = false
  })
  return redis
}

export async function closeRedis(redis: Redis): Promise<void> {
  await redis.quit().catch(() => redis.disconnect())
}
