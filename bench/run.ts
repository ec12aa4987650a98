// `npm run bench`: the service's throughput and latency at N products (default 100,000), with
// autocannon (50 connections) in this process against the real server in its own process (one
// worker unless BENCH_WORKERS), beside a bare Fastify route answering a body of the same size (the
// ceiling), in the same run. Both backends by default, one after the other: PostgreSQL + Redis
// (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/commerce_bench, created if
// missing; BENCH_REDIS_URL, default redis://127.0.0.1:6379) and the embedded database.
// Scenarios: categories; product lists (plain, a category with its descendants, sorted by name,
// with `search`); product by slug; /search (exact, typo and prefix queries of the judged set);
// profile read; wallet quote; support ticket list; order creation (COD, one item, its own
// idempotency key per request) as fast as answered (autocannon) and at a fixed rate (--rate,
// default 200/s; evenly spaced by bench/open-model.ts, latency from the moment each was due).
// Data: `commerce bench-data` (N products in ~230 categories) and bench/orders-data.ts (zones,
// 10,000 customers, orderable stock), made once per backend and kept in data/.
// Options: --backend both|postgres|pglite, --products N, --duration S, --connections C, --rate R,
// --only TEXT (scenarios whose name contains it, e.g. `--only orders`); --gst (the bench catalog has a
// GST seller: orders are taxed and COD orders invoiced as placed); --variants (the ordered products get
// three stored variants each); --catalog-variants (every other product gets five, Size x Colour, and
// a search scenario names option values: issue #41's 100,000 x 5 target).
// Prints a table (req/s, p50, p99, errors, share of the ceiling, server CPU per request, server RSS)
// and writes bench/results/<date>-<backend>.json and the backend's section of docs/benchmarks.md
// (a run with --only: bench/results/partial-<backend>.json only).
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import pg from 'pg'
import { openModel } from './open-model.ts'
import { BENCH_ADDRESS, codOrders, customerTokens, type OrderLine } from './workload.ts'

const { values } = parseArgs({
  options: {
    backend: { type: 'string', default: 'both' },
    products: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    rate: { type: 'string', default: '200', description: 'Requests/s of the fixed-rate order scenario' },
    only: { type: 'string', description: 'Run only the scenarios whose name contains this' },
    gst: { type: 'boolean', default: false, description: "The bench catalog gets a GST seller: orders are taxed and COD orders invoiced as they are placed (without it, the seller is removed)" },
    variants: { type: 'boolean', default: false, description: 'The ordered products get options (Size S, M, L: three stored variants each) and orders name a variant (decision 0043)' },
    'catalog-variants': { type: 'boolean', default: false, description: 'Every other product gets options Size x Colour, five stored variants (bench/catalog-variants.ts), and a search scenario names option values' },
  },
})
if (values.backend === 'both') {
  // One process per backend: each starts its own server and may generate its own data.
  const rest = process.argv.slice(2).filter((a, i, all) => a !== '--backend' && all[i - 1] !== '--backend' && !a.startsWith('--backend='))
  let status = 0
  for (const backend of ['postgres', 'pglite']) {
    console.log(`\n### ${backend === 'postgres' ? 'PostgreSQL + Redis' : 'Embedded PGlite'}\n`)
    status ||= spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...rest, '--backend', backend], { stdio: 'inherit' }).status ?? 1
  }
  process.exit(status)
}
if (values.backend !== 'postgres' && values.backend !== 'pglite') throw new Error('--backend must be both, postgres or pglite')
const backend = values.backend
const products = Number(values.products)
const duration = Number(values.duration)
const connections = Number(values.connections)
const rate = Number(values.rate)
const root = new URL('../', import.meta.url).pathname
const databaseUrl = backend === 'postgres' ? (process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/commerce_bench') : ''
const redisUrl = backend === 'postgres' ? (process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379') : ''
if (databaseUrl) await createDatabaseIfMissing(databaseUrl)
const dataDir = join(root, 'data', `bench-${products}${backend === 'postgres' ? '-postgres' : ''}`)
const env = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl,
  REDIS_PREFIX: 'commerce-bench:',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
  PAYMENT_SANDBOX_IN_PRODUCTION: 'true',
  AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
  // The limits' highest values per one-second window: the scenarios measure the service, not its
  // limiter. With the default one-minute window, five read scenarios at 20,000 req/s each (10 s)
  // passed a million in one window, and the later ones measured 429s (2026-11-28).
  RATE_LIMIT_MAX: '1000000',
  RATE_LIMIT_AUTH_MAX: '1000000',
  RATE_LIMIT_WINDOW_MS: '1000',
  WORKERS: process.env.BENCH_WORKERS ?? '1',
}

async function createDatabaseIfMissing(url: string) {
  const target = new URL(url)
  const name = decodeURIComponent(target.pathname.slice(1))
  const admin = new URL(url)
  admin.pathname = '/postgres'
  const client = new pg.Client({ connectionString: admin.toString() })
  await client.connect()
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name])
    if (found.rowCount === 0) await client.query(`create database "${name.replace(/"/g, '""')}"`)
  } finally {
    await client.end()
  }
}

