import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

export type TicketStatus = 'OPEN' | 'IN_PROGRESS' | 'RESOLVED' | 'CLOSED'

export const supportTickets = pgTable(
  'support_tickets',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id').notNull(),
    userId: text('user_id').notNull(),
    orderId: text('order_id'),
    topic: text('topic').notNull(),
    detail: text('detail').notNull(),
    imageUrls: jsonb('image_urls').$type<string[]>().notNull(),
    status: text('status').$type<TicketStatus>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('support_tickets_user_idx').on(t.userId, t.createdAt), index('support_tickets_status_idx').on(t.status, t.createdAt), index('support_tickets_order_idx').on(t.orderId)],
)

/** The conversation of a ticket: customer and agent messages, oldest first. */
export const ticketMessages = pgTable(
  'ticket_messages',
  {
    id: text('id').primaryKey(),
    ticketId: text('ticket_id')
      .notNull()
      .references(() => supportTickets.id),
    author: text('author').$type<'CUSTOMER' | 'AGENT'>().notNull(),
    /** The customer's or the admin's id. */
    authorId: text('author_id').notNull(),
    body: text('body').notNull(),
    imageUrls: jsonb('image_urls').$type<string[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('ticket_messages_ticket_idx').on(t.ticketId, t.createdAt)],
)
