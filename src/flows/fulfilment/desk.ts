// The fulfilment desk (decisions 0024, 0030, 0035): the work that books, cancels, tracks and resolves
// an order's parcels. A flow: a parcel is the shipping module's (its rows, its carrier), what its
// move does to the order is the order-moves flow's (order-moves/parcel-moves.ts), and the refunds it causes are
// sent by payments after commit. Each operation reads top to bottom:
//
//   book      the lines checked against the order, the parcel declared and its courier chosen
//             (shipping), booked with the carrier outside any transaction; then in one transaction
//             the order locked and checked again, packed, the parcel recorded; a lost race cancels
//             the booking at the carrier (the compensation); then the pickup asked for
//   scan      a carrier's callback or a pull: each scan kept once, applied when the parcel makes the
//             move (the order following), kept unapplied when the order refuses it; refunds sent
//   cancel    cancelled at the carrier first, then the parcel in one transaction with the order locked
//   resolve   a lost or damaged parcel reshipped or refunded (orders' resolveLostParcel); refunds sent
import type { IncomingHttpHeaders } from 'node:http'
import type { Db } from '../../db/client.ts'
import type { Deps } from '../../deps.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { sumPaise } from '../../lib/money.ts'
import { findCustomer } from '../../modules/customers/index.ts'
import {
  emitShipment,
  findOrderById,
  findOrdersByIds,
  lockOrder,
  moveOrder,
  orderItemsByIds,
  orderItemsOf,
  type OrderItemRow,
  type OrderRow,
  recordShipment,
  type RefundRow,
  SHIPPABLE,
  soldAs,
} from '../../modules/orders/index.ts'
import { applyTrackingEvent, type LossResolution, recordUnappliedTrackingEvent, resolveLostParcel } from '../order-moves/index.ts'
import type { PaymentService } from '../payments/index.ts'
import {
  cashParcelOf,
  findParcel,
  findParcelByAwb,
  lockParcel,
  type Manifest,
  type NdrInput,
  type PickList,
  parcelItems,
  parcelsBookedBetween,
  parcelsOfOrder,
  parcelsOfOrders,
  recordNdrAction,
  shipmentAnswer,
  type ShipmentRequest,
  type ShipmentRow,
  type ShippingLabel,
  type ShippingService,
  shippedUnits,
  shippedUnitsByLocation,
  type TrackingEvent,
  type TrackingStatus,
  unshippedUnits,
  updateParcel,
} from '../../modules/shipping/index.ts'
import { type HeldAt, locationOf, unitsHeldForOrder } from '../../modules/inventory/index.ts'
import { gstRegistrationOf, gstSellerOf, indiaDay, sellerReturnAddressOf } from '../../modules/tax/index.ts'

interface Line {
  item: OrderItemRow
  quantity: number
}

/**
 * What the courier collects at the door for a parcel (null: one about to be booked): a COD order's
 * cash due, all of it with its first parcel that was not cancelled (decision 0024).
 */
function cashToCollect(order: OrderRow, parcels: ShipmentRow[], parcelId: string | null): bigint {
  if (order.paymentMode !== 'COD' || order.paymentStatus !== 'COD_PENDING') return 0n
  const first = cashParcelOf(parcels)
  return (first ? first.id === parcelId : parcelId === null) ? order.amountPayable : 0n
}

