// /admin catalog categories: a catalog's categories (list, create) and one category (get, update).
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { OptionalPageQuery } from '../../http/schemas.ts'
import { type CatalogAdminDeps, catalogAdminCommon, sec, tags } from './admin-route-shared.ts'
import { CatalogParams, Category, CategoryFields } from './schemas.ts'

export function categoryAdminRoutes(app: RouteApp, { admin, guards }: CatalogAdminDeps): void {
  const common = catalogAdminCommon(guards)

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
}
