// Checking a catalog import before anything is written: every problem of every row, with no cap,
// each with a kind (`name too long`, `unknown category`, …) and a message that names its row
// (`line 3: name must be at most 200 characters, got 301`). A row with a problem is invalid, and so
// is a row that leans on one: a category under an invalid category row, a product in one. The
// invalid rows are what an import refuses the file for, or leaves out (docs/catalog-import.md).
import { parseRupees } from '../../lib/money.ts'
import { HSN_OR_SAC_PATTERN } from '../../lib/hsn.ts'
import { AppError } from '../../lib/errors.ts'
import type { CatalogImport, CategoryImportRow, ProductImportRow, VariantImportRow } from './import-rows.ts'
import { checkOptions, isGtin, optionValuesOf } from './variants.ts'

export interface ImportProblem {
  /** What kind of problem, to count them by: `name too long`, `missing sku`, `unknown category`, … */
  kind: string
  section: 'categories' | 'products'
  /** The row's index in its section. */
  index: number
  /** What is wrong, naming the row: `line 3: name must be at most 200 characters, got 301`. */
  message: string
  /** The same without the row: `name must be at most 200 characters, got 301`. */
  text: string
}

export interface ImportCheck {
  /** Rows checked. */
  checked: { categories: number; products: number }
  /** Every problem, in the file's order. */
  problems: ImportProblem[]
  /** The invalid rows (by index), each with its problems' texts: what an import leaves out or refuses. */
  invalidCategories: Map<number, string[]>
  invalidProducts: Map<number, string[]>
}

/** What the catalog holds already, as far as an import's rows depend on it. */
export interface ImportContext {
  categories: { slug: string; parentSlug: string | null }[]
  /** The slug of the product that holds each SKU: a row may not take another product's SKU. */
  productSlugBySku: Map<string, string>
  /** The slug of the product each variant SKU is of (decision 0043): never a row's to take. */
  variantSkuHolders: Map<string, string>
  /** Products with options: their SKU, prices and stock are their variants', not a row's to write. */
  slugsWithVariants: Set<string>
  /** The GST rates in force today (basis points); null: unknown here, only the range is checked. */
  gstRatesInForce: Set<number> | null
  /** The catalog keeps its stock at locations (decision 0043, step 5): no row may give a stock. */
  stockAtLocations?: boolean
}

const STOCK_AT_LOCATIONS = 'this catalog keeps its stock at locations: receive units at a location (POST /admin/locations/{locationId}/stock), not by import'

/** How an error names a product row: `products[3]` for JSON, `line 5` for a CSV file. */
export type ProductRowLabel = (index: number) => string
export const productIndexLabel: ProductRowLabel = (i) => `products[${i}]`
/** How an error names a variant's row: its product's `products[3]` in JSON (the field says `variants[2]`), its own line in a CSV file. */
export type VariantRowLabel = (productIndex: number, variantIndex: number) => string

/** How many problems a report lists one by one (all of them are counted). */
export const LISTED_PROBLEMS = 1000

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const CATEGORY_FIELDS = new Set(['slug', 'name', 'parentSlug', 'image', 'position', 'isActive', 'hsnCode', 'gstRateBps'])
const PRODUCT_FIELDS = new Set(['slug', 'name', 'brand', 'sku', 'categorySlug', 'sellingPrice', 'mrp', 'stock', 'images', 'description', 'weightGrams', 'dimensionsCm', 'isActive', 'hsnCode', 'gstRateBps', 'options', 'variants'])
const DIMENSIONS = ['length', 'breadth', 'height'] as const
/** The largest side of a parcel carriers take, in whole centimetres (the products table's check). */
const MAX_SIDE_CM = 500

