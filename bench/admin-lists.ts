// The back office's lists at 100,000 products and 100,000 orders (issue #26: "lists of 100,000
// products and orders stay fast because paging and search are the API's"). Each request the console
// makes for a table or the dashboard, one at a time, in process (app.inject: the server's own time
// with the database, no network, no browser), RUNS times after a warm-up: p50, p95 and max in ms.
// The data is made once per database and kept: products by the catalog generator of
// `commerce bench-data`, orders (with one line each), customers and history by SQL, spread over
// 365 days, every status, two partners.
// Usage: npm run bench:admin-lists [-- --backend postgres|pglite] [--products 100000] [--orders 100000] [--runs 30]
// PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/commerce_bench_admin).
import { parseArgs } from 'node:util'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { buildApp } from '../src/app.ts'
import { openRuntime } from '../src/bootstrap.ts'
import { loadConfig } from '../src/config.ts'
import { queryRows } from '../src/db/client.ts'
import { createAdmin } from '../src/modules/admins/index.ts'
import { createCatalog, defaultVariantId, importCatalog, syntheticCatalog } from '../src/modules/catalog/index.ts'
import { createPartner } from '../src/modules/partners/index.ts'

const { values } = parseArgs({
  options: {
    backend: { type: 'string', default: 'postgres' },
    products: { type: 'string', default: '100000' },
    orders: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '30' },
  },
})
const PRODUCTS = Number(values.products)
const ORDERS = Number(values.orders)
const RUNS = Number(values.runs)
const CUSTOMERS = 20_000
const root = join(import.meta.dirname, '..')
const databaseUrl = values.backend === 'postgres' ? (process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/commerce_bench_admin') : undefined

if (databaseUrl) {
  const target = new URL(databaseUrl)
  const name = decodeURIComponent(target.pathname.slice(1))
  const server = new URL(databaseUrl)
  server.pathname = '/postgres'
  const client = new pg.Client({ connectionString: server.toString() })
  await client.connect()
  if ((await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 0) await client.query(`create database "${name.replace(/"/g, '""')}"`)
  await client.end()
}

const config = loadConfig({
  ...process.env,
  DATABASE_URL: databaseUrl,
  REDIS_URL: undefined,
  DATA_DIR: join(root, 'data', `bench-admin-${PRODUCTS}`),
  LOG_LEVEL: 'warn',
  AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
  RATE_LIMIT_MAX: '1000000',
})
const deps = await openRuntime(config)
const db = deps.database.db

const STATUSES = ['PENDING_PAYMENT', 'CONFIRMED', 'PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED', 'DELIVERED', 'DELIVERED', 'CANCELLED', 'RTO']

async function givenData() {
  const [known] = await queryRows<{ id: string }>(db, sql`select id from catalogs where name = ${`Admin bench (${PRODUCTS})`} limit 1`)
  if (known) {
    const partners = await queryRows<{ id: string }>(db, sql`select id from partners where name like ${`Admin bench ${known.id}%`} order by name`)
    return { catalogId: known.id, partnerIds: partners.map((p) => p.id) }
  }
  const started = Date.now()
  const catalog = await createCatalog(db, `Admin bench (${PRODUCTS})`)
  await importCatalog(db, catalog.id, syntheticCatalog(PRODUCTS))
  const partnerIds: string[] = []
  for (const n of [1, 2]) partnerIds.push((await createPartner(db, { name: `Admin bench ${catalog.id} ${n}`, catalogId: catalog.id })).partner.id)
  console.log(`${PRODUCTS} products in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  const at = Date.now()
  for (const [i, partnerId] of partnerIds.entries()) {
    await db.execute(sql`
      insert into users (id, partner_id, phone, name, created_at, updated_at)
      select 'usr_ab_' || ${i} || '_' || n, ${partnerId}, '9' || (700000000 + ${i * CUSTOMERS} + n)::text, 'Customer ' || n, now() - n * interval '20 minutes', now()
      from generate_series(0, ${CUSTOMERS - 1}) as n`)
  }
  const [product] = await queryRows<{ id: string; name: string; sku: string; price: string }>(db, sql`select id, name, sku, selling_price::text as price from products where catalog_id = ${catalog.id} order by id limit 1`)
  const statuses = sql.raw(`array[${STATUSES.map((s) => `'${s}'`).join(',')}]`)
  // Orders n = 0..ORDERS-1: partner n % 2, customer n % CUSTOMERS, one every ~5 minutes back from now.
  await db.execute(sql`
    insert into orders (id, order_number, partner_id, user_id, status, payment_status, payment_mode, delivery_method, shipping_address,
                        items_total, mrp_total, coupon_discount, shipping_charge, cod_fee, total_amount, reward_points_used, reward_points_value,
                        wallet_cash_used, amount_payable, created_at, updated_at)
    select 'ord_ab_' || n, 'AB' || lpad(n::text, 10, '0'),
           (${sql.raw(`array['${partnerIds[0]}','${partnerIds[1]}']`)})[n % 2 + 1],
           'usr_ab_' || (n % 2) || '_' || ((n / 2) % ${CUSTOMERS}),
           (${statuses})[n % ${STATUSES.length} + 1],
           case when n % 3 = 0 then 'PENDING' else 'PAID' end,
           case when n % 3 = 0 then 'COD' else 'PREPAID' end, 'STANDARD',
           jsonb_build_object('name', 'Customer', 'phone', '9' || (700000000 + (n % 2) * ${CUSTOMERS} + (n / 2) % ${CUSTOMERS})::text, 'line1', '1 MG Road', 'city', 'Bengaluru', 'state', 'Karnataka', 'pincode', '560001'),
           ${product!.price}::bigint, ${product!.price}::bigint, 0, 0, 0, ${product!.price}::bigint, 0, 0, 0, ${product!.price}::bigint,
           now() - n * interval '5 minutes', now() - n * interval '5 minutes'
    from generate_series(0, ${ORDERS - 1}) as n`)
  await db.execute(sql`
    insert into order_items (id, order_id, product_id, variant_id, catalog_id, name, sku, quantity, unit_price, unit_mrp, line_total, coupon_discount, reward_points_discount, paid_amount, position)
    select 'oit_ab_' || n, 'ord_ab_' || n, ${product!.id}, ${defaultVariantId(product!.id)}, ${catalog.id}, ${product!.name}, ${product!.sku}, 1, ${product!.price}::bigint, ${product!.price}::bigint, ${product!.price}::bigint, 0, 0, ${product!.price}::bigint, 0
    from generate_series(0, ${ORDERS - 1}) as n`)
  await db.execute(sql`vacuum analyze`) // as autovacuum leaves a shop at rest: statistics and the visibility map (index-only counts)
  console.log(`${ORDERS} orders, ${CUSTOMERS * 2} customers in ${((Date.now() - at) / 1000).toFixed(1)} s`)
  return { catalogId: catalog.id, partnerIds }
}

const data = await givenData()
const app = await buildApp(deps)
await createAdmin(db, { email: 'bench@admin.test', password: 'long-enough-password', role: 'ADMIN' }).catch(() => undefined)
const login = await app.inject({ method: 'POST', url: '/api/v1/admin/auth/login', payload: { email: 'bench@admin.test', password: 'long-enough-password' } })
const headers = { authorization: `Bearer ${login.json().data.accessToken}` }
const c = data.catalogId
const middle = Math.floor(ORDERS / 2)
const orderNumber = `AB${String(middle).padStart(10, '0')}`
const phone = `9${700000000 + 123}`

const REQUESTS: [string, string][] = [
  ['dashboard: orders and GMV per day, by status', '/admin/orders/stats'],
  ['orders, page 1', '/admin/orders?page=1&limit=25'],
  ['orders, page 2,000 (offset 50,000)', '/admin/orders?page=2000&limit=25'],
  ['orders of one status', '/admin/orders?status=SHIPPED&page=1&limit=25'],
  ["orders of one partner", `/admin/orders?partnerId=${data.partnerIds[1]}&page=1&limit=25`],
  ['orders: search by order number', `/admin/orders?search=${orderNumber}&page=1&limit=25`],
  ['orders: search by phone', `/admin/orders?search=${phone}&page=1&limit=25`],
  ['products, page 1', `/admin/catalogs/${c}/products?page=1&limit=25`],
  ['products, page 2,000 (offset 50,000)', `/admin/catalogs/${c}/products?page=2000&limit=25`],
  ['products: search by name', `/admin/catalogs/${c}/products?search=cotton&page=1&limit=25`],
  ['customers, page 1', '/admin/customers?page=1&limit=25'],
  ['customers: by phone', `/admin/customers?phone=${phone}&page=1&limit=25`],
  ['categories, a page of the top level', `/admin/catalogs/${c}/categories?parentId=root&page=1&limit=25`],
]

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
const rows: string[] = []
for (const [name, url] of REQUESTS) {
  const times: number[] = []
  for (let i = 0; i < RUNS + 3; i++) {
    const started = performance.now()
    const res = await app.inject({ method: 'GET', url: `/api/v1${url}`, headers })
    const ms = performance.now() - started
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`)
    if (i >= 3) times.push(ms)
    if (i === 0 && /search|phone/.test(url) && res.json().meta?.total === 0) throw new Error(`${url} found nothing: the bench would measure an empty answer`)
  }
  times.sort((a, b) => a - b)
  rows.push(`| ${name} | ${quantile(times, 0.5).toFixed(1)} | ${quantile(times, 0.95).toFixed(1)} | ${times.at(-1)!.toFixed(1)} |`)
  console.log(rows.at(-1))
}
console.log(
  `\n${values.backend === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ${PRODUCTS.toLocaleString('en-US')} products, ${ORDERS.toLocaleString('en-US')} orders, ${RUNS} requests each, one at a time, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC:\n`,
)
console.log('| Request | p50 ms | p95 ms | max ms |\n|---|---|---|---|\n' + rows.join('\n'))
await app.close()
await deps.close()
