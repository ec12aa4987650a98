// Shipments with carriers (decision 0024): booking a parcel for some or all of an order's units,
// cancelling it before pickup, and carrier tracking callbacks moving parcels and orders. A carrier is
// called outside any transaction; what it booked is written afterwards in one transaction that checks
// the order again, and a booking that lost a race is cancelled at the carrier.
import { createHash } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import type { Db } from '../../db/client.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { formatPaise, sumPaise } from '../../lib/money.ts'
import { pageMeta } from '../../lib/pagination.ts'
import { unitPackages } from '../catalog/index.ts'
import { indiaDay, taxDocumentsOf } from '../tax/index.ts'
import { checkEwayBill } from './eway-bill.ts'
import { deleteZoneRule, listZoneRules, putZoneRule, zoneRuleFor, type ZoneRuleInput } from './zone-rules.ts'
import { type Dimensions, packParcel, type ParcelBox } from './packing.ts'
import { renderShippingLabelPdf, renderShippingLabelsPdf, type ShippingLabel } from './label-pdf.ts'
import { type Manifest, renderManifestPdf } from './manifest-pdf.ts'
import { type PickList, renderPickListPdf } from './pick-list-pdf.ts'
import { SHIPMENT_MOVES, shipmentAnswer, shipmentRepo, type ShipmentRow } from './repo.ts'
import { createManualCarrier, MANUAL_CARRIER } from './carriers/manual.ts'
import {
  type BookedShipment,
  type BookingRequest,
  type Carrier,
  CarrierError,
  CarrierPayloadError,
  CarrierSignatureError,
  CarrierUnsupportedError,
  type CourierRate,
  type NdrRequest,
  type TrackingEvent,
  type TrackingStatus,
} from './carriers/types.ts'
import { normalizeIndianMobile } from '../../lib/phone.ts'

export interface ShipmentRequest {
  carrier?: string
  /** Lines and units; none: every unit not yet shipped (of the location it leaves from, when the order's units are held at stock locations). */
  items?: { orderItemId: string; quantity: number }[]
  /** The stock location it leaves from (decision 0043); omitted: the first of the catalog's holding the units. */
  locationId?: string
  /** As weighed and measured; each omitted: from the products (packing.ts). */
  weightGrams?: number
  dimensionsCm?: Dimensions
  ewayBillNo?: string
  /** A courier from the carrier's rates (POST …/shipping-rates); omitted: chosen by courierRule. */
  courierId?: string
  /** How to choose the courier when none is named; default SHIPPING_COURIER_RULE. */
  courierRule?: CourierRule
  /** Carrier manual only: the merchant's own tracking number and link. */
  trackingNumber?: string
  trackingUrl?: string
}

export type CourierRule = 'RECOMMENDED' | 'CHEAPEST' | 'FASTEST'

/** 400 for a tracking number or link on a carrier's parcel, or a courier choice for the merchant's own delivery. */
function checkManualFields(request: ShipmentRequest) {
  const problems: string[] = []
  if (request.carrier !== MANUAL_CARRIER) {
    for (const field of ['trackingNumber', 'trackingUrl'] as const) if (request[field] !== undefined) problems.push(`${field}: only for carrier manual (the merchant's own delivery); a carrier gives its own`)
  } else {
    for (const field of ['courierId', 'courierRule'] as const) if (request[field] !== undefined) problems.push(`${field}: carrier manual (the merchant's own delivery) has no couriers to choose`)
  }
  if (problems.length > 0) throw new AppError('BAD_REQUEST', 'Validation failed', problems)
}

/** A non-delivery action as asked (the route's body). */
export interface NdrInput {
  action: 'REATTEMPT' | 'RTO'
  deferredDate?: string
  addressLine?: string
  phone?: string
  note?: string
}

/** How far ahead a re-attempt may be put off: carriers hold an undelivered parcel about a week. */
export const NDR_MAX_DEFER_DAYS = 7

/** A courier's offer, with the carrier it belongs to. */
export interface CarrierRate extends CourierRate {
  carrier: string
}

/** How much of a kept callback's body is kept. */
const KEPT_BODY_BYTES = 64 * 1024
/** How long a kept callback is kept: long enough for a month's reconciliation with the carrier, and the next. */
export const KEPT_CALLBACK_DAYS = 90

