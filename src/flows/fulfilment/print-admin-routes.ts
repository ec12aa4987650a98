// What the warehouse prints: parcel labels (one, or several in one PDF), a carrier's manifest of the
// day and the day's pick list (those two as JSON or PDF).
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { errorResponses, ok } from '../../http/envelope.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { security } from '../../http/schemas.ts'
import { fulfilmentCommon, type ShippingAdminDeps, tags } from './admin-route-shared.ts'
import { ManifestSchema, ManifestQuery, PickListSchema, PickListQuery, ShipmentParams } from '../../modules/shipping/index.ts'
import { manifestView } from '../../modules/shipping/index.ts'

/** A PDF answer, shown in the browser (inline) under a useful file name. */
const sendPdf = (reply: FastifyReply, filename: string, pdf: Buffer) => reply.type('application/pdf').header('content-disposition', `inline; filename="${filename}"`).send(pdf)
const pdfResponse = (description: string) => ({ description, content: { 'application/pdf': { schema: Type.String({ format: 'binary' }) } } })

export function printAdminRoutes(app: RouteApp, { shipping, fulfilment, guards }: ShippingAdminDeps): void {
  const common = fulfilmentCommon(guards)

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
    async (request, reply) => sendPdf(reply, `labels-${request.body.shipmentIds.length}.pdf`, await fulfilment.labelsPdf(request.body.shipmentIds)),
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
      const { shipment, pdf } = await fulfilment.labelPdf(request.params.shipmentId)
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
              'application/json': { schema: Type.Object({ statusCode: Type.Integer(), message: Type.String(), data: ManifestSchema }) },
              'application/pdf': { schema: Type.String({ format: 'binary' }) },
            },
          },
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const manifest = await fulfilment.manifest(request.query.carrier, request.query.date, request.query.locationId)
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
              'application/json': { schema: Type.Object({ statusCode: Type.Integer(), message: Type.String(), data: PickListSchema }) },
              'application/pdf': { schema: Type.String({ format: 'binary' }) },
            },
          },
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const list = await fulfilment.pickList(request.query.date, request.query.locationId)
      if (request.query.format !== 'pdf') return ok({ date: list.date, shipments: list.shipments, lines: list.lines }, 'Pick list retrieved')
      return sendPdf(reply, `pick-list-${list.date}.pdf`, await shipping.pickListPdf(list))
    },
  )
}
