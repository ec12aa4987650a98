// Recording an event in the outbox, inside the transaction of the change it announces.
import { type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { newId } from '../../lib/ids.ts'
import type { EventType } from './catalogue.ts'
import { outboxEvents } from './schema.sql.ts'

export interface NewEvent {
  partnerId: string
  type: EventType
  subjectId: string
  data: Record<string, unknown>
  at: Date
}

/** Must run inside the transaction of the change it describes. */
export async function recordEvent(tx: Executor, event: NewEvent): Promise<string> {
  const insert = eventInsert(tx, event)
  await insert
  return insert.id
}

/**
 * The event's insert as SQL, its `data` a SQL expression (of jsonb), for a caller that writes it in
 * one statement with its change and computes part of the data there (a tax document's number,
 * taken from its series in a CTE of the same statement). Same transaction rule as recordEvent.
 */
export function eventInsertSql(event: Omit<NewEvent, 'data'>, data: SQL): SQL {
  const at = event.at.toISOString()
  return sql`insert into ${outboxEvents} (id, partner_id, type, subject_id, data, next_attempt_at, created_at)
             values (${newId('evt', event.at.getTime())}, ${event.partnerId}, ${event.type}, ${event.subjectId}, ${data}, ${at}::timestamptz, ${at}::timestamptz)`
}

/**
 * Events inserted from a query's rows, for a caller announcing many changes in one statement (tax
 * documents numbered in a batch). `rows` is a SQL source (a CTE's name or a subquery) with columns
 * id, partner_id, type, subject_id, data (jsonb) and at (timestamptz). Same transaction rule as recordEvent.
 */
export function eventsInsertFromSql(rows: SQL): SQL {
  return sql`insert into ${outboxEvents} (id, partner_id, type, subject_id, data, next_attempt_at, created_at)
             select id, partner_id, type, subject_id, data, at, at from ${rows}`
}

/**
 * The event's insert, not yet run: for a caller that writes it in the same statement as the change
 * (order creation, see orders/repo.ts insertNewOrder). Same transaction rule as recordEvent.
 */
export function eventInsert(tx: Executor, event: NewEvent) {
  const id = newId('evt', event.at.getTime())
  const insert = tx.insert(outboxEvents).values({
    id,
    partnerId: event.partnerId,
    type: event.type,
    subjectId: event.subjectId,
    data: event.data,
    nextAttemptAt: event.at,
    createdAt: event.at,
  })
  return Object.assign(insert, { id })
}

