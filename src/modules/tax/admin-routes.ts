// /admin GST back office: GST registrations and the one each catalog sells under, GSTR-1 per GSTIN
// and period (role ADMIN: registering a GSTIN and filing are legal acts), the rates in force and the
// products that cannot be taxed yet (role CATALOG, which fixes them).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged, PagedObjectEnvelope } from '../../http/envelope.ts'
import type { Guards } from '../../http/guards.ts'
import { PageQuery, security } from '../../http/schemas.ts'
import { gstr1Csv, gstr1PortalJson } from './gstr1.ts'
import { CatalogParams, Gstr1PortalFile, Gstr1Query, Gstr1Report, MissingTax, RateSlab, Registration, RegistrationInput, RegistrationParams, RegistrationPatch, Seller, SellerInput } from './schemas.ts'
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
        summary: "Set the catalog's GST seller by GSTIN",
        description:
          "The GSTIN is checked (state code, PAN shape, entity number, Z, check character); its state must be the registered address's, and the pincode must be in that state. The catalog is pointed at the GST registration of that GSTIN, created if there is none, its names and address brought up to date otherwise: one GSTIN is one registration and one document series, however many catalogs use it. The catalog's later documents are issued by it; past documents never move.",
        params: CatalogParams,
        body: SellerInput,
        response: { 200: Envelope(Seller), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ok(await tax.putSeller(request.params.catalogId, request.body), 'Seller saved'),
  )

  app.put(
    '/admin/catalogs/:catalogId/gst-registration',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminSetCatalogRegistration',
        tags,
        security: sec,
        summary: 'Point the catalog at an existing GST registration',
        description: "The catalog's later documents are issued and numbered by that registration; past documents stay with the one that issued them.",
        params: CatalogParams,
        body: Type.Object({ registrationId: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: Envelope(Seller), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ok(await tax.linkCatalog(request.params.catalogId, request.body.registrationId), 'Seller saved'),
  )

  app.get(
    '/admin/gst/registrations',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminListGstRegistrations',
        tags,
        security: sec,
        summary: 'GST registrations, by GSTIN',
        querystring: Type.Object({ ...PageQuery, search: Type.Optional(Type.String({ maxLength: 100, description: 'Part of the GSTIN, legal or trade name' })) }),
        response: { 200: PagedEnvelope(Registration), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, limit, search } = request.query
      const { data, meta } = await tax.listRegistrations(search, { page, limit })
      return paged(data, meta, 'GST registrations retrieved')
    },
  )

  app.post(
    '/admin/gst/registrations',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminCreateGstRegistration',
        tags,
        security: sec,
        summary: 'Register a GSTIN: its documents are numbered in its own series',
        description: 'The GSTIN is checked as for a seller; 409 when it is registered already (one GSTIN is one registration).',
        body: RegistrationInput,
        response: { 201: Envelope(Registration), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(ok(await tax.createRegistration(request.body), 'GST registration created', 201)),
  )

  app.get(
    '/admin/gst/registrations/:registrationId',
    { ...adminOnly, schema: { operationId: 'adminGetGstRegistration', tags, security: sec, summary: 'One GST registration, with the catalogs selling under it', params: RegistrationParams, response: { 200: Envelope(Registration), ...errorResponses(401, 403, 404) } } },
    async (request) => ok(await tax.getRegistration(request.params.registrationId), 'GST registration retrieved'),
  )

  app.patch(
    '/admin/gst/registrations/:registrationId',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminUpdateGstRegistration',
        tags,
        security: sec,
        summary: 'Change names, address, series prefixes or filing frequency (never the GSTIN)',
        description: 'Issued documents keep the details they were issued with. A new prefix applies to later documents, and their serials go on; a prefix too long for the serials this financial year has reached is a 400.',
        params: RegistrationParams,
        body: RegistrationPatch,
        response: { 200: Envelope(Registration), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ok(await tax.updateRegistration(request.params.registrationId, request.body), 'GST registration updated'),
  )

  app.get(
    '/admin/gst/gstr1',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminGetGstr1',
        tags,
        security: sec,
        summary: 'GSTR-1 of a GSTIN for a return period: JSON, CSV, or the file the GST offline tool imports',
        description:
          'From the documents the registration issued on the period\'s days (India), whichever catalog sold: B2CS (Table 7), B2CL (5), CDNUR (9B), nil-rated (8), HSN summary (12), documents issued (13) and supplies through e-commerce operators (14). `format=portal` answers the offline tool\'s JSON as a download, not in the envelope. An unknown GSTIN, a malformed `fp`, a period before July 2017 or not begun yet, or a month that does not end a quarter for a quarterly filer: 400 naming the field.',
        querystring: Gstr1Query,
        produces: ['application/json', 'text/csv'],
        response: {
          200: {
            description: 'The return',
            content: { 'application/json': { schema: Type.Union([Envelope(Gstr1Report), Gstr1PortalFile]) }, 'text/csv': { schema: Type.String() } },
          },
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const { gstin, fp, format } = request.query
      const report = await tax.gstr1OfGstin(gstin, fp)
      const name = `gstr1-${report.gstin}-${fp}`
      if (format === 'csv') return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}.csv"`).send(gstr1Csv(report))
      if (format === 'portal') {
        return reply.type('application/json; charset=utf-8').header('content-disposition', `attachment; filename="${name}.json"`).send(JSON.stringify(gstr1PortalJson({ ...report, fp })))
      }
      return ok(report, 'GSTR-1')
    },
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
        summary: "GST report of the GSTIN the catalog sells under, for a date range (JSON or CSV); GET /admin/gst/gstr1 files a period",
        deprecated: true,
        description:
          "The documents of the catalog's current GST registration (every catalog under that GSTIN) issued on the days, in India, with the tables of GET /admin/gst/gstr1. `?format=csv` answers one CSV table with a `section` column. Kept for clients of the first version: a return is filed per GSTIN and period, which GET /admin/gst/gstr1 answers.",
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
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="gstr1-${report.gstin}-${from}-${to}.csv"`).send(gstr1Csv(report))
    },
  )
}
