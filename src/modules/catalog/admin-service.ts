// Back-office catalog management: catalogs, categories, products, stock, bulk import and search
// analytics. Each write runs in one transaction, refreshes the derived search columns it affects,
// and then invalidates the catalog's read cache on every node.
import type { Db, Executor } from '../../db/client.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { formatPaise, parseRupees } from '../../lib/money.ts'
import { type OptionalPage, pageMeta } from '../../lib/pagination.ts'
import type { CatalogCache } from './cache.ts'
import { type ExportFormat, openCatalogExport } from './export.ts'
import { type CatalogImport, type csvImportOptions, importCatalog } from './import.ts'
import { type CategoryRow, catalogRepo, type Dimensions, type ProductRow, refreshSearchColumns, type VariantRow } from './repo.ts'
import type { ProductOptionRow } from './schema.sql.ts'
import { adminVariantsOf, checkOptions, defaultVariantId, isGtin, optionValuesOf, summaryOf } from './variants.ts'
import { descendantIds } from './service.ts'

export interface CategoryInput {
  name?: string
  slug?: string
  parentId?: string | null
  image?: string | null
  position?: number
  isActive?: boolean
  hsnCode?: string | null
  gstRateBps?: number | null
}
export interface ProductInput {
  name?: string
  slug?: string
  brand?: string
  sku?: string
  categoryId?: string
  sellingPrice?: string | number
  mrp?: string | number
  stock?: number
  images?: string[]
  description?: string
  weightGrams?: number
  dimensionsCm?: Dimensions | null
  isActive?: boolean
  hsnCode?: string | null
  gstRateBps?: number | null
}

/** A variant's fields as the back office writes them (null: inherit the product's). */
export interface VariantInput {
  sku?: string
  sellingPrice?: string | number
  mrp?: string | number
  stock?: number
  weightGrams?: number | null
  dimensionsCm?: Dimensions | null
  barcode?: string | null
  hsnCode?: string | null
  gstRateBps?: number | null
  images?: string[]
  isActive?: boolean
}
export interface VariantGridInput {
  options: ProductOptionRow[]
  variants: (VariantInput & { id?: string; options: { name: string; value: string }[]; sku: string; sellingPrice: string | number; mrp: string | number })[]
}

/** A variant's stored columns as a write sets them. */
type VariantColumns = Pick<
  VariantRow,
  'sku' | 'sellingPrice' | 'mrp' | 'stock' | 'weightGrams' | 'lengthCm' | 'breadthCm' | 'heightCm' | 'barcode' | 'hsnCode' | 'gstRateBps' | 'images' | 'isActive'
>

/** The flat fields of a product with options that are its variants' summary: written through its variants only. */
const SUMMARY_FIELDS = ['sku', 'sellingPrice', 'mrp', 'stock'] as const

/** The three columns of a product's dimensions: all set or all null. */
const dimensionColumns = (d: Dimensions | null) => ({ lengthCm: d?.length ?? null, breadthCm: d?.breadth ?? null, heightCm: d?.height ?? null })

/**
 * The GST rates in force on a day, as the tax module keeps them (passed in by app.ts, so the catalog
 * does not import the tax module, which reads the catalog).
 */
export interface GstRatesInForce {
  ratesInForce(on: Date): Promise<number[]>
}

