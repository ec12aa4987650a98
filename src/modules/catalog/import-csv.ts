// Products as CSV: the command line's strict reader (csv-parse, decision 0018), the back office's
// lenient one kept for the API's sake, and the rejects file of an import that skips invalid rows
// (the file's own header and rows, with an `error` column; csv-stringify writes it).
import { CsvError, parse as parseCsv } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { AppError } from '../../lib/errors.ts'
import type { ProductImportRow, VariantImportRow } from './import-rows.ts'

/** The columns of a products CSV, in the order the docs list them (docs/catalog-import.md). */
export const PRODUCT_CSV_COLUMNS = [
  'slug', 'name', 'brand', 'sku', 'categorySlug', 'sellingPrice', 'mrp', 'stock', 'images', 'description', 'weightGrams', 'lengthCm', 'breadthCm', 'heightCm', 'isActive', 'hsnCode', 'gstRateBps',
] as const
/**
 * The columns of a variant's row (docs/catalog-import.md): rows of one product follow each other and
 * share its slug, one row per variant; the product's own columns are on its first row (repeated
 * identically, or left empty, on the others) and its sku, sellingPrice, mrp and stock are left empty.
 */
export const VARIANT_CSV_COLUMNS = [
  'option1Name', 'option1Value', 'option2Name', 'option2Value', 'option3Name', 'option3Value',
  'variantSku', 'variantSellingPrice', 'variantMrp', 'variantStock', 'variantWeightGrams', 'variantLengthCm', 'variantBreadthCm', 'variantHeightCm',
  'variantBarcode', 'variantHsnCode', 'variantGstRateBps', 'variantImages', 'variantIsActive',
] as const
const CSV_COLUMNS = [...PRODUCT_CSV_COLUMNS, ...VARIANT_CSV_COLUMNS]
const REQUIRED_CSV_COLUMNS = ['slug', 'name', 'sku', 'categorySlug', 'sellingPrice', 'mrp']
/** A file with variant columns: the product's own SKU and prices may be left out (every product then has variants). */
const REQUIRED_VARIANT_CSV_COLUMNS = ['slug', 'name', 'categorySlug', 'option1Name', 'option1Value', 'variantSku', 'variantSellingPrice', 'variantMrp']
/** Product columns a variant row may repeat (identically) or leave empty. */
const PRODUCT_CELLS = PRODUCT_CSV_COLUMNS.filter((c) => c !== 'slug')
/** The column a rejects file adds: read and ignored, so that a fixed rejects file imports as it is. */
export const ERROR_COLUMN = 'error'

/** A whole number as a number; any other text is kept as it was, for validation to refuse and quote. */
const wholeNumber = (v: string | undefined) => (v === undefined || v === '' ? undefined : /^-?\d+$/.test(v) ? Number(v) : v)

/**
 * The packed size from its three cells: all empty keeps what the product has; otherwise the three
 * as given (text that is not a whole number, or an empty one beside given ones, is refused by
 * validation, which names the cell).
 */
function dimensionsFromCsv(raw: Record<string, string | undefined>): Pick<ProductImportRow, 'dimensionsCm'> {
  const cells = [raw.lengthCm, raw.breadthCm, raw.heightCm]
  if (cells.every((c) => c === undefined || c === '')) return {}
  const [length, breadth, height] = cells.map((c) => (c === undefined || c === '' ? null : wholeNumber(c)))
  return { dimensionsCm: { length, breadth, height } }
}

const flag = (v: string | undefined) => (v === undefined || v === '' ? undefined : v === 'true' ? true : v === 'false' ? false : v)
const listOf = (v: string | undefined) => (v ? v.split('|').map((s) => s.trim()).filter(Boolean) : [])
const given = (v: string | undefined) => (v === undefined || v === '' ? undefined : v)

