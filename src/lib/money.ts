// Money is integer paise (bigint) inside the service and a two-decimal rupee string at the edge.
// Every sum, product, percentage, split and rounding of money is one of the functions below, each
// saying how it rounds; test/lib/money.test.ts checks their properties over random amounts. No
// floats anywhere: bigint division truncates, so every rounding rule is spelled out.
export type Paise = bigint

export function formatPaise(paise: Paise): string {
  const negative = paise < 0n
  const abs = negative ? -paise : paise
  const rupees = abs / 100n
  const rest = (abs % 100n).toString().padStart(2, '0')
  return `${negative ? '-' : ''}${rupees}.${rest}`
}

/**
 * `paise` in rupees with Indian digit grouping, for printed documents: 12995000n is "1,29,950.00"
 * (the last three digits, then pairs: thousand, lakh, crore). The API's strings stay formatPaise's.
 */
export function formatPaiseIndian(paise: Paise): string {
  const [sign, rupees, rest] = /^(-?)(\d+)\.(\d\d)$/.exec(formatPaise(paise))!.slice(1) as [string, string, string]
  const head = rupees.slice(0, -3)
  const grouped = head ? `${head.replace(/\B(?=(\d\d)+$)/g, ',')},${rupees.slice(-3)}` : rupees
  return `${sign}${grouped}.${rest}`
}

/** Parses "1299", "1299.5", "1299.50" or a number with at most two decimals; null if invalid. */
export function parseRupees(input: string | number): Paise | null {
  const text = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : '') : input.trim()
  const match = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text)
  if (!match) return null
  const paise = BigInt(match[2]!) * 100n + BigInt((match[3] ?? '').padEnd(2, '0') || '0')
  return match[1] === '-' ? -paise : paise
}

/** The exact sum of the amounts (0 for none). No rounding. */
export function sumPaise(amounts: Iterable<Paise>): Paise {
  let total = 0n
  for (const amount of amounts) total += amount
  return total
}

/** The smaller of two amounts. */
export const minPaise = (a: Paise, b: Paise): Paise => (a < b ? a : b)

/** The larger of two amounts. */
export const maxPaise = (a: Paise, b: Paise): Paise => (a > b ? a : b)

/** `quantity` units at `unitPrice` each, exactly. No rounding. */
export function lineTotal(unitPrice: Paise, quantity: number): Paise {
  return unitPrice * BigInt(quantity)
}

/**
 * `percent` percent of `amount` (amount >= 0), rounded down to the paisa: a percentage discount or
 * cap is in the customer's disfavour by less than one paisa, never above the exact value.
 */
export function percentOf(amount: Paise, percent: bigint | number): Paise {
  return (amount * BigInt(percent)) / 100n
}

/**
 * A discount as applied to `base`: at most `cap` (null: no cap), at most `base` itself, never
 * negative. No rounding (the inputs are whole paise already).
 */
export function cappedDiscount(discount: Paise, cap: Paise | null, base: Paise): Paise {
  const capped = cap === null ? discount : minPaise(discount, cap)
  return maxPaise(0n, minPaise(capped, base))
}

/**
 * What may be spent of `balance` against `limit` (limit >= 0): a negative balance counts as 0, and
 * never more than the limit. No rounding.
 */
export function spendable(balance: bigint, limit: bigint): bigint {
  return minPaise(maxPaise(balance, 0n), limit)
}

/**
 * Splits `amount` over `weights` (all >= 0) in proportion, exactly, by the largest-remainder
 * method: each part is its proportional share rounded down, and the paise left over go one each to
 * the parts with the largest remainders (ties to the earlier part). The parts add up to `amount`
 * and each is within one paisa of its exact share; all zero when the amount or the weights are.
 */
export function allocate(amount: Paise, weights: bigint[]): Paise[] {
  const total = sumPaise(weights)
  if (amount === 0n || total === 0n) return weights.map(() => 0n)
  const shares = weights.map((w) => (amount * w) / total)
  let rest = amount - sumPaise(shares)
  const order = weights
    .map((w, i) => ({ i, remainder: (amount * w) % total }))
    .sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1))
  for (const { i } of order) {
    if (rest === 0n) break
    shares[i]! += 1n
    rest -= 1n
  }
  return shares
}

/**
 * The share of `total` (>= 0) that the slice [from, from + count) of `whole` carries, in proportion,
 * rounded down cumulatively: floor(total x (from + count) / whole) - floor(total x from / whole).
 * Consecutive slices therefore add up exactly (slices covering all of `whole` give back `total`),
 * and each is within one paisa of its exact share. 0 when `whole` <= 0. Used for a line's paid
 * amount over its units, and for the points earned on an order over its refunds.
 */
export function shareOfSlice(total: bigint, whole: bigint | number, from: bigint | number, count: bigint | number): bigint {
  const w = BigInt(whole)
  if (w <= 0n) return 0n
  const start = BigInt(from)
  return (total * (start + BigInt(count))) / w - (total * start) / w
}

/** The value of `points` Reward Points at `paisePerPoint` each, exactly. */
export function pointsValue(points: bigint, paisePerPoint: Paise): Paise {
  return points * paisePerPoint
}

/** The whole points that `value` (>= 0) is worth at `paisePerPoint`, rounded down; 0 when a point has no value. */
export function pointsFor(value: Paise, paisePerPoint: Paise): bigint {
  return paisePerPoint > 0n ? value / paisePerPoint : 0n
}

/**
 * The whole points in the value slice [before, before + value), counted cumulatively: points for
 * (before + value) less points for before, each rounded down. Consecutive slices add up to the
 * points of their total, so returning an order unit by unit gives back as many points as at once.
 */
export function pointsForSlice(before: Paise, value: Paise, paisePerPoint: Paise): bigint {
  return pointsFor(before + value, paisePerPoint) - pointsFor(before, paisePerPoint)
}

/** The paise one point was worth when `points` points covered `value`, rounded down; 0 for no points. */
export function paisePerPointOf(value: Paise, points: bigint): Paise {
  return points > 0n ? value / points : 0n
}

/**
 * Reward Points earned on `itemsPaid` (what the items cost the customer): `earnPercent` percent of
 * it rounded down to the paisa, then in whole points rounded down. None when nothing was paid.
 */
export function pointsEarned(itemsPaid: Paise, earnPercent: bigint | number, paisePerPoint: Paise): bigint {
  return itemsPaid > 0n ? pointsFor(percentOf(itemsPaid, earnPercent), paisePerPoint) : 0n
}

/**
 * A refund of `amount` split over the tenders that paid: a provider payment of `providerPaid` and
 * Wallet Cash of `walletPaid`, of which `providerLeft` (>= 0) is still refundable to the provider.
 * The provider's share is proportional and rounds UP, the wallet's is the rest (so rounds down):
 * rounded the other way, partial refunds that together give back everything would credit the wallet
 * a few paise more than it paid. The provider's part is capped at `providerLeft`; what the cap
 * holds back goes to the wallet. The parts add up to `amount` exactly.
 */
export function splitRefund(amount: Paise, tenders: { providerPaid: Paise; walletPaid: Paise; providerLeft: Paise }): { provider: Paise; wallet: Paise } {
  const both = tenders.providerPaid + tenders.walletPaid
  const share = both > 0n ? (amount * tenders.providerPaid + both - 1n) / both : 0n
  const provider = minPaise(share, tenders.providerLeft)
  return { provider, wallet: amount - provider }
}
