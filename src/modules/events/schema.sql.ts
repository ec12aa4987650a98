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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('outbox_events_pending_idx').on(t.nextAttemptAt).where(sql`status = 'PENDING'`),
    index('outbox_events_partner_idx').on(t.partnerId, t.createdAt),
    index('outbox_events_subject_idx').on(t.subjectId),
  ],
)
