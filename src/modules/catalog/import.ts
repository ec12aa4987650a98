// Bulk import of categories and products into one catalog. Every row is checked first
// (import-check.ts); then, in one transaction, either everything is written or, if asked to skip
// invalid rows, the valid ones are and the invalid ones are left out. A file with a problem and no
// such request writes nothing. Rows are matched by slug: existing ones are updated. Used by the back
// office, `commerce catalog import FILE` and the demo seed.
import { sql } from 'drizzle-orm'
import type { Db, Executor, Tx } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { parseRupees } from '../../lib/money.ts'
import { checkImport, countsByKind, type ImportCheck, problemDetails, problemReport, type ProductRowLabel, type VariantRowLabel } from './import-check.ts'
import { catalogRepo, type CategoryRow, type Dimensions, refreshSearchColumns } from './repo.ts'
import { parseCsvRecords, type ProductsCsv, type ReadProblem, readOwnCsv } from './import-csv.ts'
import { readShopifyCsv } from './import-shopify.ts'
import { categories, type ProductOptionRow } from './schema.sql.ts'
import { defaultVariantId, optionValuesOf, summaryOf } from './variants.ts'

export { LISTED_PROBLEMS, problemReport, type ImportCheck, type ImportProblem, type ProblemReport, type ProductRowLabel, type VariantRowLabel } from './import-check.ts'
export { PRODUCT_CSV_COLUMNS, rejectsCsv, type ProductsCsv, VARIANT_CSV_COLUMNS } from './import-csv.ts'

/** How a CSV file's rows are named in an import's problems, and what its reader found: the options `importCatalog` takes for it. */
export function csvImportOptions(csv: ProductsCsv): Pick<ImportOptions, 'productLabel' | 'variantLabel' | 'readProblems' | 'categoryByName'> {
  return {
    productLabel: (i) => `line ${csv.lines[i]}`,
    variantLabel: (i, j) => `line ${csv.variantLines[i]?.[j] ?? csv.lines[i]}`,
    readProblems: csv.problems,
    categoryByName: csv.format === 'shopify',
  }
}
export { SHOPIFY_COLUMNS } from './import-shopify.ts'

/**
 * Reads a products CSV: the catalog's own columns (import-csv.ts), or, when its header names
 * `Handle` and not `slug`, a Shopify product CSV as Shopify exports it (import-shopify.ts).
 */
export function readProductsCsv(text: string): ProductsCsv {
  const csv = parseCsvRecords(text)
  return csv.names.includes('Handle') && !csv.names.includes('slug') ? readShopifyCsv(csv) : readOwnCsv(csv)
}

export type { CatalogImport, CategoryImportRow, ProductImportRow, VariantImportRow } from './import-rows.ts'
import type { CatalogImport, VariantImportRow } from './import-rows.ts'

/** Rows written: created (a new slug) or updated (a slug the catalog had). */
export interface ImportReport {
  categories: { created: number; updated: number }
  products: { created: number; updated: number }
}
export interface ImportResult {
  written: ImportReport
  /** Every problem found; with `invalidRows: 'skip'`, the invalid rows are the ones left out. */
  check: ImportCheck
}
export interface ImportOptions {
  /** How errors name product rows (default `products[i]`; a CSV file's reader passes its lines). */
  productLabel?: ProductRowLabel
  /** How errors name a variant's row (default its product's; a CSV file's reader passes the variant's own line). */
  variantLabel?: VariantRowLabel
  /** Problems the CSV reader found in rows read together (ProductsCsv.problems). */
  readProblems?: ReadProblem[]
  /** `refuse` (default): a file with any problem writes nothing (a 400 listing them). `skip`: the valid rows are written, the invalid ones left out. */
  invalidRows?: 'refuse' | 'skip'
  /** Called once every row is checked, before anything is written (e.g. to save the rejected rows first). */
  onChecked?: (check: ImportCheck) => void | Promise<void>
  /** Rows written so far, of those to write. */
  onProgress?: (done: number, total: number) => void
  /** The GST rates in force today (basis points; the tax module's): a row's `gstRateBps` must be one. Without it only the range is checked. */
  gstRatesInForce?: number[]
  /** Products' categories as a Shopify file names them: a category's slug or, when no slug matches, its name (any case, one category of that name). */
  categoryByName?: boolean
  /** The category of products that name none (`--category`): a slug or, with `categoryByName`, a name. */
  defaultCategory?: string
}

