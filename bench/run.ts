// `npm run bench`: catalog read throughput and latency at N products (default 100,000), with
// autocannon (50 connections) against the real server in its own process (one worker, embedded
// database unless DATABASE_URL is set), beside a bare Fastify route (the ceiling) in the same run.
// Options: --products N, --duration S, --connections C. Results: printed, and bench/results/latest.json.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
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
    only: { type: 'string', description: 'Run only the scenarios whose name contains this' },
  },
})
const products = Number(values.products)
const duration = Number(values.duration)
const connections = Number(values.connections)
const root = new URL('../', import.meta.url).pathname
const dataDir = join(root, 'data', `bench-${products}${process.env.DATABASE_URL ? '-postgres' : ''}`)
const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', AUTH_SECRET: 'bench-secret-bench-secret-bench-secret', RATE_LIMIT_MAX: '1000000', WORKERS: '1' }

interface BenchData {
  catalogId: string
  apiKey: string
}
const dataFile = join(dataDir, 'bench.json')
if (!existsSync(dataFile)) {
  mkdirSync(dataDir, { recursive: true })
  console.log(`Generating ${products} products (once; kept in ${dataDir})...`)
  const out = execFileSync(process.execPath, ['bin/commerce.js', 'bench-data', '--products', String(products), '--json'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] })
  writeFileSync(dataFile, out)
}
const data = JSON.parse(readFileSync(dataFile, 'utf8')) as BenchData

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
const server = start(['src/server.ts'], 3901)
const ceiling = start(['bench/ceiling.ts'], 3902)
try {
  await waitFor(`${API}/api/v1/health/live`)
  await waitFor('http://127.0.0.1:3902/ceiling')
  const headers = { 'x-api-key': data.apiKey }
  const list = (await (await fetch(`${API}/api/v1/products?limit=100&sortBy=name&sortOrder=asc`, { headers })).json()) as { data: { slug: string }[] }
  const slugs: string[] = list.data.map((p: { slug: string }) => p.slug)
  const judgments = JSON.parse(readFileSync(join(root, 'bench', 'search-judgments.json'), 'utf8')) as { query: string }[]
  const queries = judgments.map((j) => j.query)

  interface Scenario {
    name: string
    base: string
    paths: string[]
    headers?: Record<string, string>
    connections?: number
  }
  const scenarios: Scenario[] = [
    { name: 'ceiling: bare Fastify, same body', base: 'http://127.0.0.1:3902', paths: ['/ceiling'] },
    { name: 'GET /products?limit=20', base: API, paths: ['/api/v1/products?limit=20'], headers },
    {
      name: 'GET /products filtered + sorted',
      base: API,
      paths: ['Samsung', 'boAt', 'Prestige', 'Tata Sampann', 'Fabindia'].map((b) => `/api/v1/products?brand=${encodeURIComponent(b)}&sortBy=name&sortOrder=asc&limit=20`),
      headers,
    },
    { name: 'GET /products/{slug}', base: API, paths: slugs.map((s) => `/api/v1/products/${s}`), headers },
    { name: 'GET /search?q=… (uncached)', base: API, paths: queries.map((q) => `/api/v1/search?q=${encodeURIComponent(q)}&limit=20`), headers },
    {
      name: 'GET /search?q=… (uncached, 1 conn)',
      base: API,
      paths: queries.map((q) => `/api/v1/search?q=${encodeURIComponent(q)}&limit=20`),
      headers,
      connections: 1,
    },
  ]

  const results = []
  for (const s of scenarios.filter((x, i) => i === 0 || !values.only || x.name.includes(values.only!))) {
    // Warm-up: fills caches (list and slug reads are meant to be served from them) and JIT.
    for (const path of s.paths.slice(0, 100)) await fetch(`${s.base}${path}`, { headers: s.headers })
    let i = 0
    const r = await autocannon({
      url: s.base,
      connections: s.connections ?? connections,
      duration,
      headers: s.headers,
      requests: [{ method: 'GET', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: s.paths[i++ % s.paths.length] }) }],
    })
    const row = { scenario: s.name, requestsPerSecond: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx }
    results.push(row)
    console.log(`${row.scenario.padEnd(36)} ${String(row.requestsPerSecond).padStart(7)} req/s   p50 ${String(row.p50).padStart(4)} ms   p99 ${String(row.p99).padStart(4)} ms   errors ${row.errors}`)
  }
  const ceilingRps = results[0]!.requestsPerSecond
  console.log('\n| Scenario | req/s | p50 ms | p99 ms | of ceiling |\n|---|---:|---:|---:|---:|')
  for (const r of results) console.log(`| ${r.scenario} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${Math.round((r.requestsPerSecond / ceilingRps) * 100)}% |`)
  mkdirSync(join(root, 'bench', 'results'), { recursive: true })
  writeFileSync(
    join(root, 'bench', 'results', 'latest.json'),
    JSON.stringify({ at: new Date().toISOString(), products, connections, duration, cpus: availableParallelism(), cpu: cpus()[0]?.model, database: process.env.DATABASE_URL ? 'postgres' : 'pglite', results }, null, 2),
  )
} finally {
  server.kill('SIGTERM')
  ceiling.kill('SIGTERM')
}
