// `npm run bench`: catalog read throughput and latency at N products (default 100,000), with
// autocannon (50 connections) against the real server in its own process (one worker, embedded
// database unless DATABASE_URL is set), beside a bare Fastify route (the ceiling) in the same run.
// Order creation (POST /orders, COD, one item) is measured at C connections and at a fixed rate
// (--rate, default 200 orders/s), over 200 customers and 3,000 products round-robin, each request
// with its own idempotency key; bench/orders-data.ts prepares zones and stock first.
// Options: --products N, --duration S, --connections C, --rate R, --only TEXT (scenarios whose name
// contains it, e.g. `--only orders`). Results: printed, and bench/results/latest.json.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    rate: { type: 'string', default: '200', description: 'Requests/s of the fixed-rate order scenario' },
    only: { type: 'string', description: 'Run only the scenarios whose name contains this' },
  },
})
const products = Number(values.products)
const duration = Number(values.duration)
const connections = Number(values.connections)
const rate = Number(values.rate)
const root = new URL('../', import.meta.url).pathname
const dataDir = join(root, 'data', `bench-${products}${process.env.DATABASE_URL ? '-postgres' : ''}`)
const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', PAYMENT_SANDBOX_IN_PRODUCTION: 'true', AUTH_SECRET: 'bench-secret-bench-secret-bench-secret', RATE_LIMIT_MAX: '1000000', RATE_LIMIT_AUTH_MAX: '1000000', WORKERS: process.env.BENCH_WORKERS ?? '1' }

interface BenchData {
  catalogId: string
  apiKey: string
  partnerId: string
  partnerSecret: string
}
const dataFile = join(dataDir, 'bench.json')
if (!existsSync(dataFile)) {
  mkdirSync(dataDir, { recursive: true })
  console.log(`Generating ${products} products (once; kept in ${dataDir})...`)
  const out = execFileSync(process.execPath, ['bin/commerce.js', 'bench-data', '--products', String(products), '--json'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] })
  writeFileSync(dataFile, out)
}
const data = JSON.parse(readFileSync(dataFile, 'utf8')) as BenchData

