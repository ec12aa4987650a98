// GST on a priced cart, pure: the priced cart's lines (after their coupon shares) and charges ->
// taxable value and CGST, SGST or IGST of each, and the totals as their sums. The wallet quote and
// order creation both call it on priceCart's answer, so they agree to the paisa (decision 0021).
//
// - A line is taxed on its line total less its coupon share (a coupon lowers the price); Reward
//   Points and Wallet Cash are means of payment and do not lower the taxable value.
// - Shipping and the COD fee are part of a composite supply whose principal supply is the goods:
//   they are taxed at the rate (and under the HSN code and seller) of the principal supply, the
//   taxed line with the highest taxable value, ties to the earlier line.
// - A line whose catalog has no registered seller is not taxed (null); its seller may sell
//   unregistered below the registration threshold.
// - Totals are sums of the lines' and charges' figures, never recomputed from totals.
// The arithmetic and its rounding rules are lib/gst.ts's.
import { splitInclusive, splitTax, type SupplyKind, type TaxComponents } from '../../lib/gst.ts'
import { type Paise, sumPaise } from '../../lib/money.ts'
import { sameState } from '../../lib/pincode-states.ts'

/** How a line is taxed: its resolved HSN code and rate, and whether its seller is in the place of supply's state. */
export interface LineTaxTerms {
  hsnCode: string
  rateBps: number
  kind: SupplyKind
}

export interface CartTaxInput {
  /** The priced cart's lines; `terms` null: the line's seller is not registered, the line is not taxed. */
  lines: { productId: string; lineTotal: Paise; couponDiscount: Paise; terms: LineTaxTerms | null }[]
  shippingCharge: Paise
  codFee: Paise
}

export interface TaxedAmount extends TaxComponents {
  hsnCode: string
  rateBps: number
  kind: SupplyKind
  taxable: Paise
  tax: Paise
}

export type ChargeKind = 'SHIPPING' | 'COD_FEE'

export interface TaxedCharge extends TaxedAmount {
  charge: ChargeKind
  amount: Paise
}

export interface CartTax {
  /** By position of the priced cart's lines; null for a line that is not taxed. */
  lines: (TaxedAmount | null)[]
  /** Shipping and the COD fee when they are more than zero and some line is taxed. */
  charges: TaxedCharge[]
  taxable: Paise
  cgst: Paise
  sgst: Paise
  igst: Paise
  tax: Paise
  /** Every taxed supply is within the seller's state (CGST + SGST). */
  intraState: boolean
}

function taxAmount(amount: Paise, terms: LineTaxTerms): TaxedAmount {
  const { taxable, tax } = splitInclusive(amount, terms.rateBps)
  return { hsnCode: terms.hsnCode, rateBps: terms.rateBps, kind: terms.kind, taxable, tax, ...splitTax(tax, terms.kind) }
}

/** The GST of a priced cart; null when no line is taxed (no registered seller). */
export function taxCart(input: CartTaxInput): CartTax | null {
  const lines = input.lines.map((l) => (l.terms ? taxAmount(l.lineTotal - l.couponDiscount, l.terms) : null))
  let principal: TaxedAmount | null = null
  for (const line of lines) if (line && (principal === null || line.taxable > principal.taxable)) principal = line
  if (principal === null) return null
  const terms: LineTaxTerms = { hsnCode: principal.hsnCode, rateBps: principal.rateBps, kind: principal.kind }
  const charges: TaxedCharge[] = []
  for (const [charge, amount] of [
    ['SHIPPING', input.shippingCharge],
    ['COD_FEE', input.codFee],
  ] as const) {
    if (amount > 0n) charges.push({ ...taxAmount(amount, terms), charge, amount })
  }
  const taxed = [...lines.filter((l): l is TaxedAmount => l !== null), ...charges]
  const total = (field: 'taxable' | 'cgst' | 'sgst' | 'igst' | 'tax') => sumPaise(taxed.map((t) => t[field]))
  return {
    lines,
    charges,
    taxable: total('taxable'),
    cgst: total('cgst'),
    sgst: total('sgst'),
    igst: total('igst'),
    tax: total('tax'),
    intraState: taxed.every((t) => t.kind === 'INTRA_STATE'),
  }
}

/**
 * The same cart taxed again with the supplier's state of some lines known only now (decision 0043:
 * the stock location an order's units come from ships under its own GST registration): `states[i]`,
 * when given, is the state of line i's supplier. Same HSN codes, rates and taxable values; only
 * the split between CGST + SGST and IGST can change, so the total, tax-inclusive, does not. The
 * charges follow the principal supply as before.
 */
export function retaxBySupplier<T extends CartTax>(tax: T, input: Omit<CartTaxInput, 'lines'> & { lines: Omit<CartTaxInput['lines'][number], 'terms'>[] }, states: (string | undefined)[], placeState: string): T {
  let changed = false
  const lines = input.lines.map((l, i) => {
    const taxed = tax.lines[i]
    const state = states[i]
    if (!taxed || state === undefined) return { ...l, terms: taxed ? { hsnCode: taxed.hsnCode, rateBps: taxed.rateBps, kind: taxed.kind } : null }
    const kind: SupplyKind = sameState(state, placeState) ? 'INTRA_STATE' : 'INTER_STATE'
    if (kind !== taxed.kind) changed = true
    return { ...l, terms: { hsnCode: taxed.hsnCode, rateBps: taxed.rateBps, kind } }
  })
  return changed ? { ...tax, ...taxCart({ ...input, lines })! } : tax
}
