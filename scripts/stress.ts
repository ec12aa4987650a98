// `npm run test:stress`: the nightly rows of the reliability plan (7.3 load, 7.5 fuzz) on demand,
// against PostgreSQL + Redis, ending with a table of each row, its figure and PASS/FAIL (exit code 1
// on any FAIL). A fresh database is created on the server of STRESS_DATABASE_URL (default the local
// test server) and dropped at the end; Redis keys get a prefix of their own.
//
//   LD-01 smoke load   autocannon, catalog GET, 50 connections: 0 errors, p99 < 100 ms
//                      (and >= 70% of --baseline req/s when given)
//   LD-02 order SLO    open model: 50 orders/s + 200 reads/s: orders p95 < 250 ms, p99 < 500 ms,
//                      reads p99 < 100 ms, 0 5xx, achieved >= 98% of the target rate
//   WH-01 callbacks    50 signed provider callbacks a second (sandbox successes, each its own prepaid
//                      order) for --duration s (default 60): all 200, ack p99 < 500 ms, every order confirmed
//   LD-03 flash sale   1,000 customers check out one SKU with stock 100 at the same instant, over HTTP
//                      from this process to the server process: exactly 100 x 201, the rest 409,
//                      p99 < 2 s, 0 5xx, 0 deadlocks (CI's test/load/flash-sale.test.ts holds the
//                      counts in process, where the server and the clients share one event loop)
//   LD-05 noisy        a second server with a quota of 500 per 10 s (50/s) per key: key B reads at
//   neighbour          25/s alone for --duration/2 s, then again while key A sends 250/s (5x its
//                      quota): B 100% 200 and B's p99 beside A within 20% of B's alone (or 2 ms,
//                      below which the difference is timer noise)
//   LD-07 soak         the LD-02 mix at half its rate, plus 25 uncached searches/s, for --soak-minutes:
//                      server RSS peak < 300 MiB (issue 11) and after warm-up grows < 10%, PostgreSQL connections stay within the pool,
//                      Redis connections flat, event-loop delay p99 < 50 ms (test/load/loop-probe.mjs), 0 5xx
//   LD-08 breakpoint   orders ramped 10 -> 500/s in steps: the highest rate with p99 < 1 s and
//                      5xx < 0.1%; beyond it only 2xx/409/429/503, never an answer slower than 10 s
//   LD-09 cache bound  distinct valid product-list filter combinations (page, limit, sortBy, sortOrder:
//                      each request a new one), 100/s for --duration s (default 600): the catalog
//                      cache fills to its byte bound and stays there, server RSS at the end within
//                      10% of the RSS after warm-up (the first fifth), all 200 (issue #20)
//   I1-I8              the invariant sweep (test/helpers/invariants.ts) over what the rows above wrote
//   FT-01, DI-19,      test files of the CI suite at the plan's size: PostgreSQL outages in 60 s runs,
//   DI-20, FT-06,      the ledger model (and DI-22) at 1,000 runs, the interleavings at 500, the kill
//   FT-07              points 10 times each, 20 random kills under the order load of 16 clients
//   BI-01 fuzz         test/security/fuzz.stress.ts with FUZZ_RUNS per route (default 10,000, the plan's nightly figure, in one process: about 45 min by the CI figures;
//                      its test app runs the sweep over its own database when it closes)
//   DI-21 mutants      scripts/mutate.ts over the ledger, idempotency and order lifecycle (stock
//                      release, refunds) with their tests: >= 80% of mutants killed (about 100
//                      mutants, a minute or so each on the embedded database)
//   BI-02 deep fuzz    the same fuzzer on the plan's critical routes only (orders, returns, provider
//                      webhooks, upload signing, wallet) with --critical-fuzz-runs a route (default
//                      100,000, the plan's nightly figure)
//
// Latencies of the open-model rows are measured from the moment each request was due, not when it
// left (no coordinated omission). The server runs in its own process (the bundle `npm start` runs, dist/server.js, one worker).
//
// Options: --only LD-01,LD-08 (rows whose id is listed), --duration S (LD-01 and LD-02, default 30
// and 60; LD-05 runs each half of it, default 20; LD-09, default 600), --soak-minutes M (default 2), --step-seconds S (LD-08, default 10), --fuzz-runs N, --critical-fuzz-runs N,
// --products N (catalog size, default 10,000), --baseline R (LD-01 req/s of record).
// A short check that everything works:
//   npm run test:stress -- --duration 5 --soak-minutes 0.5 --step-seconds 3 --fuzz-runs 5
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { Redis } from 'ioredis'
import pg from 'pg'
import { openModel, type Request, type Sample, sleep } from '../bench/open-model.ts'
import { BENCH_ADDRESS, codOrders, customerTokens } from '../bench/workload.ts'
import { loadConfig } from '../src/config.ts'
import { openDatabase } from '../src/db/client.ts'
import { createPaymentProvider } from '../src/modules/payments/providers/index.ts'
import { freshPostgres } from '../test/helpers/app.ts'
import { invariantViolations } from '../test/helpers/invariants.ts'
import { freePort } from '../test/helpers/factories.ts'
import { percentile, type ServerProcess, startServer } from '../test/load/load-support.ts'

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    duration: { type: 'string' },
    'soak-minutes': { type: 'string', default: '2' },
    'step-seconds': { type: 'string', default: '10' },
    'fuzz-runs': { type: 'string', default: '10000' },
    'critical-fuzz-runs': { type: 'string', default: '100000' },
    products: { type: 'string', default: '10000' },
    baseline: { type: 'string' },
  },
})
const only = values.only?.split(',').map((s) => s.trim().toUpperCase())
const selected = (id: string) => !only || only.includes(id)
const root = new URL('../', import.meta.url).pathname
const baseUrl = process.env.STRESS_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'
const redisUrl = process.env.STRESS_REDIS_URL || 'redis://127.0.0.1:6379'

