// Back office for partner events: a partner's webhook endpoint and secret, the event log with its
// delivery attempts, replays and a test event.
import { and, eq } from 'drizzle-orm'
import type { Deps } from '../../deps.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { newSecret } from '../../lib/ids.ts'
import { pageMeta } from '../../lib/pagination.ts'
import { backOfficeScope, inScope, type ListScope } from '../../lib/scope.ts'
import { createSecretBox } from '../../lib/secret-box.ts'
import { partnerWebhooks, setPartnerWebhook } from '../partners/index.ts'
import { recordEvent } from './index.ts'
import { checkWebhookUrl } from './outbound.ts'
import { type Delivery, type EventFilter, eventRepo, type OutboxEvent } from './repo.ts'
import { outboxEvents } from './schema.sql.ts'

const eventView = (e: OutboxEvent) => ({
  id: e.id,
  partnerId: e.partnerId,
  type: e.type,
  subjectId: e.subjectId,
  data: e.data,
  status: e.status,
  attempts: e.attempts,
  nextAttemptAt: e.status === 'PENDING' ? e.nextAttemptAt.toISOString() : null,
  lastError: e.lastError,
  deliveredAt: e.deliveredAt?.toISOString() ?? null,
  createdAt: e.createdAt.toISOString(),
})

const deliveryView = (d: Delivery) => ({
  id: d.id,
  url: d.url,
  statusCode: d.statusCode,
  error: d.error,
  durationMs: d.durationMs,
  createdAt: d.createdAt.toISOString(),
})

export function createEventAdminService({ database, clock, config }: Deps) {
  const db = database.db
  const box = createSecretBox(config.authSecret, 'webhook-secrets')

  async function webhookOf(partnerId: string) {
    const found = (await partnerWebhooks(db, [partnerId])).get(partnerId)
    if (!found) throw notFound('Partner')
    return found
  }

  return {
    async webhook(partnerId: string) {
      const found = await webhookOf(partnerId)
      return { partnerId, url: found.url, hasSecret: found.secretEncrypted !== null }
    },

    /** Sets the URL; the first time, also creates the signing secret and shows it (once). */
    async setWebhook(partnerId: string, url: string) {
      const problem = checkWebhookUrl(url, config.webhooks)
      if (problem) throw new AppError('BAD_REQUEST', 'Validation failed', [`url ${problem}`])
      const current = await webhookOf(partnerId)
      const secret = current.secretEncrypted ? null : newSecret('whsec')
      await setPartnerWebhook(db, partnerId, { url, ...(secret ? { secretEncrypted: box.seal(secret) } : {}) })
      return { partnerId, url, hasSecret: true, ...(secret ? { secret } : {}) }
    },

    async removeWebhook(partnerId: string) {
      await webhookOf(partnerId)
      await setPartnerWebhook(db, partnerId, { url: null })
      return { partnerId, url: null, hasSecret: (await webhookOf(partnerId)).secretEncrypted !== null }
    },

    /** A new secret, effective for the next delivery; shown once. */
    async rotateSecret(partnerId: string) {
      const current = await webhookOf(partnerId)
      const secret = newSecret('whsec')
      await setPartnerWebhook(db, partnerId, { secretEncrypted: box.seal(secret) })
      return { partnerId, url: current.url, hasSecret: true, secret }
    },

    async sendTest(partnerId: string) {
      const current = await webhookOf(partnerId)
      if (!current.url) throw new AppError('CONFLICT', 'The partner has no webhook URL')
      const now = clock.now()
      const id = await db.transaction((tx) => recordEvent(tx, { partnerId, type: 'webhook.test', subjectId: partnerId, data: { message: 'Test event from the back office' }, at: now }))
      return eventView((await eventRepo.find(db, id))!)
    },

    async list(filter: EventFilter, query: { page: number; limit: number }) {
      const result = await eventRepo.page(db, filter, query.page, query.limit)
      return { data: result.rows.map(eventView), meta: pageMeta(result.total, query) }
    },

    /** One event with its deliveries: the back office sees every partner's, a partner's server its own (scope). */
    async view(eventId: string, scope: ListScope = backOfficeScope(undefined)) {
      const event = await eventRepo.find(db, eventId)
      if (!event || !inScope(scope, event)) throw notFound('Event')
      return { ...eventView(event), deliveries: (await eventRepo.deliveries(db, eventId)).map(deliveryView) }
    },

    /** Sends the event again (whatever its status) at the next dispatch round. */
    async replay(eventId: string, scope: ListScope = backOfficeScope(undefined)) {
      const event = await eventRepo.find(db, eventId)
      if (!event || !inScope(scope, event)) throw notFound('Event')
      await eventRepo.requeue(db, eq(outboxEvents.id, eventId), clock.now())
      return this.view(eventId, scope)
    },

    async replayFailed(partnerId: string | undefined) {
      const where = and(eq(outboxEvents.status, 'FAILED'), partnerId ? eq(outboxEvents.partnerId, partnerId) : undefined)
      return { requeued: await eventRepo.requeue(db, where, clock.now()) }
    },
  }
}

export type EventAdminService = ReturnType<typeof createEventAdminService>
