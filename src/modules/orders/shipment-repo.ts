// Data access and views of shipments (decision 0024): the rows of a parcel, its lines and its
// tracking events, and the shape the API answers them in.
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import type { OrderItemRow } from './repo.ts'
import { orderItems, orders, shipmentEvents, shipmentItems, shipmentNdrActions, shipments } from './schema.sql.ts'

export type ShipmentRow = typeof shipments.$inferSelect
export type ShipmentItemRow = typeof shipmentItems.$inferSelect
export type ShipmentEventRow = typeof shipmentEvents.$inferSelect
export type ShipmentNdrActionRow = typeof shipmentNdrActions.$inferSelect

/**
 * A parcel whose units are not settled elsewhere: a returned parcel's units are cancelled on their
 * lines once settled, a lost or damaged one's are cancelled (refunded) or back to ship (reshipped).
 */
const liveOrUnsettled = sql`(${shipments.status} not in ('RTO_DELIVERED', 'LOST', 'DAMAGED') or ${shipments.settledAt} is null)`

/** A lost or damaged parcel the back office resolved (decision 0030): it holds no units any more, and collects no cash. */
export const isResolvedLoss = (s: Pick<ShipmentRow, 'status' | 'settledAt'>) => (s.status === 'LOST' || s.status === 'DAMAGED') && s.settledAt !== null

/** The parcel that collects a COD order's cash (all of it): its first forward parcel not cancelled nor resolved as lost (decision 0024). */
export const cashParcelOf = <T extends Pick<ShipmentRow, 'direction' | 'status' | 'settledAt'>>(parcels: T[]): T | undefined =>
  parcels.find((s) => s.direction === 'FORWARD' && s.status !== 'CANCELLED' && !isResolvedLoss(s))

export const shipmentRepo = {
  async insert(tx: Executor, row: ShipmentRow, items: ShipmentItemRow[]) {
    await tx.insert(shipments).values(row)
    await tx.insert(shipmentItems).values(items)
  },
  async find(db: Executor, id: string) {
    const [row] = await db.select().from(shipments).where(eq(shipments.id, id))
    return row ?? null
  },
  async findByAwb(db: Executor, carrier: string, awb: string) {
    const [row] = await db.select().from(shipments).where(and(eq(shipments.carrier, carrier), eq(shipments.awb, awb)))
    return row ?? null
  },
  async lock(tx: Executor, id: string) {
    const [row] = await tx.select().from(shipments).where(eq(shipments.id, id)).for('update')
    return row ?? null
  },
  async update(tx: Executor, id: string, changes: Partial<ShipmentRow>) {
    const [row] = await tx.update(shipments).set(changes).where(eq(shipments.id, id)).returning()
    return row!
  },
  ofOrder(db: Executor, orderId: string) {
    return db.select().from(shipments).where(eq(shipments.orderId, orderId)).orderBy(asc(shipments.createdAt), asc(shipments.id))
  },
  /** Parcels waiting for their courier, booked before `bookedBefore`, whose pickup no carrier accepted yet: oldest first. */
  pickupsDue(db: Executor, bookedBefore: Date, limit: number) {
    return db
      .select()
      .from(shipments)
      .where(sql`${shipments.status} = 'CREATED' and ${shipments.pickupRequestedAt} is null and ${shipments.createdAt} < ${bookedBefore}`)
      .orderBy(asc(shipments.createdAt))
      .limit(limit)
  },
  ofReturn(db: Executor, returnRequestId: string) {
    return db.select().from(shipments).where(eq(shipments.returnRequestId, returnRequestId)).orderBy(asc(shipments.createdAt), asc(shipments.id))
  },
  async itemsOf(db: Executor, shipmentIds: string[]) {
    if (shipmentIds.length === 0) return []
    return db.select().from(shipmentItems).where(inArray(shipmentItems.shipmentId, shipmentIds))
  },
  async eventsOf(db: Executor, shipmentIds: string[]) {
    if (shipmentIds.length === 0) return []
    return db.select().from(shipmentEvents).where(inArray(shipmentEvents.shipmentId, shipmentIds)).orderBy(asc(shipmentEvents.occurredAt), asc(shipmentEvents.receivedAt))
  },
  async insertNdrAction(tx: Executor, row: ShipmentNdrActionRow) {
    await tx.insert(shipmentNdrActions).values(row)
  },
  ndrActionsOf(db: Executor, shipmentId: string) {
    return db.select().from(shipmentNdrActions).where(eq(shipmentNdrActions.shipmentId, shipmentId)).orderBy(asc(shipmentNdrActions.createdAt), asc(shipmentNdrActions.id))
  },
  /** The event, unless the carrier sent it before (then null). */
  async insertEvent(tx: Executor, row: ShipmentEventRow) {
    const [inserted] = await tx.insert(shipmentEvents).values(row).onConflictDoNothing({ target: [shipmentEvents.carrier, shipmentEvents.eventId] }).returning()
    return inserted ?? null
  },
  /**
   * Units of each line of the order in forward parcels that were not cancelled, nor came back and
   * were settled (those units are counted as cancelled on their line).
   */
  async shippedUnits(db: Executor, orderId: string): Promise<Map<string, number>> {
    const rows = await db
      .select({ orderItemId: shipmentItems.orderItemId, units: sql<number>`sum(${shipmentItems.quantity})::int` })
      .from(shipmentItems)
      .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
      .where(and(eq(shipments.orderId, orderId), eq(shipments.direction, 'FORWARD'), ne(shipments.status, 'CANCELLED'), liveOrUnsettled))
      .groupBy(shipmentItems.orderItemId)
    return new Map(rows.map((r) => [r.orderItemId, Number(r.units)]))
  },
}