/** A variant row's variant (options by the row's names, or the product's first row's where the row leaves them empty). */
function variantFromCsv(raw: Record<string, string | undefined>, names: string[]): VariantImportRow {
  const options = [1, 2, 3].flatMap((k) => {
    const name = raw[`option${k}Name`] || names[k - 1] || ''
    const value = raw[`option${k}Value`] ?? ''
    return name || value ? [{ name, value }] : []
  })
  const cells = [raw.variantLengthCm, raw.variantBreadthCm, raw.variantHeightCm]
  const [length, breadth, height] = cells.map((c) => (c === undefined || c === '' ? null : wholeNumber(c)))
  return {
    options,
    sku: raw.variantSku ?? '',
    sellingPrice: raw.variantSellingPrice ?? '',
    mrp: raw.variantMrp ?? '',
    stock: wholeNumber(raw.variantStock),
    weightGrams: wholeNumber(raw.variantWeightGrams) ?? null,
    dimensionsCm: cells.every((c) => c === undefined || c === '') ? null : { length, breadth, height },
    barcode: given(raw.variantBarcode) ?? null,
    hsnCode: given(raw.variantHsnCode) ?? null,
    gstRateBps: wholeNumber(raw.variantGstRateBps) ?? null,
    images: listOf(raw.variantImages),
    isActive: flag(raw.variantIsActive),
  }
}

/** One CSV record (cells by column name, trimmed) as an import row: numbers parsed, `images` split on `|`. */
function productFromCsv(raw: Record<string, string | undefined>): ProductImportRow {
  return {
    slug: raw.slug ?? '',
    name: raw.name ?? '',
    brand: raw.brand ?? '',
    sku: raw.sku ?? '',
    categorySlug: raw.categorySlug ?? '',
    sellingPrice: raw.sellingPrice ?? '',
    mrp: raw.mrp ?? '',
    stock: wholeNumber(raw.stock),
    images: listOf(raw.images),
    description: raw.description ?? '',
    weightGrams: wholeNumber(raw.weightGrams),
    ...dimensionsFromCsv(raw),
    isActive: flag(raw.isActive),
    // An empty GST cell keeps what the product has (a new product inherits its category's).
    hsnCode: raw.hsnCode === undefined || raw.hsnCode === '' ? undefined : raw.hsnCode,
    gstRateBps: wholeNumber(raw.gstRateBps),
  }
}

export interface ProductsCsv {
  products: ProductImportRow[]
  /** The line of the file each product starts on (1 is the header), for error messages. */
  lines: number[]
  /** The line of each variant of each product (none for a product without variants). */
  variantLines: number[][]
  /** The header and each row's cells as the file has them (untrimmed), for a rejects file. */
  header: string[]
  records: string[][]
  /** The rows (indexes in `records`) of each product: one, or one per variant (and a Shopify file's image rows). */
  recordsOf: number[][]
  /** Problems found in reading rows together (a variant row's product cell differing from its first row's), each of a product. */
  problems: ReadProblem[]
  /** A Shopify file's columns the catalog does not keep (named in the report, not refused). Empty for the catalog's own CSV. */
  unusedColumns: string[]
  format: 'csv' | 'shopify'
}
export interface ReadProblem {
  index: number
  line: number
  kind: string
  text: string
}

const lineBreaks = (cells: string[]) => cells.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0)

/** A parsed CSV file: its header's names (trimmed) and each row's cells by name (trimmed), line and cells as they were. */
export interface CsvRecords {
  header: string[]
  names: string[]
  rows: { cells: Record<string, string>; line: number; record: string[] }[]
}

/**
 * Reads CSV strictly (RFC 4180, csv-parse): a malformed quote or a row with more or fewer cells than
 * the header is a 400 naming its line; nothing is imported. A UTF-8 byte order mark (spreadsheet
 * exports) is skipped, blank lines too. Line ends become \n first (in quoted cells too): csv-parse
 * counts a quoted \r\n as two lines, and a file may mix them.
 */
export function parseCsvRecords(text: string): CsvRecords {
  let records: { record: string[]; info: { lines: number } }[]
  try {
    records = parseCsv(text.replace(/\r\n?/g, '\n'), { bom: true, info: true, skip_empty_lines: true }) as unknown as typeof records
  } catch (err) {
    if (err instanceof CsvError) throw new AppError('BAD_REQUEST', 'The CSV file is malformed; nothing was imported', [`line ${(err as CsvError & { lines?: number }).lines ?? '?'}: ${err.message}`])
    throw err
  }
  const [header, ...rows] = records
  if (!header) return { header: [], names: [], rows: [] }
  const names = header.record.map((h) => h.trim())
  return {
    header: header.record,
    names,
    rows: rows.map(({ record, info }) => ({
      cells: Object.fromEntries(names.map((n, i) => [n, (record[i] ?? '').trim()])),
      line: info.lines - lineBreaks(record),
      record,
    })),
  }
}

