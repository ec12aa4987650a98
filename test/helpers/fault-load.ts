// What the fault tests (test/faults/) share: a shop prepared in a throwaway database through the
// services and the API (givenShop, givenCustomer), the environment of a server child process on it,
// and a steady client load of catalog reads and orders that records every answer with its latency.
// Order clients behave as the API asks of them: one idempotency key per order, and the same key
// again after an error, until the order is confirmed.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { type Database, openDatabase } from '../../src/db/client.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { systemClock } from '../../src/lib/clock.ts'
import { TEST_AUTH_SECRET, type TestApp } from './app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture } from './factories.ts'
import { ADDRESS, givenShop, type Shop } from './shop.ts'
import { sleep } from './throwaway.ts'
import { testLogger } from './log-capture.ts'
import { schema, withTables } from './schema-db.ts'

export interface FaultShop {
  database: Database
  shop: Shop
  customers: CustomerFixture[]
  /** A partner of its own on the shop's catalog, for tests that count its requests. */
  spare: PartnerFixture
  close(): Promise<void>
}

/** Migrates the database at `url` and builds a shop (hot product stock 1,000,000) and `n` customers. */
/** `webhookUrl`: the shop's partner gets its event webhook set to it (through the back office). */
export async function prepareFaultShop(url: string, n: number, options: { webhookUrl?: string } = {}): Promise<FaultShop> {
  const dataDir = mkdtempSync(join(tmpdir(), 'commerce-faults-'))
  // Many customers are signed in from one address: the per-address auth limit would stop at 30.
  const config = loadConfig({ NODE_ENV: 'test', AUTH_SECRET: TEST_AUTH_SECRET, LOG_LEVEL: 'silent', DATABASE_URL: url, DATA_DIR: dataDir, RATE_LIMIT_AUTH_MAX: '1000000' })
  const database = await openDatabase({ databaseUrl: url, pgliteDir: null, poolSize: 4, schema })
  await migrateDatabase(database)
  const deps = { config, database, redis: null, clock: systemClock, logger: testLogger(config) }
  const app = await buildApp(deps)
  await app.ready()
  const t: TestApp = { app, deps: { ...deps, database: withTables(database) }, close: async () => {} }
  const shop = await givenShop(t, { hotStock: 1_000_000 })
  const customers: CustomerFixture[] = []
  for (let i = 0; i < n; i++) customers.push(await givenCustomer(app, shop.partner))
  const spare = await givenPartner(deps, `Spare ${randomUUID()}`, shop.catalogId)
  if (options.webhookUrl) {
    const token = await givenAdminToken(app, deps, `faults-${randomUUID()}@example.com`, 'ADMIN')
    const res = await app.inject({ method: 'PUT', url: `/api/v1/admin/partners/${shop.partner.partnerId}/webhook`, headers: { authorization: `Bearer ${token}` }, payload: { url: options.webhookUrl } })
    if (res.statusCode !== 200) throw new Error(`webhook not set: ${res.statusCode} ${res.body}`)
  }
  await app.close()
  return {
    database,
    shop,
    customers,
    spare,
    async close() {
      await database.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * The environment of a server process on this database (and Redis): the suite's secret, no limits
 * in the way (the load's few customers hold many unpaid prepaid orders at once).
 */
export function serverEnv(databaseUrl: string, redisUrl: string | null, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: TEST_AUTH_SECRET,
    DATA_DIR: join(tmpdir(), `commerce-faults-server-${process.pid}`),
    RATE_LIMIT_MAX: '1000000',
    MAX_UNPAID_ORDERS_PER_CUSTOMER: '1000',
    REDIS_PREFIX: `faults:${randomUUID()}:`,
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...extra,
  }
}

export const orderBody = (shop: Shop, paymentMode: 'COD' | 'PREPAID' = 'COD') => ({
  items: [{ productId: shop.ids.hot!, quantity: 1 }],
  shippingAddress: ADDRESS,
  paymentMode,
})

export type SampleKind = 'read' | 'order' | 'ready' | 'live'
export interface Sample {
  kind: SampleKind
  /** Date.now() when sent and when answered. */
  start: number
  end: number
  /** HTTP status; 0 = connection failed, -1 = no answer within the client timeout (a hang). */
  status: number
  retryAfter?: string | null
}

/** One HTTP call, timed; never throws. */
export async function timed(kind: SampleKind, url: string, init: RequestInit = {}, timeoutMs = 15_000): Promise<Sample & { body: unknown }> {
  const start = Date.now()
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
    const text = await res.text()
    let body: unknown = null
    try {
      body = JSON.parse(text)
    } catch {
      body = text
    }
    return { kind, start, end: Date.now(), status: res.status, retryAfter: res.headers.get('retry-after'), body }
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError'
    return { kind, start, end: Date.now(), status: timedOut ? -1 : 0, body: null }
  }
}

export interface PlacedOrder {
  key: string
  customer: CustomerFixture
  orderId: string
  /** Statuses of the attempts before the 201, e.g. [503, 0, 201]. */
  attempts: number[]
  replayed: boolean
  /** The 201's `data` (the order, with its payment and paymentClientAction). */
  answer: Record<string, unknown>
}

export interface Load {
  samples: Sample[]
  placed: PlacedOrder[]
  /** Non-retryable answers to order attempts (4xx other than 409/429): none expected. */
  unexpected: string[]
  /** Stops starting new work, then waits for every open order to be confirmed (retrying its key). */
  stop(): Promise<void>
}

/**
 * One client per customer, each: one catalog read, then one order (retried with its key until
 * 201), then `pauseMs`; plus a health poller every 200 ms. Every answer is recorded.
 */
export function startLoad(
  base: string,
  fs: FaultShop,
  customers: CustomerFixture[],
  options: { pauseMs?: number; reads?: boolean; orders?: boolean; apiKey?: string; paymentMode?: 'COD' | 'PREPAID' } = {},
): Load {
  const samples: Sample[] = []
  const placed: PlacedOrder[] = []
  const unexpected: string[] = []
  let stopping = false
  const pauseMs = options.pauseMs ?? 100
  const apiKey = options.apiKey ?? fs.shop.partner.apiKey

  async function client(customer: CustomerFixture) {
    while (!stopping) {
      if (options.reads !== false) {
        const read = await timed('read', `${base}/products?limit=20`, { headers: { 'x-api-key': apiKey } })
        samples.push(read)
      }
      if (options.orders !== false) {
        const key = randomUUID()
        const attempts: number[] = []
        const giveUp = () => stopping && Date.now() > stoppedAt + 20_000
        for (;;) {
          const res = await timed('order', `${base}/orders`, {
            method: 'POST',
            headers: { ...customerHeaders(customer), 'x-idempotency-key': key, 'content-type': 'application/json' },
            body: JSON.stringify(orderBody(fs.shop, options.paymentMode)),
          })
          samples.push(res)
          attempts.push(res.status)
          if (res.status === 201) {
            const data = (res.body as { data: { id: string } }).data
            placed.push({ key, customer, orderId: data.id, attempts, replayed: attempts.length > 1, answer: data })
            break
          }
          const retryable = res.status <= 0 || res.status >= 500 || res.status === 409 || res.status === 429
          if (!retryable) {
            unexpected.push(`${res.status} ${JSON.stringify(res.body)}`)
            break
          }
          if (giveUp()) {
            unexpected.push(`key ${key} never confirmed: ${attempts.join(',')}`)
            break
          }
          await sleep(150)
        }
      }
      await sleep(pauseMs)
    }
  }
  async function poller() {
    while (!stopping) {
      const [ready, live] = await Promise.all([timed('ready', `${base}/health/ready`), timed('live', `${base}/health/live`)])
      samples.push(ready, live)
      await sleep(200)
    }
  }
  let stoppedAt = Infinity
  const running = [...customers.map(client), poller()]
  return {
    samples,
    placed,
    unexpected,
    async stop() {
      stopping = true
      stoppedAt = Date.now()
      await Promise.all(running)
    },
  }
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

export const durations = (samples: Sample[]) => samples.map((s) => s.end - s.start)

/** Orders of the load's customers in the database against what the clients were told. */
export async function orderLedger(database: Database, load: Load): Promise<{ inDatabase: number; missing: string[]; keysToOrders: Map<string, string> }> {
  const pool = database.pool!
  const userIds = [...new Set(load.placed.map((p) => p.customer.userId))]
  const orders = await pool.query<{ id: string }>('select id from orders where user_id = any($1)', [userIds])
  const ids = new Set(orders.rows.map((r) => r.id))
  const keys = await pool.query<{ key: string; resource_id: string }>(
    `select key, resource_id from idempotency_keys where route = 'POST /orders' and user_id = any($1)`,
    [userIds],
  )
  return {
    inDatabase: orders.rows.length,
    missing: load.placed.filter((p) => !ids.has(p.orderId)).map((p) => p.orderId),
    keysToOrders: new Map(keys.rows.map((r) => [r.key, r.resource_id])),
  }
}