interface Row {
  id: string
  name: string
  figure: string
  pass: boolean
}
const rows: Row[] = []
function report(row: Row) {
  rows.push(row)
  console.log(`${row.id} ${row.name}: ${row.figure} -> ${row.pass ? 'PASS' : 'FAIL'}`)
}

// ---------------------------------------------------------------------------------------------
// The open-model load generator
// ---------------------------------------------------------------------------------------------

const ms = (n: number) => `${Math.round(n)} ms`
const count = (samples: Sample[], test: (status: number) => boolean) => samples.filter((s) => test(s.status)).length

// ---------------------------------------------------------------------------------------------
// Set-up: a fresh database with a synthetic catalog, the server, customers
// ---------------------------------------------------------------------------------------------

const database = await freshPostgres(baseUrl)
const dataDir = mkdtempSync(join(tmpdir(), 'commerce-stress-'))
const env: Record<string, string> = {
  DATABASE_URL: database.url,
  REDIS_URL: redisUrl,
  REDIS_PREFIX: `stress:${randomBytes(4).toString('hex')}:`,
  DATA_DIR: dataDir,
  NODE_ENV: 'production',
  PAYMENT_SANDBOX_IN_PRODUCTION: 'true',
  AUTH_SECRET: 'stress-secret-stress-secret-stress-secret',
  RATE_LIMIT_MAX: '1000000',
  RATE_LIMIT_AUTH_MAX: '1000000',
  // WH-01 holds 50 unpaid orders a second for its duration across 200 customers.
  MAX_UNPAID_ORDERS_PER_CUSTOMER: '1000',
  // The customers' tokens are issued once, before the rows: they must outlive a 30-minute soak and the rows after it.
  ACCESS_TOKEN_TTL_SECONDS: '86400',
  LOG_LEVEL: 'warn',
}
const childEnv = { ...process.env, ...env }
/** The server's event-loop delay, a JSON line a second (test/load/loop-probe.mjs). */
const loopProbeFile = join(dataDir, 'event-loop.jsonl')

