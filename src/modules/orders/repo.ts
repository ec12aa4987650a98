// Data access of the orders module: orders, their lines and history (payments and refunds are the payments module's).
import { and, asc, count, desc, eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm'
import { containing } from '../../db/like.ts'
import type { TypedQueryBuilder } from 'drizzle-orm/query-builders/query-builder'
import type { Executor } from '../../db/client.ts'
import { scopeConditions } from '../../db/scope.ts'
import type { ListScope, PartnerScope } from '../../lib/scope.ts'
import { newId } from '../../lib/ids.ts'
import { customerIdsMatching, customerIdsWithMobile, phoneQuery } from '../customers/index.ts'
import { type OrderPaymentStatus, type OrderStatus, orderItems, orders, orderStatusHistory } from './schema.sql.ts'
import { newPaymentCte, type PaymentRow } from '../payments/index.ts'

export type { PaymentRow, PayoutAccountRow, RefundRow } from '../payments/index.ts'
import { orderIdsWithParcelAwb, parcelsRefusedSince } from '../shipping/index.ts'

export type OrderRow = typeof orders.$inferSelect
export type OrderItemRow = typeof orderItems.$inferSelect
export type HistoryRow = typeof orderStatusHistory.$inferSelect

/** What a list may narrow by, within its scope (whose orders: src/lib/scope.ts). */
export interface OrderFilter {
  status?: OrderStatus
  /** Order number, customer phone or order id (back office). */
  search?: string
}

function filterWhere(scope: ListScope, filter: OrderFilter): SQL | undefined {
  const conditions: SQL[] = scopeConditions(scope, orders)
  if (filter.status) conditions.push(eq(orders.status, filter.status))
  if (filter.search) conditions.push(orderSearchCondition(filter.search))
  return conditions.length ? and(...conditions) : undefined
}

/**
 * The back office's search of orders (issue #39), for its order list and its search box: an order
 * id (`ord_…`), part of the order number, the AWB of one of its parcels, a phone (the shipping
 * phone, the alternate phone or the customer's account phone; any written form, or its last 4+
 * digits), or part of the customer's name or e-mail (the customers module's subquery).
 *
 * The ids found are a UNION of small selects, each on one index where there is one, and the order
 * joins on that: one OR of conditions over orders made the planner walk every order newest first
 * (bench/admin-lists.ts). Only the selects the text can match are in it: a whole mobile is never
 * part of an order number (CM-XXXX-XXXX), only text shaped like a phone is looked for in phones.
 * The alternate phone and phones by their last digits have no index of orders yet: those two
 * selects read every order (see docs/console.md, "Search").
 */
function orderIdsFound(text: string): SQL {
  const q = text.trim()
  const phone = phoneQuery(q)
  const shippingPhone = sql`(${orders.shippingAddress} ->> 'phone')`
  const selects: SQL[] = []
  if (q.startsWith('ord_')) selects.push(sql`select ${orders.id} from ${orders} where ${orders.id} = ${q}`)
  if (!phone || !('whole' in phone)) selects.push(sql`select ${orders.id} from ${orders} where ${orders.orderNumber} ilike ${containing(q)}`)
  selects.push(orderIdsWithParcelAwb(q))
  if (phone && 'whole' in phone) {
    selects.push(sql`select ${orders.id} from ${orders} where ${shippingPhone} = ${phone.whole}`)
    selects.push(sql`select ${orders.id} from ${orders} where ${orders.alternatePhone} = ${phone.whole}`)
  } else if (phone) {
    // Reversed, the last digits are a prefix: each side is one lookup of its reversed-phone index.
    const reversedStart = `${[...phone.lastDigits].reverse().join('')}%`
    selects.push(sql`select ${orders.id} from ${orders} where reverse(${shippingPhone}) like ${reversedStart}`)
    selects.push(sql`select ${orders.id} from ${orders} where reverse(${orders.alternatePhone}) like ${reversedStart} and ${orders.alternatePhone} is not null`)
  }
  selects.push(sql`select ${orders.id} from ${orders} where ${orders.userId} in ${customerIdsMatching(q)}`)
  return sql.join(selects, sql` union `)
}

/** The orders the back office's search text finds (see orderIdsFound). */
export const orderSearchCondition = (text: string): SQL => sql`${orders.id} in (${orderIdsFound(text)})`

/** An exact hit, listed first: the whole order number or id, a parcel's AWB, a whole mobile. */
function orderExact(text: string): SQL {
  const q = text.trim()
  const phone = phoneQuery(q)
  const exact = [
    sql`${orders.orderNumber} = ${q.toUpperCase()}`,
    sql`${orders.id} = ${q}`,
    sql`${orders.id} in ${orderIdsWithParcelAwb(q)}`,
  ]
  if (phone && 'whole' in phone) {
    exact.push(sql`(${orders.shippingAddress} ->> 'phone') = ${phone.whole}`, sql`${orders.alternatePhone} = ${phone.whole}`, sql`${orders.userId} in ${customerIdsWithMobile(phone.whole)}`)
  }
  return sql`(${sql.join(exact, sql` or `)})`
}

/**
 * SQL: the back office's search keys of the orders found, `(type, id, exact, created_at)`, for the
 * composition that merges them with customers and products (src/flows/admin-search.ts).
 */
export const orderSearchKeys = (text: string): SQL =>
  sql`select 'ORDER'::text as type, ${orders.id} as id, ${orderExact(text)} as exact, ${orders.createdAt} as created_at from ${orders} where ${orderSearchCondition(text)}`

/** The orders of a search's page, by id: what a hit shows. */
export async function orderHits(db: Executor, ids: string[]): Promise<Map<string, OrderHit>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      partnerId: orders.partnerId,
      status: orders.status,
      totalAmount: orders.totalAmount,
      recipient: sql<string>`${orders.shippingAddress} ->> 'name'`,
      phone: sql<string>`${orders.shippingAddress} ->> 'phone'`,
      city: sql<string>`${orders.shippingAddress} ->> 'city'`,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(inArray(orders.id, ids))
  return new Map(rows.map((r) => [r.id, r]))
}

