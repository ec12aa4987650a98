// Bulk import of categories and products into one catalog: validated completely first, then
// written in one transaction (all or nothing). Rows are matched by slug: existing ones are updated.
// Used by the back office, `commerce catalog import FILE` and the demo seed.
import { CsvError, parse as parseCsv } from 'csv-parse/sync'
import { sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { parseRupees } from '../../lib/money.ts'
import { catalogRepo, refreshSearchColumns } from './repo.ts'
import { categories, products } from './schema.sql.ts'

export interface CategoryImportRow {
  slug: string
  name: string
  parentSlug?: string | null
  image?: string | null
  position?: number
  isActive?: boolean
}
export interface ProductImportRow {
  slug: string
  name: string
  brand: string
  sku: string
  categorySlug: string
  sellingPrice: string | number
  mrp: string | number
  stock?: number
  images?: string[]
  description?: string
  weightGrams?: number
  /** From CSV: "true" or "false" (any other text is kept as it was, and refused by validation). */
  isActive?: boolean | string
}
export interface CatalogImport {
  categories?: CategoryImportRow[]
  products?: ProductImportRow[]
}
export interface ImportReport {
  categories: { created: number; updated: number }
  products: { created: number; updated: number }
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const MAX_REPORTED_ERRORS = 100
const CHUNK = 1000

const isText = (v: unknown, max: number) => typeof v === 'string' && v.trim().length > 0 && v.length <= max
const isUrl = (v: unknown) => typeof v === 'string' && v.length <= 2000 && /^https?:\/\/\S+$/.test(v)
const isInt = (v: unknown, min: number, max: number) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max
/** Absent, or a real boolean: "yes", 1, null or an object would otherwise reach the database (500 on PGlite, 400 there on PostgreSQL, or silently true). */
const isOptionalBoolean = (v: unknown) => v === undefined || typeof v === 'boolean'

/** The columns of a products CSV, in the order the docs list them (docs/catalog-import.md). */
export const PRODUCT_CSV_COLUMNS = ['slug', 'name', 'brand', 'sku', 'categorySlug', 'sellingPrice', 'mrp', 'stock', 'images', 'description', 'weightGrams', 'isActive'] as const
const REQUIRED_CSV_COLUMNS = new Set(['slug', 'name', 'brand', 'sku', 'categorySlug', 'sellingPrice', 'mrp'])

/** One CSV record (cells by column name, trimmed) as an import row: numbers parsed, `images` split on `|`. */
function productFromCsv(raw: Record<string, string | undefined>): ProductImportRow {
  const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : /^-?\d+$/.test(v) ? Number(v) : Number.NaN)
  return {
    slug: raw.slug ?? '',
    name: raw.name ?? '',
    brand: raw.brand ?? '',
    sku: raw.sku ?? '',
    categorySlug: raw.categorySlug ?? '',
    sellingPrice: raw.sellingPrice ?? '',
    mrp: raw.mrp ?? '',
    stock: num(raw.stock),
    images: raw.images ? raw.images.split('|').map((s) => s.trim()).filter(Boolean) : [],
    description: raw.description ?? '',
    weightGrams: num(raw.weightGrams),
    isActive: raw.isActive === undefined || raw.isActive === '' ? undefined : raw.isActive === 'true' ? true : raw.isActive === 'false' ? false : raw.isActive,
  }
}

/**
 * Parses products from CSV as the back office's `text/csv` import always has (header row; quoted
 * fields may hold commas, quotes and newlines; unknown columns ignored; a quote anywhere opens or
 * closes quoting). Kept as it is so that the API's answers do not change (decision 0018); the
 * command line reads files with `readProductsCsv`.
 */
export function parseProductsCsv(text: string): ProductImportRow[] {
  const records: string[][] = []
  let field = ''
  let record: string[] = []
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      record.push(field)
      field = ''
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      record.push(field)
      if (record.some((f) => f !== '')) records.push(record)
      record = []
      field = ''
    } else field += c
  }
  record.push(field)
  if (record.some((f) => f !== '')) records.push(record)
  const [header, ...rows] = records
  if (!header) return []
  const names = header.map((h) => h.trim())
  return rows.map((cells) => productFromCsv(Object.fromEntries(names.map((n, i) => [n, (cells[i] ?? '').trim()]))))
}

export interface ProductsCsv {
  products: ProductImportRow[]
  /** The line of the file each product starts on (1 is the header), for error messages. */
  lines: number[]
}

const lineBreaks = (cells: string[]) => cells.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0)

