// /support/tickets (customer token and x-partner-id) and /admin/support/tickets (SUPPORT or ADMIN).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import { adminOf, customerOf, type Guards, partnerOf } from '../../http/guards.ts'
import { backOfficeScope } from '../../lib/scope.ts'
import { adminAgent, partnerAgent, type SupportService } from './service.ts'
import { security } from '../../http/schemas.ts'
import { Slot, SlotsBody } from '../uploads/index.ts'
import { AgentReplyBody, ImageUrls, ListQuery, Message, Params, Status, Ticket } from './schemas.ts'

export const supportRoutes: FastifyPluginAsyncTypebox<{ support: SupportService; guards: Guards }> = async (app, { support, guards }) => {
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

  const agent = { preValidation: guards.admin('SUPPORT') }
  const adminTags = ['Admin: support']
  const AdminTicket = Type.Object({ ...Ticket.properties, userId: Type.String(), messages: Type.Array(Message) })

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
