// /partner/returns (x-partner-id + x-partner-secret): the partner's own server lists and reads its
// return requests.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import { type Guards, partnerOf } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { security } from '../../http/schemas.ts'
import { backOfficeScope } from '../../lib/scope.ts'
import { ListQuery, Params, PartnerReturn, ReturnListItem } from './schemas.ts'
import type { ReturnService } from './service.ts'

export function returnPartnerRoutes(app: RouteApp, { returns, guards }: { returns: ReturnService; guards: Guards }): void {
  // The partner's own server (x-partner-id + x-partner-secret): its return requests only, read-only
  // (the review and the refunds stay with the merchant's back office).
  const partner = { preValidation: guards.partner }
  const partnerTags = ['Partner server: returns']
  app.get(
    '/partner/returns',
    {
      ...partner,
      schema: {
        operationId: 'partnerListReturns',
        tags: partnerTags,
        security: security.partner,
        summary: "The partner's return requests, newest first",
        querystring: Type.Object({ ...ListQuery, customerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A customer (user) ID' })) }),
        response: { 200: PagedEnvelope(ReturnListItem), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { page, limit, status, resolution, search, customerId } = request.query
      const scope = partnerOf(request)
      const result = await returns.list(customerId === undefined ? scope : backOfficeScope(scope.partnerId, customerId), { status, resolution, search }, { page, limit })
      return paged(result.data, result.meta, 'Return requests retrieved')
    },
  )
  app.get(
    '/partner/returns/:returnRequestId',
    { ...partner, schema: { operationId: 'partnerGetReturn', tags: partnerTags, security: security.partner, summary: 'One return request of the partner with its history and refunds', params: Params, response: { 200: Envelope(PartnerReturn), ...errorResponses(401, 404) } } },
    async (request) => ok(await returns.adminView(request.params.returnRequestId, partnerOf(request)), 'Return request retrieved'),
  )
}
