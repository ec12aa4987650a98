// Cash-on-delivery risk rules (issue #25): a partner's limits on one customer's COD (open orders,
// outstanding value, recent returns to origin, a cap until the first delivery) and its blocked
// pincodes, judged against the customer's history. A pure function: the eligibility answers and
// order creation (under the customer's lock) call it with the same inputs, so they say the same.
import { formatPaise } from '../../lib/money.ts'

/** A partner's rules; null is "no limit". Amounts in paise. */
export interface CodRules {
  maxOpenCodOrders: number | null
  maxCodValue: bigint | null
  rtoLimit: number | null
  rtoWindowDays: number | null
  /** COD refused once this many of the customer's parcels were refused at the door within refusedWindowDays. */
  maxRefusedDeliveries: number | null
  refusedWindowDays: number | null
  firstOrderCap: bigint | null
}

/** What the rules need of a customer's orders (the orders module counts them: orders/repo.ts codHistory). */
export interface CodHistory {
  /** COD orders not yet DELIVERED, CANCELLED or RTO. */
  openCodOrders: number
  /** Their amountPayable, summed. */
  openCodValue: bigint
  /** Whether any order of the customer was delivered. */
  hasDelivered: boolean
  /** Orders that ended RTO at or after the start of the rules' window (0 without an RTO rule). */
  rtoInWindow: number
  /** Parcels the customer refused at the door (a failed attempt the carrier says was refused) in the refusals' window (0 without that rule). */
  refusedInWindow: number
}

/** Whether judging the rules needs the customer's history (one query): not for a partner without limits. */
export const rulesNeedHistory = (rules: CodRules | null): rules is CodRules =>
  rules !== null && (rules.maxOpenCodOrders !== null || rules.maxCodValue !== null || rules.rtoLimit !== null || rules.maxRefusedDeliveries != null || rules.firstOrderCap !== null)

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`
const rupees = (paise: bigint) => `₹${formatPaise(paise)}`

/**
 * Why this customer may not pay `amount` (paise to collect) on delivery to `pincode`, in sentences
 * shown as they are, in a fixed order; none when COD may be used. `maxAmount` is the most the
 * amount-based rules let this customer collect here (null: they set no bound; 0 when a rule refuses
 * COD whatever the amount).
 */
export function codRiskReasons(input: {
  rules: CodRules | null
  history: CodHistory | null
  pincodeBlocked: boolean
  pincode: string
  amount: bigint
}): { reasons: string[]; maxAmount: bigint | null } {
  const { rules, history, pincode, amount } = input
  const reasons: string[] = []
  let refusedWhateverTheAmount = false
  let maxAmount: bigint | null = null
  const bound = (cap: bigint) => {
    const positive = cap < 0n ? 0n : cap
    maxAmount = maxAmount === null || positive < maxAmount ? positive : maxAmount
  }
  if (input.pincodeBlocked) {
    reasons.push(`Cash on delivery is not available for pincode ${pincode}`)
    refusedWhateverTheAmount = true
  }
  if (rules && history) {
    if (rules.rtoLimit !== null && rules.rtoWindowDays !== null && history.rtoInWindow >= rules.rtoLimit) {
      reasons.push(`Cash on delivery is not available after ${plural(rules.rtoLimit, 'returned delivery', 'returned deliveries')} in ${plural(rules.rtoWindowDays, 'day', 'days')}`)
      refusedWhateverTheAmount = true
    }
    if (rules.maxRefusedDeliveries != null && rules.refusedWindowDays != null && history.refusedInWindow >= rules.maxRefusedDeliveries) {
      reasons.push(`Cash on delivery is not available after ${plural(rules.maxRefusedDeliveries, 'refused delivery', 'refused deliveries')} in ${plural(rules.refusedWindowDays, 'day', 'days')}`)
      refusedWhateverTheAmount = true
    }
    if (rules.maxOpenCodOrders !== null && history.openCodOrders >= rules.maxOpenCodOrders) {
      reasons.push(`You have ${plural(history.openCodOrders, 'open cash-on-delivery order', 'open cash-on-delivery orders')}; the limit is ${rules.maxOpenCodOrders}`)
      refusedWhateverTheAmount = true
    }
    if (rules.maxCodValue !== null) {
      const total = history.openCodValue + amount
      if (total > rules.maxCodValue) reasons.push(`Cash on delivery is limited to ${rupees(rules.maxCodValue)} across open orders; with this one they come to ${rupees(total)}`)
      bound(rules.maxCodValue - history.openCodValue)
    }
    if (rules.firstOrderCap !== null && !history.hasDelivered) {
      if (amount > rules.firstOrderCap) reasons.push(`Cash on delivery is limited to ${rupees(rules.firstOrderCap)} until your first order is delivered`)
      bound(rules.firstOrderCap)
    }
  }
  if (refusedWhateverTheAmount) maxAmount = 0n
  return { reasons, maxAmount }
}
