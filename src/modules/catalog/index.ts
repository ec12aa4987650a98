// The catalog module: catalogs, categories, products and search. Other modules use only this file.
import { readFileSync } from 'node:fs'
import { and, eq, inArray, type SQLWrapper } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client.ts'
import { newId } from '../../lib/ids.ts'
import { projectFile } from '../../lib/paths.ts'
import { type CatalogImport, importCatalog } from './import.ts'
import { catalogRepo } from './repo.ts'
import { products } from './schema.sql.ts'

export async function createCatalog(db: Executor, name: string) {
  return catalogRepo.insert(db, { id: newId('cat'), name })
}

export const findCatalog = (db: Executor, id: string) => catalogRepo.findById(db, id)

/** The merchant's main catalog: the oldest one. New partners sell it unless told otherwise. */
export const findDefaultCatalog = (db: Executor) => catalogRepo.findOldest(db)

/** Loads the shipped demo catalog (Indian brands, INR prices) into a catalog that has no products yet. */
export async function importDemoCatalog(db: Db, catalogId: string): Promise<boolean> {
  const [existing] = await db.select({ id: products.id }).from(products).where(eq(products.catalogId, catalogId)).limit(1)
  if (existing) return false
  const file = projectFile('src/modules/catalog/demo/catalog.json')
  await importCatalog(db, catalogId, JSON.parse(readFileSync(file, 'utf8')) as CatalogImport)
  return true
}

export interface CartProduct {
  id: string
  catalogId: string
  name: string
  sku: string
  images: string[]
  sellingPrice: bigint
  mrp: bigint
  stock: number
  weightGrams: number
  isActive: boolean
  categoryId: string
  slug: string
  /** The product's own GST fields (null: inherited from its category, or unset): cartProductsTax resolves them. */
  hsnCode: string | null
  gstRateBps: number | null
}

/** The products of a cart, limited to the given catalogs (those the partner's keys can read). */
export async function findCartProducts(db: Executor, catalogIds: string[] | SQLWrapper, productIds: string[]): Promise<CartProduct[]> {
  if ((Array.isArray(catalogIds) && catalogIds.length === 0) || productIds.length === 0) return []
  return db
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
    })
    .from(products)
    .where(and(inArray(products.catalogId, catalogIds), inArray(products.id, productIds)))
}

/** A product's packed weight and size (null: not given), for carriers; products since deleted are missing. */
export interface ProductPackage {
  weightGrams: number
  dimensionsCm: { length: number; breadth: number; height: number } | null
}

export async function productPackages(db: Executor, productIds: string[]): Promise<Map<string, ProductPackage>> {
  if (productIds.length === 0) return new Map()
  const rows = await db
    .select({ id: products.id, weightGrams: products.weightGrams, length: products.lengthCm, breadth: products.breadthCm, height: products.heightCm })
    .from(products)
    .where(inArray(products.id, productIds))
  return new Map(
    rows.map((r) => [r.id, { weightGrams: r.weightGrams, dimensionsCm: r.length !== null && r.breadth !== null && r.height !== null ? { length: r.length, breadth: r.breadth, height: r.height } : null }]),
  )
}

export { currentStock, onStockMoved, releaseStock, reserveStock } from './stock.ts'
export { CatalogService } from './service.ts'
export { defaultVariantId } from './variants.ts'
export { catalogRoutes } from './routes.ts'
export { CatalogAdminService, type GstRatesInForce } from './admin-service.ts'
/** GST fields of products as they resolve through categories (the tax module's checks). */
export { activeProductsTax, cartProductsTax, type ProductTax, type TaxFieldSource } from './product-tax.ts'
export { catalogAdminRoutes } from './admin-routes.ts'
export type { CatalogCache } from './cache.ts'
/** Bulk import (the back office, `commerce catalog import`, the demo seed) and the benchmark's synthetic catalog. */
export {
  checkCatalogImport,
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