/** Absent, null (cleared), or all three sides as whole centimetres from 1 to 500. */
function dimensionsProblem(value: unknown): Found | null {
  if (value === undefined || value === null) return null
  const bad = (why: string): Found => ['bad dimensions', `dimensionsCm ${why}`]
  if (!isRow(value)) return bad(`must be {length, breadth, height} in whole centimetres, or null, got ${shown(value)}`)
  const extra = Object.keys(value).filter((k) => !(DIMENSIONS as readonly string[]).includes(k))
  if (extra.length > 0) return bad(`has no ${extra.join(', ')}: its sides are length, breadth and height`)
  const sides = value as Record<string, unknown>
  const missing = DIMENSIONS.filter((side) => sides[side] === undefined || sides[side] === null)
  if (missing.length > 0) return bad(`needs all three sides or none: ${missing.join(', ')} missing`)
  const wrong = DIMENSIONS.find((side) => !wholeNumber(sides[side], 1, MAX_SIDE_CM))
  return wrong ? bad(`${wrong} must be a whole number of centimetres from 1 to ${MAX_SIDE_CM}, got ${shown(sides[wrong])}`) : null
}

const HSN_OR_SAC = new RegExp(HSN_OR_SAC_PATTERN)
/** Absent, null (cleared: inherit), or an HSN code (4, 6 or 8 digits) or SAC (6 digits starting 99). */
function hsnProblem(value: unknown): Found | null {
  if (value === undefined || value === null || (typeof value === 'string' && HSN_OR_SAC.test(value))) return null
  return ['bad HSN code', `hsnCode must be an HSN code (4, 6 or 8 digits) or a SAC (6 digits starting 99), got ${shown(value)}`]
}
/** Absent, null, or a rate in basis points in force today (when the caller knows them). */
function gstRateProblem(value: unknown, inForce: Set<number> | null): Found | null {
  if (value === undefined || value === null) return null
  if (!wholeNumber(value, 0, 10_000)) return ['bad GST rate', `gstRateBps must be a whole number of basis points from 0 to 10000 (1800 = 18 %), got ${shown(value)}`]
  if (inForce && !inForce.has(value as number)) return ['GST rate not in force', `gstRateBps ${value as number} is not a GST rate in force today (in force: ${[...inForce].sort((a, b) => a - b).join(', ')})`]
  return null
}
const MAX_IMAGES = 10
const MAX_URL = 2000

type Found = [kind: string, text: string]

const isRow = (row: unknown): row is Record<string, unknown> => row !== null && typeof row === 'object' && !Array.isArray(row)
const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')

/** A value as a message quotes it: text in quotes (cut at 40 characters), other values by what they are. */
function shown(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)
  if (v === null || typeof v !== 'object') return String(v)
  return Array.isArray(v) ? 'a list' : 'an object'
}

/** Characters as people count them (code points, as the API's schemas do): an emoji is one. */
function characters(text: string): number {
  let n = 0
  for (const _ of text) n++
  return n
}

/**
 * A text field's problem: `missingKind` when it is required and absent or blank, else not text, a
 * NUL character (PostgreSQL refuses one) or longer than `max` (counted as it will be stored, trimmed).
 */
function textProblem(field: string, value: unknown, max: number, missingKind: string | null, trim = true): Found | null {
  if (isBlank(value)) return missingKind ? [missingKind, `${field} is required`] : null
  if (typeof value !== 'string') return ['not text', `${field} must be text, got ${shown(value)}`]
  if (value.includes('\0')) return ['NUL character', `${field} must not contain a NUL character`]
  const stored = trim ? value.trim() : value
  if (stored.length > max && characters(stored) > max) return [`${field} too long`, `${field} must be at most ${max} characters, got ${characters(stored)}`]
  return null
}

function slugProblem(value: unknown, max: number): Found | null {
  const problem = textProblem('slug', value, max, 'missing slug', false)
  if (problem) return problem
  return SLUG.test(value as string) ? null : ['bad slug', 'slug must be lower-case words joined by hyphens']
}

const wholeNumber = (v: unknown, min: number, max: number) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max

function numberProblem(field: string, value: unknown, min: number, max: number, kind: string): Found | null {
  if (value === undefined || wholeNumber(value, min, max)) return null
  return [kind, `${field} must be a whole number from ${min} to ${max}, got ${shown(value)}`]
}

/** Absent, or a real boolean: "yes", 1, null or an object would otherwise reach the database (500 on PGlite, 400 there on PostgreSQL, or silently true). */
const booleanProblem = (value: unknown): Found | null => (value === undefined || typeof value === 'boolean' ? null : ['bad isActive', 'isActive must be true or false'])

