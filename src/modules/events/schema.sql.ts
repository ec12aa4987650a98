import { sql } from 'drizzle-orm'
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

export type OutboxStatus = 'PENDING' | 'DELIVERED' | 'FAILED'

/**
 * The transactional outbox: every state change writes its event here in the same transaction, so
 * an event exists if and only if its change committed. The dispatcher delivers them to partners.
 */
export const outboxEvents = pgTable(
  'outbox_events',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id').notNull(),
    type: text('type').notNull(),
    /** The resource the event is about (order, payment, return, ticket id). */
    subjectId: text('subject_id').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<OutboxStatus>().notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** A dispatcher holds the event until then; after that another may take it (crash safety). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('outbox_events_pending_idx').on(t.nextAttemptAt).where(sql`status = 'PENDING'`),
    index('outbox_events_partner_idx').on(t.partnerId, t.createdAt),
    index('outbox_events_subject_idx').on(t.subjectId),
  ],
)

/** One row per delivery attempt, for the back office. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => outboxEvents.id),
    url: text('url').notNull(),
    /** HTTP status, or null when no answer came (timeout, refused, blocked address). */
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('webhook_deliveries_event_idx').on(t.eventId, t.createdAt)],
)
