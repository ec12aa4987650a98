// Back office for checkout (admin bearer): delivery zones and pincodes, partner pricing settings
// and coupons (role ADMIN). Wallet Cash / Reward Points adjustments are the ledgers module's.
// Each resource's routes (zones, pricing, coupons, COD rules, COD blocked pincodes) are in their own
// file; this plugin registers them in that order.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Guards } from '../../http/guards.ts'
import type { CheckoutAdminService } from './admin-service.ts'
import { codBlockedPincodeAdminRoutes } from './cod-blocked-pincode-admin-routes.ts'
import { codRulesAdminRoutes } from './cod-rules-admin-routes.ts'
import { couponAdminRoutes } from './coupon-admin-routes.ts'
import { pricingAdminRoutes } from './pricing-admin-routes.ts'
import { zoneAdminRoutes } from './zone-admin-routes.ts'

export const checkoutAdminRoutes: FastifyPluginAsyncTypebox<{ admin: CheckoutAdminService; guards: Guards }> = async (app, { admin, guards }) => {
  zoneAdminRoutes(app, { admin, guards })
  pricingAdminRoutes(app, { admin, guards })
  couponAdminRoutes(app, { admin, guards })
  codRulesAdminRoutes(app, { admin, guards })
  codBlockedPincodeAdminRoutes(app, { admin, guards })
}
