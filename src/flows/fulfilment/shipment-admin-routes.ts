// /admin shipments: book a parcel for an order's units, quote its rates first, see one parcel, and
// cancel one the carrier has not picked up.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { adminOf } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { security } from '../../http/schemas.ts'
import { AdminShipment, fulfilmentCommon, type ShippingAdminDeps, tags } from './admin-route-shared.ts'
import { CreateShipmentBody, ShipmentParams, ShippingRates, ShippingRatesBody } from '../../modules/shipping/index.ts'

export function shipmentAdminRoutes(app: RouteApp, { shipping, fulfilment, guards }: ShippingAdminDeps): void {
  const common = fulfilmentCommon(guards)

  app.post(
    '/admin/orders/:orderId/shipments',
    {
      ...common,
      schema: {
        operationId: 'adminCreateShipment',
        tags,
        security: security.admin,
        summary: "Book a parcel with a carrier for some or all of an order's units (CONFIRMED or PACKED orders; the first parcel packs the order)",
        params: Type.Object({ orderId: Type.String({ maxLength: 100 }) }),
        body: CreateShipmentBody,
        response: { 201: Envelope(AdminShipment), ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request, reply) => {
      const created = await fulfilment.book(adminOf(request).adminId, request.params.orderId, request.body)
      return reply.code(201).send(ok(await shipping.adminView(created.id), 'Shipment created', 201))
    },
  )

  app.post(
    '/admin/orders/:orderId/shipping-rates',
    {
      ...common,
      schema: {
        operationId: 'adminQuoteShippingRates',
        tags,
        security: security.admin,
        summary: "What a parcel of the order's units would cost with each courier, before booking it (nothing is booked)",
        params: Type.Object({ orderId: Type.String({ maxLength: 100 }) }),
        body: ShippingRatesBody,
        response: { 200: Envelope(ShippingRates), ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request) => ok(await fulfilment.quote(request.params.orderId, request.body), 'Shipping rates retrieved'),
  )

  app.get(
    '/admin/shipments/:shipmentId',
    { ...common, schema: { operationId: 'adminGetShipment', tags, security: security.admin, summary: 'One parcel with its lines and tracking events', params: ShipmentParams, response: { 200: Envelope(AdminShipment), ...errorResponses(401, 403, 404) } } },
    async (request) => ok(await shipping.adminView(request.params.shipmentId), 'Shipment retrieved'),
  )

  app.post(
    '/admin/shipments/:shipmentId/cancel',
    {
      ...common,
      schema: {
        operationId: 'adminCancelShipment',
        tags,
        security: security.admin,
        summary: 'Cancel a parcel the carrier has not picked up (CREATED); its units can be shipped again',
        params: ShipmentParams,
        response: { 200: Envelope(AdminShipment), ...errorResponses(401, 403, 404, 409, 503) },
      },
    },
    async (request) => {
      await fulfilment.cancel(adminOf(request).adminId, request.params.shipmentId)
      return ok(await shipping.adminView(request.params.shipmentId), 'Shipment cancelled')
    },
  )
}