/**
 * Reads a products CSV strictly (RFC 4180, csv-parse): a malformed quote, a row with more or fewer
 * cells than the header, an unknown column (as JSON refuses an unknown field) or a missing required
 * one is a 400 naming its line; nothing is imported. A UTF-8 byte order mark (spreadsheet exports)
 * is skipped, blank lines too. Line ends become \n first (in quoted cells too): csv-parse counts a
 * quoted \r\n as two lines, and a file may mix them.
 */
export function readProductsCsv(text: string): ProductsCsv {
  let records: { record: string[]; info: { lines: number } }[]
  try {
    records = parseCsv(text.replace(/\r\n?/g, '\n'), { bom: true, info: true, skip_empty_lines: true }) as unknown as typeof records
  } catch (err) {
    if (err instanceof CsvError) throw new AppError('BAD_REQUEST', 'The CSV file is malformed; nothing was imported', [`line ${(err as CsvError & { lines?: number }).lines ?? '?'}: ${err.message}`])
    throw err
  }
  const [header, ...rows] = records
  if (!header) return { products: [], lines: [] }
  const names = header.record.map((h) => h.trim())
  const known = new Set<string>(PRODUCT_CSV_COLUMNS)
  const problems = [
    ...names.filter((n) => !known.has(n)).map((n) => `line 1: column ${n || '(blank)'} should not exist (the columns are ${PRODUCT_CSV_COLUMNS.join(', ')})`),
    ...[...REQUIRED_CSV_COLUMNS].filter((n) => !names.includes(n)).map((n) => `line 1: column ${n} is missing`),
    ...names.filter((n, i) => n && names.indexOf(n) !== i).map((n) => `line 1: column ${n} appears twice`),
  ]
  if (problems.length) throw new AppError('BAD_REQUEST', 'The CSV header is not valid; nothing was imported', problems)
  return {
    products: rows.map(({ record }) => productFromCsv(Object.fromEntries(names.map((n, i) => [n, (record[i] ?? '').trim()])))),
    lines: rows.map(({ record, info }) => info.lines - lineBreaks(record)),
  }
}

const isRow = (row: unknown) => row !== null && typeof row === 'object' && !Array.isArray(row)

const CATEGORY_FIELDS = new Set(['slug', 'name', 'parentSlug', 'image', 'position', 'isActive'])
const PRODUCT_FIELDS = new Set(['slug', 'name', 'brand', 'sku', 'categorySlug', 'sellingPrice', 'mrp', 'stock', 'images', 'description', 'weightGrams', 'isActive'])
const IMPORT_FIELDS = new Set(['categories', 'products'])

/** Fields the import does not know, as the schema-validated routes name them: `property x should not exist`. */
const unknownFields = (row: object, known: Set<string>) => Object.keys(row).filter((k) => !known.has(k)).map((k) => `property ${k} should not exist`)

/** An import body's own fields: like every write, unknown ones are refused rather than ignored. */
export function unknownImportFields(input: object): string[] {
  return unknownFields(input, IMPORT_FIELDS)
}

/** How an error names a product row: `products[3]` for JSON, `line 5` for a CSV file. */
export type ProductRowLabel = (index: number) => string
const productIndexLabel: ProductRowLabel = (i) => `products[${i}]`