const CHUNK = 1000
/** Variants a statement (a multi-row insert of 19 columns: under PostgreSQL's 65,535 parameters). */
const VARIANT_CHUNK = 2000

/** An import body's own fields: like every write, unknown ones are refused rather than ignored. */
export function unknownImportFields(input: object): string[] {
  return Object.keys(input)
    .filter((k) => k !== 'categories' && k !== 'products')
    .map((k) => `property ${k} should not exist`)
}

/** Checks every row of an import against the catalog as it is, writing nothing (a dry run). */
export async function checkCatalogImport(db: Db, catalogId: string, input: CatalogImport, productLabel?: ProductRowLabel, gstRatesInForce?: number[], more: Pick<ImportOptions, 'variantLabel' | 'readProblems' | 'categoryByName' | 'defaultCategory'> = {}): Promise<ImportCheck> {
  const catalog = await catalogFor(db, catalogId, input, { gstRatesInForce, ...more })
  return checkImport(catalog.input, catalog.context, productLabel, more.variantLabel, more.readProblems)
}

/**
 * Checks the import, then writes its rows, in one transaction that holds the catalog's SKU lock (a
 * SKU is unique across products and variants, decision 0043): all of them, or with `invalidRows:
 * 'skip'` the valid ones. A file with problems and no skipping is refused (a 400 listing the first
 * 1,000 problems, then their counts by kind) and nothing is written.
 */
export async function importCatalog(db: Db, catalogId: string, input: CatalogImport, options: ImportOptions = {}): Promise<ImportResult> {
  const result = await db.transaction(async (tx: Tx) => {
    await catalogRepo.lockSkus(tx, catalogId)
    const catalog = await catalogFor(tx, catalogId, input, options)
    const check = checkImport(catalog.input, catalog.context, options.productLabel, options.variantLabel, options.readProblems)
    await options.onChecked?.(check)
    if (check.problems.length > 0 && options.invalidRows !== 'skip') {
      const report = problemReport(check)
      const rows = report.invalid.categories + report.invalid.products
      const summary = `${report.problems.total} ${plural(report.problems.total, 'problem')} in ${rows} ${plural(rows, 'row')}: ${countsByKind(report)}`
      throw new AppError('BAD_REQUEST', `The import has invalid rows; nothing was imported (${summary})`, problemDetails(report))
    }
    const valid = {
      categories: (catalog.input.categories ?? []).filter((_, i) => !check.invalidCategories.has(i)),
      products: (catalog.input.products ?? []).filter((_, i) => !check.invalidProducts.has(i)),
    }
    const written = await writeRows(tx, catalogId, valid, catalog, options.onProgress ?? (() => {}))
    return { written, check, products: valid.products.length }
  })
  // Fresh statistics after a bulk load, or the planner guesses (and picks poor plans for search).
  if (result.products >= 1000) await db.execute(sql`analyze products`)
  return { written: result.written, check: result.check }
}

const plural = (n: number, word: string) => (n === 1 ? word : `${word}s`)

type CatalogState = Awaited<ReturnType<typeof catalogFor>>

/**
 * What the catalog holds that the import's rows depend on: its categories, and its products and
 * variants that share a row's slug or SKU. Products' categories named by name (a Shopify file) or
 * not at all (`defaultCategory`) are resolved to slugs here, in a copy of the rows.
 */
