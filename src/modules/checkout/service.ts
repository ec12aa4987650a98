// Serviceability, delivery quotes and COD eligibility for a customer's cart. The rules are data
// (delivery zones); the arithmetic is in delivery.ts.
import type { Db, Executor } from '../../db/client.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { AppError } from '../../lib/errors.ts'
import { formatPaise, lineTotal, sumPaise } from '../../lib/money.ts'
import { type CartProduct, cartProductsTax, defaultVariantId, findCartProducts } from '../catalog/index.ts'
import { activeCatalogIdsQuery } from '../partners/index.ts'
import { estimatedDeliveryDate, shippingCharge } from './delivery.ts'
import { and, eq } from 'drizzle-orm'
import { pageMeta } from '../../lib/pagination.ts'
import { applicableCoupon } from './coupons.ts'
import { ledgerBalances, ledgerPage } from '../ledgers/index.ts'
import { priceCart, type PricedCart } from './pricing.ts'
import { checkoutRepo, type DeliveryZone } from './repo.ts'
import { codBlockedPincodes, partnerCodRules, partnerPricing } from './schema.sql.ts'
import { type CodHistory, type CodRules, codRiskReasons, rulesNeedHistory } from './cod-risk.ts'
import { createVersionedCache, type VersionedCache } from '../../lib/versioned-cache.ts'
import { stateMismatch, statesOfPincode } from './pincode-state.ts'
import { type CartTax, retaxBySupplier, taxCart } from './cart-tax.ts'
import { gstRatesInForceAt, gstSellerOf, indiaDay } from '../tax/index.ts'
import { GST_CODES_WITHOUT_STATE, GST_STATE_CODES } from '../../lib/gstin.ts'
import { sameState } from '../../lib/pincode-states.ts'

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
  /** Omitted: the product's default variant (decision 0043). */
  variantId?: string
  quantity: number
}

const rupees = (paise: bigint) => formatPaise(paise)

