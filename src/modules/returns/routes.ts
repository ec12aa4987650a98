// /returns (customer token and x-partner-id) and /admin/returns (SUPPORT or ADMIN).
// The routes are in customer-routes.ts, admin-routes.ts and partner-routes.ts; this plugin registers them, in order.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Guards } from '../../http/guards.ts'
import { returnAdminRoutes } from './admin-routes.ts'
import { returnCustomerRoutes } from './customer-routes.ts'
import { returnPartnerRoutes } from './partner-routes.ts'
import type { ReturnService } from './service.ts'

export const returnRoutes: FastifyPluginAsyncTypebox<{ returns: ReturnService; guards: Guards }> = async (app, { returns, guards }) => {
  returnCustomerRoutes(app, { returns, guards })
  returnAdminRoutes(app, { returns, guards })
  returnPartnerRoutes(app, { returns, guards })
}
