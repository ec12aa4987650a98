// Fulfilment in the back office (admin bearer, role SUPPORT or ADMIN; decision 0024): book parcels
// for an order's lines, see, track, cancel one, print its label, and the day's pick list. Each
// resource's routes are in their own file (*-admin-routes.ts); this plugin registers them, in this order.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Guards } from '../../http/guards.ts'
import { carrierRequestAdminRoutes } from './carrier-request-admin-routes.ts'
import { printAdminRoutes } from './print-admin-routes.ts'
import type { ShippingService } from './service.ts'
import { shipmentAdminRoutes } from './shipment-admin-routes.ts'
import { shipmentStatusAdminRoutes } from './shipment-status-admin-routes.ts'
import { zoneRuleAdminRoutes } from './zone-rule-admin-routes.ts'

export const shippingAdminRoutes: FastifyPluginAsyncTypebox<{ shipping: ShippingService; guards: Guards }> = async (app, { shipping, guards }) => {
  shipmentAdminRoutes(app, { shipping, guards })
  carrierRequestAdminRoutes(app, { shipping, guards })
  zoneRuleAdminRoutes(app, { shipping, guards })
  shipmentStatusAdminRoutes(app, { shipping, guards })
  printAdminRoutes(app, { shipping, guards })
}
