// Fulfilment in the back office (admin bearer, role SUPPORT or ADMIN; decision 0024): book parcels
// for an order's lines, see, track, cancel one, print its label, and the day's pick list.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { adminOf, type Guards, partnerOf } from '../../http/guards.ts'
import { Nullable, security, Time } from '../../http/schemas.ts'
import { Shipment } from '../orders/index.ts'
import { CreateShipmentBody, Manifest, ManifestQuery, ManualMoveBody, NdrBody, PickList, PickListQuery, ResolveLossBody, ShipmentParams, ShippingRates, ShippingRatesBody, ZoneRule, ZoneRuleBody, ZoneRuleParams } from './schemas.ts'
import { manifestView, type ShippingService } from './service.ts'

/** A PDF answer, shown in the browser (inline) under a useful file name. */
const sendPdf = (reply: FastifyReply, filename: string, pdf: Buffer) => reply.type('application/pdf').header('content-disposition', `inline; filename="${filename}"`).send(pdf)
const pdfResponse = (description: string) => ({ description, content: { 'application/pdf': { schema: Type.String({ format: 'binary' }) } } })

export const shippingAdminRoutes: FastifyPluginAsyncTypebox<{ shipping: ShippingService; guards: Guards }> = async (app, { shipping, guards }) => {
  const common = { preValidation: guards.admin('SUPPORT') }
  const tags = ['Admin: fulfilment']
  const NdrActions = Type.Array(
    Type.Object({
      action: Type.Enum(['REATTEMPT', 'RTO']),
      deferredDate: Nullable(Type.String({ format: 'date' })),
      addressLine: Nullable(Type.String()),
      phone: Nullable(Type.String()),
      note: Nullable(Type.String()),
      requestedBy: Type.String({ description: 'ADMIN:<id> or PARTNER:<id>' }),
      at: Time,
    }),
    { description: 'Non-delivery actions forwarded to the carrier, oldest first' },
  )
  const AdminShipment = Type.Object({
    ...Shipment.properties,
    ndrActions: NdrActions,
    orderId: Type.String(),
    labelUrl: Nullable(Type.String({ description: "The carrier's own label, when it gave one" })),
    dimensionsCm: Type.Object({ length: Type.Integer(), breadth: Type.Integer(), height: Type.Integer() }, { description: 'The box declared to the carrier, whole centimetres' }),
    ewayBillNo: Nullable(Type.String({ description: 'The e-way bill the parcel travels under' })),
    resolution: Nullable(
      Type.Object(
        {
          action: Type.Enum(['RESHIP', 'REFUND']),
          at: Time,
          note: Nullable(Type.String()),
          resolvedBy: Type.String({ description: 'ADMIN:<id>' }),
        },
        { description: 'How the back office resolved a LOST or DAMAGED parcel; null until it did' },
      ),
    ),
    pickup: Nullable(
      Type.Object(
        {
          requestedAt: Time,
          scheduledAt: Nullable(Type.String({ format: 'date-time', description: 'When the carrier says its courier comes, when it says' })),
          reference: Nullable(Type.String({ description: "The carrier's reference of the pickup" })),
        },
        { description: 'The carrier accepted to collect the parcel; null: not yet (asked again every minute, or by the retry route)' },
      ),
    ),
  })

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
      const created = await shipping.create(adminOf(request).adminId, request.params.orderId, request.body)
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
    async (request) => ok(await shipping.quote(request.params.orderId, request.body), 'Shipping rates retrieved'),
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
      await shipping.cancel(adminOf(request).adminId, request.params.shipmentId)
      return ok(await shipping.adminView(request.params.shipmentId), 'Shipment cancelled')
    },
  )

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
    async (request) => ok(await shipping.ndrAction(`ADMIN:${adminOf(request).adminId}`, request.params.shipmentId, request.body), 'Non-delivery action sent'),
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
      return ok(await shipping.ndrAction(`PARTNER:${partnerId}`, request.params.shipmentId, request.body, partnerId), 'Non-delivery action sent')
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
    async (request) => ok(await shipping.moveManual(adminOf(request).adminId, request.params.shipmentId, request.body), 'Shipment moved'),
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
    async (request) => ok(await shipping.resolveLoss(adminOf(request).adminId, request.params.shipmentId, request.body), 'Shipment resolved'),
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
      await shipping.refresh(request.params.shipmentId)
      return ok(await shipping.adminView(request.params.shipmentId), 'Tracking refreshed')
    },
  )

  app.post(
    '/admin/shipments/labels',
    {
      ...common,
      schema: {
        operationId: 'adminGetShipmentLabels',
        tags,
        security: security.admin,
        summary: 'The labels of several parcels in one PDF, a 4x6 inch page each in the order given (after booking many at once)',
        body: Type.Object({ shipmentIds: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100, description: 'Forward parcels, each once' }) }),
        response: { 200: pdfResponse('The labels'), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => sendPdf(reply, `labels-${request.body.shipmentIds.length}.pdf`, await shipping.labelsPdf(request.body.shipmentIds)),
  )

  app.get(
    '/admin/shipments/:shipmentId/label',
    {
      ...common,
      schema: {
        operationId: 'adminGetShipmentLabel',
        tags,
        security: security.admin,
        summary: 'The parcel label as a 4x6 inch PDF: address, AWB as a Code 128 barcode, COD amount to collect',
        params: ShipmentParams,
        response: { 200: pdfResponse('The label'), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { shipment, pdf } = await shipping.labelPdf(request.params.shipmentId)
      return sendPdf(reply, `label-${shipment.awb}.pdf`, pdf)
    },
  )

  app.get(
    '/admin/fulfilment/manifest',
    {
      ...common,
      schema: {
        operationId: 'adminGetManifest',
        tags,
        security: security.admin,
        summary: "A carrier's manifest: the parcels booked on a day (India) for its courier to collect and sign for, as JSON or an A4 PDF",
        querystring: ManifestQuery,
        produces: ['application/json', 'application/pdf'],
        response: {
          200: {
            description: 'The manifest',
            content: {
              'application/json': { schema: Type.Object({ statusCode: Type.Integer(), message: Type.String(), data: Manifest }) },
              'application/pdf': { schema: Type.String({ format: 'binary' }) },
            },
          },
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const manifest = await shipping.manifest(request.query.carrier, request.query.date)
      if (request.query.format === 'pdf') return sendPdf(reply, `manifest-${manifest.carrier}-${manifest.date}.pdf`, await shipping.manifestPdf(manifest))
      return ok(manifestView(manifest), 'Manifest retrieved')
    },
  )

  app.get(
    '/admin/fulfilment/pick-list',
    {
      ...common,
      schema: {
        operationId: 'adminGetPickList',
        tags,
        security: security.admin,
        summary: 'What to pick for the parcels booked on a day (India): units per SKU with their orders, as JSON or an A4 PDF',
        querystring: PickListQuery,
        produces: ['application/json', 'application/pdf'],
        response: {
          200: {
            description: 'The pick list',
            content: {
              'application/json': { schema: Type.Object({ statusCode: Type.Integer(), message: Type.String(), data: PickList }) },
              'application/pdf': { schema: Type.String({ format: 'binary' }) },
            },
          },
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const list = await shipping.pickList(request.query.date)
      if (request.query.format !== 'pdf') return ok({ date: list.date, shipments: list.shipments, lines: list.lines }, 'Pick list retrieved')
      return sendPdf(reply, `pick-list-${list.date}.pdf`, await shipping.pickListPdf(list))
    },
  )
}
