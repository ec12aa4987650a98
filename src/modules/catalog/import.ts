// Bulk import of categories and products into one catalog. Every row is checked first
// (import-check.ts); then, in one transaction, either everything is written or, if asked to skip
// invalid rows, the valid ones are and the invalid ones are left out. A file with a problem and no
// such request writes nothing. Rows are matched by slug: existing ones are updated. Used by the back
// office, `commerce catalog import FILE` and the demo seed.
import { sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { parseRupees } from '../../lib/money.ts'
import { checkImport, countsByKind, type ImportCheck, problemDetails, problemReport, type ProductRowLabel } from './import-check.ts'
import { catalogRepo, type Dimensions, refreshSearchColumns } from './repo.ts'
import { categories } from './schema.sql.ts'

export { LISTED_PROBLEMS, problemReport, type ImportCheck, type ImportProblem, type ProblemReport, type ProductRowLabel } from './import-check.ts'
export { PRODUCT_CSV_COLUMNS, readProductsCsv, rejectsCsv, type ProductsCsv } from './import-csv.ts'

export type { CatalogImport, CategoryImportRow, ProductImportRow } from './import-rows.ts'
import type { CatalogImport } from './import-rows.ts'

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
  /** `refuse` (default): a file with any problem writes nothing (a 400 listing them). `skip`: the valid rows are written, the invalid ones left out. */
  invalidRows?: 'refuse' | 'skip'
  /** Called once every row is checked, before anything is written (e.g. to save the rejected rows first). */
  onChecked?: (check: ImportCheck) => void | Promise<void>
  /** Rows written so far, of those to write. */
  onProgress?: (done: number, total: number) => void
  /** The GST rates in force today (basis points; the tax module's): a row's `gstRateBps` must be one. Without it only the range is checked. */
  gstRatesInForce?: number[]
}

const CHUNK = 1000

/** An import body's own fields: like every write, unknown ones are refused rather than ignored. */
export function unknownImportFields(input: object): string[] {
  return Object.keys(input)
    .filter((k) => k !== 'categories' && k !== 'products')
    .map((k) => `property ${k} should not exist`)
}

/** Checks every row of an import against the catalog as it is, writing nothing (a dry run). */
export async function checkCatalogImport(db: Db, catalogId: string, input: CatalogImport, productLabel?: ProductRowLabel, gstRatesInForce?: number[]): Promise<ImportCheck> {
  const catalog = await catalogFor(db, catalogId, input, gstRatesInForce)
  return checkImport(input, catalog.context, productLabel)
}

/**
 * Checks the import, then writes its rows in one transaction: all of them, or with `invalidRows:
 * 'skip'` the valid ones. A file with problems and no skipping is refused (a 400 listing the first
 * 1,000 problems, then their counts by kind) and nothing is written.
 */
export async function importCatalog(db: Db, catalogId: string, input: CatalogImport, options: ImportOptions = {}): Promise<ImportResult> {
  const catalog = await catalogFor(db, catalogId, input, options.gstRatesInForce)
  const check = checkImport(input, catalog.context, options.productLabel)
  await options.onChecked?.(check)
  if (check.problems.length > 0 && options.invalidRows !== 'skip') {
    const report = problemReport(check)
    const rows = report.invalid.categories + report.invalid.products
    const summary = `${report.problems.total} ${plural(report.problems.total, 'problem')} in ${rows} ${plural(rows, 'row')}: ${countsByKind(report)}`
    throw new AppError('BAD_REQUEST', `The import has invalid rows; nothing was imported (${summary})`, problemDetails(report))
  }
  const valid = {
    categories: (input.categories ?? []).filter((_, i) => !check.invalidCategories.has(i)),
    products: (input.products ?? []).filter((_, i) => !check.invalidProducts.has(i)),
  }
  const written = await writeRows(db, catalogId, valid, catalog, options.onProgress ?? (() => {}))
  // Fresh statistics after a bulk load, or the planner guesses (and picks poor plans for search).
  if (valid.products.length >= 1000) await db.execute(sql`analyze products`)
  return { written, check }
}

