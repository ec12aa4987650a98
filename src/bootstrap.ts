// Opens what the server and the command line both need: logger, database (migrated), Redis.
import pino from 'pino'
import type { FastifyBaseLogger } from 'fastify'
import { REDACTED_PATHS } from './app.ts'
import type { Config } from './config.ts'
import { type Database, openDatabase } from './db/client.ts'
import { migrateDatabase } from './db/migrate.ts'
import { closeRedis, openRedis } from './db/redis.ts'
import type { Deps } from './deps.ts'
import { systemClock } from './lib/clock.ts'

/** The service's logger: pino with credentials redacted. `destination` defaults to stdout (tests capture it). */
export function createLogger(config: Config, destination?: pino.DestinationStream): FastifyBaseLogger {
  const options = { level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }
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
  const redis = config.redisUrl ? openRedis(config.redisUrl, logger) : null
  return {
    config,
    database,
    redis,
    clock: systemClock,
    logger,
    async close() {
      if (redis) await closeRedis(redis)
      await database.close()
    },
  }
}
