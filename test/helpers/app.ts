// Builds the real app on a fresh database for one test file: an embedded PGlite (loaded from the
// migrated template the test runner prepares), or, when TEST_DATABASE_URL is set, a new PostgreSQL
// database created for this file (a copy of the runner's migrated template database,
// TEST_POSTGRES_TEMPLATE) and dropped after it. TEST_REDIS_URL adds real Redis with a
// key prefix of its own. Nothing is shared between files, and tests isolate themselves further by
// creating their own partners and customers.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { type Database, openDatabase } from '../../src/db/client.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { closeRedis, openRedis } from '../../src/db/redis.ts'
import type { Deps } from '../../src/deps.ts'
import { type Clock, systemClock } from '../../src/lib/clock.ts'
import { schema, type TestDeps, withTables } from './schema-db.ts'
import { recordAnswers, undeclaredAnswers } from './answer-conformance.ts'
import { invariantViolations, recordBackOfficeWrites, unauditedWrites } from './invariants.ts'
import { testLogger } from './log-capture.ts'

export const TEST_AUTH_SECRET = 'test-secret-that-is-long-enough-0123456789'

export interface TestApp {
  app: FastifyInstance
  /** The app's deps; its database also answers relational queries (schema-db.ts). */
  deps: TestDeps
  close(): Promise<void>
}

export interface TestAppOptions {
  env?: Record<string, string>
  clock?: Clock
  /** Override Redis: null disables it even when TEST_REDIS_URL is set. */
  redisUrl?: string | null
  /** Extra routes registered before the app is ready, e.g. probes that exercise a guard. */
  extraRoutes?: (app: FastifyInstance) => void
  /** Skip the invariant sweep at close(): only for a test that breaks an invariant on purpose. */
  skipInvariants?: boolean
  /** Skip the check that every back-office operation seen wrote audit entries (invariants.ts): only for a file whose writes change nothing on purpose. */
  skipAuditCheck?: boolean
}

/** The machine's PostgreSQL, for tests that need it on both suites (pools, workers). */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'

/**
 * A new database on the server of `baseUrl`, named after it: empty, or a copy of `template`;
 * drop() removes it.
 */
export async function freshPostgres(
  baseUrl: string = POSTGRES_URL,
  template?: string,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const base = new URL(baseUrl)
  const name = `${base.pathname.slice(1) || 'test'}_f${randomBytes(5).toString('hex')}`
  const admin = new pg.Client({ connectionString: baseUrl })
  await admin.connect()
  try {
    await admin.query(`create database "${name}"${template ? ` template "${template}"` : ''}`)
  } finally {
    await admin.end()
  }
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl })
      await client.connect()
      await client.query(`drop database if exists "${name}" with (force)`)
      await client.end()
    },
  }
}

/**
 * The test runner's template (scripts/test.ts): one migrated database that every test file's
 * database is copied from, in well under a second, instead of each file running the migrations.
 * Nothing may stay connected to it, or PostgreSQL refuses to copy it.
 */
export async function migratedPostgresTemplate(baseUrl: string): Promise<{ name: string; drop(): Promise<void> }> {
  const fresh = await freshPostgres(baseUrl)
  try {
    const database = await openDatabase({ databaseUrl: fresh.url, pgliteDir: null, poolSize: 1 })
    try {
      await migrateDatabase(database)
    } finally {
      await database.close()
    }
  } catch (error) {
    await fresh.drop()
    throw error
  }
  return fresh
}

let template: Blob | undefined
function pgliteTemplate(): Blob | undefined {
  const file = process.env.TEST_PGLITE_TEMPLATE
  if (!file) return undefined
  template ??= new Blob([readFileSync(file)])
  return template
}

export async function openTestDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  const baseUrl = process.env.TEST_DATABASE_URL
  if (baseUrl) {
    const template = process.env.TEST_POSTGRES_TEMPLATE
    const fresh = await freshPostgres(baseUrl, template)
    const database = await openDatabase({ databaseUrl: fresh.url, pgliteDir: null, poolSize: 10, schema })
    if (!template) await migrateDatabase(database)
    return {
      database,
      async drop() {
        await database.close()
        await fresh.drop()
      },
    }
  }
  const seeded = pgliteTemplate()
  const database = await openDatabase({ databaseUrl: null, pgliteDir: null, poolSize: 1, pgliteTemplate: seeded, schema })
  if (!seeded) await migrateDatabase(database)
  return { database, drop: () => database.close() }
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'commerce-test-'))
  const redisUrl = options.redisUrl === undefined ? (process.env.TEST_REDIS_URL || null) : options.redisUrl
  const config = loadConfig({
    NODE_ENV: 'test',
    AUTH_SECRET: TEST_AUTH_SECRET,
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: 'http://localhost:3000',
    REDIS_PREFIX: `test:${randomBytes(6).toString('hex')}:`,
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...options.env,
  })
  const { database, drop } = await openTestDatabase()
  // Silent, or with TEST_LOG_DIR the service's logger into the run's capture (SE-11, log-capture.ts).
  const logger = testLogger(config)
  const redis = config.redisUrl ? openRedis(config.redisUrl, logger) : null
  if (redis) await new Promise<void>((resolve) => {
    if (redis.status === 'ready') return resolve()
    redis.once('ready', resolve)
    redis.once('error', () => resolve())
  })
  const deps: Deps = { config, database, redis, clock: options.clock ?? systemClock, logger }
  const app = await buildApp(deps)
  const audited = recordBackOfficeWrites(app)
  const answers = recordAnswers(app)
  options.extraRoutes?.(app)
  await app.ready()
  return {
    app,
    deps: { ...deps, database: withTables(database) },
    async close() {
      // Every answer the app gave must be one its OpenAPI document declares (answer-conformance.ts).
      // The invariant sweep (test/helpers/invariants.ts) runs once the app has stopped (no worker
      // writes any more) and before the database is dropped; any violation fails the test file.
      const violations: string[] = []
      try {
        await app.close()
        violations.push(...undeclaredAnswers(app, answers))
        if (!options.skipInvariants) {
          violations.push(...(await invariantViolations(database.db, { now: deps.clock.now() })))
          if (!options.skipAuditCheck) violations.push(...(await unauditedWrites(database.db, audited)))
        }
      } finally {
        if (redis) await closeRedis(redis)
        await drop()
        rmSync(dataDir, { recursive: true, force: true })
      }
      if (violations.length > 0) {
        const shown = violations.slice(0, 50)
        const more = violations.length > shown.length ? `\n  ... and ${violations.length - shown.length} more` : ''
        throw new Error(`Invariant sweep: ${violations.length} violation(s) after this test file:\n  ${shown.join('\n  ')}${more}`)
      }
    },
  }
}