const isUrl = (v: unknown) => typeof v === 'string' && v.length <= MAX_URL && /^https?:\/\/\S+$/.test(v) && !v.includes('\0')

/** A category's image: an http(s) URL of at most 2,000 characters. */
function imageProblem(value: unknown): Found | null {
  if (isUrl(value)) return null
  if (typeof value === 'string' && value.length > MAX_URL) return ['bad image', `image must be at most ${MAX_URL} characters, got ${value.length}`]
  return ['bad image', `image must be an http(s) URL, got ${shown(value)}`]
}

/** A product's images: up to 10 URLs as a category's image; the first bad one is named. */
function imagesProblem(images: unknown): Found | null {
  if (images === undefined) return null
  if (!Array.isArray(images)) return ['bad image', `images must be a list of http(s) URLs, got ${shown(images)}`]
  if (images.length > MAX_IMAGES) return ['too many images', `images must be at most ${MAX_IMAGES} URLs, got ${images.length}`]
  const bad = images.find((image) => !isUrl(image))
  if (bad === undefined) return null
  if (typeof bad === 'string' && bad.length > MAX_URL) return ['bad image', `each image URL must be at most ${MAX_URL} characters, got ${bad.length}`]
  return ['bad image', `images must be http(s) URLs, got ${shown(bad)}`]
}

/** A price's paise, or its problem. */
function price(field: string, value: unknown): bigint | Found {
  if (isBlank(value)) return ['missing price', `${field} is required`]
  const paise = typeof value === 'string' || typeof value === 'number' ? parseRupees(value) : null
  return paise === null || paise < 0n ? ['bad price', `${field} must be an amount with at most two decimals`] : paise
}

/** Fields the import does not know, as the schema-validated routes name them: `property x should not exist`. */
const unknownFields = (row: object, known: Set<string>) => Object.keys(row).filter((k) => !known.has(k))

type Report = (found: Found | null) => void

/**
 * Checks every row of an import against the rules of docs/catalog-import.md and what the catalog
 * holds (`context`). Categories come first, each parent before its children, so a category's
 * parent row is judged before it; products are judged after all categories.
 */
export function checkImport(
  input: CatalogImport,
  context: ImportContext,
  productLabel: ProductRowLabel = productIndexLabel,
  variantLabel?: VariantRowLabel,
  /** Problems the file's reader found (a CSV variant row's product cell differing from its first row's), each of a product and a line. */
  readProblems: { index: number; line: number; kind: string; text: string }[] = [],
): ImportCheck {
  const categories: unknown[] = input.categories ?? []
  const products: unknown[] = input.products ?? []
  const check: ImportCheck = { checked: { categories: categories.length, products: products.length }, problems: [], invalidCategories: new Map(), invalidProducts: new Map() }
  const reporter = (section: ImportProblem['section'], index: number, at: string): Report => (found) => {
    if (!found) return
    const [kind, text] = found
    check.problems.push({ kind, section, index, message: `${at}: ${text}`, text })
    const invalid = section === 'categories' ? check.invalidCategories : check.invalidProducts
    const texts = invalid.get(index)
    if (texts) texts.push(text)
    else invalid.set(index, [text])
  }
  const tree = checkCategories(categories, context, (i) => reporter('categories', i, `categories[${i}]`), (i) => check.invalidCategories.has(i))
  checkProducts(products, context, tree, (i, at) => reporter('products', i, at ?? productLabel(i)), variantLabel ?? ((i) => productLabel(i)))
  for (const p of readProblems) reporter('products', p.index, `line ${p.line}`)([p.kind, p.text])
  return check
}

/** What products may be put in after the categories are checked. */
interface CategoryTree {
  /** The categories of the catalog and of the file. */
  defined: Set<string>
  /** A category of the file none of whose rows is valid: it will not be written. */
  isLeftOut(slug: string): boolean
}

