// Redis, when REDIS_URL is set: rate-limit counters, caches and locks shared by every node.
// No offline queue and short timeouts, so an outage makes callers fall back at once instead of
// queueing commands and hanging requests. Commands issued in the same tick go out as one write
// (auto-pipelining): a cached read's rate-limit and version commands cost one system call between
// all the requests of that tick, not one each (decision 0010).
import { Redis } from 'ioredis'
import type { FastifyBaseLogger as Logger } from 'fastify'

export function openRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    connectTimeout: 2000,
    commandTimeout: 1000,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
    enableAutoPipelining: true,
    // Shown by CLIENT LIST: which node holds which connection.
    connectionName: `commerce-api-${process.pid}`,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  })
  // A command that times out means Redis holds the connection but does not answer (frozen,
  // blackholed). Drop the connection then, so `status` leaves 'ready' and every caller falls back at
  // once, instead of each Redis call of a request (rate limit, then each cache) waiting its own
  // commandTimeout in turn; ioredis reconnects with retryStrategy and is 'ready' again once Redis answers.
  const send = redis.sendCommand.bind(redis)
  redis.sendCommand = (command, stream) => {
    command.promise.catch((err: Error) => {
      if (err.message === 'Command timed out' && redis.status === 'ready') redis.disconnect(true)
    })
    return send(command, stream)
  }
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
