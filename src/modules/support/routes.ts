// /support/tickets (customer token and x-partner-id) and /admin/support/tickets (SUPPORT or ADMIN).
// The routes are in customer-routes.ts, admin-routes.ts and partner-routes.ts; this plugin registers them, in order.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Guards } from '../../http/guards.ts'
import { supportAdminRoutes } from './admin-routes.ts'
import { supportCustomerRoutes } from './customer-routes.ts'
import { supportPartnerRoutes } from './partner-routes.ts'
import type { SupportService } from './service.ts'

export const supportRoutes: FastifyPluginAsyncTypebox<{ support: SupportService; guards: Guards }> = async (app, { support, guards }) => {
  supportCustomerRoutes(app, { support, guards })
  supportAdminRoutes(app, { support, guards })
  supportPartnerRoutes(app, { support, guards })
}
