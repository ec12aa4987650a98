// Data the customer scenarios of the bench need, on top of `commerce bench-data`: delivery zones
// (pincode 560001 must be serviceable with COD), 10,000 customers of the bench partner (the bench
// signs in the first 200 of them), and products that can be ordered for the whole run (stock topped
// up to 1,000,000, price within the COD limit). Idempotent; run by bench/run.ts before it starts
// the server (the embedded database serves one process). Reads DATA_DIR / DATABASE_URL like the
// server; prints {"lines": [{productId, variantId?}, ...], "flash": {productId, slug, stock}} on stdout (flash: a
// product put back to 500 units each run, for the flash sale scenario). --variants: each ordered product
// gets options (Size S, M, L) and three stored variants (decision 0043), and its line names M.
// Usage: node --import tsx bench/orders-data.ts --catalog <catalog id> --partner <partner id> [--count 2000] [--gst] [--variants]
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import { openRuntime } from '../src/bootstrap.ts'
import { loadConfig } from '../src/config.ts'
import { queryRows } from '../src/db/client.ts'
import { seedDeliveryZones } from '../src/modules/checkout/seed-zones.ts'

const { values } = parseArgs({ options: { catalog: { type: 'string' }, partner: { type: 'string' }, count: { type: 'string', default: '2000' }, gst: { type: 'boolean', default: false }, variants: { type: 'boolean', default: false } } })
if (!values.catalog || !values.partner) throw new Error('--catalog and --partner are required')
const CUSTOMERS = 10_000
const count = Number(values.count)
const STOCK = 1_000_000
/** Units of the flash sale's product (bench/run.ts sends it twice as many buyers). */
const FLASH_STOCK = 500
/** Paise. The metro zone's COD limit is ₹50,000, shipping and the COD fee included. */
const MAX_PRICE = 4_000_000n

const runtime = await openRuntime(loadConfig({ ...process.env, LOG_LEVEL: 'warn' }))
try {
  const db = runtime.database.db
  const seeded = await seedDeliveryZones(db)
  // Phones 9800000000 + n, as the bench's customer-token calls use them.
  await db.execute(
    sql`insert into users (id, partner_id, phone, name)
        select 'usr_bench_' || ${values.partner} || '_' || n, ${values.partner}, '9' || (800000000 + n)::text, 'Bench ' || n
        from generate_series(0, ${CUSTOMERS - 1}) as n
        on conflict do nothing`,
  )
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update products set stock = ${STOCK}
        where id in (select id from products
                     where catalog_id = ${values.catalog} and is_active and selling_price <= ${MAX_PRICE}
                     order by id limit ${count})
        returning id`,
  )
  const productIds = rows.map((r) => r.id).sort()
  if (productIds.length === 0) throw new Error(`No orderable products in catalog ${values.catalog}`)
  // The flash sale's product (issue #43): the next orderable one, back to FLASH_STOCK units every run.
  const [flash] = await queryRows<{ id: string; slug: string }>(
    db,
    sql`update products set stock = ${FLASH_STOCK}
        where id = (select id from products
                    where catalog_id = ${values.catalog} and is_active and selling_price <= ${MAX_PRICE} and options = '[]'::jsonb
                      and id not in (${sql.join(productIds.map((id) => sql`${id}`), sql`, `)})
                    order by id limit 1)
        returning id, slug`,
  )
  if (!flash) throw new Error(`No product left for the flash sale in catalog ${values.catalog}`)
  // --gst: a registered seller (Maharashtra; the bench orders go to Karnataka, so IGST) and a rate on
  // the ordered products, so orders are taxed and COD orders invoiced. Without it, no seller.
  if (values.gst) {
    await db.execute(sql`insert into gst_registrations (id, gstin, legal_name, state_code, address_line1, city, state, pincode)
                         values ('gsr_bench', '27AAPFU0939F1ZV', 'Bench Retail Private Limited', '27', '12 Nariman Point', 'Mumbai', 'Maharashtra', '400021')
                         on conflict do nothing`)
    await db.execute(sql`insert into gst_sellers (catalog_id, registration_id) values (${values.catalog}, (select id from gst_registrations where gstin = '27AAPFU0939F1ZV'))
                         on conflict do nothing`)
    await db.execute(sql`update products set hsn_code = '85183000', gst_rate_bps = 1800 where id in (${sql.join([...productIds, flash.id].map((id) => sql`${id}`), sql`, `)})`)
  } else {
    await db.execute(sql`delete from gst_sellers where catalog_id = ${values.catalog}`)
  }
  // --variants: three stored variants a product (the product's price, STOCK each), the summary's stock their sum.
  let variantOf = new Map<string, string>()
  if (values.variants) {
    const ids = sql.join(productIds.map((id) => sql`${id}`), sql`, `)
    await db.execute(sql`delete from product_variants where product_id in (${ids})`)
    await db.execute(sql`insert into product_variants (id, product_id, catalog_id, position, option_values, sku, selling_price, mrp, stock)
                         select 'var_bench_' || p.id || '_' || s.size, p.id, p.catalog_id, s.position, array[s.size], p.sku || '-' || s.size, p.selling_price, p.mrp, ${STOCK}
                         from products p cross join (values (0, 'S'), (1, 'M'), (2, 'L')) as s(position, size) where p.id in (${ids})`)
    await db.execute(sql`update products set options = '[{"name":"Size","values":["S","M","L"]}]'::jsonb, stock = ${3 * STOCK} where id in (${ids})`)
    variantOf = new Map(productIds.map((id) => [id, `var_bench_${id}_M`]))
  } else {
    // Undoes an earlier --variants run (and nothing else: bench/catalog-variants.ts owns its own).
    await db.execute(sql`delete from product_variants where catalog_id = ${values.catalog} and id like 'var_bench\_%'`)
    await db.execute(sql`update products p set options = '[]'::jsonb where catalog_id = ${values.catalog} and options <> '[]'::jsonb
                         and not exists (select 1 from product_variants v where v.product_id = p.id)`)
  }
  const lines = productIds.map((productId) => (variantOf.has(productId) ? { productId, variantId: variantOf.get(productId)! } : { productId }))
  process.stderr.write(
    `bench data: GST seller ${values.gst ? 'registered' : 'none'}, zones ${seeded ? 'seeded' : 'present'}, ${CUSTOMERS} customers, ${productIds.length} products at stock ${STOCK}${values.variants ? ', three variants each' : ''}\n`,
  )
  process.stdout.write(`${JSON.stringify({ lines, flash: { productId: flash.id, slug: flash.slug, stock: FLASH_STOCK } })}\n`)
} finally {
  await runtime.close()
}
