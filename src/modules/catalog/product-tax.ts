// The GST fields of products as they resolve: a product's own HSN code and rate, else its
// category's, else the nearest ancestor category's that sets one (each field on its own).
import { and, asc, eq, sql } from 'drizzle-orm'
import { type Executor, queryRows } from '../../db/client.ts'
import { catalogRepo } from './repo.ts'
import { categories, products } from './schema.sql.ts'

export type TaxFieldSource = 'PRODUCT' | 'CATEGORY' | null

export interface ProductTax {
  id: string
  name: string
  sku: string
  categoryId: string
  /** The resolved HSN/SAC code; null when neither the product nor a category above it sets one. */
  hsnCode: string | null
  hsnCodeFrom: TaxFieldSource
  /** The resolved GST rate in basis points; null when neither the product nor a category above it sets one. */
  gstRateBps: number | null
  gstRateFrom: TaxFieldSource
}

/** Every active product of a catalog with its resolved GST fields, by name then id. */
export async function activeProductsTax(db: Executor, catalogId: string): Promise<ProductTax[]> {
  const [categoryRows, productRows] = await Promise.all([
    catalogRepo.categories(db, catalogId),
    db
      .select({ id: products.id, name: products.name, sku: products.sku, categoryId: products.categoryId, hsnCode: products.hsnCode, gstRateBps: products.gstRateBps })
      .from(products)
      .where(and(eq(products.catalogId, catalogId), eq(products.isActive, true)))
      .orderBy(asc(products.name), asc(products.id)),
  ])
  return resolveTax(categoryRows, productRows)
}

/**
 * A cart's products (as findCartProducts read them, with their own GST fields) with their resolved
 * GST fields and slugs: what a sale is taxed by. Categories are read only when a product lacks its
 * own HSN code or rate, and then only those above its category, four columns each: every quote and
 * order of a registered seller runs this (a query of the catalog's whole category table cost an
 * order about half a millisecond, docs/benchmarks.md).
 */
export async function cartProductsTax(db: Executor, cart: (OwnTax & { slug: string })[]): Promise<(ProductTax & { slug: string })[]> {
  const inheriting = [...new Set(cart.filter((p) => p.hsnCode === null || p.gstRateBps === null).map((p) => p.categoryId))]
  const categoryRows =
    inheriting.length === 0
      ? []
      : await queryRows<CategoryTax>(
          db,
          sql`with recursive chain as (
                select c.id, c.parent_id, c.hsn_code, c.gst_rate_bps, 0 as depth from ${categories} c where c.id in (${sql.join(
                  inheriting.map((id) => sql`${id}`),
                  sql`, `,
                )})
                union all
                select c.id, c.parent_id, c.hsn_code, c.gst_rate_bps, chain.depth + 1 from ${categories} c join chain on c.id = chain.parent_id where chain.depth < 100
              )
              select distinct id, parent_id as "parentId", hsn_code as "hsnCode", gst_rate_bps as "gstRateBps" from chain`,
        )
  const slugs = new Map(cart.map((p) => [p.id, p.slug]))
  return resolveTax(categoryRows, cart).map((p) => ({ ...p, slug: slugs.get(p.id)! }))
}

type CategoryTax = { id: string; parentId: string | null; hsnCode: string | null; gstRateBps: number | null }
type OwnTax = { id: string; name: string; sku: string; categoryId: string; hsnCode: string | null; gstRateBps: number | null }

function resolveTax(categoryRows: CategoryTax[], productRows: OwnTax[]): ProductTax[] {
  const byId = new Map(categoryRows.map((c) => [c.id, c]))
  // The first value up the category chain; the chain is bounded in case of a cycle in bad data.
  const inherited = <K extends 'hsnCode' | 'gstRateBps'>(categoryId: string, field: K) => {
    let category = byId.get(categoryId)
    for (let depth = 0; category && depth < 100; depth++) {
      const value = category[field]
      if (value !== null) return value
      category = category.parentId ? byId.get(category.parentId) : undefined
    }
    return null
  }
  return productRows.map((p) => {
    const hsnCode = p.hsnCode ?? inherited(p.categoryId, 'hsnCode')
    const gstRateBps = p.gstRateBps ?? inherited(p.categoryId, 'gstRateBps')
    return {
      id: p.id,
      name: p.name,
      sku: p.sku,
      categoryId: p.categoryId,
      hsnCode,
      hsnCodeFrom: p.hsnCode !== null ? 'PRODUCT' : hsnCode !== null ? 'CATEGORY' : null,
      gstRateBps,
      gstRateFrom: p.gstRateBps !== null ? 'PRODUCT' : gstRateBps !== null ? 'CATEGORY' : null,
    }
  })
}
