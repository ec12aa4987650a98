// Back office for partner events: a partner's webhook endpoint and secret, the event log with its
// delivery attempts, replays and a test event.
import { and, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { newId, newSecret } from '../../lib/ids.ts'
import { pageMeta } from '../../lib/pagination.ts'
import { backOfficeScope, inScope, type ListScope } from '../../lib/scope.ts'
import { createSecretBox } from '../../lib/secret-box.ts'
import { partnerWebhooks, setPartnerWebhook } from '../partners/index.ts'
import { recordEvent } from './record.ts'
import { signingSecrets } from './dispatcher.ts'
import { checkWebhookUrl, OutboundError, postJson } from './outbound.ts'
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signPayload } from './signing.ts'
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

export class EventAdminService {
  readonly #db: Db
  readonly #clock: Deps['clock']
  readonly #config: ServiceDeps<'authSecret' | 'partnerSecretOverlapSeconds' | 'webhooks'>['config']
  readonly #box: ReturnType<typeof createSecretBox>
  readonly #outbound: { timeoutMs: number; allowPrivateNetworks: boolean; allowHttp: boolean }

  constructor({ database, clock, config }: ServiceDeps<'authSecret' | 'partnerSecretOverlapSeconds' | 'webhooks'>) {
    this.#db = database.db
    this.#clock = clock
    this.#config = config
    this.#box = createSecretBox(config.authSecret, 'webhook-secrets')
    this.#outbound = { timeoutMs: config.webhooks.timeoutMs, allowPrivateNetworks: config.webhooks.allowPrivateNetworks, allowHttp: config.webhooks.allowHttp }
  }

  async #webhookOf(partnerId: string) {
    const found = (await partnerWebhooks(this.#db, [partnerId])).get(partnerId)
    if (!found) throw notFound('Partner')
    return found
  }

  async webhook(partnerId: string) {
    const found = await this.#webhookOf(partnerId)
    return { partnerId, url: found.url, hasSecret: found.secretEncrypted !== null }
  }

  /** Sets the URL; the first time, also creates the signing secret and shows it (once). */
  async setWebhook(partnerId: string, url: string) {
    const problem = checkWebhookUrl(url, this.#config.webhooks)
    if (problem) throw new AppError('BAD_REQUEST', 'Validation failed', [`url ${problem}`])
    const current = await this.#webhookOf(partnerId)
    const secret = current.secretEncrypted ? null : newSecret('whsec')
    await setPartnerWebhook(this.#db, partnerId, { url, ...(secret ? { secretEncrypted: this.#box.seal(secret) } : {}) })
    return { partnerId, url, hasSecret: true, ...(secret ? { secret } : {}) }
  }

  async removeWebhook(partnerId: string) {
    await this.#webhookOf(partnerId)
    await setPartnerWebhook(this.#db, partnerId, { url: null })
    return { partnerId, url: null, hasSecret: (await this.#webhookOf(partnerId)).secretEncrypted !== null }
  }

  /**
   * A new secret, used from the next delivery and shown once. Deliveries are signed with the
   * previous one too until the overlap ends (PARTNER_SECRET_OVERLAP_SECONDS), so the receiver can
   * deploy the new secret without refusing an event; rotating again inside it drops the older one.
   */
  async rotateSecret(partnerId: string) {
    const current = await this.#webhookOf(partnerId)
    const secret = newSecret('whsec')
    const now = this.#clock.now()
    const expiresAt = current.secretEncrypted && this.#config.partnerSecretOverlapSeconds > 0 ? new Date(now.getTime() + this.#config.partnerSecretOverlapSeconds * 1000) : null
    await setPartnerWebhook(this.#db, partnerId, { secretEncrypted: this.#box.seal(secret), previous: { secretEncrypted: expiresAt ? current.secretEncrypted : null, expiresAt } })
    return { partnerId, url: current.url, hasSecret: true, secret, previousSecretExpiresAt: expiresAt?.toISOString() ?? null }
  }

  /**
   * Sends a signed `ping` to the partner's URL now (not through the outbox) and answers what the
   * receiver said and how long it took: the way to check an endpoint and its signature check.
   */
  async ping(partnerId: string) {
    const current = await this.#webhookOf(partnerId)
    if (!current.url || !current.secretEncrypted) throw new AppError('CONFLICT', 'The partner has no webhook URL')
    const now = this.#clock.now()
    const id = newId('evt', now.getTime())
    const body = JSON.stringify({ id, type: 'ping', createdAt: now.toISOString(), data: { partnerId } })
    const headers = { [SIGNATURE_HEADER]: signPayload(signingSecrets(current, this.#box, now), Math.floor(now.getTime() / 1000), body), [EVENT_ID_HEADER]: id, [EVENT_TYPE_HEADER]: 'ping' }
    const started = performance.now()
    try {
      const { statusCode } = await postJson(current.url, body, headers, this.#outbound)
      const ok = statusCode >= 200 && statusCode < 300
      return { url: current.url, delivered: ok, statusCode, durationMs: Math.round(performance.now() - started), error: ok ? null : `HTTP ${statusCode}` }
    } catch (err) {
      const error = err instanceof OutboundError ? err.message : 'Delivery failed'
      return { url: current.url, delivered: false, statusCode: null, durationMs: Math.round(performance.now() - started), error }
    }
  }

  async sendTest(partnerId: string) {
    const current = await this.#webhookOf(partnerId)
    if (!current.url) throw new AppError('CONFLICT', 'The partner has no webhook URL')
    const now = this.#clock.now()
    const id = await this.#db.transaction((tx) => recordEvent(tx, { partnerId, type: 'webhook.test', subjectId: partnerId, data: { message: 'Test event from the back office' }, at: now }))
    return eventView((await eventRepo.find(this.#db, id))!)
  }

  async list(filter: EventFilter, query: { page: number; limit: number }) {
    const result = await eventRepo.page(this.#db, filter, query.page, query.limit)
    return { data: result.rows.map(eventView), meta: pageMeta(result.total, query) }
  }

  /** One event with its deliveries: the back office sees every partner's, a partner's server its own (scope). */
  async view(eventId: string, scope: ListScope = backOfficeScope(undefined)) {
    const event = await eventRepo.find(this.#db, eventId)
    if (!event || !inScope(scope, event)) throw notFound('Event')
    return { ...eventView(event), deliveries: (await eventRepo.deliveries(this.#db, eventId)).map(deliveryView) }
  }

  /** Sends the event again (whatever its status) at the next dispatch round. */
  async replay(eventId: string, scope: ListScope = backOfficeScope(undefined)) {
    const event = await eventRepo.find(this.#db, eventId)
    if (!event || !inScope(scope, event)) throw notFound('Event')
    await eventRepo.requeue(this.#db, eq(outboxEvents.id, eventId), this.#clock.now())
    return this.view(eventId, scope)
  }

  async replayFailed(partnerId: string | undefined) {
    const where = and(eq(outboxEvents.status, 'FAILED'), partnerId ? eq(outboxEvents.partnerId, partnerId) : undefined)
    return { requeued: await eventRepo.requeue(this.#db, where, this.#clock.now()) }
  }
}