async function loadRows() {
  let server: ServerProcess | null = null
  try {
    execFileSync(process.execPath, ['bin/commerce.js', 'migrate'], { cwd: root, env: childEnv, stdio: ['ignore', 'ignore', 'inherit'] })
    console.log(`stress: generating ${values.products} products...`)
    const data = JSON.parse(
      execFileSync(process.execPath, ['bin/commerce.js', 'bench-data', '--products', values.products, '--json'], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] }).toString(),
    ) as { catalogId: string; apiKey: string; partnerId: string; partnerSecret: string }
    // The order bench's data: zones, and products with stock for the whole run (bench/orders-data.ts).
    const productIds = (
      JSON.parse(
        execFileSync(process.execPath, ['--import', 'tsx', 'bench/orders-data.ts', '--catalog', data.catalogId, '--partner', data.partnerId, '--count', '2000'], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] }).toString(),
      ) as { lines: { productId: string }[] }
    ).lines.map((l) => l.productId)

    // The server as `npm start` runs it (the bundle): what LD-07 measures is production's memory.
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' })
    server = await startServer(await freePort(), { ...env, LOOP_PROBE_FILE: loopProbeFile }, 120_000, { bundle: true, nodeArgs: ['--import', join(root, 'test', 'load', 'loop-probe.mjs')] })
    const api = `${server.url}/api/v1`
    const readHeaders = { 'x-api-key': data.apiKey }
    const list = (await (await fetch(`${api}/products?limit=100`, { headers: readHeaders })).json()) as { data: { slug: string }[] }
    const slugs = list.data.map((p) => p.slug)

    const tokens = await customerTokens(api, data, 200)
    let orderSeq = 0
    const nextOrder = codOrders('stress')
    const orderLines = productIds.map((productId) => ({ productId }))
    const orderRequest = (): Request => {
      const q = nextOrder(orderSeq++, tokens, orderLines)
      return { method: 'POST', ...q, headers: { 'content-type': 'application/json', 'x-partner-id': data.partnerId, ...q.headers } }
    }
    const readRequest = (i: number): Request => ({
      method: 'GET',
      path: i % 2 === 0 ? '/api/v1/products?limit=20' : `/api/v1/products/${slugs[i % slugs.length]}`,
      headers: readHeaders,
    })
    // Uncached searches of the judged queries (the search index is the largest thing a worker holds).
    const queries = (JSON.parse(readFileSync(join(root, 'bench', 'search-judgments.json'), 'utf8')) as { query: string }[]).map((j) => j.query)
    const searchRequest = (i: number): Request => ({ method: 'GET', path: `/api/v1/search?q=${encodeURIComponent(queries[i % queries.length]!)}&limit=${20 - (i % 3)}`, headers: readHeaders })
    // Warm-up: caches, JIT, pool.
    await openModel(server.url, [{ name: 'orders', rate: 20, request: orderRequest }, { name: 'reads', rate: 50, request: readRequest }], 3)

    if (selected('LD-01')) {
      const duration = Number(values.duration ?? 30)
      const r = await autocannon({ url: `${api}/products?limit=20`, connections: 50, duration, headers: readHeaders })
      const baseline = values.baseline ? Number(values.baseline) : null
      const rps = Math.round(r.requests.average)
      const pass = r.errors === 0 && r.non2xx === 0 && r.latency.p99 < 100 && (baseline === null || rps >= 0.7 * baseline)
      report({
        id: 'LD-01',
        name: `smoke load (GET /products, 50 connections, ${duration} s)`,
        figure: `${rps} req/s, p99 ${r.latency.p99} ms, errors ${r.errors}, non-2xx ${r.non2xx}${baseline ? `, ${Math.round((rps / baseline) * 100)}% of ${baseline} req/s` : ''}`,
        pass,
      })
    }

    if (selected('LD-02')) {
      const duration = Number(values.duration ?? 60)
      const out = await openModel(server.url, [{ name: 'orders', rate: 50, request: orderRequest }, { name: 'reads', rate: 200, request: readRequest }], duration)
      const orders = out.orders!
      const reads = out.reads!
      const lat = (s: Sample[], p: number) => percentile(s.map((x) => x.ms), p)
      const fivexx = count([...orders, ...reads], (s) => s >= 500 || s === 0)
      const achieved = (count(orders, (s) => s === 201) + count(reads, (s) => s === 200)) / (250 * duration)
      const pass = lat(orders, 95) < 250 && lat(orders, 99) < 500 && lat(reads, 99) < 100 && fivexx === 0 && achieved >= 0.98
      report({
        id: 'LD-02',
        name: `order SLO (50 orders/s + 200 reads/s, ${duration} s, open model)`,
        figure: `orders p95 ${ms(lat(orders, 95))}, p99 ${ms(lat(orders, 99))}; reads p99 ${ms(lat(reads, 99))}; 5xx/failed ${fivexx}; achieved ${(achieved * 100).toFixed(1)}%`,
        pass,
      })
    }

    if (selected('WH-01')) {
      // 50 signed provider callbacks a second, each the success of its own prepaid order (sandbox
      // provider, signed as it signs), for --duration seconds: every one 200 (acknowledged), p99 of
      // the acknowledgement < 500 ms, and each applied (the orders confirmed).
      const duration = Number(values.duration ?? 60)
      const total = 50 * duration
      const sandbox = createPaymentProvider(loadConfig({ ...env, DATA_DIR: dataDir })).sandbox!
      const prepaid: { id: string; sessionId: string; amount: bigint }[] = []
      for (let n = 0; n < total; n += 25) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(25, total - n) }, async (_, k) => {
            const q = orderRequest()
            const body = JSON.stringify({ ...JSON.parse(q.body!), paymentMode: 'PREPAID' })
            const res = await fetch(`${server!.url}${q.path}`, { method: 'POST', headers: { ...q.headers, authorization: `Bearer ${tokens[(n + k) % tokens.length]!}` }, body })
            const order = (await res.json()) as { data: { id: string; amountPayable: string; paymentClientAction: { payload: { sessionId: string } } } }
            if (res.status !== 201) throw new Error(`WH-01 setup: order ${res.status} ${JSON.stringify(order)}`)
            return { id: order.data.id, sessionId: order.data.paymentClientAction.payload.sessionId, amount: BigInt(order.data.amountPayable.replace('.', '')) }
          }),
        )
        prepaid.push(...batch)
      }
      const callbacks = prepaid.map((o) => sandbox.signedEvent(sandbox.eventFor('pay', { sessionId: o.sessionId, amount: o.amount, currency: 'INR' })))
      const out = await openModel(server.url, [{ name: 'acks', rate: 50, request: (i) => ({ method: 'POST', path: '/api/v1/payments/webhooks/sandbox', headers: callbacks[i]!.headers as Record<string, string>, body: callbacks[i]!.rawBody.toString() }) }], duration)
      const acks = out.acks!
      const admin = new pg.Client({ connectionString: database.url })
      await admin.connect()
      const confirmed = (await admin.query<{ n: number }>(`select count(*)::int as n from orders where id = any($1) and status = 'CONFIRMED' and payment_status = 'PAID'`, [prepaid.map((o) => o.id)])).rows[0]!.n
      await admin.end()
      const ok = count(acks, (st) => st === 200)
      const p99 = percentile(acks.map((a) => a.ms), 99)
      report({
        id: 'WH-01',
        name: `provider callbacks (50 signed successes/s, ${duration} s, each its own order)`,
        figure: `${ok}/${acks.length} x 200, ack p50 ${ms(percentile(acks.map((a) => a.ms), 50))}, p99 ${ms(p99)}; ${confirmed}/${total} orders confirmed`,
        pass: ok === total && acks.length === total && p99 < 500 && confirmed === total,
      })
    }

    if (selected('LD-03')) {
      const CHECKOUTS = 1000
      const STOCK = 100
      const admin = new pg.Client({ connectionString: database.url })
      await admin.connect()
      try {
        // A product of the catalog that the other rows never order, with 100 in stock at ₹499 (under any COD limit).
        const [hot] = (await admin.query<{ id: string }>('select id from products where is_active and id <> all($1) order by id limit 1', [productIds])).rows
        await admin.query('update products set stock = $2, selling_price = 499, mrp = greatest(mrp, 499) where id = $1', [hot!.id, STOCK])
        const flashTokens = await customerTokens(api, data, CHECKOUTS)
        const deadlocks = async () => (await admin.query<{ n: number }>('select deadlocks::int as n from pg_stat_database where datname = current_database()')).rows[0]!.n
        const deadlocksBefore = await deadlocks()
        const body = JSON.stringify({ items: [{ productId: hot!.id, quantity: 1 }], shippingAddress: BENCH_ADDRESS, paymentMode: 'COD' })
        const runId = randomBytes(4).toString('hex')
        const started = performance.now()
        const results = await Promise.all(
          flashTokens.map(async (token, n) => {
            const t0 = performance.now()
            try {
              const res = await fetch(`${api}/orders`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-partner-id': data.partnerId, 'x-idempotency-key': `flash-${runId}-${n}` },
                body,
              })
              const text = await res.text()
              return { status: res.status, ms: performance.now() - t0, text }
            } catch {
              return { status: 0, ms: performance.now() - t0, text: '' }
            }
          }),
        )
        const allMs = performance.now() - started
        const created = results.filter((r) => r.status === 201).length
        const soldOut = results.filter((r) => r.status === 409).length
        const fivexx = results.filter((r) => r.status >= 500 || r.status === 0).length
        const newDeadlocks = (await deadlocks()) - deadlocksBefore
        const stockLeft = (await admin.query<{ stock: number }>('select stock from products where id = $1', [hot!.id])).rows[0]!.stock
        const p99 = percentile(results.map((r) => r.ms), 99)
        const unexpected = results.filter((r) => r.status !== 201 && r.status !== 409)
        const others = unexpected.filter((r) => r.status < 500 && r.status !== 0).map((r) => r.status)
        if (unexpected.length) console.log(`LD-03 first unexpected answer: ${unexpected[0]!.status} ${unexpected[0]!.text.slice(0, 300)}`)
        report({
          id: 'LD-03',
          name: `flash sale (${CHECKOUTS} checkouts at once, one SKU, stock ${STOCK}, over HTTP)`,
          figure: `${created} x 201, ${soldOut} x 409, ${fivexx} 5xx/failed${others.length ? `, ${others.length} others (${[...new Set(others)].join(', ')})` : ''}; p50 ${ms(percentile(results.map((r) => r.ms), 50))}, p99 ${ms(p99)}, all settled in ${ms(allMs)}; deadlocks ${newDeadlocks}; stock left ${stockLeft}`,
          pass: created === STOCK && soldOut === CHECKOUTS - STOCK && fivexx === 0 && p99 < 2000 && allMs < 10_000 && newDeadlocks === 0 && stockLeft === 0,
        })
      } finally {
        await admin.end()
      }
    }

    if (selected('LD-05')) {
      // Its own server: the quota must be low enough for A to exceed it, which the others' is not.
      const seconds = Math.max(10, Math.round(Number(values.duration ?? 40) / 2))
      const keyOf = () =>
        (JSON.parse(execFileSync(process.execPath, ['bin/commerce.js', 'apikey', 'create', '--partner', data.partnerId, '--json'], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] }).toString()) as { apiKey: string }).apiKey
      const [keyA, keyB] = [keyOf(), keyOf()]
      const limited = await startServer(await freePort(), { ...env, RATE_LIMIT_MAX: '500', RATE_LIMIT_WINDOW_MS: '10000', REDIS_PREFIX: `${env.REDIS_PREFIX}ld05:` }, 120_000, { bundle: true })
      try {
        const read = (key: string) => (i: number): Request => ({ method: 'GET', path: i % 2 === 0 ? '/api/v1/products?limit=20' : `/api/v1/products/${slugs[i % slugs.length]}`, headers: { 'x-api-key': key } })
        await openModel(limited.url, [{ name: 'warm', rate: 25, request: read(keyB) }], 3)
        const alone = (await openModel(limited.url, [{ name: 'b', rate: 25, request: read(keyB) }], seconds)).b!
        const together = await openModel(limited.url, [{ name: 'b', rate: 25, request: read(keyB) }, { name: 'a', rate: 250, request: read(keyA) }], seconds)
        const p99 = (s: Sample[]) => percentile(s.map((x) => x.ms), 99)
        const bOk = count(together.b!, (s) => s === 200)
        const aOk = count(together.a!, (s) => s === 200)
        const aLimited = count(together.a!, (s) => s === 429)
        const rise = p99(together.b!) / p99(alone) - 1
        report({
          id: 'LD-05',
          name: `noisy neighbour (B at 25/s, half its 50/s quota; A at 250/s, 5x; ${seconds} s each)`,
          figure: `B ${bOk}/${together.b!.length} x 200; A ${aOk} x 200, ${aLimited} x 429; B p99 alone ${p99(alone).toFixed(1)} ms, beside A ${p99(together.b!).toFixed(1)} ms (${(rise * 100).toFixed(0)}%)`,
          pass: bOk === together.b!.length && count(alone, (s) => s === 200) === alone.length && aLimited > 0 && (rise <= 0.2 || p99(together.b!) - p99(alone) <= 2),
        })
      } finally {
        await limited.stop()
      }
    }

    if (selected('LD-07')) {
      const minutes = Number(values['soak-minutes'])
      const seconds = Math.max(10, Math.round(minutes * 60))
      const rss: { at: number; kb: number }[] = []
      const connections: number[] = []
      const redisConnections: number[] = []
      const admin = new pg.Client({ connectionString: database.url })
      await admin.connect()
      const redisAdmin = new Redis(redisUrl)
      // The event-loop delay is counted from here: the probe restarts its totals within a second.
      writeFileSync(`${loopProbeFile}.reset`, '')
      await sleep(1100)
      const started = Date.now()
      let sampling = true
      const sampler = (async () => {
        while (sampling) {
          const status = readFileSync(`/proc/${server!.child.pid}/status`, 'utf8')
          rss.push({ at: Date.now() - started, kb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) })
          const res = await admin.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')
          connections.push(res.rows[0]!.n)
          // The server names its Redis connections commerce-api-<pid> (src/db/redis.ts).
          const clients = (await redisAdmin.client('LIST')) as string
          redisConnections.push(clients.split('\n').filter((line) => line.includes(` name=commerce-api-${server!.child.pid} `)).length)
          await sleep(Math.min(1000, (seconds * 1000) / 20))
        }
      })()
      const out = await openModel(server.url, [{ name: 'orders', rate: 25, request: orderRequest }, { name: 'reads', rate: 100, request: readRequest }, { name: 'searches', rate: 25, request: searchRequest }], seconds)
      sampling = false
      await sampler
      await admin.end()
      redisAdmin.disconnect()
      const loop = readFileSync(loopProbeFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { at: number; p99: number; max: number; totalP99: number; totalMax: number })
      const soakLoop = loop.filter((l) => l.at >= started)
      const loopP99 = soakLoop.at(-1)?.totalP99 ?? Number.NaN
      const loopMax = soakLoop.at(-1)?.totalMax ?? Number.NaN
      const worstSecond = Math.max(...soakLoop.map((l) => l.p99))
      // Warm-up: the first fifth of the run; growth is the last fifth's mean over the second fifth's.
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)
      const window = (from: number, to: number) => mean(rss.filter((s) => s.at >= from * seconds * 1000 && s.at < to * seconds * 1000).map((s) => s.kb))
      const growth = window(0.8, 1.01) / window(0.2, 0.4) - 1
      const fivexx = count([...out.orders!, ...out.reads!, ...out.searches!], (s) => s >= 500 || s === 0)
      // Every order placed and every read answered: a soak whose requests were refused measures nothing.
      const refused = count(out.orders!, (s) => s !== 201) + count([...out.reads!, ...out.searches!], (s) => s !== 200)
      const peakMb = Math.max(...rss.map((s) => s.kb)) / 1024
      const peakAt = rss.find((s) => s.kb / 1024 === peakMb)!.at / 1000
      // The RSS over the run, a figure every 5 s (MiB), to tell a build's spike from growth.
      console.log(`LD-07 RSS every 5 s: ${rss.filter((_, i) => i % 5 === 0).map((s) => Math.round(s.kb / 1024)).join(' ')}`)
      const flat = (xs: number[]) => Math.max(...xs) - Math.min(...xs)
      const pass = peakMb < 300 && growth < 0.1 && Math.max(...connections) <= 12 && redisConnections.length > 0 && Math.min(...redisConnections) >= 1 && flat(redisConnections) === 0 && loopP99 < 50 && fivexx === 0 && refused === 0
      report({
        id: 'LD-07',
        name: `soak (25 orders/s + 100 reads/s + 25 searches/s, ${minutes} min, ${values.products} products)`,
        figure: `RSS ${Math.round(window(0.2, 0.4) / 1024)} -> ${Math.round(window(0.8, 1.01) / 1024)} MiB (${(growth * 100).toFixed(1)}%), peak ${Math.round(peakMb)} MiB (${Math.round(peakAt)} s in), PG connections ${Math.min(...connections)}-${Math.max(...connections)}, Redis connections ${Math.min(...redisConnections)}-${Math.max(...redisConnections)}, event-loop delay p99 ${loopP99} ms (max ${loopMax} ms, worst second's p99 ${worstSecond} ms), 5xx/failed ${fivexx}, other than 201/200 ${refused}, orders p99 ${ms(percentile(out.orders!.map((s) => s.ms), 99))}`,
        pass,
      })
    }

    if (selected('LD-09')) {
      const seconds = Number(values.duration ?? 600)
      const sorts = ['createdAt', 'updatedAt', 'name', 'brand', 'sku'].flatMap((by) => [`sortBy=${by}&sortOrder=asc`, `sortBy=${by}&sortOrder=desc`])
      // Request i is a combination no earlier request used: 10 sorts x 100 limits x any page.
      const combination = (i: number): Request => ({
        method: 'GET',
        path: `/api/v1/products?${sorts[i % 10]}&limit=${1 + (Math.floor(i / 10) % 100)}&page=${1 + Math.floor(i / 1000)}`,
        headers: readHeaders,
      })
      const rss: { at: number; kb: number }[] = []
      const started = Date.now()
      let sampling = true
      const sampler = (async () => {
        while (sampling) {
          const status = readFileSync(`/proc/${server!.child.pid}/status`, 'utf8')
          rss.push({ at: Date.now() - started, kb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) })
          await sleep(1000)
        }
      })()
      const out = (await openModel(server.url, [{ name: 'lists', rate: 100, request: combination }], seconds)).lists!
      sampling = false
      await sampler
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)
      const window = (from: number, to: number) => mean(rss.filter((s) => s.at >= from * seconds * 1000 && s.at < to * seconds * 1000).map((s) => s.kb)) / 1024
      const afterWarmUp = window(0.2, 0.3)
      const end = window(0.9, 1.01)
      const growth = end / afterWarmUp - 1
      const notOk = count(out, (s) => s !== 200)
      console.log(`LD-09 RSS every 10 s: ${rss.filter((_, i) => i % 10 === 0).map((s) => Math.round(s.kb / 1024)).join(' ')}`)
      report({
        id: 'LD-09',
        name: `catalog cache bound (${out.length} distinct product lists at 100/s, ${seconds} s)`,
        figure: `RSS after warm-up ${Math.round(afterWarmUp)} MiB, at the end ${Math.round(end)} MiB (${(growth * 100).toFixed(1)}%), peak ${Math.round(Math.max(...rss.map((s) => s.kb)) / 1024)} MiB, p99 ${ms(percentile(out.map((s) => s.ms), 99))}, other than 200 ${notOk}`,
        pass: growth < 0.1 && notOk === 0,
      })
    }

    if (selected('LD-08')) {
      const stepSeconds = Number(values['step-seconds'])
      const steps = [10, 25, 50, 75, 100, 150, 200, 300, 400, 500]
      let best = 0
      let beyondBad: string[] = []
      const figures: string[] = []
      for (const rate of steps) {
        const samples = (await openModel(server.url, [{ name: 'orders', rate, request: orderRequest }], stepSeconds)).orders!
        const p99 = percentile(samples.map((s) => s.ms), 99)
        const fivexx = count(samples, (s) => s >= 500 || s === 0)
        const ok = p99 < 1000 && fivexx / samples.length < 0.001
        figures.push(`${rate}/s: p99 ${ms(p99)}${fivexx ? `, ${fivexx} 5xx/failed` : ''}`)
        // Beyond the breakpoint the server sheds (429/503) or answers; it never hangs past 10 s.
        const bad = samples.filter((s) => s.status === 0 || s.ms > 10_000 || ![201, 409, 429, 503].includes(s.status))
        if (bad.length) beyondBad.push(`${rate}/s: ${bad.length} answers not 201/409/429/503 within 10 s (statuses ${[...new Set(bad.map((s) => s.status))]})`)
        if (ok) best = rate
        else break
      }
      beyondBad = beyondBad.slice(0, 3)
      console.log(`LD-08 steps: ${figures.join('; ')}`)
      report({
        id: 'LD-08',
        name: `breakpoint (orders ramped ${steps[0]} -> ${steps[steps.length - 1]}/s, ${stepSeconds} s a step)`,
        figure: `max rate with p99 < 1 s and 5xx < 0.1%: ${best}/s${beyondBad.length ? `; ${beyondBad.join('; ')}` : '; shed cleanly beyond it'}`,
        pass: best > 0 && beyondBad.length === 0,
      })
    }
  } finally {
    await server?.stop()
  }
}

