// The back office's view of customers: list and search, one customer with everything an operator
// needs on a call (profile, addresses, balances, recent orders, returns and tickets), block and
// unblock. The other modules' reads are given by the app (this module imports none of them).
import type { Db } from '../../db/client.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { announceRevoked } from '../../lib/revocations.ts'
import { AppError } from '../../lib/errors.ts'
import { pageMeta } from '../../lib/pagination.ts'
import { normalizeIndianMobile } from '../../lib/phone.ts'
import { type BackOfficeScope, backOfficeScope, inScope, type ListScope } from '../../lib/scope.ts'
import { toUser } from './views.ts'
import { customerRepo } from './repo.ts'
import type { users } from './schema.sql.ts'
import { toAddress } from './service.ts'

type CustomerRow = typeof users.$inferSelect

/** How many of each kind the customer view shows, newest first. */
export const RECENT = 10

interface OrderItem { id: string; orderNumber: string; status: string; paymentStatus: string; paymentMode: string; totalAmount: string; itemCount: number; createdAt: string }
interface ReturnItem { id: string; orderId: string; status: string; reason: string; requestedResolution: string; requestedAmount: string }
interface TicketItem { id: string; orderId: string | null; topic: string; status: string; createdAt: string; updatedAt: string }
type Paging = { page: number; limit: number }

/** Reads of other modules the customer view shows, each a first page of a back-office list. */
export interface CustomerActivity {
  orders(scope: BackOfficeScope, paging: Paging): Promise<{ data: OrderItem[] }>
  returns(scope: BackOfficeScope, paging: Paging): Promise<{ data: ReturnItem[] }>
  tickets(scope: BackOfficeScope, paging: Paging): Promise<{ data: TicketItem[] }>
  balances(userId: string): Promise<{ walletCash: string; rewardPoints: number }>
}

function customerView(row: CustomerRow) {
  return {
    ...toUser(row),
    blocked: row.blockedAt !== null,
    blockedAt: row.blockedAt?.toISOString() ?? null,
    blockedReason: row.blockedReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

export class CustomerAdminService {
  readonly #db: Db
  readonly #clock: Deps['clock']

  readonly #activity: CustomerActivity
  readonly #redis: Deps['redis']
  readonly #redisPrefix: string
  constructor(
    { database, clock, redis, config }: ServiceDeps<'redisPrefix'>,
    activity: CustomerActivity,
  ) {
    this.#activity = activity
    this.#db = database.db
    this.#clock = clock
    this.#redis = redis
    this.#redisPrefix = config.redisPrefix
  }

  async #customerOrThrow(userId: string) {
    const row = await customerRepo.findById(this.#db, userId)
    if (!row) throw new AppError('NOT_FOUND', 'Customer not found')
    return row
  }

  async list(filter: { partnerId?: string; phone?: string; email?: string; name?: string }, query: { page: number; limit: number }) {
    const phone = filter.phone === undefined ? undefined : normalizeIndianMobile(filter.phone)
    if (phone === null) throw new AppError('BAD_REQUEST', 'Validation failed', ['phone must be a valid Indian mobile number'])
    const { rows, total } = await customerRepo.page(this.#db, { ...filter, phone, email: filter.email?.trim().toLowerCase(), name: filter.name?.trim() }, query.page, query.limit)
    return { data: rows.map(customerView), meta: pageMeta(total, query) }
  }

  /** One customer: the back office sees every partner's, a partner's server its own (scope). */
  async view(userId: string, scope: ListScope = backOfficeScope(undefined)) {
    const row = await this.#customerOrThrow(userId)
    if (!inScope(scope, { partnerId: row.partnerId, userId: row.id })) throw new AppError('NOT_FOUND', 'Customer not found')
    const own = backOfficeScope(row.partnerId, row.id)
    const first = { page: 1, limit: RECENT }
    const [addresses, balances, orders, returns, tickets] = await Promise.all([
      customerRepo.listAddresses(this.#db, userId),
      this.#activity.balances(userId),
      this.#activity.orders(own, first),
      this.#activity.returns(own, first),
      this.#activity.tickets(own, first),
    ])
    return { ...customerView(row), addresses: addresses.map(toAddress), balances, recentOrders: orders.data, recentReturns: returns.data, recentTickets: tickets.data }
  }

  async block(userId: string, reason: string) {
    await this.#customerOrThrow(userId)
    const now = this.#clock.now()
    const row = await customerRepo.update(this.#db, userId, { blockedAt: now, blockedReason: reason, updatedAt: now })
    // Sessions are remembered for a few seconds: every node forgets the customer's now.
    await announceRevoked(this.#redis, this.#redisPrefix, 'customer', [userId])
    return customerView(row)
  }

  async unblock(userId: string) {
    await this.#customerOrThrow(userId)
    return customerView(await customerRepo.update(this.#db, userId, { blockedAt: null, blockedReason: null, updatedAt: this.#clock.now() }))
  }
}