export function toAdminCategory(row: CategoryRow) {
  return {
    id: row.id,
    catalogId: row.catalogId,
    parentId: row.parentId,
    name: row.name,
    slug: row.slug,
    image: row.image,
    position: row.position,
    isActive: row.isActive,
    hsnCode: row.hsnCode,
    gstRateBps: row.gstRateBps,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

export function toAdminProduct(row: ProductRow, stored: VariantRow[] = []) {
  return {
    id: row.id,
    catalogId: row.catalogId,
    categoryId: row.categoryId,
    name: row.name,
    slug: row.slug,
    brand: row.brand,
    sku: row.sku,
    description: row.description,
    sellingPrice: formatPaise(row.sellingPrice),
    mrp: formatPaise(row.mrp),
    stock: row.stock,
    images: row.images,
    weightGrams: row.weightGrams,
    dimensionsCm: row.lengthCm !== null && row.breadthCm !== null && row.heightCm !== null ? { length: row.lengthCm, breadth: row.breadthCm, height: row.heightCm } : null,
    isActive: row.isActive,
    hsnCode: row.hsnCode,
    gstRateBps: row.gstRateBps,
    options: row.options,
    variants: adminVariantsOf(row, stored),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

function money(field: string, value: string | number | undefined): bigint | undefined {
  if (value === undefined) return undefined
  const paise = parseRupees(value)
  if (paise === null || paise < 0n) throw new AppError('BAD_REQUEST', `${field} must be an amount with at most two decimals`)
  return paise
}

/** A 409: a product with options has its SKU, price, MRP and stock from its variants. */
/**
 * 409 when a stock is written flat in a catalog that keeps its stock at locations (decision 0043,
 * step 5): its units change only by receipts and adjustments at a location, and by orders.
 */
async function refuseStockAtLocations(db: Executor, catalogId: string, written: boolean) {
  if (written && (await catalogRepo.stockAtLocations(db, catalogId))) {
    throw new AppError('CONFLICT', `Catalog ${catalogId} keeps its stock at locations: receive or adjust units at a location (POST /admin/locations/{locationId}/stock)`)
  }
}

function refuseSummaryWrite(product: ProductRow, fields: readonly string[]) {
  if (fields.length === 0) return
  throw new AppError(
    'CONFLICT',
    `Product ${product.id} has variants: its ${fields.join(', ')} ${fields.length === 1 ? 'comes' : 'come'} from them; write the variant instead (PATCH /admin/products/${product.id}/variants/{variantId})`,
  )
}

export class CatalogAdminService {
  readonly #db: Db
  readonly #clock: Deps['clock']

  readonly #cache: CatalogCache
  readonly #flushSearchLog: () => Promise<void>
  readonly #gstRates: GstRatesInForce
  constructor(
    { database, clock }: ServiceDeps,
    cache: CatalogCache,
    flushSearchLog: () => Promise<void>,
    gstRates: GstRatesInForce,
  ) {
    this.#cache = cache
    this.#flushSearchLog = flushSearchLog
    this.#gstRates = gstRates
    this.#db = database.db
    this.#clock = clock
  }

  /** A rate set in the back office must be one in force today (null clears it: inherit). */
  async #checkGstRate(rateBps: number | null | undefined) {
    if (rateBps === undefined || rateBps === null) return
    const rates = await this.#gstRates.ratesInForce(this.#clock.now())
    if (!rates.includes(rateBps)) {
      throw new AppError('BAD_REQUEST', `gstRateBps must be a GST rate in force today, in basis points (one of ${rates.join(', ')}), not ${rateBps}`)
    }
  }

  async #catalogOrThrow(catalogId: string) {
    const catalog = await catalogRepo.findById(this.#db, catalogId)
    if (!catalog) throw new AppError('NOT_FOUND', 'Catalog not found')
    return catalog
  }

  async listCatalogs() {
    return (await catalogRepo.list(this.#db)).map((c) => ({ id: c.id, name: c.name, createdAt: c.createdAt.toISOString() }))
  }

  async createCatalog(name: string) {
    const row = await catalogRepo.insert(this.#db, { id: newId('cat'), name: name.trim(), createdAt: this.#clock.now() })
    return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString() }
  }

  /** `parentId`: a category's children, or `root` for the top level; left out: every category. */
  async listCategories(catalogId: string, query: OptionalPage & { parentId?: string | undefined; search?: string | undefined }) {
    await this.#catalogOrThrow(catalogId)
    const parentId = query.parentId === undefined ? undefined : query.parentId === 'root' ? null : query.parentId
    const { data, meta } = await catalogRepo.categoryList(this.#db, catalogId, { parentId, search: query.search?.trim() }, query)
    return { data: data.map(toAdminCategory), meta }
  }

  async createCategory(catalogId: string, input: Required<Pick<CategoryInput, 'name' | 'slug'>> & CategoryInput) {
    await this.#catalogOrThrow(catalogId)
    if (input.parentId && !(await catalogRepo.findCategory(this.#db, catalogId, input.parentId))) {
      throw new AppError('BAD_REQUEST', 'parentId must be a category of the same catalog')
    }
    await this.#checkGstRate(input.gstRateBps)
    const now = this.#clock.now()
    const [row] = await catalogRepo.insertCategories(this.#db, [
      {
        id: newId('ctg'),
        catalogId,
        parentId: input.parentId ?? null,
        name: input.name.trim(),
        slug: input.slug,
        image: input.image ?? null,
        position: input.position ?? 0,
        isActive: input.isActive ?? true,
        hsnCode: input.hsnCode ?? null,
        gstRateBps: input.gstRateBps ?? null,
        createdAt: now,
        updatedAt: now,
      },
    ])
    await this.#cache.invalidate(catalogId)
    return toAdminCategory(row!)
  }

  async getCategory(categoryId: string) {
    const row = await catalogRepo.findCategoryById(this.#db, categoryId)
    if (!row) throw new AppError('NOT_FOUND', 'Category not found')
    return toAdminCategory(row)
  }

  async updateCategory(categoryId: string, input: CategoryInput) {
    const current = await catalogRepo.findCategoryById(this.#db, categoryId)
    if (!current) throw new AppError('NOT_FOUND', 'Category not found')
    if (input.parentId) {
      const all = await catalogRepo.categories(this.#db, current.catalogId)
      if (!all.some((c) => c.id === input.parentId)) throw new AppError('BAD_REQUEST', 'parentId must be a category of the same catalog')
      if (descendantIds(all, categoryId).includes(input.parentId)) {
        throw new AppError('CONFLICT', 'A category cannot move under itself or one of its descendants')
      }
    }
    await this.#checkGstRate(input.gstRateBps)
    const row = await this.#db.transaction(async (tx) => {
      const updated = await catalogRepo.updateCategory(tx, categoryId, {
        ...input,
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        updatedAt: this.#clock.now(),
      })
      // Names and parents are part of every product's category path, which search indexes.
      if (input.name !== undefined || input.parentId !== undefined) await refreshSearchColumns(tx, current.catalogId)
      return updated
    })
    await this.#cache.invalidate(current.catalogId)
    return toAdminCategory(row)
  }

  async listProducts(catalogId: string, query: { page: number; limit: number; search?: string }) {
    await this.#catalogOrThrow(catalogId)
    const { rows, total } = await catalogRepo.adminListProducts(this.#db, catalogId, query)
    const variants = await catalogRepo.variantsOf(this.#db, rows.filter((r) => r.options.length > 0).map((r) => r.id))
    return { data: rows.map((r) => toAdminProduct(r, variants.get(r.id))), meta: pageMeta(total, query) }
  }

  async getProduct(productId: string) {
    const row = await catalogRepo.findProduct(this.#db, productId)
    if (!row) throw new AppError('NOT_FOUND', 'Product not found')
    return this.#adminView(this.#db, row)
  }

  async #adminView(db: Executor, row: ProductRow) {
    const stored = row.options.length > 0 ? ((await catalogRepo.variantsOf(db, [row.id])).get(row.id) ?? []) : []
    return toAdminProduct(row, stored)
  }

  /** A SKU this write sets must not be another product's or variant's in the catalog (under the catalog's SKU lock). */
  async #checkSkusFree(tx: Executor, catalogId: string, productId: string | null, skus: { sku: string; field: string }[]) {
    if (skus.length === 0) return
    await catalogRepo.lockSkus(tx, catalogId)
    const taken = await catalogRepo.skusTaken(tx, catalogId, skus.map((s) => s.sku), productId)
    const clash = skus.find((s) => taken.has(s.sku))
    if (clash) throw new AppError('CONFLICT', `${clash.field} ${clash.sku} is already the SKU of another product or variant in this catalog`)
  }

  async createProduct(catalogId: string, input: Required<Pick<ProductInput, 'name' | 'slug' | 'brand' | 'sku' | 'categoryId' | 'sellingPrice' | 'mrp'>> & ProductInput) {
    await this.#catalogOrThrow(catalogId)
    if (!(await catalogRepo.findCategory(this.#db, catalogId, input.categoryId))) {
      throw new AppError('BAD_REQUEST', 'categoryId must be a category of the same catalog')
    }
    await refuseStockAtLocations(this.#db, catalogId, (input.stock ?? 0) !== 0)
    const sellingPrice = money('sellingPrice', input.sellingPrice)!
    const mrp = money('mrp', input.mrp)!
    if (sellingPrice > mrp) throw new AppError('BAD_REQUEST', 'sellingPrice must not be greater than mrp')
    await this.#checkGstRate(input.gstRateBps)
    const now = this.#clock.now()
    const id = newId('prd', now.getTime())
    const row = await this.#db.transaction(async (tx) => {
      await this.#checkSkusFree(tx, catalogId, null, [{ sku: input.sku.trim(), field: 'sku' }])
      await catalogRepo.insertProducts(tx, [
        {
          id,
          catalogId,
          categoryId: input.categoryId,
          name: input.name.trim(),
          slug: input.slug,
          brand: input.brand.trim(),
          sku: input.sku.trim(),
          description: input.description ?? '',
          sellingPrice,
          mrp,
          stock: input.stock ?? 0,
          images: input.images ?? [],
          weightGrams: input.weightGrams ?? 500,
          ...dimensionColumns(input.dimensionsCm ?? null),
          isActive: input.isActive ?? true,
          hsnCode: input.hsnCode ?? null,
          gstRateBps: input.gstRateBps ?? null,
          createdAt: now,
          updatedAt: now,
        },
      ])
      await refreshSearchColumns(tx, catalogId, [id])
      return (await catalogRepo.findProduct(tx, id))!
    })
    await this.#cache.invalidate(catalogId)
    return toAdminProduct(row)
  }

  async updateProduct(productId: string, input: ProductInput) {
    const current = await catalogRepo.findProduct(this.#db, productId)
    if (!current) throw new AppError('NOT_FOUND', 'Product not found')
    if (input.categoryId && !(await catalogRepo.findCategory(this.#db, current.catalogId, input.categoryId))) {
      throw new AppError('BAD_REQUEST', 'categoryId must be a category of the same catalog')
    }
    if (current.options.length > 0) refuseSummaryWrite(current, SUMMARY_FIELDS.filter((f) => input[f] !== undefined))
    await refuseStockAtLocations(this.#db, current.catalogId, input.stock !== undefined)
    const sellingPrice = money('sellingPrice', input.sellingPrice) ?? current.sellingPrice
    const mrp = money('mrp', input.mrp) ?? current.mrp
    if (sellingPrice > mrp) throw new AppError('BAD_REQUEST', 'sellingPrice must not be greater than mrp')
    await this.#checkGstRate(input.gstRateBps)
    const { sellingPrice: _s, mrp: _m, dimensionsCm, ...rest } = input
    const row = await this.#db.transaction(async (tx) => {
      if (input.sku !== undefined) await this.#checkSkusFree(tx, current.catalogId, productId, [{ sku: input.sku.trim(), field: 'sku' }])
      await catalogRepo.updateProduct(tx, productId, {
        ...rest,
        ...(rest.name !== undefined ? { name: rest.name.trim() } : {}),
        ...(rest.brand !== undefined ? { brand: rest.brand.trim() } : {}),
        ...(dimensionsCm !== undefined ? dimensionColumns(dimensionsCm) : {}),
        sellingPrice,
        mrp,
        updatedAt: this.#clock.now(),
      })
      await refreshSearchColumns(tx, current.catalogId, [productId])
      return this.#adminView(tx, (await catalogRepo.findProduct(tx, productId))!)
    })
    await this.#cache.invalidate(current.catalogId)
    return row
  }

  /** Adds (or with a negative delta removes) stock; never below zero. */
  async adjustStock(productId: string, delta: number) {
    const current = await catalogRepo.findProduct(this.#db, productId)
    if (!current) throw new AppError('NOT_FOUND', 'Product not found')
    if (current.options.length > 0) refuseSummaryWrite(current, ['stock'])
    await refuseStockAtLocations(this.#db, current.catalogId, true)
    const row = await catalogRepo.adjustStock(this.#db, productId, delta, this.#clock.now())
    if (!row) throw new AppError('CONFLICT', `Stock cannot go below zero (current stock ${current.stock})`)
    await this.#cache.invalidate(current.catalogId)
    return toAdminProduct(row)
  }

  /**
   * PUT /admin/products/{id}/variants: the product's options and every variant, as a whole (variants
   * not listed are removed; order lines keep what they sold). A product without options gets them
   * here: its default variant's id passes to the first variant the grid does not name by id, so
   * stock its open orders hold comes back to a variant. The product's summary is written with them.
   */
  async putVariants(productId: string, input: VariantGridInput) {
    checkOptions(input.options)
    const options = input.options.map((o) => ({ name: o.name.trim(), values: o.values.map((v) => v.trim()) }))
    const combinations = new Map<string, number>()
    const skus = new Map<string, number>()
    const grid: ({ id: string | undefined; values: string[]; stockGiven: boolean } & VariantColumns)[] = []
    for (const [i, v] of input.variants.entries()) {
      const field = `variants[${i}]`
      const values = optionValuesOf(options, v.options, `${field}.options`)
      const key = JSON.stringify(values)
      if (combinations.has(key)) throw new AppError('BAD_REQUEST', `${field}.options repeats the combination of variants[${combinations.get(key)}] (${values.join(' / ')})`)
      combinations.set(key, i)
      const sku = v.sku.trim()
      if (skus.has(sku)) throw new AppError('BAD_REQUEST', `${field}.sku ${sku} is also the SKU of variants[${skus.get(sku)}]`)
      skus.set(sku, i)
      grid.push({ id: v.id, values, stockGiven: v.stock !== undefined, ...(await this.#variantColumns(v, field, null)), sku })
    }
    const now = this.#clock.now()
    const { catalogId, view } = await this.#db.transaction(async (tx) => {
      const product = await catalogRepo.lockProduct(tx, productId)
      if (!product) throw new AppError('NOT_FOUND', 'Product not found')
      const existing = (await catalogRepo.variantsOf(tx, [productId])).get(productId) ?? []
      const keepable = new Map(existing.map((v) => [v.id, v]))
      const defaultId = defaultVariantId(productId)
      const unknown = grid.findIndex((v) => v.id !== undefined && !keepable.has(v.id) && !(existing.length === 0 && v.id === defaultId))
      if (unknown >= 0) throw new AppError('BAD_REQUEST', `variants[${unknown}].id ${grid[unknown]!.id} is not a variant of product ${productId}`)
      const inheritsDefault = existing.length === 0 && !grid.some((v) => v.id === defaultId) ? grid.findIndex((v) => v.id === undefined) : -1
      // Stock kept at locations: a grid keeps its variants' units (a new variant has none until
      // received), and a variant holding units there is not dropped (they would leave no trace).
      await refuseStockAtLocations(tx, product.catalogId, grid.some((v) => v.stockGiven))
      const dropped = existing.filter((v) => v.stock > 0 && !grid.some((g) => g.id === v.id))
      if (dropped.length > 0 && (await catalogRepo.stockAtLocations(tx, product.catalogId))) {
        throw new AppError('CONFLICT', `Variant ${dropped[0]!.id} (${dropped[0]!.optionValues.join(' / ')}) holds ${dropped[0]!.stock} units at the catalog's locations: adjust them to zero there before removing it`)
      }
      await this.#checkSkusFree(tx, product.catalogId, productId, grid.map((v, i) => ({ sku: v.sku, field: `variants[${i}].sku` })))
      // A variant kept without a stock keeps the units it has now (read under the product's lock),
      // so a grid saved from a page read before an order moved them never writes them back.
      const productStock = existing.length === 0 ? ((await catalogRepo.findProduct(tx, productId))?.stock ?? 0) : 0
      const stockNow = (id: string) => keepable.get(id)?.stock ?? (id === defaultId ? productStock : 0)
      const rows = grid.map(({ id, values, stockGiven, ...columns }, position) => {
        const rowId = id ?? (position === inheritsDefault ? defaultId : newId('var', now.getTime()))
        return {
          id: rowId,
          productId,
          catalogId: product.catalogId,
          position,
          optionValues: values,
          ...columns,
          stock: stockGiven ? columns.stock : stockNow(rowId),
          createdAt: (id && keepable.get(id)?.createdAt) || now,
          updatedAt: now,
        }
      })
      // Replaced as a whole: a swap of two variants' combinations or SKUs never meets itself in a unique index.
      await catalogRepo.deleteVariants(tx, existing.map((v) => v.id))
      await catalogRepo.insertVariants(tx, rows)
      await catalogRepo.updateProduct(tx, productId, { options, ...summaryOf(rows), updatedAt: now })
      // Option values are searchable words of the product.
      await refreshSearchColumns(tx, product.catalogId, [productId])
      return { catalogId: product.catalogId, view: await this.#adminView(tx, (await catalogRepo.findProduct(tx, productId))!) }
    })
    await this.#cache.invalidate(catalogId)
    return view
  }

  /** PATCH /admin/products/{id}/variants/{variantId}: some fields of one stored variant; the product's summary follows. */
  async updateVariant(productId: string, variantId: string, input: VariantInput) {
    const now = this.#clock.now()
    const { catalogId, view } = await this.#db.transaction(async (tx) => {
      const product = await catalogRepo.lockProduct(tx, productId)
      if (!product) throw new AppError('NOT_FOUND', 'Product not found')
      const stored = (await catalogRepo.variantsOf(tx, [productId])).get(productId) ?? []
      const current = stored.find((v) => v.id === variantId)
      if (!current) {
        if (stored.length === 0 && variantId === defaultVariantId(productId)) {
          throw new AppError('CONFLICT', `Product ${productId} has no options: its default variant is the product itself, write it with PATCH /admin/products/${productId}`)
        }
        throw new AppError('NOT_FOUND', 'Variant not found')
      }
      await refuseStockAtLocations(tx, product.catalogId, input.stock !== undefined)
      const changes = await this.#variantColumns(input, '', current)
      const after = stored.map((v) => (v.id === variantId ? { ...v, ...changes } : v))
      if (after.filter((v) => v.sku === changes.sku).length > 1) throw new AppError('CONFLICT', `sku ${changes.sku} is already the SKU of another variant of this product`)
      if (input.sku !== undefined) await this.#checkSkusFree(tx, product.catalogId, productId, [{ sku: changes.sku, field: 'sku' }])
      await catalogRepo.updateVariant(tx, variantId, { ...changes, updatedAt: now })
      await catalogRepo.updateProduct(tx, productId, { ...summaryOf(after), updatedAt: now })
      return { catalogId: product.catalogId, view: await this.#adminView(tx, (await catalogRepo.findProduct(tx, productId))!) }
    })
    await this.#cache.invalidate(catalogId)
    return view
  }

  /**
   * A variant's columns from its input, checked (field: `variants[i]`, or '' for one variant):
   * money, price within MRP, the barcode's check digit, a GST rate in force. With `current`, only
   * what the input names (the rest stays).
   */
  async #variantColumns(v: VariantInput, field: string, current: VariantRow | null): Promise<VariantColumns> {
    const named = (name: string) => (field ? `${field}.${name}` : name)
    const sellingPrice = money(named('sellingPrice'), v.sellingPrice) ?? current?.sellingPrice
    const mrp = money(named('mrp'), v.mrp) ?? current?.mrp
    if (sellingPrice === undefined || mrp === undefined) throw new AppError('BAD_REQUEST', `${named('sellingPrice')} and ${named('mrp')} are required`)
    if (sellingPrice > mrp) throw new AppError('BAD_REQUEST', `${named('sellingPrice')} must not be greater than ${named('mrp')}`)
    if (v.barcode && !isGtin(v.barcode)) throw new AppError('BAD_REQUEST', `${named('barcode')} ${v.barcode} is not a GTIN: its last digit is not its check digit`)
    await this.#checkGstRate(v.gstRateBps)
    const pick = <T>(value: T | undefined, kept: T) => (value === undefined ? kept : value)
    return {
      sku: pick(v.sku?.trim(), current?.sku ?? ''),
      sellingPrice,
      mrp,
      stock: pick(v.stock, current?.stock ?? 0),
      weightGrams: pick(v.weightGrams, current?.weightGrams ?? null),
      ...(v.dimensionsCm !== undefined ? dimensionColumns(v.dimensionsCm) : { lengthCm: current?.lengthCm ?? null, breadthCm: current?.breadthCm ?? null, heightCm: current?.heightCm ?? null }),
      barcode: pick(v.barcode, current?.barcode ?? null),
      hsnCode: pick(v.hsnCode, current?.hsnCode ?? null),
      gstRateBps: pick(v.gstRateBps, current?.gstRateBps ?? null),
      images: pick(v.images, current?.images ?? []),
      isActive: pick(v.isActive, current?.isActive ?? true),
    }
  }

  /** `csv`: a CSV body's options (csvImportOptions: its lines name the rows; a Shopify file's categories by name); its unused columns are answered. */
  async importCatalog(catalogId: string, input: CatalogImport, csv?: { options: ReturnType<typeof csvImportOptions>; unusedColumns: string[] }) {
    const gstRatesInForce = await this.#gstRates.ratesInForce(this.#clock.now())
    const { written } = await importCatalog(this.#db, catalogId, input, { gstRatesInForce, ...csv?.options })
    await this.#cache.invalidate(catalogId)
    return csv && csv.options.categoryByName ? { ...written, unusedColumns: csv.unusedColumns } : written
  }

  /** The catalog as a file the import reads back: JSON, the catalog's CSV or Shopify's, in pieces to write in turn (export.ts). */
  exportCatalog(catalogId: string, format: ExportFormat) {
    return openCatalogExport(this.#db, catalogId, format)
  }

  async searchAnalytics(catalogId: string, days: number, limit: number) {
    await this.#catalogOrThrow(catalogId)
    await this.#flushSearchLog()
    const since = new Date(this.#clock.now().getTime() - days * 86_400_000)
    const shape = (rows: Awaited<ReturnType<typeof catalogRepo.topQueries>>) =>
      rows.map((r) => ({
        query: r.query,
        searches: Number(r.searches),
        averageResults: Math.round(Number(r.averageResults) * 100) / 100,
        lastSearchedAt: new Date(r.lastSearchedAt).toISOString(),
      }))
    const [top, zero] = await Promise.all([
      catalogRepo.topQueries(this.#db, catalogId, since, limit, false),
      catalogRepo.topQueries(this.#db, catalogId, since, limit, true),
    ])
    return { since: since.toISOString(), topQueries: shape(top), zeroResultQueries: shape(zero) }
  }
}

