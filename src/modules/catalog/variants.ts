// Variants (decision 0043). A product without options has exactly one variant, its default, which
// is the product's own row: derived here, never stored, with an id made from the product's, so a
// line naming it needs no lookup. A product with options has stored variants (product_variants),
// and its row's SKU, price, MRP and stock are their summary (summaryOf), written with them.
import { AppError } from '../../lib/errors.ts'
import { formatPaise } from '../../lib/money.ts'
import type { ProductRow, ProductSummary, VariantRow } from './repo.ts'
import type { ProductOptionRow } from './schema.sql.ts'

/**
 * A cart line's unit as it is sold: the product with its variant's SKU, price, MRP, stock, weight,
 * images and GST fields laid over its own (decision 0043). A product without options sells its
 * default variant: its own row.
 */
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
  variantId: string
  /** `M / Red`; null for a product without options. */
  variantTitle: string | null
  variantOptions: { name: string; value: string }[]
}

/** Why a cart line has no unit to sell: no such product in these catalogs, no such variant of it, or a product with options named without its variant. */
export type CartLineProblem = 'NO_PRODUCT' | 'NO_VARIANT' | 'VARIANT_REQUIRED'

/** `prd_01J...` -> `var_01J...`: the id of a product's default variant. */
export const defaultVariantId = (productId: string) => `var_${productId.slice(productId.indexOf('_') + 1)}`

const MAX_OPTIONS = 3

/** A stored variant's option values named by their options: `[{Size: M}, {Colour: Red}]`. */
const namedValues = (options: ProductOptionRow[], values: string[]) => options.map((o, i) => ({ name: o.name, value: values[i] ?? '' }))
const titleOf = (values: string[]) => values.join(' / ')