async function catalogFor(db: Executor, catalogId: string, given: CatalogImport, options: Pick<ImportOptions, 'gstRatesInForce' | 'categoryByName' | 'defaultCategory'>) {
  for (const section of ['categories', 'products'] as const) {
    if (given[section] !== undefined && !Array.isArray(given[section])) throw new AppError('BAD_REQUEST', `${section} must be an array`)
  }
  if (!(await catalogRepo.findById(db, catalogId))) throw new AppError('NOT_FOUND', 'Catalog not found')
  const categoryRows = await catalogRepo.categories(db, catalogId)
  const slugOf = new Map(categoryRows.map((c) => [c.id, c.slug]))
  const input = withCategories(given, categoryRows, options)
  const texts = (values: unknown[]) => values.filter((v): v is string => typeof v === 'string')
  const rows = ((input.products ?? []) as unknown[]).filter((p) => p !== null && typeof p === 'object') as Partial<Record<string, unknown>>[]
  const variantSkus = rows.flatMap((p) => (Array.isArray(p.variants) ? (p.variants as unknown[]).map((v) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>).sku : undefined)) : []))
  const skus = texts([...rows.map((p) => p.sku), ...variantSkus]).map((s) => s.trim())
  const matching = await catalogRepo.productsBySlugOrSku(db, catalogId, texts(rows.map((p) => p.slug)), skus)
  return {
    input,
    categoryIdBySlug: new Map(categoryRows.map((c) => [c.slug, c.id])),
    productSlugs: new Set(matching.filter((p) => !p.ofVariant).map((p) => p.slug)),
    context: {
      categories: categoryRows.map((c) => ({ slug: c.slug, parentSlug: c.parentId ? (slugOf.get(c.parentId) ?? null) : null })),
      productSlugBySku: new Map(matching.filter((p) => !p.ofVariant).map((p) => [p.sku, p.slug])),
      variantSkuHolders: new Map(matching.filter((p) => p.ofVariant).map((p) => [p.sku, p.slug])),
      slugsWithVariants: new Set(matching.filter((p) => p.hasVariants).map((p) => p.slug)),
      gstRatesInForce: options.gstRatesInForce ? new Set(options.gstRatesInForce) : null,
      stockAtLocations: await catalogRepo.stockAtLocations(db, catalogId),
    },
  }
}

/** The rows with each product's category as a slug: the default for none, and with `categoryByName` a name matched to its category. */
function withCategories(input: CatalogImport, categoryRows: CategoryRow[], options: Pick<ImportOptions, 'categoryByName' | 'defaultCategory'>): CatalogImport {
  if (!options.categoryByName && options.defaultCategory === undefined) return input
  const slugs = new Set([...categoryRows.map((c) => c.slug), ...(input.categories ?? []).map((c) => c?.slug)])
  const byName = new Map<string, string | null>()
  for (const c of categoryRows) {
    const key = c.name.trim().toLowerCase()
    byName.set(key, byName.has(key) ? null : c.slug) // a name two categories have matches neither
  }
  const resolve = (ref: string) => (!options.categoryByName || slugs.has(ref) ? ref : (byName.get(ref.trim().toLowerCase()) ?? ref))
  return {
    ...input,
    products: (input.products ?? []).map((p) => {
      if (p === null || typeof p !== 'object' || (p.categorySlug !== undefined && typeof p.categorySlug !== 'string')) return p
      const ref = p.categorySlug?.trim() ? p.categorySlug : options.defaultCategory
      return ref === undefined ? p : { ...p, categorySlug: resolve(ref) }
    }),
  }
}

/** A checked variant's stored columns (null: the product's), as the back office's grid writes them. */
function variantColumns(options: ProductOptionRow[], v: VariantImportRow) {
  return {
    optionValues: optionValuesOf(options, v.options, 'options'),
    sku: v.sku.trim(),
    sellingPrice: parseRupees(v.sellingPrice)!,
    mrp: parseRupees(v.mrp)!,
    stock: (v.stock as number | undefined) ?? 0,
    weightGrams: (v.weightGrams as number | null | undefined) ?? null,
    lengthCm: (v.dimensionsCm?.length as number | undefined) ?? null,
    breadthCm: (v.dimensionsCm?.breadth as number | undefined) ?? null,
    heightCm: (v.dimensionsCm?.height as number | undefined) ?? null,
    barcode: v.barcode ?? null,
    hsnCode: v.hsnCode ?? null,
    gstRateBps: (v.gstRateBps as number | null | undefined) ?? null,
    images: v.images ?? [],
    isActive: v.isActive !== false,
  }
}

/**
 * Writes checked rows in the import's transaction: categories one by one (a parent before its
 * children), products 1,000 to a statement, and the variants of products with options 2,000 to a
 * statement, each product's replacing its stored ones as the back office's grid does (a variant of
 * the same combination keeps its id, and a product given options passes its default variant's id to
 * its first variant, so units its open orders hold come back to a variant).
 */
