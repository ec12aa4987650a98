// /admin/catalogs: the catalogs themselves (list, create).
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { type CatalogAdminDeps, catalogAdminCommon, sec, tags } from './admin-route-shared.ts'
import { Catalog } from './schemas.ts'

export function catalogsAdminRoutes(app: RouteApp, { admin, guards }: CatalogAdminDeps): void {
  const common = catalogAdminCommon(guards)

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
}
