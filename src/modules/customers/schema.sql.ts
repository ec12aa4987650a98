import { pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { partners } from '../partners/schema.sql.ts'

/** Customers (role USER). A customer belongs to one partner; (partner, phone) is unique. */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id')
      .notNull()
      .references(() => partners.id),
    phone: text('phone').notNull(),
    name: text('name').notNull().default(''),
    email: text('email').notNull().default(''),
    role: text('role').notNull().default('USER'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_partner_phone_uq').on(t.partnerId, t.phone)],
)
