// Schema pieces shared by the modules' schemas: one definition each, so an amount, an instant or a
// PIN code reads and validates the same on every route.
import { Type, type TSchema } from 'typebox'
import { INDIAN_MOBILE_INPUT } from '../lib/phone.ts'

export const IndianMobile = (description = 'A 10-digit Indian mobile; +91 or 0 prefixes are accepted') =>
  Type.String({ pattern: INDIAN_MOBILE_INPUT, maxLength: 20, description, 'x-message': 'must be a valid Indian mobile number' })

export const Email = () => Type.String({ format: 'email', maxLength: 254 })

/** An instant in an answer: ISO 8601 UTC. */
export const Time = Type.String({ format: 'date-time' })

/** A value or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

/** An amount in an answer: rupees as a decimal string with two decimals (paise inside, lib/money.ts). */
export const Money = (what?: string) =>
  Type.String({ description: what ? `${what}, rupees with two decimals` : 'Rupees with two decimals', examples: ['1299.00'] })

const AMOUNT_MESSAGE = 'must be an amount with at most two decimals'

/** An amount in a back-office request: a decimal string such as "1299.00" or a number, at most two decimals. */
export const MoneyInput = (description?: string) =>
  Type.Union([Type.String({ pattern: '^\\d{1,13}(\\.\\d{1,2})?$' }), Type.Number({ minimum: 0, maximum: 1e13 })], {
    'x-message': AMOUNT_MESSAGE,
    ...(description ? { description } : {}),
  })

/** A signed amount in a back-office request (an adjustment may take away). */
export const SignedMoneyInput = () =>
  Type.Union([Type.String({ pattern: '^-?\\d{1,13}(\\.\\d{1,2})?$' }), Type.Number({ minimum: -1e13, maximum: 1e13 })], {
    'x-message': AMOUNT_MESSAGE,
  })

const PINCODE = { pattern: '^[1-9][0-9]{5}$', 'x-message': 'must be a 6-digit Indian PIN code' }

/** A 6-digit Indian PIN code (the first digit is never 0). */
export const Pincode = Type.String({
  ...PINCODE,
  description: '6-digit Indian PIN code',
})

/** A PIN code in the address book: a wrong length has the spec's own length messages. */
export const AddressPincode = Type.String({ minLength: 6, maxLength: 6, ...PINCODE, description: '6-digit Indian PIN code' })

/** Route `security` entries for the OpenAPI document. */
export const security = {
  apiKey: [{ apiKey: [] }],
  customer: [{ bearer: [], partnerId: [] }],
  partner: [{ partnerId: [], partnerSecret: [] }],
  admin: [{ bearer: [] }],
}

/** The size of one page of a list: 1 to `max`, `size` when absent. */
export const Limit = (max: number, size: number) => Type.Integer({ minimum: 1, maximum: max, default: size })

/** The page and size of a paged list (query string), with their defaults. */
export const PageQuery = {
  page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
  limit: Limit(100, 20),
}
