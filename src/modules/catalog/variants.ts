// Variants (decision 0043). A product without options has exactly one variant, its default, which
// is the product's own row: derived here, never stored, with an id made from the product's, so a
// line naming it needs no lookup. Stored variants, for products with options, come with step 2.
import { formatPaise } from '../../lib/money.ts'
import type { ProductSummary } from './repo.ts'

/** `prd_01J...` -> `var_01J...`: the id of a product's default variant. */
export const defaultVariantId = (productId: string) => `var_${productId.slice(productId.indexOf('_') + 1)}`

/** The variants of a product as the API shows them (its default: the product's own SKU, price and stock). */
export function variantsOf(row: ProductSummary) {
  return [
    {
      id: defaultVariantId(row.id),
      sku: row.sku,
      title: null,
      options: [] as { name: string; value: string }[],
      sellingPrice: formatPaise(row.sellingPrice),
      mrp: formatPaise(row.mrp),
      stock: row.stock,
      isActive: row.isActive,
    },
  ]
}

/** The lowest and highest active variant's price (a one-variant product: its price, twice). */
export const priceRangeOf = (row: ProductSummary) => ({ min: formatPaise(row.sellingPrice), max: formatPaise(row.sellingPrice) })
