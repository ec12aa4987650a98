// The database: PostgreSQL through `pg` when DATABASE_URL is set, otherwise embedded PGlite in
// DATA_DIR. Both speak the same SQL and share one Drizzle schema.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { sql } from 'drizzle-orm'
import type pg from 'pg'
import type { FastifyBaseLogger as Logger } from 'fastify'
import { auditSetting } from './audit-scope.ts'

/**
 * The database as the service uses it: the query builder over any table. The platform imports no
 * module's tables (issue #40: importing the aggregate of every module's tables tied the whole tree
 * into one import circle); relational queries (`db.query.x`), which only tests use, come from the
 * tables the caller hands to openDatabase (test/helpers/app.ts).
 */
export type Db = PgDatabase<PgQueryResultHKT, Record<string, unknown>>
/** A transaction or the database itself: repositories accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export type Executor = Db | Tx

export interface Database {
  kind: 'postgres' | 'pglite'
  db: Db
  /**
   * Catalog reads (lists, product pages, categories, search): a read replica when DATABASE_READ_URL
   * is set, otherwise `db` itself. Never for anything that writes or must see its own writes.
   */
  readDb: Db
  /** The raw driver, for the migrator and the health probe. */
  pool: pg.Pool | null
  pglite: PGlite | null
  ping(timeoutMs: number): Promise<boolean>
  close(): Promise<void>
}

export class DatabaseLockedError extends Error {}

/** PGlite takes no lock of its own: two processes on one directory corrupt it, so we refuse. */
function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true })
  const lockFile = join(dir, 'pglite.lock')
  const tryLock = () => {
    const fd = openSync(lockFile, 'wx')
    writeSync(fd, String(process.pid))
    closeSync(fd)
  }
  try {
    tryLock()
  } catch {
    const holder = Number(readFileSync(lockFile, 'utf8'))
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
      throw new DatabaseLockedError(
        `The embedded database in ${dir} is in use by process ${holder}. It serves one process at a time: ` +
          'stop that process first, or use PostgreSQL (DATABASE_URL) to run several.',
      )
    }
    rmSync(lockFile, { force: true })
    tryLock()
  }
  return () => rmSync(lockFile, { force: true })
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** PostgreSQL lock_timeout of every pooled connection (docs/reliability.md). */
export const LOCK_TIMEOUT_MS = 5000

export interface DatabaseOptions {
  /** Tables for relational queries (db.query.x): tests only; the service builds its queries. */
  schema?: Record<string, unknown>
  databaseUrl: string | null
  /** A read replica of databaseUrl for catalog reads (PostgreSQL only). */
  readUrl?: string | null
  /** Directory of the embedded database; null keeps it in memory (tests). */
  pgliteDir: string | null
  poolSize: number
  logger?: Logger
  /** A dump of an already-migrated embedded database to start from (tests: ~1 s instead of ~4 s). */
  pgliteTemplate?: Blob
}

function openPool(Pool: typeof pg.Pool, connectionString: string, options: DatabaseOptions): pg.Pool {
  const pool = new Pool({
    connectionString,
    max: options.poolSize,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    // A statement that waits this long for a lock (a table locked by a migration or by hand, a
    // row held by a stuck transaction) fails with 55P03, answered 503, instead of hanging the
    // request and its pooled connection for as long as the lock is held.
    lock_timeout: LOCK_TIMEOUT_MS,
  })
  // A client that loses its server (restart, failover, pg_terminate_backend) emits 'error'; with
  // no listener the process exits. The pool listens on idle clients only, so every client also
  // gets one of its own for the time it is checked out (mid-transaction): the query that uses it
  // next fails (503) and the pool drops it. Only the message and code are logged (the error
  // carries the whole client).
  const lost = (what: string) => (err: Error) => options.logger?.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, what)
  pool.on('error', lost('idle PostgreSQL client failed'))
  pool.on('connect', (client) => client.on('error', lost('PostgreSQL connection lost')))
  return pool
}

/** The PostgreSQL address each pooled Db connects to, for work done on a connection of its own (a worker thread). */
const connectionStrings = new WeakMap<Db, string>()

/** Where `db` connects, when it is a PostgreSQL pool; null for the embedded database (in this process only). */
export const connectionStringOf = (db: Db): string | null => connectionStrings.get(db) ?? null

/** Hooks to run once a transaction commits, by transaction (see afterCommit). */
const commitHooks = new WeakMap<object, ((db: Db) => Promise<void>)[]>()

/**
 * Runs `hook` once the transaction `tx` has committed, never if it rolls back; given the database,
 * not the transaction, which is over by then. Called with the database itself (no transaction: its
 * statement has committed already), runs it at once. Hooks run in order before the transaction's
 * caller gets its result; they must not throw. For effects outside the database that must follow a
 * change, such as dropping cached answers on every node after stock moved.
 */
