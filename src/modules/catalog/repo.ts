// Catalog queries. Every read is scoped by catalog id; the service decides which catalog.
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm'
import { containing, startingWith } from '../../db/like.ts'
import { type Executor, queryRows } from '../../db/client.ts'
import { type OptionalPage, wholeOrPage } from '../../lib/pagination.ts'
import { catalogs, categories, type ProductOptionRow, products, productVariants, searchQueries } from './schema.sql.ts'

export type CategoryRow = typeof categories.$inferSelect
export type ProductRow = typeof products.$inferSelect
export type VariantRow = typeof productVariants.$inferSelect
export type SortBy = 'createdAt' | 'updatedAt' | 'name' | 'brand' | 'sku'

export interface ProductFilter {
  catalogId: string
  search?: string
  categoryIds?: string[]
  brand?: string
  /** Option filters (`size=M,L`): option name and values, lower-cased; one active variant must hold them all. */
  options?: OptionFilter[]
  sortBy: SortBy
  sortOrder: 'asc' | 'desc'
  limit: number
  offset: number
}

// Text sorts are case-insensitive and byte-ordered ("C"), the same on every server and locale.
const SORT_COLUMNS: Record<SortBy, SQL> = {
  createdAt: sql`${products.createdAt}`,
  updatedAt: sql`${products.updatedAt}`,
  name: sql`lower(${products.name}) collate "C"`,
  brand: sql`lower(${products.brand}) collate "C"`,
  sku: sql`lower(${products.sku}) collate "C"`,
}

const productColumns = {
  id: products.id,
  name: products.name,
  slug: products.slug,
  brand: products.brand,
  sku: products.sku,
  categoryId: products.categoryId,
  sellingPrice: products.sellingPrice,
  mrp: products.mrp,
  stock: products.stock,
  images: products.images,
  isActive: products.isActive,
  options: products.options,
}
export type ProductSummary = { [K in keyof typeof productColumns]: ProductRow[K] }

export interface OptionFilter {
  name: string
  values: string[]
}

/** Whether variant `v`'s value of the option named `filter.name` (in its product's options) is one of `filter.values`. */
const variantHolds = (filter: OptionFilter) => sql`exists (
  select 1 from jsonb_array_elements(${products.options}) with ordinality as x(opt, i)
  where lower(x.opt->>'name') = ${filter.name} and lower(v.option_values[x.i::int]) = any(${sql.param(filter.values)}::text[]))`

function listWhere(f: Omit<ProductFilter, 'sortBy' | 'sortOrder' | 'limit' | 'offset'>): SQL {
  const conditions: SQL[] = [eq(products.catalogId, f.catalogId), eq(products.isActive, true)]
  if (f.search) {
    const pattern = containing(f.search.toLowerCase())
    conditions.push(sql`(lower(${products.name}) like ${pattern} or lower(${products.brand}) like ${pattern})`)
  }
  if (f.categoryIds) conditions.push(inArray(products.categoryId, f.categoryIds))
  if (f.brand) conditions.push(sql`lower(${products.brand}) = ${f.brand.toLowerCase()}`)
  if (f.options?.length) {
    conditions.push(sql`exists (select 1 from product_variants v where v.product_id = ${products.id} and v.is_active and ${sql.join(f.options.map(variantHolds), sql` and `)})`)
  }
  return and(...conditions)!
}

/**
 * A product's option values, space-separated ('' without options): searchable as its category path
 * is (weight C, and after the path in `search_text`), so "red kurta xl" finds the kurta whose
 * variants are Red and XL (decision 0043, step 3). Products' own name is `p`.
 */
const optionWords = sql`coalesce((select string_agg(v, ' ') from jsonb_array_elements(p.options) o, jsonb_array_elements_text(o->'values') v), '')`

/**
 * Rebuilds the derived search columns of a catalog's products (or some of them) from name, brand,
 * the category path and the description. Runs in the caller's transaction after every write.
 */
