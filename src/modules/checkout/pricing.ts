// Pricing, pure: cart + rules -> priced cart. The wallet quote and order creation both call this,
// so a quote and the order made from the same inputs agree to the paisa.
//
// Order of application: items at selling price; the coupon (on its eligible lines); shipping and
// the COD fee (waived when Reward Points and Wallet Cash leave nothing to collect); Reward Points (up to the redeem cap, a share of the discounted items total); then
// Wallet Cash (up to what is still payable). All amounts are integer paise; percentages round
// down (in the customer's disfavour by at most one paisa, never above a cap). Discounts are spread
// over the lines in proportion to their amounts by the largest-remainder method, so the line
// shares add up exactly, and a later partial return can refund what was paid for those units.
// The arithmetic itself, with its rounding rules, is in lib/money.ts.
import { allocate, cappedDiscount, lineTotal, percentOf, pointsFor, pointsValue, spendable, sumPaise } from '../../lib/money.ts'

export interface PricingLine {
  productId: string
  quantity: number
  unitPrice: bigint
  unitMrp: bigint
  categoryId: string
}

export interface PricingCoupon {
  code: string
  kind: 'PERCENT' | 'FLAT'
  /** PERCENT: whole percent 1-100; FLAT: paise. */
  value: bigint
  maxDiscount: bigint | null
  /** Categories the coupon applies to; null: every line. */
  categoryIds: string[] | null
}

export interface PricingInput {
  lines: PricingLine[]
  coupon: PricingCoupon | null
  shippingCharge: bigint
  codFee: bigint
  rewardPoints: { balance: bigint; use: boolean; redeemCapPercent: number; paisePerPoint: bigint }
  walletCash: { balance: bigint; use: boolean }
}

export interface PricedLine extends PricingLine {
  lineTotal: bigint
  couponDiscount: bigint
  rewardPointsDiscount: bigint
  /** What the customer pays for these units, by any means (card, COD or Wallet Cash). */
  paidAmount: bigint
}

export interface PricedCart {
  lines: PricedLine[]
  itemsTotal: bigint
  mrpTotal: bigint
  couponDiscount: bigint
  shippingCharge: bigint
  codFee: bigint
  totalAmount: bigint
  rewardPointsUsed: bigint
  rewardPointsValue: bigint
  walletCashUsed: bigint
  remainingPayable: bigint
}

// The split of a discount over the lines lives with the rest of the money arithmetic.
export { allocate }

export function couponDiscountFor(coupon: PricingCoupon, eligibleTotal: bigint): bigint {
  const raw = coupon.kind === 'PERCENT' ? percentOf(eligibleTotal, coupon.value) : coupon.value
  return cappedDiscount(raw, coupon.maxDiscount, eligibleTotal)
}

export function priceCart(input: PricingInput): PricedCart {
  const priced = priceWithFee(input)
  // Nothing left to collect on delivery without the fee: there is no COD, so no COD fee.
  if (input.codFee > 0n && priced.remainingPayable <= input.codFee) {
    const withoutFee = priceWithFee({ ...input, codFee: 0n })
    if (withoutFee.remainingPayable === 0n) return withoutFee
  }
  return priced
}

function priceWithFee(input: PricingInput): PricedCart {
  const lineTotals = input.lines.map((l) => lineTotal(l.unitPrice, l.quantity))
  const itemsTotal = sumPaise(lineTotals)
  const mrpTotal = sumPaise(input.lines.map((l) => lineTotal(l.unitMrp, l.quantity)))

  const eligible = input.lines.map((l, i) =>
    input.coupon && (input.coupon.categoryIds === null || input.coupon.categoryIds.includes(l.categoryId)) ? lineTotals[i]! : 0n,
  )
  const couponDiscount = input.coupon ? couponDiscountFor(input.coupon, sumPaise(eligible)) : 0n
  const couponShares = allocate(couponDiscount, eligible)

  const discountedItems = itemsTotal - couponDiscount
  const totalAmount = sumPaise([discountedItems, input.shippingCharge, input.codFee])

  const points = input.rewardPoints
  let rewardPointsUsed = 0n
  if (points.use && points.paisePerPoint > 0n) {
    const capValue = percentOf(discountedItems, points.redeemCapPercent)
    rewardPointsUsed = spendable(points.balance, pointsFor(capValue, points.paisePerPoint))
  }
  const rewardPointsValue = pointsValue(rewardPointsUsed, points.paisePerPoint)
  const netLines = lineTotals.map((t, i) => t - couponShares[i]!)
  const pointsShares = allocate(rewardPointsValue, netLines)

  const afterPoints = totalAmount - rewardPointsValue
  const walletCashUsed = input.walletCash.use ? spendable(input.walletCash.balance, afterPoints) : 0n

  return {
    lines: input.lines.map((l, i) => ({
      ...l,
      lineTotal: lineTotals[i]!,
      couponDiscount: couponShares[i]!,
      rewardPointsDiscount: pointsShares[i]!,
      paidAmount: lineTotals[i]! - couponShares[i]! - pointsShares[i]!,
    })),
    itemsTotal,
    mrpTotal,
    couponDiscount,
    shippingCharge: input.shippingCharge,
    codFee: input.codFee,
    totalAmount,
    rewardPointsUsed,
    rewardPointsValue,
    walletCashUsed,
    remainingPayable: afterPoints - walletCashUsed,
  }
}
