// /returns (customer token and x-partner-id): ask to return units of an order, list and read the
// customer's return requests, set where a COD refund goes, answer a NEEDS_INFO request.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import { customerOf, type Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { security } from '../../http/schemas.ts'
import { ImageUrls, ListQuery, Params, RefundTo, Resolution, ReturnListItem, ReturnRequest } from './schemas.ts'
import type { ReturnService } from './service.ts'

export function returnCustomerRoutes(app: RouteApp, { returns, guards }: { returns: ReturnService; guards: Guards }): void {
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
}
