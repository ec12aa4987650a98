// /partner/support/tickets (x-partner-id + x-partner-secret): the partner's own server lists, reads,
// answers and moves its tickets, as their support.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import { type Guards, partnerOf } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { security } from '../../http/schemas.ts'
import { backOfficeScope } from '../../lib/scope.ts'
import { AdminTicket } from './route-shared.ts'
import { AgentReplyBody, ListQuery, Message, Params, Status, Ticket } from './schemas.ts'
import { partnerAgent, type SupportService } from './service.ts'

export function supportPartnerRoutes(app: RouteApp, { support, guards }: { support: SupportService; guards: Guards }): void {
  // The partner's own server (x-partner-id + x-partner-secret): its tickets only, as its support.
  const partner = { preValidation: guards.partner }
  const partnerTags = ['Partner server: support']
  app.get(
    '/partner/support/tickets',
    {
      ...partner,
      schema: {
        operationId: 'partnerListTickets',
        tags: partnerTags,
        security: security.partner,
        summary: "The partner's tickets, newest first",
        querystring: Type.Object({ ...ListQuery, customerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A customer (user) ID' })) }),
        response: { 200: PagedEnvelope(Ticket), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { page, limit, status, search, customerId } = request.query
      const scope = partnerOf(request)
      const result = await support.list(customerId === undefined ? scope : backOfficeScope(scope.partnerId, customerId), { status, search }, { page, limit })
      return paged(result.data, result.meta, 'Tickets retrieved')
    },
  )
  app.get(
    '/partner/support/tickets/:ticketId',
    { ...partner, schema: { operationId: 'partnerGetTicket', tags: partnerTags, security: security.partner, summary: 'One ticket of the partner with its conversation', params: Params, response: { 200: Envelope(AdminTicket), ...errorResponses(401, 404) } } },
    async (request) => ok(await support.adminView(request.params.ticketId, partnerOf(request)), 'Ticket retrieved'),
  )
  app.post(
    '/partner/support/tickets/:ticketId/messages',
    {
      ...partner,
      schema: {
        operationId: 'partnerReplyToTicket',
        tags: partnerTags,
        security: security.partner,
        summary: "Reply as the partner's support; an OPEN ticket moves to IN_PROGRESS",
        params: Params,
        body: AgentReplyBody,
        response: { 201: Envelope(Message), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      reply.status(201)
      return ok(await support.agentReply(partnerAgent(partnerOf(request)), request.params.ticketId, { body: request.body.body, imageUrls: request.body.imageUrls }), 'Reply sent', 201)
    },
  )
  app.post(
    '/partner/support/tickets/:ticketId/status',
    {
      ...partner,
      schema: {
        operationId: 'partnerUpdateTicketStatus',
        tags: partnerTags,
        security: security.partner,
        summary: 'Move a ticket: OPEN -> IN_PROGRESS -> RESOLVED -> CLOSED (409 otherwise)',
        params: Params,
        body: Type.Object({ status: Status }),
        response: { 200: Envelope(Ticket), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => ok(await support.setStatus(partnerAgent(partnerOf(request)), request.params.ticketId, request.body.status), 'Ticket status changed'),
  )
}
