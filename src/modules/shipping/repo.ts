// Data access and views of shipments (decision 0024): the rows of a parcel, its lines and its
// tracking events, and the shape the API answers them in.
import { and, asc, count, desc, eq, inArray, isNotNull, lt, ne, type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { carrierCallbacks, type ShipmentStatus, shipmentEvents, shipmentItems, shipmentNdrActions, shipments } from './schema.sql.ts'

export type ShipmentRow = typeof shipments.$inferSelect
export type ShipmentItemRow = typeof shipmentItems.$inferSelect
export type ShipmentEventRow = typeof shipmentEvents.$inferSelect
export type ShipmentNdrActionRow = typeof shipmentNdrActions.$inferSelect

/** The moves a parcel makes (decision 0024); a scan that asks another is kept, not applied. */
export const SHIPMENT_MOVES: Record<ShipmentStatus, ShipmentStatus[]> = {
  // RTO_DELIVERED from anywhere before an end: a carrier may report the parcel back without its RTO_INITIATED scan.
  // LOST and DAMAGED from anywhere on the way, there or back: the carrier's last word on the parcel.
  CREATED: ['IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERY_FAILED', 'DELIVERED', 'RTO_INITIATED', 'RTO_DELIVERED', 'CANCELLED', 'LOST', 'DAMAGED'],
  IN_TRANSIT: ['OUT_FOR_DELIVERY', 'DELIVERY_FAILED', 'DELIVERED', 'RTO_INITIATED', 'RTO_DELIVERED', 'LOST', 'DAMAGED'],
  OUT_FOR_DELIVERY: ['DELIVERY_FAILED', 'DELIVERED', 'RTO_INITIATED', 'RTO_DELIVERED', 'LOST', 'DAMAGED'],
  DELIVERY_FAILED: ['OUT_FOR_DELIVERY', 'DELIVERED', 'RTO_INITIATED', 'RTO_DELIVERED', 'LOST', 'DAMAGED'],
  RTO_INITIATED: ['RTO_DELIVERED', 'LOST', 'DAMAGED'],
  DELIVERED: [],
  RTO_DELIVERED: [],
  CANCELLED: [],
  // Resolved by the back office (reshipped or refunded), once; a later scan is recorded, not applied.
  LOST: [],
  DAMAGED: [],
}

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

export type CarrierCallbackRow = typeof carrierCallbacks.$inferSelect

export const shipmentRepo = {
  /** Keeps a callback once per carrier and body (a retry of the same body adds nothing). */
  async keepCallback(db: Executor, row: CarrierCallbackRow) {
    await db.insert(carrierCallbacks).values(row).onConflictDoNothing()
  },
  /** Forgets kept callbacks received before `before`, at most `limit` of them; how many. */
  async purgeCallbacks(db: Executor, before: Date, limit: number) {
    const oldest = db.select({ id: carrierCallbacks.id }).from(carrierCallbacks).where(lt(carrierCallbacks.receivedAt, before)).orderBy(asc(carrierCallbacks.receivedAt)).limit(limit)
    return (await db.delete(carrierCallbacks).where(inArray(carrierCallbacks.id, oldest)).returning({ id: carrierCallbacks.id })).length
  },
  async keptCallbacks(db: Executor, carrier: string | undefined, page: { limit: number; offset: number }) {
    const where = carrier ? eq(carrierCallbacks.carrier, carrier) : undefined
    const [rows, totals] = await Promise.all([
      db.select().from(carrierCallbacks).where(where).orderBy(desc(carrierCallbacks.receivedAt), desc(carrierCallbacks.id)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(carrierCallbacks).where(where),
    ])
    return { rows, total: totals[0]?.n ?? 0 }
  },
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
  /** The parcels of several orders, each order's in booking order. */
  async ofOrders(db: Executor, orderIds: string[]) {
    if (orderIds.length === 0) return []
    return db.select().from(shipments).where(inArray(shipments.orderId, orderIds)).orderBy(asc(shipments.createdAt), asc(shipments.id))
  },
  /** Forward parcels booked in [from, to) and not cancelled, of one carrier when named, in booking order. */
  bookedBetween(db: Executor, from: Date, to: Date, carrier: string | null) {
    return db
      .select()
      .from(shipments)
      .where(
        and(
          carrier === null ? undefined : eq(shipments.carrier, carrier),
          eq(shipments.direction, 'FORWARD'),
          ne(shipments.status, 'CANCELLED'),
          sql`${shipments.createdAt} >= ${from}`,
          sql`${shipments.createdAt} < ${to}`,
        ),
      )
      .orderBy(asc(shipments.createdAt), asc(shipments.id))
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
  /** The non-delivery actions of these parcels, oldest first. */
  ndrActionsOfMany(db: Executor, shipmentIds: string[]) {
    return db.select().from(shipmentNdrActions).where(inArray(shipmentNdrActions.shipmentId, shipmentIds)).orderBy(asc(shipmentNdrActions.createdAt), asc(shipmentNdrActions.id))
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
  /** The same units by the stock location their parcel left from: order item -> location -> units (parcels without a location left out). */
  async shippedUnitsByLocation(db: Executor, orderId: string): Promise<Map<string, Map<string, number>>> {
    const rows = await db
      .select({ orderItemId: shipmentItems.orderItemId, locationId: shipments.locationId, units: sql<number>`sum(${shipmentItems.quantity})::int` })
      .from(shipmentItems)
      .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
      .where(and(eq(shipments.orderId, orderId), eq(shipments.direction, 'FORWARD'), ne(shipments.status, 'CANCELLED'), liveOrUnsettled, isNotNull(shipments.locationId)))
      .groupBy(shipmentItems.orderItemId, shipments.locationId)
    const byItem = new Map<string, Map<string, number>>()
    for (const r of rows) {
      if (!byItem.has(r.orderItemId)) byItem.set(r.orderItemId, new Map())
      byItem.get(r.orderItemId)!.set(r.locationId!, Number(r.units))
    }
    return byItem
  },
}

/** Units of a line not yet cancelled and not in a forward shipment. */
export const unshippedUnits = (item: { id: string; quantity: number; cancelledQuantity: number }, shipped: Map<string, number>) => item.quantity - item.cancelledQuantity - (shipped.get(item.id) ?? 0)

/** A shipment as the API answers it (the customer's order, the back office, events). */
export function shipmentView(s: ShipmentRow, items: ShipmentItemRow[], events: ShipmentEventRow[], ndrActions: ShipmentNdrActionRow[]) {
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
    // What was asked of the carrier after a failed attempt (who asked, and the note for the courier, are the back office's).
    ndrActions: ndrActions
      .filter((a) => a.shipmentId === s.id)
      .map((a) => ({ action: a.action, deferredDate: a.deferredDate, addressLine: a.addressLine, phone: a.phone, at: a.createdAt.toISOString() })),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  }
}
export type ShipmentView = ReturnType<typeof shipmentView>

/** The order's shipments with their lines, events and non-delivery actions, as the order answer carries them. */
export async function shipmentsOfOrder(db: Executor, orderId: string): Promise<ShipmentView[]> {
  const rows = await shipmentRepo.ofOrder(db, orderId)
  if (rows.length === 0) return []
  const ids = rows.map((r) => r.id)
  const [items, events, ndrActions] = await Promise.all([shipmentRepo.itemsOf(db, ids), shipmentRepo.eventsOf(db, ids), shipmentRepo.ndrActionsOfMany(db, ids)])
  return rows.map((r) => shipmentView(r, items, events, ndrActions))
}

export async function shipmentAnswer(db: Executor, row: ShipmentRow): Promise<ShipmentView> {
  const [items, events, ndrActions] = await Promise.all([shipmentRepo.itemsOf(db, [row.id]), shipmentRepo.eventsOf(db, [row.id]), shipmentRepo.ndrActionsOf(db, row.id)])
  return shipmentView(row, items, events, ndrActions)
}

/** SQL for another module's query: the ids of orders with a parcel whose AWB is `awb`, on any carrier (one index probe per carrier). */
export function orderIdsWithParcelAwb(awb: string): SQL {
  // The carriers in use, read by skipping through the (carrier, awb) index: one probe each.
  const carriers = sql`with recursive carrier(name) as (
      (select min(${shipments.carrier}) from ${shipments})
      union all
      select (select min(${shipments.carrier}) from ${shipments} where ${shipments.carrier} > carrier.name) from carrier where carrier.name is not null
    ) select name from carrier where name is not null`
  return sql`(select ${shipments.orderId} from ${shipments} where ${shipments.awb} = ${awb} and ${shipments.carrier} in (${carriers}))`
}

/** SQL for another module's query: how many parcels of the orders `orderIds` (a subquery) had a delivery refused at the door since `since`. */
export const parcelsRefusedSince = (orderIds: SQL, since: Date): SQL<number> =>
  sql<number>`(select count(distinct s.id) from ${shipments} s join ${shipmentEvents} e on e.shipment_id = s.id and e.refused and e.occurred_at >= ${since} where s.order_id in ${orderIds})::int`
