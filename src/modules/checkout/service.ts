// Serviceability, delivery quotes and COD eligibility for a customer's cart. The rules are data
// (delivery zones); the arithmetic is in delivery.ts.
import type { Db, Executor } from '../../db/client.ts'
import type { Deps } from '../../deps.ts'
import { AppError } from '../../lib/errors.ts'
import { formatPaise, lineTotal, sumPaise } from '../../lib/money.ts'
import { type CartProduct, findCartProducts } from '../catalog/index.ts'
import { activeCatalogIdsQuery } from '../partners/index.ts'
import { estimatedDeliveryDate, shippingCharge } from './delivery.ts'
import { eq } from 'drizzle-orm'
import { pageMeta } from '../../lib/pagination.ts'
import { applicableCoupon } from './coupons.ts'
import { ledgerBalances, ledgerPage } from '../ledgers/index.ts'
import { priceCart } from './pricing.ts'
import { checkoutRepo, type DeliveryZone } from './repo.ts'
import { partnerPricing } from './schema.sql.ts'
import { createVersionedCache, type VersionedCache } from '../../lib/versioned-cache.ts'
import { stateMismatch } from './pincode-state.ts'

export type DeliveryMethod = 'STANDARD' | 'EXPRESS'
export interface QuoteInput {
  items: CartItem[]
  pincode?: string
  deliveryMethod?: DeliveryMethod
  paymentMode?: 'PREPAID' | 'COD'
  couponCode?: string
  useRewardPoints?: boolean
  useWalletCash?: boolean
}
export interface CartItem {
  productId: string
  quantity: number
}

const rupees = (paise: bigint) => formatPaise(paise)

/** `prd_a:2,prd_b:1` -> items; null when malformed. */
export function parseItemsParam(text: string): CartItem[] | null {
  const items: CartItem[] = []
  for (const part of text.split(',')) {
    const match = /^([A-Za-z0-9_-]{1,100}):(\d{1,4})$/.exec(part.trim())
    if (!match || Number(match[2]) < 1) return null
    items.push({ productId: match[1]!, quantity: Number(match[2]) })
  }
  return items.length > 0 && items.length <= 100 ? items : null
}

function methodTerms(zone: DeliveryZone, method: DeliveryMethod) {
  return method === 'EXPRESS'
    ? { available: zone.serviceable && zone.expressAvailable, slabs: zone.expressSlabs, min: zone.expressMinDays, max: zone.expressMaxDays, free: null }
    : { available: zone.serviceable, slabs: zone.standardSlabs, min: zone.standardMinDays, max: zone.standardMaxDays, free: zone.freeShippingThreshold }
}

/**
 * Delivery zones and partner pricing settings are read by every quote and order but change only in
 * the back office, which drops them from this cache (on every node, through the Redis version) when
 * it writes. Without Redis, a write from another process (the CLI seed) shows within the TTL.
 */
export const createCheckoutSettingsCache = (deps: Pick<Deps, 'redis' | 'config'>) =>
  createVersionedCache(deps.redis, deps.config.redisPrefix, { name: 'checkout', ttlMs: 5_000, maxEntries: 10_000, maxBytes: 16 * 1024 * 1024 })
export const ZONES_SCOPE = 'zones'
export const pricingScope = (partnerId: string) => `pricing:${partnerId}`

/** A cart as loadCart reads it: its lines with their products, total and weight. */
type Cart = Awaited<ReturnType<CheckoutService['loadCart']>>

export class CheckoutService {
  private readonly db: Db
  private readonly clock: Deps['clock']

  constructor(
    deps: Deps,
    readonly settingsCache: VersionedCache = createCheckoutSettingsCache(deps),
  ) {
    this.db = deps.database.db
    this.clock = deps.clock
  }

  private zoneForPincode(pincode: string, executor: Executor = this.db) {
    return this.settingsCache.get(ZONES_SCOPE, pincode, () => checkoutRepo.zoneForPincode(executor, pincode))
  }

  private pricingSettings(partnerId: string, executor: Executor = this.db) {
    return this.settingsCache.get(pricingScope(partnerId), '', async () => (await executor.select().from(partnerPricing).where(eq(partnerPricing.partnerId, partnerId)).limit(1))[0] ?? null)
  }

  /** Null when the address's state may be its pincode's (pincode-state.ts), the 400 message otherwise; zones from the cache. */
  addressStateMismatch(address: { state: string; pincode: string }, field?: string, executor: Executor = this.db) {
    return stateMismatch(executor, address, field, (pincode) => this.zoneForPincode(pincode, executor))
  }