/** Cheapest first; equal charges: the faster, then the carrier's recommendation. */
const byCharge = (a: CarrierRate, b: CarrierRate) => (a.charge === b.charge ? byDays(a, b) : a.charge < b.charge ? -1 : 1)
/** Fastest first (a courier without an estimate last); equal days: the cheaper, then the recommendation. */
function byDays(a: CarrierRate, b: CarrierRate): number {
  const days = (a.estimatedDays ?? Infinity) - (b.estimatedDays ?? Infinity)
  if (days !== 0 && !Number.isNaN(days)) return days
  if (a.charge !== b.charge) return a.charge < b.charge ? -1 : 1
  return Number(b.recommended) - Number(a.recommended)
}

/** Units of an order's line going in a parcel: what packing and the declaration read of the line. */
interface PackedLine {
  item: { productId: string; variantId: string; quantity: number; lineTotal: bigint; couponDiscount: bigint }
  quantity: number
}

/** What a parcel is declared as, and the papers it travels with (decision 0030). */
export interface Declaration {
  box: ParcelBox
  /** Paise: the goods' value with tax (after the coupon), the e-way bill's consignment value. */
  consignmentValue: bigint
  ewayBillNo: string | null
  invoiceNumber: string | null
}

/**
 * Other names a carrier's callbacks may arrive under: Shiprocket's panel is reported to refuse
 * webhook URLs containing "shiprocket" (or "sr", "kr"), so its URL can be …/shipping/webhooks/aggregator.
 */
const WEBHOOK_ALIASES: Record<string, string> = { aggregator: 'shiprocket' }

/** A manifest as the API answers it: money as rupees, with its totals. */
export function manifestView(manifest: Manifest) {
  const sum = (f: (p: Manifest['parcels'][number]) => number) => manifest.parcels.reduce((total, p) => total + f(p), 0)
  return {
    carrier: manifest.carrier,
    date: manifest.date,
    parcels: manifest.parcels.map((p) => ({ awb: p.awb, orderNumber: p.orderNumber, courierName: p.courierName, units: p.units, weightGrams: p.weightGrams, codAmount: formatPaise(p.collect), ewayBillNo: p.ewayBillNo })),
    totals: { parcels: manifest.parcels.length, units: sum((p) => p.units), weightGrams: sum((p) => p.weightGrams), codAmount: formatPaise(sumPaise(manifest.parcels.map((p) => p.collect))) },
  }
}

export class ShippingService {
  readonly db: Db
  readonly #manual = createManualCarrier()
  readonly #clock: Deps['clock']
  readonly #logger: Deps['logger']
  readonly #courierRule: CourierRule

  readonly carriers: Map<string, Carrier>

  constructor({ database, clock, logger, config }: ServiceDeps<'courierRule'>, carriers: Map<string, Carrier>) {
    this.carriers = carriers
    this.db = database.db
    this.#clock = clock
    this.#logger = logger
    this.#courierRule = config.courierRule
  }

