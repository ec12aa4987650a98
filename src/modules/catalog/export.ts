// Export of a catalog as a file the import reads back (docs/catalog-import.md, "Export"): JSON
// {categories, products}, the catalog's own products CSV, or Shopify's product CSV. Products come
// oldest first, the order an import writes a file's rows in, so exporting what an export imported
// gives the same file again (a round trip is lossless).
import { stringify } from 'csv-stringify/sync'
import type { Executor } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { formatPaise } from '../../lib/money.ts'
import { PRODUCT_CSV_COLUMNS, VARIANT_CSV_COLUMNS } from './import-csv.ts'
import { SHOPIFY_COLUMNS, shopifyRows } from './import-shopify.ts'
import { type CategoryRow, catalogRepo, type ProductRow, type VariantRow } from './repo.ts'

export type ExportFormat = 'json' | 'csv' | 'shopify'

const dimensions = (r: { lengthCm: number | null; breadthCm: number | null; heightCm: number | null }) =>
  r.lengthCm !== null && r.breadthCm !== null && r.heightCm !== null ? { length: r.lengthCm, breadth: r.breadthCm, height: r.heightCm } : null

/** Categories parents first, siblings in the catalog's order (position, name): the order an import needs them in. */
function treeOrder(rows: CategoryRow[]): CategoryRow[] {
  const children = new Map<string | null, CategoryRow[]>()
  for (const c of rows) children.set(c.parentId, [...(children.get(c.parentId) ?? []), c])
  const ordered: CategoryRow[] = []
  const visit = (parentId: string | null) => {
    for (const c of children.get(parentId) ?? []) {
      ordered.push(c)
      visit(c.id)
    }
  }
  visit(null)
  return ordered
}

/** Products per page of an export: the file is written a page at a time, never held whole. */
const PAGE = 1000

/** A catalog's products, oldest first, a page at a time with the stored variants of those with options. */
async function* productPages(db: Executor, catalogId: string): AsyncGenerator<{ products: ProductRow[]; variants: Map<string, VariantRow[]> }> {
  let after: { id: string } | null = null
  for (;;) {
    const products: ProductRow[] = await catalogRepo.exportProducts(db, catalogId, after, PAGE)
    if (products.length === 0) return
    const gridded = products.filter((p) => p.options.length > 0).map((p) => p.id)
    yield { products, variants: gridded.length > 0 ? await catalogRepo.variantsOf(db, gridded) : new Map() }
    if (products.length < PAGE) return
    after = { id: products[products.length - 1]!.id }
  }
}

/**
 * The catalog as a file of `format` (JSON, the catalog's CSV, Shopify's CSV), as pieces of text to
 * write one after the other (a page of products each): 404 for an unknown catalog before any piece.
 * The pages are read one after another, not in one snapshot: a product written during the export
 * may show in part (export a catalog at rest for a round trip).
 */
export async function openCatalogExport(db: Executor, catalogId: string, format: ExportFormat): Promise<AsyncGenerator<string>> {
  if (!(await catalogRepo.findById(db, catalogId))) throw new AppError('NOT_FOUND', 'Catalog not found')
  const categories = treeOrder(await catalogRepo.categories(db, catalogId))
  return exportPieces(db, catalogId, format, categories)
}

/** The whole file as one string (tests, and the command line writing to stdout). */
export async function exportCatalog(db: Executor, catalogId: string, format: ExportFormat): Promise<string> {
  let out = ''
  for await (const piece of await openCatalogExport(db, catalogId, format)) out += piece
  return out
}

/** JSON.stringify(value, null, 2) of an element of a top-level array of the file: indented four spaces. */
const element = (value: unknown) => `    ${JSON.stringify(value, null, 2).replaceAll('\n', '\n    ')}`

