// /admin/fulfilment/carrier-callbacks: the well-signed carrier callbacks kept because they were not
// applied in full (decision 0044): a body that could not be read, scans of AWBs not booked here.
import { PagedEnvelope, errorResponses, paged } from '../../http/envelope.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { security } from '../../http/schemas.ts'
import { KeptCallback, KeptCallbacksQuery } from '../../modules/shipping/index.ts'
import { fulfilmentCommon, type ShippingAdminDeps, tags } from './admin-route-shared.ts'

export function callbackAdminRoutes(app: RouteApp, { shipping, guards }: ShippingAdminDeps): void {
  app.get(
    '/admin/fulfilment/carrier-callbacks',
    {
      ...fulfilmentCommon(guards),
      schema: {
        operationId: 'adminListCarrierCallbacks',
        tags,
        security: security.admin,
        summary: 'Carrier callbacks that were signed but not applied in full (unreadable, or of AWBs not booked here), newest first',
        querystring: KeptCallbacksQuery,
        response: { 200: PagedEnvelope(KeptCallback), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { data, meta } = await shipping.keptCallbacks(request.query)
      return paged(data, meta, 'Carrier callbacks retrieved')
    },
  )
}
