// Shopify's product CSV (help.shopify.com, "Using CSV files to import and export products"), read as
// Shopify exports it and written back in its own columns (docs/catalog-import.md, "Shopify"). Rows
// sharing a Handle, one after the other, are one product: a row per variant, and rows with only an
// image. A product without options is one variant row whose Option1 is `Title: Default Title`.
// Columns the catalog does not keep are named, not refused: the file is read as it is.
import { AppError } from '../../lib/errors.ts'
import type { CsvRecords, ProductsCsv } from './import-csv.ts'
import type { ProductImportRow, VariantImportRow } from './import-rows.ts'

/** Shopify's product CSV columns, in the order its export writes them (and ours does). */
export const SHOPIFY_COLUMNS = [
  'Handle', 'Title', 'Body (HTML)', 'Vendor', 'Product Category', 'Type', 'Tags', 'Published',
  'Option1 Name', 'Option1 Value', 'Option2 Name', 'Option2 Value', 'Option3 Name', 'Option3 Value',
  'Variant SKU', 'Variant Grams', 'Variant Inventory Tracker', 'Variant Inventory Qty', 'Variant Inventory Policy', 'Variant Fulfillment Service',
  'Variant Price', 'Variant Compare At Price', 'Variant Requires Shipping', 'Variant Taxable', 'Variant Barcode',
  'Image Src', 'Image Position', 'Image Alt Text', 'Gift Card', 'SEO Title', 'SEO Description',
  'Variant Image', 'Variant Weight Unit', 'Variant Tax Code', 'Cost per item', 'Status',
] as const

/** The columns the import reads; every other column of a file is named in its report. */
const USED = new Set([
  'Handle', 'Title', 'Body (HTML)', 'Vendor', 'Type', 'Option1 Name', 'Option1 Value', 'Option2 Name', 'Option2 Value', 'Option3 Name', 'Option3 Value',
  'Variant SKU', 'Variant Grams', 'Variant Inventory Qty', 'Variant Price', 'Variant Compare At Price', 'Variant Barcode', 'Image Src', 'Image Position', 'Variant Image', 'Status',
])
/** Product columns a later row of the product may repeat (identically) or leave empty. */
const PRODUCT_CELLS = ['Title', 'Body (HTML)', 'Vendor', 'Type', 'Status'] as const

/** The option of a product without options, as Shopify writes it. */
export const DEFAULT_OPTION = { name: 'Title', value: 'Default Title' }

const wholeNumber = (v: string | undefined) => (v === undefined || v === '' ? undefined : /^-?\d+$/.test(v) ? Number(v) : v)
/** Grams as Shopify writes them (0: not given). */
const grams = (v: string | undefined) => {
  const n = wholeNumber(v)
  return n === 0 ? undefined : n
}

/** Shopify's Status: active is on sale; draft and archived are not. Empty: Published (true unless `false`). Other text is kept, for the check to refuse. */
function isActiveOf(status: string | undefined, published: string | undefined): boolean | string {
  const s = (status ?? '').toLowerCase()
  if (s === 'active') return true
  if (s === 'draft' || s === 'archived') return false
  if (s === '') return (published ?? '').toLowerCase() !== 'false'
  return status!
}

const optionsOfRow = (cells: Record<string, string>) =>
  [1, 2, 3].map((k) => ({ name: cells[`Option${k} Name`] ?? '', value: cells[`Option${k} Value`] ?? '' }))
const isVariantRow = (cells: Record<string, string>) => Boolean(cells['Option1 Value'] || cells['Variant SKU'] || cells['Variant Price'])

/**
 * A Shopify product CSV as import rows. Handle is the slug, Title the name, Body (HTML) the
 * description (kept as it is, HTML and all), Vendor the brand, Type the category (its slug or its
 * name, resolved by the import), Status whether it is active; a variant's Variant SKU, Price,
 * Compare At Price (empty: the price), Inventory Qty, Grams, Barcode and Image. Image Src of every
 * row of the product, in Image Position order, are its images.
 */
