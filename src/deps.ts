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

/**
 * What one service is built from: the shared handles, and of the settings only those it reads
 * (issue #40). A service declares them in its constructor, `ServiceDeps<'reservationMinutes'>`, and
 * can read no other; app.ts hands every service the same Deps, which has them all.
 */
export type ServiceDeps<K extends keyof Config = never> = Omit<Deps, 'config'> & { readonly config: Pick<Config, K> }
