// /support/tickets (customer token and x-partner-id): open a ticket, list and read the customer's
// tickets, and their conversation.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import { customerOf, type Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { security } from '../../http/schemas.ts'
import { ImageUrls, ListQuery, Message, Params, Ticket } from './schemas.ts'
import type { SupportService } from './service.ts'

export function supportCustomerRoutes(app: RouteApp, { support, guards }: { support: SupportService; guards: Guards }): void {
  const customer = { preValidation: guards.customerOfPartner }
  const tags = ['Support tickets']

  app.post(
    '/support/tickets',
    {
      ...customer,
      schema: {
        operationId: 'createTicket',
        tags,
        security: security.customer,
        summary: 'Open a ticket (optionally about one of the customer own orders, with uploaded images)',
        body: Type.Object({
          topic: Type.String({ minLength: 1, maxLength: 200 }),
          detail: Type.String({ minLength: 1, maxLength: 5000 }),
          orderId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          imageUrls: Type.Optional(ImageUrls(10)),
        }),
        response: { 201: Envelope(Ticket), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      reply.status(201)
      return ok(await support.create(customerOf(request), request.body), 'Ticket created', 201)
    },
  )

  app.get(
    '/support/tickets',
    { ...customer, schema: { operationId: 'listTickets', tags, security: security.customer, summary: "The customer's tickets, newest first", querystring: Type.Object(ListQuery), response: { 200: PagedEnvelope(Ticket), ...errorResponses(400, 401) } } },
    async (request) => {
      const { page, limit, status, search } = request.query
      const result = await support.list(customerOf(request), { status, search }, { page, limit })
      return paged(result.data, result.meta, 'Tickets retrieved')
    },
  )

  app.get(
    '/support/tickets/:ticketId',
    { ...customer, schema: { operationId: 'getTicket', tags, security: security.customer, summary: 'One ticket', params: Params, response: { 200: Envelope(Ticket), ...errorResponses(401, 404) } } },
    async (request) => ok(await support.get(customerOf(request), request.params.ticketId), 'Ticket retrieved'),
  )

  app.get(
    '/support/tickets/:ticketId/messages',
    { ...customer, schema: { operationId: 'listTicketMessages', tags, security: security.customer, summary: 'The conversation, oldest first', params: Params, response: { 200: Envelope(Type.Array(Message)), ...errorResponses(401, 404) } } },
    async (request) => ok(await support.messages(customerOf(request), request.params.ticketId), 'Messages retrieved'),
  )

  app.post(
    '/support/tickets/:ticketId/messages',
    {
      ...customer,
      schema: {
        operationId: 'replyToTicket',
        tags,
        security: security.customer,
        summary: 'Reply; a reply on a RESOLVED ticket reopens it, a CLOSED ticket answers 409',
        params: Params,
        body: Type.Object({ body: Type.String({ minLength: 1, maxLength: 5000 }), imageUrls: Type.Optional(ImageUrls(5)) }),
        response: { 201: Envelope(Message), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      reply.status(201)
      return ok(await support.customerReply(customerOf(request), request.params.ticketId, request.body), 'Message sent', 201)
    },
  )
}
