// /admin GST rates (role CATALOG, which fixes products): the rate slabs in force on a day, and a
// catalog's products that cannot be taxed yet.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedObjectEnvelope } from '../../http/envelope.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { PageQuery } from '../../http/schemas.ts'
import { sec, type TaxAdminDeps, tags } from './admin-route-shared.ts'
import { CatalogParams, MissingTax, RateSlab } from './schemas.ts'

export function taxRateAdminRoutes(app: RouteApp, { tax, guards }: TaxAdminDeps): void {
  const catalogRole = { preValidation: guards.admin('CATALOG') }

  app.get(
    '/admin/tax/rates',
    {
      ...catalogRole,
      schema: {
        operationId: 'adminListTaxRates',
        tags,
        security: sec,
        summary: 'GST rate slabs in force on a day (default today, in India)',
        querystring: Type.Object({ on: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD' })) }),
        response: { 200: Envelope(Type.Array(RateSlab)), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ok(await tax.slabsInForce(request.query.on), 'GST rates retrieved'),
  )

  app.get(
    '/admin/catalogs/:catalogId/tax/missing',
    {
      ...catalogRole,
      schema: {
        operationId: 'adminListUntaxableProducts',
        tags,
        security: sec,
        summary: 'Active products that cannot be taxed: no HSN code, no GST rate, or a rate no longer in force',
        params: CatalogParams,
        querystring: Type.Object(PageQuery),
        response: { 200: PagedObjectEnvelope(MissingTax), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { page, limit } = request.query
      const { data, meta } = await tax.missingTax(request.params.catalogId, { page, limit })
      return { statusCode: 200, message: 'Products without GST data', data, meta }
    },
  )
}
