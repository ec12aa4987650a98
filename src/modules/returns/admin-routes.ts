// /admin/returns (admin bearer, role SUPPORT or ADMIN): every partner's return requests, one with its
// history and refunds, the reverse pickup and the quality check. Moving a return along the machine is
// the return-settlement flow's route (src/flows/return-settlement/admin-routes.ts).
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import type { Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { security } from '../../http/schemas.ts'
import { backOfficeScope } from '../../lib/scope.ts'
import { CourierFields, ParcelFields } from '../shipping/index.ts'
import { AdminReturn, AdminReturnListItem, ListQuery, Params } from './schemas.ts'
import type { ReturnService } from './service.ts'

export function returnAdminRoutes(app: RouteApp, { returns, guards }: { returns: ReturnService; guards: Guards }): void {
  const agent = { preValidation: guards.admin('SUPPORT') }
  const adminTags = ['Admin: returns']

  app.get(
    '/admin/returns',
    {
      ...agent,
      schema: {
        operationId: 'adminListReturns',
        tags: adminTags,
        security: security.admin,
        summary: "Every partner's return requests, newest first",
        querystring: Type.Object({ ...ListQuery, partnerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }),
        response: { 200: PagedEnvelope(AdminReturnListItem), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, limit, partnerId, status, resolution, search } = request.query
      const result = await returns.adminList(backOfficeScope(partnerId), { status, resolution, search }, { page, limit })
      return paged(result.data, result.meta, 'Return requests retrieved')
    },
  )
  app.get(
    '/admin/returns/:returnRequestId',
    { ...agent, schema: { operationId: 'adminGetReturn', tags: adminTags, security: security.admin, summary: 'One return request with its history and refunds', params: Params, response: { 200: Envelope(AdminReturn), ...errorResponses(401, 403, 404) } } },
    async (request) => ok(await returns.adminView(request.params.returnRequestId), 'Return request retrieved'),
  )
  app.post(
    '/admin/returns/:returnRequestId/pickup',
    {
      ...agent,
      schema: {
        operationId: 'adminBookReturnPickup',
        tags: adminTags,
        security: security.admin,
        summary: "Book a reverse pickup of an approved return's units from the customer, with a carrier (one at a time)",
        params: Params,
        body: Type.Object({
          carrier: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'sandbox, shiprocket or delhivery; default: the first configured' })),
          ...ParcelFields,
          ...CourierFields,
        }),
        response: { 200: Envelope(AdminReturn), ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request) => ok(await returns.bookPickup(request.params.returnRequestId, request.body), 'Pickup booked'),
  )
  app.post(
    '/admin/returns/:returnRequestId/quality-check',
    {
      ...agent,
      schema: {
        operationId: 'adminRecordReturnQualityCheck',
        tags: adminTags,
        security: security.admin,
        summary: 'Record the quality check of the units received: PASSED puts them back in stock (once), FAILED does not',
        params: Params,
        body: Type.Object({ result: Type.Enum(['PASSED', 'FAILED']), note: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })) }),
        response: { 200: Envelope(AdminReturn), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ok(await returns.qualityCheck(request.params.returnRequestId, request.body), 'Quality check recorded'),
  )
}