/** Units of a line not yet cancelled and not in a forward shipment. */
export const unshippedUnits = (item: OrderItemRow, shipped: Map<string, number>) => item.quantity - item.cancelledQuantity - (shipped.get(item.id) ?? 0)

/** A shipment as the API answers it (the customer's order, the back office, events). */
export function shipmentView(s: ShipmentRow, items: ShipmentItemRow[], events: ShipmentEventRow[]) {
  return {
    id: s.id,
    direction: s.direction,
    returnId: s.returnRequestId,
    carrier: s.carrier,
    courierName: s.courierName,
    awb: s.awb,
    trackingUrl: s.trackingUrl,
    expectedDeliveryDate: s.expectedDeliveryDate,
    status: s.status,
    resolution: s.resolution === null ? null : { action: s.resolution, at: (s.settledAt ?? s.updatedAt).toISOString() },
    weightGrams: s.weightGrams,
    items: items.filter((i) => i.shipmentId === s.id).map((i) => ({ orderItemId: i.orderItemId, quantity: i.quantity })),
    events: events
      .filter((e) => e.shipmentId === s.id)
      .map((e) => ({ status: e.status, location: e.location, note: e.note, at: e.occurredAt.toISOString(), applied: e.applied, refused: e.refused })),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  }
}
export type ShipmentView = ReturnType<typeof shipmentView>

/** The order's shipments with their lines and events, as the order answer carries them. */
export async function shipmentsOfOrder(db: Executor, orderId: string): Promise<ShipmentView[]> {
  const rows = await shipmentRepo.ofOrder(db, orderId)
  if (rows.length === 0) return []
  const ids = rows.map((r) => r.id)
  const [items, events] = await Promise.all([shipmentRepo.itemsOf(db, ids), shipmentRepo.eventsOf(db, ids)])
  return rows.map((r) => shipmentView(r, items, events))
}

export async function shipmentAnswer(db: Executor, row: ShipmentRow): Promise<ShipmentView> {
  const [items, events] = await Promise.all([shipmentRepo.itemsOf(db, [row.id]), shipmentRepo.eventsOf(db, [row.id])])
  return shipmentView(row, items, events)
}


/**
 * A carrier's manifest: its forward parcels booked in [from, to) and not cancelled, in booking
 * order, with their units and the cash the courier collects for each (a COD order still unpaid: all
 * of it with its first parcel that was not cancelled, as the label says).
 */
export async function manifestBetween(db: Executor, carrier: string, from: Date, to: Date) {
  const rows = await db
    .select({
      awb: shipments.awb,
      orderNumber: orders.orderNumber,
      courierName: shipments.courierName,
      weightGrams: shipments.weightGrams,
      ewayBillNo: shipments.ewayBillNo,
      units: sql<number>`(select coalesce(sum(i.quantity), 0) from ${shipmentItems} i where i.shipment_id = ${shipments.id})::int`,
      collect: sql<string>`(case when ${orders.paymentMode} = 'COD' and ${orders.paymentStatus} = 'COD_PENDING' and ${shipments.id} = (
          select f.id from ${shipments} f where f.order_id = ${orders.id} and f.direction = 'FORWARD' and f.status <> 'CANCELLED'
            and not (f.status in ('LOST', 'DAMAGED') and f.settled_at is not null) order by f.created_at, f.id limit 1
        ) then ${orders.amountPayable} else 0 end)::text`,
    })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(and(eq(shipments.carrier, carrier), eq(shipments.direction, 'FORWARD'), ne(shipments.status, 'CANCELLED'), sql`${shipments.createdAt} >= ${from}`, sql`${shipments.createdAt} < ${to}`))
    .orderBy(asc(shipments.createdAt), asc(shipments.id))
  return rows.map((r) => ({ ...r, units: Number(r.units), collect: BigInt(r.collect) }))
}

/**
 * What to pick for the forward parcels booked in [from, to) and not cancelled: units per SKU, with
 * the order numbers they go to, and the number of parcels.
 */
export async function pickListBetween(db: Executor, from: Date, to: Date) {
  const booked = and(eq(shipments.direction, 'FORWARD'), ne(shipments.status, 'CANCELLED'), sql`${shipments.createdAt} >= ${from}`, sql`${shipments.createdAt} < ${to}`)
  const [lines, [counted]] = await Promise.all([
    db
      .select({
        sku: orderItems.sku,
        name: sql<string>`min(${orderItems.name})`,
        quantity: sql<number>`sum(${shipmentItems.quantity})::int`,
        orders: sql<string[]>`array_agg(distinct ${orders.orderNumber} order by ${orders.orderNumber})`,
      })
      .from(shipmentItems)
      .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
      .innerJoin(orderItems, eq(orderItems.id, shipmentItems.orderItemId))
      .innerJoin(orders, eq(orders.id, shipments.orderId))
      .where(booked)
      .groupBy(orderItems.sku)
      .orderBy(asc(orderItems.sku)),
    db.select({ n: sql<number>`count(*)::int` }).from(shipments).where(booked),
  ])
  return { shipments: Number(counted?.n ?? 0), lines: lines.map((l) => ({ ...l, quantity: Number(l.quantity) })) }
}
