// Request and response schemas of the shipping module (also the OpenAPI document).
import { Type } from 'typebox'
import { Money, Nullable, Time } from '../../http/schemas.ts'
import { EWAY_BILL_NO_PATTERN } from './eway-bill.ts'

export const ShipmentStatusSchema = Type.Enum(['CREATED', 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERY_FAILED', 'DELIVERED', 'RTO_INITIATED', 'RTO_DELIVERED', 'CANCELLED', 'LOST', 'DAMAGED'])
export const Shipment = Type.Object(
  {
    id: Type.String(),
    direction: Type.Enum(['FORWARD', 'REVERSE'], { description: 'FORWARD: to the customer. REVERSE: a return picked up from the customer' }),
    returnId: Nullable(Type.String()),
    carrier: Type.String({ description: 'sandbox, shiprocket or delhivery' }),
    courierName: Nullable(Type.String()),
    awb: Type.String({ description: "The carrier's air waybill number" }),
    trackingUrl: Type.String(),
    expectedDeliveryDate: Nullable(Type.String({ format: 'date' })),
    status: ShipmentStatusSchema,
    resolution: Nullable(
      Type.Object(
        {
          action: Type.Enum(['RESHIP', 'REFUND'], { description: 'RESHIP: the units go again in a new parcel; REFUND: the units were refunded (cancelled on their lines)' }),
          at: Time,
        },
        { description: 'How the back office resolved a LOST or DAMAGED parcel; null until it did (and for any other parcel)' },
      ),
    ),
    weightGrams: Type.Integer(),
    items: Type.Array(Type.Object({ orderItemId: Type.String(), quantity: Type.Integer() })),
    events: Type.Array(
      Type.Object({
        status: ShipmentStatusSchema,
        location: Nullable(Type.String()),
        note: Nullable(Type.String()),
        at: Time,
        applied: Type.Boolean({ description: 'False for an event older than the one the shipment is at, or a move it does not make' }),
        refused: Type.Boolean({ description: "A failed delivery attempt the recipient refused (the carrier's reason says so)" }),
      }),
    ),
    ndrActions: Type.Array(
      Type.Object({
        action: Type.Enum(['REATTEMPT', 'RTO'], { description: 'REATTEMPT: deliver again; RTO: return to origin' }),
        deferredDate: Nullable(Type.String({ format: 'date', description: 'The day asked for the next attempt' })),
        addressLine: Nullable(Type.String({ description: 'A corrected address line given to the courier' })),
        phone: Nullable(Type.String({ description: 'A corrected mobile given to the courier' })),
        at: Time,
      }),
      { description: 'What was asked of the carrier after failed delivery attempts, oldest first (the timeline of the parcel with its events)' },
    ),
    createdAt: Time,
    updatedAt: Time,
  },
  { description: 'A parcel with some or all units of the order (decision 0024)' },
)
export const CarrierParams = Type.Object({ carrier: Type.String({ maxLength: 40 }) })
export const TrackingReceipt = Type.Object({
  received: Type.Integer({ description: 'Tracking events in the callback' }),
  applied: Type.Integer({ description: 'Events that moved a shipment' }),
  duplicates: Type.Integer({ description: 'Events already received before' }),
  unknown: Type.Integer({ description: 'Events for an AWB this service did not book' }),
})
/** A well-signed carrier callback kept because it was not applied in full (decision 0044). */
export const KeptCallback = Type.Object({
  id: Type.String(),
  carrier: Type.String(),
  problem: Type.Enum(['UNREADABLE', 'UNKNOWN_AWB'], { description: 'UNREADABLE: nothing could be read; UNKNOWN_AWB: some scans name AWBs this service did not book' }),
  detail: Type.String({ description: 'What could not be read, or how many scans were of unknown AWBs' }),
  unknownAwbs: Type.Array(Type.String()),
  body: Type.String({ description: 'The body as the carrier sent it (its first 64 KiB)' }),
  receivedAt: Type.String({ format: 'date-time' }),
})
export const KeptCallbacksQuery = Type.Object({
  carrier: Type.Optional(Type.String({ maxLength: 40 })),
  page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
})
export const TrackingStatusSchema = Type.Enum(['IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERY_FAILED', 'DELIVERED', 'RTO_INITIATED', 'RTO_DELIVERED', 'CANCELLED', 'LOST', 'DAMAGED'])
export const AwbParams = Type.Object({ awb: Type.String({ maxLength: 40 }) })
export const SandboxTrackingParams = Type.Object({ awb: Type.String({ maxLength: 40 }), status: TrackingStatusSchema })
export const SandboxTrackingResult = Type.Object({
  shipmentId: Type.String(),
  orderId: Type.String(),
  shipmentStatus: ShipmentStatusSchema,
  orderStatus: Type.String(),
  applied: Type.Boolean(),
})
export const ShipmentParams = Type.Object({ shipmentId: Type.String({ maxLength: 100 }) })
/** What a parcel is declared as, when the operator weighed or measured it, and its e-way bill (decision 0030). */
export const ParcelFields = {
  weightGrams: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: "Dead weight of the packed parcel, grams; omitted: the units' product weights added up" })),
  dimensionsCm: Type.Optional(
    Type.Object(
      { length: Type.Integer({ minimum: 1, maximum: 500 }), breadth: Type.Integer({ minimum: 1, maximum: 500 }), height: Type.Integer({ minimum: 1, maximum: 500 }) },
      { additionalProperties: false, description: "The packed box, whole centimetres; omitted: from the products' sizes by the packing rule (docs/fulfilment.md)" },
    ),
  ),
  ewayBillNo: Type.Optional(
    Type.String({ pattern: EWAY_BILL_NO_PATTERN, description: 'The e-way bill number (12 digits): required when the goods are worth more than ₹50,000 with tax', examples: ['331000123456'] }),
  ),
}
/** Which courier the parcel goes with (decision 0030). */
export const CourierFields = {
  courierId: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: "A courier from the carrier's rates (POST /admin/orders/{id}/shipping-rates); omitted: chosen by courierRule" })),
  courierRule: Type.Optional(
    Type.Enum(['RECOMMENDED', 'CHEAPEST', 'FASTEST'], {
      description: "RECOMMENDED: the carrier's own choice; CHEAPEST or FASTEST: by the rates of the named carrier, or of every carrier when none is named. Default: SHIPPING_COURIER_RULE",
    }),
  ),
}
export const CreateShipmentBody = Type.Object({
  carrier: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 40,
      description: "sandbox, shiprocket or delhivery; manual: the merchant's own delivery (no carrier is called; moved with POST /admin/shipments/{id}/status). Default: the delivery zone's rule, else the first configured (shiprocket, then delhivery, then the sandbox)",
    }),
  ),
  items: Type.Optional(
    Type.Array(Type.Object({ orderItemId: Type.String({ minLength: 1, maxLength: 100 }), quantity: Type.Integer({ minimum: 1, maximum: 9999 }) }), {
      minItems: 1,
      maxItems: 100,
      description: 'Lines and units in this parcel; omitted: every unit not yet shipped (from the stock location it leaves from, when the catalog keeps stock at locations)',
    }),
  ),
  locationId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        "The stock location the parcel leaves from, when the catalog keeps stock at locations: a parcel carries only units the order holds there. Omitted: the first of the catalog's locations (by position) holding units of the order not yet shipped",
    }),
  ),
  ...ParcelFields,
  ...CourierFields,
  trackingNumber: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9-]{1,40}$', description: "Carrier manual only: the merchant's own tracking number, the parcel's AWB (default: one of ours, MAN…)" })),
  trackingUrl: Type.Optional(Type.String({ maxLength: 500, pattern: '^https?://[^\\s]+$', description: 'Carrier manual only: where the customer follows the parcel (default: none, an empty trackingUrl)' })),
})
export const ManualMoveBody = Type.Object({
  status: Type.Enum(['IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERY_FAILED', 'DELIVERED', 'RTO_INITIATED', 'RTO_DELIVERED', 'LOST', 'DAMAGED'], {
    description: 'Where the parcel is now; the order follows as it follows a carrier\'s scans (cancel a parcel not yet out with POST /admin/shipments/{id}/cancel)',
  }),
  note: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'What happened, for the timeline (default: who moved it)' })),
})
export const ShippingRatesBody = Type.Object({
  carrier: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'One carrier; omitted: every configured carrier' })),
  items: CreateShipmentBody.properties.items,
  locationId: CreateShipmentBody.properties.locationId,
  weightGrams: ParcelFields.weightGrams,
  dimensionsCm: ParcelFields.dimensionsCm,
})
const CourierRuleSchema = Type.Enum(['RECOMMENDED', 'CHEAPEST', 'FASTEST'])
export const ZoneRule = Type.Object({
  zoneId: Type.String(),
  zoneName: Nullable(Type.String({ description: 'Null when the zone was deleted since' })),
  carrier: Nullable(Type.String({ description: "The carrier the zone's parcels are booked with; null: the default carrier, or every carrier by rate" })),
  courierRule: Nullable(Type.Enum(['RECOMMENDED', 'CHEAPEST', 'FASTEST'], { description: 'How the courier is chosen; null: SHIPPING_COURIER_RULE' })),
  updatedBy: Type.String({ description: 'ADMIN:<id>' }),
  updatedAt: Time,
})
export const ZoneRuleBody = Type.Object({
  carrier: Nullable(Type.String({ minLength: 1, maxLength: 40, description: 'A configured carrier (sandbox, shiprocket, delhivery); null: the default' })),
  courierRule: Nullable(CourierRuleSchema),
})
export const ZoneRuleParams = Type.Object({ zoneId: Type.String({ minLength: 1, maxLength: 100 }) })
export const ShippingRates = Type.Object({
  zoneRule: Nullable(
    Type.Object(
      { zoneId: Type.String(), zoneName: Type.String(), carrier: Nullable(Type.String()), courierRule: Nullable(CourierRuleSchema) },
      { description: "The rule of the zone serving the order's pincode: what a booking naming no carrier, courier or rule goes by; null: none (the default)" },
    ),
  ),
  weightGrams: Type.Integer({ description: 'The parcel as it would be declared' }),
  dimensionsCm: Type.Object({ length: Type.Integer(), breadth: Type.Integer(), height: Type.Integer() }),
  rates: Type.Array(
    Type.Object({
      carrier: Type.String(),
      courierId: Type.String({ description: 'What courierId books this courier' }),
      courierName: Type.String(),
      charge: Money("What the carrier charges for the parcel, COD charges included"),
      estimatedDays: Nullable(Type.Integer({ description: "Days to deliver, the carrier's estimate" })),
      recommended: Type.Boolean({ description: "The carrier's own recommendation" }),
      cheapest: Type.Boolean(),
      fastest: Type.Boolean(),
    }),
    { description: 'Cheapest first; none when no courier serves the pincode' },
  ),
  unavailableCarriers: Type.Array(Type.String(), { description: 'Carriers that could not answer now (left out of rates)', examples: [[]] }),
})
/** One stock location's parcels only (decision 0043): what its people pick and its courier collects. */
const AtLocation = Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only the parcels leaving from this stock location; omitted: every parcel' }))
export const PickListQuery = Type.Object({
  date: Type.Optional(Type.String({ format: 'date', description: 'A day in India (YYYY-MM-DD); default today' })),
  locationId: AtLocation,
  format: Type.Optional(Type.Enum(['json', 'pdf'])),
})
export const PickList = Type.Object({
  date: Type.String({ format: 'date' }),
  shipments: Type.Integer({ description: 'Forward parcels booked that day and not cancelled' }),
  lines: Type.Array(Type.Object({ sku: Type.String(), name: Type.String(), quantity: Type.Integer(), orders: Type.Array(Type.String()) })),
})
export const NdrBody = Type.Object({
  action: Type.Enum(['REATTEMPT', 'RTO'], { description: 'REATTEMPT: deliver again; RTO: return to origin' }),
  deferredDate: Type.Optional(Type.String({ format: 'date', description: 'REATTEMPT: the day to deliver on (India), today to 7 days ahead' })),
  addressLine: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'REATTEMPT: a corrected address line' })),
  phone: Type.Optional(Type.String({ minLength: 10, maxLength: 15, description: 'REATTEMPT: a corrected 10-digit mobile' })),
  note: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'For the courier' })),
})
export const ResolveLossBody = Type.Object({
  action: Type.Enum(['RESHIP', 'REFUND'], {
    description: "RESHIP: send the parcel's units again (stock taken again; book the new parcel as any other); REFUND: refund them (cancelled on their lines, nothing back to stock)",
  }),
  note: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Why, for the record (the carrier claim, say)' })),
})
export const ManifestQuery = Type.Object({
  carrier: Type.String({ minLength: 1, maxLength: 40, description: 'The carrier whose courier collects the parcels' }),
  date: Type.Optional(Type.String({ format: 'date', description: 'The day the parcels were booked, in India (YYYY-MM-DD); default today' })),
  locationId: AtLocation,
  format: Type.Optional(Type.Enum(['json', 'pdf'])),
})
export const Manifest = Type.Object({
  carrier: Type.String(),
  date: Type.String({ format: 'date' }),
  parcels: Type.Array(
    Type.Object({
      awb: Type.String(),
      orderNumber: Type.String(),
      courierName: Nullable(Type.String()),
      units: Type.Integer(),
      weightGrams: Type.Integer(),
      codAmount: Money('What the courier collects for this parcel (0.00 prepaid)'),
      ewayBillNo: Nullable(Type.String()),
    }),
    { description: 'Forward parcels booked that day and not cancelled, in booking order' },
  ),
  totals: Type.Object({ parcels: Type.Integer(), units: Type.Integer(), weightGrams: Type.Integer(), codAmount: Money() }),
})