/**
 * Runs one test file of the suite at the plan's nightly size (its size knob in `env`), on its own
 * fresh database of the same server as CI's PostgreSQL run; answers its exit code, output and seconds.
 */
async function runTestFile(file: string, env: Record<string, string>): Promise<{ code: number; output: string; seconds: number }> {
  const started = Date.now()
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', file], {
    cwd: root,
    env: { ...process.env, ...env, TEST_DATABASE_URL: baseUrl, TEST_REDIS_URL: redisUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let output = ''
  child.stdout!.on('data', (c: Buffer) => {
    output += c
    process.stdout.write(c)
  })
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)))
  return { code, output, seconds: Math.round((Date.now() - started) / 1000) }
}

/** Rows whose CI test runs a smaller size than the plan's: the same file at the plan's size. */
const PLAN_SIZE_ROWS: { id: string; name: string; file: string; env: Record<string, string> }[] = [
  { id: 'DI-19', name: 'ledger model, 1,000 runs (and DI-22 points sequences)', file: 'test/orders/ledger-model.test.ts', env: { PROPERTY_RUNS: '1000' } },
  { id: 'DI-20', name: 'scheduler interleavings, 500 runs', file: 'test/orders/interleavings.test.ts', env: { PROPERTY_RUNS: '500' } },
  { id: 'FT-01', name: "PostgreSQL outages in the plan's 60 s run (load 20 s before each fault, 40 s after)", file: 'test/faults/postgres-outage.test.ts', env: { FT01_BEFORE_S: '20', FT01_AFTER_S: '40' } },
  { id: 'FT-06', name: 'SIGKILL at each step of order creation, 10 times each', file: 'test/faults/crash-order-steps.test.ts', env: { FT06_REPEATS: '10' } },
  { id: 'FT-07', name: '20 x SIGKILL at random moments under an order load (16 clients)', file: 'test/faults/random-kill.test.ts', env: { FT07_KILLS: '20', FT07_CLIENTS: '16' } },
]