function validate(input: CatalogImport, existing: { slug: string; parentSlug: string | null }[], productLabel: ProductRowLabel): string[] {
  const errors: string[] = []
  const add = (message: string) => errors.length < MAX_REPORTED_ERRORS && errors.push(message)
  const badRows = [
    ...(input.categories ?? []).flatMap((c, i) => (isRow(c) ? unknownFields(c, CATEGORY_FIELDS).map((m) => `categories[${i}]: ${m}`) : [`categories[${i}]: must be an object`])),
    ...(input.products ?? []).flatMap((p, i) => (isRow(p) ? unknownFields(p, PRODUCT_FIELDS).map((m) => `${productLabel(i)}: ${m}`) : [`${productLabel(i)}: must be an object`])),
  ]
  if (badRows.length) return badRows.slice(0, MAX_REPORTED_ERRORS)
  const existingCategorySlugs = new Set(existing.map((c) => c.slug))
  // The tree after the import: a category may not end up under itself (directly or not).
  const parentOf = new Map(existing.map((c) => [c.slug, c.parentSlug]))
  for (const c of input.categories ?? []) parentOf.set(c.slug, c.parentSlug ?? null)
  for (const [i, c] of (input.categories ?? []).entries()) {
    const seen = new Set([c.slug])
    for (let up = parentOf.get(c.slug); up; up = parentOf.get(up) ?? null) {
      if (seen.has(up)) {
        add(`categories[${i}]: parentSlug "${c.parentSlug}" would put the category under itself`)
        break
      }
      seen.add(up)
    }
  }
  const categorySlugs = new Set(existingCategorySlugs)
  const seenCategories = new Set<string>()
  for (const [i, c] of (input.categories ?? []).entries()) {
    const at = `categories[${i}]`
    if (!isText(c.slug, 120) || !SLUG.test(c.slug)) add(`${at}: slug must be lower-case words joined by hyphens`)
    if (!isText(c.name, 120)) add(`${at}: name should not be empty (at most 120 characters)`)
    if (c.parentSlug && !categorySlugs.has(c.parentSlug)) add(`${at}: parentSlug "${c.parentSlug}" is not a category defined before it`)
    if (c.parentSlug === c.slug) add(`${at}: a category cannot be its own parent`)
    if (c.image != null && !isUrl(c.image)) add(`${at}: image must be an http(s) URL`)
    if (c.position !== undefined && !isInt(c.position, 0, 1_000_000)) add(`${at}: position must be an integer from 0`)
    if (!isOptionalBoolean(c.isActive)) add(`${at}: isActive must be true or false`)
    if (seenCategories.has(c.slug)) add(`${at}: duplicate slug "${c.slug}"`)
    seenCategories.add(c.slug)
    categorySlugs.add(c.slug)
  }
  const seenSlugs = new Set<string>()
  const seenSkus = new Set<string>()
  for (const [i, p] of (input.products ?? []).entries()) {
    const at = productLabel(i)
    if (!isText(p.slug, 200) || !SLUG.test(p.slug)) add(`${at}: slug must be lower-case words joined by hyphens`)
    if (!isText(p.name, 200)) add(`${at}: name should not be empty (at most 200 characters)`)
    if (!isText(p.brand, 100)) add(`${at}: brand should not be empty (at most 100 characters)`)
    if (!isText(p.sku, 64)) add(`${at}: sku should not be empty (at most 64 characters)`)
    if (!categorySlugs.has(p.categorySlug)) add(`${at}: categorySlug "${p.categorySlug}" does not exist`)
    const selling = typeof p.sellingPrice === 'string' || typeof p.sellingPrice === 'number' ? parseRupees(p.sellingPrice) : null
    const mrp = typeof p.mrp === 'string' || typeof p.mrp === 'number' ? parseRupees(p.mrp) : null
    if (selling === null || selling < 0n) add(`${at}: sellingPrice must be an amount with at most two decimals`)
    if (mrp === null || mrp < 0n) add(`${at}: mrp must be an amount with at most two decimals`)
    if (selling !== null && mrp !== null && selling > mrp) add(`${at}: sellingPrice must not be greater than mrp`)
    if (p.stock !== undefined && !isInt(p.stock, 0, 10_000_000)) add(`${at}: stock must be an integer from 0`)
    if (p.weightGrams !== undefined && !isInt(p.weightGrams, 1, 1_000_000)) add(`${at}: weightGrams must be a positive integer`)
    if (!isOptionalBoolean(p.isActive)) add(`${at}: isActive must be true or false`)
    if (p.images !== undefined && (!Array.isArray(p.images) || p.images.length > 10 || !p.images.every(isUrl))) {
      add(`${at}: images must be at most 10 http(s) URLs`)
    }
    if (p.description !== undefined && (typeof p.description !== 'string' || p.description.length > 5000)) {
      add(`${at}: description must be a string of at most 5000 characters`)
    }
    if (seenSlugs.has(p.slug)) add(`${at}: duplicate slug "${p.slug}"`)
    if (seenSkus.has(p.sku)) add(`${at}: duplicate sku "${p.sku}"`)
    seenSlugs.add(p.slug)
    seenSkus.add(p.sku)
  }
  return errors
}