async function* exportPieces(db: Executor, catalogId: string, format: ExportFormat, categories: CategoryRow[]): AsyncGenerator<string> {
  const slugOf = new Map(categories.map((c) => [c.id, c.slug]))
  if (format === 'json') {
    // The same text as JSON.stringify({categories, products}, null, 2), written a page at a time.
    yield categories.length === 0 ? '{\n  "categories": [],\n  "products": [' : `{\n  "categories": [\n${categories.map((c) => element(categoryJson(c, slugOf))).join(',\n')}\n  ],\n  "products": [`
    let first = true
    for await (const page of productPages(db, catalogId)) {
      const items = page.products.map((p) => element(productJson(p, slugOf.get(p.categoryId)!, page.variants.get(p.id) ?? [])))
      yield `${first ? '\n' : ',\n'}${items.join(',\n')}`
      first = false
    }
    yield first ? ']\n}\n' : '\n  ]\n}\n'
    return
  }
  if (format === 'csv') {
    yield stringify([[...PRODUCT_CSV_COLUMNS, ...VARIANT_CSV_COLUMNS]])
    for await (const page of productPages(db, catalogId)) {
      yield stringify(page.products.flatMap((p) => productCsvRows(p, slugOf.get(p.categoryId)!, page.variants.get(p.id) ?? [])))
    }
    return
  }
  // Shopify's Type: the category's name, or its slug where two categories share the name (the import reads either).
  const named = new Map<string, number>()
  for (const c of categories) named.set(c.name.toLowerCase(), (named.get(c.name.toLowerCase()) ?? 0) + 1)
  const typeOf = new Map(categories.map((c) => [c.id, named.get(c.name.toLowerCase()) === 1 ? c.name : c.slug]))
  yield stringify([[...SHOPIFY_COLUMNS]])
  for await (const page of productPages(db, catalogId)) {
    const rows = page.products.flatMap((p) =>
      shopifyRows({
        slug: p.slug, name: p.name, description: p.description, brand: p.brand, category: typeOf.get(p.categoryId)!, isActive: p.isActive, images: p.images, weightGrams: p.weightGrams, options: p.options,
        variants:
          p.options.length === 0
            ? [{ values: [], sku: p.sku, sellingPrice: formatPaise(p.sellingPrice), mrp: formatPaise(p.mrp), stock: p.stock, weightGrams: null, barcode: null, images: [] }]
            : (page.variants.get(p.id) ?? []).map((v) => ({ values: v.optionValues, sku: v.sku, sellingPrice: formatPaise(v.sellingPrice), mrp: formatPaise(v.mrp), stock: v.stock, weightGrams: v.weightGrams, barcode: v.barcode, images: v.images })),
      }),
    )
    if (rows.length > 0) yield stringify(rows)
  }
}

function categoryJson(c: CategoryRow, slugOf: Map<string, string>) {
  return { slug: c.slug, name: c.name, parentSlug: c.parentId ? slugOf.get(c.parentId)! : null, image: c.image, position: c.position, isActive: c.isActive, hsnCode: c.hsnCode, gstRateBps: c.gstRateBps }
}

function productJson(p: ProductRow, categorySlug: string, variants: VariantRow[]) {
  const own = { images: p.images, description: p.description, weightGrams: p.weightGrams, dimensionsCm: dimensions(p),
    isActive: p.isActive, hsnCode: p.hsnCode, gstRateBps: p.gstRateBps,
  }
  if (p.options.length === 0) return { slug: p.slug, name: p.name, brand: p.brand, sku: p.sku, categorySlug, sellingPrice: formatPaise(p.sellingPrice), mrp: formatPaise(p.mrp), stock: p.stock, ...own }
  return {
    slug: p.slug, name: p.name, brand: p.brand, categorySlug, ...own,
    options: p.options,
    variants: variants.map((v) => ({
      options: p.options.map((o, k) => ({ name: o.name, value: v.optionValues[k]! })),
      sku: v.sku, sellingPrice: formatPaise(v.sellingPrice), mrp: formatPaise(v.mrp), stock: v.stock, weightGrams: v.weightGrams, dimensionsCm: dimensions(v), barcode: v.barcode,
      hsnCode: v.hsnCode, gstRateBps: v.gstRateBps, images: v.images, isActive: v.isActive,
    })),
  }
}

const text = (v: string | number | null) => (v === null ? '' : String(v))

/** A product's rows in the catalog's CSV: one, or one per variant with the product's cells on the first (its SKU, prices and stock left empty: their summary). */
function productCsvRows(p: ProductRow, categorySlug: string, variants: VariantRow[]): string[][] {
  const gridded = p.options.length > 0
  const product: Record<string, string> = {
    slug: p.slug, name: p.name, brand: p.brand, categorySlug, images: p.images.join('|'), description: p.description, weightGrams: String(p.weightGrams),
    lengthCm: text(p.lengthCm), breadthCm: text(p.breadthCm), heightCm: text(p.heightCm), isActive: String(p.isActive), hsnCode: text(p.hsnCode), gstRateBps: text(p.gstRateBps),
    ...(gridded ? {} : { sku: p.sku, sellingPrice: formatPaise(p.sellingPrice), mrp: formatPaise(p.mrp), stock: String(p.stock) }),
  }
  const row = (cells: Record<string, string>) => [...PRODUCT_CSV_COLUMNS, ...VARIANT_CSV_COLUMNS].map((c) => cells[c] ?? '')
  if (!gridded) return [row(product)]
  return variants.map((v, j) =>
    row({
      ...(j === 0 ? product : { slug: p.slug }),
      ...Object.fromEntries(p.options.flatMap((o, k) => [[`option${k + 1}Name`, o.name], [`option${k + 1}Value`, v.optionValues[k] ?? '']])),
      variantSku: v.sku, variantSellingPrice: formatPaise(v.sellingPrice), variantMrp: formatPaise(v.mrp), variantStock: String(v.stock), variantWeightGrams: text(v.weightGrams),
      variantLengthCm: text(v.lengthCm), variantBreadthCm: text(v.breadthCm), variantHeightCm: text(v.heightCm), variantBarcode: text(v.barcode), variantHsnCode: text(v.hsnCode),
      variantGstRateBps: text(v.gstRateBps), variantImages: v.images.join('|'), variantIsActive: String(v.isActive),
    }),
  )
}
