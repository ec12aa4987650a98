// What the checkout module's route files share: their OpenAPI tags, the admin security entry and
// the partner path parameter of the back office's routes.
import { Type } from 'typebox'
import { security } from '../../http/schemas.ts'

export const checkoutTags = ['Checkout']
export const adminTags = ['Admin: checkout']
// Cash-on-delivery risk rules (issue #25): their own tag in the back office.
export const codTags = ['Admin: cash on delivery']
export const sec = security.admin
export const PartnerParams = Type.Object({ partnerId: Type.String({ maxLength: 100 }) })