function checkCategories(rows: unknown[], context: ImportContext, reportFor: (index: number) => Report, isInvalid: (index: number) => boolean): CategoryTree {
  // The tree after the import: a category may not end up under itself (directly or not).
  const parentOf = new Map(context.categories.map((c) => [c.slug, c.parentSlug]))
  for (const c of rows) if (isRow(c) && typeof c.slug === 'string') parentOf.set(c.slug, typeof c.parentSlug === 'string' && c.parentSlug ? c.parentSlug : null)
  const wouldLoop = (slug: string) => {
    const seen = new Set([slug])
    for (let up = parentOf.get(slug); up; up = parentOf.get(up) ?? null) {
      if (seen.has(up)) return true
      seen.add(up)
    }
    return false
  }
  const defined = new Set(context.categories.map((c) => c.slug))
  const inFile = new Set<string>()
  const valid = new Set<string>()
  const invalid = new Set<string>()
  const isLeftOut = (slug: string) => invalid.has(slug) && !valid.has(slug)
  const parentProblem = (slug: unknown, parentSlug: unknown): Found | null => {
    if (typeof parentSlug !== 'string') return ['not text', `parentSlug must be text, got ${shown(parentSlug)}`]
    if (parentSlug === slug) return ['category loop', 'a category cannot be its own parent']
    if (!defined.has(parentSlug)) return ['unknown parent', `parentSlug "${parentSlug}" is not a category defined before it`]
    if (typeof slug === 'string' && wouldLoop(slug)) return ['category loop', `parentSlug "${parentSlug}" would put the category under itself`]
    if (isLeftOut(parentSlug)) return ['invalid parent', `parentSlug "${parentSlug}" is a category row with problems`]
    return null
  }

  for (const [i, row] of rows.entries()) {
    const add = reportFor(i)
    if (!isRow(row)) {
      add(['not an object', 'must be an object'])
      continue
    }
    const c = row as Partial<Record<keyof CategoryImportRow, unknown>>
    for (const field of unknownFields(row, CATEGORY_FIELDS)) add(['unknown field', `property ${field} should not exist`])
    add(slugProblem(c.slug, 120))
    add(textProblem('name', c.name, 120, 'missing name'))
    if (!isBlank(c.parentSlug)) add(parentProblem(c.slug, c.parentSlug))
    if (c.image != null) add(imageProblem(c.image))
    add(numberProblem('position', c.position, 0, 1_000_000, 'bad position'))
    add(booleanProblem(c.isActive))
    add(hsnProblem(c.hsnCode))
    add(gstRateProblem(c.gstRateBps, context.gstRatesInForce))
    if (typeof c.slug !== 'string' || isBlank(c.slug)) continue
    if (inFile.has(c.slug)) add(['duplicate slug', `duplicate slug "${c.slug}"`])
    inFile.add(c.slug)
    defined.add(c.slug)
    ;(isInvalid(i) ? invalid : valid).add(c.slug)
  }
  return { defined, isLeftOut }
}