export async function refreshSearchColumns(db: Executor, catalogId: string, productIds?: string[]) {
  if (productIds?.length === 0) return
  const only = productIds ? sql`and p.id in (${sql.join(productIds.map((id) => sql`${id}`), sql`, `)})` : sql``
  await db.execute(sql`
    with recursive tree as (
      select id, name::text as path from categories where catalog_id = ${catalogId} and parent_id is null
      union all
      select c.id, tree.path || ' ' || c.name from categories c join tree on c.parent_id = tree.id
    )
    update products p set
      search_vector =
        setweight(to_tsvector('english', p.name), 'A') ||
        setweight(to_tsvector('english', p.brand), 'B') ||
        setweight(to_tsvector('english', tree.path || ' ' || ${optionWords}), 'C') ||
        setweight(to_tsvector('english', left(p.description, 2000)), 'D'),
      search_text = lower(p.name || ' ' || p.brand || ' ' || tree.path || ' ' || ${optionWords})
    from tree
    where p.category_id = tree.id and p.catalog_id = ${catalogId} ${only}`)
}

/** A product's packed size, whole centimetres (decision 0030). */
export interface Dimensions {
  length: number
  breadth: number
  height: number
}

export const catalogRepo = {
  async insert(db: Executor, row: typeof catalogs.$inferInsert) {
    const [created] = await db.insert(catalogs).values(row).returning()
    return created!
  },
  async findById(db: Executor, id: string) {
    const [row] = await db.select().from(catalogs).where(eq(catalogs.id, id)).limit(1)
    return row ?? null
  },
  /** Whether the catalog keeps its stock at locations (decision 0043, step 5). */
  async stockAtLocations(db: Executor, catalogId: string): Promise<boolean> {
    const [row] = await db.select({ at: catalogs.stockAtLocations }).from(catalogs).where(eq(catalogs.id, catalogId)).limit(1)
    return row?.at ?? false
  },
  /** Marks (and locks) the catalog as keeping its stock at locations: false when there is no such catalog. */
  async keepStockAtLocations(db: Executor, catalogId: string): Promise<boolean> {
    const rows = await db.update(catalogs).set({ stockAtLocations: true }).where(eq(catalogs.id, catalogId)).returning({ id: catalogs.id })
    return rows.length > 0
  },
  /**
   * Every unit of the catalog holding stock: products without options (their default variant) and
   * stored variants, their rows locked (every product of the catalog first, as stock writers lock
   * them): an order reserving now waits, or has committed and is counted.
   */
  async unitsInStock(db: Executor, catalogId: string) {
    const plain = await queryRows<{ productId: string; variantId: string; stock: number; options: string }>(db, sql`
      select p.id as "productId", 'var_' || substr(p.id, 5) as "variantId", p.stock, p.options::text as options from ${products} p
        where p.catalog_id = ${catalogId} order by p.id for update`)
    const variants = await queryRows<{ productId: string; variantId: string; stock: number }>(db, sql`
      select v.product_id as "productId", v.id as "variantId", v.stock from ${productVariants} v
        where v.catalog_id = ${catalogId} and v.stock > 0 order by v.product_id, v.id for update`)
    return [...plain.filter((p) => p.options === '[]' && p.stock > 0).map(({ productId, variantId, stock }) => ({ productId, variantId, stock })), ...variants]
  },
  /** The names of units as the back office lists them: product name, SKU (the variant's), variant title (null: the default). */
  async unitNames(db: Executor, units: { productId: string; variantId: string }[]) {
    const out = new Map<string, { name: string; sku: string; title: string | null }>()
    if (units.length === 0) return out
    const rows = await queryRows<{ defaultId: string; name: string; sku: string; variantId: string | null; variantSku: string | null; title: string | null }>(db, sql`
      select 'var_' || substr(p.id, 5) as "defaultId", p.name, p.sku, v.id as "variantId", v.sku as "variantSku", array_to_string(v.option_values, ' / ') as title
      from ${products} p left join ${productVariants} v on v.product_id = p.id and v.id = any(${sql.param(units.map((u) => u.variantId))}::text[])
      where p.id = any(${sql.param([...new Set(units.map((u) => u.productId))])}::text[])`)
    for (const r of rows) {
      if (r.variantId) out.set(r.variantId, { name: r.name, sku: r.variantSku!, title: r.title })
      else out.set(r.defaultId, { name: r.name, sku: r.sku, title: null })
    }
    return out
  },
  async findOldest(db: Executor) {
    const [row] = await db.select().from(catalogs).orderBy(asc(catalogs.createdAt), asc(catalogs.id)).limit(1)
    return row ?? null
  },
  list(db: Executor) {
    return db.select().from(catalogs).orderBy(asc(catalogs.createdAt), asc(catalogs.id))
  },

  categories(db: Executor, catalogId: string) {
    return db
      .select()
      .from(categories)
      .where(eq(categories.catalogId, catalogId))
      .orderBy(asc(categories.position), asc(categories.name), asc(categories.id))
  },
  /** A catalog's categories in tree order, whole or one page: the children of one parent (null: the top level) or all, and a name or slug search. */
  categoryList(db: Executor, catalogId: string, filter: { parentId?: string | null | undefined; search?: string | undefined }, asked: OptionalPage) {
    const where = and(
      eq(categories.catalogId, catalogId),
      filter.parentId === undefined ? undefined : filter.parentId === null ? isNull(categories.parentId) : eq(categories.parentId, filter.parentId),
      filter.search ? or(ilike(categories.name, containing(filter.search)), ilike(categories.slug, containing(filter.search))) : undefined,
    )
    return wholeOrPage(
      asked,
      (w) => db.select().from(categories).where(where).orderBy(asc(categories.position), asc(categories.name), asc(categories.id)).limit(w.limit).offset(w.offset),
      async () => (await db.select({ n: count() }).from(categories).where(where))[0]!.n,
    )
  },
  async findCategory(db: Executor, catalogId: string, id: string) {
    const [row] = await db.select().from(categories).where(and(eq(categories.id, id), eq(categories.catalogId, catalogId))).limit(1)
    return row ?? null
  },
  async findCategoryById(db: Executor, id: string) {
    const [row] = await db.select().from(categories).where(eq(categories.id, id)).limit(1)
    return row ?? null
  },
  async insertCategories(db: Executor, rows: (typeof categories.$inferInsert)[]) {
    if (rows.length === 0) return []
    return db.insert(categories).values(rows).returning()
  },
  async updateCategory(db: Executor, id: string, changes: Partial<typeof categories.$inferInsert>) {
    const [row] = await db.update(categories).set(changes).where(eq(categories.id, id)).returning()
    return row!
  },

  async listProducts(db: Executor, f: ProductFilter): Promise<{ rows: ProductSummary[]; total: number }> {
    const where = listWhere(f)
    const direction = f.sortOrder === 'asc' ? asc : desc
    const [rows, totals] = await Promise.all([
      db
        .select(productColumns)
        .from(products)
        .where(where)
        .orderBy(direction(SORT_COLUMNS[f.sortBy]), direction(products.id))
        .limit(f.limit)
        .offset(f.offset),
      db.select({ n: count() }).from(products).where(where),
    ])
    return { rows, total: totals[0]?.n ?? 0 }
  },
  /**
   * Facet counts of the options of the products a list filter finds: per option name (lower-cased)
   * and value, how many products have an active variant with it that also
   * holds the filter's other options (a value's count is what choosing it would find, beside the
   * values chosen). `lists`: the names and value lists of those products' options, for their order.
   */
  async optionFacets(db: Executor, f: Omit<ProductFilter, 'sortBy' | 'sortOrder' | 'limit' | 'offset'>) {
    const filters = f.options ?? []
    const base = listWhere({ ...f, options: [] })
    const others = filters.length === 0 ? sql`true` : sql.join(filters.map((o) => sql`(lower(x.opt->>'name') = ${o.name} or ${variantHolds(o)})`), sql` and `)
    const [counts, lists] = await Promise.all([
      queryRows<{ key: string; value: string; products: number }>(db, sql`
        select lower(x.opt->>'name') as key, min(v.option_values[x.i::int]) as value, count(distinct ${products.id})::int as products
        from ${products}
        join product_variants v on v.product_id = ${products.id} and v.is_active
        cross join lateral jsonb_array_elements(${products.options}) with ordinality as x(opt, i)
        where ${base} and ${others}
        group by lower(x.opt->>'name'), lower(v.option_values[x.i::int])`),
      queryRows<{ key: string; name: string; place: number; values: string[]; products: number }>(db, sql`
        select lower(x.opt->>'name') as key, x.opt->>'name' as name, min(x.i)::int as place, x.opt->'values' as values, count(*)::int as products
        from ${products} cross join lateral jsonb_array_elements(${products.options}) with ordinality as x(opt, i)
        where ${base} and ${products.options} <> '[]'::jsonb
        group by x.opt->>'name', x.opt->'values'`),
    ])
    return { counts, lists }
  },
  /** The option names of a catalog's active products, lower-cased. */
  async optionNames(db: Executor, catalogId: string): Promise<string[]> {
    const rows = await queryRows<{ name: string }>(db, sql`
      select distinct lower(o->>'name') as name from ${products}, jsonb_array_elements(${products.options}) o
      where ${products.catalogId} = ${catalogId} and ${products.isActive} and ${products.options} <> '[]'::jsonb`)
    return rows.map((r) => r.name)
  },
  async findProductBySlug(db: Executor, catalogId: string, slug: string): Promise<ProductSummary | null> {
    const [row] = await db
      .select(productColumns)
      .from(products)
      .where(and(eq(products.catalogId, catalogId), eq(products.slug, slug)))
      .limit(1)
    return row ?? null
  },
  async adminListProducts(db: Executor, catalogId: string, q: { page: number; limit: number; search?: string }) {
    const conditions: SQL[] = [eq(products.catalogId, catalogId)]
    if (q.search?.trim()) {
      const pattern = containing(q.search.trim().toLowerCase())
      conditions.push(sql`(lower(${products.name}) like ${pattern} or lower(${products.brand}) like ${pattern} or lower(${products.sku}) like ${pattern})`)
    }
    const where = and(...conditions)
    const [rows, totals] = await Promise.all([
      db.select().from(products).where(where).orderBy(desc(products.createdAt), desc(products.id)).limit(q.limit).offset((q.page - 1) * q.limit),
      db.select({ n: count() }).from(products).where(where),
    ])
    return { rows, total: totals[0]?.n ?? 0 }
  },
  async findProduct(db: Executor, id: string) {
    const [row] = await db.select().from(products).where(eq(products.id, id)).limit(1)
    return row ?? null
  },
  async insertProducts(db: Executor, rows: (typeof products.$inferInsert)[]) {
    if (rows.length === 0) return []
    return db.insert(products).values(rows).returning({ id: products.id })
  },
  async updateProduct(db: Executor, id: string, changes: Partial<typeof products.$inferInsert>) {
    const [row] = await db.update(products).set(changes).where(eq(products.id, id)).returning()
    return row ?? null
  },
  /**
   * Stock moved by orders (reservation, release): sets `stock` only, so the update is
   * HOT (no new entries in the product's indexes, `stock` being in none of them) and `updatedAt`
   * keeps meaning "edited by the merchant". The new stock, the product's catalog (whose cached
   * answers it changes) and whether it has stored variants; null when it would go below zero. Call
   * it through catalog/index.ts (reserveStock, releaseStock), which moves the variant too.
   */
  async moveStock(db: Executor, id: string, delta: number) {
    const [row] = await db
      .update(products)
      .set({ stock: sql`${products.stock} + ${delta}` })
      .where(and(eq(products.id, id), sql`${products.stock} + ${delta} >= 0`))
      .returning({ stock: products.stock, catalogId: products.catalogId, hasVariants: sql<boolean>`${products.options} <> '[]'::jsonb` })
    return row ?? null
  },
  /** A stored variant's stock moved (with its product's summary, by moveStock): its new stock and whether it is active; null when short or gone. */
  async moveVariantStock(db: Executor, productId: string, variantId: string, delta: number) {
    const [row] = await db
      .update(productVariants)
      .set({ stock: sql`${productVariants.stock} + ${delta}` })
      .where(and(eq(productVariants.id, variantId), eq(productVariants.productId, productId), sql`${productVariants.stock} + ${delta} >= 0`))
      .returning({ stock: productVariants.stock, isActive: productVariants.isActive })
    return row ?? null
  },
  /**
   * A stored variant's units taken, with its product's summary, in one statement: the product's row
   * first (the variant's update waits on the product's through its condition, so the lock order is
   * the product's, then the variant's, as everywhere), then the variant's if it is active and holds
   * them. Null when the product is short; `variantStock` null when the variant is short, inactive or
   * not the product's (the summary moved then: the caller refuses the transaction).
   */
  async takeVariantStock(db: Executor, productId: string, variantId: string, quantity: number) {
    const [row] = await queryRows<{ catalogId: string; stock: number; hasVariants: boolean; variantStock: number | null }>(
      db,
      sql`with p as (
            update ${products} set stock = stock - ${quantity} where id = ${productId} and stock >= ${quantity}
            returning catalog_id, stock, options <> '[]'::jsonb as has_variants
          ), v as (
            update ${productVariants} set stock = stock - ${quantity}
            where id = ${variantId} and product_id = ${productId} and stock >= ${quantity} and is_active and (select has_variants from p)
            returning stock
          )
          select catalog_id as "catalogId", stock, has_variants as "hasVariants", (select stock from v) as "variantStock" from p`,
    )
    return row ?? null
  },
  /** The product's row locked for a change of its variants: whether it has any (it is the lock every variant write and stock move takes first). */
  async lockProduct(db: Executor, id: string) {
    const [row] = await db
      .select({ catalogId: products.catalogId, hasVariants: sql<boolean>`${products.options} <> '[]'::jsonb` })
      .from(products)
      .where(eq(products.id, id))
      .for('update')
    return row ?? null
  },
  async variantStock(db: Executor, productId: string, variantId: string) {
    const [row] = await db
      .select({ stock: productVariants.stock })
      .from(productVariants)
      .where(and(eq(productVariants.id, variantId), eq(productVariants.productId, productId)))
    return row?.stock ?? null
  },
  /** The stored variants of these products, in each product's order (none for products without options). */
  async variantsOf(db: Executor, productIds: string[]): Promise<Map<string, VariantRow[]>> {
    const byProduct = new Map<string, VariantRow[]>()
    if (productIds.length === 0) return byProduct
    const rows = await db
      .select()
      .from(productVariants)
      .where(inArray(productVariants.productId, productIds))
      .orderBy(asc(productVariants.productId), asc(productVariants.position))
    for (const row of rows) byProduct.set(row.productId, [...(byProduct.get(row.productId) ?? []), row])
    return byProduct
  },
  /**
   * Inserts variants in one statement of array parameters, however many (the grid's up to 250, an
   * import's thousands): a row-per-value insert built by Drizzle cost more than the database's work.
   */
  async insertVariants(db: Executor, rows: (typeof productVariants.$inferInsert)[]) {
    if (rows.length === 0) return
    const column = <T>(pick: (r: (typeof rows)[number]) => T) => sql.param(rows.map(pick))
    const at = new Date()
    await db.execute(sql`
      insert into product_variants (id, product_id, catalog_id, position, option_values, sku, selling_price, mrp, stock, weight_grams,
        length_cm, breadth_cm, height_cm, barcode, hsn_code, gst_rate_bps, images, is_active, created_at, updated_at)
      select r.id, r.product_id, r.catalog_id, r.position, array(select jsonb_array_elements_text(r.option_values::jsonb)), r.sku, r.selling_price, r.mrp,
        r.stock, r.weight_grams, r.length_cm, r.breadth_cm, r.height_cm, r.barcode, r.hsn_code, r.gst_rate_bps, r.images::jsonb, r.is_active, r.created_at, r.updated_at
      from unnest(${column((r) => r.id)}::text[], ${column((r) => r.productId)}::text[], ${column((r) => r.catalogId)}::text[], ${column((r) => r.position)}::int[],
        ${column((r) => JSON.stringify(r.optionValues))}::text[], ${column((r) => r.sku)}::text[], ${column((r) => String(r.sellingPrice))}::bigint[],
        ${column((r) => String(r.mrp))}::bigint[], ${column((r) => r.stock ?? 0)}::int[], ${column((r) => r.weightGrams ?? null)}::int[],
        ${column((r) => r.lengthCm ?? null)}::int[], ${column((r) => r.breadthCm ?? null)}::int[], ${column((r) => r.heightCm ?? null)}::int[],
        ${column((r) => r.barcode ?? null)}::text[], ${column((r) => r.hsnCode ?? null)}::text[], ${column((r) => r.gstRateBps ?? null)}::int[],
        ${column((r) => JSON.stringify(r.images ?? []))}::text[], ${column((r) => r.isActive ?? true)}::boolean[],
        ${column((r) => (r.createdAt ?? at).toISOString())}::timestamptz[], ${column((r) => (r.updatedAt ?? at).toISOString())}::timestamptz[])
        as r(id, product_id, catalog_id, position, option_values, sku, selling_price, mrp, stock, weight_grams, length_cm, breadth_cm, height_cm,
          barcode, hsn_code, gst_rate_bps, images, is_active, created_at, updated_at)`)
  },
  async updateVariant(db: Executor, id: string, changes: Partial<typeof productVariants.$inferInsert>) {
    await db.update(productVariants).set(changes).where(eq(productVariants.id, id))
  },
  async deleteVariants(db: Executor, ids: string[]) {
    if (ids.length > 0) await db.delete(productVariants).where(inArray(productVariants.id, ids))
  },
  /**
   * SKU writes of a catalog take turns (a transaction-scoped advisory lock): a SKU is unique across
   * products and variants, two tables no single index covers. SKU writes are rare (the back office,
   * imports), so the lock costs nothing that matters.
   */
  async lockSkus(db: Executor, catalogId: string) {
    await db.execute(sql`select pg_advisory_xact_lock(hashtext('catalog-sku'), hashtext(${catalogId}))`)
  },
  /** Which of these SKUs a product or a variant of the catalog other than `productId`'s uses. */
  async skusTaken(db: Executor, catalogId: string, skus: string[], productId: string | null): Promise<Set<string>> {
    if (skus.length === 0) return new Set()
    const other = productId ?? ''
    const rows = await queryRows<{ sku: string }>(
      db,
      sql`select sku from ${products} where catalog_id = ${catalogId} and id <> ${other} and sku = any(${sql.param(skus)}::text[])
          union select sku from ${productVariants} where catalog_id = ${catalogId} and product_id <> ${other} and sku = any(${sql.param(skus)}::text[])`,
    )
    return new Set(rows.map((r) => r.sku))
  },
  async adjustStock(db: Executor, id: string, delta: number, at: Date) {
    const [row] = await db
      .update(products)
      .set({ stock: sql`${products.stock} + ${delta}`, updatedAt: at })
      .where(and(eq(products.id, id), sql`${products.stock} + ${delta} >= 0`))
      .returning()
    return row ?? null
  },
  /**
   * The products of a catalog that have one of these slugs or SKUs (an import's rows), and the
   * variants that have one of these SKUs (`ofVariant`, with their product's slug): two array
   * parameters, however many rows.
   */
  async productsBySlugOrSku(db: Executor, catalogId: string, slugs: string[], skus: string[]) {
    if (slugs.length === 0 && skus.length === 0) return []
    return queryRows<{ slug: string; sku: string; hasVariants: boolean; ofVariant: boolean }>(
      db,
      sql`select slug, sku, options <> '[]'::jsonb as "hasVariants", false as "ofVariant" from ${products}
            where catalog_id = ${catalogId} and (slug = any(${sql.param(slugs)}::text[]) or sku = any(${sql.param(skus)}::text[]))
          union all
          select p.slug, v.sku, true, true from ${productVariants} v join ${products} p on p.id = v.product_id
            where v.catalog_id = ${catalogId} and v.sku = any(${sql.param(skus)}::text[])`,
    )
  },

  /**
   * Creates or updates (by slug) an import's products in one statement of array parameters, however
   * many rows: a row-per-value insert of 1,000 products cost more to build in Drizzle than to run.
   * The search vector is computed in it, as refreshSearchColumns does (`path`: the category's path).
   */
  async upsertProducts(db: Executor, catalogId: string, updatedAt: Date, rows: (Omit<typeof products.$inferInsert, 'catalogId' | 'searchVector'> & { path: string })[], keepStock = false) {
    if (rows.length === 0) return new Map<string, string>()
    const column = <T>(pick: (r: (typeof rows)[number]) => T) => sql.param(rows.map(pick))
    // A row's options are its grid's (none: a product without options; the import refuses a row
    // without a grid for a product that has one). Their values are searchable words (optionWords).
    const valuesOf = (options: ProductOptionRow[] | undefined) => (options ?? []).flatMap((o) => o.values).join(' ')
    const written = await queryRows<{ id: string; slug: string }>(db, sql`
      insert into products (id, catalog_id, category_id, name, slug, brand, sku, description, selling_price, mrp, stock, images,
        weight_grams, is_active, created_at, updated_at, options, search_text, search_vector)
      select r.id, ${catalogId}, r.category_id, r.name, r.slug, r.brand, r.sku, r.description, r.selling_price, r.mrp, r.stock, r.images::jsonb,
        r.weight_grams, r.is_active, r.created_at, r.created_at, r.options::jsonb, trim(r.search_text || ' ' || lower(r.option_words)),
        setweight(to_tsvector('english', r.name), 'A') ||
        setweight(to_tsvector('english', r.brand), 'B') ||
        setweight(to_tsvector('english', r.path || ' ' || r.option_words), 'C') ||
        setweight(to_tsvector('english', left(r.description, 2000)), 'D')
      from unnest(${column((r) => r.id)}::text[], ${column((r) => r.categoryId)}::text[], ${column((r) => r.name)}::text[], ${column((r) => r.slug)}::text[],
        ${column((r) => r.brand)}::text[], ${column((r) => r.sku)}::text[], ${column((r) => r.description ?? '')}::text[],
        ${column((r) => String(r.sellingPrice))}::bigint[], ${column((r) => String(r.mrp))}::bigint[], ${column((r) => r.stock ?? 0)}::int[],
        ${column((r) => JSON.stringify(r.images ?? []))}::text[], ${column((r) => r.weightGrams ?? 500)}::int[], ${column((r) => r.isActive ?? true)}::boolean[],
        ${column((r) => (r.createdAt ?? updatedAt).toISOString())}::timestamptz[], ${column((r) => r.searchText ?? '')}::text[], ${column((r) => r.path)}::text[],
        ${column((r) => JSON.stringify(r.options ?? []))}::text[], ${column((r) => valuesOf(r.options))}::text[])
        as r(id, category_id, name, slug, brand, sku, description, selling_price, mrp, stock, images, weight_grams, is_active, created_at, search_text, path, options, option_words)
      on conflict (catalog_id, slug) do update set
        category_id = excluded.category_id, name = excluded.name, brand = excluded.brand, sku = excluded.sku,
        description = excluded.description, selling_price = excluded.selling_price, mrp = excluded.mrp,
        stock = ${keepStock ? sql`products.stock` : sql`excluded.stock`},
        images = excluded.images, weight_grams = excluded.weight_grams, is_active = excluded.is_active, options = excluded.options,
        search_vector = excluded.search_vector, search_text = excluded.search_text, updated_at = ${updatedAt.toISOString()}::timestamptz
      returning id, slug`)
    return new Map(written.map((r) => [r.slug, r.id]))
  },

  /** Sets products' stock (an import's products with variants, in a catalog at locations: their variants' summary). */
  async setProductsStock(db: Executor, rows: { id: string; stock: number }[]) {
    if (rows.length === 0) return
    await db.execute(sql`
      update products p set stock = r.stock
      from unnest(${sql.param(rows.map((r) => r.id))}::text[], ${sql.param(rows.map((r) => r.stock))}::int[]) as r(id, stock)
      where p.id = r.id`)
  },
  /** An import's products of these slugs: their ids and whether they have options (stored variants). */
  async productIdsBySlug(db: Executor, catalogId: string, slugs: string[]) {
    if (slugs.length === 0) return new Map<string, { id: string; hasVariants: boolean; stock: number }>()
    const rows = await queryRows<{ id: string; slug: string; hasVariants: boolean; stock: number }>(
      db,
      sql`select id, slug, options <> '[]'::jsonb as "hasVariants", stock from ${products} where catalog_id = ${catalogId} and slug = any(${sql.param(slugs)}::text[])`,
    )
    return new Map(rows.map((r) => [r.slug, { id: r.id, hasVariants: r.hasVariants, stock: r.stock }]))
  },

  /** A page of a catalog's products, oldest first (the order an import wrote them in), after `after`, for its export. */
  async exportProducts(db: Executor, catalogId: string, after: { id: string } | null, limit: number) {
    // After the last product's own (created_at, id), read back: a Date holds milliseconds, the column microseconds.
    const page = after ? sql`(${products.createdAt}, ${products.id}) > (select p.created_at, p.id from products p where p.id = ${after.id})` : sql`true`
    return db.select().from(products).where(and(eq(products.catalogId, catalogId), page)).orderBy(asc(products.createdAt), asc(products.id)).limit(limit)
  },

  /** Sets (or, null, clears) the packed size of products, by slug, in one statement. */
  async setProductsSize(db: Executor, catalogId: string, rows: { slug: string; dimensionsCm: Dimensions | null }[]) {
    const column = <T>(pick: (r: (typeof rows)[number]) => T) => sql.param(rows.map(pick))
    await db.execute(sql`
      update products p set length_cm = r.length_cm, breadth_cm = r.breadth_cm, height_cm = r.height_cm
      from unnest(${column((r) => r.slug)}::text[], ${column((r) => r.dimensionsCm?.length ?? null)}::int[],
        ${column((r) => r.dimensionsCm?.breadth ?? null)}::int[], ${column((r) => r.dimensionsCm?.height ?? null)}::int[])
        as r(slug, length_cm, breadth_cm, height_cm)
      where p.catalog_id = ${catalogId} and p.slug = r.slug`)
  },

  /** Sets the GST fields a row names (undefined: left as it is; null: cleared), by slug, in one statement. */
  async setProductsTax(db: Executor, catalogId: string, rows: { slug: string; hsnCode: string | null | undefined; gstRateBps: number | null | undefined }[]) {
    const column = <T>(pick: (r: (typeof rows)[number]) => T) => sql.param(rows.map(pick))
    await db.execute(sql`
      update products p set
        hsn_code = case when r.set_hsn then r.hsn_code else p.hsn_code end,
        gst_rate_bps = case when r.set_rate then r.gst_rate_bps else p.gst_rate_bps end
      from unnest(${column((r) => r.slug)}::text[], ${column((r) => r.hsnCode !== undefined)}::boolean[], ${column((r) => r.hsnCode ?? null)}::text[],
        ${column((r) => r.gstRateBps !== undefined)}::boolean[], ${column((r) => r.gstRateBps ?? null)}::int[])
        as r(slug, set_hsn, hsn_code, set_rate, gst_rate_bps)
      where p.catalog_id = ${catalogId} and p.slug = r.slug`)
  },

  /** One statement of nine array parameters, however many rows: building a row-per-value insert cost ~5% of a search's CPU. */
  async recordSearches(db: Executor, rows: (typeof searchQueries.$inferInsert)[]) {
    const column = <T>(pick: (r: (typeof rows)[number]) => T) => sql.param(rows.map(pick))
    await db.execute(sql`
      insert into search_queries (id, partner_id, catalog_id, query, normalized_query, type, source, result_count, top_score, created_at)
      select * from unnest(${column((r) => r.id)}::text[], ${column((r) => r.partnerId)}::text[], ${column((r) => r.catalogId)}::text[],
        ${column((r) => r.query)}::text[], ${column((r) => r.normalizedQuery)}::text[], ${column((r) => r.type)}::text[],
        ${column((r) => r.source ?? null)}::text[], ${column((r) => r.resultCount)}::int[], ${column((r) => r.topScore)}::real[],
        ${column((r) => (r.createdAt ?? new Date()).toISOString())}::timestamptz[])`)
  },
  async topQueries(db: Executor, catalogId: string, since: Date, limit: number, zeroResultsOnly: boolean) {
    const conditions = [eq(searchQueries.catalogId, catalogId), sql`${searchQueries.createdAt} >= ${since}`]
    if (zeroResultsOnly) conditions.push(eq(searchQueries.resultCount, 0))
    return db
      .select({
        query: searchQueries.normalizedQuery,
        searches: count(),
        averageResults: sql<number>`avg(${searchQueries.resultCount})::float8`,
        lastSearchedAt: sql<Date>`max(${searchQueries.createdAt})`,
      })
      .from(searchQueries)
      .where(and(...conditions))
      .groupBy(searchQueries.normalizedQuery)
      .orderBy(desc(count()), asc(searchQueries.normalizedQuery))
      .limit(limit)
  },
}

