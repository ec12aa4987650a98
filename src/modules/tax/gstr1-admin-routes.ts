// GSTR-1 (role ADMIN): the return of a GSTIN for a period, and the deprecated report of the GSTIN a
// catalog sells under for a date range. The plugin registers them apart, the rates' routes between.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { adminOnlyOf, sec, type TaxAdminDeps, tags } from './admin-route-shared.ts'
import { gstr1Csv, gstr1PortalJson } from './gstr1.ts'
import { CatalogParams, Gstr1PortalFile, Gstr1Query, Gstr1Report } from './schemas.ts'

export function gstr1AdminRoutes(app: RouteApp, { tax, guards }: TaxAdminDeps): void {
  const adminOnly = adminOnlyOf(guards)

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
}

export function catalogGstr1AdminRoutes(app: RouteApp, { tax, guards }: TaxAdminDeps): void {
  const adminOnly = adminOnlyOf(guards)

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
