// /returns (customer token and x-partner-id) and /admin/returns (SUPPORT or ADMIN).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import { adminOf, customerOf, type Guards, partnerOf } from '../../http/guards.ts'
import { backOfficeScope } from '../../lib/scope.ts'
import { PageQuery, security } from '../../http/schemas.ts'
import { AppError } from '../../lib/errors.ts'
import { parseRupees } from '../../lib/money.ts'
import { Refund } from '../orders/index.ts'
import type { ReturnService } from './service.ts'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])
const Time = Type.String({ format: 'date-time' })
const Money = Type.String({ description: 'Rupees with two decimals' })
const Status = Type.Enum(['REQUESTED', 'UNDER_REVIEW', 'NEEDS_INFO', 'APPROVED', 'REJECTED', 'REFUND_PENDING', 'REFUNDED', 'REFUND_FAILED', 'RESOLVED'])
const Resolution = Type.Enum(['ORIGINAL_PAYMENT_REFUND', 'WALLET_CREDIT', 'REPLACEMENT', 'KEEP_ITEM_WALLET_CREDIT'])
const ReturnFields = {
  id: Type.String(),
  partnerId: Type.String({ description: 'Integration ID' }),
  orderId: Type.String(),
  status: Status,
  reason: Type.String(),
  detail: Type.String(),
  requestedResolution: Resolution,
  requestedAmount: Money,
  approvedAmount: Nullable(Money),
  imageUrls: Type.Array(Type.String()),
  items: Type.Array(Type.Object({ id: Type.String(), orderItemId: Type.String(), quantity: Type.Integer(), reason: Type.String(), requestedAmount: Money })),
  refunds: Type.Array(Refund),
  replacementOrderId: Nullable(Type.String()),
  createdAt: Time,
  updatedAt: Time,
}
const ReturnRequest = Type.Object(ReturnFields)
const ReturnListItem = Type.Object({ id: Type.String(), orderId: Type.String(), status: Status, reason: Type.String(), requestedResolution: Resolution, requestedAmount: Money })
const ImageUrls = Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 10, description: 'publicUrls of returns uploads of this customer' })
const ListQuery = {
  ...PageQuery,
  status: Type.Optional(Status),
  resolution: Type.Optional(Resolution),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Reason, detail or order number' })),
}
const Params = Type.Object({ returnRequestId: Type.String({ maxLength: 100 }) })

export const returnRoutes: FastifyPluginAsyncTypebox<{ returns: ReturnService; guards: Guards }> = async (app, { returns, guards }) => {
  const customer = { preValidation: guards.customerOfPartner }
  const tags = ['Returns']

  app.post(
    '/returns',
    {
      ...customer,
      schema: {
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
    { ...customer, schema: { tags, security: security.customer, summary: "The customer's return requests, newest first", querystring: Type.Object(ListQuery), response: { 200: PagedEnvelope(ReturnListItem), ...errorResponses(400, 401) } } },
    async (request) => {
      const { page, limit, status, resolution, search } = request.query
      const result = await returns.list(customerOf(request), { status, resolution, search }, { page, limit })
      return paged(result.data, result.meta, 'Return requests retrieved')
    },
  )

  app.get(
    '/returns/:returnRequestId',
    { ...customer, schema: { tags, security: security.customer, summary: 'One return request with its items and refunds', params: Params, response: { 200: Envelope(ReturnRequest), ...errorResponses(401, 404) } } },
    async (request) => ok(await returns.get(customerOf(request), request.params.returnRequestId), 'Return request retrieved'),
  )

  app.post(
    '/returns/:returnRequestId/respond',
    {
      ...customer,
      schema: {
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
  const AdminReturn = Type.Object({
    ...ReturnFields,
    userId: Type.String(),
    history: Type.Array(Type.Object({ fromStatus: Nullable(Status), status: Status, actor: Type.String(), note: Nullable(Type.String()), at: Time })),
  })

  app.get(
    '/admin/returns',
    {
      ...agent,
      schema: {
        tags: adminTags,
        security: security.admin,
        summary: "Every partner's return requests, newest first",
        querystring: Type.Object({ ...ListQuery, partnerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }),
        response: { 200: PagedEnvelope(ReturnListItem), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, limit, partnerId, status, resolution, search } = request.query
      const result = await returns.list(backOfficeScope(partnerId), { status, resolution, search }, { page, limit })
      return paged(result.data, result.meta, 'Return requests retrieved')
    },
  )
  app.get(
    '/admin/returns/:returnRequestId',
    { ...agent, schema: { tags: adminTags, security: security.admin, summary: 'One return request with its history and refunds', params: Params, response: { 200: Envelope(AdminReturn), ...errorResponses(401, 403, 404) } } },
    async (request) => ok(await returns.adminView(request.params.returnRequestId), 'Return request retrieved'),
  )
  app.post(
    '/admin/returns/:returnRequestId/status',
    {
      ...agent,
      schema: {
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

  // The partner's own server (x-partner-id + x-partner-secret): its return requests only, read-only
  // (the review and the refunds stay with the merchant's back office).
  const partner = { preValidation: guards.partner }
  const partnerTags = ['Partner server: returns']
  app.get(
    '/partner/returns',
    {
      ...partner,
      schema: {
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
    { ...partner, schema: { tags: partnerTags, security: security.partner, summary: 'One return request of the partner with its history and refunds', params: Params, response: { 200: Envelope(AdminReturn), ...errorResponses(401, 404) } } },
    async (request) => ok(await returns.adminView(request.params.returnRequestId, partnerOf(request)), 'Return request retrieved'),
  )
}
