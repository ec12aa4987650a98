// /admin/support/tickets (admin bearer, role SUPPORT or ADMIN): every partner's tickets, one with its
// conversation, an agent's replies (and their image uploads) and status moves.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import { adminOf, type Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { security } from '../../http/schemas.ts'
import { backOfficeScope } from '../../lib/scope.ts'
import { Slot, SlotsBody } from '../uploads/index.ts'
import { AdminTicket } from './route-shared.ts'
import { AgentReplyBody, ListQuery, Message, Params, Status, Ticket } from './schemas.ts'
import { adminAgent, type SupportService } from './service.ts'

export function supportAdminRoutes(app: RouteApp, { support, guards }: { support: SupportService; guards: Guards }): void {
  const agent = { preValidation: guards.admin('SUPPORT') }
  const adminTags = ['Admin: support']

  app.get(
    '/admin/support/tickets',
    {
      ...agent,
      schema: {
        operationId: 'adminListTickets',
        tags: adminTags,
        security: security.admin,
        summary: "Every partner's tickets, newest first",
        querystring: Type.Object({ ...ListQuery, partnerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }),
        response: { 200: PagedEnvelope(Ticket), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, limit, partnerId, status, search } = request.query
      const result = await support.list(backOfficeScope(partnerId), { status, search }, { page, limit })
      return paged(result.data, result.meta, 'Tickets retrieved')
    },
  )
  app.get(
    '/admin/support/tickets/:ticketId',
    { ...agent, schema: { operationId: 'adminGetTicket', tags: adminTags, security: security.admin, summary: 'One ticket with its conversation', params: Params, response: { 200: Envelope(AdminTicket), ...errorResponses(401, 403, 404) } } },
    async (request) => ok(await support.adminView(request.params.ticketId), 'Ticket retrieved'),
  )
  app.post(
    '/admin/support/tickets/:ticketId/messages',
    {
      ...agent,
      schema: {
        operationId: 'adminReplyToTicket',
        tags: adminTags,
        security: security.admin,
        summary: 'Reply as an agent; an OPEN ticket moves to IN_PROGRESS',
        params: Params,
        body: AgentReplyBody,
        response: { 201: Envelope(Message), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      reply.status(201)
      return ok(await support.agentReply(adminAgent(adminOf(request).adminId), request.params.ticketId, { body: request.body.body, imageUrls: request.body.imageUrls }), 'Reply sent', 201)
    },
  )
  app.post(
    '/admin/support/tickets/:ticketId/uploads/signed-urls',
    {
      ...agent,
      schema: {
        operationId: 'adminCreateTicketUploadUrls',
        tags: adminTags,
        security: security.admin,
        summary: "Signed upload addresses for an agent's reply images (1-5 files, png/jpeg/webp/gif, up to 15 MB each)",
        description:
          "Issued for the ticket's customer, as support uploads: PUT each file to its uploadUrl with the signed Content-Type, then cite the publicUrls as the reply's imageUrls. A CLOSED ticket is 409.",
        params: Params,
        body: SlotsBody,
        response: { 201: Envelope(Type.Array(Slot)), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      reply.status(201)
      return ok(await support.agentUploadSlots(adminAgent(adminOf(request).adminId), request.params.ticketId, request.body.files), 'Upload URLs created', 201)
    },
  )
  app.post(
    '/admin/support/tickets/:ticketId/status',
    {
      ...agent,
      schema: {
        operationId: 'adminUpdateTicketStatus',
        tags: adminTags,
        security: security.admin,
        summary: 'Move a ticket: OPEN -> IN_PROGRESS -> RESOLVED -> CLOSED (409 otherwise)',
        params: Params,
        body: Type.Object({ status: Status }),
        response: { 200: Envelope(Ticket), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ok(await support.setStatus(adminAgent(adminOf(request).adminId), request.params.ticketId, request.body.status), 'Ticket status changed'),
  )
}
