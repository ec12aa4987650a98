// What POST /orders is given, and the checks of it that a schema cannot express: the return URL's
// origin, the alternate phone, and the shipping address (a saved one, or a new one whose state must
// match its pincode).
import type { Executor } from '../../db/client.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { normalizeIndianMobile } from '../../lib/phone.ts'
import type { CheckoutService, DeliveryMethod } from '../../modules/checkout/index.ts'
import { findAddress } from '../../modules/customers/index.ts'
import type { CustomerRef, ShippingAddress } from '../../modules/orders/index.ts'
import { partnerReturnOrigins } from '../../modules/partners/index.ts'

export interface CreateOrderInput {
  items: { productId: string; variantId?: string; quantity: number }[]
  shippingAddress: Partial<ShippingAddress> & { addressId?: string; landmark: string }
  alternatePhone?: string
  paymentMode?: 'PREPAID' | 'COD'
  deliveryMethod?: DeliveryMethod
  couponCode?: string
  useRewardPoints?: boolean
  useWalletCash?: boolean
  paymentReturnUrl?: string
}

const ADDRESS_FIELDS = ['name', 'phone', 'line1', 'city', 'state', 'pincode'] as const

/** A return URL must be absolute http(s) and, when the partner registered origins, on one of them. */
export async function checkReturnUrl(db: Executor, partnerId: string, returnUrl: string | undefined) {
  if (returnUrl === undefined) return
  let parsed: URL
  try {
    parsed = new URL(returnUrl)
  } catch {
    throw new AppError('BAD_REQUEST', 'Validation failed', ['paymentReturnUrl must be a URL address'])
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new AppError('BAD_REQUEST', 'Validation failed', ['paymentReturnUrl must be an absolute http or https URL'])
  }
  const origins = await partnerReturnOrigins(db, partnerId)
  if (origins.length > 0 && !origins.includes(parsed.origin)) {
    throw new AppError('BAD_REQUEST', `paymentReturnUrl origin ${parsed.origin} is not registered for this partner`)
  }
}

/** The alternate phone normalised (null when not sent); 400 when it is not an Indian mobile. */
export function alternatePhoneOf(input: Pick<CreateOrderInput, 'alternatePhone'>): string | null {
  const alternatePhone = input.alternatePhone === undefined ? null : normalizeIndianMobile(input.alternatePhone)
  if (input.alternatePhone !== undefined && !alternatePhone) {
    throw new AppError('BAD_REQUEST', 'Validation failed', ['alternatePhone must be a valid Indian mobile number'])
  }
  return alternatePhone
}

/** The address the order ships to: a saved address with the profile's name and phone, or the one sent, checked. */
export async function shippingAddressFor(
  tx: Executor,
  checkout: CheckoutService,
  customer: CustomerRef,
  name: string,
  phone: string,
  input: CreateOrderInput['shippingAddress'],
): Promise<ShippingAddress> {
  const landmark = input.landmark.trim()
  if (input.addressId) {
    const extra = ADDRESS_FIELDS.filter((f) => input[f] !== undefined)
    if (extra.length) throw new AppError('BAD_REQUEST', 'Validation failed', extra.map((f) => `shippingAddress.${f} must not be sent with shippingAddress.addressId`))
    const saved = await findAddress(tx, customer.userId, input.addressId)
    if (!saved) throw notFound('Address')
    return { name, phone, line1: saved.line1, line2: saved.line2, landmark, city: saved.city, state: saved.state, pincode: saved.pincode }
  }
  const missing = ADDRESS_FIELDS.filter((f) => !input[f]?.trim())
  if (missing.length) throw new AppError('BAD_REQUEST', 'Validation failed', missing.map((f) => `shippingAddress.${f} should not be empty`))
  const normalized = normalizeIndianMobile(input.phone!)
  if (!normalized) throw new AppError('BAD_REQUEST', 'Validation failed', ['shippingAddress.phone must be a valid Indian mobile number'])
  const mismatch = await checkout.addressStateMismatch({ state: input.state!, pincode: input.pincode! }, 'shippingAddress.state', tx)
  if (mismatch) throw new AppError('BAD_REQUEST', 'Validation failed', [mismatch])
  return {
    name: input.name!.trim(),
    phone: normalized,
    line1: input.line1!.trim(),
    line2: input.line2?.trim() ?? '',
    landmark,
    city: input.city!.trim(),
    state: input.state!.trim(),
    pincode: input.pincode!,
  }
}
