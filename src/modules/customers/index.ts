// Customers (role USER) of a partner: profiles, and later addresses. Other modules use this file.
import { type SQL, sql, type SQLWrapper } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import type { Clock } from '../../lib/clock.ts'
import { newId } from '../../lib/ids.ts'
import { customerRepo } from './repo.ts'
import { users } from './schema.sql.ts'

export { type Customer, toUser } from './views.ts'
import type { Customer } from './views.ts'

/**
 * The partner vouches for its user's phone, so the first token creates the customer. Name and email
 * only fill empty fields: the customer's own edits to the profile win over what the partner sends.
 */
export async function findOrCreateCustomer(
  db: Executor,
  clock: Clock,
  input: { partnerId: string; phone: string; name?: string; email?: string },
): Promise<{ customer: Customer; created: boolean }> {
  const now = clock.now()
  const id = newId('usr')
  const stored = await customerRepo.upsertByPhone(db, {
    id,
    partnerId: input.partnerId,
    phone: input.phone,
    name: input.name?.trim() ?? '',
    email: input.email?.trim().toLowerCase() ?? '',
    createdAt: now,
    updatedAt: now,
  })
  const changes: Partial<Customer> = {}
  if (!stored.name && input.name?.trim()) changes.name = input.name.trim()
  if (!stored.email && input.email?.trim()) changes.email = input.email.trim().toLowerCase()
  const created = stored.id === id
  if (Object.keys(changes).length === 0) return { customer: stored, created }
  return { customer: await customerRepo.update(db, stored.id, { ...changes, updatedAt: now }), created }
}

export const findCustomer = (db: Executor, id: string) => customerRepo.findById(db, id)

/** Locks the customer row for the rest of the transaction: serialises balance-changing writes. */
export const lockCustomer = (db: Executor, id: string) => customerRepo.lockCustomer(db, id)

/** One of the customer's saved addresses, or null (also for another customer's address). */
export const findAddress = (db: Executor, userId: string, addressId: string) => customerRepo.findAddress(db, userId, addressId)

export { addressFields, type AddressInput, ProfileService } from './service.ts'
export { Address, AddressBody, AddressListItem, AddressParams } from './schemas.ts'
export { profileRoutes } from './routes.ts'
export { CustomerAdminService } from './admin.ts'
export { customerAdminRoutes } from './admin-routes.ts'

/** SQL: is the customer whose id is `userId` (a column of the caller's query) blocked? For a selection, not a join. */
export const customerIsBlocked = (userId: SQLWrapper): SQL<boolean> => sql<boolean>`(select ${users.blockedAt} is not null from ${users} where ${users.id} = ${userId})`

/** The back office's search (issue #39): customers by name, e-mail or phone, and their ids as subqueries for the orders module's search. */
export { customerHits, customerIdsMatching, customerIdsWithMobile, customerSearchKeys, type CustomerHit, phoneQuery, type PhoneQuery } from './search.ts'
