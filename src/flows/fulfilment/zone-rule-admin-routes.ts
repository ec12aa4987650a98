// /admin/fulfilment/zone-rules: the carrier and courier rule each delivery zone's parcels are
// booked with (list; set and remove with role ADMIN).
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { adminOf } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { security } from '../../http/schemas.ts'
import { fulfilmentCommon, type ShippingAdminDeps, tags } from './admin-route-shared.ts'
import { ZoneRule, ZoneRuleBody, ZoneRuleParams } from '../../modules/shipping/index.ts'

export function zoneRuleAdminRoutes(app: RouteApp, { shipping, guards }: ShippingAdminDeps): void {
  const common = fulfilmentCommon(guards)

  app.get(
    '/admin/fulfilment/zone-rules',
    {
      ...common,
      schema: {
        operationId: 'adminListZoneCourierRules',
        tags,
        security: security.admin,
        summary: 'The carrier and courier rule of each delivery zone that has one, by zone name',
        response: { 200: Envelope(Type.Array(ZoneRule)), ...errorResponses(401, 403) },
      },
    },
    async () => ok(await shipping.zoneRules(), 'Zone rules retrieved'),
  )
  app.put(
    '/admin/fulfilment/zone-rules/:zoneId',
    {
      preValidation: guards.admin(),
      schema: {
        operationId: 'adminPutZoneCourierRule',
        tags,
        security: security.admin,
        summary: "Set the carrier and/or courier rule a zone's parcels are booked with (role ADMIN)",
        description:
          'A booking that names no carrier, courierId or courierRule goes by the rule of the zone serving the order\'s pincode; one that names any goes as it names; without a zone rule, SHIPPING_COURIER_RULE with the default carrier. 404 for an unknown zone; 400 for a carrier this service does not ship with, or both null.',
        params: ZoneRuleParams,
        body: ZoneRuleBody,
        response: { 200: Envelope(ZoneRule), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ok(await shipping.putZoneRule(adminOf(request).adminId, request.params.zoneId, request.body), 'Zone rule saved'),
  )
  app.delete(
    '/admin/fulfilment/zone-rules/:zoneId',
    {
      preValidation: guards.admin(),
      schema: {
        operationId: 'adminDeleteZoneCourierRule',
        tags,
        security: security.admin,
        summary: "Remove a zone's rule: its parcels go by the default again (role ADMIN)",
        params: ZoneRuleParams,
        response: { 200: Envelope(ZoneRule), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ok(await shipping.deleteZoneRule(request.params.zoneId), 'Zone rule removed'),
  )
}
