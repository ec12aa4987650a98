import { sql } from 'drizzle-orm'
import { boolean, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
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
    /** Set by the back office: the customer's tokens stop working (403) until unblocked. */
    blockedAt: timestamp('blocked_at', { withTimezone: true }),
    blockedReason: text('blocked_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_partner_phone_uq').on(t.partnerId, t.phone),
    // The back office's search (issue #39) across every partner: a phone whole or by its last digits
    // (a prefix of the reversed phone), a name or e-mail by any part of it (trigrams).
    index('users_phone_reversed_idx').on(sql`reverse(${t.phone}) text_pattern_ops`),
    index('users_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    index('users_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
  ],
)

/**
 * Saved delivery addresses. A customer with any address has exactly one default: the partial
 * unique index makes a second default impossible, and the service keeps at least one.
 */
export const addresses = pgTable(
  'addresses',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    label: text('label').notNull(),
    line1: text('line1').notNull(),
    line2: text('line2').notNull().default(''),
    city: text('city').notNull(),
    state: text('state').notNull(),
    pincode: text('pincode').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('addresses_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('addresses_one_default_uq').on(t.userId).where(sql`is_default`),
  ],
)