/** The lines a shipment would carry, checked against the order as it is now (409/400 with the reason). */
function linesFor(order: OrderRow, items: OrderItemRow[], shipped: Map<string, number>, wanted: ShipmentRequest['items'], parcels: ShipmentRow[]): Line[] {
  if (!SHIPPABLE.includes(order.status)) {
    throw new AppError('CONFLICT', `Order ${order.orderNumber} cannot be shipped while it is ${order.status}: shipments are created for CONFIRMED or PACKED orders`)
  }
  // Cash is collected at one door (decision 0024): an unpaid COD order travels in one parcel.
  const live = cashParcelOf(parcels)
  if (live && order.paymentMode === 'COD' && order.paymentStatus === 'COD_PENDING') {
    throw new AppError('CONFLICT', `Order ${order.orderNumber} is cash on delivery and already travels in parcel ${live.awb}: its cash is collected at one door, so it ships in one parcel (cancel that parcel to book another)`)
  }
  if (!wanted) {
    const lines = items.map((item) => ({ item, quantity: unshippedUnits(item, shipped) })).filter((l) => l.quantity > 0)
    if (lines.length === 0) throw new AppError('CONFLICT', `Every unit of order ${order.orderNumber} is already in a shipment`)
    return lines
  }
  const seen = new Set<string>()
  return wanted.map(({ orderItemId, quantity }) => {
    if (seen.has(orderItemId)) throw new AppError('BAD_REQUEST', 'Validation failed', [`items: order item ${orderItemId} is listed twice`])
    seen.add(orderItemId)
    const item = items.find((i) => i.id === orderItemId)
    if (!item) throw new AppError('BAD_REQUEST', 'Validation failed', [`items: ${orderItemId} is not a line of order ${order.orderNumber}`])
    const left = unshippedUnits(item, shipped)
    if (quantity > left) throw new AppError('CONFLICT', `Only ${left} unit(s) of ${item.sku} in order ${order.orderNumber} remain unshipped; ${quantity} asked`)
    return { item, quantity }
  })
}

/** What the order holds at each stock location (inventory's unitsHeldForOrder). */
type Held = Awaited<ReturnType<typeof unitsHeldForOrder>>

/**
 * Where a parcel leaves from when the order's units are held at stock locations (decision 0043), and
 * the lines it carries from there. A parcel leaves from one place: the location named, else the
 * first of the catalog's (by position) holding what is asked; asked lines must all be held there, and
 * without lines it carries every unit still held there. An order holding nothing at any location (a
 * catalog without locations, or placed before it had them): no origin, the lines as they are.
 */
function fromLocation(order: OrderRow, lines: Line[], held: Held, shippedFrom: Map<string, Map<string, number>>, request: { locationId?: string; items?: unknown }): { lines: Line[]; origin: HeldAt | null } {
  if (held.length === 0) {
    if (request.locationId !== undefined) {
      throw new AppError('BAD_REQUEST', 'Validation failed', [`locationId: order ${order.orderNumber} holds no units at stock locations (its catalog keeps none, or the order was placed before it did)`])
    }
    return { lines, origin: null }
  }
  const left = (at: Held[number], item: OrderItemRow) => (at.units.get(item.variantId) ?? 0) - (shippedFrom.get(item.id)?.get(at.location.id) ?? 0)
  const named = request.locationId === undefined ? undefined : held.find((h) => h.location.id === request.locationId)
  if (request.locationId !== undefined && !named) throw new AppError('BAD_REQUEST', 'Validation failed', [`locationId: order ${order.orderNumber} holds no units at location ${request.locationId}`])
  const holding = (at: Held[number]) => (l: Line) => l.quantity <= left(at, l.item)
  if (request.items !== undefined) {
    const at = named ?? held.find((h) => lines.every(holding(h)))
    if (!at || !lines.every(holding(at))) {
      const where = held.map((h) => `${h.location.name}: ${lines.map((l) => `${Math.max(0, left(h, l.item))} of ${l.item.sku}`).join(', ')}`).join('; ')
      const which = named ? `${named.location.name} does not hold` : 'no one location holds'
      throw new AppError('BAD_REQUEST', 'Validation failed', [`items: a parcel leaves from one stock location, and ${which} all the units asked (${where})`])
    }
    return { lines, origin: at.location }
  }
  const from = (at: Held[number]) => lines.map((l) => ({ item: l.item, quantity: Math.min(l.quantity, Math.max(0, left(at, l.item))) })).filter((l) => l.quantity > 0)
  const at = named ?? held.find((h) => from(h).length > 0)
  const carried = at ? from(at) : []
  if (!at || carried.length === 0) throw new AppError('CONFLICT', `Every unit of order ${order.orderNumber} held at ${named?.location.name ?? 'its stock locations'} is already in a shipment`)
  return { lines: carried, origin: at.location }
}

/** The goods' value of these lines as paid (after discounts, before tax on top): what a parcel is declared worth. */
const declaredValueOf = (lines: Line[]) => sumPaise(lines.map((l) => (l.item.paidAmount * BigInt(l.quantity)) / BigInt(l.item.quantity)))

/** The parcels leaving from one stock location (all of them without one). */
const atLocation = (parcels: ShipmentRow[], locationId: string | undefined) => (locationId === undefined ? parcels : parcels.filter((p) => p.locationId === locationId))

