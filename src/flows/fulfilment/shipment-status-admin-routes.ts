// /admin shipment status: move a parcel of the merchant's own delivery, resolve a lost or damaged
// one, and refresh a carrier parcel's tracking.
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { adminOf } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { security } from '../../http/schemas.ts'
import { AdminShipment, fulfilmentCommon, type ShippingAdminDeps, tags } from './admin-route-shared.ts'
import { ManualMoveBody, ResolveLossBody, ShipmentParams } from '../../modules/shipping/index.ts'

export function shipmentStatusAdminRoutes(app: RouteApp, { shipping, fulfilment, guards }: ShippingAdminDeps): void {
  const common = fulfilmentCommon(guards)

  app.post(
    '/admin/shipments/:shipmentId/status',
    {
      ...common,
      schema: {
        operationId: 'adminMoveManualShipment',
        tags,
        security: security.admin,
        summary: "Move a parcel of the merchant's own delivery (carrier manual): the order follows as it follows a carrier's scans",
        description: "409 for a carrier's parcel (its scans move it), and for a move the parcel does not make (after DELIVERED, say).",
        params: ShipmentParams,
        body: ManualMoveBody,
        response: { 200: Envelope(AdminShipment), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ok(await fulfilment.moveManual(adminOf(request).adminId, request.params.shipmentId, request.body), 'Shipment moved'),
  )

  app.post(
    '/admin/shipments/:shipmentId/resolve',
    {
      ...common,
      schema: {
        operationId: 'adminResolveLostShipment',
        tags,
        security: security.admin,
        summary: 'Resolve a parcel its carrier declared LOST or DAMAGED: send its units again, or refund them (once)',
        description:
          "RESHIP takes the units' stock again (409 when there is not enough) and leaves them to ship: book the new parcel with POST /admin/orders/{orderId}/shipments (it collects a COD order's cash instead). REFUND cancels the units and refunds them by tender, with a credit note; when no unit of the order is left, the whole sale is reversed and the order is CANCELLED. 409 for a parcel not LOST or DAMAGED, a return pickup, or one resolved before.",
        params: ShipmentParams,
        body: ResolveLossBody,
        response: { 200: Envelope(AdminShipment), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ok(await fulfilment.resolveLoss(adminOf(request).adminId, request.params.shipmentId, request.body), 'Shipment resolved'),
  )

  app.post(
    '/admin/shipments/:shipmentId/refresh',
    {
      ...common,
      schema: {
        operationId: 'adminRefreshShipmentTracking',
        tags,
        security: security.admin,
        summary: "Ask the carrier for the parcel's tracking events (a callback late or lost) and apply what is new",
        params: ShipmentParams,
        response: { 200: Envelope(AdminShipment), ...errorResponses(401, 403, 404, 409, 503) },
      },
    },
    async (request) => {
      await fulfilment.refresh(request.params.shipmentId)
      return ok(await shipping.adminView(request.params.shipmentId), 'Tracking refreshed')
    },
  )
}