interface BenchData {
  catalogId: string
  apiKey: string
  partnerId: string
  partnerSecret: string
  databaseUrl?: string
}
const dataFile = join(dataDir, 'bench.json')
const known = existsSync(dataFile) ? (JSON.parse(readFileSync(dataFile, 'utf8')) as BenchData) : null
if (!known || (known.databaseUrl ?? '') !== databaseUrl) {
  mkdirSync(dataDir, { recursive: true })
  console.log(`Generating ${products} products (once; kept in ${dataDir})...`)
  const out = execFileSync(process.execPath, ['bin/commerce.js', 'bench-data', '--products', String(products), '--json'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] })
  writeFileSync(dataFile, JSON.stringify({ ...(JSON.parse(out.toString()) as BenchData), databaseUrl }))
}
const data = JSON.parse(readFileSync(dataFile, 'utf8')) as BenchData

const selected = (name: string) => !values.only || name.includes(values.only)
const ORDER_SCENARIOS = { open: 'POST /orders (COD, 1 item)', fixed: `POST /orders at ${rate}/s (COD, 1 item)`, flash: 'POST /orders flash sale: 1,000 buyers at once, 500 units (COD)' }
const CUSTOMER_SCENARIOS = ['GET /users/me', 'POST /wallet/quote', 'GET /support/tickets', ...Object.values(ORDER_SCENARIOS)]
/** The flash sale's crowd: each buyer orders one unit once, all at the same moment. */
const FLASH_BUYERS = 1000
const ORDER_CUSTOMERS = 200
const ORDER_PRODUCTS = 3000
let orderProducts: OrderLine[] = []
let flash: { productId: string; slug: string; stock: number } | null = null
if (CUSTOMER_SCENARIOS.some(selected)) {
  // Before the server starts: the embedded database serves one process.
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/orders-data.ts', '--catalog', data.catalogId, '--partner', data.partnerId, '--count', String(ORDER_PRODUCTS), ...(values.gst ? ['--gst'] : []), ...(values.variants ? ['--variants'] : [])], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  ;({ lines: orderProducts, flash } = JSON.parse(out.toString()) as { lines: OrderLine[]; flash: { productId: string; slug: string; stock: number } })
}
// After the ordered products got theirs (--variants): the rest of the catalog's options, on or off.
execFileSync(process.execPath, ['--import', 'tsx', 'bench/catalog-variants.ts', '--catalog', data.catalogId, values['catalog-variants'] ? '--on' : '--off'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] })

/** Resident memory of a process, in MB, from /proc (Linux). */
function processRssMb(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))
    return Math.round(Number(line?.split(/\s+/)[1]) / 1024)
  } catch {
    return Number.NaN
  }
}

/** CPU time (user + system) a process has used so far, from /proc (Linux), in ms; with WORKERS > 1 the primary's children are not counted. */
function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
    return (ticks * 1000) / 100
  } catch {
    return Number.NaN
  }
}