const selected = (name: string) => !values.only || name.includes(values.only)
const ORDER_SCENARIOS = { open: 'POST /orders (COD, 1 item)', fixed: `POST /orders at ${rate}/s (COD, 1 item)` }
const ORDER_CUSTOMERS = 200
const ORDER_PRODUCTS = 3000
let orderProducts: string[] = []
if (Object.values(ORDER_SCENARIOS).some(selected)) {
  // Before the server starts: the embedded database serves one process.
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/orders-data.ts', '--catalog', data.catalogId, '--count', String(ORDER_PRODUCTS)], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  orderProducts = (JSON.parse(out.toString()) as { productIds: string[] }).productIds
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
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] })
  return child
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
const server = start([...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []), 'src/server.ts'], 3901)
const ceiling = start(['bench/ceiling.ts'], 3902)
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
  }
  const gets = (paths: string[]) => ({ request: (i: number) => ({ path: paths[i % paths.length]! }), warmup: Math.min(100, paths.length), ofCeiling: true })

  // Orders: customers (the partner vouches for their phones) with tokens fetched just before each
  // order scenario (they last 15 minutes); keys unique per request across runs.
  let customerTokens: string[] = []
  let tokensAt = 0
  async function customerTokensFresh() {
    if (customerTokens.length > 0 && Date.now() - tokensAt < 10 * 60_000) return
    tokensAt = Date.now()
    const issue = async (n: number) => {
      const res = await fetch(`${API}/api/v1/auth/customer-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-partner-id': data.partnerId, 'x-partner-secret': data.partnerSecret },
        body: JSON.stringify({ phone: `9${String(800_000_000 + n)}`, name: 'Bench' }),
      })
      if (!res.ok) throw new Error(`customer-token: ${res.status} ${await res.text()}`)
      return ((await res.json()) as { data: { accessToken: string } }).data.accessToken
    }
    const tokens: string[] = []
    for (let n = 0; n < ORDER_CUSTOMERS; n += 20) tokens.push(...(await Promise.all(Array.from({ length: Math.min(20, ORDER_CUSTOMERS - n) }, (_, k) => issue(n + k)))))
    customerTokens = tokens
  }
  const runId = randomUUID()
  let orderSeq = 0
  const shippingAddress = { name: 'Asha Rao', phone: '9876543210', line1: '12 MG Road', landmark: 'Near metro', city: 'Bengaluru', state: 'Karnataka', pincode: '560001' }
  const orderRequest = (): Request => {
    const n = orderSeq++
    return {
      path: '/api/v1/orders',
      headers: { authorization: `Bearer ${customerTokens[n % customerTokens.length]!}`, 'x-idempotency-key': `bench-${runId}-${n}` },
      body: JSON.stringify({ items: [{ productId: orderProducts[n % orderProducts.length]!, quantity: 1 }], shippingAddress, paymentMode: 'COD' }),
    }
  }
  const orders = {
    base: API,
    method: 'POST' as const,
    request: orderRequest,
    warmup: 200,
    headers: { 'content-type': 'application/json', 'x-partner-id': data.partnerId },
    prepare: customerTokensFresh,
  }

  const scenarios: Scenario[] = [
    { name: 'ceiling: bare Fastify, same body', base: 'http://127.0.0.1:3902', ...gets(['/ceiling']) },
    { name: 'GET /products?limit=20', base: API, ...gets(['/api/v1/products?limit=20']), headers },
    {
      name: 'GET /products filtered + sorted',
      base: API,
      ...gets(['Samsung', 'boAt', 'Prestige', 'Tata Sampann', 'Fabindia'].map((b) => `/api/v1/products?brand=${encodeURIComponent(b)}&sortBy=name&sortOrder=asc&limit=20`)),
      headers,
    },
    { name: 'GET /products/{slug}', base: API, ...gets(slugs.map((s) => `/api/v1/products/${s}`)), headers },
    { name: 'GET /search?q=… (uncached)', base: API, ...gets(queries.map((q) => `/api/v1/search?q=${encodeURIComponent(q)}&limit=20`)), headers },
    {
      name: 'GET /search?q=… (uncached, 1 conn)',
      base: API,
      ...gets(queries.map((q) => `/api/v1/search?q=${encodeURIComponent(q)}&limit=20`)),
      headers,
      connections: 1,
    },
    { name: ORDER_SCENARIOS.open, ...orders },
    { name: ORDER_SCENARIOS.fixed, ...orders, overallRate: rate },
  ]

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
    const r = await autocannon({
      url: s.base,
      connections: s.connections ?? connections,
      ...(s.overallRate ? { overallRate: s.overallRate } : {}),
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
    const row = {
      scenario: s.name,
      connections: s.connections ?? connections,
      rate: s.overallRate ?? null,
      requestsPerSecond: Math.round(r.requests.average),
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors,
      non2xx: r.non2xx,
      ofCeiling: s.ofCeiling === true,
      /** The server process's CPU time (user + system) per request answered, in ms. */
      serverCpuPerRequest: s.base === API && r.requests.total > 0 ? Math.round((serverCpuMs / r.requests.total) * 100) / 100 : null,
    }
    results.push(row)
    console.log(
      `${row.scenario.padEnd(40)} ${String(row.requestsPerSecond).padStart(7)} req/s   p50 ${String(row.p50).padStart(4)} ms   p99 ${String(row.p99).padStart(4)} ms   errors ${row.errors}   non-2xx ${row.non2xx}${row.serverCpuPerRequest === null ? '' : `   server CPU ${row.serverCpuPerRequest} ms/req`}`,
    )
    for (const [status, body] of failures) console.log(`  ${status}: ${body}`)
  }
  const ceilingRps = results[0]!.requestsPerSecond
  console.log('\n| Scenario | req/s | p50 ms | p99 ms | errors | non-2xx | of ceiling |\n|---|---:|---:|---:|---:|---:|---:|')
  for (const r of results) {
    const share = r.ofCeiling ? `${Math.round((r.requestsPerSecond / ceilingRps) * 100)}%` : '—'
    console.log(`| ${r.scenario} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${share} |`)
  }
  mkdirSync(join(root, 'bench', 'results'), { recursive: true })
  writeFileSync(
    join(root, 'bench', 'results', 'latest.json'),
    JSON.stringify(
      { at: new Date().toISOString(), products, connections, duration, cpus: availableParallelism(), cpu: cpus()[0]?.model, database: process.env.DATABASE_URL ? 'postgres' : 'pglite', results },
      null,
      2,
    ),
  )
} finally {
  server.kill('SIGTERM')
  ceiling.kill('SIGTERM')
}
