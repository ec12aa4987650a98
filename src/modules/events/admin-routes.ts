// /admin/partners/{id}/webhook and /admin/events (admin bearer, role ADMIN).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import { type Guards, partnerOf } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import type { EventAdminService } from './admin-service.ts'
import { PageQuery, security } from '../../http/schemas.ts'
import { Event, EventDetail, Ping, Status, Webhook } from './schemas.ts'

interface EventAdminDeps {
  admin: EventAdminService
  guards: Guards
}
const tags = ['Admin: events and webhooks']
const sec = security.admin
const EventParams = Type.Object({ eventId: Type.String({ maxLength: 100 }) })

export const eventAdminRoutes: FastifyPluginAsyncTypebox<{ admin: EventAdminService; guards: Guards }> = async (app, { admin, guards }) => {
  partnerWebhookAdminRoutes(app, { admin, guards })
  partnerEventAdminRoutes(app, { admin, guards })
  partnerServerRoutes(app, { admin, guards })
}

/** /admin/partners/{partnerId}/webhook: a partner's webhook endpoint, its secret, a ping and a test event. */
export function partnerWebhookAdminRoutes(app: RouteApp, { admin, guards }: EventAdminDeps): void {
  const common = { preValidation: guards.admin() }
  const PartnerParams = Type.Object({ partnerId: Type.String({ maxLength: 100 }) })

  app.get('/admin/partners/:partnerId/webhook', { ...common, schema: { operationId: 'adminGetWebhook', tags, security: sec, summary: "A partner's webhook endpoint", params: PartnerParams, response: { 200: Envelope(Webhook), ...errorResponses(401, 403, 404) } } }, async (request) =>
    ok(await admin.webhook(request.params.partnerId), 'Webhook retrieved'),
  )
  app.put(
    '/admin/partners/:partnerId/webhook',
    {
      ...common,
      schema: {
        operationId: 'adminSetWebhook',
        tags,
        security: sec,
        summary: 'Set the webhook URL (https; http only outside production). The first time, the signing secret is created and shown once',
        params: PartnerParams,
        body: Type.Object({ url: Type.String({ minLength: 1, maxLength: 2000 }) }),
        response: { 200: Envelope(Webhook), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ok(await admin.setWebhook(request.params.partnerId, request.body.url), 'Webhook saved'),
  )
  app.delete('/admin/partners/:partnerId/webhook', { ...common, schema: { operationId: 'adminDeleteWebhook', tags, security: sec, summary: 'Stop sending events (they are kept, and sent once a URL is set again)', params: PartnerParams, response: { 200: Envelope(Webhook), ...errorResponses(401, 403, 404) } } }, async (request) =>
    ok(await admin.removeWebhook(request.params.partnerId), 'Webhook removed'),
  )
  app.post('/admin/partners/:partnerId/webhook/rotate-secret', { ...common, schema: { operationId: 'adminRotateWebhookSecret', tags, security: sec, summary: 'A new signing secret, used from the next delivery; shown once', params: PartnerParams, response: { 200: Envelope(Webhook), ...errorResponses(401, 403, 404) } } }, async (request) =>
    ok(await admin.rotateSecret(request.params.partnerId), 'Webhook secret rotated'),
  )
  app.post(
    '/admin/partners/:partnerId/webhook/ping',
    { ...common, schema: { operationId: 'adminPingWebhook', tags, security: sec, summary: "Send a signed ping event to the partner's URL now; answers the receiver's status and latency", params: PartnerParams, response: { 200: Envelope(Ping), ...errorResponses(401, 403, 404, 409) } } },
    async (request) => ok(await admin.ping(request.params.partnerId), 'Ping sent'),
  )
  app.post('/admin/partners/:partnerId/webhook/test', { ...common, schema: { operationId: 'adminQueueWebhookTest', tags, security: sec, summary: 'Queue a webhook.test event for the partner', params: PartnerParams, response: { 201: Envelope(Event), ...errorResponses(401, 403, 404, 409) } } }, async (request, reply) => {
    reply.status(201)
    return ok(await admin.sendTest(request.params.partnerId), 'Test event queued', 201)
  })
}

/** /admin/events: partner events, one event, replays. */
export function partnerEventAdminRoutes(app: RouteApp, { admin, guards }: EventAdminDeps): void {
  const common = { preValidation: guards.admin() }

  app.get(
    '/admin/events',
    {
      ...common,
      schema: {
        operationId: 'adminListEvents',
        tags,
        security: sec,
        summary: 'Partner events, newest first',
        querystring: Type.Object({
          ...PageQuery,
          partnerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          type: Type.Optional(Type.String({ maxLength: 100 })),
          status: Type.Optional(Status),
          subjectId: Type.Optional(Type.String({ maxLength: 100 })),
        }),
        response: { 200: PagedEnvelope(Event), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, limit, partnerId, type, status, subjectId } = request.query
      const result = await admin.list({ partnerId, type, status, subjectId }, { page, limit })
      return paged(result.data, result.meta, 'Events retrieved')
    },
  )
  app.get('/admin/events/:eventId', { ...common, schema: { operationId: 'adminGetEvent', tags, security: sec, summary: 'One event with every delivery attempt and its answer', params: EventParams, response: { 200: Envelope(EventDetail), ...errorResponses(401, 403, 404) } } }, async (request) =>
    ok(await admin.view(request.params.eventId), 'Event retrieved'),
  )
  app.post('/admin/events/:eventId/replay', { ...common, schema: { operationId: 'adminReplayEvent', tags, security: sec, summary: 'Send the event again at the next dispatch round', params: EventParams, response: { 200: Envelope(EventDetail), ...errorResponses(401, 403, 404) } } }, async (request) =>
    ok(await admin.replay(request.params.eventId), 'Event queued for delivery'),
  )
  app.post(
    '/admin/events/replay-failed',
    {
      ...common,
      schema: {
        operationId: 'adminReplayFailedEvents',
        tags,
        security: sec,
        summary: 'Queue every FAILED event again (of one partner, or all)',
        body: Type.Object({ partnerId: Type.Optional(Type.String({ maxLength: 100 })) }),
        response: { 200: Envelope(Type.Object({ requeued: Type.Integer() })), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ok(await admin.replayFailed(request.body?.partnerId), 'Failed events queued'),
  )
}

/** The partner's own server (x-partner-id + x-partner-secret): its webhook endpoint and its events. */
export function partnerServerRoutes(app: RouteApp, { admin, guards }: EventAdminDeps): void {
  const partner = { preValidation: guards.partner }
  const partnerTags = ['Partner server: webhooks and events']
  const psec = security.partner
  app.get('/partner/webhook', { ...partner, schema: { operationId: 'partnerGetWebhook', tags: partnerTags, security: psec, summary: "The partner's webhook endpoint", response: { 200: Envelope(Webhook), ...errorResponses(401) } } }, async (request) =>
    ok(await admin.webhook(partnerOf(request).partnerId), 'Webhook retrieved'),
  )
  app.put(
    '/partner/webhook',
    {
      ...partner,
      schema: {
        operationId: 'partnerSetWebhook',
        tags: partnerTags,
        security: psec,
        summary: 'Set the webhook URL (https; http only outside production). The first time, the signing secret is created and shown once',
        body: Type.Object({ url: Type.String({ minLength: 1, maxLength: 2000 }) }),
        response: { 200: Envelope(Webhook), ...errorResponses(400, 401) },
      },
    },
    async (request) => ok(await admin.setWebhook(partnerOf(request).partnerId, request.body.url), 'Webhook saved'),
  )
  app.delete('/partner/webhook', { ...partner, schema: { operationId: 'partnerDeleteWebhook', tags: partnerTags, security: psec, summary: 'Stop sending events (they are kept, and sent once a URL is set again); the secret stays', response: { 200: Envelope(Webhook), ...errorResponses(401) } } }, async (request) =>
    ok(await admin.removeWebhook(partnerOf(request).partnerId), 'Webhook removed'),
  )
  app.post(
    '/partner/webhook/rotate-secret',
    {
      ...partner,
      schema: {
        operationId: 'partnerRotateWebhookSecret',
        tags: partnerTags,
        security: psec,
        summary: 'A new signing secret, used from the next delivery and shown once; deliveries are also signed with the previous one until previousSecretExpiresAt',
        response: { 200: Envelope(Webhook), ...errorResponses(401) },
      },
    },
    async (request) => ok(await admin.rotateSecret(partnerOf(request).partnerId), 'Webhook secret rotated'),
  )
  app.post(
    '/partner/webhook/ping',
    { ...partner, schema: { operationId: 'partnerPingWebhook', tags: partnerTags, security: psec, summary: 'Send a signed ping event to the webhook URL now; answers the receiver\'s status and latency', response: { 200: Envelope(Ping), ...errorResponses(401, 409) } } },
    async (request) => ok(await admin.ping(partnerOf(request).partnerId), 'Ping sent'),
  )
  app.get(
    '/partner/events',
    {
      ...partner,
      schema: {
        operationId: 'partnerListEvents',
        tags: partnerTags,
        security: psec,
        summary: "The partner's events, newest first, with their delivery status",
        querystring: Type.Object({
          ...PageQuery,
          type: Type.Optional(Type.String({ maxLength: 100 })),
          status: Type.Optional(Status),
          subjectId: Type.Optional(Type.String({ maxLength: 100 })),
        }),
        response: { 200: PagedEnvelope(Event), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { page, limit, type, status, subjectId } = request.query
      const result = await admin.list({ partnerId: partnerOf(request).partnerId, type, status, subjectId }, { page, limit })
      return paged(result.data, result.meta, 'Events retrieved')
    },
  )
  app.get('/partner/events/:eventId', { ...partner, schema: { operationId: 'partnerGetEvent', tags: partnerTags, security: psec, summary: 'One event with every delivery attempt and its answer', params: EventParams, response: { 200: Envelope(EventDetail), ...errorResponses(401, 404) } } }, async (request) =>
    ok(await admin.view(request.params.eventId, partnerOf(request)), 'Event retrieved'),
  )
  app.post('/partner/events/:eventId/replay', { ...partner, schema: { operationId: 'partnerReplayEvent', tags: partnerTags, security: psec, summary: 'Send the event again at the next dispatch round', params: EventParams, response: { 200: Envelope(EventDetail), ...errorResponses(401, 404) } } }, async (request) =>
    ok(await admin.replay(request.params.eventId, partnerOf(request)), 'Event queued for delivery'),
  )
}
