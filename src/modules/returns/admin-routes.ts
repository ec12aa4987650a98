// /admin/returns (admin bearer, role SUPPORT or ADMIN): every partner's return requests, one with its
// history and refunds, and the review: move along the machine, book the reverse pickup, quality check.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import { adminOf, type Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { security } from '../../http/schemas.ts'
import { AppError } from '../../lib/errors.ts'
import { parseRupees } from '../../lib/money.ts'
import { backOfficeScope } from '../../lib/scope.ts'
import { CourierFields, ParcelFields } from '../shipping/index.ts'
import { AdminReturn, AdminReturnListItem, ListQuery, Params, Status } from './schemas.ts'
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
    '/admin/returns/:returnRequestId/status',
    {
      ...agent,
      schema: {
        operationId: 'adminUpdateReturnStatus',
        tags: adminTags,
        security: security.admin,
        summary: 'Move a return along the machine; APPROVED may lower the amount (with a note); REFUND_PENDING starts the refund',
        params: Params,
        body: Type.Object({
          status: Status,
          note: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
          approvedAmount: Type.Optional(Type.Union([Type.String({ pattern: '^\\d{1,13}(\\.\\d{1,2})?$' }), Type.Number({ minimum: 0, maximum: 1e13 })], { 'x-message': 'must be an amount with at most two decimals' })),
        }),
        response: { 200: Envelope(AdminReturn), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { status, note, approvedAmount } = request.body
      const paise = approvedAmount === undefined ? undefined : parseRupees(approvedAmount)
      if (paise === null) throw new AppError('BAD_REQUEST', 'Validation failed', ['approvedAmount must be an amount with at most two decimals'])
      return ok(await returns.setStatus(adminOf(request).adminId, request.params.returnRequestId, { status, note, approvedAmount: paise }), 'Return request status changed')
    },
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
