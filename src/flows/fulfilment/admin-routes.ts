// Fulfilment in the back office (admin bearer, role SUPPORT or ADMIN; decision 0024): book parcels
// for an order's lines, see, track, cancel one, print its label, the day's pick list, and the carrier
// callbacks kept unapplied. Each
// resource's routes are in their own file (*-admin-routes.ts); this plugin registers them, in this order.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { callbackAdminRoutes } from './callback-admin-routes.ts'
import { carrierRequestAdminRoutes } from './carrier-request-admin-routes.ts'
import { printAdminRoutes } from './print-admin-routes.ts'
import type { ShippingAdminDeps } from './admin-route-shared.ts'
import { shipmentAdminRoutes } from './shipment-admin-routes.ts'
import { shipmentStatusAdminRoutes } from './shipment-status-admin-routes.ts'
import { zoneRuleAdminRoutes } from './zone-rule-admin-routes.ts'

export const shippingAdminRoutes: FastifyPluginAsyncTypebox<ShippingAdminDeps> = async (app, deps) => {
  shipmentAdminRoutes(app, deps)
  carrierRequestAdminRoutes(app, deps)
  zoneRuleAdminRoutes(app, deps)
  shipmentStatusAdminRoutes(app, deps)
  printAdminRoutes(app, deps)
  callbackAdminRoutes(app, deps)
}
