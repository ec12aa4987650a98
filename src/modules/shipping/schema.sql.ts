// The shipping module's tables: parcels, their lines, their carriers' scans and the non-delivery
// actions asked for them (decision 0024), and which carrier, by which rule its courier, a delivery
// zone's parcels go with (decision 0030). A parcel names its order, its lines and its return by id:
// they are other modules' rows, with no foreign key across modules (decision 0035), as zones are
// the checkout module's and a rule names one by id.
import { sql } from 'drizzle-orm'
import { boolean, check, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

export type CourierRuleName = 'RECOMMENDED' | 'CHEAPEST' | 'FASTEST'

export const zoneCourierRules = pgTable(
  'zone_courier_rules',
  {
    /** The checkout module's delivery zone. */
    zoneId: text('zone_id').primaryKey(),
    /** The carrier the zone's parcels are booked with; null: the default carrier (or every carrier, by rate). */
    carrier: text('carrier'),
    /** How the courier is chosen; null: SHIPPING_COURIER_RULE. */
    courierRule: text('courier_rule').$type<CourierRuleName>(),
    updatedBy: text('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check('zone_courier_rules_something', sql`${t.carrier} is not null or ${t.courierRule} is not null`),
    check('zone_courier_rules_rule', sql`${t.courierRule} is null or ${t.courierRule} in ('RECOMMENDED', 'CHEAPEST', 'FASTEST')`),
  ],
)

export type ShipmentStatus = 'CREATED' | 'IN_TRANSIT' | 'OUT_FOR_DELIVERY' | 'DELIVERY_FAILED' | 'DELIVERED' | 'RTO_INITIATED' | 'RTO_DELIVERED' | 'CANCELLED' | 'LOST' | 'DAMAGED'

/**
 * A parcel: some or all units of an order's lines (FORWARD, to the customer) or of a return
 * (REVERSE, picked up from the customer). Booked with a carrier (decision 0024); its status follows
 * the carrier's tracking events, never backwards.
 */
export const shipments = pgTable(
  'shipments',
  {
    id: text('id').primaryKey(),
    /** The orders module's order (no foreign key across modules, decision 0035). */
    orderId: text('order_id').notNull(),
    partnerId: text('partner_id').notNull(),
    direction: text('direction').$type<'FORWARD' | 'REVERSE'>().notNull(),
    returnRequestId: text('return_request_id'),
    carrier: text('carrier').notNull(),
    /** The carrier's own id of the shipment (Shiprocket's shipment_id), when it has one. */
    carrierShipmentId: text('carrier_shipment_id'),
    awb: text('awb').notNull(),
    courierName: text('courier_name'),
    trackingUrl: text('tracking_url').notNull(),
    labelUrl: text('label_url'),
    expectedDeliveryDate: date('expected_delivery_date', { mode: 'string' }),
    status: text('status').$type<ShipmentStatus>().notNull(),
    weightGrams: integer('weight_grams').notNull(),
    /** The box declared to the carrier, whole centimetres (decision 0030); parcels booked before were all 10 x 10 x 10. */
    lengthCm: integer('length_cm').notNull().default(10),
    breadthCm: integer('breadth_cm').notNull().default(10),
    heightCm: integer('height_cm').notNull().default(10),
    /** The e-way bill the parcel travels under (a consignment over the threshold, decision 0030). */
    ewayBillNo: text('eway_bill_no'),
    /**
     * The inventory module's stock location a forward parcel leaves from, and its pickup name at the
     * carrier as booked (decision 0043); null: the carrier's configured pickup location (a catalog
     * without locations, a return pickup).
     */
    locationId: text('location_id'),
    pickupName: text('pickup_name'),
    /** When the carrier accepted the request to collect the parcel; null: not yet asked, or asking failed (retried). */
    pickupRequestedAt: timestamp('pickup_requested_at', { withTimezone: true }),
    /** When the carrier says it will come, and its reference of the pickup, as it answered. */
    pickupScheduledAt: timestamp('pickup_scheduled_at', { withTimezone: true }),
    pickupReference: text('pickup_reference'),
    /** When the latest applied tracking event happened: an older event arriving later changes nothing. */
    lastEventAt: timestamp('last_event_at', { withTimezone: true }),
    /**
     * Set once, when the parcel's units are settled: returned to origin (stock back, refund), or lost or
     * damaged and resolved by the back office (resolution). The guard against settling twice.
     */
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /** A LOST or DAMAGED parcel's resolution (decision 0030): its units sent again (stock taken again) or refunded. */
    resolution: text('resolution').$type<'RESHIP' | 'REFUND'>(),
    resolutionNote: text('resolution_note'),
    /** ADMIN:<id> who resolved it. */
    resolvedBy: text('resolved_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('shipments_order_idx').on(t.orderId, t.createdAt),
    index('shipments_return_idx').on(t.returnRequestId).where(sql`return_request_id is not null`),
    index('shipments_created_idx').on(t.createdAt),
    uniqueIndex('shipments_carrier_awb_uq').on(t.carrier, t.awb),
    check('shipments_weight_range', sql`${t.weightGrams} between 1 and 1000000`),
    check('shipments_resolution', sql`${t.resolution} is null or (${t.resolution} in ('RESHIP', 'REFUND') and ${t.status} in ('LOST', 'DAMAGED') and ${t.settledAt} is not null and ${t.resolvedBy} is not null)`),
    check('shipments_dimensions_range', sql`${t.lengthCm} between 1 and 1000 and ${t.breadthCm} between 1 and 1000 and ${t.heightCm} between 1 and 1000`),
    // The sweep that asks carriers again for pickups they did not accept.
    index('shipments_pickup_due_idx').on(t.createdAt).where(sql`status = 'CREATED' and pickup_requested_at is null`),
  ],
)

export const shipmentItems = pgTable(
  'shipment_items',
  {
    shipmentId: text('shipment_id')
      .notNull()
      .references(() => shipments.id),
    /** The orders module's line. */
    orderItemId: text('order_item_id').notNull(),
    quantity: integer('quantity').notNull(),
  },
  (t) => [primaryKey({ columns: [t.shipmentId, t.orderItemId] }), index('shipment_items_item_idx').on(t.orderItemId), check('shipment_items_quantity_positive', sql`${t.quantity} > 0`)],
)

/**
 * Every tracking event a carrier sent, applied or not (older than the shipment's latest, or a move
 * the shipment does not make). (carrier, event_id) is unique: a callback delivered again is recognised.
 */
export const shipmentEvents = pgTable(
  'shipment_events',
  {
    id: text('id').primaryKey(),
    shipmentId: text('shipment_id')
      .notNull()
      .references(() => shipments.id),
    carrier: text('carrier').notNull(),
    eventId: text('event_id').notNull(),
    status: text('status').$type<ShipmentStatus>().notNull(),
    location: text('location'),
    note: text('note'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    applied: boolean('applied').notNull(),
    /** A failed delivery attempt the recipient refused (the carrier's reason says so): the COD risk rules count these apart from RTOs. */
    refused: boolean('refused').notNull().default(false),
  },
  (t) => [
    uniqueIndex('shipment_events_carrier_event_uq').on(t.carrier, t.eventId),
    index('shipment_events_shipment_idx').on(t.shipmentId, t.occurredAt),
    index('shipment_events_refused_idx').on(t.shipmentId, t.occurredAt).where(sql`refused`),
  ],
)

/**
 * What the back office or the partner's server asked the carrier to do with a parcel whose delivery
 * failed (a non-delivery report, NDR): deliver again (on a date, to a corrected address line or
 * phone) or return it to origin. Kept once forwarded; the parcel moves with the carrier's scans.
 */
export const shipmentNdrActions = pgTable(
  'shipment_ndr_actions',
  {
    id: text('id').primaryKey(),
    shipmentId: text('shipment_id')
      .notNull()
      .references(() => shipments.id),
    action: text('action').$type<'REATTEMPT' | 'RTO'>().notNull(),
    deferredDate: date('deferred_date', { mode: 'string' }),
    addressLine: text('address_line'),
    phone: text('phone'),
    note: text('note'),
    /** ADMIN:<id> or PARTNER:<id>. */
    requestedBy: text('requested_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('shipment_ndr_actions_shipment_idx').on(t.shipmentId, t.createdAt), check('shipment_ndr_actions_action', sql`${t.action} in ('REATTEMPT', 'RTO')`)],
)

/**
 * Well-signed carrier callbacks that could not be applied in full (decision 0044): a body the
 * carrier's format could not be read from, or scans of AWBs this service did not book. The carrier
 * got its 200; the back office reads them here. Kept once per carrier and body (its SHA-256): a
 * carrier retrying the same body adds nothing. The body is kept to its first 64 KiB, as text.
 */
export const carrierCallbacks = pgTable(
  'carrier_callbacks',
  {
    id: text('id').primaryKey(),
    carrier: text('carrier').notNull(),
    bodySha256: text('body_sha256').notNull(),
    body: text('body').notNull(),
    /** UNREADABLE: nothing could be read; UNKNOWN_AWB: some scans name parcels this service did not book. */
    problem: text('problem').$type<'UNREADABLE' | 'UNKNOWN_AWB'>().notNull(),
    detail: text('detail').notNull(),
    unknownAwbs: text('unknown_awbs').array().notNull().default(sql`'{}'::text[]`),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('carrier_callbacks_body_uq').on(t.carrier, t.bodySha256), index('carrier_callbacks_received_idx').on(t.receivedAt, t.id)],
)

