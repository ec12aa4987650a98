// `npm run bench:cluster`: the several-nodes cluster of `npm run cluster` (scripts/cluster.ts) measured
// from outside (issue #43): a cached catalog read and COD orders, 50 connections for 10 s each,
// through HAProxy (both nodes) and straight to one node (the other idle), in one run on one machine.
// Prints a table for docs/scaling.md. Usage: npm run bench:cluster [-- --duration 10 --connections 50]
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { startCluster } from '../scripts/cluster.ts'
import { codOrders, customerTokens } from './workload.ts'

const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' }, port: { type: 'string', default: '3960' } } })
const duration = Number(values.duration)
const connections = Number(values.connections)

// As npm run bench: rate limits out of the way of the load.
const cluster = await startCluster({ port: Number(values.port), log: (line) => console.log(`cluster: ${line}`), nodeEnv: { RATE_LIMIT_MAX: '1000000', RATE_LIMIT_AUTH_MAX: '1000000', RATE_LIMIT_WINDOW_MS: '1000' } })
try {
  const c = cluster.credentials
  const api = `${cluster.url}/api/v1`
  const admin = { authorization: `Bearer ${((await (await fetch(`${api}/admin/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: c.admin.email, password: c.admin.password }) })).json()) as { data: { accessToken: string } }).data.accessToken}`, 'content-type': 'application/json' }
  // Every demo product orderable for the whole run.
  const products = ((await (await fetch(`${api}/products?limit=100`, { headers: { 'x-api-key': c.apiKey } })).json()) as { data: { id: string; sellingPrice: string }[] }).data.filter((p) => Number(p.sellingPrice) < 20_000)
  for (const p of products) await fetch(`${api}/admin/products/${p.id}`, { method: 'PATCH', headers: admin, body: JSON.stringify({ stock: 1_000_000 }) })
  const tokens = await customerTokens(api, { partnerId: c.partner.id, partnerSecret: c.partner.secret }, 200)
  const lines = products.map((p) => ({ productId: p.id }))

  const rows: string[] = []
  for (const [target, base] of [['HAProxy, both nodes', cluster.url], ['one node', cluster.nodes[0]!.url]] as const) {
    const read = await autocannon({ url: `${base}/api/v1/products?limit=20`, connections, duration, headers: { 'x-api-key': c.apiKey } })
    rows.push(`| GET /products?limit=20 (cached) | ${target} | ${Math.round(read.requests.average)} | ${read.latency.p50} | ${read.latency.p99} | ${read.non2xx + read.errors} |`)
    const next = codOrders(`cluster-${target}`)
    let n = 0
    const orders = await autocannon({
      url: base,
      connections,
      duration,
      headers: { 'content-type': 'application/json', 'x-partner-id': c.partner.id },
      requests: [
        {
          method: 'POST',
          setupRequest: (req: { headers?: Record<string, string> }) => {
            const q = next(n++, tokens, lines)
            return { ...req, path: q.path, body: q.body, headers: { ...req.headers, ...q.headers } }
          },
        },
      ],
    })
    rows.push(`| POST /orders (COD, 1 item) | ${target} | ${Math.round(orders.requests.average)} | ${orders.latency.p50} | ${orders.latency.p99} | ${orders.non2xx + orders.errors} |`)
  }
  console.log(['', `${duration} s, ${connections} connections, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC:`, '', '| Work | Through | req/s | p50 ms | p99 ms | errors + non-2xx |', '|---|---|---:|---:|---:|---:|', ...rows].join('\n'))
} finally {
  await cluster.stop()
}
