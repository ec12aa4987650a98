import { boolean, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

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
    /**
     * Carried in every token as `sv`; a token of another version is refused. Raised when the password
     * is reset or the account deactivated: every session of the account ends at once (issue #39).
     */
    sessionVersion: integer('session_version').notNull().default(0),
    /** Set by an invitation or a reset (a temporary password shown once); cleared when the admin sets their own. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('admin_users_email_uq').on(t.email)],
)
