// Carrier tracking callbacks (POST /shipping/webhooks/{carrier}) and the sandbox carrier's tracking
// page, whose buttons move a parcel through the same signed callback a real carrier sends.
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { security } from '../../http/schemas.ts'
import { notFound } from '../../lib/errors.ts'
import { orderStatusOf } from '../../modules/orders/index.ts'
import { type SandboxCarrier, TRACKING_STATUSES } from '../../modules/shipping/index.ts'
import { AwbParams, CarrierParams, SandboxTrackingParams, SandboxTrackingResult, TrackingReceipt } from '../../modules/shipping/index.ts'
import type { ShippingService } from '../../modules/shipping/index.ts'
import type { Fulfilment } from './desk.ts'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export const shippingRoutes: FastifyPluginAsyncTypebox<{ shipping: ShippingService; fulfilment: Fulfilment; sandbox: SandboxCarrier | null }> = async (app, { shipping, fulfilment, sandbox }) => {
  await app.register(async (scope) => {
    const raw = scope.withTypeProvider<TypeBoxTypeProvider>()
    // Signatures are over the exact bytes the carrier sent: keep the raw body in this scope.
    raw.removeContentTypeParser('application/json')
    raw.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))
    raw.post(
      '/shipping/webhooks/:carrier',
      {
        schema: {
          operationId: 'receiveCarrierWebhook',
          tags: ['Shipping'],
          security: security.public,
          summary: 'Carrier tracking callbacks: verified (signature or shared token), each event applied once, never moving a parcel or an order backwards',
          description:
            'Every well-signed callback answers 200: a body that cannot be read, or scans of AWBs this service did not book, are kept for the back office (GET /admin/fulfilment/carrier-callbacks) and the message says so. 401 for a missing or wrong signature, 404 for an unknown carrier.',
          params: CarrierParams,
          response: { 200: Envelope(TrackingReceipt), ...errorResponses(401, 404) },
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.from('')
        const { receipt, message } = await fulfilment.carrierCallback(request.params.carrier, body, request.headers)
        return ok(receipt, message)
      },
    )
  })

  if (!sandbox) return
  const parcel = async (awb: string) => {
    const shipment = await shipping.findByAwb('sandbox', awb)
    if (!shipment) throw notFound('Shipment')
    return shipment
  }

  app.get(
    '/sandbox/shipments/:awb',
    {
      schema: {
        operationId: 'getSandboxTrackingPage',
        documentedAnswer: ['text/html'],
        tags: ['Shipping'],
        security: security.public,
        summary: "The sandbox carrier's tracking page: the parcel's status and events, with a button per tracking status",
        params: AwbParams,
      },
    },
    async (request, reply) => {
      const shipment = await shipping.view((await parcel(request.params.awb)).id)
      reply.type('text/html; charset=utf-8')
      const events = shipment.events.map((e) => `<li>${escapeHtml(e.at)} ${escapeHtml(e.status)}${e.applied ? '' : ' (not applied)'}</li>`).join('')
      const buttons = TRACKING_STATUSES.map((s) => `<button data-status="${s}">${s.replaceAll('_', ' ')}</button>`).join('')
      return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox tracking · ${escapeHtml(shipment.awb)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font-size:.9rem;padding:.5rem .8rem;margin:.2rem}#status{margin-top:1rem;font-weight:600}</style>
</head><body>
<h1>Sandbox tracking</h1>
<p>AWB <strong>${escapeHtml(shipment.awb)}</strong> · expected ${escapeHtml(shipment.expectedDeliveryDate ?? 'unknown')}</p>
<p>Status <strong id="shipment-status">${escapeHtml(shipment.status)}</strong></p>
<ol id="events">${events}</ol>
<div>${buttons}</div>
<p id="status" role="status"></p>
<script>
for (const button of document.querySelectorAll('button[data-status]')) {
  button.addEventListener('click', async () => {
    const res = await fetch(location.pathname + '/' + button.dataset.status, { method: 'POST' });
    const body = await res.json();
    if (res.ok) document.getElementById('shipment-status').textContent = body.data.shipmentStatus;
    document.getElementById('status').textContent = res.ok ? (body.data.applied ? 'Moved' : 'Not a move this parcel makes now') : (body.message || 'Error');
  });
}
</script>
</body></html>`
    },
  )

  app.post(
    '/sandbox/shipments/:awb/:status',
    {
      schema: {
        operationId: 'submitSandboxTrackingEvent',
        tags: ['Shipping'],
        security: security.public,
        summary: 'What the sandbox tracking page buttons call: sends a signed tracking callback through the webhook path',
        params: SandboxTrackingParams,
        response: { 200: Envelope(SandboxTrackingResult), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const shipment = await parcel(request.params.awb)
      const signed = sandbox.signedEvent(sandbox.eventFor(shipment.awb, request.params.status))
      const { receipt } = await fulfilment.carrierCallback('sandbox', signed.rawBody, signed.headers)
      const after = await parcel(request.params.awb)
      return ok(
        { shipmentId: after.id, orderId: after.orderId, shipmentStatus: after.status, orderStatus: (await orderStatusOf(shipping.db, after.orderId)) ?? 'UNKNOWN', applied: receipt.applied > 0 },
        receipt.applied > 0 ? 'Tracking event applied' : 'Tracking event recorded; not a move this parcel makes now',
      )
    },
  )
}
