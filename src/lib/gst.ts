// GST arithmetic on tax-inclusive prices, in integer paise (lib/money.ts) and integer basis points
// (1800 = 18 %, 25 = 0.25 %). Indian retail prices include GST: what the customer pays is split into
// a taxable value and the tax, never grown by it. Every rounding rule is written beside its
// function; test/lib/gst.test.ts checks their properties over random amounts and rates.
//
// Rounding, in one place:
// - The tax of a line is computed on the line total (unit price x quantity, less the line's share of
//   any discount), never per unit, and rounded to the paisa half-up; the taxable value is the rest,
//   so taxable + tax == amount exactly, on every line.
// - Intra-state tax is split CGST + SGST in halves; an odd paisa goes to CGST.
// - A discount is spread over the lines in proportion to their amounts by largest remainder
//   (money.ts `allocate`: floors, then one paisa each to the largest remainders, ties to the
//   earlier line), so the shares add up to the discount exactly.
// - Totals are sums of the lines, never recomputed from totals, so lines and totals always agree.
import { allocate, type Paise, sumPaise } from './money.ts'

/** Basis points in a whole: 10000 bps = 100 %. */
export const BPS = 10_000n

/** The taxable value and tax inside a tax-inclusive amount. */
export interface InclusiveSplit {
  taxable: Paise
  tax: Paise
}

/**
 * Splits a tax-inclusive `amount` (>= 0) at `rateBps` (>= 0): tax = amount x rate / (1 + rate),
 * rounded to the paisa half-up (a half paisa goes up); taxable = amount - tax, so the two add up to
 * `amount` exactly and neither is negative.
 */
export function splitInclusive(amount: Paise, rateBps: number): InclusiveSplit {
  if (amount < 0n) throw new RangeError('splitInclusive: amount must not be negative')
  if (!Number.isInteger(rateBps) || rateBps < 0) throw new RangeError('splitInclusive: rateBps must be a non-negative integer')
  const rate = BigInt(rateBps)
  const numerator = amount * rate
  const denominator = BPS + rate
  // floor(n / d + 1/2) == floor((2n + d) / 2d): half-up, in integers.
  const tax = (2n * numerator + denominator) / (2n * denominator)
  return { taxable: amount - tax, tax }
}

/** How a supply is taxed: in the seller's own state (CGST + SGST) or to another state (IGST). */
export type SupplyKind = 'INTRA_STATE' | 'INTER_STATE'

export interface TaxComponents {
  cgst: Paise
  sgst: Paise
  igst: Paise
}

/**
 * The tax of a line by component. Intra-state: CGST and SGST (or UTGST) half each, the odd paisa to
 * CGST (cgst = tax - floor(tax / 2)); inter-state: all IGST. The components add up to `tax`.
 */
export function splitTax(tax: Paise, kind: SupplyKind): TaxComponents {
  if (tax < 0n) throw new RangeError('splitTax: tax must not be negative')
  if (kind === 'INTER_STATE') return { cgst: 0n, sgst: 0n, igst: tax }
  const sgst = tax / 2n
  return { cgst: tax - sgst, sgst, igst: 0n }
}

/**
 * A discount (a coupon) spread over lines in proportion to their amounts, to the paisa: largest
 * remainder, ties to the earlier line (money.ts `allocate`). The shares add up to `discount`, each is
 * within a paisa of its exact share and never more than its line. `discount` must be between 0 and
 * the lines' sum.
 */
export function allocateDiscount(discount: Paise, lineAmounts: Paise[]): Paise[] {
  if (lineAmounts.some((a) => a < 0n)) throw new RangeError('allocateDiscount: line amounts must not be negative')
  if (discount < 0n || discount > sumPaise(lineAmounts)) throw new RangeError('allocateDiscount: discount must be between 0 and the lines\' sum')
  return allocate(discount, lineAmounts)
}

/** A line to tax: its tax-inclusive amount (unit price x quantity) and its GST rate. */
export interface TaxableLine {
  amount: Paise
  rateBps: number
}

/** A taxed line: what it cost, its discount share, and the taxable value and tax of what is left. */
export interface TaxedLine extends TaxComponents {
  rateBps: number
  amount: Paise
  discount: Paise
  /** amount - discount: what the customer pays for the line, tax included. */
  net: Paise
  taxable: Paise
  tax: Paise
}

export interface TaxTotals extends TaxComponents {
  amount: Paise
  discount: Paise
  net: Paise
  taxable: Paise
  tax: Paise
}

/**
 * Taxes lines of one supply: the discount is spread over the lines first (it reduces the taxable
 * value, it is not a payment), then each line's net amount is split at its rate and its tax by
 * component. For every line taxable + tax == net and cgst + sgst + igst == tax.
 */
export function taxLines(lines: TaxableLine[], discount: Paise, kind: SupplyKind): TaxedLine[] {
  const shares = allocateDiscount(discount, lines.map((l) => l.amount))
  return lines.map((line, i) => {
    const net = line.amount - shares[i]!
    const { taxable, tax } = splitInclusive(net, line.rateBps)
    return { rateBps: line.rateBps, amount: line.amount, discount: shares[i]!, net, taxable, tax, ...splitTax(tax, kind) }
  })
}

/** The totals of taxed lines: each field the exact sum of the lines' (no rounding). */
export function sumTaxLines(lines: readonly (TaxComponents & { amount: Paise; discount: Paise; net: Paise; taxable: Paise; tax: Paise })[]): TaxTotals {
  const total = (field: keyof TaxTotals) => sumPaise(lines.map((l) => l[field]))
  return {
    amount: total('amount'),
    discount: total('discount'),
    net: total('net'),
    taxable: total('taxable'),
    tax: total('tax'),
    cgst: total('cgst'),
    sgst: total('sgst'),
    igst: total('igst'),
  }
}