function checkProducts(rows: unknown[], context: ImportContext, tree: CategoryTree, reportAt: (index: number, at?: string) => Report, variantLabel: VariantRowLabel) {
  const categoryProblem = (categorySlug: unknown): Found | null => {
    if (isBlank(categorySlug)) return ['missing category', 'categorySlug is required']
    if (typeof categorySlug !== 'string') return ['not text', `categorySlug must be text, got ${shown(categorySlug)}`]
    if (!tree.defined.has(categorySlug)) return ['unknown category', `categorySlug "${categorySlug}" does not exist`]
    if (tree.isLeftOut(categorySlug)) return ['invalid category', `categorySlug "${categorySlug}" is a category row with problems`]
    return null
  }
  // A product of the catalog keeps its SKU unless the file names that product too (it may give it another).
  const inFile = new Set(rows.map((p) => (isRow(p) && typeof p.slug === 'string' ? p.slug : '')))
  const skuTaken = (sku: string, slug: string) => {
    const holder = context.productSlugBySku.get(sku)
    return holder !== undefined && holder !== slug && !inFile.has(holder) ? holder : null
  }
  // Products of the catalog whose grid the file replaces: their variants' SKUs are free for the file's rows.
  const regridded = new Set(rows.flatMap((p) => (isRow(p) && typeof p.slug === 'string' && p.variants !== undefined ? [p.slug] : [])))
  const slugs = new Set<string>()
  const skus = new Set<string>()

  for (const [i, row] of rows.entries()) {
    const add = reportAt(i)
    if (!isRow(row)) {
      add(['not an object', 'must be an object'])
      continue
    }
    const p = row as Partial<Record<keyof ProductImportRow, unknown>>
    const gridded = p.variants !== undefined || p.options !== undefined
    for (const field of unknownFields(row, PRODUCT_FIELDS)) add(['unknown field', `property ${field} should not exist`])
    add(slugProblem(p.slug, 200))
    add(textProblem('name', p.name, 200, 'missing name'))
    add(textProblem('brand', p.brand, 100, null))
    if (!gridded) add(textProblem('sku', p.sku, 64, 'missing sku'))
    add(categoryProblem(p.categorySlug))
    if (gridded) {
      // The product's SKU, prices and stock are its variants' summary, written with them (decision 0043).
      for (const field of SUMMARY_FIELDS) {
        if (!isBlank(p[field])) add(['summary field', `${field} of a product with variants is their summary: leave it out and give each variant's`])
      }
    } else {
      for (const found of pricesProblems('', p.sellingPrice, p.mrp)) add(found)
      add(numberProblem('stock', p.stock, 0, 10_000_000, 'bad stock'))
      if (context.stockAtLocations && !isBlank(p.stock)) add(['stock at locations', `stock: ${STOCK_AT_LOCATIONS}`])
    }
    add(numberProblem('weightGrams', p.weightGrams, 1, 1_000_000, 'bad weight'))
    add(dimensionsProblem(p.dimensionsCm))
    add(booleanProblem(p.isActive))
    add(hsnProblem(p.hsnCode))
    add(gstRateProblem(p.gstRateBps, context.gstRatesInForce))
    add(imagesProblem(p.images))
    if (p.description !== undefined) add(textProblem('description', p.description, 5000, null, false))
    const slug = typeof p.slug === 'string' ? p.slug : ''
    if (slug) {
      if (slugs.has(slug)) add(['duplicate slug', `duplicate slug "${slug}"`])
      if (!gridded && context.slugsWithVariants.has(slug)) {
        add(['has variants', `product "${slug}" has variants: its sku, prices and stock are theirs; give its options and variants (or write them with PUT /admin/products/{productId}/variants)`])
      }
      slugs.add(slug)
    }
    const skuProblem = (sku: string, field: string): Found | null => {
      const holder = skuTaken(sku, slug)
      const variantOf = context.variantSkuHolders.get(sku)
      const taken = skus.has(sku)
      skus.add(sku)
      if (taken) return ['duplicate sku', `duplicate sku "${sku}"${field === 'sku' ? '' : ` in ${field}`}`]
      if (holder) return ['sku taken', `${field} "${sku}" belongs to another product of the catalog ("${holder}")`]
      if (variantOf !== undefined && variantOf !== slug && !regridded.has(variantOf)) return ['sku taken', `${field} "${sku}" belongs to a variant of another product of the catalog ("${variantOf}")`]
      return null
    }
    if (!gridded) {
      const sku = typeof p.sku === 'string' ? p.sku.trim() : ''
      if (sku) add(skuProblem(sku, 'sku'))
      continue
    }
    checkGrid(p.options, p.variants, context, (j) => reportAt(i, variantLabel(i, j)), add, skuProblem)
  }
}

const SUMMARY_FIELDS = ['sku', 'sellingPrice', 'mrp', 'stock'] as const
const MAX_VARIANTS = 250
const VARIANT_FIELDS = new Set(['options', 'sku', 'sellingPrice', 'mrp', 'stock', 'weightGrams', 'dimensionsCm', 'barcode', 'hsnCode', 'gstRateBps', 'images', 'isActive'])