  /** The cart's products, from the partner's catalogs; unknown ids and duplicate lines are refused. */
  async loadCart(partnerId: string, items: CartItem[], db: Executor = this.db) {
    const ids = items.map((i) => i.productId)
    const duplicate = ids.find((id, i) => ids.indexOf(id) !== i)
    if (duplicate) throw new AppError('BAD_REQUEST', `items must not list product ${duplicate} twice`)
    const found = await findCartProducts(db, activeCatalogIdsQuery(db, partnerId), ids)
    const byId = new Map(found.map((p) => [p.id, p]))
    const missing = ids.find((id) => !byId.has(id))
    if (missing) throw new AppError('BAD_REQUEST', `Product ${missing} does not exist`)
    const lines = items.map((i) => ({ ...i, product: byId.get(i.productId)! }))
    const itemsTotal = sumPaise(lines.map((l) => lineTotal(l.product.sellingPrice, l.quantity)))
    const weightGrams = lines.reduce((sum, l) => sum + l.product.weightGrams * l.quantity, 0)
    return { lines, itemsTotal, weightGrams }
  }

  private quoteMethod(zone: DeliveryZone, method: DeliveryMethod, cart: { itemsTotal: bigint; weightGrams: number }) {
    const terms = methodTerms(zone, method)
    const now = this.clock.now()
    return {
      method,
      available: terms.available,
      charge: rupees(terms.available ? shippingCharge({ slabs: terms.slabs, weightGrams: cart.weightGrams, itemsTotal: cart.itemsTotal, freeShippingThreshold: terms.free }) : 0n),
      estimatedDays: { min: terms.min, max: terms.max },
      estimatedDeliveryDate: terms.available ? estimatedDeliveryDate(now, zone.cutoffHour, terms.max) : null,
    }
  }

  private codReasons(found: Awaited<ReturnType<typeof checkoutRepo.zoneForPincode>>, amount: bigint): string[] {
    if (!found || !found.zone.serviceable) return ['Pincode is not serviceable']
    if (!found.zone.codAvailable) return ['Cash on delivery is not available for this pincode']
    if (amount > found.zone.codLimit) return [`Cash on delivery is limited to ₹${rupees(found.zone.codLimit)} for this pincode`]
    return []
  }

  /** Cart, shipping, COD fee, coupon, settings and balances -> priceCart. Shared with order creation. */
  /** `balances: 'when-used'` skips reading the ledgers when neither Wallet Cash nor Reward Points is used (order creation). */
  /** `cart`: the cart already loaded by the caller (order creation loads it before its transaction). */
  async priceForCustomer(
    customer: { userId: string; partnerId: string },
    input: QuoteInput,
    db: Executor = this.db,
    balances: 'always' | 'when-used' = 'always',
    loaded?: Cart,
  ) {
    const cart = loaded ?? (await this.loadCart(customer.partnerId, input.items, db))
    const inactive = cart.lines.find((l) => !l.product.isActive)
    if (inactive) throw new AppError('BAD_REQUEST', `Product ${inactive.productId} is not available`)
    const method = input.deliveryMethod ?? 'STANDARD'
    const paymentMode = input.paymentMode ?? 'PREPAID'
    let shipping = 0n
    let codFee = 0n
    let codLimit: bigint | null = null
    if (input.pincode) {
      const found = await this.zoneForPincode(input.pincode, db)
      if (!found || !found.zone.serviceable) throw new AppError('BAD_REQUEST', `Pincode ${input.pincode} is not serviceable`)
      const terms = methodTerms(found.zone, method)
      if (!terms.available) throw new AppError('BAD_REQUEST', `${method} delivery is not available for pincode ${input.pincode}`)
      shipping = shippingCharge({ slabs: terms.slabs, weightGrams: cart.weightGrams, itemsTotal: cart.itemsTotal, freeShippingThreshold: terms.free })
      if (paymentMode === 'COD') {
        if (!found.zone.codAvailable) throw new AppError('BAD_REQUEST', 'Cash on delivery is not available for this pincode')
        codFee = found.zone.codFee
        codLimit = found.zone.codLimit
      }
    } else if (paymentMode === 'COD') {
      throw new AppError('BAD_REQUEST', 'pincode is required for cash on delivery')
    }
    const coupon = input.couponCode
      ? await applicableCoupon(db, { partnerId: customer.partnerId, userId: customer.userId, code: input.couponCode, itemsTotal: cart.itemsTotal, now: this.clock.now() })
      : null
    const settings = await this.pricingSettings(customer.partnerId, db)
    const readBalances = balances === 'always' || input.useRewardPoints === true || input.useWalletCash === true
    const current = readBalances ? await ledgerBalances(db, customer.userId) : { walletCash: 0n, rewardPoints: 0n }
    const priced = priceCart({
      lines: cart.lines.map((l) => ({ productId: l.productId, quantity: l.quantity, unitPrice: l.product.sellingPrice, unitMrp: l.product.mrp, categoryId: l.product.categoryId })),
      coupon,
      shippingCharge: shipping,
      codFee,
      rewardPoints: {
        balance: current.rewardPoints,
        use: input.useRewardPoints === true,
        redeemCapPercent: settings?.rewardRedeemCapPercent ?? 10,
        paisePerPoint: BigInt(settings?.paisePerPoint ?? 100),
      },
      walletCash: { balance: current.walletCash, use: input.useWalletCash === true },
    })
    if (codLimit !== null && priced.remainingPayable > codLimit) {
      throw new AppError('BAD_REQUEST', `Cash on delivery is limited to ₹${rupees(codLimit)} for this pincode`)
    }
    return { ...priced, balances: current, coupon, cart }
  }

