// Products as CSV: the command line's strict reader (csv-parse, decision 0018), the back office's
// lenient one kept for the API's sake, and the rejects file of an import that skips invalid rows
// (the file's own header and rows, with an `error` column; csv-stringify writes it).
import { CsvError, parse as parseCsv } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { AppError } from '../../lib/errors.ts'
import type { ProductImportRow } from './import-rows.ts'

/** The columns of a products CSV, in the order the docs list them (docs/catalog-import.md). */
export const PRODUCT_CSV_COLUMNS = [
  'slug', 'name', 'brand', 'sku', 'categorySlug', 'sellingPrice', 'mrp', 'stock', 'images', 'description', 'weightGrams', 'lengthCm', 'breadthCm', 'heightCm', 'isActive', 'hsnCode', 'gstRateBps',
] as const
const REQUIRED_CSV_COLUMNS = new Set(['slug', 'name', 'sku', 'categorySlug', 'sellingPrice', 'mrp'])
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
    images: raw.images ? raw.images.split('|').map((s) => s.trim()).filter(Boolean) : [],
    description: raw.description ?? '',
    weightGrams: wholeNumber(raw.weightGrams),
    ...dimensionsFromCsv(raw),
    isActive: raw.isActive === undefined || raw.isActive === '' ? undefined : raw.isActive === 'true' ? true : raw.isActive === 'false' ? false : raw.isActive,
    // An empty GST cell keeps what the product has (a new product inherits its category's).
    hsnCode: raw.hsnCode === undefined || raw.hsnCode === '' ? undefined : raw.hsnCode,
    gstRateBps: wholeNumber(raw.gstRateBps),
  }
}

export interface ProductsCsv {
  products: ProductImportRow[]
  /** The line of the file each product starts on (1 is the header), for error messages. */
  lines: number[]
  /** The header and each product's cells as the file has them (untrimmed), for a rejects file. */
  header: string[]
  records: string[][]
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
  if (!header) return { products: [], lines: [], header: [], records: [] }
  const names = header.record.map((h) => h.trim())
  const known = new Set<string>([...PRODUCT_CSV_COLUMNS, ERROR_COLUMN])
  const problems = [
    ...names.filter((n) => !known.has(n)).map((n) => `line 1: column ${n || '(blank)'} should not exist (the columns are ${PRODUCT_CSV_COLUMNS.join(', ')})`),
    ...[...REQUIRED_CSV_COLUMNS].filter((n) => !names.includes(n)).map((n) => `line 1: column ${n} is missing`),
    ...names.filter((n, i) => n && names.indexOf(n) !== i).map((n) => `line 1: column ${n} appears twice`),
  ]
  if (problems.length) throw new AppError('BAD_REQUEST', 'The CSV header is not valid; nothing was imported', problems)
  return {
    products: rows.map(({ record }) => productFromCsv(Object.fromEntries(names.map((n, i) => [n, (record[i] ?? '').trim()])))),
    lines: rows.map(({ record, info }) => info.lines - lineBreaks(record)),
    header: header.record,
    records: rows.map(({ record }) => record),
  }
}

/**
 * The rejects file of a CSV import: the file's header and its invalid rows as they were, each
 * with its problems in an `error` column (replaced if the file had one: a rejects file imported again).
 */
export function rejectsCsv(csv: ProductsCsv, invalid: Map<number, string[]>): string {
  const errorAt = csv.header.findIndex((h) => h.trim() === ERROR_COLUMN)
  const withError = (cells: string[], error: string) => (errorAt === -1 ? [...cells, error] : cells.map((cell, i) => (i === errorAt ? error : cell)))
  const rows = [...invalid].map(([index, problems]) => withError(csv.records[index]!, problems.join('; ')))
  return stringify([withError(csv.header, ERROR_COLUMN), ...rows])
}