/** `prd_a:2,prd_b:var_c:1` -> items (a variant between product and quantity); null when malformed. */
export function parseItemsParam(text: string): CartItem[] | null {
  const items: CartItem[] = []
  for (const part of text.split(',')) {
    const match = /^([A-Za-z0-9_-]{1,100})(?::([A-Za-z0-9_-]{1,100}))?:(\d{1,4})$/.exec(part.trim())
    if (!match || Number(match[3]) < 1) return null
    items.push({ productId: match[1]!, ...(match[2] ? { variantId: match[2] } : {}), quantity: Number(match[3]) })
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
export const createCheckoutSettingsCache = (deps: Pick<ServiceDeps<'redisPrefix'>, 'redis' | 'config'>) =>
  createVersionedCache(deps.redis, deps.config.redisPrefix, { name: 'checkout', ttlMs: 5_000, maxEntries: 10_000, maxBytes: 16 * 1024 * 1024 })
export const ZONES_SCOPE = 'zones'
/** The GST sellers of catalogs (written by the tax module's back office: see gstSellersChanged). */
const GST_SELLERS_SCOPE = 'gst-sellers'
/** The GST rates in force, by day in India (they change only with a migration). */
const GST_RATES_SCOPE = 'gst-rates'
export const pricingScope = (partnerId: string) => `pricing:${partnerId}`
/** A partner's COD risk rules, and its COD-blocked pincodes (one entry per pincode asked). */
export const codRulesScope = (partnerId: string) => `cod-rules:${partnerId}`
export const codBlockedScope = (partnerId: string) => `cod-blocked:${partnerId}`

/** The orders module's count of a customer's COD history (orders/index.ts codHistoryOf), given by app.ts. */
export type CodHistoryOf = (db: Executor, userId: string, rtoSince: Date | null, refusedSince: Date | null) => Promise<CodHistory>

/**
 * The inventory module's plan of where a cart's units would ship from (inventory/index.ts
 * plannedSupplierStates), given by app.ts: per line, the state of the GST registration of the stock
 * location its units would come from; undefined: the catalog's seller's.
 */
export type SupplierStatesOf = (db: Executor, delivery: { pincode: string; state: string }, lines: { catalogId: string; productId: string; variantId: string; quantity: number }[]) => Promise<(string | undefined)[]>

/** A cart as loadCart reads it: its lines with their products, total and weight. */
type Cart = Awaited<ReturnType<CheckoutService['loadCart']>>

/** Where the goods go, for GST: the state (and its GST state code, null if it has none) of the shipping address. */
export interface PlaceOfSupply {
  stateCode: string | null
  state: string
}

/** A cart's GST with its place of supply; null when nothing is taxed (no registered seller, or no pincode yet). */
export type PricedTax = (CartTax & { placeOfSupply: PlaceOfSupply }) | null

/** The GST state code of a state name (the current code where a state had two: Andhra Pradesh 37), or null. */
function gstStateCodeOf(state: string): string | null {
  let code: string | null = null
  for (const [c, name] of Object.entries(GST_STATE_CODES)) if (!GST_CODES_WITHOUT_STATE.has(c) && sameState(name, state)) code = c
  return code
}

const percentOfBps = (bps: number) => `${bps / 100} %`

/** The tax money of a taxed line or charge, as rupee strings. */
export const taxAmountsView = (t: { taxable: bigint; cgst: bigint; sgst: bigint; igst: bigint; tax: bigint }) => ({
  taxableValue: rupees(t.taxable),
  cgst: rupees(t.cgst),
  sgst: rupees(t.sgst),
  igst: rupees(t.igst),
  totalTax: rupees(t.tax),
})

/** The tax block of a quote or an order answer: place of supply, totals, and the taxed charges. */
export function taxBlockView(tax: NonNullable<PricedTax>) {
  return {
    placeOfSupply: tax.placeOfSupply,
    intraState: tax.intraState,
    ...taxAmountsView(tax),
    charges: tax.charges.map((c) => ({ kind: c.charge, amount: rupees(c.amount), hsnCode: c.hsnCode, gstRateBps: c.rateBps, ...taxAmountsView(c) })),
  }
}

export class CheckoutService {
  readonly #db: Db
  readonly #clock: Deps['clock']

  readonly #codHistoryOf: CodHistoryOf
  readonly #supplierStatesOf: SupplierStatesOf
  readonly settingsCache: VersionedCache

  constructor(deps: ServiceDeps<'redisPrefix'>, ports: { codHistoryOf: CodHistoryOf; supplierStatesOf: SupplierStatesOf }, settingsCache: VersionedCache = createCheckoutSettingsCache(deps)) {
    this.#codHistoryOf = ports.codHistoryOf
    this.#supplierStatesOf = ports.supplierStatesOf
    this.settingsCache = settingsCache
    this.#db = deps.database.db
    this.#clock = deps.clock
  }

  #zoneForPincode(pincode: string, executor: Executor = this.#db) {
    return this.settingsCache.get(ZONES_SCOPE, pincode, () => checkoutRepo.zoneForPincode(executor, pincode))
  }

  #pricingSettings(partnerId: string, executor: Executor = this.#db) {
    return this.settingsCache.get(pricingScope(partnerId), '', async () => (await executor.select().from(partnerPricing).where(eq(partnerPricing.partnerId, partnerId)).limit(1))[0] ?? null)
  }

  #codRules(partnerId: string, executor: Executor = this.#db): Promise<CodRules | null> {
    return this.settingsCache.get(codRulesScope(partnerId), '', async () => (await executor.select().from(partnerCodRules).where(eq(partnerCodRules.partnerId, partnerId)).limit(1))[0] ?? null)
  }

  #codBlocked(partnerId: string, pincode: string, executor: Executor = this.#db): Promise<boolean> {
    return this.settingsCache.get(codBlockedScope(partnerId), pincode, async () => {
      const rows = await executor
        .select({ pincode: codBlockedPincodes.pincode })
        .from(codBlockedPincodes)
        .where(and(eq(codBlockedPincodes.partnerId, partnerId), eq(codBlockedPincodes.pincode, pincode)))
        .limit(1)
      return rows.length > 0
    })
  }

  /**
   * The partner's COD risk rules (cod-risk.ts) for this customer collecting `amount` at `pincode`:
   * the reasons it may not, and the most the amount-based rules let it collect. Rules and blocked
   * pincodes come from the settings cache; the customer's history is one query, made only when the
   * partner has limits. Order creation calls it in its transaction, after the customer's row is
   * locked (the placement flow's lockBuyer), so concurrent orders of one customer are counted one after
   * the other.
   */
  async codRisk(customer: { userId: string; partnerId: string }, pincode: string, amount: bigint, executor: Executor = this.#db) {
    const [rules, pincodeBlocked] = await Promise.all([this.#codRules(customer.partnerId, executor), this.#codBlocked(customer.partnerId, pincode, executor)])
    let history: CodHistory | null = null
    if (rulesNeedHistory(rules)) {
      // `== null`: rules cached before a rule existed lack its fields.
      const since = (days: number | null | undefined) => (days == null ? null : new Date(this.#clock.now().getTime() - days * 86_400_000))
      history = await this.#codHistoryOf(executor, customer.userId, since(rules.rtoWindowDays), since(rules.maxRefusedDeliveries == null ? null : rules.refusedWindowDays))
    }
    return codRiskReasons({ rules, history, pincodeBlocked, pincode, amount })
  }

  /** Null when the address's state may be its pincode's (pincode-state.ts), the 400 message otherwise; zones from the cache. */
  addressStateMismatch(address: { state: string; pincode: string }, field?: string, executor: Executor = this.#db) {
    return stateMismatch(executor, address, field, (pincode) => this.#zoneForPincode(pincode, executor))
  }

  /**
   * The cart's units (each line's product as its variant sells it), from the partner's catalogs.
   * Refused with a 400: a line repeating another's product and variant, an unknown product, a
   * `variantId` not of its product, a product with options named without its variant.
   */
  async loadCart(partnerId: string, items: CartItem[], db: Executor = this.#db) {
    const keys = items.map((i) => `${i.productId} ${i.variantId ?? defaultVariantId(i.productId)}`)
    const twice = keys.findIndex((key, i) => keys.indexOf(key) !== i)
    if (twice >= 0) {
      const { productId, variantId } = items[twice]!
      throw new AppError('BAD_REQUEST', variantId ? `items must not list variant ${variantId} of product ${productId} twice` : `items must not list product ${productId} twice`)
    }
    const found = await findCartProducts(db, activeCatalogIdsQuery(db, partnerId), items)
    const missing = items.find((_, i) => found[i] === 'NO_PRODUCT')
    if (missing) throw new AppError('BAD_REQUEST', `Product ${missing.productId} does not exist`)
    const problem = found.findIndex((f) => typeof f === 'string')
    if (problem >= 0) {
      const { productId, variantId } = items[problem]!
      throw new AppError(
        'BAD_REQUEST',
        found[problem] === 'VARIANT_REQUIRED'
          ? `items[${problem}].variantId is required: product ${productId} has several variants (GET /products/{slug}: variants[].id)`
          : `variantId ${variantId} is not a variant of product ${productId}`,
      )
    }
    const lines = items.map((i, index) => ({ ...i, product: found[index] as CartProduct }))
    const itemsTotal = sumPaise(lines.map((l) => lineTotal(l.product.sellingPrice, l.quantity)))
    const weightGrams = lines.reduce((sum, l) => sum + l.product.weightGrams * l.quantity, 0)
    return { lines, itemsTotal, weightGrams }
  }

  #quoteMethod(zone: DeliveryZone, method: DeliveryMethod, cart: { itemsTotal: bigint; weightGrams: number }) {
    const terms = methodTerms(zone, method)
    const now = this.#clock.now()
    return {
      method,
      available: terms.available,
      charge: rupees(terms.available ? shippingCharge({ slabs: terms.slabs, weightGrams: cart.weightGrams, itemsTotal: cart.itemsTotal, freeShippingThreshold: terms.free }) : 0n),
      estimatedDays: { min: terms.min, max: terms.max },
      estimatedDeliveryDate: terms.available ? estimatedDeliveryDate(now, zone.cutoffHour, terms.max) : null,
    }
  }

  #codReasons(found: Awaited<ReturnType<typeof checkoutRepo.zoneForPincode>>, amount: bigint): string[] {
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
    db: Executor = this.#db,
    balances: 'always' | 'when-used' = 'always',
    loaded?: Cart,
    shippingState?: string,
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
      const found = await this.#zoneForPincode(input.pincode, db)
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
      ? await applicableCoupon(db, { partnerId: customer.partnerId, userId: customer.userId, code: input.couponCode, itemsTotal: cart.itemsTotal, now: this.#clock.now() })
      : null
    const settings = await this.#pricingSettings(customer.partnerId, db)
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
    const tax = await this.#taxOf(cart, priced, input.pincode, shippingState, db)
    return { ...priced, balances: current, coupon, cart, tax }
  }

  /** A catalog's GST seller was registered or changed: every node forgets the sellers it cached. */
  gstSellersChanged(): Promise<void> {
    return this.settingsCache.invalidate(GST_SELLERS_SCOPE)
  }

  /**
   * The GST of a priced cart (decision 0021): each line at its product's resolved HSN code and rate,
   * CGST + SGST when its catalog's seller is in the place of supply's state, IGST otherwise. Lines of
   * a catalog without a registered seller are not taxed. With a registered seller, a product without
   * an HSN code or rate, or with a rate not in force now, is refused (never taxed as zero). Null
   * when nothing is taxed, or when no pincode says the place of supply yet (a quote without one).
   */
  async #taxOf(cart: Cart, priced: PricedCart, pincode: string | undefined, shippingState: string | undefined, db: Executor): Promise<PricedTax> {
    const catalogIds = [...new Set(cart.lines.map((l) => l.product.catalogId))]
    // Sellers and rates come from the settings cache: most catalogs' answer is "no seller", asked
    // by every quote and order.
    const sellers = new Map(await Promise.all(catalogIds.map(async (id) => [id, await this.settingsCache.get(GST_SELLERS_SCOPE, id, () => gstSellerOf(db, id))] as const)))
    const registered = catalogIds.filter((id) => sellers.get(id))
    if (registered.length === 0) return null
    const [inForce, found] = await Promise.all([
      this.settingsCache.get(GST_RATES_SCOPE, indiaDay(this.#clock.now()), async () => [...(await gstRatesInForceAt(db, this.#clock.now()))]).then((rates) => new Set(rates)),
      cartProductsTax(
        db,
        cart.lines.filter((l) => registered.includes(l.product.catalogId)).map((l) => l.product),
      ),
    ])
    // The taxed lines' resolved terms, by the line's position (two variants of one product may differ).
    const taxed = cart.lines.map((l) => registered.includes(l.product.catalogId))
    const terms = new Map<number, (typeof found)[number]>()
    let next = 0
    taxed.forEach((isTaxed, i) => isTaxed && terms.set(i, found[next++]!))
    const problems: string[] = []
    for (const [i] of cart.lines.entries()) {
      const product = terms.get(i)
      if (!product) continue
      const missing = [product.hsnCode === null ? 'no HSN code' : null, product.gstRateBps === null ? 'no GST rate' : null].filter((m) => m !== null)
      if (missing.length > 0) problems.push(`Product ${product.slug} has ${missing.join(' and ')}`)
      else if (!inForce.has(product.gstRateBps!)) problems.push(`Product ${product.slug} has a GST rate of ${percentOfBps(product.gstRateBps!)} that is not in force`)
    }
    if (problems.length > 0) {
      const fix = problems.length === 1 ? 'the merchant must set it before it can be sold' : 'the merchant must set them before they can be sold'
      throw new AppError('BAD_REQUEST', `${problems.join('; ')}; ${fix}`)
    }

    const place = await this.#placeOfSupply(pincode, shippingState, db)
    if (!place) return null
    const tax = taxCart({
      lines: priced.lines.map((l, i) => {
        const product = terms.get(i)
        const seller = sellers.get(cart.lines[i]!.product.catalogId)
        return {
          productId: l.productId,
          lineTotal: l.lineTotal,
          couponDiscount: l.couponDiscount,
          terms:
            product && seller
              ? { hsnCode: product.hsnCode!, rateBps: product.gstRateBps!, kind: sameState(seller.state, place.state) ? ('INTRA_STATE' as const) : ('INTER_STATE' as const) }
              : null,
        }
      }),
      shippingCharge: priced.shippingCharge,
      codFee: priced.codFee,
    })
    return tax && { ...tax, placeOfSupply: place }
  }

  /**
   * The place of supply of goods delivered to `pincode`: the shipping address's state where one is
   * given (an order's address, already checked against its pincode), else the pincode's state by the
   * serviceability data, else by its postal circle. Null without a pincode or a known state.
   */
  async #placeOfSupply(pincode: string | undefined, shippingState: string | undefined, db: Executor): Promise<PlaceOfSupply | null> {
    if (!pincode) return null
    const states = await statesOfPincode((p) => this.#zoneForPincode(p, db), pincode)
    const state = shippingState ? (states.find((s) => sameState(s, shippingState)) ?? shippingState.trim()) : states[0]
    if (!state) return null
    const stateCode = gstStateCodeOf(state)
    return { stateCode, state: stateCode ? GST_STATE_CODES[stateCode]! : state }
  }

  async serviceability(customer: { userId: string; partnerId: string }, input: { pincode: string; items: CartItem[] }) {
    const cart = await this.loadCart(customer.partnerId, input.items)
    const found = await this.#zoneForPincode(input.pincode)
    const serviceable = found?.zone.serviceable === true
    const cod = [...this.#codReasons(found, cart.itemsTotal), ...(await this.codRisk(customer, input.pincode, cart.itemsTotal)).reasons]
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
        ? (['STANDARD', 'EXPRESS'] as const).map((m) => this.#quoteMethod(found.zone, m, cart))
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
    const found = await this.#zoneForPincode(input.pincode)
    if (!found || !found.zone.serviceable) throw new AppError('BAD_REQUEST', `Pincode ${input.pincode} is not serviceable`)
    const quote = this.#quoteMethod(found.zone, input.deliveryMethod, cart)
    if (!quote.available) throw new AppError('BAD_REQUEST', `${input.deliveryMethod} delivery is not available for pincode ${input.pincode}`)
    return {
      pincode: input.pincode,
      deliveryMethod: input.deliveryMethod,
      charge: quote.charge,
      estimatedDays: quote.estimatedDays,
      estimatedDeliveryDate: quote.estimatedDeliveryDate!,
    }
  }

  /**
   * Prices a cart exactly as order creation will (same function, same inputs). Where the catalog
   * keeps stock at locations, the lines are taxed as the allocation would ship them now (decision
   * 0043): the order allocates for real and may differ if stock moves meanwhile; what is paid does not.
   */
  async quote(customer: { userId: string; partnerId: string }, input: QuoteInput) {
    const priced = await this.#bySupplier(await this.priceForCustomer(customer, input), input.pincode)
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
      tax: priced.tax && {
        ...taxBlockView(priced.tax),
        lines: priced.lines.flatMap((l, i) => {
          const line = priced.tax!.lines[i]
          return line ? [{ productId: l.productId, hsnCode: line.hsnCode, gstRateBps: line.rateBps, ...taxAmountsView(line) }] : []
        }),
      },
    }
  }

  /** The priced cart's tax as the stock locations would supply its lines (a catalog without any: as it is). */
  async #bySupplier<T extends { tax: PricedTax; cart: Cart; lines: PricedCart['lines']; shippingCharge: bigint; codFee: bigint }>(priced: T, pincode: string | undefined): Promise<T> {
    if (!priced.tax || !pincode) return priced
    const place = priced.tax.placeOfSupply
    const states = await this.#supplierStatesOf(
      this.#db,
      { pincode, state: place.state },
      priced.cart.lines.map((l) => ({ catalogId: l.product.catalogId, productId: l.productId, variantId: l.product.variantId, quantity: l.quantity })),
    )
    if (states.every((s) => s === undefined)) return priced
    return { ...priced, tax: retaxBySupplier(priced.tax, { lines: priced.lines, shippingCharge: priced.shippingCharge, codFee: priced.codFee }, states, place.state) }
  }

  async wallet(userId: string, page: number, limit: number) {
    const [balances, entries] = await Promise.all([ledgerBalances(this.#db, userId), ledgerPage(this.#db, userId, page, limit)])
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
  /**
   * The zone's reasons first, then the partner's risk rules for this customer (cod-risk.ts);
   * `maxCodAmount` is the most this customer may collect here: the zone's limit, lowered by the
   * rules (0 when one refuses COD whatever the amount).
   */
  async codEligibility(customer: { userId: string; partnerId: string }, input: { pincode: string; collectableAmount: bigint }) {
    const [found, risk] = await Promise.all([this.#zoneForPincode(input.pincode), this.codRisk(customer, input.pincode, input.collectableAmount)])
    const reasons = [...this.#codReasons(found, input.collectableAmount), ...risk.reasons]
    const usable = found?.zone.serviceable === true && found.zone.codAvailable
    const zoneLimit = usable ? found!.zone.codLimit : 0n
    return {
      eligible: reasons.length === 0,
      collectableAmount: rupees(input.collectableAmount),
      codFee: rupees(usable && input.collectableAmount > 0n ? found!.zone.codFee : 0n),
      maxCodAmount: rupees(risk.maxAmount !== null && risk.maxAmount < zoneLimit ? risk.maxAmount : zoneLimit),
      reasons,
    }
  }
}

