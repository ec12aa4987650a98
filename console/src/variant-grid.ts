// The variant editor's rules, apart from its screen (decision 0043, step 6): a product's options and
// the rows of its grid, the combinations generated from the options, bulk edits of price, MRP and
// stock, and the body of PUT /admin/products/{id}/variants. Amounts stay text ("899.00"), checked
// by a pattern and never turned into floats; a row names its option values by their place in the
// option's list, so renaming or reordering a value never loses a row.

export const MAX_OPTIONS = 3
export const MAX_VARIANTS = 250

export interface ProductOption {
  name: string
  values: string[]
}

/** A variant as GET /admin/products/{id} answers it (AdminVariant). */
export interface AdminVariant {
  id: string
  title: string | null
  options: { name: string; value: string }[]
  sku: string
  sellingPrice: string
  mrp: string
  stock: number
  weightGrams: number | null
  dimensionsCm: { length: number; breadth: number; height: number } | null
  barcode: string | null
  hsnCode: string | null
  gstRateBps: number | null
  images: string[]
  isActive: boolean
}

/** A row of the grid: what the screen edits, as text, and what it carries back unchanged. */
export interface Row {
  key: string
  id?: string
  /** For each option, the place of this row's value in the option's values (-1: none yet). */
  picks: number[]
  sku: string
  sellingPrice: string
  mrp: string
  stock: string
  /** The stock as read (a stored variant): left out of PUT while unchanged, so orders since keep their units. */
  loadedStock?: string
  barcode: string
  weightGrams: string
  isActive: boolean
  selected: boolean
  kept: Pick<AdminVariant, 'dimensionsCm' | 'hsnCode' | 'gstRateBps' | 'images'>
}

let nextKey = 0
const newKey = () => `row-${++nextKey}`

const AMOUNT = /^(\d{1,13})(?:\.(\d{1,2}))?$/
const COUNT = /^\d{1,8}$/

/** An amount typed as the API takes it, "899" as "899.00"; null when it is not an amount. */
export function rupees(text: string): string | null {
  const match = AMOUNT.exec(text.trim())
  if (!match) return null
  return `${match[1]!.replace(/^0+(?=\d)/, '')}.${(match[2] ?? '').padEnd(2, '0')}`
}

/** The grid's rows from the product's variants (a product without options: its default variant, with no values). */
export function rowsOf(options: ProductOption[], variants: AdminVariant[]): Row[] {
  return variants.map((v) => ({
    key: newKey(),
    id: v.id,
    picks: options.map((o) => o.values.indexOf(v.options.find((given) => given.name === o.name)?.value ?? '')),
    sku: v.sku,
    sellingPrice: v.sellingPrice,
    mrp: v.mrp,
    stock: String(v.stock),
    loadedStock: String(v.stock),
    barcode: v.barcode ?? '',
    weightGrams: v.weightGrams === null ? '' : String(v.weightGrams),
    isActive: v.isActive,
    selected: false,
    kept: { dimensionsCm: v.dimensionsCm, hsnCode: v.hsnCode, gstRateBps: v.gstRateBps, images: v.images },
  }))
}

/** A row's option values as shoppers read them: "M / Red" ("—" for a value not chosen yet). */
export const titleOf = (options: ProductOption[], row: Row) => options.map((o, i) => o.values[row.picks[i] ?? -1] ?? '—').join(' / ')

/** Every combination of the options' values, as places, the first option changing slowest. */
export function combinations(options: ProductOption[]): number[][] {
  return options.reduce<number[][]>((combos, o) => combos.flatMap((c) => o.values.map((_, j) => [...c, j])), [[]])
}

const sameCombination = (row: Row, combo: number[]) => row.picks.length === combo.length && combo.every((p, i) => row.picks[i] === p)
/** A row missing some values (an option added since) whose values given agree with the combination. */
const fitsInto = (row: Row, combo: number[]) => row.picks.some((p) => p < 0) && combo.every((p, i) => (row.picks[i] ?? -1) < 0 || row.picks[i] === p)

const skuPart = (text: string) =>
  text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')

/**
 * One row per combination of the options' values, in the options' order. A row whose combination
 * exists is kept as it is; a row missing a value (the product's own fields when options are added,
 * or every row when an option is added) fills the first free combination that agrees with it; the
 * others are new, priced like the first row, with no stock and a SKU made from `skuBase` and their
 * values. Rows whose combination no longer exists are left out (counted in `removed`).
 */