function start(args: string[], port: number): ChildProcess {
  return spawn(process.execPath, args, { cwd: root, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] })
}
async function waitFor(url: string) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${url} did not come up`)
}

const API = 'http://127.0.0.1:3901'
// The server runs as `npm start` runs it: the bundle of scripts/build.mjs, plain JavaScript.
execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' })
const server = start([...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []), 'dist/server.js'], 3901)
const ceiling = start(['--import', 'tsx', 'bench/ceiling.ts'], 3902)
try {
  await waitFor(`${API}/api/v1/health/live`)
  await waitFor('http://127.0.0.1:3902/ceiling')
  const headers = { 'x-api-key': data.apiKey }
  const list = (await (await fetch(`${API}/api/v1/products?limit=100&sortBy=name&sortOrder=asc`, { headers })).json()) as { data: { slug: string }[] }
  const slugs: string[] = list.data.map((p: { slug: string }) => p.slug)
  const judgments = JSON.parse(readFileSync(join(root, 'bench', 'search-judgments.json'), 'utf8')) as { query: string }[]
  const queries = judgments.map((j) => j.query)

  /** One request of a scenario; headers add to the scenario's. */
  interface Request {
    path: string
    headers?: Record<string, string>
    body?: string
  }
  interface Scenario {
    name: string
    base: string
    method?: 'GET' | 'POST'
    /** The i-th request of the run (or of the warm-up). */
    request: (i: number) => Request
    /** Requests sent one at a time before the run: caches and JIT. */
    warmup: number
    headers?: Record<string, string>
    connections?: number
    /** Fixed rate over all connections (requests/s) instead of as fast as answers come back. */
    overallRate?: number
    /** Read throughput is compared with the ceiling; writes are not. */
    ofCeiling?: boolean
    prepare?: () => Promise<void>
    /** Runs the scenario itself (not a load generator's loop): a burst measured to its own end. */
    run?: () => Promise<RunResult>
  }
  interface RunResult {
    requests: { average: number; total: number }
    latency: { p50: number; p99: number }
    errors: number
    non2xx: number
  }
  const gets = (paths: string[]) => ({ request: (i: number) => ({ path: paths[i % paths.length]! }), warmup: Math.min(100, paths.length), ofCeiling: true })

  // Orders: customers (the partner vouches for their phones) with tokens fetched just before each
  // order scenario (they last 15 minutes); keys unique per request across runs.
  let tokens: string[] = []
  let tokensAt = 0
  async function customerTokensFresh() {
    if (tokens.length > 0 && Date.now() - tokensAt < 10 * 60_000) return
    tokensAt = Date.now()
    tokens = await customerTokens(`${API}/api/v1`, data, ORDER_CUSTOMERS)
  }
  let orderSeq = 0
  const nextOrder = codOrders('bench')
  const orderRequest = (): Request => nextOrder(orderSeq++, tokens, orderProducts)
  const orders = {
    base: API,
    method: 'POST' as const,
    request: orderRequest,
    warmup: 200,
    headers: { 'content-type': 'application/json', 'x-partner-id': data.partnerId },
    prepare: customerTokensFresh,
  }

  // Customer scenarios: signed-in customers (tokens fetched before each scenario) with a few
  // support tickets each, made once.
  const customerGets = (path: string) => ({
    base: API,
    request: (i: number) => ({ path, headers: { authorization: `Bearer ${tokens[i % tokens.length]!}`, 'x-partner-id': data.partnerId } }),
    warmup: 100,
    prepare: customerTokensFresh,
  })
  const categories = (await (await fetch(`${API}/api/v1/categories`, { headers })).json()) as { data: { id: string; children: { id: string }[] }[] }
  const topCategoryIds = categories.data.map((c) => c.id)
  async function ticketsPresent() {
    await customerTokensFresh()
    const auth = (n: number) => ({ authorization: `Bearer ${tokens[n]!}`, 'x-partner-id': data.partnerId, 'content-type': 'application/json' })
    const first = (await (await fetch(`${API}/api/v1/support/tickets`, { headers: auth(0) })).json()) as { meta?: { total: number } }
    if ((first.meta?.total ?? 0) > 0) return
    for (let n = 0; n < ORDER_CUSTOMERS; n++) {
      for (let k = 0; k < 3; k++) {
        const res = await fetch(`${API}/api/v1/support/tickets`, { method: 'POST', headers: auth(n), body: JSON.stringify({ topic: `Delivery question ${k + 1}`, detail: 'When will my order arrive? It was due yesterday.' }) })
        if (!res.ok) throw new Error(`POST /support/tickets: ${res.status} ${await res.text()}`)
      }
    }
  }
  const searchPaths = (param: string, list = queries) => list.map((q) => `/api/v1/${param}${encodeURIComponent(q)}&limit=20`)
  // --catalog-variants: the judged queries' first two words with a colour and a size ("samsung galaxy red xl").
  const optionQueries = queries.map((q, i) => `${q.split(' ').slice(0, 2).join(' ')} ${['red', 'navy', 'black', 'olive'][i % 4]} ${['xl', 'm', 'xxl', 's'][i % 4]}`)

  const scenarios: Scenario[] = [
    { name: 'ceiling: bare Fastify, same body', base: 'http://127.0.0.1:3902', ...gets(['/ceiling']) },
    { name: 'GET /categories', base: API, ...gets(['/api/v1/categories']), headers },
    { name: 'GET /products?limit=20', base: API, ...gets(['/api/v1/products?limit=20']), headers },
    { name: 'GET /products?categoryId= (with descendants)', base: API, ...gets(topCategoryIds.map((id) => `/api/v1/products?categoryId=${id}&limit=20`)), headers },
    { name: 'GET /products?sortBy=name', base: API, ...gets(['asc', 'desc'].map((o) => `/api/v1/products?sortBy=name&sortOrder=${o}&limit=20`)), headers },
    {
      name: 'GET /products filtered + sorted',
      base: API,
      ...gets(['Samsung', 'boAt', 'Prestige', 'Tata Sampann', 'Fabindia'].map((b) => `/api/v1/products?brand=${encodeURIComponent(b)}&sortBy=name&sortOrder=asc&limit=20`)),
      headers,
    },
    { name: 'GET /products?search=', base: API, ...gets(searchPaths('products?search=')), headers },
    { name: 'GET /products/{slug}', base: API, ...gets(slugs.map((s) => `/api/v1/products/${s}`)), headers },
    { name: 'GET /search?q=… (uncached)', base: API, ...gets(searchPaths('search?q=')), headers },
    { name: 'GET /search?q=… (uncached, 1 conn)', base: API, ...gets(searchPaths('search?q=')), headers, connections: 1 },
    ...(values['catalog-variants'] ? [{ name: 'GET /search?q=… colour and size (uncached)', base: API, ...gets(searchPaths('search?q=', optionQueries)), headers }] : []),
    { name: 'GET /users/me', ...customerGets('/api/v1/users/me') },
    {
      name: 'POST /wallet/quote',
      base: API,
      method: 'POST',
      request: (i: number) => ({
        path: '/api/v1/wallet/quote',
        headers: { authorization: `Bearer ${tokens[i % tokens.length]!}` },
        body: JSON.stringify({ items: [{ ...orderProducts[i % orderProducts.length]!, quantity: 1 + (i % 3) }], pincode: '560001', useRewardPoints: true, useWalletCash: true }),
      }),
      warmup: 100,
      headers: { 'content-type': 'application/json', 'x-partner-id': data.partnerId },
      prepare: customerTokensFresh,
    },
    { name: 'GET /support/tickets', ...customerGets('/api/v1/support/tickets'), prepare: ticketsPresent },
    { name: ORDER_SCENARIOS.open, ...orders },
    { name: ORDER_SCENARIOS.fixed, ...orders, overallRate: rate },
    // The options the catalog-wide variants give every product would make the flash product need a variantId.
    ...(values['catalog-variants'] ? [] : [{ name: ORDER_SCENARIOS.flash, base: API, request: orderRequest, warmup: 0, prepare: flashBuyersSignedIn, run: flashSale }]),
  ]

  /**
   * A flash sale (issue #43): FLASH_BUYERS customers order one unit each of one product holding
   * `flash.stock`, all sent at once. Exactly `stock` orders must succeed and the rest be refused as
   * out of stock (409), and the product must be left at 0: anything else fails the bench. Its
   * req/s is orders placed per second until the last of them was answered; p50/p99 of every answer.
   */
  let buyers: string[] = []
  async function flashBuyersSignedIn() {
    buyers = await customerTokens(`${API}/api/v1`, data, FLASH_BUYERS)
  }
  async function flashSale(): Promise<RunResult> {
    const runId = randomUUID()
    const started = performance.now()
    const answers = await Promise.all(
      buyers.map(async (token, n) => {
        const sent = performance.now()
        const res = await fetch(`${API}/api/v1/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-partner-id': data.partnerId, authorization: `Bearer ${token}`, 'x-idempotency-key': `flash-${runId}-${n}` },
          body: JSON.stringify({ items: [{ productId: flash!.productId, quantity: 1 }], shippingAddress: BENCH_ADDRESS, paymentMode: 'COD' }),
        }).catch(() => null)
        const body = res ? await res.text() : ''
        return { status: res?.status ?? 0, body, ms: performance.now() - sent, at: performance.now() - started }
      }),
    )
    const placed = answers.filter((a) => a.status === 201)
    const refused = answers.filter((a) => a.status === 409)
    const other = answers.filter((a) => a.status !== 201 && a.status !== 409)
    const product = (await (await fetch(`${API}/api/v1/products/${flash!.slug}`, { headers })).json()) as { data?: { stock: number } }
    if (placed.length !== flash!.stock || other.length > 0 || product.data?.stock !== 0) {
      throw new Error(`flash sale: ${placed.length} orders placed of ${flash!.stock} units, ${refused.length} refused, ${other.length} other (${other.slice(0, 3).map((a) => `${a.status} ${a.body.slice(0, 200)}`).join('; ')}), stock left ${product.data?.stock}`)
    }
    const seconds = Math.max(...placed.map((a) => a.at)) / 1000
    const sorted = answers.map((a) => a.ms).sort((a, b) => a - b)
    const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0)
    console.log(`  flash sale: ${placed.length} placed in ${seconds.toFixed(2)} s, ${refused.length} refused out of stock, stock left 0`)
    return { requests: { average: placed.length / seconds, total: answers.length }, latency: { p50: at(0.5), p99: at(0.99) }, errors: 0, non2xx: refused.length }
  }

  /** A fixed-rate scenario through the open-model generator (bench/open-model.ts), shaped like autocannon's result. */
  async function fixedRate(s: Scenario, rate: number, failures: Map<number, string>) {
    const started = performance.now()
    const samples = (
      await openModel(s.base, [{ name: s.name, rate, request: (n) => { const q = s.request(n); return { method: s.method ?? 'GET', path: q.path, headers: { ...s.headers, ...q.headers }, body: q.body } } }], duration)
    )[s.name]!
    const seconds = (performance.now() - started) / 1000
    const sorted = samples.map((x) => x.ms).sort((a, b) => a - b)
    const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0)
    for (const x of samples) if (x.status >= 300 && !failures.has(x.status)) failures.set(x.status, `status ${x.status}`)
    return {
      requests: { average: samples.length / seconds, total: samples.length },
      latency: { p50: at(0.5), p99: at(0.99) },
      errors: samples.filter((x) => x.status === 0).length,
      non2xx: samples.filter((x) => x.status >= 300).length,
    }
  }

  const results = []
  for (const s of scenarios.filter((x, i) => i === 0 || selected(x.name))) {
    await s.prepare?.()
    // Warm-up: fills caches (list and slug reads are meant to be served from them) and JIT.
    for (let w = 0; w < s.warmup; w++) {
      const q = s.request(w)
      const res = await fetch(`${s.base}${q.path}`, { method: s.method ?? 'GET', headers: { ...s.headers, ...q.headers }, body: q.body })
      const text = await res.text()
      if (s.method === 'POST' && !res.ok) throw new Error(`${s.name}: warm-up answered ${res.status} ${text}`)
    }
    let i = 0
    const failures = new Map<number, string>()
    const cpuBefore = processCpuMs(server.pid!)
    const r = s.run ? await s.run() : s.overallRate ? await fixedRate(s, s.overallRate, failures) : await autocannon({
      url: s.base,
      connections: s.connections ?? connections,
      duration,
      headers: s.headers,
      requests: [
        {
          method: s.method ?? 'GET',
          setupRequest: (req: { headers?: Record<string, string> }) => {
            const q = s.request(i++)
            return { ...req, path: q.path, ...(q.headers ? { headers: { ...req.headers, ...q.headers } } : {}), ...(q.body ? { body: q.body } : {}) }
          },
          // Writes: keep one answer of each failing status, to show why.
          ...(s.method === 'POST' ? { onResponse: (status: number, body: string) => void (status >= 300 && !failures.has(status) && failures.set(status, body.slice(0, 300))) } : {}),
        },
      ],
    })
    const serverCpuMs = processCpuMs(server.pid!) - cpuBefore
    const serverRssMb = processRssMb(server.pid!)
    const row = {
      scenario: s.name,
      connections: s.overallRate ? null : (s.connections ?? connections),
      rate: s.overallRate ?? null,
      requestsPerSecond: Math.round(r.requests.average),
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors,
      non2xx: r.non2xx,
      ofCeiling: s.ofCeiling === true,
      /** The server process's CPU time (user + system) per request answered, in ms. */
      serverCpuPerRequest: s.base === API && r.requests.total > 0 ? Math.round((serverCpuMs / r.requests.total) * 100) / 100 : null,
      /** The server's resident memory at the end of the scenario, in MB. */
      serverRssMb: s.base === API ? serverRssMb : null,
    }
    results.push(row)
    console.log(
      `${row.scenario.padEnd(40)} ${String(row.requestsPerSecond).padStart(7)} req/s   p50 ${String(row.p50).padStart(4)} ms   p99 ${String(row.p99).padStart(4)} ms   errors ${row.errors}   non-2xx ${row.non2xx}${row.serverCpuPerRequest === null ? '' : `   server CPU ${row.serverCpuPerRequest} ms/req`}`,
    )
    for (const [status, body] of failures) console.log(`  ${status}: ${body}`)
  }
  const ceilingRps = results[0]!.requestsPerSecond
  const at = new Date().toISOString()
  const table = [
    `${backend === 'postgres' ? 'PostgreSQL + Redis' : 'Embedded PGlite'}, ${products.toLocaleString('en-US')} products, ${connections} connections, ${duration} s per scenario, ${env.WORKERS} worker(s), ${at.slice(0, 16).replace('T', ' ')} UTC:`,
    '',
    '| Scenario | req/s | p50 ms | p99 ms | errors | non-2xx | of ceiling | server CPU ms/req | server RSS MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map((r) => {
      const share = r.ofCeiling ? `${Math.round((r.requestsPerSecond / ceilingRps) * 100)}%` : '—'
      return `| ${r.scenario} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${share} | ${r.serverCpuPerRequest ?? '—'} | ${r.serverRssMb ?? '—'} |`
    }),
  ].join('\n')
  console.log(`\n${table}`)
  const record = { at, backend, products, connections, duration, workers: Number(env.WORKERS), cpus: availableParallelism(), cpu: cpus()[0]?.model, results }
  mkdirSync(join(root, 'bench', 'results'), { recursive: true })
  // A full run is a record (dated, committed); a partial one (--only) goes to an ignored file.
  const resultFile = values.only ? `partial-${backend}.json` : `${at.slice(0, 10)}-${backend}.json`
  writeFileSync(join(root, 'bench', 'results', resultFile), `${JSON.stringify(record, null, 2)}\n`)
  // A full run (every scenario) is the run of record: it replaces the backend's section of the docs.
  if (!values.only) {
    const docs = join(root, 'docs', 'benchmarks.md')
    const begin = `<!-- bench:${backend} -->`
    const end = `<!-- /bench:${backend} -->`
    const text = readFileSync(docs, 'utf8')
    const from = text.indexOf(begin)
    const to = text.indexOf(end)
    if (from >= 0 && to > from) writeFileSync(docs, `${text.slice(0, from + begin.length)}\n${table}\n${text.slice(to)}`)
  }
} finally {
  server.kill('SIGTERM')
  ceiling.kill('SIGTERM')
}
