// /admin/catalogs/{catalogId}/search-analytics: a catalog's top search queries and those that found nothing.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { Limit, Time } from '../../http/schemas.ts'
import { type CatalogAdminDeps, catalogAdminCommon, sec, tags } from './admin-route-shared.ts'
import { CatalogParams, QueryStat } from './schemas.ts'

export function searchAnalyticsAdminRoutes(app: RouteApp, { admin, guards }: CatalogAdminDeps): void {
  const common = catalogAdminCommon(guards)

  app.get(
    '/admin/catalogs/:catalogId/search-analytics',
    {
      ...common,
      schema: {
        operationId: 'adminGetSearchAnalytics',
        tags,
        security: sec,
        summary: 'Top search queries and the queries that found nothing',
        params: CatalogParams,
        querystring: Type.Object({
          days: Limit(365, 30),
          limit: Limit(100, 20),
        }),
        response: {
          200: Envelope(Type.Object({ since: Time, topQueries: Type.Array(QueryStat), zeroResultQueries: Type.Array(QueryStat) })),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ok(await admin.searchAnalytics(request.params.catalogId, request.query.days, request.query.limit), 'Search analytics'),
  )
}
