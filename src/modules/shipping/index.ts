// The shipping module (decisions 0024, 0030, 0035): parcels and their lines, scans and non-delivery
// actions (its tables), the carriers behind one interface (the sandbox, Shiprocket, Delhivery, the
// merchant's own delivery), courier choice, packing, labels, pick lists and manifests. It stands
// below orders: what a parcel's move does to an order is the order-moves flow's
// (src/flows/order-moves/parcel-moves.ts), and the work that books, cancels and tracks an order's parcels is a flow
// (src/flows/fulfilment/).
import type { Executor } from '../../db/client.ts'
import { shipmentRepo, type ShipmentItemRow, type ShipmentRow } from './repo.ts'

export { type CourierRule, type Declaration, manifestView, NDR_MAX_DEFER_DAYS, type NdrInput, type ShipmentRequest, ShippingService } from './service.ts'
export { createCarriers } from './carriers/index.ts'
export { MANUAL_CARRIER } from './carriers/manual.ts'
export { type BookedShipment, type Carrier, type CarrierAddress, CarrierError, CarrierUnsupportedError, type TrackingEvent, type TrackingStatus } from './carriers/types.ts'
export { type SandboxCarrier, TRACKING_STATUSES } from './carriers/sandbox.ts'
export type { Manifest } from './manifest-pdf.ts'
export type { PickList } from './pick-list-pdf.ts'
export type { ShippingLabel } from './label-pdf.ts'
export type { ShipmentStatus } from './schema.sql.ts'
export {
  AwbParams,
  CarrierParams,
  CourierFields,
  CreateShipmentBody,
  KeptCallback,
  KeptCallbacksQuery,
  Manifest as ManifestSchema,
  ManifestQuery,
  ManualMoveBody,
  NdrBody,
  ParcelFields,
  PickList as PickListSchema,
  PickListQuery,
  ResolveLossBody,
  SandboxTrackingParams,
  SandboxTrackingResult,
  Shipment,
  ShipmentParams,
  ShipmentStatusSchema,
  ShippingRates,
  ShippingRatesBody,
  TrackingReceipt,
  ZoneRule,
  ZoneRuleBody,
  ZoneRuleParams,
} from './schemas.ts'
export {
  cashParcelOf,
  isResolvedLoss,
  orderIdsWithParcelAwb,
  parcelsRefusedSince,
  SHIPMENT_MOVES,
  shipmentAnswer,
  type ShipmentEventRow,
  type ShipmentItemRow,
  type ShipmentRow,
  shipmentsOfOrder,
  type ShipmentView,
  unshippedUnits,
} from './repo.ts'

// A parcel's rows, for the orders module (what a parcel's move does to its order) and the flows.
export const findParcel = (db: Executor, id: string) => shipmentRepo.find(db, id)
export const findParcelByAwb = (db: Executor, carrier: string, awb: string) => shipmentRepo.findByAwb(db, carrier, awb)
/** The parcel's row locked (after its order's: the lock order of every path that changes an order). */
export const lockParcel = (tx: Executor, id: string) => shipmentRepo.lock(tx, id)
export const updateParcel = (tx: Executor, id: string, changes: Partial<ShipmentRow>) => shipmentRepo.update(tx, id, changes)
export const insertParcel = (tx: Executor, row: ShipmentRow, items: ShipmentItemRow[]) => shipmentRepo.insert(tx, row, items)
export const parcelsOfOrder = (db: Executor, orderId: string) => shipmentRepo.ofOrder(db, orderId)
export const parcelsOfOrders = (db: Executor, orderIds: string[]) => shipmentRepo.ofOrders(db, orderIds)
export const parcelsOfReturn = (db: Executor, returnId: string) => shipmentRepo.ofReturn(db, returnId)
export const parcelItems = (db: Executor, shipmentIds: string[]) => shipmentRepo.itemsOf(db, shipmentIds)
/** Forward parcels booked in [from, to) and not cancelled (of one carrier when named), in booking order. */
export const parcelsBookedBetween = (db: Executor, from: Date, to: Date, carrier: string | null) => shipmentRepo.bookedBetween(db, from, to, carrier)
/** Units of each order line in forward parcels not cancelled nor settled elsewhere. */
export const shippedUnits = (db: Executor, orderId: string) => shipmentRepo.shippedUnits(db, orderId)
/** The same by the stock location their parcel left from (decision 0043): order item -> location -> units. */
export const shippedUnitsByLocation = (db: Executor, orderId: string) => shipmentRepo.shippedUnitsByLocation(db, orderId)
/** A carrier's scan kept once: null when the carrier sent it before. */
export const recordParcelEvent = (tx: Executor, row: Parameters<typeof shipmentRepo.insertEvent>[1]) => shipmentRepo.insertEvent(tx, row)
export const recordNdrAction = (tx: Executor, row: Parameters<typeof shipmentRepo.insertNdrAction>[1]) => shipmentRepo.insertNdrAction(tx, row)