/** A price and MRP (of the product, or `variants[j].`'s): both amounts, the price not above the MRP. */
function pricesProblems(prefix: string, sellingPrice: unknown, mrpValue: unknown): Found[] {
  const selling = price(`${prefix}sellingPrice`, sellingPrice)
  const mrp = price(`${prefix}mrp`, mrpValue)
  if (typeof selling === 'bigint' && typeof mrp === 'bigint') return selling > mrp ? [['price above mrp', `${prefix}sellingPrice must not be greater than ${prefix}mrp`]] : []
  // The same bad text in both (a Shopify row's empty Compare At Price is its price) is one problem.
  if (Array.isArray(selling) && !isBlank(sellingPrice) && sellingPrice === mrpValue) return [selling]
  return [selling, mrp].filter((p): p is Found => Array.isArray(p))
}

/** A problem's text with the field it is about in front: `variants[2].` + `stock must be …`. */
const within = (prefix: string, found: Found | null): Found | null => (found ? [found[0], `${prefix}${found[1]}`] : null)

/** The AppError of one of the back office grid's checks (variants.ts) as a problem of this kind. */
function gridRule(kind: (message: string) => string, rule: () => void): Found | null {
  try {
    rule()
    return null
  } catch (err) {
    if (err instanceof AppError) return [kind(err.message), err.message]
    throw err
  }
}

/**
 * A product's options and variants, checked as the back office's grid is (variants.ts: checkOptions,
 * optionValuesOf, isGtin; at most 250 variants; a combination once) and each variant's fields as a
 * product's. A variant's problems name its own row (`variantAt`: its CSV line, or the product's
 * `products[i]` in JSON) and its field (`variants[j].sku`).
 */
function checkGrid(options: unknown, variants: unknown, context: ImportContext, variantAt: (j: number) => Report, add: Report, skuProblem: (sku: string, field: string) => Found | null) {
  const named = optionsOf(options)
  if (typeof named === 'string') add(['bad options', named])
  else add(gridRule(() => 'bad options', () => checkOptions(named)))
  if (!Array.isArray(variants) || variants.length === 0) {
    add(['missing variants', 'variants must list 1 to 250 variants, one per combination of option values'])
    return
  }
  if (variants.length > MAX_VARIANTS) add(['too many variants', `variants must be at most ${MAX_VARIANTS}, got ${variants.length}`])
  const combinations = new Map<string, number>()
  for (const [j, variant] of variants.entries()) {
    const at = variantAt(j)
    const field = `variants[${j}]`
    if (!isRow(variant)) {
      at(['not an object', `${field} must be an object`])
      continue
    }
    const v = variant as Partial<Record<keyof VariantImportRow, unknown>>
    for (const unknown of unknownFields(variant, VARIANT_FIELDS)) at(['unknown field', `${field} property ${unknown} should not exist`])
    if (typeof named !== 'string') {
      const given = optionValuesGiven(v.options)
      if (typeof given === 'string') at(['bad variant options', `${field}.options ${given}`])
      else {
        let values: string[] = []
        const found = gridRule((m) => (m.includes('is not a value of option') ? 'unknown option value' : 'bad variant options'), () => {
          values = optionValuesOf(named, given, `${field}.options`)
        })
        at(found)
        if (!found) {
          const key = JSON.stringify(values.map((value) => value.toLowerCase()))
          const first = combinations.get(key)
          if (first !== undefined) at(['duplicate combination', `${field}.options repeats the combination of variants[${first}] (${values.join(' / ')})`])
          else combinations.set(key, j)
        }
      }
    }
    const prefix = `${field}.`
    const skuText = textProblem(`${prefix}sku`, v.sku, 64, 'missing sku')
    at(skuText)
    if (!skuText) at(skuProblem((v.sku as string).trim(), `${prefix}sku`))
    for (const found of pricesProblems(prefix, v.sellingPrice, v.mrp)) at(found)
    at(numberProblem(`${prefix}stock`, v.stock, 0, 10_000_000, 'bad stock'))
    if (context.stockAtLocations && !isBlank(v.stock)) at(['stock at locations', `${prefix}stock: ${STOCK_AT_LOCATIONS}`])
    if (v.weightGrams !== null) at(numberProblem(`${prefix}weightGrams`, v.weightGrams, 1, 1_000_000, 'bad weight'))
    at(within(prefix, dimensionsProblem(v.dimensionsCm)))
    if (v.barcode !== undefined && v.barcode !== null) {
      if (typeof v.barcode !== 'string' || !isGtin(v.barcode)) at(['bad barcode', `${prefix}barcode ${shown(v.barcode)} is not a GTIN (8, 12, 13 or 14 digits, the last its check digit)`])
    }
    at(within(prefix, hsnProblem(v.hsnCode)))
    at(within(prefix, gstRateProblem(v.gstRateBps, context.gstRatesInForce)))
    at(within(prefix, imagesProblem(v.images)))
    at(within(prefix, booleanProblem(v.isActive)))
  }
}

