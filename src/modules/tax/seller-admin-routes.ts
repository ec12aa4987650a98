// /admin catalog GST seller (role ADMIN): the GST registration a catalog sells under, read, set by
// GSTIN, or pointed at an existing registration.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { adminOnlyOf, sec, type TaxAdminDeps, tags } from './admin-route-shared.ts'
import { CatalogParams, Seller, SellerInput } from './schemas.ts'

export function sellerAdminRoutes(app: RouteApp, { tax, guards }: TaxAdminDeps): void {
  const adminOnly = adminOnlyOf(guards)

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
}
