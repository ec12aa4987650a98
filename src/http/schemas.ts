// Schema pieces shared by the modules' schemas: one definition each, so an amount, an instant or a
// PIN code reads and validates the same on every route.
import { Type, type TSchema } from 'typebox'
import { HSN_OR_SAC_PATTERN } from '../lib/hsn.ts'
import { INDIAN_MOBILE_INPUT } from '../lib/phone.ts'

export const IndianMobile = (description = 'A 10-digit Indian mobile; +91 or 0 prefixes are accepted') =>
  Type.String({ pattern: INDIAN_MOBILE_INPUT, maxLength: 20, description, 'x-message': 'must be a valid Indian mobile number', examples: ['9876543210'] })

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
  Type.Union([Type.String({ pattern: '^\\d{1,13}(\\.\\d{1,2})?$', examples: ['1299.00'] }), Type.Number({ minimum: 0, maximum: 1e13 })], {
    'x-message': AMOUNT_MESSAGE,
    ...(description ? { description } : {}),
  })

/** A signed amount in a back-office request (an adjustment may take away). */
export const SignedMoneyInput = () =>
  Type.Union([Type.String({ pattern: '^-?\\d{1,13}(\\.\\d{1,2})?$', examples: ['-100.00'] }), Type.Number({ minimum: -1e13, maximum: 1e13 })], {
    'x-message': AMOUNT_MESSAGE,
  })

const PINCODE = { pattern: '^[1-9][0-9]{5}$', 'x-message': 'must be a 6-digit Indian PIN code', examples: ['560001'] }

/** A 6-digit Indian PIN code (the first digit is never 0). */
export const Pincode = Type.String({
  ...PINCODE,
  description: '6-digit Indian PIN code',
})

/** A PIN code in the address book: a wrong length has the spec's own length messages. */
export const AddressPincode = Type.String({ minLength: 6, maxLength: 6, ...PINCODE, description: '6-digit Indian PIN code' })

/**
 * Route `security` entries for the OpenAPI document. `public` is an explicit empty requirement: the
 * route takes no credential (or carries its own, a signature or a capability in the URL), and says so
 * rather than leaving readers and linters to guess.
 */
export const security = {
  public: [] as Record<string, string[]>[],
  apiKey: [{ apiKey: [] }],
  customer: [{ bearer: [], partnerId: [] }],
  partner: [{ partnerId: [], partnerSecret: [] }],
  admin: [{ bearer: [] }],
}

/** The size of one page of a list: 1 to `max`, `size` when absent. */
export const Limit = (max: number, size: number) => Type.Integer({ minimum: 1, maximum: max, default: size })

/**
 * The page and size of a list that was answered whole before it paged: neither given answers the
 * whole list, as before; either one asks for a page (lib/pagination.ts wholeOrPage).
 */
export const OptionalPageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, description: 'Page number (from 1). Leave out both page and limit for the whole list' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Page size, 1 to 100 (20 when only page is given). Leave out both page and limit for the whole list' })),
}

/** The page and size of a paged list (query string), with their defaults. */
export const PageQuery = {
  page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
  limit: Limit(100, 20),
}

const HSN_MESSAGE = 'must be an HSN code of 4, 6 or 8 digits or a SAC of 6 digits starting with 99'

/** An HSN code (goods: 4, 6 or 8 digits, chapters 01-98) or a SAC (services: 6 digits starting 99). */
export const HsnCode = Type.String({
  pattern: HSN_OR_SAC_PATTERN,
  maxLength: 8,
  description: 'HSN code (4, 6 or 8 digits) or SAC (6 digits starting 99)',
  'x-message': HSN_MESSAGE,
})

/** An HSN code or SAC, or null to clear it (inherit the category's). */
export const NullableHsnCode = Type.Union([HsnCode, Type.Null()], { 'x-message': `${HSN_MESSAGE}, or null` })

/** A GST rate in basis points (1800 = 18 %, 25 = 0.25 %); which rates are in force is data (tax module). */
export const GstRateBps = Type.Integer({ minimum: 0, maximum: 10_000, description: 'GST rate in basis points: 1800 = 18 %, 25 = 0.25 %' })

/** A GST rate in basis points, or null to clear it (inherit the category's). */
export const NullableGstRateBps = Type.Union([GstRateBps, Type.Null()], { 'x-message': 'must be an integer number of basis points from 0 to 10000 (1800 = 18 %), or null' })

/** The money of a taxed amount in an answer (GST, decision 0021): taxable value + total tax == the tax-inclusive amount. */
export const TaxAmountsFields = {
  taxableValue: Money('Taxable value: the tax-inclusive amount less its tax'),
  cgst: Money('Central GST (intra-state)'),
  sgst: Money('State or union territory GST (intra-state)'),
  igst: Money('Integrated GST (inter-state)'),
  totalTax: Money('cgst + sgst + igst'),
}

/** The GST breakdown of a quote or an order: totals are the sums of the taxed lines and charges. */
export const TaxBlockFields = {
  placeOfSupply: Type.Object(
    { stateCode: Nullable(Type.String({ description: 'GST state code, e.g. 29' })), state: Type.String() },
    { description: "The shipping address's state" },
  ),
  intraState: Type.Boolean({ description: "Every taxed supply is in the seller's state: CGST + SGST; otherwise IGST" }),
  ...TaxAmountsFields,
  charges: Type.Array(
    Type.Object({
      kind: Type.Enum(['SHIPPING', 'COD_FEE']),
      amount: Money('The charge, tax included'),
      hsnCode: Type.String({ description: 'The principal supply’s: the charge is part of a composite supply' }),
      gstRateBps: Type.Integer({ description: 'The principal supply’s rate, basis points' }),
      ...TaxAmountsFields,
    }),
    { description: 'Shipping and the COD fee, taxed at the rate of the principal supply (the line of highest taxable value)' },
  ),
}
