// /admin catalog management (roles CATALOG or ADMIN): catalogs, categories, products, stock,
// bulk import (JSON, or CSV of products) and search analytics.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import type { Guards } from '../../http/guards.ts'
import { AppError } from '../../lib/errors.ts'
import type { CatalogAdminService } from './admin-service.ts'
import { type CatalogImport, type ProductRowLabel, readProductsCsv, unknownImportFields } from './import.ts'
import { Limit, OptionalPageQuery, PageQuery, Time, security } from '../../http/schemas.ts'
import { AdminProduct, Catalog, CatalogParams, Category, CategoryFields, ImportReport, ProductFields, QueryStat } from './schemas.ts'

export const catalogAdminRoutes: FastifyPluginAsyncTypebox<{ admin: CatalogAdminService; guards: Guards }> = async (app, { admin, guards }) => {
  const common = { preValidation: guards.admin('CATALOG') }
  const tags = ['Admin: catalog']
  const sec = security.admin

  // CSV imports arrive as text; everything else stays JSON-only.
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: 20 * 1024 * 1024 }, (_req, body, done) => done(null, body))

  app.get('/admin/catalogs', { ...common, schema: { operationId: 'adminListCatalogs', tags, security: sec, summary: 'List catalogs', response: { 200: Envelope(Type.Array(Catalog)), ...errorResponses(401, 403) } } }, async () =>
    ok(await admin.listCatalogs(), 'Catalogs retrieved'),
  )

  app.post(
    '/admin/catalogs',
    { ...common, schema: { operationId: 'adminCreateCatalog', tags, security: sec, summary: 'Create a catalog', body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 120 }) }), response: { 201: Envelope(Catalog), ...errorResponses(400, 401, 403) } } },
    async (request, reply) => {
      reply.status(201)
      return ok(await admin.createCatalog(request.body.name), 'Catalog created', 201)
    },
  )

  app.get(
    '/admin/catalogs/:catalogId/categories',
    {
      ...common,
      schema: {
        operationId: 'adminListCategories',
        tags,
        security: sec,
        summary: "A catalog's categories, flat, inactive included, in tree order (position, name); whole, or a page when page or limit is given",
        params: CatalogParams,
        querystring: Type.Object({
          ...OptionalPageQuery,
          parentId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only the children of this category; `root`: only the top level' })),
          search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Part of the name or slug' })),
        }),
        response: { 200: PagedEnvelope(Category), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { page, limit, parentId, search } = request.query
      const { data, meta } = await admin.listCategories(request.params.catalogId, { page, limit, parentId, search })
      return paged(data, meta, 'Categories retrieved')
    },
  )

  app.post(
    '/admin/catalogs/:catalogId/categories',
    {
      ...common,
      schema: {
        operationId: 'adminCreateCategory',
        tags,
        security: sec,
        summary: 'Create a category',
        params: CatalogParams,
        body: Type.Object({
          name: CategoryFields.name,
          slug: CategoryFields.slug,
          parentId: Type.Optional(CategoryFields.parentId),
          image: Type.Optional(CategoryFields.image),
          position: Type.Optional(CategoryFields.position),
          isActive: Type.Optional(CategoryFields.isActive),
          hsnCode: Type.Optional(CategoryFields.hsnCode),
          gstRateBps: Type.Optional(CategoryFields.gstRateBps),
        }),
        response: { 201: Envelope(Category), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      reply.status(201)
      return ok(await admin.createCategory(request.params.catalogId, request.body), 'Category created', 201)
    },
  )

  app.get(
    '/admin/categories/:categoryId',
    {
      ...common,
      schema: {
        operationId: 'adminGetCategory',
        tags,
        security: sec,
        summary: 'One category, inactive included',
        params: Type.Object({ categoryId: Type.String({ maxLength: 100 }) }),
        response: { 200: Envelope(Category), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ok(await admin.getCategory(request.params.categoryId), 'Category retrieved'),
  )

  app.patch(
    '/admin/categories/:categoryId',
    {
      ...common,
      schema: {
        operationId: 'adminUpdateCategory',
        tags,
        security: sec,
        summary: 'Update or deactivate (isActive false) a category',
        params: Type.Object({ categoryId: Type.String({ maxLength: 100 }) }),
        body: Type.Partial(Type.Object(CategoryFields)),
        response: { 200: Envelope(Category), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ok(await admin.updateCategory(request.params.categoryId, request.body), 'Category updated'),
  )

  app.get(
    '/admin/catalogs/:catalogId/products',
    {
      ...common,
      schema: {
        operationId: 'adminListProducts',
        tags,
        security: sec,
        summary: 'All products of a catalog, inactive included, newest first',
        params: CatalogParams,
        querystring: Type.Object({
          ...PageQuery,
          search: Type.Optional(Type.String({ maxLength: 200, description: 'Name, brand or SKU' })),
        }),
        response: { 200: PagedEnvelope(AdminProduct), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { page, limit, search } = request.query
      const result = await admin.listProducts(request.params.catalogId, { page, limit, search })
      return paged(result.data, result.meta, 'Products retrieved')
    },
  )

  app.post(
    '/admin/catalogs/:catalogId/products',
    {
      ...common,
      schema: {
        operationId: 'adminCreateProduct',
        tags,
        security: sec,
        summary: 'Create a product',
        params: CatalogParams,
        body: Type.Object({
          name: ProductFields.name,
          slug: ProductFields.slug,
          brand: ProductFields.brand,
          sku: ProductFields.sku,
          categoryId: ProductFields.categoryId,
          sellingPrice: ProductFields.sellingPrice,
          mrp: ProductFields.mrp,
          stock: Type.Optional(ProductFields.stock),
          images: Type.Optional(ProductFields.images),
          description: Type.Optional(ProductFields.description),
          weightGrams: Type.Optional(ProductFields.weightGrams),
          dimensionsCm: Type.Optional(ProductFields.dimensionsCm),
          isActive: Type.Optional(ProductFields.isActive),
          hsnCode: Type.Optional(ProductFields.hsnCode),
          gstRateBps: Type.Optional(ProductFields.gstRateBps),
        }),
        response: { 201: Envelope(AdminProduct), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      reply.status(201)
      return ok(await admin.createProduct(request.params.catalogId, request.body), 'Product created', 201)
    },
  )

  const ProductParams = Type.Object({ productId: Type.String({ maxLength: 100 }) })

  app.get(
    '/admin/products/:productId',
    { ...common, schema: { operationId: 'adminGetProduct', tags, security: sec, summary: 'One product', params: ProductParams, response: { 200: Envelope(AdminProduct), ...errorResponses(401, 403, 404) } } },
    async (request) => ok(await admin.getProduct(request.params.productId), 'Product retrieved'),
  )

  app.patch(
    '/admin/products/:productId',
    {
      ...common,
      schema: {
        operationId: 'adminUpdateProduct',
        tags,
        security: sec,
        summary: 'Update a product: stock, sellingPrice, mrp, isActive (deactivate) and any other field',
        params: ProductParams,
        body: Type.Partial(Type.Object(ProductFields)),
        response: { 200: Envelope(AdminProduct), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ok(await admin.updateProduct(request.params.productId, request.body), 'Product updated'),
  )

  app.post(
    '/admin/products/:productId/stock',
    {
      ...common,
      schema: {
        operationId: 'adminAdjustStock',
        tags,
        security: sec,
        summary: 'Adjust stock by a delta (negative to remove); never below zero',
        params: ProductParams,
        body: Type.Object({
          delta: Type.Integer({ minimum: -10_000_000, maximum: 10_000_000 }),
          reason: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: { 200: Envelope(AdminProduct), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ok(await admin.adjustStock(request.params.productId, request.body.delta), 'Stock adjusted'),
  )

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
        response: { 200: Envelope(ImportReport), ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const body = request.body as unknown
      let input: CatalogImport
      let productLabel: ProductRowLabel | undefined
      if (typeof body === 'string') {
        // Read strictly, as the command line does: unknown or missing columns are refused on line 1,
        // and problems name their CSV line (decision 0018).
        const csv = readProductsCsv(body)
        input = { products: csv.products }
        productLabel = (i) => `line ${csv.lines[i]}`
      } else if (body && typeof body === 'object' && !Array.isArray(body)) input = body as CatalogImport
      else throw new AppError('BAD_REQUEST', 'Send a JSON object {categories, products} or a CSV of products')
      const unknown = typeof body === 'string' ? [] : unknownImportFields(input)
      if (unknown.length > 0) throw new AppError('BAD_REQUEST', 'Import refused', unknown)
      if (input.categories !== undefined && !Array.isArray(input.categories)) throw new AppError('BAD_REQUEST', 'categories must be an array')
      if (input.products !== undefined && !Array.isArray(input.products)) throw new AppError('BAD_REQUEST', 'products must be an array')
      return ok(await admin.importCatalog(request.params.catalogId, input, productLabel), 'Catalog imported')
    },
  )

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
