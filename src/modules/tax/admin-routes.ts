// /admin GST back office: the seller of each catalog (role ADMIN), the rates in force and the
// products that cannot be taxed yet (role CATALOG, which fixes them).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedObjectEnvelope } from '../../http/envelope.ts'
import type { Guards } from '../../http/guards.ts'
import { PageQuery, security } from '../../http/schemas.ts'
import { CatalogParams, MissingTax, RateSlab, Seller, SellerInput } from './schemas.ts'
import type { TaxService } from './service.ts'

export const taxAdminRoutes: FastifyPluginAsyncTypebox<{ tax: TaxService; guards: Guards }> = async (app, { tax, guards }) => {
  const adminOnly = { preValidation: guards.admin() }
  const catalogRole = { preValidation: guards.admin('CATALOG') }
  const tags = ['Admin: GST']
  const sec = security.admin

  app.get(
    '/admin/catalogs/:catalogId/seller',
    { ...adminOnly, schema: { tags, security: sec, summary: "The catalog's GST seller", params: CatalogParams, response: { 200: Envelope(Seller), ...errorResponses(401, 403, 404) } } },
    async (request) => ok(await tax.getSeller(request.params.catalogId), 'Seller retrieved'),
  )

  app.put(
    '/admin/catalogs/:catalogId/seller',
    {
      ...adminOnly,
      schema: {
        tags,
        security: sec,
        summary: "Register or replace the catalog's GST seller",
        description: "The GSTIN is checked (state code, PAN shape, entity number, Z, check character); its state must be the registered address's, and the pincode must be in that state.",
        params: CatalogParams,
        body: SellerInput,
        response: { 200: Envelope(Seller), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ok(await tax.putSeller(request.params.catalogId, request.body), 'Seller saved'),
  )

  app.get(
    '/admin/tax/rates',
    {
      ...catalogRole,
      schema: {
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
