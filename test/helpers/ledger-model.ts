// The model of test/orders/ledger-model.test.ts: plain integers that predict every answer of the
// API about Wallet Cash and Reward Points (balances, entries, order payment status), given the
// shop's prices, delivery zone and points rules defined here. No I/O: the commands in the test file
// run each step against the app and against this model, and compare.
import type { CustomerFixture } from './factories.ts'
/** Prices that split badly: thirds, one paisa over, just under a round figure. */
export const PRODUCTS = [
  { slug: 'tee', price: 33_333n, weight: 150 },
  { slug: 'mug', price: 100_001n, weight: 400 },
  { slug: 'pen', price: 4_999n, weight: 20 },
] as const

/** The zone of PINCODE: ₹40 up to 500 g, ₹79 above; free from ₹1,999; COD fee ₹29, COD up to ₹50,000. */
export const PINCODE = '799001'
export const ZONE = { lightCharge: 4_000n, lightUpToGrams: 500, heavyCharge: 7_900n, freeFrom: 199_900n, codFee: 2_900n }

export interface PointRules {
  earnPercent: bigint
  redeemCapPercent: bigint
  paisePerPoint: bigint
}
/** null: the partner has no pricing row and gets the defaults (1% earned, 10% redeem cap, ₹1 a point). */
export const RULES: (PointRules | null)[] = [
  null,
  { earnPercent: 5n, redeemCapPercent: 50n, paisePerPoint: 100n },
  { earnPercent: 12n, redeemCapPercent: 100n, paisePerPoint: 37n },
  { earnPercent: 3n, redeemCapPercent: 30n, paisePerPoint: 1n },
  { earnPercent: 0n, redeemCapPercent: 100n, paisePerPoint: 50n },
  { earnPercent: 20n, redeemCapPercent: 100n, paisePerPoint: 100n },
]
export const DEFAULT_RULES: PointRules = { earnPercent: 1n, redeemCapPercent: 10n, paisePerPoint: 100n }

export const minOf = (a: bigint, b: bigint) => (a < b ? a : b)

// ---- the model ---------------------------------------------------------------------------------

export interface CartLine {
  product: number
  quantity: number
}

export type Kind = 'WALLET_CASH' | 'REWARD_POINTS'
export type OrderStatus = 'PENDING_PAYMENT' | 'CONFIRMED' | 'PACKED' | 'SHIPPED' | 'OUT_FOR_DELIVERY' | 'DELIVERED' | 'CANCELLED'
export const FORWARD: Partial<Record<OrderStatus, OrderStatus>> = {
  CONFIRMED: 'PACKED',
  PACKED: 'SHIPPED',
  SHIPPED: 'OUT_FOR_DELIVERY',
  OUT_FOR_DELIVERY: 'DELIVERED',
}
export const CANCELLABLE: OrderStatus[] = ['PENDING_PAYMENT', 'CONFIRMED', 'PACKED']
export const MAX_UNPAID = 5

export interface ModelCustomer {
  wallet: bigint
  points: bigint
  /** `KIND REASON amount`, one per ledger entry the customer should have. */
  entries: string[]
}
export interface ModelLine {
  product: number
  quantity: number
  lineTotal: bigint
  pointsShare: bigint
  /** Units in returns that were not rejected. */
  returned: number
}
export interface ModelOrder {
  customer: number
  mode: 'COD' | 'PREPAID'
  status: OrderStatus
  paymentStatus: string
  lines: ModelLine[]
  itemsTotal: bigint
  pointsUsed: bigint
  pointsValue: bigint
  walletUsed: bigint
  payable: bigint
  earned: bigint
  /** The provider sessions opened for the order, oldest first, and what became of each. */
  sessions: ('open' | 'failed' | 'captured')[]
  /** The capture that paid the order (its first), and what returns refunded of it. */
  providerPaid: bigint
  providerRefunded: bigint
  /** Every capture (a late one on another session is refunded) and every refund that succeeded. */
  captured: bigint
  refunded: bigint
  /** Σ of the requested amounts of returns that reached REFUND_PENDING. */
  refundedRequested: bigint
}
export interface Model {
  rules: PointRules
  customers: ModelCustomer[]
  orders: ModelOrder[]
}

export interface RealOrder {
  id: string
  /** Order item id of each model line. */
  itemIds: string[]
  /** Every provider session of the order, oldest first (the model's `sessions`). */
  sessions: string[]
  /** The session the customer would pay on now; null once it failed. */
  sessionId: string | null
}
export interface Real {
  customers: CustomerFixture[]
  orders: RealOrder[]
  /** Violations present before this run started (an earlier failing run's): not this run's doing. */
  known: Set<string>
}