async function writeRows(tx: Tx, catalogId: string, input: Required<CatalogImport>, catalog: CatalogState, onProgress: (done: number, total: number) => void): Promise<ImportReport> {
  const total = input.categories.length + input.products.length
  let done = 0
  const now = new Date()
  const report: ImportReport = { categories: { created: 0, updated: 0 }, products: { created: 0, updated: 0 } }
  const idBySlug = new Map(catalog.categoryIdBySlug)
  for (const c of input.categories) {
    const id = idBySlug.get(c.slug) ?? newId('ctg')
    const isNew = !idBySlug.has(c.slug)
    const parentId = c.parentSlug ? idBySlug.get(c.parentSlug)! : null
    const fields = {
      parentId,
      name: c.name.trim(),
      image: c.image ?? null,
      position: c.position ?? 0,
      isActive: c.isActive ?? true,
      updatedAt: now,
      // GST defaults only when the row names them: an import that leaves them out keeps them.
      ...(c.hsnCode !== undefined ? { hsnCode: c.hsnCode } : {}),
      ...(c.gstRateBps !== undefined ? { gstRateBps: c.gstRateBps } : {}),
    }
    await tx
      .insert(categories)
      .values({ id, catalogId, slug: c.slug, createdAt: now, ...fields })
      .onConflictDoUpdate({ target: [categories.catalogId, categories.slug], set: fields })
    idBySlug.set(c.slug, id)
    report.categories[isNew ? 'created' : 'updated']++
    onProgress(++done, total)
  }

  // Category paths (names from the root) are part of each product's search text.
  const allCategories = await catalogRepo.categories(tx, catalogId)
  const byId = new Map(allCategories.map((c) => [c.id, c]))
  const pathOf = (id: string, depth = 0): string => {
    const c = byId.get(id)
    if (!c || depth > 50) return ''
    return c.parentId ? `${pathOf(c.parentId, depth + 1)} ${c.name}`.trim() : c.name
  }

  // The stored variants of the products whose grid the file gives, removed before any is written, so
  // a SKU or combination moving between products (or within one) never meets itself in a unique index.
  const gridSlugs = input.products.filter((p) => p.variants !== undefined).map((p) => p.slug)
  const existing = await catalogRepo.productIdsBySlug(tx, catalogId, gridSlugs)
  const keptIds = new Map<string, Map<string, { id: string; createdAt: Date; stock: number }>>()
  // A catalog that keeps its stock at locations (decision 0043, step 5) takes none from a file (the
  // check refuses a row giving one): products and variants keep their units, new ones have none.
  const atLocations = await catalogRepo.stockAtLocations(tx, catalogId)
  const ids = [...existing.values()].filter((p) => p.hasVariants).map((p) => p.id)
  for (let i = 0; i < ids.length; i += CHUNK) {
    const stored = await catalogRepo.variantsOf(tx, ids.slice(i, i + CHUNK))
    for (const [productId, variants] of stored) keptIds.set(productId, new Map(variants.map((v) => [combinationKey(v.optionValues), { id: v.id, createdAt: v.createdAt, stock: v.stock }])))
    const variantIds = [...stored.values()].flat().map((v) => v.id)
    for (let j = 0; j < variantIds.length; j += VARIANT_CHUNK * 5) await catalogRepo.deleteVariants(tx, variantIds.slice(j, j + VARIANT_CHUNK * 5))
  }

  const rows = input.products
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK)
    const grids = new Map<string, { options: ProductOptionRow[]; variants: ReturnType<typeof variantColumns>[] }>()
    for (const p of chunk) {
      if (p.variants === undefined) continue
      const options = p.options!.map((o) => ({ name: o.name.trim(), values: o.values.map((v) => v.trim()) }))
      const variants = p.variants.map((v) => variantColumns(options, v))
      if (atLocations) {
        const before = existing.get(p.slug)
        const kept = before && keptIds.get(before.id)
        variants.forEach((v, position) => (v.stock = kept ? (kept.get(combinationKey(v.optionValues))?.stock ?? 0) : position === 0 && before ? before.stock : 0))
        const held = kept ? [...kept.values()].filter((k) => k.stock > 0 && !variants.some((v) => combinationKey(v.optionValues) === [...kept].find(([, x]) => x === k)![0])) : []
        if (held.length > 0) throw new AppError('CONFLICT', `products "${p.slug}": variant ${held[0]!.id} holds ${held[0]!.stock} units at the catalog's locations; a file leaving it out would drop them (adjust them to zero there first)`)
      }
      grids.set(p.slug, { options, variants })
    }
    // Created timestamps step by a millisecond so that "newest first" follows the file's order.
    const values = chunk.map((p, j) => {
      const createdAt = new Date(now.getTime() + i + j)
      const categoryId = idBySlug.get(p.categorySlug)!
      const path = pathOf(categoryId)
      const name = p.name.trim()
      const brand = (p.brand ?? '').trim() // a file may leave it out
      const grid = grids.get(p.slug)
      // A product with variants: its SKU, price, MRP and stock are their summary, as the grid writes it.
      const own = grid
        ? summaryOf(grid.variants)
        : { sku: p.sku!.trim(), sellingPrice: parseRupees(p.sellingPrice!)!, mrp: parseRupees(p.mrp!)!, stock: (p.stock as number | undefined) ?? 0 }
      return {
        id: newId('prd', createdAt.getTime()),
        categoryId,
        name,
        slug: p.slug,
        brand,
        ...own,
        description: p.description ?? '',
        images: p.images ?? [],
        weightGrams: (p.weightGrams as number | undefined) ?? 500,
        isActive: p.isActive !== false,
        createdAt,
        path,
        searchText: `${name} ${brand} ${path}`.toLowerCase(),
        options: grid?.options ?? [],
      }
    })
    // At locations, an updated product keeps its units; one with variants gets their summary below.
    const productIds = await catalogRepo.upsertProducts(tx, catalogId, now, values, atLocations)
    // The packed size only where a row names it, as GST below.
    const sized = chunk.filter((p) => p.dimensionsCm !== undefined)
    if (sized.length > 0) await catalogRepo.setProductsSize(tx, catalogId, sized.map((p) => ({ slug: p.slug, dimensionsCm: p.dimensionsCm as Dimensions | null })))
    // GST fields only where a row names them: a file that leaves them out keeps what products have.
    const taxed = chunk.filter((p) => p.hsnCode !== undefined || p.gstRateBps !== undefined)
    if (taxed.length > 0) {
      await catalogRepo.setProductsTax(
        tx,
        catalogId,
        taxed.map((p) => ({ slug: p.slug, hsnCode: p.hsnCode, gstRateBps: p.gstRateBps as number | null | undefined })),
      )
    }
    if (grids.size > 0) {
      const variantRows = [...grids].flatMap(([slug, grid]) => {
        const productId = productIds.get(slug)!
        const kept = keptIds.get(productId)
        const before = existing.get(slug)
        return grid.variants.map((v, position) => {
          const same = kept?.get(combinationKey(v.optionValues))
          const id = same?.id ?? (position === 0 && before && !before.hasVariants ? defaultVariantId(productId) : newId('var', now.getTime()))
          return { id, productId, catalogId, position, ...v, createdAt: same?.createdAt ?? now, updatedAt: now }
        })
      })
      for (let j = 0; j < variantRows.length; j += VARIANT_CHUNK) await catalogRepo.insertVariants(tx, variantRows.slice(j, j + VARIANT_CHUNK))
      if (atLocations) await catalogRepo.setProductsStock(tx, [...grids].map(([slug, grid]) => ({ id: productIds.get(slug)!, stock: summaryOf(grid.variants).stock })))
    }
    for (const p of chunk) report.products[catalog.productSlugs.has(p.slug) ? 'updated' : 'created']++
    done += chunk.length
    onProgress(done, total)
  }
  // A renamed or moved category changes the path of products this import did not touch.
  if (report.categories.updated > 0) await refreshSearchColumns(tx, catalogId)
  return report
}

/** A combination of option values, as the back office's grid compares them (any case). */
const combinationKey = (values: string[]) => JSON.stringify(values.map((v) => v.toLowerCase()))

/**
 * The rejects file of a JSON import: the invalid rows as they were, and for each its problems,
 * naming the row in this file and in the original (`errors` is ignored when the file is imported
 * again, once fixed).
 */
export function rejectsJson(input: CatalogImport, check: ImportCheck) {
  const categories = [...check.invalidCategories].map(([index, problems], i) => ({ row: input.categories![index], error: { row: `categories[${i}]`, was: `categories[${index}]`, problems } }))
  const products = [...check.invalidProducts].map(([index, problems], i) => ({ row: input.products![index], error: { row: `products[${i}]`, was: `products[${index}]`, problems } }))
  return {
    categories: categories.map((c) => c.row),
    products: products.map((p) => p.row),
    errors: [...categories, ...products].map((r) => r.error),
  }
}
