import { sql } from 'drizzle-orm'
import { bigint, boolean, check, customType, index, integer, jsonb, pgTable, real, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

/** A catalog holds categories and products; each API key names the one catalog it reads. */
export const catalogs = pgTable('catalogs', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /**
   * Set when the catalog's first stock location is made (decision 0043, step 5): its stock is then
   * the sum of its locations' levels, moved only by the inventory module (receipts, adjustments,
   * orders), and the back office's flat stock writes are refused.
   */
  stockAtLocations: boolean('stock_at_locations').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Categories form a tree per catalog (any depth); slugs are unique within a catalog. */
export const categories = pgTable(
  'categories',
  {
    id: text('id').primaryKey(),
    catalogId: text('catalog_id')
      .notNull()
      .references(() => catalogs.id),
    parentId: text('parent_id'),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    image: text('image'),
    position: integer('position').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    // GST defaults that the category's products (and subcategories) inherit when they set none.
    hsnCode: text('hsn_code'),
    gstRateBps: integer('gst_rate_bps'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('categories_catalog_slug_uq').on(t.catalogId, t.slug),
    index('categories_parent_idx').on(t.parentId),
    check('categories_gst_rate_check', sql`${t.gstRateBps} between 0 and 10000`),
  ],
)

/**
 * Products. Money is integer paise. `searchVector` (weighted: name A, brand B, category path C,
 * description D) and `searchText` (lower-cased name, brand and category path, for trigram
 * matching) are derived columns the repository refreshes on every write.
 */
export const products = pgTable(
  'products',
  {
    id: text('id').primaryKey(),
    catalogId: text('catalog_id')
      .notNull()
      .references(() => catalogs.id),
    categoryId: text('category_id')
      .notNull()
      .references(() => categories.id),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    brand: text('brand').notNull(),
    sku: text('sku').notNull(),
    description: text('description').notNull().default(''),
    sellingPrice: bigint('selling_price', { mode: 'bigint' }).notNull(),
    mrp: bigint('mrp', { mode: 'bigint' }).notNull(),
    stock: integer('stock').notNull().default(0),
    images: jsonb('images').$type<string[]>().notNull().default([]),
    weightGrams: integer('weight_grams').notNull().default(500),
    /** The packed unit's size in whole centimetres, for carriers (decision 0030); null: not given. */
    lengthCm: integer('length_cm'),
    breadthCm: integer('breadth_cm'),
    heightCm: integer('height_cm'),
    isActive: boolean('is_active').notNull().default(true),
    // GST (back office only, never in the public product): HSN/SAC code and rate in basis points;
    // null inherits the category's. The rates in force are the tax module's data.
    hsnCode: text('hsn_code'),
    gstRateBps: integer('gst_rate_bps'),
    /**
     * Up to three options in the merchant's order (decision 0043); none: the product has one variant,
     * its default, which is this row. With options, its variants are `product_variants` rows and
     * `sku`, `selling_price`, `mrp` and `stock` here are their summary (variants.ts writes it).
     */
    options: jsonb('options').$type<ProductOptionRow[]>().notNull().default([]),
    searchVector: tsvector('search_vector'),
    searchText: text('search_text').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('products_catalog_slug_uq').on(t.catalogId, t.slug),
    uniqueIndex('products_catalog_sku_uq').on(t.catalogId, t.sku),
    index('products_list_created_idx').on(t.catalogId, t.isActive, t.createdAt, t.id),
    index('products_list_updated_idx').on(t.catalogId, t.isActive, t.updatedAt, t.id),
    index('products_list_name_idx').on(t.catalogId, t.isActive, sql`lower(${t.name}) collate "C"`, t.id),
    index('products_list_brand_idx').on(t.catalogId, t.isActive, sql`lower(${t.brand}) collate "C"`, t.id),
    index('products_list_sku_idx').on(t.catalogId, t.isActive, sql`lower(${t.sku}) collate "C"`, t.id),
    index('products_category_idx').on(t.categoryId, t.isActive),
    // The back office's product list: inactive included, newest first; its search by name, brand or SKU.
    index('products_admin_created_idx').on(t.catalogId, t.createdAt, t.id),
    index('products_sku_trgm_idx').using('gin', sql`lower(${t.sku}) gin_trgm_ops`),
    index('products_search_vector_idx').using('gin', t.searchVector),
    index('products_search_text_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    index('products_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    index('products_brand_trgm_idx').using('gin', sql`lower(${t.brand}) gin_trgm_ops`),
    check('products_money_check', sql`${t.sellingPrice} >= 0 and ${t.mrp} >= ${t.sellingPrice}`),
    check('products_stock_check', sql`${t.stock} >= 0`),
    check('products_gst_rate_check', sql`${t.gstRateBps} between 0 and 10000`),
    // All three or none.
    check(
      'products_dimensions_check',
      sql`(${t.lengthCm} is null and ${t.breadthCm} is null and ${t.heightCm} is null) or (${t.lengthCm} between 1 and 500 and ${t.breadthCm} between 1 and 500 and ${t.heightCm} between 1 and 500)`,
    ),
  ],
)

export interface ProductOptionRow {
  name: string
  values: string[]
}

/**
 * The variants of products with options (decision 0043): one row per combination of option values,
 * in the options' order. Null weight, dimensions, HSN code and rate inherit the product's; no images:
 * the product's. SKUs are unique in a catalog across this table and `products` (variants.ts checks
 * the other table under the catalog's SKU lock).
 */
export const productVariants = pgTable(
  'product_variants',
  {
    id: text('id').primaryKey(),
    productId: text('product_id')
      .notNull()
      .references(() => products.id),
    catalogId: text('catalog_id')
      .notNull()
      .references(() => catalogs.id),
    position: integer('position').notNull(),
    optionValues: text('option_values').array().notNull(),
    sku: text('sku').notNull(),
    sellingPrice: bigint('selling_price', { mode: 'bigint' }).notNull(),
    mrp: bigint('mrp', { mode: 'bigint' }).notNull(),
    stock: integer('stock').notNull().default(0),
    weightGrams: integer('weight_grams'),
    lengthCm: integer('length_cm'),
    breadthCm: integer('breadth_cm'),
    heightCm: integer('height_cm'),
    barcode: text('barcode'),
    hsnCode: text('hsn_code'),
    gstRateBps: integer('gst_rate_bps'),
    images: jsonb('images').$type<string[]>().notNull().default([]),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('product_variants_combination_uq').on(t.productId, t.optionValues),
    uniqueIndex('product_variants_catalog_sku_uq').on(t.catalogId, t.sku),
    index('product_variants_product_idx').on(t.productId, t.position),
    check('product_variants_money_check', sql`${t.sellingPrice} >= 0 and ${t.mrp} >= ${t.sellingPrice}`),
    check('product_variants_stock_check', sql`${t.stock} >= 0`),
    check('product_variants_gst_rate_check', sql`${t.gstRateBps} between 0 and 10000`),
    check(
      'product_variants_dimensions_check',
      sql`(${t.lengthCm} is null and ${t.breadthCm} is null and ${t.heightCm} is null) or (${t.lengthCm} between 1 and 500 and ${t.breadthCm} between 1 and 500 and ${t.heightCm} between 1 and 500)`,
    ),
  ],
)

/** Every search, for analytics: top queries and queries that found nothing. */
export const searchQueries = pgTable(
  'search_queries',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id').notNull(),
    catalogId: text('catalog_id').notNull(),
    query: text('query').notNull(),
    normalizedQuery: text('normalized_query').notNull(),
    type: text('type').notNull(),
    source: text('source'),
    resultCount: integer('result_count').notNull(),
    topScore: real('top_score').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('search_queries_catalog_time_idx').on(t.catalogId, t.createdAt)],
)
