// /admin GST back office: the seller of each catalog (role ADMIN), the rates in force and the
// products that cannot be taxed yet (role CATALOG, which fixes them).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedObjectEnvelope } from '../../http/envelope.ts'
import type { Guards } from '../../http/guards.ts'
import { PageQuery, security } from '../../http/schemas.ts'
import { gstr1Csv } from './gstr1.ts'
import { CatalogParams, Gstr1Report, MissingTax, RateSlab, Seller, SellerInput } from './schemas.ts'
import type { TaxService } from './service.ts'

export const taxAdminRoutes: FastifyPluginAsyncTypebox<{ tax: TaxService; guards: Guards }> = async (app, { tax, guards }) => {
  const adminOnly = { preValidation: guards.admin() }
  const catalogRole = { preValidation: guards.admin('CATALOG') }
  const tags = ['Admin: GST']
  const sec = security.admin

  app.get(
    '/admin/catalogs/:catalogId/seller',
    { ...adminOnly, schema: { operationId: 'adminGetSeller', tags, security: sec, summary: "The catalog's GST seller", params: CatalogParams, response: { 200: Envelope(Seller), ...errorResponses(401, 403, 404) } } },
    async (request) => ok(await tax.getSeller(request.params.catalogId), 'Seller retrieved'),
  )

  app.put(
    '/admin/catalogs/:catalogId/seller',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminSetSeller',
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

  app.get(
    '/admin/catalogs/:catalogId/tax/gstr1',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminGetGstr1Report',
        tags,
        security: sec,
        summary: "GST report of the catalog's seller for a date range, shaped like GSTR-1's B2C summaries (JSON or CSV)",
        description:
          'Documents count on their day of issue in India. B2CS sums invoices less credit notes by place of supply, supply type and rate; B2CL lists inter-state invoices above the B2C (large) limit of their date (₹1,00,000 from 1 August 2024); CDNUR the credit notes against those. `?format=csv` answers one CSV table with a `section` column.',
        params: CatalogParams,
        querystring: Type.Object({
          from: Type.String({ format: 'date', description: 'First day, YYYY-MM-DD (India), from 2017-07-01 (GST began)' }),
          to: Type.String({ format: 'date', description: 'Last day, included' }),
          format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')], { description: 'json (the default) or csv' })),
        }),
        produces: ['application/json', 'text/csv'],
        response: {
          200: {
            description: 'The report',
            content: { 'application/json': { schema: Envelope(Gstr1Report) }, 'text/csv': { schema: Type.String() } },
          },
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { from, to, format } = request.query
      const report = await tax.gstr1(request.params.catalogId, from, to)
      if (format !== 'csv') return ok(report, 'GST report')
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="gstr1-b2c-${from}-${to}.csv"`).send(gstr1Csv(report))
    },
  )
}
