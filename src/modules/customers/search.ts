// Finding customers from the back office's search box (issue #39): by name or e-mail (any part,
// any case), or by phone in any written form or by its last digits. The conditions are also handed
// to the orders module as subqueries of customer ids ("the orders of the customer called Asha").
import { inArray, sql, type SQL } from 'drizzle-orm'
import { containing } from '../../db/like.ts'
import { type Executor } from '../../db/client.ts'
import { normalizeIndianMobile } from '../../lib/phone.ts'
import { users } from './schema.sql.ts'

/** A phone as searched: a whole Indian mobile (bare 10 digits), or the last 4 to 9 digits of one. */
export type PhoneQuery = { whole: string } | { lastDigits: string }

/** What a search text says about a phone: `+91 98765 43210`, `098765 43210` and `9876543210` are the whole mobile, `43210` its last digits; null for anything else. */
export function phoneQuery(text: string): PhoneQuery | null {
  const whole = normalizeIndianMobile(text.trim())
  if (whole) return { whole }
  const digits = text.replace(/[\s-]/g, '')
  return /^\d{4,9}$/.test(digits) ? { lastDigits: digits } : null
}

const reversed = (text: string) => [...text].reverse().join('')

/**
 * Phones are matched from their end on `users_phone_reversed_idx` (reverse(phone), text_pattern_ops):
 * a whole mobile and its last digits alike are a prefix of the reversed phone, so both are one
 * index range instead of a scan of every customer.
 */
function phoneMatches(phone: PhoneQuery): SQL {
  if ('whole' in phone) return sql`reverse(${users.phone}) = ${reversed(phone.whole)}`
  return sql`reverse(${users.phone}) like ${`${reversed(phone.lastDigits)}%`}`
}

/** Customers whose name or e-mail contains the text (trigram indexes), or whose phone it is. */
function customerMatches(text: string): SQL {
  const trimmed = text.trim()
  const pattern = containing(trimmed.toLowerCase())
  const phone = phoneQuery(trimmed)
  const conditions = [sql`lower(${users.name}) like ${pattern}`, sql`${users.email} like ${pattern}`, ...(phone ? [phoneMatches(phone)] : [])]
  return sql`(${sql.join(conditions, sql` or `)})`
}

/** An exact hit: the whole mobile, or the whole e-mail (stored lowercased). */
function customerExact(text: string): SQL {
  const trimmed = text.trim()
  const phone = phoneQuery(trimmed)
  if (phone && 'whole' in phone) return sql`(${users.phone} = ${phone.whole})`
  return sql`(${users.email} = ${trimmed.toLowerCase()})`
}

/** SQL: the ids of the customers the search text finds, for the orders module's search (`user_id in (...)`). */
export const customerIdsMatching = (text: string): SQL => sql`(select ${users.id} from ${users} where ${customerMatches(text)})`

/** SQL: the ids of the customers whose account phone is this mobile (bare 10 digits). */
export const customerIdsWithMobile = (mobile: string): SQL => sql`(select ${users.id} from ${users} where ${phoneMatches({ whole: mobile })})`

/**
 * SQL: the back office's search keys of the customers found, `(type, id, exact, created_at)`, for the
 * composition that merges them with orders and products (src/flows/admin-search.ts).
 */
export const customerSearchKeys = (text: string): SQL =>
  sql`select 'CUSTOMER'::text as type, ${users.id} as id, ${customerExact(text)} as exact, ${users.createdAt} as created_at from ${users} where ${customerMatches(text)}`

/** The customers of a search's page, by id: what a hit shows. */
export async function customerHits(db: Executor, ids: string[]): Promise<Map<string, CustomerHit>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .select({ id: users.id, partnerId: users.partnerId, name: users.name, phone: users.phone, email: users.email, blocked: sql<boolean>`${users.blockedAt} is not null`, createdAt: users.createdAt })
    .from(users)
    .where(inArray(users.id, ids))
  return new Map(rows.map((r) => [r.id, r]))
}

export interface CustomerHit {
  id: string
  partnerId: string
  name: string
  phone: string
  email: string
  blocked: boolean
  createdAt: Date
}