  async serviceability(partnerId: string, input: { pincode: string; items: CartItem[] }) {
    const cart = await this.loadCart(partnerId, input.items)
    const found = await this.zoneForPincode(input.pincode)
    const serviceable = found?.zone.serviceable === true
    const cod = this.codReasons(found, cart.itemsTotal)
    return {
      pincode: input.pincode,
      serviceable,
      city: found?.city ?? null,
      state: found?.state ?? null,
      items: cart.lines.map((l: { productId: string; quantity: number; product: CartProduct }) => ({
        productId: l.productId,
        available: l.product.isActive,
        inStock: l.product.isActive && l.product.stock >= l.quantity,
      })),
      deliveryMethods: found
        ? (['STANDARD', 'EXPRESS'] as const).map((m) => this.quoteMethod(found.zone, m, cart))
        : (['STANDARD', 'EXPRESS'] as const).map((method) => ({ method, available: false, charge: '0.00', estimatedDays: { min: 0, max: 0 }, estimatedDeliveryDate: null })),
      paymentOptions: [
        { mode: 'PREPAID' as const, available: serviceable, ...(serviceable ? {} : { reason: 'Pincode is not serviceable' }) },
        { mode: 'COD' as const, available: cod.length === 0, ...(cod.length ? { reason: cod[0] } : {}) },
      ],
    }
  }

  async deliveryQuote(partnerId: string, input: { pincode: string; deliveryMethod: DeliveryMethod; items: CartItem[] }) {
    const cart = await this.loadCart(partnerId, input.items)
    const inactive = cart.lines.find((l) => !l.product.isActive)
    if (inactive) throw new AppError('BAD_REQUEST', `Product ${inactive.productId} is not available`)
    const found = await this.zoneForPincode(input.pincode)
    if (!found || !found.zone.serviceable) throw new AppError('BAD_REQUEST', `Pincode ${input.pincode} is not serviceable`)
    const quote = this.quoteMethod(found.zone, input.deliveryMethod, cart)
    if (!quote.available) throw new AppError('BAD_REQUEST', `${input.deliveryMethod} delivery is not available for pincode ${input.pincode}`)
    return {
      pincode: input.pincode,
      deliveryMethod: input.deliveryMethod,
      charge: quote.charge,
      estimatedDays: quote.estimatedDays,
      estimatedDeliveryDate: quote.estimatedDeliveryDate!,
    }
  }

  /** Prices a cart exactly as order creation will (same function, same inputs). */
  async quote(customer: { userId: string; partnerId: string }, input: QuoteInput) {
    const priced = await this.priceForCustomer(customer, input)
    const { balances } = priced
    return {
      itemsTotal: rupees(priced.itemsTotal),
      mrpTotal: rupees(priced.mrpTotal),
      couponDiscount: rupees(priced.couponDiscount),
      shippingCharge: rupees(priced.shippingCharge),
      codFee: rupees(priced.codFee),
      totalAmount: rupees(priced.totalAmount),
      rewardPointsUsed: Number(priced.rewardPointsUsed),
      rewardPointsValue: rupees(priced.rewardPointsValue),
      walletCashUsed: rupees(priced.walletCashUsed),
      remainingPayable: rupees(priced.remainingPayable),
      balances: { walletCash: rupees(balances.walletCash), rewardPoints: Number(balances.rewardPoints) },
    }
  }

  async wallet(userId: string, page: number, limit: number) {
    const [balances, entries] = await Promise.all([ledgerBalances(this.db, userId), ledgerPage(this.db, userId, page, limit)])
    return {
      data: {
        balances: { walletCash: rupees(balances.walletCash), rewardPoints: Number(balances.rewardPoints) },
        entries: entries.rows.map((e) => ({
          id: e.id,
          kind: e.kind,
          amount: e.kind === 'WALLET_CASH' ? rupees(e.amount) : e.amount.toString(),
          reason: e.reason,
          reference: e.reference,
          createdAt: e.createdAt.toISOString(),
        })),
      },
      meta: pageMeta(entries.total, { page, limit }),
    }
  }

  /**
   * Nothing to collect (Wallet Cash and Reward Points cover the order) means no COD fee, as
   * priceCart waives it for the quote and the order: eligible on a COD pincode, fee 0.00.
   */
  async codEligibility(input: { pincode: string; collectableAmount: bigint }) {
    const found = await this.zoneForPincode(input.pincode)
    const reasons = this.codReasons(found, input.collectableAmount)
    const usable = found?.zone.serviceable === true && found.zone.codAvailable
    return {
      eligible: reasons.length === 0,
      collectableAmount: rupees(input.collectableAmount),
      codFee: rupees(usable && input.collectableAmount > 0n ? found!.zone.codFee : 0n),
      maxCodAmount: rupees(usable ? found!.zone.codLimit : 0n),
      reasons,
    }
  }
}

