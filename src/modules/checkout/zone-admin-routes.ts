// /admin/delivery-zones (role ADMIN): list, create and change delivery zones and their pincode prefixes.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import type { Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { OptionalPageQuery } from '../../http/schemas.ts'
import type { CheckoutAdminService } from './admin-service.ts'
import { adminTags as tags, sec } from './route-shared.ts'
import { Prefix, Slabs, ZoneFields, ZoneView } from './schemas.ts'

export function zoneAdminRoutes(app: RouteApp, { admin, guards }: { admin: CheckoutAdminService; guards: Guards }): void {
  const adminOnly = { preValidation: guards.admin() }
  const ZoneParams = Type.Object({ zoneId: Type.String({ maxLength: 100 }) })

  app.get(
    '/admin/delivery-zones',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminListDeliveryZones',
        tags,
        security: sec,
        summary: 'Delivery zones with their pincode prefixes, by name; whole, or a page when page or limit is given',
        querystring: Type.Object({
          ...OptionalPageQuery,
          search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "Part of a zone's name; or digits: the zone serving that pincode, and zones with prefixes starting with them" })),
        }),
        response: { 200: PagedEnvelope(ZoneView), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, limit, search } = request.query
      const { data, meta } = await admin.zones({ page, limit, search })
      return paged(data, meta, 'Delivery zones retrieved')
    },
  )

  app.post(
    '/admin/delivery-zones',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminCreateDeliveryZone',
        tags,
        security: sec,
        summary: 'Create a delivery zone and map pincode prefixes to it (a prefix moves from its old zone)',
        body: Type.Object({ ...ZoneFields, serviceable: Type.Optional(ZoneFields.serviceable), expressSlabs: Type.Optional(Slabs), pincodes: Type.Array(Prefix, { maxItems: 1000 }) }),
        response: { 201: Envelope(ZoneView), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      reply.status(201)
      return ok(await admin.createZone(request.body), 'Delivery zone created', 201)
    },
  )

  app.patch(
    '/admin/delivery-zones/:zoneId',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminUpdateDeliveryZone',
        tags,
        security: sec,
        summary: 'Change a zone: charges, days, cut-off, COD rules; `pincodes` adds or moves prefixes to it',
        params: ZoneParams,
        body: Type.Partial(Type.Object({ ...ZoneFields, pincodes: Type.Array(Prefix, { maxItems: 1000 }) })),
        response: { 200: Envelope(ZoneView), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ok(await admin.updateZone(request.params.zoneId, request.body), 'Delivery zone updated'),
  )
}
