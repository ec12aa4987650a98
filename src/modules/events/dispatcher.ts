// Delivers outbox events to partners' webhook URLs.
//
// Each round leases a batch of due events (see eventRepo.claim: safe with many nodes), then sends
// each partner's events one after another in creation order (partners in parallel), as
// POST {id, type, createdAt, data} signed with the partner's secret. A 2xx delivers the event;
// anything else (another status, a timeout, a refused address) schedules a retry with exponential
// backoff and jitter: 5 s, 10 s, 20 s… capped at 1 hour, for 24 hours after the event was
// created; then the event is FAILED (the back office can replay it). A crashed node's lease runs
// out and another node sends the event: delivery is at least once, so receivers dedupe by id.
//
// Leases are short, 15 s (or three delivery timeouts if that is longer), so a node killed mid-round
// holds its events back for at most that long (the reliability plan's FT-07: every outbox row
// processed within 30 s of a restart). A round therefore starts a delivery only while two timeouts
// of the lease are left, so a delivery it starts is normally recorded inside the lease; what it did
// not start goes back at once, uncounted, for the next round. Outcomes and give-backs apply only
// while the row still carries this round's lease: if a slow database let it run out and another
// node took the event over, that node's claim stands (the event may then be sent twice: at least once).
import type { Db } from '../../db/client.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { newId } from '../../lib/ids.ts'
import { createSecretBox } from '../../lib/secret-box.ts'
import { type PartnerWebhook, partnerWebhooks } from '../partners/index.ts'
import { OutboundError, postJson } from './outbound.ts'
import { eventRepo, type OutboxEvent } from './repo.ts'
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signPayload } from './signing.ts'

export const RETRY_WINDOW_MS = 24 * 3_600_000
const FIRST_DELAY_MS = 5000
const MAX_DELAY_MS = 3_600_000
/** How long a claimed event is reserved for the node that claimed it (at least three timeouts). */
export const LEASE_MS = 15_000

/** Delay before attempt `attempts + 1`: doubling from 5 s, capped at an hour, ±20% jitter. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(FIRST_DELAY_MS * 2 ** Math.max(0, attempts - 1), MAX_DELAY_MS)
  return Math.round(base * (0.8 + 0.4 * random()))
}

export const webhookBody = (event: OutboxEvent) =>
  JSON.stringify({ id: event.id, type: event.type, createdAt: event.createdAt.toISOString(), data: event.data })

/** The secrets a delivery is signed with now: the current one, and the previous one during a rotation's overlap. */
export function signingSecrets(webhook: PartnerWebhook, box: ReturnType<typeof createSecretBox>, now: Date): string[] {
  const current = webhook.secretEncrypted ? [box.open(webhook.secretEncrypted)] : []
  const overlap = webhook.previousSecretEncrypted && webhook.previousSecretExpiresAt && webhook.previousSecretExpiresAt > now
  return overlap ? [...current, box.open(webhook.previousSecretEncrypted!)] : current
}

export class Dispatcher {
  readonly #db: Db
  readonly #clock: Deps['clock']
  readonly #config: ServiceDeps<'authSecret' | 'webhooks'>['config']
  readonly #logger: Deps['logger']
  readonly #box: ReturnType<typeof createSecretBox>
  readonly #options: { timeoutMs: number; allowPrivateNetworks: boolean; allowHttp: boolean }

  constructor({ database, clock, config, logger }: ServiceDeps<'authSecret' | 'webhooks'>) {
    this.#db = database.db
    this.#clock = clock
    this.#config = config
    this.#logger = logger
    this.#box = createSecretBox(config.authSecret, 'webhook-secrets')
    this.#options = { timeoutMs: config.webhooks.timeoutMs, allowPrivateNetworks: config.webhooks.allowPrivateNetworks, allowHttp: config.webhooks.allowHttp }
  }

  /** Sends one claimed event; its outcome is recorded only while this node still holds it under `lease`. */
  async #deliver(event: OutboxEvent, webhook: PartnerWebhook, lease: Date) {
    const started = Date.now()
    const body = webhookBody(event)
    let statusCode: number | null = null
    let error: string | null = null
    try {
      if (!webhook.url || !webhook.secretEncrypted) throw new OutboundError('No webhook URL configured')
      const signature = signPayload(signingSecrets(webhook, this.#box, this.#clock.now()), Math.floor(this.#clock.now().getTime() / 1000), body)
      statusCode = (await postJson(webhook.url, body, { [SIGNATURE_HEADER]: signature, [EVENT_ID_HEADER]: event.id, [EVENT_TYPE_HEADER]: event.type }, this.#options)).statusCode
      if (statusCode < 200 || statusCode >= 300) error = `HTTP ${statusCode}`
    } catch (err) {
      error = err instanceof OutboundError ? err.message : 'Delivery failed'
      if (!(err instanceof OutboundError)) this.#logger.warn({ err, eventId: event.id }, 'webhook delivery failed unexpectedly')
    }
    const now = this.#clock.now()
    await eventRepo.recordDelivery(this.#db, { id: newId('whd', now.getTime()), eventId: event.id, url: webhook.url ?? '', statusCode, error, durationMs: Date.now() - started, createdAt: now })
    if (!error) {
      await eventRepo.update(this.#db, event.id, { status: 'DELIVERED', deliveredAt: now, lockedUntil: null, lastError: null }, lease)
      return true
    }
    const next = new Date(now.getTime() + retryDelayMs(event.attempts))
    const giveUp = next.getTime() > event.createdAt.getTime() + RETRY_WINDOW_MS
    await eventRepo.update(this.#db, event.id, { status: giveUp ? 'FAILED' : 'PENDING', nextAttemptAt: next, lockedUntil: null, lastError: error }, lease)
    return false
  }

  /** One round: lease due events, deliver them. Returns how many were taken. */
  async dispatchOnce(limit = 50, leaseMs = Math.max(LEASE_MS, 3 * this.#options.timeoutMs)): Promise<number> {
    const now = this.#clock.now()
    const claimed = Date.now()
    const lease = new Date(now.getTime() + leaseMs)
    const events = await eventRepo.claim(this.#db, now, lease, limit)
    if (events.length === 0) return 0
    const webhooks = await partnerWebhooks(this.#db, [...new Set(events.map((e) => e.partnerId))])
    const byPartner = new Map<string, OutboxEvent[]>()
    for (const e of events) byPartner.set(e.partnerId, [...(byPartner.get(e.partnerId) ?? []), e])
    await Promise.all(
      [...byPartner].map(async ([partnerId, queue]) => {
        for (const [i, event] of queue.entries()) {
          if (Date.now() - claimed > leaseMs - 2 * this.#options.timeoutMs) return eventRepo.release(this.#db, queue.slice(i).map((e) => e.id), lease)
          await this.#deliver(event, webhooks.get(partnerId)!, lease)
        }
      }),
    )
    return events.length
  }

  /** Polls every `pollIntervalMs`; keeps going while rounds come back full. */
  start() {
    let running: Promise<void> | null = null
    const round = async () => {
      try {
        while ((await this.dispatchOnce()) === 50) {
          /* a full batch: there may be more */
        }
      } catch (err) {
        this.#logger.warn({ err }, 'webhook dispatch round failed; retrying at the next interval')
      }
    }
    const timer = setInterval(() => {
      running ??= round().finally(() => {
        running = null
      })
    }, this.#config.webhooks.pollIntervalMs)
    timer.unref()
    return {
      async stop() {
        clearInterval(timer)
        await running
      },
    }
  }
}

