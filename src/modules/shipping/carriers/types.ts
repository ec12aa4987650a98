// What a carrier does for us (decision 0024). Shipments never call a carrier's API directly: they go
// through this interface, and tracking callbacks come back through parseWebhook, signature checked,
// translated into our shipment statuses.
import type { IncomingHttpHeaders } from 'node:http'

/**
 * A carrier's tracking status in our words; the shipment moves only forward through these. LOST: the
 * carrier declared the parcel lost or untraceable; DAMAGED: damaged, destroyed or disposed of. Both
 * end the parcel's journey and wait for the back office to resolve them (decision 0030).
 */
export type TrackingStatus = 'IN_TRANSIT' | 'OUT_FOR_DELIVERY' | 'DELIVERY_FAILED' | 'DELIVERED' | 'RTO_INITIATED' | 'RTO_DELIVERED' | 'CANCELLED' | 'LOST' | 'DAMAGED'

/** The address a parcel goes to or is picked up from: the order's shipping address. */
export interface CarrierAddress {
  name: string
  phone: string
  line1: string
  line2: string
  landmark: string
  city: string
  state: string
  pincode: string
}

export interface BookingRequest {
  /** Our shipment id: the carrier's order reference, unique per booking. */
  shipmentId: string
  orderNumber: string
  orderDate: Date
  /** Now, by the service's clock. */
  bookedAt: Date
  /** FORWARD: from the merchant's warehouse to the customer. REVERSE: picked up from the customer. */
  direction: 'FORWARD' | 'REVERSE'
  /** The customer's e-mail, when there is one (a carrier that requires one falls back to the merchant's). */
  customer: CarrierAddress & { email: string | null }
  /** gstRateBps: the line's GST rate (1800 = 18 %), null when the sale was not taxed. */
  items: { sku: string; name: string; quantity: number; unitPrice: bigint; hsnCode: string | null; gstRateBps: number | null }[]
  /** Paise the carrier collects at the door (COD); 0n for prepaid and for reverse pickups. */
  collectAmount: bigint
  /** Paise: the declared value of the parcel. */
  declaredValue: bigint
  weightGrams: number
  /** The box, whole centimetres (decision 0030: from the products, or as the operator measured it). */
  dimensionsCm: { length: number; breadth: number; height: number }
  /** The GST document the goods travel with (the tax invoice, or the bill of supply), when there is one. */
  invoiceNumber: string | null
  /** The e-way bill of a consignment over the threshold (decision 0030). */
  ewayBillNo: string | null
  /** The carrier's courier to book with (from its rates); null: the carrier's own choice. */
  courierId: string | null
  /**
   * The stock location a forward parcel leaves from, or a return goes back to, when the catalog keeps
   * stock at locations (decision 0043): its pickup name at the carrier (null: the carrier's
   * configured one) and its pincode. Absent or null: the carrier's configured pickup location.
   */
  origin?: ParcelOrigin | null
  /** The merchant's own delivery only (manual.ts): its tracking number and link, when it has them. Carriers ignore them. */
  trackingNumber?: string | null
  trackingUrl?: string | null
}

/** The stock location a forward parcel leaves from. */
export interface ParcelOrigin {
  /** The location's name as a pickup location at the carrier; null: the carrier's configured one. */
  pickupName: string | null
  pincode: string
}

/** What a parcel would cost with each of a carrier's couriers: the rate card's question. */
export interface RateRequest {
  direction: 'FORWARD' | 'REVERSE'
  /** The stock location's pincode a forward parcel leaves from, or a return goes back to; absent: the carrier's configured pickup location. */
  originPincode?: string | null
  /** The customer's pincode: where a forward parcel goes, where a reverse one is picked up. */
  customerPincode: string
  weightGrams: number
  dimensionsCm: { length: number; breadth: number; height: number }
  /** Paise collected at the door (COD); 0n otherwise. */
  collectAmount: bigint
  /** Paise: the parcel's declared value. */
  declaredValue: bigint
}

/** One courier's offer for a parcel. */
export interface CourierRate {
  courierId: string
  courierName: string
  /** Paise: what the carrier charges for the parcel, COD charges included. */
  charge: bigint
  /** Days to deliver, the carrier's estimate (the longer end of a range); null when it gives none. */
  estimatedDays: number | null
  /** The carrier's own recommendation for this parcel. */
  recommended: boolean
}

