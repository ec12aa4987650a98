// What services are built from. Assembled once in app.ts; tests pass their own clock.
import type { Redis } from 'ioredis'
import type { FastifyBaseLogger as Logger } from 'fastify'
import type { Config } from './config.ts'
import type { Database } from './db/client.ts'
import type { Clock } from './lib/clock.ts'

export interface Deps {
  config: Config
  database: Database
  redis: Redis | null
  clock: Clock
  logger: Logger
}