async function planSizeRows() {
  for (const row of PLAN_SIZE_ROWS.filter((r) => selected(r.id))) {
    const { code, output, seconds } = await runTestFile(row.file, row.env)
    const passed = /ℹ pass (\d+)/.exec(output)?.[1] ?? '?'
    const failed = /ℹ fail (\d+)/.exec(output)?.[1] ?? '?'
    report({ id: row.id, name: row.name, figure: `${row.file}: ${passed} passed, ${failed} failed in ${seconds} s`, pass: code === 0 })
  }
}

async function fuzzRow() {
  // The fuzzer builds its own app in process, on its own fresh database of the same server.
  const runs = values['fuzz-runs']!
  const { code, output, seconds } = await runTestFile('test/security/fuzz.stress.ts', { FUZZ_RUNS: runs })
  const requests = /fuzz: (\d+) requests in/.exec(output)?.[1]
  const failed = /ℹ fail (\d+)/.exec(output)?.[1]
  const slowest = /fuzz: slowest answer (\d+) ms/.exec(output)?.[1]
  const slowestLarge = /fuzz: slowest answer to a body of .*? (\d+) ms/.exec(output)?.[1]
  report({
    id: 'BI-01',
    name: `schema fuzz, every route (${runs} runs a route)`,
    figure: `${requests ?? '?'} requests in ${seconds} s, ${failed ?? '?'} routes failed, slowest ${slowest ?? '?'} ms (large bodies ${slowestLarge ?? '?'} ms)`,
    pass: code === 0,
  })
}