/** [from, to) of a day in India (default: today's). */
function indiaDayWindow(day: string | undefined, now: Date) {
  const date = day ?? indiaDay(now)
  const from = new Date(`${date}T00:00:00+05:30`)
  return { date, from, to: new Date(from.getTime() + 86_400_000) }
}

export class Fulfilment {
  readonly #db: Db
  readonly #clock: Deps['clock']
  readonly #shipping: ShippingService
  readonly #payments: PaymentService

  constructor({ database, clock }: Pick<Deps, 'database' | 'clock'>, shipping: ShippingService, payments: PaymentService) {
    this.#db = database.db
    this.#clock = clock
    this.#shipping = shipping
    this.#payments = payments
  }

  /**
   * The order and what it has left to ship, checked for the lines asked (404, 409, 400), and the stock
   * location they leave from (null: the carrier's configured pickup location).
   */
  async #shippable(orderId: string, request: Pick<ShipmentRequest, 'items' | 'locationId'>) {
    const order = await findOrderById(this.#db, orderId)
    if (!order) throw notFound('Order')
    const parcels = await parcelsOfOrder(this.#db, order.id)
    const all = linesFor(order, await orderItemsOf(this.#db, order.id), await shippedUnits(this.#db, order.id), request.items, parcels)
    const { lines, origin } = fromLocation(order, all, await unitsHeldForOrder(this.#db, order.id), await shippedUnitsByLocation(this.#db, order.id), request)
    return { order, parcels, lines, origin }
  }

  /** The GSTIN whose invoice a parcel from this location travels with: the location's registration, else the catalog's seller. */
  async #supplierGstin(origin: HeldAt | null, lines: Line[]): Promise<string | null> {
    if (!origin) return null
    if (origin.registrationId) return (await gstRegistrationOf(this.#db, origin.registrationId))?.gstin ?? null
    const catalogId = lines[0]?.item.catalogId
    return catalogId ? ((await gstSellerOf(this.#db, catalogId))?.gstin ?? null) : null
  }

  /** Books a parcel for the order's lines with a carrier; the first one packs a CONFIRMED order. */
  async book(adminId: string, orderId: string, request: ShipmentRequest) {
    this.#shipping.checkRequest(request) // an unknown carrier is a 400 before anything else
    const { order, parcels, lines, origin } = await this.#shippable(orderId, request)
    const collectAmount = cashToCollect(order, parcels, null)
    const declared = await this.#shipping.declare(order.id, lines, request, await this.#supplierGstin(origin, lines))
    const declaredValue = declaredValueOf(lines)
    const { carrier, courierId } = await this.#shipping.chooseCourier(await this.#shipping.withZoneRule(request, order.shippingAddress.pincode), {
      direction: 'FORWARD',
      originPincode: origin?.pincode ?? null,
      customerPincode: order.shippingAddress.pincode,
      weightGrams: declared.box.weightGrams,
      dimensionsCm: declared.box.dimensionsCm,
      collectAmount,
      declaredValue,
    })
    const customer = await findCustomer(this.#db, order.userId)
    const shipmentId = newId('shp', this.#clock.now().getTime())
    const booked = await this.#shipping.book(carrier, {
      shipmentId,
      orderNumber: order.orderNumber,
      orderDate: order.createdAt,
      bookedAt: this.#clock.now(),
      direction: 'FORWARD',
      customer: { ...order.shippingAddress, email: customer?.email || null },
      items: lines.map((l) => ({ sku: l.item.sku, name: soldAs(l.item), quantity: l.quantity, unitPrice: l.item.unitPrice, hsnCode: l.item.hsnCode, gstRateBps: l.item.gstRateBps })),
      collectAmount,
      declaredValue,
      weightGrams: declared.box.weightGrams,
      dimensionsCm: declared.box.dimensionsCm,
      invoiceNumber: declared.invoiceNumber,
      ewayBillNo: declared.ewayBillNo,
      courierId,
      origin: origin && { pickupName: origin.pickupName, pincode: origin.pincode },
      trackingNumber: request.trackingNumber ?? null,
      trackingUrl: request.trackingUrl ?? null,
    })
    let row: ShipmentRow
    try {
      row = await this.#db.transaction(async (tx) => {
        const now = this.#clock.now()
        const locked = (await lockOrder(tx, order.id))!
        const items = await orderItemsOf(tx, order.id)
        const parcelsNow = await parcelsOfOrder(tx, order.id)
        const asked = lines.map((l) => ({ orderItemId: l.item.id, quantity: l.quantity }))
        const checked = linesFor(locked, items, await shippedUnits(tx, order.id), asked, parcelsNow)
        // Another parcel from the same location may have committed meanwhile: its units must still be there.
        if (origin) fromLocation(locked, checked, await unitsHeldForOrder(tx, order.id), await shippedUnitsByLocation(tx, order.id), { locationId: origin.id, items: asked })
        // The cash the carrier was told to collect must still be right (a conversion to prepaid or a
        // cancellation may have committed while it booked).
        if (cashToCollect(locked, parcelsNow, null) !== collectAmount) {
          throw new AppError('CONFLICT', `Order ${order.orderNumber} changed while the parcel was booked (its cash to collect); book it again`)
        }
        const packed = locked.status === 'CONFIRMED' ? await moveOrder(tx, locked, 'PACKED', { name: `ADMIN:${adminId}`, note: `Shipment ${booked.awb} created` }, now) : locked
        return recordShipment(
          tx,
          packed,
          {
            id: shipmentId,
            direction: 'FORWARD',
            returnRequestId: null,
            carrier: carrier.name,
            booked,
            declared,
            lines: checked.map((l) => ({ orderItemId: l.item.id, quantity: l.quantity })),
            origin: origin && { locationId: origin.id, pickupName: origin.pickupName },
          },
          now,
        )
      })
    } catch (err) {
      // The order changed while the carrier booked (another shipment, a cancellation): undo the booking.
      await this.#shipping.unbook(carrier, booked)
      throw err
    }
    await this.#shipping.requestPickup(carrier, row)
    return row
  }

  /**
   * What booking these lines would cost, with each courier of the named carrier or of every
   * carrier: the back office's look before it books (nothing is booked or held).
   */
  async quote(orderId: string, request: Omit<ShipmentRequest, 'ewayBillNo' | 'courierId' | 'courierRule'>) {
    if (request.carrier !== undefined) this.#shipping.carrierNamed(request.carrier)
    const { order, parcels, lines, origin } = await this.#shippable(orderId, request)
    const box = await this.#shipping.box(lines, request)
    const offers = await this.#shipping.offers(request.carrier, {
      direction: 'FORWARD',
      originPincode: origin?.pincode ?? null,
      customerPincode: order.shippingAddress.pincode,
      weightGrams: box.weightGrams,
      dimensionsCm: box.dimensionsCm,
      collectAmount: cashToCollect(order, parcels, null),
      declaredValue: declaredValueOf(lines),
    })
    const zoneRule = await this.#shipping.zoneRuleOf(order.shippingAddress.pincode)
    return {
      zoneRule: zoneRule && { zoneId: zoneRule.zoneId, zoneName: zoneRule.zoneName, carrier: zoneRule.carrier, courierRule: zoneRule.courierRule },
      weightGrams: box.weightGrams,
      dimensionsCm: box.dimensionsCm,
      ...offers,
    }
  }

  /**
   * A non-delivery action (NDR) for a forward parcel whose delivery failed: forwarded to the carrier
   * first (shipping: 503, nothing kept, when it cannot take it); then kept with a shipment.updated
   * event of its order. `partnerId`: the partner's server, whose parcels only it may act on (404).
   */
  async ndrAction(requestedBy: string, shipmentId: string, input: NdrInput, partnerId: string | null = null) {
    const row = await findParcel(this.#db, shipmentId)
    if (!row || (partnerId !== null && row.partnerId !== partnerId)) throw notFound('Shipment')
    const request = await this.#shipping.forwardNdr(row, input)
    await this.#db.transaction(async (tx) => {
      const now = this.#clock.now()
      const order = (await lockOrder(tx, row.orderId))!
      const locked = (await lockParcel(tx, shipmentId))!
      await recordNdrAction(tx, { id: newId('ndr', now.getTime()), shipmentId, ...request, requestedBy, createdAt: now })
      await emitShipment(tx, order, locked, 'shipment.updated', now, { from: locked.status, ndrAction: { ...request, requestedBy } })
    })
    return this.#shipping.adminView(shipmentId)
  }

  /** The back office resolves a LOST or DAMAGED parcel (orders' resolveLostParcel), once; refunds are sent after commit. */
  async resolveLoss(adminId: string, shipmentId: string, input: { action: LossResolution; note?: string }) {
    const actor = { name: `ADMIN:${adminId}`, note: input.note?.trim() || null }
    const result = await this.#db.transaction((tx) => resolveLostParcel(tx, shipmentId, input.action, actor, this.#clock.now()))
    if (!result) throw notFound('Shipment')
    await this.#payments.sendRefunds(result.refunds)
    return this.#shipping.adminView(shipmentId)
  }

  /**
   * The back office moves a parcel of the merchant's own delivery (carrier manual) as a carrier's
   * scan would, and the order follows (decision 0030 and 0024's tracking rules). 409 for a carrier's
   * parcel (its scans move it) and for a move the parcel does not make.
   */
  async moveManual(adminId: string, shipmentId: string, input: { status: TrackingStatus; note?: string }) {
    const row = await findParcel(this.#db, shipmentId)
    if (!row) throw notFound('Shipment')
    this.#shipping.checkManualMove(row, input.status)
    const now = this.#clock.now()
    // Strictly after the last move applied, so that two moves in the same millisecond both apply.
    const occurredAt = row.lastEventAt && row.lastEventAt >= now ? new Date(row.lastEventAt.getTime() + 1) : now
    const update = { eventId: newId('sev', now.getTime()), status: input.status, occurredAt, location: null, note: input.note?.trim() || `Moved by ADMIN:${adminId}`, expectedDeliveryDate: null, refused: false }
    const result = await this.#db.transaction((tx) => applyTrackingEvent(tx, row.id, update, now))
    if (!result.applied) throw new AppError('CONFLICT', `Shipment ${row.awb} moved meanwhile; look at it again`)
    await this.#payments.sendRefunds(result.refunds)
    return this.#shipping.adminView(shipmentId)
  }

  /** Cancels a parcel the carrier has not picked up yet; its units can be shipped again. */
  async cancel(adminId: string, shipmentId: string) {
    const row = await findParcel(this.#db, shipmentId)
    if (!row) throw notFound('Shipment')
    await this.#shipping.cancelAtCarrier(row)
    return this.#db.transaction(async (tx) => {
      const now = this.#clock.now()
      const order = (await lockOrder(tx, row.orderId))!
      const locked = (await lockParcel(tx, shipmentId))!
      if (locked.status !== 'CREATED') throw new AppError('CONFLICT', `Shipment ${row.awb} cannot be cancelled once it is ${locked.status}`)
      const cancelled = await updateParcel(tx, shipmentId, { status: 'CANCELLED', updatedAt: now })
      await emitShipment(tx, order, cancelled, 'shipment.updated', now, { from: locked.status, cancelledBy: `ADMIN:${adminId}` })
      return shipmentAnswer(tx, cancelled)
    })
  }

  /**
   * A carrier's tracking callback: verified (shipping), each event applied once, refunds of parcels
   * back at origin sent. A well-signed callback is never refused (decision 0044): one that cannot
   * be read, or that names parcels this service did not book, is kept for the back office, and the
   * carrier gets its 200 with a message saying so.
   */
  async carrierCallback(carrierName: string, rawBody: Buffer, headers: IncomingHttpHeaders) {
    const { carrier, events, unreadable } = this.#shipping.parseCallback(carrierName, rawBody, headers)
    if (unreadable !== null) {
      await this.#shipping.keepCallback(carrier.name, rawBody, 'UNREADABLE', unreadable, [])
      return { receipt: { received: 0, applied: 0, duplicates: 0, unknown: 0 }, message: `Tracking kept, not applied: the body could not be read (${unreadable})` }
    }
    const { unknownAwbs, ...receipt } = await this.#applyScans(carrier.name, events)
    if (unknownAwbs.length === 0) return { receipt, message: 'Tracking received' }
    await this.#shipping.keepCallback(carrier.name, rawBody, 'UNKNOWN_AWB', `${unknownAwbs.length} of ${events.length} scans name AWBs this service did not book`, unknownAwbs)
    return { receipt, message: `Tracking received; scans of AWBs this service did not book were kept, not applied (${unknownAwbs.slice(0, 10).join(', ')})` }
  }

  /** Asks the carrier for a parcel's events (a callback late or lost) and applies what is new. */
  async refresh(shipmentId: string) {
    const row = await findParcel(this.#db, shipmentId)
    if (!row) throw notFound('Shipment')
    await this.#applyScans(row.carrier, await this.#shipping.track(row))
    return this.#shipping.view(shipmentId)
  }

  async #applyScans(carrier: string, events: TrackingEvent[]) {
    let applied = 0
    let duplicates = 0
    const unknownAwbs: string[] = []
    const refunds: RefundRow[] = []
    for (const event of events) {
      const shipment = await findParcelByAwb(this.#db, carrier, event.awb)
      if (!shipment) {
        unknownAwbs.push(event.awb)
        continue
      }
      const update = { eventId: event.eventId, status: event.status, occurredAt: event.occurredAt, location: event.location, note: event.note, expectedDeliveryDate: event.expectedDeliveryDate, refused: event.refused }
      let result
      try {
        result = await this.#db.transaction((tx) => applyTrackingEvent(tx, shipment.id, update, this.#clock.now()))
      } catch (err) {
        // A well-signed scan that the order's state refuses (the back office moved it on by hand) is
        // recorded, not applied: the carrier gets its 200 and the scan is not lost.
        if (!(err instanceof AppError) || (err.code !== 'CONFLICT' && err.code !== 'BUSINESS_RULE')) throw err
        result = await this.#db.transaction((tx) => recordUnappliedTrackingEvent(tx, shipment.id, update, this.#clock.now()))
      }
      if (result.applied) applied++
      if (result.duplicate) duplicates++
      refunds.push(...result.refunds)
    }
    await this.#payments.sendRefunds(refunds)
    return { received: events.length, applied, duplicates, unknown: unknownAwbs.length, unknownAwbs: [...new Set(unknownAwbs)] }
  }

  /**
   * The parcel's label as a PDF: ours, with the AWB as a Code 128 barcode (decision 0024). A
   * carrier's own label, when it gave one, is also in labelUrl of the back-office answer.
   */
  async labelPdf(shipmentId: string): Promise<{ shipment: ShipmentRow; pdf: Buffer }> {
    const row = await findParcel(this.#db, shipmentId)
    if (!row) throw notFound('Shipment')
    return { shipment: row, pdf: await this.#shipping.labelPdf(await this.#labelOf(row)) }
  }

  /**
   * The labels of several parcels in one PDF, a page each in the order asked (after booking many at
   * once): 404 naming a parcel that does not exist, 409 for a return pickup, 400 for one listed twice.
   */
  async labelsPdf(shipmentIds: string[]): Promise<Buffer> {
    const repeated = shipmentIds.find((id, i) => shipmentIds.indexOf(id) !== i)
    if (repeated) throw new AppError('BAD_REQUEST', 'Validation failed', [`shipmentIds: ${repeated} is listed twice`])
    const labels = []
    for (const id of shipmentIds) {
      const row = await findParcel(this.#db, id)
      if (!row) throw new AppError('NOT_FOUND', `Shipment ${id} not found`)
      labels.push(await this.#labelOf(row))
    }
    return this.#shipping.labelsPdf(labels)
  }

  /** What the label of a forward parcel prints (409 for a return pickup). */
  async #labelOf(row: ShipmentRow): Promise<ShippingLabel> {
    if (row.direction === 'REVERSE') throw new AppError('CONFLICT', `Shipment ${row.awb} is a return pickup: the courier brings its label to the customer`)
    const order = (await findOrderById(this.#db, row.orderId))!
    const items = await orderItemsOf(this.#db, order.id)
    const lines = await parcelItems(this.#db, [row.id])
    const catalogId = items.find((i) => i.catalogId)?.catalogId
    const collect = cashToCollect(order, await parcelsOfOrder(this.#db, order.id), row.id)
    return {
      awb: row.awb,
      carrier: row.carrier,
      courierName: row.courierName,
      orderNumber: order.orderNumber,
      shipmentId: row.id,
      createdAt: row.createdAt,
      paymentMode: collect > 0n ? 'COD' : 'PREPAID',
      collectAmount: collect,
      weightGrams: row.weightGrams,
      deliverTo: order.shippingAddress,
      returnTo: catalogId ? await sellerReturnAddressOf(this.#db, catalogId) : null,
      items: lines.map((l) => {
        const item = items.find((i) => i.id === l.orderItemId)!
        return { sku: item.sku, name: soldAs(item), quantity: l.quantity }
      }),
    }
  }

  /** A list asked for a stock location that does not exist is a 400 naming it, not an empty list an operator would trust. */
  async #checkLocation(locationId: string | undefined) {
    if (locationId !== undefined && !(await locationOf(this.#db, locationId))) throw new AppError('BAD_REQUEST', 'Validation failed', [`locationId: no stock location ${locationId}`])
  }

  /** What to pick for the forward parcels booked on a day in India (default: today): units per SKU, with the order numbers they go to. */
  async pickList(day: string | undefined, locationId?: string): Promise<PickList> {
    await this.#checkLocation(locationId)
    const now = this.#clock.now()
    const { date, from, to } = indiaDayWindow(day, now)
    const parcels = atLocation(await parcelsBookedBetween(this.#db, from, to, null), locationId)
    const units = await parcelItems(this.#db, parcels.map((p) => p.id))
    const [items, orders] = await Promise.all([orderItemsByIds(this.#db, [...new Set(units.map((u) => u.orderItemId))]), findOrdersByIds(this.#db, [...new Set(parcels.map((p) => p.orderId))])])
    const itemById = new Map(items.map((i) => [i.id, i]))
    const orderNumber = new Map(orders.map((o) => [o.id, o.orderNumber]))
    const orderOfParcel = new Map(parcels.map((p) => [p.id, p.orderId]))
    const bySku = new Map<string, { sku: string; name: string; quantity: number; orders: Set<string> }>()
    for (const unit of units) {
      const item = itemById.get(unit.orderItemId)!
      const line = bySku.get(item.sku) ?? { sku: item.sku, name: soldAs(item), quantity: 0, orders: new Set<string>() }
      if (soldAs(item) < line.name) line.name = soldAs(item)
      line.quantity += unit.quantity
      line.orders.add(orderNumber.get(orderOfParcel.get(unit.shipmentId)!)!)
      bySku.set(item.sku, line)
    }
    const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
    const lines = [...bySku.values()].sort((a, b) => byText(a.sku, b.sku)).map((l) => ({ ...l, orders: [...l.orders].sort(byText) }))
    return { date, generatedAt: now, shipments: parcels.length, lines }
  }

  /**
   * A carrier's manifest: its forward parcels booked on a day in India (default: today) and not
   * cancelled, in booking order, with their units and the cash the courier collects for each (a COD
   * order still unpaid: all of it with its first parcel that was not cancelled, as the label says).
   */
  async manifest(carrierName: string, day: string | undefined, locationId?: string): Promise<Manifest> {
    const carrier = this.#shipping.carrierNamed(carrierName)
    await this.#checkLocation(locationId)
    const now = this.#clock.now()
    const { date, from, to } = indiaDayWindow(day, now)
    const parcels = atLocation(await parcelsBookedBetween(this.#db, from, to, carrier.name), locationId)
    const orderIds = [...new Set(parcels.map((p) => p.orderId))]
    const [units, orders, parcelsOfTheirOrders] = await Promise.all([parcelItems(this.#db, parcels.map((p) => p.id)), findOrdersByIds(this.#db, orderIds), parcelsOfOrders(this.#db, orderIds)])
    const orderById = new Map(orders.map((o) => [o.id, o]))
    const unitsOf = new Map<string, number>()
    for (const u of units) unitsOf.set(u.shipmentId, (unitsOf.get(u.shipmentId) ?? 0) + u.quantity)
    const parcelsOf = new Map<string, ShipmentRow[]>()
    for (const s of parcelsOfTheirOrders) parcelsOf.set(s.orderId, [...(parcelsOf.get(s.orderId) ?? []), s])
    return {
      carrier: carrier.name,
      date,
      generatedAt: now,
      parcels: parcels.map((p) => {
        const order = orderById.get(p.orderId)!
        return {
          awb: p.awb,
          orderNumber: order.orderNumber,
          courierName: p.courierName,
          weightGrams: p.weightGrams,
          ewayBillNo: p.ewayBillNo,
          units: unitsOf.get(p.id) ?? 0,
          collect: cashToCollect(order, parcelsOf.get(order.id) ?? [], p.id),
        }
      }),
    }
  }
}