export interface OrderHit {
  id: string
  orderNumber: string
  partnerId: string
  status: OrderStatus
  totalAmount: bigint
  recipient: string
  phone: string
  city: string
  createdAt: Date
}

/** What a partner's sync may narrow by. */
export interface OrderSyncFilter {
  status?: OrderStatus
  paymentStatus?: OrderPaymentStatus
  userId?: string
  orderNumber?: string
  createdFrom?: Date
  createdTo?: Date
  updatedAfter?: Date
}

/** A position in a partner's sync: the writing transaction and the order id (see migration 0012). */
export interface SyncCursor {
  txid: bigint
  id: string
}

/** An insert of another module's table, not yet run, written in the same statement as a new order. */
type AlongsideInsert = TypedQueryBuilder<undefined>

export const orderRepo = {
  /**
   * A new order with its lines, first history entry and payment (if any), and the inserts given in
   * `alongside` (its outbox event and idempotency record): ONE statement, one round trip, all or
   * nothing. The rows are complete as given (no column is left to a default), so the caller already
   * holds what was written. A taken order number fails with `orders_order_number_uq` (see
   * isOrderNumberTaken): the caller draws another and runs its transaction again.
   */
  async insertNewOrder(tx: Executor, rows: { order: OrderRow; items: OrderItemRow[]; history: HistoryRow[]; payment: PaymentRow | null }, alongside: AlongsideInsert[]) {
    const ctes = [
      tx.$with('new_order').as(tx.insert(orders).values(rows.order).returning({ id: orders.id })),
      tx.$with('new_items').as(tx.insert(orderItems).values(rows.items).returning({ id: orderItems.id })),
      tx.$with('new_history').as(tx.insert(orderStatusHistory).values(rows.history).returning({ id: orderStatusHistory.id })),
      ...(rows.payment ? [newPaymentCte(tx, rows.payment)] : []),
      ...alongside.map((insert, i) => tx.$with(`alongside_${i}`).as(insert)),
    ]
    await tx.with(...ctes).select({ id: sql<string>`id` }).from(ctes[0]!)
  },
  /** Inserts unless the order number is taken (then null: the caller draws another number). */
  async insertOrder(tx: Executor, row: typeof orders.$inferInsert) {
    const [created] = await tx.insert(orders).values(row).onConflictDoNothing({ target: orders.orderNumber }).returning()
    return created ?? null
  },
  insertItems(tx: Executor, rows: (typeof orderItems.$inferInsert)[]) {
    return tx.insert(orderItems).values(rows).returning()
  },
  async addHistory(tx: Executor, row: Omit<typeof orderStatusHistory.$inferInsert, 'id'>) {
    const [created] = await tx.insert(orderStatusHistory).values({ id: newId('osh'), ...row }).returning()
    return created!
  },
  async findOrder(db: Executor, id: string) {
    const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1)
    return row ?? null
  },
  /** The order, row-locked for the rest of the transaction. */
  async lockOrder(tx: Executor, id: string) {
    const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for('update')
    return row ?? null
  },
  async updateOrder(tx: Executor, id: string, changes: Partial<typeof orders.$inferInsert>) {
    const [row] = await tx.update(orders).set(changes).where(eq(orders.id, id)).returning()
    return row!
  },
  items(db: Executor, orderId: string) {
    return db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.position))
  },
  async findOrders(db: Executor, ids: string[]) {
    if (ids.length === 0) return []
    return db.select().from(orders).where(inArray(orders.id, ids))
  },
  async itemsByIds(db: Executor, ids: string[]) {
    if (ids.length === 0) return []
    return db.select().from(orderItems).where(inArray(orderItems.id, ids))
  },
  history(db: Executor, orderId: string) {
    return db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, orderId)).orderBy(asc(orderStatusHistory.createdAt), asc(orderStatusHistory.id))
  },
  /**
   * Orders placed per day (India's calendar day) since `since`, with their GMV: the total of the
   * day's orders that were not cancelled and are not waiting for payment.
   */
  async dailyTotals(db: Executor, since: Date) {
    const day = sql<string>`to_char(${orders.createdAt} AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD')`
    const gmv = sql<string>`coalesce(sum(${orders.totalAmount}) filter (where ${orders.status} not in ('CANCELLED', 'PENDING_PAYMENT')), 0)::text`
    return db.select({ day, orders: count(), gmv }).from(orders).where(gte(orders.createdAt, since)).groupBy(day).orderBy(day)
  },
  /** How many orders are in each status now. */
  async countsByStatus(db: Executor) {
    return db.select({ status: orders.status, count: count() }).from(orders).groupBy(orders.status).orderBy(orders.status)
  },
  async page(db: Executor, scope: ListScope, filter: OrderFilter, page: number, limit: number) {
    const where = filterWhere(scope, filter)
    const [rows, totals] = await Promise.all([
      db.select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id)).limit(limit).offset((page - 1) * limit),
      db.select({ n: count() }).from(orders).where(where),
    ])
    return { rows, total: totals[0]?.n ?? 0 }
  },
  /**
   * A partner's orders in the order they were last written, after `cursor`: only those written by
   * transactions that have all ended (older than this snapshot's xmin), so an order committed late
   * never lands behind a cursor already handed out. One more row than `limit` tells if there are more.
   */
  async syncPage(db: Executor, scope: PartnerScope, filter: OrderSyncFilter, cursor: SyncCursor | null, limit: number) {
    // change_txid is kept by a trigger (migration 0012), outside the Drizzle schema: no code writes it.
    const changeTxid = sql`${orders}.change_txid`
    const conditions: SQL[] = [...scopeConditions(scope, orders), sql`${changeTxid} < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`]
    if (cursor) conditions.push(sql`(${changeTxid}, ${orders.id}) > (${cursor.txid.toString()}::bigint, ${cursor.id})`)
    if (filter.status) conditions.push(eq(orders.status, filter.status))
    if (filter.paymentStatus) conditions.push(eq(orders.paymentStatus, filter.paymentStatus))
    if (filter.userId) conditions.push(eq(orders.userId, filter.userId))
    if (filter.orderNumber) conditions.push(eq(orders.orderNumber, filter.orderNumber))
    if (filter.createdFrom) conditions.push(gte(orders.createdAt, filter.createdFrom))
    if (filter.createdTo) conditions.push(lt(orders.createdAt, filter.createdTo))
    if (filter.updatedAfter) conditions.push(gte(orders.updatedAt, filter.updatedAfter))
    return db
      .select({ order: orders, changeTxid: sql<string>`${changeTxid}::text` })
      .from(orders)
      .where(and(...conditions))
      .orderBy(asc(changeTxid), asc(orders.id))
      .limit(limit + 1)
  },
  /** Adds `quantity` (negative to give units back) to each line's units in returns. */
  async countReturnedUnits(tx: Executor, lines: { orderItemId: string; quantity: number }[]) {
    for (const line of lines) {
      await tx.update(orderItems).set({ returnedQuantity: sql`${orderItems.returnedQuantity} + ${line.quantity}` }).where(eq(orderItems.id, line.orderItemId))
    }
  },
  /** `quantity` more units of the line cancelled, only while they fit in it; null when they do not. */
  async cancelUnits(tx: Executor, orderItemId: string, quantity: number) {
    const [row] = await tx
      .update(orderItems)
      .set({ cancelledQuantity: sql`${orderItems.cancelledQuantity} + ${quantity}` })
      .where(and(eq(orderItems.id, orderItemId), sql`${orderItems.cancelledQuantity} + ${quantity} <= ${orderItems.quantity}`))
      .returning()
    return row ?? null
  },
  /** A line's discount share taken off what is paid for it (COD -> prepaid: flows/cod-conversion/). */
  async updateItem(tx: Executor, orderItemId: string, changes: Pick<Partial<OrderItemRow>, 'prepaidDiscount' | 'paidAmount'>) {
    await tx.update(orderItems).set(changes).where(eq(orderItems.id, orderItemId))
  },
  async itemCounts(db: Executor, orderIds: string[]) {
    if (orderIds.length === 0) return new Map<string, number>()
    const rows = await db
      .select({ orderId: orderItems.orderId, n: sql<number>`sum(${orderItems.quantity})::int` })
      .from(orderItems)
      .where(inArray(orderItems.orderId, orderIds))
      .groupBy(orderItems.orderId)
    return new Map(rows.map((r) => [r.orderId, r.n]))
  },
  /** How many of the customer's orders wait for payment, each holding its stock (expired ones until the sweeper cancels them). */
  /**
   * A customer's COD history for the risk rules (checkout's cod-risk.ts), in one query over the
   * customer's orders (orders_customer_idx); an RTO order counts when its move to RTO (its history
   * row, order_status_history_order_idx) is at or after `rtoSince` (none counted without it); a
   * parcel refused at the door counts once when a refused attempt of it happened at or after
   * `refusedSince` (shipment_events_refused_idx).
   */
  async codHistory(db: Executor, userId: string, rtoSince: Date | null, refusedSince: Date | null = null) {
    const open = sql`${orders.paymentMode} = 'COD' and ${orders.status} not in ('DELIVERED', 'CANCELLED', 'RTO')`
    const rto = rtoSince
      ? // Qualified by hand: Drizzle writes a single-table query's columns unqualified, and "id" would bind to the history row's.
        sql<number>`(count(*) filter (where ${orders.status} = 'RTO' and exists (select 1 from ${orderStatusHistory} h where h.order_id = ${orders}.id and h.to_status = 'RTO' and h.created_at >= ${rtoSince})))::int`
      : sql<number>`0`
    const [row] = await db
      .select({
        openCodOrders: sql<number>`(count(*) filter (where ${open}))::int`,
        openCodValue: sql<string>`(coalesce(sum(${orders.amountPayable}) filter (where ${open}), 0))::text`,
        hasDelivered: sql<boolean>`coalesce(bool_or(${orders.status} = 'DELIVERED'), false)`,
        rtoInWindow: rto,
        refusedInWindow: refusedSince
          ? parcelsRefusedSince(sql`(select o.id from ${orders} o where o.user_id = ${userId})`, refusedSince)
          : sql<number>`0`,
      })
      .from(orders)
      .where(eq(orders.userId, userId))
    return { openCodOrders: Number(row?.openCodOrders ?? 0), openCodValue: BigInt(row?.openCodValue ?? '0'), hasDelivered: row?.hasDelivered === true, rtoInWindow: Number(row?.rtoInWindow ?? 0), refusedInWindow: Number(row?.refusedInWindow ?? 0) }
  },
  async countUnpaid(tx: Executor, userId: string): Promise<number> {
    const [row] = await tx.select({ n: count() }).from(orders).where(and(eq(orders.userId, userId), eq(orders.status, 'PENDING_PAYMENT')))
    return row?.n ?? 0
  },
  /** Unpaid orders past their reservation, locked; rows another sweeper holds are skipped. */
  /** Unpaid orders whose reservation ran out, locked (skipping rows locked elsewhere); only among `ids` when given. */
  expiredReservations(tx: Executor, now: Date, limit: number, ids?: string[]) {
    return tx
      .select()
      .from(orders)
      .where(and(eq(orders.status, 'PENDING_PAYMENT'), lte(orders.reservationExpiresAt, now), ids ? inArray(orders.id, ids) : undefined))
      .orderBy(asc(orders.reservationExpiresAt))
      .limit(limit)
      .for('update', { skipLocked: true })
  },
}
