// Requests forwarded to a parcel's carrier: a non-delivery action (the back office's, and the same
// for a partner's own server on its parcels), and a pickup the carrier did not accept.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { adminOf, partnerOf } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { security } from '../../http/schemas.ts'
import { Shipment } from '../../modules/shipping/index.ts'
import { AdminShipment, fulfilmentCommon, NdrActions, type ShippingAdminDeps, tags } from './admin-route-shared.ts'
import { NdrBody, ShipmentParams } from '../../modules/shipping/index.ts'

export function carrierRequestAdminRoutes(app: RouteApp, { shipping, fulfilment, guards }: ShippingAdminDeps): void {
  const common = fulfilmentCommon(guards)

  const ndrSchema = {
    params: ShipmentParams,
    body: NdrBody,
    description:
      'For a forward parcel whose delivery failed (DELIVERY_FAILED; 409 otherwise): REATTEMPT (optionally on deferredDate, today to 7 days ahead in India, to a corrected addressLine or phone) or RTO. Forwarded to the carrier (503 when it cannot take it: nothing kept); the parcel moves with its next scans.',
  }
  app.post(
    '/admin/shipments/:shipmentId/ndr',
    {
      ...common,
      schema: {
        operationId: 'adminShipmentNdrAction',
        tags,
        security: security.admin,
        summary: 'Ask the carrier to deliver a failed parcel again, or to return it (non-delivery report)',
        ...ndrSchema,
        response: { 200: Envelope(AdminShipment), ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request) => ok(await fulfilment.ndrAction(`ADMIN:${adminOf(request).adminId}`, request.params.shipmentId, request.body), 'Non-delivery action sent'),
  )
  const PartnerShipment = Type.Object({ ...Shipment.properties, orderId: Type.String(), ndrActions: NdrActions })
  app.post(
    '/partner/shipments/:shipmentId/ndr',
    {
      preValidation: guards.partner,
      schema: {
        operationId: 'partnerShipmentNdrAction',
        tags: ['Partner server: shipments'],
        security: security.partner,
        summary: "Ask the carrier to deliver one of the partner's failed parcels again, or to return it (as the back office can)",
        ...ndrSchema,
        response: { 200: Envelope(PartnerShipment), ...errorResponses(400, 401, 404, 409, 503) },
      },
    },
    async (request) => {
      const { partnerId } = partnerOf(request)
      return ok(await fulfilment.ndrAction(`PARTNER:${partnerId}`, request.params.shipmentId, request.body, partnerId), 'Non-delivery action sent')
    },
  )

  app.post(
    '/admin/shipments/:shipmentId/pickup',
    {
      ...common,
      schema: {
        operationId: 'adminRequestShipmentPickup',
        tags,
        security: security.admin,
        summary: 'Ask the carrier again to collect a parcel whose pickup it did not accept (booked parcels are asked for at once, and again by the minute)',
        params: ShipmentParams,
        response: { 200: Envelope(AdminShipment), ...errorResponses(401, 403, 404, 409, 503) },
      },
    },
    async (request) => ok(await shipping.retryPickup(request.params.shipmentId), 'Pickup requested'),
  )
}
