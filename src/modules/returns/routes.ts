// /returns (customer token and x-partner-id) and /admin/returns (SUPPORT or ADMIN).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import { adminOf, customerOf, type Guards, partnerOf } from '../../http/guards.ts'
import { backOfficeScope } from '../../lib/scope.ts'
import { AppError } from '../../lib/errors.ts'
import { parseRupees } from '../../lib/money.ts'
import { CourierFields, ParcelFields } from '../shipping/index.ts'
import type { ReturnService } from './service.ts'
import { security } from '../../http/schemas.ts'
import { AdminReturn, AdminReturnListItem, ImageUrls, ListQuery, Params, PartnerReturn, RefundTo, Resolution, ReturnListItem, ReturnRequest, Status } from './schemas.ts'

export const returnRoutes: FastifyPluginAsyncTypebox<{ returns: ReturnService; guards: Guards }> = async (app, { returns, guards }) => {
  const customer = { preValidation: guards.customerOfPartner }
  const tags = ['Returns']

  app.post(
    '/returns',
    {
      ...customer,
      schema: {
        operationId: 'createReturn',
        tags,
        security: security.customer,
        summary: 'Ask to return units of a delivered, paid order inside its return window',
        body: Type.Object({
          orderId: Type.String({ minLength: 1, maxLength: 100 }),
          reason: Type.String({ minLength: 1, maxLength: 200 }),
          detail: Type.String({ minLength: 1, maxLength: 5000 }),
          requestedResolution: Resolution,
          items: Type.Array(
            Type.Object({ orderItemId: Type.String({ minLength: 1, maxLength: 100 }), quantity: Type.Integer({ minimum: 1, maximum: 9999 }), reason: Type.String({ minLength: 1, maxLength: 200 }) }),
            { minItems: 1, maxItems: 100 },
          ),
          imageUrls: Type.Optional(ImageUrls),
          refundTo: Type.Optional(RefundTo),
        }),
        response: { 201: Envelope(ReturnRequest), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      reply.status(201)
      return ok(await returns.create(customerOf(request), request.body), 'Return request created', 201)
    },
  )

  app.get(
    '/returns',
    { ...customer, schema: { operationId: 'listReturns', tags, security: security.customer, summary: "The customer's return requests, newest first", querystring: Type.Object(ListQuery), response: { 200: PagedEnvelope(ReturnListItem), ...errorResponses(400, 401) } } },
    async (request) => {
      const { page, limit, status, resolution, search } = request.query
      const result = await returns.list(customerOf(request), { status, resolution, search }, { page, limit })
      return paged(result.data, result.meta, 'Return requests retrieved')
    },
  )

  app.get(
    '/returns/:returnRequestId',
    { ...customer, schema: { operationId: 'getReturn', tags, security: security.customer, summary: 'One return request with its items and refunds', params: Params, response: { 200: Envelope(ReturnRequest), ...errorResponses(401, 404) } } },
    async (request) => ok(await returns.get(customerOf(request), request.params.returnRequestId), 'Return request retrieved'),
  )

  app.put(
    '/returns/:returnRequestId/refund-to',
    {
      ...customer,
      schema: {
        operationId: 'setReturnRefundTo',
        tags,
        security: security.customer,
        summary: 'Change the UPI ID or bank account that the cash refund of a COD order is paid out to: before the refund starts, or after it failed',
        params: Params,
        body: RefundTo,
        response: { 200: Envelope(ReturnRequest), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => ok(await returns.setRefundTo(customerOf(request), request.params.returnRequestId, request.body), 'Refund destination saved'),
  )

  app.post(
    '/returns/:returnRequestId/respond',
    {
      ...customer,
      schema: {
        operationId: 'respondToReturn',
        tags,
        security: security.customer,
        summary: 'Answer a NEEDS_INFO request: more detail and images; the return goes back UNDER_REVIEW',
        params: Params,
        body: Type.Object({ detail: Type.String({ minLength: 1, maxLength: 5000 }), imageUrls: Type.Optional(ImageUrls) }),
        response: { 200: Envelope(ReturnRequest), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => ok(await returns.respond(customerOf(request), request.params.returnRequestId, request.body), 'Response sent'),
  )

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