/** The carrier accepted to collect a booked parcel. */
export interface PickupRequested {
  /** When it says it will come, when it says. */
  scheduledAt: Date | null
  /** Its reference of the pickup (Shiprocket's pickup token), when it gives one. */
  reference: string | null
}

/** A booked parcel to be collected: `pickupName`, the stock location's name at the carrier it leaves from (null: the configured one). */
export interface PickupAsked {
  awb: string
  carrierShipmentId: string | null
  direction: 'FORWARD' | 'REVERSE'
  pickupName?: string | null
}

export interface BookedShipment {
  awb: string
  carrierShipmentId: string | null
  courierName: string | null
  trackingUrl: string
  /** The carrier's label; null when it has none (we then render one, with the AWB as a barcode). */
  labelUrl: string | null
  /** YYYY-MM-DD, when the carrier says. */
  expectedDeliveryDate: string | null
}

/** One tracking event, verified and translated. `eventId` is unique per carrier event (a resend has the same one). */
export interface TrackingEvent {
  eventId: string
  awb: string
  status: TrackingStatus
  occurredAt: Date
  location: string | null
  note: string | null
  expectedDeliveryDate: string | null
  /** A failed attempt the recipient refused (isRefusal of the carrier's reason); false for any other event. */
  refused: boolean
}

/** What the back office or the partner's server asks of a parcel whose delivery failed (NDR). */
export interface NdrRequest {
  action: 'REATTEMPT' | 'RTO'
  /** REATTEMPT: the day to deliver on (YYYY-MM-DD, India); null: the carrier's next round. */
  deferredDate: string | null
  /** REATTEMPT: a corrected address line and phone (10 digits), when the old ones were the problem. */
  addressLine: string | null
  phone: string | null
  note: string | null
}

/**
 * Whether a carrier's reason for a failed attempt says the recipient refused the parcel ("Consignee
 * refused to accept", "Customer rejected", "Delivery denied"), as opposed to not being reached.
 */
export function isRefusal(reason: string | null): boolean {
  return reason !== null && /\b(refus\w*|reject\w*|denied|declined|did not accept|not accepted)\b/i.test(reason)
}

export interface Carrier {
  readonly name: string
  book(request: BookingRequest): Promise<BookedShipment>
  /**
   * Asks the carrier to collect a booked parcel (forward: from the warehouse; reverse: from the
   * customer). Asking again for a parcel already queued is not an error. Throws CarrierError.
   */
  requestPickup(shipment: PickupAsked, at: Date): Promise<PickupRequested>
  /** Forwards a non-delivery action (re-attempt or return to origin) for a parcel whose delivery failed. Throws CarrierError. */
  ndrAction(shipment: { awb: string; carrierShipmentId: string | null }, request: NdrRequest): Promise<void>
  /** Its couriers that serve the parcel, with their charges; [] when none does. Throws CarrierError. */
  rates(request: RateRequest): Promise<CourierRate[]>
  /** Cancels a booked shipment that has not been picked up. */
  cancel(shipment: { awb: string; carrierShipmentId: string | null }): Promise<void>
  /**
   * Verifies the callback (throws CarrierSignatureError) and translates it. An event the shipment
   * has no status for (a scan at a hub, a pickup scheduled) gives []; a verified body that cannot be
   * read throws CarrierPayloadError.
   */
  parseWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): TrackingEvent[]
  /** Asks the carrier for a shipment's events, for when callbacks are late or lost. */
  track(awb: string): Promise<TrackingEvent[]>
}

export class CarrierSignatureError extends Error {}

/** A callback that passed verification but cannot be read (not JSON, no AWB, no status, no time): the service answers 400. */
export class CarrierPayloadError extends Error {}

/** A carrier's API failed, timed out or could not be reached. Its message never carries credentials. */
export class CarrierError extends Error {}

/** The carrier's API has no such request (Delhivery takes no return to origin by API): asking again will not help, the message says where to go. */
export class CarrierUnsupportedError extends Error {}