/** Options as `[{name, values}]` of text (the grid's limits: names of 1 to 40 characters, 1 to 100 values of 1 to 60), or what is wrong. */
function optionsOf(options: unknown): { name: string; values: string[] }[] | string {
  if (!Array.isArray(options)) return `options must be a list of 1 to 3 {name, values}, got ${shown(options)}`
  for (const [k, o] of options.entries()) {
    if (!isRow(o) || typeof o.name !== 'string' || !Array.isArray(o.values)) return `options[${k}] must be {name, values}`
    const extra = Object.keys(o).filter((key) => key !== 'name' && key !== 'values')
    if (extra.length > 0) return `options[${k}] property ${extra[0]} should not exist`
    if (o.name.trim() === '' || characters(o.name.trim()) > 40) return `options[${k}].name must be 1 to 40 characters`
    if (o.values.length === 0 || o.values.length > 100) return `options[${k}].values must list 1 to 100 values, got ${o.values.length}`
    const bad = (o.values as unknown[]).find((v) => typeof v !== 'string' || v.trim() === '' || characters(v.trim()) > 60)
    if (bad !== undefined) return `options[${k}].values must be texts of 1 to 60 characters, got ${shown(bad)}`
  }
  return options as { name: string; values: string[] }[]
}

/** A variant's `options` as `[{name, value}]` of text, or what is wrong. */
function optionValuesGiven(given: unknown): { name: string; value: string }[] | string {
  if (!Array.isArray(given) || given.some((g) => !isRow(g) || typeof g.name !== 'string' || typeof g.value !== 'string')) return 'must be a list of {name, value}, one for each option'
  return given as { name: string; value: string }[]
}

/** A check as people read it: rows checked and invalid, every problem counted by kind, the first 1,000 listed. */
export interface ProblemReport {
  checked: { categories: number; products: number }
  invalid: { categories: number; products: number }
  problems: {
    total: number
    /** Every problem counted by its kind, kinds in alphabetical order: `{"brand too long": 3, "name too long": 5}`. */
    byKind: Record<string, number>
    /** The first 1,000 problems (LISTED_PROBLEMS), in the file's order, each naming its row. */
    first: string[]
  }
}

export function problemReport(check: ImportCheck, listed = LISTED_PROBLEMS): ProblemReport {
  const counts = new Map<string, number>()
  for (const { kind } of check.problems) counts.set(kind, (counts.get(kind) ?? 0) + 1)
  return {
    checked: check.checked,
    invalid: { categories: check.invalidCategories.size, products: check.invalidProducts.size },
    problems: {
      total: check.problems.length,
      byKind: Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      first: check.problems.slice(0, listed).map((p) => p.message),
    },
  }
}

/** The counts by kind in one line: `brand too long: 3, name too long: 5`. */
export const countsByKind = (report: ProblemReport) =>
  Object.entries(report.problems.byKind)
    .map(([kind, n]) => `${kind}: ${n}`)
    .join(', ')

/**
 * A refused import's error details (the API's error message list): the first 1,000 problems and,
 * when there are more, one last line saying how many more and all of them by kind.
 */
export function problemDetails(report: ProblemReport): string[] {
  const { total, first } = report.problems
  if (total <= first.length) return first
  return [...first, `…and ${total - first.length} more problems, ${total} in all (${countsByKind(report)})`]
}