/**
 * The back office's search of products (issue #39), in every catalog: a SKU whole or by its
 * beginning, or any part of the name, case-insensitive (products_sku_trgm_idx and
 * products_name_trgm_idx serve both patterns).
 */
function productMatches(text: string): SQL {
  const q = text.trim().toLowerCase()
  return sql`(lower(${products.sku}) like ${startingWith(q)} or lower(${products.name}) like ${containing(q)})`
}

/**
 * SQL: the back office's search keys of the products found, `(type, id, exact, created_at)`, exact
 * for the whole SKU, for the composition that merges them with orders and customers (src/flows/admin-search.ts).
 */
export const productSearchKeys = (text: string): SQL =>
  sql`select 'PRODUCT'::text as type, ${products.id} as id, (lower(${products.sku}) = ${text.trim().toLowerCase()}) as exact, ${products.createdAt} as created_at from ${products} where ${productMatches(text)}`

export interface ProductHit {
  id: string
  catalogId: string
  name: string
  brand: string
  sku: string
  sellingPrice: bigint
  stock: number
  isActive: boolean
  createdAt: Date
}

/** The products of a search's page, by id: what a hit shows. */
export async function productHits(db: Executor, ids: string[]): Promise<Map<string, ProductHit>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .select({
      id: products.id,
      catalogId: products.catalogId,
      name: products.name,
      brand: products.brand,
      sku: products.sku,
      sellingPrice: products.sellingPrice,
      stock: products.stock,
      isActive: products.isActive,
      createdAt: products.createdAt,
    })
    .from(products)
    .where(inArray(products.id, ids))
  return new Map(rows.map((r) => [r.id, r]))
}