/** BI-02: the plan's critical routes (orders, returns, provider webhooks, upload signing, wallet), deeper. */
const CRITICAL_ROUTES = [
  'POST /api/v1/orders',
  'POST /api/v1/returns',
  'POST /api/v1/payments/webhooks/{provider}',
  'POST /api/v1/returns/uploads/signed-urls',
  'POST /api/v1/support/uploads/signed-urls',
  'GET /api/v1/wallet',
  'POST /api/v1/wallet/quote',
]

async function criticalFuzzRow() {
  const runs = values['critical-fuzz-runs']!
  const { code, output, seconds } = await runTestFile('test/security/fuzz.stress.ts', { FUZZ_RUNS: runs, FUZZ_ROUTES: CRITICAL_ROUTES.join(',') })
  const requests = /fuzz: (\d+) requests in/.exec(output)?.[1]
  const failed = /ℹ fail (\d+)/.exec(output)?.[1]
  const slowest = /fuzz: slowest answer (\d+) ms/.exec(output)?.[1]
  report({
    id: 'BI-02',
    name: `deep fuzz of the critical routes (${CRITICAL_ROUTES.length} routes, ${runs} runs a route)`,
    figure: `${requests ?? '?'} requests in ${seconds} s, ${failed ?? '?'} routes failed, slowest ${slowest ?? '?'} ms`,
    pass: code === 0,
  })
}