export async function afterCommit(tx: Executor, hook: (db: Db) => Promise<void>): Promise<void> {
  const hooks = commitHooks.get(tx)
  if (hooks) hooks.push(hook)
  else await hook(tx as Db)
}

/** True when `tx` is a transaction whose commit afterCommit waits for. */
export const inTransaction = (tx: Executor): boolean => commitHooks.has(tx)

/**
 * `db.transaction` that runs the transaction's afterCommit hooks once it has committed, and inside a
 * back-office write first tells the audit trigger who is writing.
 */
function withCommitHooks(db: Db): Db {
  const transaction = db.transaction.bind(db)
  db.transaction = (async (run: (tx: Tx) => Promise<unknown>, config?: Parameters<Db['transaction']>[1]) => {
    const hooks: ((db: Db) => Promise<void>)[] = []
    const audit = auditSetting()
    const result = await transaction(async (tx) => {
      commitHooks.set(tx, hooks)
      // A back-office write: the audited tables' trigger records who made each change (db/audit-scope.ts).
      if (audit) await tx.execute(sql`select set_config('commerce.audit', ${audit}, true)`)
      return run(tx)
    }, config)
    for (const hook of hooks) await hook(db)
    return result
  }) as Db['transaction']
  return db
}

const SET_AUDIT = "select set_config('commerce.audit', $1, true)"

/**
 * Inside a back-office write, a statement run outside a transaction runs in one of its own, which
 * first tells the audit trigger who is writing (db/audit-scope.ts): no write of the back office
 * escapes the audit log for having been a single statement. Elsewhere, statements run as they are.
 */
function auditSingleStatements(pool: pg.Pool): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>
  pool.query = (async (...args: unknown[]) => {
    const audit = auditSetting()
    if (!audit) return query(...args)
    const client = await pool.connect()
    let broken: Error | undefined
    try {
      await client.query('begin')
      await client.query(SET_AUDIT, [audit])
      const result = await (client.query as (...a: unknown[]) => Promise<unknown>)(...args)
      await client.query('commit')
      return result
    } catch (err) {
      await client.query('rollback').catch((rollbackErr: Error) => (broken = rollbackErr))
      throw err
    } finally {
      client.release(broken)
    }
  }) as typeof pool.query
}

/** The embedded database's auditSingleStatements. */
function auditSingleStatementsPglite(client: PGlite): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>
  client.query = (async (...args: unknown[]) => {
    const audit = auditSetting()
    if (!audit) return query(...args)
    return client.transaction(async (tx) => {
      await tx.query(SET_AUDIT, [audit])
      return (tx.query as (...a: unknown[]) => Promise<unknown>)(...args)
    })
  }) as typeof client.query
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    // Loaded only for PostgreSQL: the embedded database's commands start without them.
    const [{ Pool }, { drizzle: drizzlePg }] = await Promise.all([import('pg').then((m) => m.default), import('drizzle-orm/node-postgres')])
    const pool = openPool(Pool, options.databaseUrl, options)
    auditSingleStatements(pool)
    const db = withCommitHooks(drizzlePg(pool, { schema: options.schema ?? {} }) as unknown as Db)
    const readPool = options.readUrl ? openPool(Pool, options.readUrl, options) : null
    const readDb = readPool ? (drizzlePg(readPool, { schema: options.schema ?? {} }) as unknown as Db) : db
    connectionStrings.set(db, options.databaseUrl)
    if (readPool) connectionStrings.set(readDb, options.readUrl!)
    return {
      kind: 'postgres',
      db,
      readDb,
      pool,
      pglite: null,
      ping: async (ms) => {
        try {
          await withTimeout(pool.query('select 1'), ms)
          return true
        } catch {
          return false
        }
      },
      close: async () => {
        await Promise.all([pool.end(), readPool?.end()])
      },
    }
  }

  const unlock = options.pgliteDir ? lockDataDir(options.pgliteDir) : () => {}
  try {
    const dataDir = options.pgliteDir ? join(options.pgliteDir, 'pglite') : undefined
    if (dataDir && !existsSync(dataDir)) mkdirSync(dataDir, { recursive: true })
    const client = await PGlite.create({ dataDir, loadDataDir: options.pgliteTemplate, extensions: { pg_trgm } })
    auditSingleStatementsPglite(client)
    const db = withCommitHooks(drizzlePglite(client, { schema: options.schema ?? {} }) as unknown as Db)
    return {
      kind: 'pglite',
      db,
      readDb: db,
      pool: null,
      pglite: client,
      ping: async (ms) => {
        try {
          await withTimeout(client.query('select 1'), ms)
          return true
        } catch {
          return false
        }
      },
      close: async () => {
        try {
          await client.close()
        } finally {
          unlock()
        }
      },
    }
  } catch (err) {
    unlock()
    throw err
  }
}

/** Runs raw SQL and returns its rows; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: Executor, query: import('drizzle-orm').SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] }
  return result.rows
}
