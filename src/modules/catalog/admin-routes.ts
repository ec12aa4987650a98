// /admin catalog management (roles CATALOG or ADMIN): catalogs, categories, products, variants, stock,
// bulk import (JSON, or CSV of products) and search analytics. Each resource's routes are in their
// own file (*-admin-routes.ts); this plugin registers them, in this order.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Guards } from '../../http/guards.ts'
import type { CatalogAdminService } from './admin-service.ts'
import { catalogsAdminRoutes } from './catalogs-admin-routes.ts'
import { categoryAdminRoutes } from './category-admin-routes.ts'
import { importAdminRoutes } from './import-admin-routes.ts'
import { productAdminRoutes } from './product-admin-routes.ts'
import { searchAnalyticsAdminRoutes } from './search-analytics-admin-routes.ts'
import { variantAdminRoutes } from './variant-admin-routes.ts'

export const catalogAdminRoutes: FastifyPluginAsyncTypebox<{ admin: CatalogAdminService; guards: Guards }> = async (app, { admin, guards }) => {
  // CSV imports arrive as text; everything else stays JSON-only.
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: 20 * 1024 * 1024 }, (_req, body, done) => done(null, body))

  catalogsAdminRoutes(app, { admin, guards })
  categoryAdminRoutes(app, { admin, guards })
  productAdminRoutes(app, { admin, guards })
  variantAdminRoutes(app, { admin, guards })
  importAdminRoutes(app, { admin, guards })
  searchAnalyticsAdminRoutes(app, { admin, guards })
}