export function generate(options: ProductOption[], rows: Row[], skuBase: string): { rows: Row[]; added: number; removed: number } | { problem: string } {
  const empty = options.findIndex((o) => o.values.length === 0)
  if (empty >= 0) return { problem: `options[${empty}] (${options[empty]!.name || 'no name'}) has no values yet` }
  const combos = combinations(options)
  if (combos.length > MAX_VARIANTS) return { problem: `${combos.length} combinations: a product has at most ${MAX_VARIANTS} variants` }
  const placed: (Row | undefined)[] = combos.map(() => undefined)
  const free = new Set(rows)
  combos.forEach((combo, c) => {
    const row = [...free].find((r) => sameCombination(r, combo))
    if (row) {
      placed[c] = row
      free.delete(row)
    }
  })
  combos.forEach((combo, c) => {
    if (placed[c]) return
    const row = [...free].find((r) => fitsInto(r, combo))
    if (row) {
      placed[c] = { ...row, picks: combo }
      free.delete(row)
    }
  })
  const template = rows[0]
  let added = 0
  const out = combos.map((combo, c) => {
    const row = placed[c]
    if (row) return row
    added++
    return {
      key: newKey(),
      picks: combo,
      sku: [skuBase, ...combo.map((j, i) => options[i]!.values[j]!)].map(skuPart).filter(Boolean).join('-'),
      sellingPrice: template?.sellingPrice ?? '',
      mrp: template?.mrp ?? '',
      stock: '0',
      barcode: '',
      weightGrams: '',
      isActive: true,
      selected: false,
      kept: { dimensionsCm: null, hsnCode: null, gstRateBps: null, images: [] },
    }
  })
  return { rows: out, added, removed: free.size }
}

/** An option added: every row has no value for it yet. */
export const withOptionAdded = (options: ProductOption[], rows: Row[]) => ({ options: [...options, { name: '', values: [] }], rows: rows.map((r) => ({ ...r, picks: [...r.picks, -1] })) })