/** The variants of a product as the API shows them: its stored ones, or its default (the product's own SKU, price and stock). */
export function variantsOf(row: ProductSummary, stored: VariantRow[]) {
  if (stored.length === 0) {
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
  return stored.map((v) => ({
    id: v.id,
    sku: v.sku,
    title: titleOf(v.optionValues),
    options: namedValues(row.options, v.optionValues),
    sellingPrice: formatPaise(v.sellingPrice),
    mrp: formatPaise(v.mrp),
    stock: v.stock,
    isActive: v.isActive && row.isActive,
  }))
}

/** The lowest and highest active variant's price (a one-variant product: its price, twice; none active: the summary's). */
export function priceRangeOf(row: ProductSummary, stored: VariantRow[]) {
  const prices = stored.filter((v) => v.isActive).map((v) => v.sellingPrice)
  if (prices.length === 0) return { min: formatPaise(row.sellingPrice), max: formatPaise(row.sellingPrice) }
  const max = prices.reduce((a, b) => (b > a ? b : a))
  return { min: formatPaise(row.sellingPrice), max: formatPaise(max) }
}

type ProductForSale = Omit<CartProduct, 'variantId' | 'variantTitle' | 'variantOptions'> & { options: ProductOptionRow[] }

/** What selling a stored variant reads of it. */
export type VariantSold = Pick<VariantRow, 'id' | 'optionValues' | 'sku' | 'sellingPrice' | 'mrp' | 'stock' | 'weightGrams' | 'hsnCode' | 'gstRateBps' | 'images' | 'isActive'>
/** A variant as the cart's query gives it (json_build_object: money as text). */
export type VariantForSale = Omit<VariantSold, 'sellingPrice' | 'mrp'> & { sellingPrice: string; mrp: string }
export const variantOfJson = (v: VariantForSale): VariantSold => ({ ...v, sellingPrice: BigInt(v.sellingPrice), mrp: BigInt(v.mrp) })

/**
 * What a cart line of `product` sells: its default variant (no options; `variantId` omitted or the
 * default's id), or the stored variant named, with the variant's fields laid over the product's
 * (weight, HSN code and rate inherit the product's when the variant sets none; images too).
 */
export function unitAsSold(product: ProductForSale, stored: VariantSold[], variantId: string | undefined): CartProduct | CartLineProblem {
  const { options, ...own } = product
  if (options.length === 0) {
    if (variantId !== undefined && variantId !== defaultVariantId(product.id)) return 'NO_VARIANT'
    return { ...own, variantId: defaultVariantId(product.id), variantTitle: null, variantOptions: [] }
  }
  if (variantId === undefined) return 'VARIANT_REQUIRED'
  const v = stored.find((s) => s.id === variantId)
  if (!v) return 'NO_VARIANT'
  return {
    ...own,
    sku: v.sku,
    images: v.images.length > 0 ? v.images : own.images,
    sellingPrice: v.sellingPrice,
    mrp: v.mrp,
    stock: v.stock,
    weightGrams: v.weightGrams ?? own.weightGrams,
    isActive: own.isActive && v.isActive,
    hsnCode: v.hsnCode ?? own.hsnCode,
    gstRateBps: v.gstRateBps ?? own.gstRateBps,
    variantId: v.id,
    variantTitle: titleOf(v.optionValues),
    variantOptions: namedValues(options, v.optionValues),
  }
}

/**
 * The product row's summary of its variants: the price and MRP of the lowest-priced active variant
 * (none active: the lowest-priced of all), the sum of the active variants' stock, the first
 * variant's SKU. Written in the transaction of every change of a variant.
 */
export function summaryOf(stored: Pick<VariantRow, 'sku' | 'sellingPrice' | 'mrp' | 'stock' | 'isActive'>[]) {
  const active = stored.filter((v) => v.isActive)
  const priced = (active.length > 0 ? active : stored).reduce((a, b) => (b.sellingPrice < a.sellingPrice ? b : a))
  return { sku: stored[0]!.sku, sellingPrice: priced.sellingPrice, mrp: priced.mrp, stock: active.reduce((sum, v) => sum + v.stock, 0) }
}

/**
 * The options a grid names, checked: one to three, names unique (case-insensitive), each with one
 * or more unique values. Problems are 400s naming the field.
 */
export function checkOptions(options: ProductOptionRow[]) {
  if (options.length === 0 || options.length > MAX_OPTIONS) throw new AppError('BAD_REQUEST', `options must list 1 to ${MAX_OPTIONS} options`)
  const names = options.map((o) => o.name.trim().toLowerCase())
  const twice = names.findIndex((n, i) => names.indexOf(n) !== i)
  if (twice >= 0) throw new AppError('BAD_REQUEST', `options[${twice}].name ${options[twice]!.name} is used twice`)
  options.forEach((o, i) => {
    const values = o.values.map((v) => v.trim().toLowerCase())
    const again = values.findIndex((v, j) => values.indexOf(v) !== j)
    if (again >= 0) throw new AppError('BAD_REQUEST', `options[${i}].values lists ${o.values[again]} twice`)
  })
}

/**
 * A variant's option values in the options' order, from `[{name, value}]`: one value for each
 * option, each among its option's values. A 400 naming `variants[i].options` otherwise.
 */
export function optionValuesOf(options: ProductOptionRow[], given: { name: string; value: string }[], field: string): string[] {
  if (given.length !== options.length) throw new AppError('BAD_REQUEST', `${field} must give one value for each option (${options.map((o) => o.name).join(', ')})`)
  return options.map((option) => {
    const named = given.find((g) => g.name.trim().toLowerCase() === option.name.trim().toLowerCase())
    if (!named) throw new AppError('BAD_REQUEST', `${field} must give a value for option ${option.name}`)
    const value = option.values.find((v) => v.trim().toLowerCase() === named.value.trim().toLowerCase())
    if (value === undefined) throw new AppError('BAD_REQUEST', `${field}: ${named.value} is not a value of option ${option.name} (${option.values.join(', ')})`)
    return value
  })
}

/** A GTIN (EAN-8, UPC-A 12, EAN-13, GTIN-14) whose last digit is its check digit (GS1's mod-10, weights 3 and 1 from the right). */
export function isGtin(code: string): boolean {
  if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(code)) return false
  const digits = [...code].map(Number)
  const check = digits.pop()!
  const sum = digits.reverse().reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0)
  return (10 - (sum % 10)) % 10 === check
}

const dimensionsOf = (r: { lengthCm: number | null; breadthCm: number | null; heightCm: number | null }) =>
  r.lengthCm !== null && r.breadthCm !== null && r.heightCm !== null ? { length: r.lengthCm, breadth: r.breadthCm, height: r.heightCm } : null

/** The variants of a product as the back office shows them (a product without options: its default, inheriting every field). */
export function adminVariantsOf(row: ProductRow, stored: VariantRow[]) {
  if (stored.length === 0) {
    return [
      {
        id: defaultVariantId(row.id),
        title: null,
        options: [] as { name: string; value: string }[],
        sku: row.sku,
        sellingPrice: formatPaise(row.sellingPrice),
        mrp: formatPaise(row.mrp),
        stock: row.stock,
        weightGrams: null,
        dimensionsCm: null,
        barcode: null,
        hsnCode: null,
        gstRateBps: null,
        images: [] as string[],
        isActive: row.isActive,
      },
    ]
  }
  return stored.map((v) => ({
    id: v.id,
    title: titleOf(v.optionValues),
    options: namedValues(row.options, v.optionValues),
    sku: v.sku,
    sellingPrice: formatPaise(v.sellingPrice),
    mrp: formatPaise(v.mrp),
    stock: v.stock,
    weightGrams: v.weightGrams,
    dimensionsCm: dimensionsOf(v),
    barcode: v.barcode,
    hsnCode: v.hsnCode,
    gstRateBps: v.gstRateBps,
    images: v.images,
    isActive: v.isActive,
  }))
}