export function post(m: Model, customer: number, kind: Kind, reason: string, amount: bigint) {
  const c = m.customers[customer]!
  if (kind === 'WALLET_CASH') c.wallet += amount
  else c.points += amount
  c.entries.push(`${kind} ${reason} ${amount}`)
}

/** Largest remainder, ties to the earlier line (pricing.ts `allocate`, as documented). */
export function allocate(amount: bigint, weights: bigint[]): bigint[] {
  const total = weights.reduce((s, w) => s + w, 0n)
  if (amount === 0n || total === 0n) return weights.map(() => 0n)
  const shares = weights.map((w) => (amount * w) / total)
  let rest = amount - shares.reduce((s, x) => s + x, 0n)
  const order = weights.map((w, i) => ({ i, r: (amount * w) % total })).sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1))
  for (const { i } of order) {
    if (rest === 0n) break
    shares[i]! += 1n
    rest -= 1n
  }
  return shares
}

export interface Priced {
  itemsTotal: bigint
  shipping: bigint
  codFee: bigint
  total: bigint
  pointsUsed: bigint
  pointsValue: bigint
  walletUsed: bigint
  payable: bigint
  lineTotals: bigint[]
  pointsShares: bigint[]
}

/** docs/orders.md and pricing.ts: items, shipping, COD fee (waived when nothing is left to collect), points up to the cap, then Wallet Cash. */
export function priceOrder(m: Model, customer: number, lines: CartLine[], mode: 'COD' | 'PREPAID', useWallet: boolean, usePoints: boolean): Priced {
  const c = m.customers[customer]!
  const lineTotals = lines.map((l) => PRODUCTS[l.product]!.price * BigInt(l.quantity))
  const itemsTotal = lineTotals.reduce((s, x) => s + x, 0n)
  const weight = lines.reduce((s, l) => s + PRODUCTS[l.product]!.weight * l.quantity, 0)
  const shipping = itemsTotal >= ZONE.freeFrom ? 0n : weight <= ZONE.lightUpToGrams ? ZONE.lightCharge : ZONE.heavyCharge
  const withFee = (codFee: bigint): Priced => {
    const total = itemsTotal + shipping + codFee
    const { redeemCapPercent, paisePerPoint } = m.rules
    const pointsUsed = usePoints ? minOf(c.points, (itemsTotal * redeemCapPercent) / 100n / paisePerPoint) : 0n
    const pointsValue = pointsUsed * paisePerPoint
    const walletUsed = useWallet ? minOf(c.wallet, total - pointsValue) : 0n
    return { itemsTotal, shipping, codFee, total, pointsUsed, pointsValue, walletUsed, payable: total - pointsValue - walletUsed, lineTotals, pointsShares: allocate(pointsValue, lineTotals) }
  }
  const fee = mode === 'COD' ? ZONE.codFee : 0n
  const priced = withFee(fee)
  if (fee > 0n && priced.payable <= fee) {
    const without = withFee(0n)
    if (without.payable === 0n) return without
  }
  return priced
}

/** Units [from, from + count) of a line of `quantity` units carry this share of `total` (returns). */
export const unitShare = (total: bigint, quantity: number, from: number, count: number) =>
  (total * BigInt(from + count)) / BigInt(quantity) - (total * BigInt(from)) / BigInt(quantity)

/** The value of the points spent on the units returned so far, over every line. */
export const returnedPointsValue = (o: ModelOrder) => o.lines.reduce((s, l) => s + unitShare(l.pointsShare, l.quantity, 0, l.returned), 0n)

/** refreshRefundStatus (docs/orders.md, docs/returns.md): REFUNDED once refunds cover what was paid, PARTIALLY_REFUNDED before. */
export function refreshRefundStatus(o: ModelOrder) {
  if (o.refunded === 0n) return
  const paid = o.status === 'CANCELLED' ? o.captured : o.captured + o.walletUsed + (o.mode === 'COD' && o.paymentStatus !== 'COD_PENDING' ? o.payable : 0n)
  o.paymentStatus = o.refunded >= paid ? 'REFUNDED' : 'PARTIALLY_REFUNDED'
}

/** The sandbox refuses the first refund of ₹x.13 of each captured payment (the background job would retry it). */
export const sandboxRefunds = (amount: bigint) => amount % 100n !== 13n

export const unpaidOrders = (m: Model, customer: number) => m.orders.filter((o) => o.customer === customer && o.status === 'PENDING_PAYMENT').length
export const returnable = (o: ModelOrder) =>
  o.status === 'DELIVERED' && ['PAID', 'PARTIALLY_REFUNDED'].includes(o.paymentStatus) && o.lines.some((l) => l.returned < l.quantity)
