// The bench catalog with options (issue #41's search target: 100,000 products with 5 variants each):
// --on gives every product of the catalog that has none the options Size (S, M, L, XL, XXL) and
// Colour (one of twelve, by its id), five stored variants at its price, its stock spread over them,
// and rebuilds the search columns (option values are searchable words); --off removes exactly
// those again. Idempotent; run by bench/run.ts (--catalog-variants, or its absence) before it
// starts the server. Reads DATA_DIR / DATABASE_URL like the server.
// Products that already have options (bench/orders-data.ts --variants gives the ordered ones theirs)
// are left as they are.
// Usage: node --import tsx bench/catalog-variants.ts --catalog <catalog id> --on|--off
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import { openRuntime } from '../src/bootstrap.ts'
import { loadConfig } from '../src/config.ts'
import { queryRows } from '../src/db/client.ts'
import { refreshSearchColumns } from '../src/modules/catalog/repo.ts'

const { values } = parseArgs({ options: { catalog: { type: 'string' }, on: { type: 'boolean', default: false }, off: { type: 'boolean', default: false } } })
if (!values.catalog || values.on === values.off) throw new Error('--catalog and one of --on, --off are required')
export const BENCH_COLOURS = ['Black', 'White', 'Navy', 'Maroon', 'Red', 'Green', 'Grey', 'Beige', 'Pink', 'Mustard', 'Teal', 'Olive']
const SIZES = ['S', 'M', 'L', 'XL', 'XXL']

const runtime = await openRuntime(loadConfig({ ...process.env, LOG_LEVEL: 'warn' }))
try {
  const db = runtime.database.db
  const catalogId = values.catalog
  const started = Date.now()
  const [had] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from product_variants where catalog_id = ${catalogId} and id like 'var_cat\_%'`)
  if (values.on) {
    const colours = sql.param(BENCH_COLOURS)
    // The colour of a product: by the last characters of its id, so the same on every run.
    const colourOf = sql`(${colours}::text[])[1 + (ascii(right(p.id, 1)) + ascii(left(right(p.id, 2), 1))) % ${BENCH_COLOURS.length}]`
    const added = await db.execute(sql`
      insert into product_variants (id, product_id, catalog_id, position, option_values, sku, selling_price, mrp, stock)
      select 'var_cat_' || p.id || '_' || s.size, p.id, p.catalog_id, s.position, array[s.size, ${colourOf}], p.sku || '-' || s.size, p.selling_price, p.mrp,
        p.stock / 5 + case when s.position < p.stock % 5 then 1 else 0 end
      from products p cross join unnest(${sql.param(SIZES)}::text[]) with ordinality as s(size, position)
      where p.catalog_id = ${catalogId} and p.options = '[]'::jsonb`)
    await db.execute(sql`
      update products p set options = jsonb_build_array(jsonb_build_object('name', 'Size', 'values', ${JSON.stringify(SIZES)}::jsonb),
        jsonb_build_object('name', 'Colour', 'values', jsonb_build_array(${colourOf})))
      where p.catalog_id = ${catalogId} and p.options = '[]'::jsonb`)
    if ((added as { rowCount?: number | null }).rowCount ?? (added as { affectedRows?: number }).affectedRows ?? 1) await refreshSearchColumns(db, catalogId)
  } else if (values.off && had!.n > 0) {
    await db.execute(sql`update products set options = '[]'::jsonb where id in (select product_id from product_variants where catalog_id = ${catalogId} and id like 'var_cat\_%')`)
    await db.execute(sql`delete from product_variants where catalog_id = ${catalogId} and id like 'var_cat\_%'`)
    await refreshSearchColumns(db, catalogId)
  }
  const [now] = await queryRows<{ products: number; variants: number }>(db, sql`
    select count(distinct product_id)::int as products, count(*)::int as variants from product_variants where catalog_id = ${catalogId} and id like 'var_cat\_%'`)
  process.stderr.write(`bench catalog: ${now!.products} products with options, ${now!.variants} variants (${((Date.now() - started) / 1000).toFixed(1)} s)\n`)
} finally {
  await runtime.close()
}
