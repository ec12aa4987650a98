// Back office for orders: every partner's orders, one order with all its payments, the partner's
// sync and the dashboard's figures. Moves along the order machine are the order-moves flow's
// (src/flows/order-moves/desk.ts).
import type { Db, Executor } from '../../db/client.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { formatPaise } from '../../lib/money.ts'
import { pageMeta } from '../../lib/pagination.ts'
import { type BackOfficeScope, inScope, type ListScope, type PartnerScope } from '../../lib/scope.ts'
import { answeredOrder, NEXT_STATUSES } from './lifecycle.ts'
import { shippedUnits, unshippedUnits } from '../shipping/index.ts'
import { documentsOfOrder } from './invoices.ts'
import { type OrderFilter, orderRepo, type OrderSyncFilter, type SyncCursor } from './repo.ts'
import type { OrderStatus } from './schema.sql.ts'
import { orderSummaryView } from './views.ts'
import { paymentsOf, paymentView } from '../payments/index.ts'

const encodeCursor = (c: SyncCursor) => Buffer.from(`${c.txid}.${c.id}`).toString('base64url')
function decodeCursor(cursor: string): SyncCursor {
  const match = /^(\d{1,19})\.([A-Za-z0-9_-]{1,100})$/.exec(Buffer.from(cursor, 'base64url').toString())
  if (!match) throw new AppError('BAD_REQUEST', 'Validation failed', ['cursor is not a cursor this API answered'])
  return { txid: BigInt(match[1]!), id: match[2]! }
}

export class OrderAdminService {
  readonly #db: Db
  readonly #clock: Deps['clock']

  constructor({ database, clock }: ServiceDeps) {
    this.#db = database.db
    this.#clock = clock
  }

  /** One order with all its payments. */
  async view(orderId: string) {
    const order = await orderRepo.findOrder(this.#db, orderId)
    if (!order) throw notFound('Order')
    const [answered, paymentRows, unparcelled] = await Promise.all([answeredOrder(this.#db, order), paymentsOf(this.#db, order.id), linesNotInParcel(this.#db, order.id)])
    const moves = backOfficeMoves(order.status).filter((to) => unparcelled.length === 0 || !NEEDS_PARCELS.includes(to))
    return { ...answered, payments: paymentRows.map(paymentView), nextStatuses: moves, unparcelled }
  }

  /** An order with its GST documents, if it is inside the scope (none: the back office's): else 404. */
  async documents(orderId: string, scope?: ListScope) {
    const order = await orderRepo.findOrder(this.#db, orderId)
    if (!order || (scope && !inScope(scope, order))) throw notFound('Order')
    return { order, documents: await documentsOfOrder(this.#db, order) }
  }

  /** One order, if it is inside the scope (a partner's own server): else 404, like a customer's. */
  async viewIn(scope: ListScope, orderId: string) {
    const order = await orderRepo.findOrder(this.#db, orderId)
    if (!order || !inScope(scope, order)) throw notFound('Order')
    return this.view(orderId)
  }

  /**
   * A page of a partner's sync: its orders in the order they were last written, after `cursor`.
   * The answer's cursor is where the next call starts; it is the same cursor when nothing new was
   * written, so a partner polls with the last cursor it got.
   */
  async sync(scope: PartnerScope, filter: OrderSyncFilter, cursor: string | undefined, limit: number) {
    const after = cursor === undefined ? null : decodeCursor(cursor)
    const rows = await orderRepo.syncPage(this.#db, scope, filter, after, limit)
    const page = rows.slice(0, limit)
    const counts = await orderRepo.itemCounts(this.#db, page.map((r) => r.order.id))
    const last = page.at(-1)
    return {
      data: page.map(({ order }) => ({ ...orderSummaryView(order, counts.get(order.id) ?? 0), userId: order.userId, updatedAt: order.updatedAt.toISOString() })),
      meta: { nextCursor: last ? encodeCursor({ txid: BigInt(last.changeTxid), id: last.order.id }) : (cursor ?? null), hasMore: rows.length > limit },
    }
  }

  /**
   * The dashboard's order figures: orders and GMV for each of the last `days` days in India's
   * calendar (today included; days without orders are zeros), and how many orders are in each status.
   */
  async stats(days: number) {
    const IST_MS = 330 * 60_000
    const todayIst = new Date(Math.floor((this.#clock.now().getTime() + IST_MS) / 86_400_000) * 86_400_000)
    const firstDay = new Date(todayIst.getTime() - (days - 1) * 86_400_000)
    const [totals, byStatus] = await Promise.all([orderRepo.dailyTotals(this.#db, new Date(firstDay.getTime() - IST_MS)), orderRepo.countsByStatus(this.#db)])
    const found = new Map(totals.map((t) => [t.day, t]))
    const perDay = Array.from({ length: days }, (_, i) => {
      const date = new Date(firstDay.getTime() + i * 86_400_000).toISOString().slice(0, 10)
      const row = found.get(date)
      return { date, orders: row?.orders ?? 0, gmv: formatPaise(BigInt(row?.gmv ?? '0')) }
    })
    return { days: perDay, byStatus: byStatus.map((s) => ({ status: s.status, count: s.count })) }
  }

  async list(scope: BackOfficeScope, filter: OrderFilter, query: { page: number; limit: number }) {
    const result = await orderRepo.page(this.#db, scope, filter, query.page, query.limit)
    const counts = await orderRepo.itemCounts(this.#db, result.rows.map((o) => o.id))
    return { data: result.rows.map((o) => orderSummaryView(o, counts.get(o.id) ?? 0)), meta: pageMeta(result.total, query) }
  }
}

/**
 * Moves that say the goods left: refused by hand while units of the order are in no parcel (an order
 * SHIPPED with nothing shipped was the console's defect of issue #39). Every parcel counts, a
 * carrier's or a manual one (the merchant's own delivery).
 */
export const NEEDS_PARCELS: OrderStatus[] = ['SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']

/** Units of each line neither cancelled nor in a forward parcel; lines with none left out. */
export async function linesNotInParcel(db: Executor, orderId: string): Promise<{ orderItemId: string; quantity: number }[]> {
  const [items, shipped] = await Promise.all([orderRepo.items(db, orderId), shippedUnits(db, orderId)])
  return items.map((item) => ({ orderItemId: item.id, quantity: unshippedUnits(item, shipped) })).filter((line) => line.quantity > 0)
}

/** The moves the back office may ask for from `status`: the machine's, but for confirming an unpaid order (its payment does that). */
export function backOfficeMoves(status: OrderStatus): OrderStatus[] {
  return NEXT_STATUSES[status].filter((to) => !(status === 'PENDING_PAYMENT' && to === 'CONFIRMED'))
}
