// The merchant's own delivery (issue #39): a parcel that no carrier carries (the shop's van, a
// courier booked by phone), recorded so that every unit of a shipped order is in a parcel. Nothing is
// called: the AWB is the tracking number the merchant gave (or one of ours), the tracking link is
// theirs (or none), and the back office moves the parcel itself (POST /admin/shipments/{id}/status),
// the order following as it follows a carrier's scans.
import { type Carrier, CarrierPayloadError, CarrierUnsupportedError } from './types.ts'

export const MANUAL_CARRIER = 'manual'

export function createManualCarrier(): Carrier {
  return {
    name: MANUAL_CARRIER,
    async book(request) {
      // Ours: MAN and the end of the shipment id (unique, as the id is).
      const awb = request.trackingNumber ?? `MAN${request.shipmentId.slice(-12).toUpperCase()}`
      return { awb, carrierShipmentId: null, courierName: 'Own delivery', trackingUrl: request.trackingUrl ?? '', labelUrl: null, expectedDeliveryDate: null }
    },
    // Nobody to ask: the merchant's own people take it.
    async requestPickup() {
      return { scheduledAt: null, reference: null }
    },
    async ndrAction(shipment) {
      throw new CarrierUnsupportedError(`Shipment ${shipment.awb} is the merchant's own delivery: deliver it again, or move it back (POST /admin/shipments/{id}/status RTO_INITIATED, RTO_DELIVERED)`)
    },
    async rates() {
      return []
    },
    async cancel() {},
    parseWebhook() {
      throw new CarrierPayloadError('The merchant\'s own deliveries have no callbacks')
    },
    async track() {
      return []
    },
  }
}
