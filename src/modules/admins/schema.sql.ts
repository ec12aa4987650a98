import { boolean, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

export const ADMIN_ROLES = ['ADMIN', 'SUPPORT', 'CATALOG'] as const
export type AdminRole = (typeof ADMIN_ROLES)[number]

/** Back-office users. Emails are stored lower-cased; passwords as argon2id hashes. */
export const adminUsers = pgTable(
  'admin_users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').$type<AdminRole>().notNull(),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('admin_users_email_uq').on(t.email)],
)