const plural = (n: number, word: string) => (n === 1 ? word : `${word}s`)

type CatalogState = Awaited<ReturnType<typeof catalogFor>>

/** What the catalog holds that the import's rows depend on: its categories, and its products that share a row's slug or SKU. */
async function catalogFor(db: Db, catalogId: string, input: CatalogImport, gstRatesInForce?: number[]) {
  for (const section of ['categories', 'products'] as const) {
    if (input[section] !== undefined && !Array.isArray(input[section])) throw new AppError('BAD_REQUEST', `${section} must be an array`)
  }
  if (!(await catalogRepo.findById(db, catalogId))) throw new AppError('NOT_FOUND', 'Catalog not found')
  const categoryRows = await catalogRepo.categories(db, catalogId)
  const slugOf = new Map(categoryRows.map((c) => [c.id, c.slug]))
  const texts = (values: unknown[]) => values.filter((v): v is string => typeof v === 'string')
  const rows = ((input.products ?? []) as unknown[]).filter((p) => p !== null && typeof p === 'object') as Partial<Record<string, unknown>>[]
  const matching = await catalogRepo.productsBySlugOrSku(db, catalogId, texts(rows.map((p) => p.slug)), texts(rows.map((p) => p.sku)).map((s) => s.trim()))
  return {
    categoryIdBySlug: new Map(categoryRows.map((c) => [c.slug, c.id])),
    productSlugs: new Set(matching.map((p) => p.slug)),
    context: {
      categories: categoryRows.map((c) => ({ slug: c.slug, parentSlug: c.parentId ? (slugOf.get(c.parentId) ?? null) : null })),
      productSlugBySku: new Map(matching.filter((p) => !p.ofVariant).map((p) => [p.sku, p.slug])),
      variantSkuHolders: new Map(matching.filter((p) => p.ofVariant).map((p) => [p.sku, p.slug])),
      slugsWithVariants: new Set(matching.filter((p) => p.hasVariants).map((p) => p.slug)),
      gstRatesInForce: gstRatesInForce ? new Set(gstRatesInForce) : null,
    },
  }
}

/** Writes checked rows in one transaction: categories one by one (a parent before its children), products 1,000 to a statement. */
async function writeRows(db: Db, catalogId: string, input: Required<CatalogImport>, catalog: CatalogState, onProgress: (done: number, total: number) => void): Promise<ImportReport> {
  const total = input.categories.length + input.products.length
  let done = 0
  return db.transaction(async (tx: Tx) => {
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

    const rows = input.products
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK)
      // Created timestamps step by a millisecond so that "newest first" follows the file's order.
      const values = chunk.map((p, j) => {
        const createdAt = new Date(now.getTime() + i + j)
        const categoryId = idBySlug.get(p.categorySlug)!
        const path = pathOf(categoryId)
        const name = p.name.trim()
        const brand = (p.brand ?? '').trim() // a file may leave it out
        return {
          id: newId('prd', createdAt.getTime()),
          categoryId,
          name,
          slug: p.slug,
          brand,
          sku: p.sku.trim(),
          description: p.description ?? '',
          sellingPrice: parseRupees(p.sellingPrice)!,
          mrp: parseRupees(p.mrp)!,
          stock: (p.stock as number | undefined) ?? 0,
          images: p.images ?? [],
          weightGrams: (p.weightGrams as number | undefined) ?? 500,
          isActive: p.isActive !== false,
          createdAt,
          path,
          searchText: `${name} ${brand} ${path}`.toLowerCase(),
        }
      })
      await catalogRepo.upsertProducts(tx, catalogId, now, values)
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
      for (const p of chunk) report.products[catalog.productSlugs.has(p.slug) ? 'updated' : 'created']++
      done += chunk.length
      onProgress(done, total)
    }
    // A renamed or moved category changes the path of products this import did not touch.
    if (report.categories.updated > 0) await refreshSearchColumns(tx, catalogId)
    return report
  })
}

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
