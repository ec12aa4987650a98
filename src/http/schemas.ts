// Small schema pieces shared by routes.
import { Type } from 'typebox'
import { INDIAN_MOBILE_INPUT } from '../lib/phone.ts'

export const IndianMobile = (description = 'A 10-digit Indian mobile; +91 or 0 prefixes are accepted') =>
  Type.String({ pattern: INDIAN_MOBILE_INPUT, maxLength: 20, description, 'x-message': 'must be a valid Indian mobile number' })

export const Email = () => Type.String({ format: 'email', maxLength: 254 })

/** Route `security` entries for the OpenAPI document. */
export const security = {
  apiKey: [{ apiKey: [] }],
  customer: [{ bearer: [], partnerId: [] }],
  partner: [{ partnerId: [], partnerSecret: [] }],
  admin: [{ bearer: [] }],
}

/** The page and size of a paged list (query string), with their defaults. */
export const PageQuery = {
  page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
}
