// Opens what the server and the command line both need: logger, database (migrated), Redis.
import pino from 'pino'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from './config.ts'
import { type Database, openDatabase } from './db/client.ts'
import { migrateDatabase } from './db/migrate.ts'
import type { Deps } from './deps.ts'
import { systemClock } from './lib/clock.ts'

// Query parameters that carry a credential: the local upload URL is signed in its query
// (`?expires=…&signature=<hex>`), an S3 presigned URL too, and a request log carries the URL.
const CREDENTIAL_QUERY_PARAMS = new Set(['signature', 'x-amz-signature', 'x-amz-credential', 'x-amz-security-token', 'token', 'access_token', 'refresh_token', 'api_key', 'apikey', 'secret', 'password'])

/** `url` with the values of credential-carrying query parameters replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?')
  if (query === -1) return url
  const pairs = url.slice(query + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=')
    if (eq === -1) return pair
    let name = pair.slice(0, eq)
    try {
      name = decodeURIComponent(name.replace(/\+/g, ' '))
    } catch {
      // a malformed escape: judged as written
    }
    return CREDENTIAL_QUERY_PARAMS.has(name.toLowerCase()) ? `${pair.slice(0, eq)}=[redacted]` : pair
  })
  return `${url.slice(0, query + 1)}${pairs.join('&')}`
}

interface LoggedRequest {
  method?: string
  url?: unknown
  host?: string
  ip?: string
  headers?: Record<string, unknown>
  socket?: { remotePort?: number }
}

/** Fastify's request serializer (method, URL, host, address), with the URL's credentials censored. */
function requestForLog(req: LoggedRequest): object {
  if (!req || typeof req !== 'object') return req
  return {
    method: req.method,
    url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  }
}

/** Log fields that carry a credential or a bank account: censored wherever they appear. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-partner-secret"]',
  'req.headers.cookie',
  '*.password',
  '*.secret',
  '*.accessToken',
  '*.refreshToken',
  '*.apiKey',
  // A customer's bank account (refunds of COD orders): never logged whole, wherever it appears.
  'accountNumber',
  'account_number',
  '*.accountNumber',
  '*.account_number',
  '*.*.accountNumber',
  '*.*.account_number',
]

/** The service's logger: pino with credentials redacted. `destination` defaults to stdout (tests capture it). */
export function createLogger(config: Config, destination?: pino.DestinationStream): FastifyBaseLogger {
  const options = { level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, serializers: { req: requestForLog } }
  return destination ? pino(options, destination) : pino(options)
}

export async function openRuntime(config: Config, logger = createLogger(config)): Promise<Deps & { close(): Promise<void> }> {
  const database: Database = await openDatabase({
    databaseUrl: config.databaseUrl,
    readUrl: config.databaseReadUrl,
    pgliteDir: config.databaseUrl ? null : config.dataDir,
    poolSize: config.dbPoolSize,
    logger,
  })
  try {
    await migrateDatabase(database)
  } catch (err) {
    await database.close()
    throw err
  }
  // ioredis loads only when there is a Redis: the embedded database's commands start without it.
  const redisModule = config.redisUrl ? await import('./db/redis.ts') : null
  const redis = redisModule ? redisModule.openRedis(config.redisUrl!, logger) : null
  return {
    config,
    database,
    redis,
    clock: systemClock,
    logger,
    async close() {
      if (redis) await redisModule!.closeRedis(redis)
      await database.close()
    },
  }
}
