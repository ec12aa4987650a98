// Serviceability, delivery quotes and COD eligibility for a customer's cart. The rules are data
// (delivery zones); the arithmetic is in delivery.ts.
import type { Deps } from '../../deps.ts'
import { AppError } from '../../lib/errors.ts'
import { formatPaise } from '../../lib/money.ts'
import { type CartProduct, findCartProducts } from '../catalog/index.ts'
import { activeCatalogIds } from '../partners/index.ts'
import { estimatedDeliveryDate, shippingCharge } from './delivery.ts'
import { checkoutRepo, type DeliveryZone } from './repo.ts'

export type DeliveryMethod = 'STANDARD' | 'EXPRESS'
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

export function createCheckoutService({ database, clock }: Deps) {
  const db = database.db

  /** The cart's products, from the partner's catalogs; unknown ids and duplicate lines are refused. */
  async function loadCart(partnerId: string, items: CartItem[]) {
    const ids = items.map((i) => i.productId)
    const duplicate = ids.find((id, i) => ids.indexOf(id) !== i)
    if (duplicate) throw new AppError('BAD_REQUEST', `items must not list product ${duplicate} twice`)
    const found = await findCartProducts(db, await activeCatalogIds(db, partnerId), ids)
    const byId = new Map(found.map((p) => [p.id, p]))
    const missing = ids.find((id) => !byId.has(id))
    if (missing) throw new AppError('BAD_REQUEST', `Product ${missing} does not exist`)
    const lines = items.map((i) => ({ ...i, product: byId.get(i.productId)! }))
    const itemsTotal = lines.reduce((sum, l) => sum + l.product.sellingPrice * BigInt(l.quantity), 0n)
    const weightGrams = lines.reduce((sum, l) => sum + l.product.weightGrams * l.quantity, 0)
    return { lines, itemsTotal, weightGrams }
  }

  function quoteMethod(zone: DeliveryZone, method: DeliveryMethod, cart: { itemsTotal: bigint; weightGrams: number }) {
    const terms = methodTerms(zone, method)
    const now = clock.now()
    return {
      method,
      available: terms.available,
      charge: rupees(terms.available ? shippingCharge({ slabs: terms.slabs, weightGrams: cart.weightGrams, itemsTotal: cart.itemsTotal, freeShippingThreshold: terms.free }) : 0n),
      estimatedDays: { min: terms.min, max: terms.max },
      estimatedDeliveryDate: terms.available ? estimatedDeliveryDate(now, zone.cutoffHour, terms.max) : null,
    }
  }

  function codReasons(found: Awaited<ReturnType<typeof checkoutRepo.zoneForPincode>>, amount: bigint): string[] {
    if (!found || !found.zone.serviceable) return ['Pincode is not serviceable']
    if (!found.zone.codAvailable) return ['Cash on delivery is not available for this pincode']
    if (amount > found.zone.codLimit) return [`Cash on delivery is limited to ₹${rupees(found.zone.codLimit)} for this pincode`]
    return []
  }

  return {
    loadCart,

    async serviceability(partnerId: string, input: { pincode: string; items: CartItem[] }) {
      const cart = await loadCart(partnerId, input.items)
      const found = await checkoutRepo.zoneForPincode(db, input.pincode)
      const serviceable = found?.zone.serviceable === true
      const cod = codReasons(found, cart.itemsTotal)
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
          ? (['STANDARD', 'EXPRESS'] as const).map((m) => quoteMethod(found.zone, m, cart))
          : (['STANDARD', 'EXPRESS'] as const).map((method) => ({ method, available: false, charge: '0.00', estimatedDays: { min: 0, max: 0 }, estimatedDeliveryDate: null })),
        paymentOptions: [
          { mode: 'PREPAID' as const, available: serviceable, ...(serviceable ? {} : { reason: 'Pincode is not serviceable' }) },
          { mode: 'COD' as const, available: cod.length === 0, ...(cod.length ? { reason: cod[0] } : {}) },
        ],
      }
    },

    async deliveryQuote(partnerId: string, input: { pincode: string; deliveryMethod: DeliveryMethod; items: CartItem[] }) {
      const cart = await loadCart(partnerId, input.items)
      const inactive = cart.lines.find((l) => !l.product.isActive)
      if (inactive) throw new AppError('BAD_REQUEST', `Product ${inactive.productId} is not available`)
      const found = await checkoutRepo.zoneForPincode(db, input.pincode)
      if (!found || !found.zone.serviceable) throw new AppError('BAD_REQUEST', `Pincode ${input.pincode} is not serviceable`)
      const quote = quoteMethod(found.zone, input.deliveryMethod, cart)
      if (!quote.available) throw new AppError('BAD_REQUEST', `${input.deliveryMethod} delivery is not available for pincode ${input.pincode}`)
      return {
        pincode: input.pincode,
        deliveryMethod: input.deliveryMethod,
        charge: quote.charge,
        estimatedDays: quote.estimatedDays,
        estimatedDeliveryDate: quote.estimatedDeliveryDate!,
      }
    },

    async codEligibility(input: { pincode: string; collectableAmount: bigint }) {
      const found = await checkoutRepo.zoneForPincode(db, input.pincode)
      const reasons = codReasons(found, input.collectableAmount)
      const usable = found?.zone.serviceable === true && found.zone.codAvailable
      return {
        eligible: reasons.length === 0,
        collectableAmount: rupees(input.collectableAmount),
        codFee: rupees(usable ? found!.zone.codFee : 0n),
        maxCodAmount: rupees(usable ? found!.zone.codLimit : 0n),
        reasons,
      }
    },
  }
}

export type CheckoutService = ReturnType<typeof createCheckoutService>
