// The rows of a catalog import, as a file (CSV or JSON) or the back office gives them: checked by
// import-check.ts, read from CSV by import-csv.ts, written by import.ts.
export interface CategoryImportRow {
  slug: string
  name: string
  parentSlug?: string | null
  image?: string | null
  position?: number
  isActive?: boolean
  /** GST defaults of its products (decision 0021): absent keeps what the category has, null clears. */
  hsnCode?: string | null
  gstRateBps?: number | null
}
/**
 * A variant of a product with options, in the back office grid's shape (decision 0043): one value
 * for each option, by name; null weight, size, barcode, HSN code and rate inherit the product's.
 */
export interface VariantImportRow {
  options: { name: string; value: string }[]
  sku: string
  sellingPrice: string | number
  mrp: string | number
  stock?: number | string
  weightGrams?: number | string | null
  dimensionsCm?: { length: unknown; breadth: unknown; height: unknown } | null
  barcode?: string | null
  hsnCode?: string | null
  gstRateBps?: number | string | null
  images?: string[]
  isActive?: boolean | string
}
export interface ProductImportRow {
  slug: string
  name: string
  /** Empty, or absent from a file: stored as "" (many real catalogs have products without a brand). */
  brand: string
  /** A product with variants leaves out sku, sellingPrice, mrp and stock: they are its variants' summary. */
  sku?: string
  categorySlug: string
  sellingPrice?: string | number
  mrp?: string | number
  /** From CSV: text that is not a whole number is kept as it was, and refused by validation. */
  stock?: number | string
  images?: string[]
  description?: string
  /** As `stock`. */
  weightGrams?: number | string
  /** The packed size, whole centimetres (decision 0030): absent keeps the product's, null clears it; from CSV, three columns. */
  dimensionsCm?: { length: unknown; breadth: unknown; height: unknown } | null
  /** From CSV: "true" or "false" (any other text is kept as it was, and refused by validation). */
  isActive?: boolean | string
  /** GST (decision 0021): absent keeps what the product has (a new one inherits its category's), null clears. */
  hsnCode?: string | null
  /** As `stock`; a rate in basis points in force today (1800 = 18 %). */
  gstRateBps?: number | string | null
  /** One to three options, in the order shoppers choose them: given with `variants`, never alone. */
  options?: { name: string; values: string[] }[]
  /** Every variant (1 to 250): the product's grid, replacing the stored one as the back office's PUT does. */
  variants?: VariantImportRow[]
}
export interface CatalogImport {
  categories?: CategoryImportRow[]
  products?: ProductImportRow[]
}