/** An option removed: rows that then share a combination keep the first of them. */
export function withOptionRemoved(options: ProductOption[], rows: Row[], i: number) {
  const seen = new Set<string>()
  const kept = rows
    .map((r) => ({ ...r, picks: r.picks.filter((_, k) => k !== i) }))
    .filter((r) => {
      const key = r.picks.join()
      if (r.picks.some((p) => p < 0)) return true
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
  return { options: options.filter((_, k) => k !== i), rows: kept, removed: rows.length - kept.length }
}

/** A value removed from option i: its rows go. */
export function withValueRemoved(options: ProductOption[], rows: Row[], i: number, j: number) {
  const kept = rows.filter((r) => r.picks[i] !== j).map((r) => ({ ...r, picks: r.picks.map((p, k) => (k === i && p > j ? p - 1 : p)) }))
  return { options: options.map((o, k) => (k === i ? { ...o, values: o.values.filter((_, v) => v !== j) } : o)), rows: kept, removed: rows.length - kept.length }
}

/** Value j of option i moved one place earlier; rows keep their values. */
export function withValueMovedEarlier(options: ProductOption[], rows: Row[], i: number, j: number) {
  if (j <= 0) return { options, rows }
  const swap = (p: number) => (p === j ? j - 1 : p === j - 1 ? j : p)
  return {
    options: options.map((o, k) => (k === i ? { ...o, values: o.values.map((v, x) => o.values[x === j ? j - 1 : x === j - 1 ? j : x] ?? v) } : o)),
    rows: rows.map((r) => ({ ...r, picks: r.picks.map((p, k) => (k === i ? swap(p) : p)) })),
  }
}

export type BulkField = 'sellingPrice' | 'mrp' | 'stock'
export type BulkMode = 'set' | 'add' | 'subtract'

/** The selected rows with a price or MRP set, or their stock set, raised or lowered; or why not. */
export function bulkEdit(options: ProductOption[], rows: Row[], field: BulkField, mode: BulkMode, value: string): { rows: Row[] } | { problem: string } {
  if (!rows.some((r) => r.selected)) return { problem: 'Select the variants to change first' }
  if (field !== 'stock') {
    if (mode !== 'set') return { problem: 'Prices and MRPs are set to a value, not added to' }
    const amount = rupees(value)
    if (amount === null) return { problem: `${field === 'mrp' ? 'MRP' : 'Selling price'}: an amount like 1299.00` }
    return { rows: rows.map((r) => (r.selected ? { ...r, [field]: amount } : r)) }
  }
  if (!COUNT.test(value.trim())) return { problem: 'Stock: a whole number of units, like 10' }
  const units = Number(value.trim())
  const next: Row[] = []
  for (const r of rows) {
    if (!r.selected) {
      next.push(r)
      continue
    }
    if (mode !== 'set' && !COUNT.test(r.stock.trim())) return { problem: `The stock of ${titleOf(options, r)} is not a whole number: set it first` }
    const stock = mode === 'set' ? units : mode === 'add' ? Number(r.stock) + units : Number(r.stock) - units
    if (stock < 0) return { problem: `The stock of ${titleOf(options, r)} would go below zero (it is ${r.stock})` }
    next.push({ ...r, stock: String(stock) })
  }
  return { rows: next }
}

/** A variant of PUT's body. */
export interface VariantBody {
  id?: string
  options: { name: string; value: string }[]
  sku: string
  sellingPrice: string
  mrp: string
  /** Left out for a stored variant whose stock was not edited: the API keeps the units it has when saving. */
  stock?: number
  weightGrams: number | null
  barcode: string | null
  isActive: boolean
  dimensionsCm: AdminVariant['dimensionsCm']
  hsnCode: string | null
  gstRateBps: number | null
  images: string[]
}

/**
 * PUT's body from the screen, or every problem found, each named as the API names it
 * (`variants[2].sellingPrice ...`). Only what the console can see without the API is checked
 * here: amounts, whole numbers and values chosen; SKUs taken, barcodes' check digits and the rest
 * are the API's 400 and 409.
 */
export function gridBody(options: ProductOption[], rows: Row[]): { body: { options: ProductOption[]; variants: VariantBody[] } } | { problems: string[] } {
  const problems: string[] = []
  options.forEach((o, i) => {
    if (!o.name.trim()) problems.push(`options[${i}].name is empty`)
    if (o.values.length === 0) problems.push(`options[${i}] (${o.name || 'no name'}) has no values`)
  })
  if (rows.length === 0) problems.push('variants: at least one variant is needed')
  const variants = rows.map((r, i) => {
    const field = `variants[${i}]`
    const missing = options.filter((_, k) => (r.picks[k] ?? -1) < 0)
    if (missing.length > 0) problems.push(`${field} has no value for ${missing.map((o) => o.name || 'an option').join(', ')}: generate the combinations`)
    const sellingPrice = rupees(r.sellingPrice)
    const mrp = rupees(r.mrp)
    if (sellingPrice === null) problems.push(`${field}.sellingPrice must be an amount like 1299.00`)
    if (mrp === null) problems.push(`${field}.mrp must be an amount like 1299.00`)
    if (!COUNT.test(r.stock.trim())) problems.push(`${field}.stock must be a whole number of units`)
    if (r.weightGrams.trim() && !COUNT.test(r.weightGrams.trim())) problems.push(`${field}.weightGrams must be whole grams (empty: the product's)`)
    if (!r.sku.trim()) problems.push(`${field}.sku is empty`)
    return {
      ...(r.id ? { id: r.id } : {}),
      options: options.map((o, k) => ({ name: o.name.trim(), value: o.values[r.picks[k] ?? -1] ?? '' })),
      sku: r.sku.trim(),
      sellingPrice: sellingPrice ?? r.sellingPrice,
      mrp: mrp ?? r.mrp,
      // A stored variant's stock goes only when edited: orders placed since the page was read keep their units.
      ...(r.id && r.loadedStock !== undefined && r.stock.trim() === r.loadedStock ? {} : { stock: Number(r.stock.trim()) }),
      weightGrams: r.weightGrams.trim() ? Number(r.weightGrams.trim()) : null,
      barcode: r.barcode.trim() || null,
      isActive: r.isActive,
      ...r.kept,
    }
  })
  if (problems.length > 0) return { problems }
  return { body: { options: options.map((o) => ({ name: o.name.trim(), values: o.values.map((v) => v.trim()) })), variants } }
}

/**
 * When the options are as loaded and the rows are the stored variants in their order, with exactly
 * one of them changed: that variant and its changed fields (PATCH writes it alone, leaving the
 * others' stock to the orders that move it). Otherwise null: the grid goes whole.
 */
export function oneVariantChanged(loaded: { options: ProductOption[]; variants: VariantBody[] }, now: { options: ProductOption[]; variants: VariantBody[] }): { id: string; changes: Partial<VariantBody> } | null {
  if (loaded.options.length === 0 || JSON.stringify(loaded.options) !== JSON.stringify(now.options)) return null
  if (loaded.variants.length !== now.variants.length || now.variants.some((v, i) => !v.id || v.id !== loaded.variants[i]!.id)) return null
  const changed = now.variants
    .map((v, i) => ({ id: v.id!, changes: Object.fromEntries(Object.entries(v).filter(([k, value]) => JSON.stringify(value) !== JSON.stringify((loaded.variants[i] as unknown as Record<string, unknown>)[k]))) }))
    .filter((c) => Object.keys(c.changes).length > 0)
  if (changed.length !== 1 || 'options' in changed[0]!.changes) return null
  return changed[0]!
}

/** The cells an API or console message names (`variants[2].sku`), as "2.sku". */
export function cellsNamed(message: string): Set<string> {
  return new Set([...message.matchAll(/variants\[(\d+)\]\.(\w+)/g)].map((m) => `${m[1]}.${m[2]}`))
}