export function readShopifyCsv(csv: CsvRecords): ProductsCsv {
  const { names, rows } = csv
  const read: ProductsCsv = {
    products: [], lines: [], variantLines: [], header: csv.header, records: rows.map((r) => r.record), recordsOf: [], problems: [],
    unusedColumns: names.filter((n) => n && !USED.has(n)), format: 'shopify',
  }
  const twice = names.filter((n, i) => n && names.indexOf(n) !== i)
  // Read as it is, but a column named twice has no one meaning.
  if (twice.length > 0) throw new AppError('BAD_REQUEST', 'The CSV header is not valid; nothing was imported', twice.map((n) => `line 1: column ${n} appears twice`))
  const groups: { rows: number[] }[] = []
  for (const [r, { cells }] of rows.entries()) {
    const last = groups[groups.length - 1]
    if (last && rows[last.rows[0]!]!.cells.Handle === cells.Handle) last.rows.push(r)
    else groups.push({ rows: [r] })
  }
  for (const group of groups) {
    const first = rows[group.rows[0]!]!
    const index = read.products.length
    const variantRows = group.rows.filter((r) => isVariantRow(rows[r]!.cells))
    const images: { src: string; position: number; order: number }[] = []
    for (const [order, r] of group.rows.entries()) {
      const { cells, line } = rows[r]!
      if (cells['Image Src']) images.push({ src: cells['Image Src'], position: Number(cells['Image Position']) || Number.MAX_SAFE_INTEGER, order })
      if (r === group.rows[0]) continue
      for (const column of PRODUCT_CELLS) {
        if (cells[column] && cells[column] !== first.cells[column]) {
          read.problems.push({ index, line, kind: 'conflicting product cell', text: `${column} differs from the product's first row (line ${first.line}): leave it empty or repeat it` })
        }
      }
    }
    images.sort((a, b) => a.position - b.position || a.order - b.order)
    const product: ProductImportRow = {
      slug: first.cells.Handle ?? '',
      name: first.cells.Title ?? '',
      brand: first.cells.Vendor ?? '',
      categorySlug: first.cells.Type ?? '',
      description: first.cells['Body (HTML)'] ?? '',
      images: [...new Set(images.map((i) => i.src))],
      isActive: isActiveOf(first.cells.Status, first.cells.Published),
    }
    const variants = variantRows.map((r) => rows[r]!.cells)
    const only = variants[0]
    const plain =
      variants.length <= 1 &&
      (!only || optionsOfRow(only).every((o, k) => (k === 0 ? (o.name === '' || o.name === DEFAULT_OPTION.name) && (o.value === '' || o.value === DEFAULT_OPTION.value) : !o.name && !o.value)))
    if (plain) {
      const cells = only ?? first.cells
      const weight = grams(cells['Variant Grams'])
      Object.assign(product, {
        sku: cells['Variant SKU'] ?? '',
        sellingPrice: cells['Variant Price'] ?? '',
        mrp: cells['Variant Compare At Price'] || cells['Variant Price'] || '',
        stock: wholeNumber(cells['Variant Inventory Qty']),
        ...(weight !== undefined ? { weightGrams: weight } : {}),
      })
    } else {
      const optionNames = optionsOfRow(variants[0]!).map((o) => o.name)
      // Shopify has no product weight: the first variant's is the product's, the others' only where they differ.
      const productWeight = grams(variants[0]!['Variant Grams'])
      if (productWeight !== undefined) product.weightGrams = productWeight
      product.variants = variants.map((cells): VariantImportRow => {
        const weight = grams(cells['Variant Grams'])
        return {
          options: optionsOfRow(cells).flatMap((o, k) => {
            const name = o.name || optionNames[k] || ''
            return name || o.value ? [{ name, value: o.value }] : []
          }),
          sku: cells['Variant SKU'] ?? '',
          sellingPrice: cells['Variant Price'] ?? '',
          mrp: cells['Variant Compare At Price'] || cells['Variant Price'] || '',
          stock: wholeNumber(cells['Variant Inventory Qty']),
          weightGrams: weight === undefined || weight === productWeight ? null : weight,
          barcode: cells['Variant Barcode'] || null,
          images: cells['Variant Image'] ? [cells['Variant Image']] : [],
        }
      })
      const options: { name: string; values: string[] }[] = []
      for (const v of product.variants) {
        v.options.forEach(({ name, value }, k) => {
          const option = options[k] ?? (options[k] = { name, values: [] })
          if (option.name.toLowerCase() === name.toLowerCase() && value && !option.values.some((known) => known.toLowerCase() === value.toLowerCase())) option.values.push(value)
        })
      }
      product.options = options
    }
    read.products.push(product)
    read.lines.push(first.line)
    read.variantLines.push(plain ? [] : variantRows.map((r) => rows[r]!.line))
    read.recordsOf.push(group.rows)
  }
  return read
}

/** What a Shopify row of the export is made of: the product's fields and one of its variants (or its own SKU and price). */
export interface ShopifyProduct {
  slug: string
  name: string
  description: string
  brand: string
  /** The Type cell: the category's name (its slug when two categories share the name). */
  category: string
  isActive: boolean
  images: string[]
  weightGrams: number
  options: { name: string; values: string[] }[]
  variants: { values: string[]; sku: string; sellingPrice: string; mrp: string; stock: number; weightGrams: number | null; barcode: string | null; images: string[] }[]
}

/** A product's rows in Shopify's columns: one per variant (a product without options: one, `Title: Default Title`), then one per further image. */
export function shopifyRows(p: ShopifyProduct): string[][] {
  const row = (cells: Partial<Record<(typeof SHOPIFY_COLUMNS)[number], string>>) => SHOPIFY_COLUMNS.map((c) => cells[c] ?? '')
  const gridded = p.options.length > 0
  const variantRows = p.variants.map((v, j) => {
    const options = gridded
      ? Object.fromEntries(p.options.flatMap((o, k) => [[`Option${k + 1} Name`, j === 0 ? o.name : ''], [`Option${k + 1} Value`, v.values[k] ?? '']]))
      : { 'Option1 Name': DEFAULT_OPTION.name, 'Option1 Value': DEFAULT_OPTION.value }
    const product =
      j === 0
        ? {
            Title: p.name, 'Body (HTML)': p.description, Vendor: p.brand, Type: p.category, Published: String(p.isActive), 'Gift Card': 'false', Status: p.isActive ? 'active' : 'draft',
            ...(p.images[0] ? { 'Image Src': p.images[0], 'Image Position': '1' } : {}),
          }
        : {}
    return row({
      Handle: p.slug, ...product, ...options,
      'Variant SKU': v.sku, 'Variant Grams': String(v.weightGrams ?? p.weightGrams), 'Variant Inventory Tracker': 'shopify', 'Variant Inventory Qty': String(v.stock),
      'Variant Inventory Policy': 'deny', 'Variant Fulfillment Service': 'manual', 'Variant Price': v.sellingPrice, 'Variant Compare At Price': v.mrp,
      'Variant Requires Shipping': 'true', 'Variant Taxable': 'true', 'Variant Barcode': v.barcode ?? '', 'Variant Image': v.images[0] ?? '', 'Variant Weight Unit': 'g',
    })
  })
  const imageRows = p.images.slice(1).map((src, k) => row({ Handle: p.slug, 'Image Src': src, 'Image Position': String(k + 2) }))
  return [...variantRows, ...imageRows]
}
