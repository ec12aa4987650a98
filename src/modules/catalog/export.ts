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

const BATCH = 1000

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

/** The catalog's categories and products, with the stored variants of products with options. */
async function catalogContents(db: Executor, catalogId: string) {
  if (!(await catalogRepo.findById(db, catalogId))) throw new AppError('NOT_FOUND', 'Catalog not found')
  const categories = treeOrder(await catalogRepo.categories(db, catalogId))
  const products = await catalogRepo.exportProducts(db, catalogId)
  const variants = new Map<string, VariantRow[]>()
  const gridded = products.filter((p) => p.options.length > 0).map((p) => p.id)
  for (let i = 0; i < gridded.length; i += BATCH) for (const [id, rows] of await catalogRepo.variantsOf(db, gridded.slice(i, i + BATCH))) variants.set(id, rows)
  return { categories, products, variants }
}

/** The catalog as a file of `format` (JSON, the catalog's CSV, Shopify's CSV): its text. */
export async function exportCatalog(db: Executor, catalogId: string, format: ExportFormat): Promise<string> {
  const { categories, products, variants } = await catalogContents(db, catalogId)
  const slugOf = new Map(categories.map((c) => [c.id, c.slug]))
  const variantsOf = (p: ProductRow) => variants.get(p.id) ?? []
  if (format === 'json') return `${JSON.stringify({ categories: categories.map((c) => categoryJson(c, slugOf)), products: products.map((p) => productJson(p, slugOf.get(p.categoryId)!, variantsOf(p))) }, null, 2)}\n`
  if (format === 'csv') return stringify([[...PRODUCT_CSV_COLUMNS, ...VARIANT_CSV_COLUMNS], ...products.flatMap((p) => productCsvRows(p, slugOf.get(p.categoryId)!, variantsOf(p)))])
  // Shopify's Type: the category's name, or its slug where two categories share the name (the import reads either).
  const named = new Map<string, number>()
  for (const c of categories) named.set(c.name.toLowerCase(), (named.get(c.name.toLowerCase()) ?? 0) + 1)
  const typeOf = new Map(categories.map((c) => [c.id, named.get(c.name.toLowerCase()) === 1 ? c.name : c.slug]))
  const rows = products.flatMap((p) =>
    shopifyRows({
      slug: p.slug, name: p.name, description: p.description, brand: p.brand, category: typeOf.get(p.categoryId)!, isActive: p.isActive, images: p.images, weightGrams: p.weightGrams, options: p.options,
      variants:
        p.options.length === 0
          ? [{ values: [], sku: p.sku, sellingPrice: formatPaise(p.sellingPrice), mrp: formatPaise(p.mrp), stock: p.stock, weightGrams: null, barcode: null, images: [] }]
          : variantsOf(p).map((v) => ({ values: v.optionValues, sku: v.sku, sellingPrice: formatPaise(v.sellingPrice), mrp: formatPaise(v.mrp), stock: v.stock, weightGrams: v.weightGrams, barcode: v.barcode, images: v.images })),
    }),
  )
  return stringify([[...SHOPIFY_COLUMNS], ...rows])
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
