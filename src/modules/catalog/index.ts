// The catalog module: catalogs, categories, products and search. Other modules use only this file.
import { readFileSync } from 'node:fs'
import { and, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client.ts'
import { newId } from '../../lib/ids.ts'
import { projectFile } from '../../lib/paths.ts'
import { type CatalogImport, importCatalog } from './import.ts'
import { catalogRepo } from './repo.ts'
import type { StockUnit } from './stock.ts'
import { type CartLineProblem, type CartProduct, unitAsSold, type VariantForSale, variantOfJson } from './variants.ts'
import { products, productVariants } from './schema.sql.ts'

export async function createCatalog(db: Executor, name: string) {
  return catalogRepo.insert(db, { id: newId('cat'), name })
}

export const findCatalog = (db: Executor, id: string) => catalogRepo.findById(db, id)

/** The merchant's main catalog: the oldest one. New partners sell it unless told otherwise. */
export const findDefaultCatalog = (db: Executor) => catalogRepo.findOldest(db)

/** Loads the shipped demo catalog (Indian brands, INR prices) into a catalog that has no products yet. */
/** Whether a catalog exists (another module's back office answers 404 for one that does not). */
export async function catalogExists(db: Executor, id: string): Promise<boolean> {
  return (await catalogRepo.findById(db, id)) !== null
}

export async function importDemoCatalog(db: Db, catalogId: string): Promise<boolean> {
  const [existing] = await db.select({ id: products.id }).from(products).where(eq(products.catalogId, catalogId)).limit(1)
  if (existing) return false
  const file = projectFile('src/modules/catalog/demo/catalog.json')
  await importCatalog(db, catalogId, JSON.parse(readFileSync(file, 'utf8')) as CatalogImport)
  return true
}

/**
 * The units of a cart's lines (each `{productId, variantId?}`), limited to the given catalogs (those
 * the partner's keys can read), in the lines' order: a CartProduct or why there is none. One query:
 * the variants the lines name come with their products (a left join on the ids given), so a cart of
 * variants costs no more round trips than one of products without options.
 */
export async function findCartProducts(
  db: Executor,
  catalogIds: string[] | SQLWrapper,
  lines: { productId: string; variantId?: string | undefined }[],
): Promise<(CartProduct | CartLineProblem)[]> {
  const productIds = [...new Set(lines.map((l) => l.productId))]
  if ((Array.isArray(catalogIds) && catalogIds.length === 0) || productIds.length === 0) return lines.map(() => 'NO_PRODUCT')
  const variantIds = [...new Set(lines.flatMap((l) => (l.variantId === undefined ? [] : [l.variantId])))]
  const rows = await db
    .select({
      id: products.id,
      catalogId: products.catalogId,
      name: products.name,
      sku: products.sku,
      images: products.images,
      sellingPrice: products.sellingPrice,
      mrp: products.mrp,
      stock: products.stock,
      weightGrams: products.weightGrams,
      isActive: products.isActive,
      categoryId: products.categoryId,
      slug: products.slug,
      hsnCode: products.hsnCode,
      gstRateBps: products.gstRateBps,
      options: products.options,
      variant: variantIds.length === 0 ? sql<null>`null` : sql<VariantForSale | null>`case when ${productVariants.id} is null then null else json_build_object(
        'id', ${productVariants.id}, 'optionValues', ${productVariants.optionValues}, 'sku', ${productVariants.sku},
        'sellingPrice', ${productVariants.sellingPrice}::text, 'mrp', ${productVariants.mrp}::text, 'stock', ${productVariants.stock},
        'weightGrams', ${productVariants.weightGrams}, 'hsnCode', ${productVariants.hsnCode}, 'gstRateBps', ${productVariants.gstRateBps},
        'images', ${productVariants.images}, 'isActive', ${productVariants.isActive}) end`,
    })
    .from(products)
    .leftJoin(productVariants, variantIds.length === 0 ? sql`false` : and(eq(productVariants.productId, products.id), inArray(productVariants.id, variantIds)))
    .where(and(inArray(products.catalogId, catalogIds), inArray(products.id, productIds)))
  const byId = new Map<string, (typeof rows)[number]>()
  const variants = new Map<string, VariantForSale[]>()
  for (const row of rows) {
    byId.set(row.id, row)
    if (row.variant) variants.set(row.id, [...(variants.get(row.id) ?? []), row.variant])
  }
  return lines.map((line) => {
    const product = byId.get(line.productId)
    if (!product) return 'NO_PRODUCT'
    const { variant: _variant, ...own } = product
    return unitAsSold(own, (variants.get(product.id) ?? []).map(variantOfJson), line.variantId)
  })
}

/** A unit's packed weight and size (null: not given), for carriers. */
export interface ProductPackage {
  weightGrams: number
  dimensionsCm: { length: number; breadth: number; height: number } | null
}

/**
 * The packages of sold units, by variant id: a stored variant's weight and size where it sets them,
 * else its product's. Units whose product was deleted since are missing.
 */
export async function unitPackages(db: Executor, units: StockUnit[]): Promise<Map<string, ProductPackage>> {
  if (units.length === 0) return new Map()
  const productIds = [...new Set(units.map((u) => u.productId))]
  const rows = await db
    .select({ id: products.id, weightGrams: products.weightGrams, lengthCm: products.lengthCm, breadthCm: products.breadthCm, heightCm: products.heightCm, options: products.options })
    .from(products)
    .where(inArray(products.id, productIds))
  const byId = new Map(rows.map((r) => [r.id, r]))
  const stored = await catalogRepo.variantsOf(db, rows.filter((r) => r.options.length > 0).map((r) => r.id))
  const packages = new Map<string, ProductPackage>()
  for (const unit of units) {
    const product = byId.get(unit.productId)
    if (!product) continue
    const variant = stored.get(unit.productId)?.find((v) => v.id === unit.variantId)
    const sized = variant && variant.lengthCm !== null ? variant : product
    packages.set(unit.variantId, {
      weightGrams: variant?.weightGrams ?? product.weightGrams,
      dimensionsCm: sized.lengthCm !== null && sized.breadthCm !== null && sized.heightCm !== null ? { length: sized.lengthCm, breadth: sized.breadthCm, height: sized.heightCm } : null,
    })
  }
  return packages
}

export {
  currentStock,
  keepStockAtLocations,
  moveUnitStock,
  onStockMoved,
  releaseStock,
  reserveStock,
  stockAtLocations,
  type StockUnit,
  stockUnitNames,
  stockUnitOf,
  unitsInStock,
} from './stock.ts'
export { CatalogService } from './service.ts'
export { type CartLineProblem, type CartProduct, defaultVariantId } from './variants.ts'
export { catalogRoutes } from './routes.ts'
export { CatalogAdminService, type GstRatesInForce } from './admin-service.ts'
/** GST fields of products as they resolve through categories (the tax module's checks). */
export { activeProductsTax, cartProductsTax, type ProductTax, type TaxFieldSource } from './product-tax.ts'
export { catalogAdminRoutes } from './admin-routes.ts'
export type { CatalogCache } from './cache.ts'
/** Bulk import (the back office, `commerce catalog import`, the demo seed) and the benchmark's synthetic catalog. */
export { exportCatalog, type ExportFormat, openCatalogExport } from './export.ts'
export {
  checkCatalogImport,
  csvImportOptions,
  importCatalog,
  LISTED_PROBLEMS,
  problemReport,
  PRODUCT_CSV_COLUMNS,
  readProductsCsv,
  rejectsCsv,
  rejectsJson,
  type CatalogImport,
  type CategoryImportRow,
  type ImportCheck,
  type ImportReport,
  type ProblemReport,
  type ProductImportRow,
  type ProductRowLabel,
  type ProductsCsv,
} from './import.ts'
export { syntheticCatalog } from './synthetic.ts'
/** The back office's search (issue #39): products by SKU (whole or its beginning) or part of the name, in every catalog. */
export { productHits, type ProductHit, productSearchKeys } from './repo.ts'
