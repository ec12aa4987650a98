// /admin/catalogs/{catalogId}/import: bulk import, all or nothing, of JSON {categories, products} or a
// CSV of products (the text/csv parser is added by admin-routes.ts).
import { Readable } from 'node:stream'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { AppError } from '../../lib/errors.ts'
import { type CatalogAdminDeps, catalogAdminCommon, sec, tags } from './admin-route-shared.ts'
import { Type } from 'typebox'
import { type CatalogImport, csvImportOptions, readProductsCsv, unknownImportFields } from './import.ts'
import { CatalogImportBodies, CatalogParams, ImportReport } from './schemas.ts'

export function importAdminRoutes(app: RouteApp, { admin, guards }: CatalogAdminDeps): void {
  const common = catalogAdminCommon(guards)

  app.post(
    '/admin/catalogs/:catalogId/import',
    {
      ...common,
      bodyLimit: 20 * 1024 * 1024,
      schema: {
        operationId: 'adminImportCatalog',
        tags,
        security: sec,
        summary: 'Bulk import, all or nothing: JSON {categories, products} or a CSV of products (content-type text/csv)',
        description:
          'Rows are matched by slug (existing ones are updated). CSV columns (first line, any order): slug,name,sku,categorySlug,sellingPrice,mrp (required),brand,stock,images (separated by |),description,weightGrams,lengthCm,breadthCm,heightCm (the packed size: all three or none; empty keeps it),isActive,hsnCode,gstRateBps (GST; an empty cell keeps the stored value); JSON rows take dimensionsCm {length, breadth, height} or null; a column not in this list, or a missing required one, is refused naming line 1. ' +
          'On any bad row nothing is imported and the error message lists the problems, each naming its row (JSON `products[3]`, CSV `line 4`: `name must be at most 200 characters, got 301`): the first 1,000, then, if there are more, one line with how many more and the count of each kind of problem. ' +
          'A missing or empty brand is stored as "". Unknown fields, of the body or of a row, are refused like on every write.',
        params: CatalogParams,
        documentedBody: CatalogImportBodies,
        response: { 200: Envelope(ImportReport), ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const body = request.body as unknown
      let input: CatalogImport
      let csv: Parameters<typeof admin.importCatalog>[2]
      if (typeof body === 'string') {
        // Read strictly, as the command line does: unknown or missing columns are refused on line 1,
        // and problems name their CSV line (decision 0018). A Shopify file (a header naming Handle) is read as it is.
        const read = readProductsCsv(body)
        input = { products: read.products }
        csv = { options: csvImportOptions(read), unusedColumns: read.unusedColumns }
      } else if (body && typeof body === 'object' && !Array.isArray(body)) input = body as CatalogImport
      else throw new AppError('BAD_REQUEST', 'Send a JSON object {categories, products} or a CSV of products')
      const unknown = typeof body === 'string' ? [] : unknownImportFields(input)
      if (unknown.length > 0) throw new AppError('BAD_REQUEST', 'Import refused', unknown)
      if (input.categories !== undefined && !Array.isArray(input.categories)) throw new AppError('BAD_REQUEST', 'categories must be an array')
      if (input.products !== undefined && !Array.isArray(input.products)) throw new AppError('BAD_REQUEST', 'products must be an array')
      return ok(await admin.importCatalog(request.params.catalogId, input, csv), 'Catalog imported')
    },
  )

  app.get(
    '/admin/catalogs/:catalogId/export',
    {
      ...common,
      schema: {
        operationId: 'adminExportCatalog',
        tags,
        security: sec,
        summary: 'Export the catalog as a file the import reads back: JSON {categories, products}, its products CSV, or Shopify\'s product CSV',
        description:
          '`format=json` (the default) answers the import\'s JSON, `csv` the catalog\'s products CSV (a row per variant), `shopify` Shopify\'s product CSV in its own columns; each as a download, not in the envelope. ' +
          'Products come oldest first, the order an import writes a file\'s rows in, so importing the file into an empty catalog (with the same categories, for the CSV formats) and exporting it again gives the same file (docs/catalog-import.md).',
        params: CatalogParams,
        querystring: Type.Object({
          format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv'), Type.Literal('shopify')], { description: 'json (the default), csv or shopify' })),
        }),
        produces: ['application/json', 'text/csv'],
        response: {
          200: { description: 'The file', content: { 'application/json': { schema: CatalogImportBodies['application/json'] }, 'text/csv': { schema: Type.String() } } },
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const format = request.query.format ?? 'json'
      // Written a page of products at a time as the client reads it (never the whole file in memory).
      const file = Readable.from(await admin.exportCatalog(request.params.catalogId, format))
      const name = `catalog-${request.params.catalogId}${format === 'shopify' ? '-shopify' : ''}.${format === 'json' ? 'json' : 'csv'}`
      return reply
        .type(format === 'json' ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(file as never)
    },
  )
}
