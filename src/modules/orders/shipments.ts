// An order's parcels as orders write them (decision 0024): a booked parcel recorded with its lines
// and its event, in the caller's transaction with the order row locked. How a carrier's scan moves
// the parcel and, through it, the order is the order-moves flow's (src/flows/order-moves/parcel-moves.ts).
import type { Executor } from '../../db/client.ts'
import { orderEvent } from './lifecycle.ts'
import type { OrderRow } from './repo.ts'
import type { OrderStatus } from './schema.sql.ts'
import { insertParcel, shipmentAnswer, type ShipmentRow, type ShipmentStatus } from '../shipping/index.ts'
import { recordEvent } from '../events/index.ts'

/**
 * Orders a parcel may be booked for: the first one packs a CONFIRMED order; the rest of a split
 * order may follow once the first parcel is on its way (the order does not move back).
 */
export const SHIPPABLE: OrderStatus[] = ['CONFIRMED', 'PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERY_FAILED']

export async function emitShipment(tx: Executor, order: OrderRow, shipment: ShipmentRow, type: 'shipment.created' | 'shipment.updated', at: Date, data: Record<string, unknown> = {}) {
  await recordEvent(tx, orderEvent(order, type, { shipmentId: shipment.id, status: shipment.status, ...data, shipment: await shipmentAnswer(tx, shipment) }, at))
}

/** A parcel the carrier booked, written with its lines and its shipment.created event. */
export async function recordShipment(
  tx: Executor,
  order: OrderRow,
  parcel: {
    id: string
    direction: 'FORWARD' | 'REVERSE'
    returnRequestId: string | null
    carrier: string
    booked: { awb: string; carrierShipmentId: string | null; courierName: string | null; trackingUrl: string; labelUrl: string | null; expectedDeliveryDate: string | null }
    /** The box and papers it was booked with (shipping's declaration, decision 0030). */
    declared: { box: { weightGrams: number; dimensionsCm: { length: number; breadth: number; height: number } }; ewayBillNo: string | null }
    lines: { orderItemId: string; quantity: number }[]
    /** The stock location it leaves from and its pickup name as booked (decision 0043); absent: the carrier's configured one. */
    origin?: { locationId: string; pickupName: string | null } | null
  },
  at: Date,
): Promise<ShipmentRow> {
  const row: ShipmentRow = {
    id: parcel.id,
    orderId: order.id,
    partnerId: order.partnerId,
    direction: parcel.direction,
    returnRequestId: parcel.returnRequestId,
    carrier: parcel.carrier,
    carrierShipmentId: parcel.booked.carrierShipmentId,
    awb: parcel.booked.awb,
    courierName: parcel.booked.courierName,
    trackingUrl: parcel.booked.trackingUrl,
    labelUrl: parcel.booked.labelUrl,
    expectedDeliveryDate: parcel.booked.expectedDeliveryDate,
    status: 'CREATED',
    weightGrams: parcel.declared.box.weightGrams,
    lengthCm: parcel.declared.box.dimensionsCm.length,
    breadthCm: parcel.declared.box.dimensionsCm.breadth,
    heightCm: parcel.declared.box.dimensionsCm.height,
    ewayBillNo: parcel.declared.ewayBillNo,
    locationId: parcel.origin?.locationId ?? null,
    pickupName: parcel.origin?.pickupName ?? null,
    pickupRequestedAt: null,
    pickupScheduledAt: null,
    pickupReference: null,
    lastEventAt: null,
    settledAt: null,
    resolution: null,
    resolutionNote: null,
    resolvedBy: null,
    createdAt: at,
    updatedAt: at,
  }
  await insertParcel(tx, row, parcel.lines.map((l) => ({ shipmentId: row.id, orderItemId: l.orderItemId, quantity: l.quantity })))
  await emitShipment(tx, order, row, 'shipment.created', at)
  return row
}

export interface TrackingUpdate {
  eventId: string
  status: ShipmentStatus
  occurredAt: Date
  location: string | null
  note: string | null
  expectedDeliveryDate: string | null
  /** A failed attempt the recipient refused. */
  refused: boolean
}