export async function importCatalog(
  db: Db,
  catalogId: string,
  input: CatalogImport,
  onProgress: (done: number, total: number) => void = () => {},
  /** How errors name product rows (default `products[i]`; a CSV file's reader passes its lines). */
  productLabel: ProductRowLabel = productIndexLabel,
): Promise<ImportReport> {
  if (!(await catalogRepo.findById(db, catalogId))) throw new AppError('NOT_FOUND', 'Catalog not found')
  const existing = await catalogRepo.categories(db, catalogId)
  const slugOf = new Map(existing.map((c) => [c.id, c.slug]))
  const errors = validate(input, existing.map((c) => ({ slug: c.slug, parentSlug: c.parentId ? (slugOf.get(c.parentId) ?? null) : null })), productLabel)
  if (errors.length) throw new AppError('BAD_REQUEST', 'The import has invalid rows; nothing was imported', errors)

  const total = (input.categories?.length ?? 0) + (input.products?.length ?? 0)
  let done = 0
  const report = await db.transaction(async (tx: Tx) => {
    const now = new Date()
    const report: ImportReport = { categories: { created: 0, updated: 0 }, products: { created: 0, updated: 0 } }
    const idBySlug = new Map(existing.map((c) => [c.slug, c.id]))
    for (const c of input.categories ?? []) {
      const id = idBySlug.get(c.slug) ?? newId('ctg')
      const isNew = !idBySlug.has(c.slug)
      const parentId = c.parentSlug ? idBySlug.get(c.parentSlug)! : null
      await tx
        .insert(categories)
        .values({ id, catalogId, parentId, name: c.name.trim(), slug: c.slug, image: c.image ?? null, position: c.position ?? 0, isActive: c.isActive ?? true, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [categories.catalogId, categories.slug],
          set: { parentId, name: c.name.trim(), image: c.image ?? null, position: c.position ?? 0, isActive: c.isActive ?? true, updatedAt: now },
        })
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

    const rows = input.products ?? []
    const known = new Set<string>()
    const catalogHasProducts = (await catalogRepo.listProducts(tx, { catalogId, sortBy: 'createdAt', sortOrder: 'desc', limit: 1, offset: 0 })).total > 0
    for (let i = 0; catalogHasProducts && i < rows.length; i += CHUNK) {
      const slugs = rows.slice(i, i + CHUNK).map((p) => p.slug)
      for (const found of await catalogRepo.productsBySlugs(tx, catalogId, slugs)) known.add(found.slug)
    }
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK)
      // Created timestamps step by a microsecond so that "newest first" follows the file's order.
      const values = chunk.map((p, j) => {
        const createdAt = new Date(now.getTime() + i + j)
        const categoryId = idBySlug.get(p.categorySlug)!
        const path = pathOf(categoryId)
        const name = p.name.trim()
        const brand = p.brand.trim()
        const description = (p.description ?? '').slice(0, 2000)
        return {
          searchVector: sql`setweight(to_tsvector('english', ${name}), 'A') || setweight(to_tsvector('english', ${brand}), 'B') || setweight(to_tsvector('english', ${path}), 'C') || setweight(to_tsvector('english', ${description}), 'D')`,
          searchText: `${name} ${brand} ${path}`.toLowerCase(),
          id: newId('prd', createdAt.getTime()),
          catalogId,
          categoryId: idBySlug.get(p.categorySlug)!,
          name: p.name.trim(),
          slug: p.slug,
          brand: p.brand.trim(),
          sku: p.sku.trim(),
          description: p.description ?? '',
          sellingPrice: parseRupees(p.sellingPrice)!,
          mrp: parseRupees(p.mrp)!,
          stock: p.stock ?? 0,
          images: p.images ?? [],
          weightGrams: p.weightGrams ?? 500,
          isActive: p.isActive !== false,
          createdAt,
          updatedAt: createdAt,
        }
      })
      await tx
        .insert(products)
        .values(values)
        .onConflictDoUpdate({
          target: [products.catalogId, products.slug],
          set: {
            categoryId: sql`excluded.category_id`,
            name: sql`excluded.name`,
            brand: sql`excluded.brand`,
            sku: sql`excluded.sku`,
            description: sql`excluded.description`,
            sellingPrice: sql`excluded.selling_price`,
            mrp: sql`excluded.mrp`,
            stock: sql`excluded.stock`,
            images: sql`excluded.images`,
            weightGrams: sql`excluded.weight_grams`,
            isActive: sql`excluded.is_active`,
            searchVector: sql`excluded.search_vector`,
            searchText: sql`excluded.search_text`,
            updatedAt: now,
          },
        })
      for (const p of chunk) report.products[known.has(p.slug) ? 'updated' : 'created']++
      done += chunk.length
      onProgress(done, total)
    }
    // A renamed or moved category changes the path of products this import did not touch.
    if (report.categories.updated > 0) await refreshSearchColumns(tx, catalogId)
    return report
  })
  // Fresh statistics after a bulk load, or the planner guesses (and picks poor plans for search).
  if ((input.products?.length ?? 0) >= 1000) await db.execute(sql`analyze products`)
  return report
}