  #carrier(name: string | undefined): Carrier {
    // The merchant's own delivery is named, never a default, and never asked for rates.
    if (name === MANUAL_CARRIER) return this.#manual
    const chosen = name ?? this.carriers.keys().next().value
    const carrier = chosen === undefined ? undefined : this.carriers.get(chosen)
    if (!carrier) {
      const known = [...this.carriers.keys()]
      throw new AppError('BAD_REQUEST', `Unknown carrier ${name ?? ''}`.trim() + (known.length ? `: this service ships with ${known.join(', ')}` : ': no carrier is configured'))
    }
    return carrier
  }

  /**
   * A booking that names no carrier, courier or rule goes by the rule of the zone serving the pincode,
   * when it has one (decision 0030); otherwise as asked. 409 when the zone's carrier is no longer one
   * of this service's.
   */
  async withZoneRule(request: ShipmentRequest, pincode: string): Promise<ShipmentRequest> {
    if (request.carrier !== undefined || request.courierId !== undefined || request.courierRule !== undefined) return request
    const rule = await zoneRuleFor(this.db, pincode)
    if (!rule) return request
    if (rule.carrier !== null && rule.carrier !== MANUAL_CARRIER && !this.carriers.has(rule.carrier)) {
      throw new AppError(
        'CONFLICT',
        `The rule of zone ${rule.zoneName} names carrier ${rule.carrier}, which this service no longer ships with: change it (PUT /admin/fulfilment/zone-rules/${rule.zoneId}) or name a carrier`,
      )
    }
    return { ...request, ...(rule.carrier !== null ? { carrier: rule.carrier } : {}), ...(rule.courierRule !== null ? { courierRule: rule.courierRule } : {}) }
  }

  /**
   * The carrier and courier a parcel goes with. A named courier must be one the carrier offers for
   * it (400 otherwise). RECOMMENDED leaves the choice to the carrier (named, or the default); CHEAPEST
   * and FASTEST compare the rates of the named carrier, or of every carrier when none is named
   * ("by rate"). A carrier that cannot answer is left out of the comparison; none answering is 503.
   */
  async chooseCourier(request: Pick<ShipmentRequest, 'carrier' | 'courierId' | 'courierRule'>, parcel: Parameters<Carrier['rates']>[0]): Promise<{ carrier: Carrier; courierId: string | null }> {
    const rule = request.courierRule ?? this.#courierRule
    if (request.carrier === MANUAL_CARRIER || (request.courierId === undefined && rule === 'RECOMMENDED')) return { carrier: this.#carrier(request.carrier), courierId: null }
    const { rates, unavailable } = await this.ratesOf(request.carrier, parcel)
    if (rates.length === 0) {
      if (unavailable.length > 0) throw new AppError('UNAVAILABLE', `The carrier ${unavailable.join(', ')} could not give its rates; try again`)
      throw new AppError('CONFLICT', `No courier serves pincode ${parcel.customerPincode} for this parcel`)
    }
    if (request.courierId !== undefined) {
      const offered = rates.find((r) => r.courierId === request.courierId)
      if (!offered) {
        throw new AppError('BAD_REQUEST', 'Validation failed', [`courierId: ${request.courierId} is not offered for this parcel; the couriers that are: ${rates.map((r) => `${r.courierId} (${r.courierName})`).join(', ')}`])
      }
      return { carrier: this.#carrier(offered.carrier), courierId: offered.courierId }
    }
    const best = [...rates].sort(rule === 'FASTEST' ? byDays : byCharge)[0]!
    return { carrier: this.#carrier(best.carrier), courierId: best.courierId }
  }

  /** The couriers of one carrier (named) or of every carrier, with what each would charge; and the carriers that could not say. */
  async ratesOf(carrierName: string | undefined, parcel: Parameters<Carrier['rates']>[0]): Promise<{ rates: CarrierRate[]; unavailable: string[] }> {
    const asked = carrierName !== undefined ? [this.#carrier(carrierName)] : [...this.carriers.values()]
    const rates: CarrierRate[] = []
    const unavailable: string[] = []
    await Promise.all(
      asked.map(async (carrier) => {
        try {
          rates.push(...(await carrier.rates(parcel)).map((r) => ({ ...r, carrier: carrier.name })))
        } catch (err) {
          if (!(err instanceof CarrierError)) throw err
          this.#logger.warn({ err: err.message, carrier: carrier.name }, 'carrier could not give its rates')
          unavailable.push(carrier.name)
        }
      }),
    )
    return { rates: rates.sort(byCharge), unavailable: unavailable.sort() }
  }

  /** The box of these lines: weighed and measured, or by the packing rule from the products. */
  async box(lines: PackedLine[], given: { weightGrams?: number; dimensionsCm?: Dimensions }): Promise<ParcelBox> {
    const packages = await unitPackages(this.db, lines.map((l) => l.item))
    // A product deleted since the sale weighs what products weigh by default, size unknown.
    return packParcel(
      lines.map((l) => ({ quantity: l.quantity, weightGrams: packages.get(l.item.variantId)?.weightGrams ?? 500, dimensionsCm: packages.get(l.item.variantId)?.dimensionsCm ?? null })),
      given,
    )
  }

  /**
   * What a parcel of these lines is declared as: weight and box from the products unless given
   * (packing.ts), the goods' value with tax, checked against the e-way bill rule, and the GST
   * document they travel with.
   */
  async declare(orderId: string, lines: PackedLine[], given: { weightGrams?: number; dimensionsCm?: Dimensions; ewayBillNo?: string }, supplierGstin: string | null = null): Promise<Declaration> {
    const box = await this.box(lines, given)
    const consignmentValue = sumPaise(lines.map((l) => ((l.item.lineTotal - l.item.couponDiscount) * BigInt(l.quantity)) / BigInt(l.item.quantity)))
    const ewayBillNo = given.ewayBillNo ?? null
    checkEwayBill(consignmentValue, ewayBillNo, this.#clock.now())
    // An order supplied from two registrations has an invoice of each: the parcel travels with its location's (decision 0043).
    const documents = await taxDocumentsOf(this.db, orderId)
    const mine = (d: { seller: { gstin: string | null } }) => supplierGstin === null || d.seller.gstin === supplierGstin
    const invoiceNumber = (documents.invoices.find(mine) ?? documents.invoices[0])?.number ?? (documents.billsOfSupply.find(mine) ?? documents.billsOfSupply[0])?.number ?? null
    return { box, consignmentValue, ewayBillNo, invoiceNumber }
  }

  /**
   * Asks the carrier to collect a recorded parcel. A failure is logged and left to the sweep
   * (retryPickups) and to the back office's retry: the parcel is booked either way.
   */
  async requestPickup(carrier: Carrier, row: ShipmentRow): Promise<ShipmentRow> {
    let requested
    try {
      requested = await carrier.requestPickup({ awb: row.awb, carrierShipmentId: row.carrierShipmentId, direction: row.direction, pickupName: row.pickupName }, this.#clock.now())
    } catch (err) {
      if (!(err instanceof CarrierError)) throw err
      this.#logger.warn({ err: err.message, shipmentId: row.id }, 'carrier could not schedule a pickup; asked again later')
      return row
    }
    const now = this.#clock.now()
    return this.db.transaction(async (tx) => {
      const locked = (await shipmentRepo.lock(tx, row.id))!
      if (locked.pickupRequestedAt !== null) return locked
      return shipmentRepo.update(tx, row.id, { pickupRequestedAt: now, pickupScheduledAt: requested.scheduledAt, pickupReference: requested.reference, updatedAt: now })
    })
  }

  /**
   * A non-delivery action (NDR) for a forward parcel whose delivery failed: deliver again (on a
   * day, to a corrected address line or phone) or return it to origin, checked and forwarded to the
   * carrier (409 when it cannot take such an action, 503 when it cannot answer). The caller keeps
   * it; the parcel moves with the carrier's next scans.
   */
  async forwardNdr(row: ShipmentRow, input: NdrInput): Promise<NdrRequest> {
    const request = this.#checkNdr(row, input)
    const carrier = this.#carrierOf(row)
    try {
      await carrier.ndrAction({ awb: row.awb, carrierShipmentId: row.carrierShipmentId }, request)
    } catch (err) {
      if (err instanceof CarrierUnsupportedError) throw new AppError('CONFLICT', err.message)
      if (!(err instanceof CarrierError)) throw err
      this.#logger.warn({ err: err.message, shipmentId: row.id }, 'carrier could not take a non-delivery action')
      throw new AppError('UNAVAILABLE', `The carrier ${carrier.name} could not take the ${request.action === 'REATTEMPT' ? 're-attempt' : 'return'} of shipment ${row.awb}; try again`)
    }
    return request
  }

  /** The action checked against the parcel (409 unless its delivery failed) and the calendar (a re-attempt within 7 days). */
  #checkNdr(row: ShipmentRow, input: NdrInput): NdrRequest {
    if (row.direction !== 'FORWARD' || row.status !== 'DELIVERY_FAILED') {
      throw new AppError('CONFLICT', `Shipment ${row.awb} is ${row.direction === 'REVERSE' ? 'a return pickup' : row.status}: a non-delivery action is for a parcel whose delivery failed (DELIVERY_FAILED)`)
    }
    const problems: string[] = []
    if (input.action === 'RTO' && (input.deferredDate !== undefined || input.addressLine !== undefined || input.phone !== undefined)) {
      problems.push('action: RTO takes no deferredDate, addressLine or phone (they are for a re-attempt)')
    }
    const today = indiaDay(this.#clock.now())
    const lastDay = indiaDay(new Date(this.#clock.now().getTime() + NDR_MAX_DEFER_DAYS * 86_400_000))
    if (input.deferredDate !== undefined && (input.deferredDate < today || input.deferredDate > lastDay)) {
      problems.push(`deferredDate: must be from today (${today}) to ${lastDay} in India`)
    }
    const phone = input.phone === undefined ? null : normalizeIndianMobile(input.phone)
    if (input.phone !== undefined && phone === null) problems.push('phone: must be a 10-digit Indian mobile number')
    if (problems.length > 0) throw new AppError('BAD_REQUEST', 'Validation failed', problems)
    return { action: input.action, deferredDate: input.deferredDate ?? null, addressLine: input.addressLine?.trim() || null, phone, note: input.note?.trim() || null }
  }

  zoneRules() {
    return listZoneRules(this.db)
  }

  putZoneRule(adminId: string, zoneId: string, input: ZoneRuleInput) {
    return putZoneRule(this.db, zoneId, input, [...this.carriers.keys(), MANUAL_CARRIER], `ADMIN:${adminId}`, this.#clock.now())
  }

  deleteZoneRule(zoneId: string) {
    return deleteZoneRule(this.db, zoneId)
  }

  /** The back office's retry: asks again for a parcel whose pickup was not accepted (409 once it was, or once it moved on). */
  async retryPickup(shipmentId: string) {
    const row = await shipmentRepo.find(this.db, shipmentId)
    if (!row) throw notFound('Shipment')
    if (row.status !== 'CREATED') throw new AppError('CONFLICT', `Shipment ${row.awb} is ${row.status}: a pickup is asked for a parcel still waiting for its courier (CREATED)`)
    if (row.pickupRequestedAt !== null) throw new AppError('CONFLICT', `The pickup of shipment ${row.awb} was already accepted`)
    const carrier = this.#carrierOf(row)
    const after = await this.requestPickup(carrier, row)
    if (after.pickupRequestedAt === null) throw new AppError('UNAVAILABLE', `The carrier ${carrier.name} could not schedule the pickup of shipment ${row.awb}; try again`)
    return this.adminView(shipmentId)
  }

  /**
   * The background sweep: parcels waiting for their courier whose pickup was not accepted, asked
   * again (oldest first, at most `limit` a run). Safe on several nodes: asking twice is answered as
   * already queued.
   */
  async retryPickups(limit = 20): Promise<number> {
    const due = await shipmentRepo.pickupsDue(this.db, new Date(this.#clock.now().getTime() - 60_000), limit)
    let accepted = 0
    for (const row of due) {
      const carrier = row.carrier === MANUAL_CARRIER ? this.#manual : this.carriers.get(row.carrier)
      if (!carrier) continue
      if ((await this.requestPickup(carrier, row)).pickupRequestedAt !== null) accepted++
    }
    return accepted
  }

  /** The carrier a parcel was booked with: 409 when the service no longer ships with it. */
  #carrierOf(row: ShipmentRow): Carrier {
    const carrier = row.carrier === MANUAL_CARRIER ? this.#manual : this.carriers.get(row.carrier)
    if (!carrier) throw new AppError('CONFLICT', `Shipment ${row.awb} was booked with ${row.carrier}, which this service no longer ships with`)
    return carrier
  }

  /** 400 for an unknown carrier, or a field the carrier (or the merchant's own delivery) does not take. */
  checkRequest(request: ShipmentRequest) {
    this.#carrier(request.carrier)
    checkManualFields(request)
  }

  /** A move of a parcel of the merchant's own delivery, checked: 409 for a carrier's parcel (its scans move it) and for a move the parcel does not make. */
  checkManualMove(row: ShipmentRow, status: TrackingStatus) {
    if (row.carrier !== MANUAL_CARRIER) {
      throw new AppError('CONFLICT', `Shipment ${row.awb} travels with ${row.carrier}: its scans move it (POST /admin/shipments/${row.id}/refresh asks for them)`)
    }
    if (!SHIPMENT_MOVES[row.status].includes(status)) throw new AppError('CONFLICT', `Shipment ${row.awb} cannot move from ${row.status} to ${status}`)
  }

  /**
   * What each courier of the named carrier, or of every carrier, would charge for a parcel, the
   * cheapest and the fastest marked: the back office's look before it books (503 when no carrier
   * could answer).
   */
  async offers(carrierName: string | undefined, parcel: Parameters<Carrier['rates']>[0]) {
    const { rates, unavailable } = await this.ratesOf(carrierName, parcel)
    if (rates.length === 0 && unavailable.length > 0) throw new AppError('UNAVAILABLE', `The carrier ${unavailable.join(', ')} could not give its rates; try again`)
    const cheapest = [...rates].sort(byCharge)[0]
    const fastest = [...rates].sort(byDays)[0]
    return {
      rates: rates.map((r) => ({
        carrier: r.carrier,
        courierId: r.courierId,
        courierName: r.courierName,
        charge: formatPaise(r.charge),
        estimatedDays: r.estimatedDays,
        recommended: r.recommended,
        cheapest: r === cheapest,
        fastest: r === fastest,
      })),
      unavailableCarriers: unavailable,
    }
  }

  /** The rule of the zone serving the pincode, if it has one. */
  zoneRuleOf(pincode: string) {
    return zoneRuleFor(this.db, pincode)
  }

  /** Cancels a parcel at its carrier, while it waits for its courier (409 once it moved on, 503 when the carrier cannot answer). */
  async cancelAtCarrier(row: ShipmentRow) {
    if (row.status !== 'CREATED') throw new AppError('CONFLICT', `Shipment ${row.awb} cannot be cancelled once it is ${row.status}`)
    const carrier = this.#carrierOf(row)
    try {
      await carrier.cancel({ awb: row.awb, carrierShipmentId: row.carrierShipmentId })
    } catch (err) {
      if (!(err instanceof CarrierError)) throw err
      throw new AppError('UNAVAILABLE', `The carrier ${carrier.name} could not cancel shipment ${row.awb}; try again`)
    }
  }

  /**
   * A carrier's tracking callback, verified and read: 404 for an unknown carrier, 401 for a bad
   * signature. A well-signed body it cannot read is not refused (decision 0044): no events, and
   * why, for keepCallback.
   */
  parseCallback(carrierName: string, rawBody: Buffer, headers: IncomingHttpHeaders): { carrier: Carrier; events: TrackingEvent[]; unreadable: string | null } {
    const carrier = this.carriers.get(WEBHOOK_ALIASES[carrierName] ?? carrierName)
    if (!carrier) throw notFound('Carrier')
    try {
      return { carrier, events: carrier.parseWebhook(rawBody, headers), unreadable: null }
    } catch (err) {
      if (err instanceof CarrierSignatureError) throw new AppError('UNAUTHORIZED', 'Invalid webhook signature')
      if (err instanceof CarrierPayloadError) return { carrier, events: [], unreadable: err.message }
      throw err
    }
  }

  /**
   * Keeps a well-signed callback that was not applied in full (decision 0044): once per carrier and
   * body, its first 64 KiB as text (NUL characters dropped: PostgreSQL text cannot hold them).
   */
  async keepCallback(carrier: string, rawBody: Buffer, problem: 'UNREADABLE' | 'UNKNOWN_AWB', detail: string, unknownAwbs: string[]) {
    await shipmentRepo.keepCallback(this.db, {
      id: newId('ccb', this.#clock.now().getTime()),
      carrier,
      bodySha256: createHash('sha256').update(rawBody).digest('hex'),
      body: rawBody.subarray(0, KEPT_BODY_BYTES).toString('utf8').replaceAll('\u0000', ''),
      problem,
      detail: detail.slice(0, 2000),
      unknownAwbs: unknownAwbs.slice(0, 1000),
      receivedAt: this.#clock.now(),
    })
  }

  /** Kept callbacks older than KEPT_CALLBACK_DAYS are forgotten (the server's timer, a batch at a time). */
  purgeKeptCallbacks(limit = 1000): Promise<number> {
    return shipmentRepo.purgeCallbacks(this.db, new Date(this.#clock.now().getTime() - KEPT_CALLBACK_DAYS * 86_400_000), limit)
  }

  /** The callbacks kept, newest first, one page (GET /admin/fulfilment/carrier-callbacks). */
  async keptCallbacks(query: { carrier?: string | undefined; page: number; limit: number }) {
    const { rows, total } = await shipmentRepo.keptCallbacks(this.db, query.carrier, { limit: query.limit, offset: (query.page - 1) * query.limit })
    return {
      data: rows.map((r) => ({ id: r.id, carrier: r.carrier, problem: r.problem, detail: r.detail, unknownAwbs: r.unknownAwbs, body: r.body, receivedAt: r.receivedAt.toISOString() })),
      meta: pageMeta(total, query),
    }
  }

  /** The carrier's events of a parcel, asked for (503 when it cannot answer). */
  async track(row: ShipmentRow): Promise<TrackingEvent[]> {
    const carrier = this.#carrierOf(row)
    try {
      return await carrier.track(row.awb)
    } catch (err) {
      if (!(err instanceof CarrierError)) throw err
      throw new AppError('UNAVAILABLE', `The carrier ${carrier.name} could not be asked about shipment ${row.awb}; try again`)
    }
  }

  labelPdf(label: ShippingLabel) {
    return renderShippingLabelPdf(label)
  }

  labelsPdf(labels: ShippingLabel[]) {
    return renderShippingLabelsPdf(labels)
  }

  /** The carrier by name (400 naming the ones there are); none: the default. */
  carrierNamed(name: string | undefined): Carrier {
    return this.#carrier(name)
  }

  /** Books with the carrier, outside any transaction; a carrier failure is a 503 to try again. */
  async book(carrier: Carrier, request: BookingRequest): Promise<BookedShipment> {
    try {
      return await carrier.book(request)
    } catch (err) {
      if (!(err instanceof CarrierError)) throw err
      this.#logger.warn({ err: err.message, shipmentId: request.shipmentId }, 'carrier could not book a shipment')
      throw new AppError('UNAVAILABLE', `The carrier ${carrier.name} could not book the shipment; try again`)
    }
  }

  /** Cancels a booking that was not recorded (its transaction failed); a failure is logged for a person to follow up. */
  async unbook(carrier: Carrier, booked: BookedShipment) {
    await carrier.cancel({ awb: booked.awb, carrierShipmentId: booked.carrierShipmentId }).catch((cancelErr: unknown) => {
      this.#logger.error({ err: cancelErr instanceof Error ? cancelErr.message : String(cancelErr), awb: booked.awb }, 'a booking that was not recorded could not be cancelled at the carrier')
    })
  }

  findByAwb(carrier: string, awb: string) {
    return shipmentRepo.findByAwb(this.db, carrier, awb)
  }

  /** The back office's view: the customer's plus the order id and the carrier's label. */
  async adminView(shipmentId: string) {
    const row = await shipmentRepo.find(this.db, shipmentId)
    if (!row) throw notFound('Shipment')
    const ndrActions = await shipmentRepo.ndrActionsOf(this.db, row.id)
    return {
      ...(await shipmentAnswer(this.db, row)),
      ndrActions: ndrActions.map((a) => ({ action: a.action, deferredDate: a.deferredDate, addressLine: a.addressLine, phone: a.phone, note: a.note, requestedBy: a.requestedBy, at: a.createdAt.toISOString() })),
      orderId: row.orderId,
      labelUrl: row.labelUrl,
      dimensionsCm: { length: row.lengthCm, breadth: row.breadthCm, height: row.heightCm },
      ewayBillNo: row.ewayBillNo,
      origin: row.locationId === null ? null : { locationId: row.locationId, pickupName: row.pickupName },
      resolution: row.resolution === null ? null : { action: row.resolution, at: row.settledAt!.toISOString(), note: row.resolutionNote, resolvedBy: row.resolvedBy! },
      pickup: row.pickupRequestedAt === null ? null : { requestedAt: row.pickupRequestedAt.toISOString(), scheduledAt: row.pickupScheduledAt?.toISOString() ?? null, reference: row.pickupReference },
    }
  }

  async view(shipmentId: string) {
    const row = await shipmentRepo.find(this.db, shipmentId)
    if (!row) throw notFound('Shipment')
    return shipmentAnswer(this.db, row)
  }

  manifestPdf(manifest: Manifest) {
    return renderManifestPdf(manifest)
  }

  pickListPdf(list: PickList) {
    return renderPickListPdf(list)
  }
}