/** DI-21: the mutation score of the ledger, stock, refund and idempotency code (scripts/mutate.ts). */
async function mutationRow() {
  const started = Date.now()
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/mutate.ts'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  let output = ''
  child.stdout!.on('data', (c: Buffer) => {
    output += c
    process.stdout.write(c)
  })
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)))
  const score = /mutate: (\d+) of (\d+) killed, score ([\d.]+)%/.exec(output)
  report({
    id: 'DI-21',
    name: 'mutation score of ledger, stock, refund and idempotency code (scripts/mutate.ts)',
    figure: score ? `${score[1]} of ${score[2]} mutants killed, ${score[3]}% in ${Math.round((Date.now() - started) / 60_000)} min` : 'no score (see the output above)',
    pass: code === 0 && score !== null,
  })
}

/** I1-I8 (test/helpers/invariants.ts) over everything the load rows wrote. */
async function invariantRow() {
  const db = await openDatabase({ databaseUrl: database.url, pgliteDir: null, poolSize: 1 })
  try {
    const violations = await invariantViolations(db.db)
    report({
      id: 'I1-I8',
      name: 'invariant sweep over what the load rows wrote',
      figure: violations.length ? `${violations.length} violation(s): ${violations.slice(0, 3).join('; ')}` : '0 violations',
      pass: violations.length === 0,
    })
  } finally {
    await db.close()
  }
}

try {
  // The load rows share one server and database; the sweep checks what they wrote.
  if (['LD-01', 'LD-02', 'WH-01', 'LD-03', 'LD-05', 'LD-07', 'LD-09', 'LD-08'].some(selected)) {
    await loadRows()
    await invariantRow()
  }
  await planSizeRows()
  if (selected('BI-01')) await fuzzRow()
  if (selected('BI-02')) await criticalFuzzRow()
  if (selected('DI-21')) await mutationRow()
} finally {
  await database.drop()
  rmSync(dataDir, { recursive: true, force: true })
}

console.log('\n| Row | Check | Figure | Result |\n|---|---|---|---|')
for (const r of rows) console.log(`| ${r.id} | ${r.name} | ${r.figure} | ${r.pass ? 'PASS' : 'FAIL'} |`)
process.exitCode = rows.length > 0 && rows.every((r) => r.pass) ? 0 : 1
