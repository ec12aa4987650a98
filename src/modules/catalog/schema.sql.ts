import { pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/** A catalog holds categories and products; each API key names the one catalog it reads. */
export const catalogs = pgTable('catalogs', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})
