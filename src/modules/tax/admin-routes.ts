// /admin GST back office: GST registrations and the one each catalog sells under, GSTR-1 per GSTIN
// and period (role ADMIN: registering a GSTIN and filing are legal acts), the rates in force and the
// products that cannot be taxed yet (role CATALOG, which fixes them). Each resource's routes are in
// their own file (*-admin-routes.ts); this plugin registers them, in this order.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Guards } from '../../http/guards.ts'
import { catalogGstr1AdminRoutes, gstr1AdminRoutes } from './gstr1-admin-routes.ts'
import { taxRateAdminRoutes } from './rate-admin-routes.ts'
import { registrationAdminRoutes } from './registration-admin-routes.ts'
import { sellerAdminRoutes } from './seller-admin-routes.ts'
import type { TaxService } from './service.ts'

export const taxAdminRoutes: FastifyPluginAsyncTypebox<{ tax: TaxService; guards: Guards }> = async (app, { tax, guards }) => {
  sellerAdminRoutes(app, { tax, guards })
  registrationAdminRoutes(app, { tax, guards })
  gstr1AdminRoutes(app, { tax, guards })
  taxRateAdminRoutes(app, { tax, guards })
  catalogGstr1AdminRoutes(app, { tax, guards })
}
