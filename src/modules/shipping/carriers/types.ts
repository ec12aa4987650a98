// What a carrier does for us (decision 0024). Shipments never call a carrier's API directly: they go
// through this interface, and tracking callbacks come back through parseWebhook, signature checked,
// translated into our shipment statuses.
import type { IncomingHttpHeaders } from 'node:http'
import type { ShippingAddress } from '../../orders/index.ts'

/** A carrier's tracking status in our words; the shipment moves only forward through these. */
export type TrackingStatus = 'IN_TRANSIT' | 'OUT_FOR_DELIVERY' | 'DELIVERY_FAILED' | 'DELIVERED' | 'RTO_INITIATED' | 'RTO_DELIVERED' | 'CANCELLED'

/** The address a parcel goes to or is picked up from: the order's shipping address. */
export type CarrierAddress = ShippingAddress

export interface BookingRequest {
  /** Our shipment id: the carrier's order reference, unique per booking. */
  shipmentId: string
  orderNumber: string
  orderDate: Date
  /** Now, by the service's clock. */
  bookedAt: Date
  /** FORWARD: from the merchant's warehouse to the customer. REVERSE: picked up from the customer. */
  direction: 'FORWARD' | 'REVERSE'
  customer: CarrierAddress & { email: string | null }
  items: { sku: string; name: string; quantity: number; unitPrice: bigint; hsnCode: string | null }[]
  /** Paise the carrier collects at the door (COD); 0n for prepaid and for reverse pickups. */
  collectAmount: bigint
  /** Paise: the declared value of the parcel. */
  declaredValue: bigint
  weightGrams: number
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
}

export interface Carrier {
  readonly name: string
  book(request: BookingRequest): Promise<BookedShipment>
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
