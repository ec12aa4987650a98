// /admin catalog products: a catalog's products (list, create), one product (get, update) and its stock.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { PageQuery } from '../../http/schemas.ts'
import { type CatalogAdminDeps, catalogAdminCommon, sec, tags } from './admin-route-shared.ts'
import { AdminProduct, CatalogParams, ProductFields } from './schemas.ts'

export const ProductParams = Type.Object({ productId: Type.String({ maxLength: 100 }) })

export function productAdminRoutes(app: RouteApp, { admin, guards }: CatalogAdminDeps): void {
  const common = catalogAdminCommon(guards)

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
}