/**
 * Reads a products CSV of the catalog's own columns strictly: an unknown column (as JSON refuses an
 * unknown field), a missing required one or one named twice is a 400 naming line 1; nothing is
 * imported. Rows of one product with variants follow each other and share its slug.
 */
export function readOwnCsv(csv: CsvRecords): ProductsCsv {
  const { names, rows } = csv
  const empty: ProductsCsv = { products: [], lines: [], variantLines: [], header: csv.header, records: [], recordsOf: [], problems: [], unusedColumns: [], format: 'csv' }
  if (names.length === 0) return empty
  const known = new Set<string>([...CSV_COLUMNS, ERROR_COLUMN])
  const withVariants = names.some((n) => (VARIANT_CSV_COLUMNS as readonly string[]).includes(n))
  const required = withVariants ? REQUIRED_VARIANT_CSV_COLUMNS : REQUIRED_CSV_COLUMNS
  const problems = [
    ...names.filter((n) => !known.has(n)).map((n) => `line 1: column ${n || '(blank)'} should not exist (the columns are ${CSV_COLUMNS.join(', ')})`),
    ...required.filter((n) => !names.includes(n)).map((n) => `line 1: column ${n} is missing`),
    ...names.filter((n, i) => n && names.indexOf(n) !== i).map((n) => `line 1: column ${n} appears twice`),
  ]
  if (problems.length) throw new AppError('BAD_REQUEST', 'The CSV header is not valid; nothing was imported', problems)
  const read: ProductsCsv = { ...empty, records: rows.map((r) => r.record) }
  let names1: string[] = []
  for (const [r, { cells, line }] of rows.entries()) {
    const isVariant = VARIANT_CSV_COLUMNS.some((c) => cells[c])
    const last = read.products.length - 1
    const current = read.products[last]
    if (isVariant && current?.variants && current.slug === cells.slug) {
      // Another variant of the product above: its product cells are the first row's, or empty.
      const first = rows[read.recordsOf[last]![0]!]!.cells
      for (const column of PRODUCT_CELLS) {
        if (cells[column] && cells[column] !== first[column]) {
          read.problems.push({ index: last, line, kind: 'conflicting product cell', text: `${column} differs from the product's first row (line ${read.lines[last]}): leave it empty or repeat it` })
        }
      }
      current.variants.push(variantFromCsv(cells, names1))
      read.variantLines[last]!.push(line)
      read.recordsOf[last]!.push(r)
      continue
    }
    const product = productFromCsv(cells)
    if (isVariant) {
      names1 = [1, 2, 3].map((k) => cells[`option${k}Name`] ?? '')
      product.options = []
      product.variants = [variantFromCsv(cells, names1)]
    }
    read.products.push(product)
    read.lines.push(line)
    read.variantLines.push(isVariant ? [line] : [])
    read.recordsOf.push([r])
  }
  // A product's options, from its variants' names and values in the order they first appear.
  for (const product of read.products) {
    if (!product.variants) continue
    const options: { name: string; values: string[] }[] = []
    for (const v of product.variants) {
      v.options.forEach(({ name, value }, k) => {
        if (!name) return
        const option = options[k] ?? (options[k] = { name, values: [] })
        if (option.name.toLowerCase() === name.toLowerCase() && value && !option.values.some((known) => known.toLowerCase() === value.toLowerCase())) option.values.push(value)
      })
    }
    product.options = options
  }
  return read
}

/**
 * The rejects file of a CSV import: the file's header and its invalid rows as they were, each
 * with its problems in an `error` column (replaced if the file had one: a rejects file imported again).
 */
export function rejectsCsv(csv: ProductsCsv, invalid: Map<number, string[]>): string {
  const errorAt = csv.header.findIndex((h) => h.trim() === ERROR_COLUMN)
  const withError = (cells: string[], error: string) => (errorAt === -1 ? [...cells, error] : cells.map((cell, i) => (i === errorAt ? error : cell)))
  const rows = [...invalid].flatMap(([index, problems]) => csv.recordsOf[index]!.map((r) => withError(csv.records[r]!, problems.join('; '))))
  return stringify([withError(csv.header, ERROR_COLUMN), ...rows])
}
