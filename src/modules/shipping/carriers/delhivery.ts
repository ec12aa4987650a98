// The Delhivery carrier (issue #38, decision 0031): Delhivery's own B2C (express) API, a courier
// rather than an aggregator. A parcel is manifested with one form-encoded create.json call
// (`format=json&data=…`) from the registered warehouse (forward, Prepaid or COD) or from the
// customer to it (reverse, payment mode "Pickup"); Delhivery assigns the waybill (our AWB). Every call
// carries the account's static token as `Authorization: Token …`. Tracking is pushed to the URL
// agreed with Delhivery, with the header we asked them to send (`Authorization: Bearer <token>`), and
// pulled from packages/json. Every call has a timeout, and every failure becomes a CarrierError whose
// message never carries the API token or a webhook token. Amounts are integer paise here and rupee
// numbers (999.99) only in the bodies sent; weights are grams; times without an offset are India's.
import { createHash } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { safeEqual } from '../../../lib/hashing.ts'
import { isRecord } from '../../../lib/json.ts'
import { formatPaise } from '../../../lib/money.ts'
import { normalizeIndianMobile } from '../../../lib/phone.ts'
import {
  type BookedShipment,
  type BookingRequest,
  type Carrier,
  CarrierError,
  CarrierPayloadError,
  CarrierSignatureError,
  CarrierUnsupportedError,
  type CourierRate,
  isRefusal,
  type NdrRequest,
  type PickupAsked,
  type PickupRequested,
  type RateRequest,
  type TrackingEvent,
  type TrackingStatus,
} from './types.ts'

/** The header Delhivery is asked to send with its tracking pushes, as `Bearer <DELHIVERY_WEBHOOK_TOKEN>`. */
export const DELHIVERY_WEBHOOK_TOKEN_HEADER = 'authorization'
export const DELHIVERY_DEFAULT_API_BASE = 'https://track.delhivery.com'
/** The bound of every Delhivery call (`DELHIVERY_TIMEOUT_MS`). */
const DEFAULT_TIMEOUT_MS = 5_000
/** Delhivery's messages are quoted in our errors, cut to this length. */
const MAX_MESSAGE = 200
/** India Standard Time, which every Delhivery time without an offset is in. */
const IST_OFFSET_MS = 330 * 60 * 1000
/** Volumetric weight, as Indian couriers bill it: L x B x H (cm) / 5000 in kg, i.e. / 5 in grams. */
const VOLUMETRIC_DIVISOR_GRAMS = 5

const PATHS = {
  create: '/api/cmu/create.json',
  label: '/api/p/packing_slip',
  pickup: '/fm/request/new/',
  edit: '/api/p/edit',
  ndr: '/api/p/update',
  charges: '/api/kinko/v1/invoice/charges/.json',
  pincodes: '/c/api/pin-codes/json/',
  track: '/api/v1/packages/json/',
  tat: '/api/dc/expected_tat',
} as const

/**
 * Delhivery's two modes of transport, which we offer as its couriers: the rate API's `md` and the
 * shipment's `shipping_mode`. A booking without a courier goes by Surface, Delhivery's default mode.
 */
export const DELHIVERY_MODES = {
  S: { shippingMode: 'Surface', courierName: 'Delhivery Surface' },
  E: { shippingMode: 'Express', courierName: 'Delhivery Express' },
} as const
type ModeId = keyof typeof DELHIVERY_MODES

/**
 * Delhivery's published status table ("Status Type" and "Status", package lifecycle: forward, return
 * and reverse pickup flows) and what each means for our shipment; `null`: no status of ours (before
 * pickup), and the event gives []. Keyed "TYPE Status". A forward attempt that failed is UD with an
 * end-of-day code (failedAttempt below), not a row of its own; lost and damaged parcels are not in
 * the published table (lostOrDamaged below). A status not listed gives no event.
 */
export const DELHIVERY_STATUSES: Readonly<Record<string, { description: string; status: TrackingStatus | null }>> = {
  'UD Manifested': { description: 'Soft data uploaded, not yet picked up', status: null },
  'UD Not Picked': { description: 'Not physically picked up from the warehouse', status: null },
  'UD In Transit': { description: 'In transit to its delivery centre after pickup', status: 'IN_TRANSIT' },
  'UD Pending': { description: 'At the delivery centre, not yet dispatched', status: 'IN_TRANSIT' },
  'UD Dispatched': { description: 'Dispatched for delivery to the customer', status: 'OUT_FOR_DELIVERY' },
  'DL Delivered': { description: 'Accepted by the customer', status: 'DELIVERED' },
  // Returns to origin have one status of ours for the whole trip back, until DL RTO.
  'RT In Transit': { description: 'Converted to a return, in transit', status: 'RTO_INITIATED' },
  'RT Pending': { description: 'Return at the centre nearest the origin', status: 'RTO_INITIATED' },
  'RT Dispatched': { description: 'Return dispatched to the warehouse', status: 'RTO_INITIATED' },
  'DL RTO': { description: 'Returned to origin', status: 'RTO_DELIVERED' },
  // Reverse pickups: nothing happens to our parcel before it is picked up; DL DTO is its delivery to the warehouse.
  'PP Open': { description: 'Pickup request created', status: null },
  'PP Scheduled': { description: 'Pickup scheduled', status: null },
  'PP Dispatched': { description: 'Field executive out to collect from the customer', status: null },
  'PU In Transit': { description: 'Picked up, in transit', status: 'IN_TRANSIT' },
  'PU Pending': { description: 'At the return processing centre', status: 'IN_TRANSIT' },
  'PU Dispatched': { description: 'Dispatched for delivery to the warehouse', status: 'OUT_FOR_DELIVERY' },
  'DL DTO': { description: 'Delivered to origin (the warehouse), POD received', status: 'DELIVERED' },
  'CN Canceled': { description: 'Reverse pickup cancelled before pickup', status: 'CANCELLED' },
  'CN Closed': { description: 'Reverse pickup cancelled and closed', status: 'CANCELLED' },
}

const STATUS_BY_KEY = new Map(Object.entries(DELHIVERY_STATUSES).map(([key, entry]) => [statusKey(key.slice(0, 2), key.slice(3)), entry.status]))

/**
 * The status codes (NSLCode in pushes, StatusCode in scans) Delhivery's NDR API accepts a re-attempt
 * or a deferred delivery for: each marks a failed delivery attempt. Every end-of-day code (EOD-…) on
 * an undelivered forward parcel is one too: the day ended without a delivery.
 */
export const DELHIVERY_NDR_CODES: readonly string[] = ['EOD-3', 'EOD-6', 'EOD-11', 'EOD-15', 'EOD-16', 'EOD-43', 'EOD-69', 'EOD-74', 'EOD-86', 'EOD-104', 'ST-108']

/** A Delhivery status in our words; null when the shipment has no status for it. */
export function delhiveryStatus(statusType: string, status: string, code: string | null): TrackingStatus | null {
  const type = statusType.trim().toUpperCase()
  const lostOrDamaged = lostOrDamagedOf(type, status)
  if (lostOrDamaged !== null) return lostOrDamaged
  if (type === 'UD' && code !== null && (DELHIVERY_NDR_CODES.includes(code) || /^EOD-\d+$/.test(code))) return 'DELIVERY_FAILED'
  return STATUS_BY_KEY.get(statusKey(type, status)) ?? null
}

/**
 * Lost and damaged parcels are not in Delhivery's published table; integrations report a status
 * "LOST" (type LT) and "Damaged" / "Destroyed" / "Disposed Off". Only the status itself counts, never
 * a scan's free text. Both end the parcel's journey for the back office (decision 0030).
 */
function lostOrDamagedOf(type: string, status: string): TrackingStatus | null {
  const words = status.trim().toLowerCase().replace(/\s+/g, ' ')
  if (type === 'LT' || words === 'lost' || words === 'shipment lost') return 'LOST'
  if (['damaged', 'destroyed', 'disposed off', 'disposed'].includes(words)) return 'DAMAGED'
  return null
}

function statusKey(type: string, status: string): string {
  return `${type.trim().toUpperCase()} ${status.trim().toLowerCase().replace(/\s+/g, ' ')}`
}

export interface DelhiveryOptions {
  apiToken: string
  /** The registered warehouse's name in the Delhivery panel. */
  pickupLocation: string
  /** That warehouse's pincode: the origin of rate quotes. */
  pickupPincode: string
  /** The token Delhivery sends back with its pushes (`Authorization: Bearer …`). */
  webhookToken: string
  /** The token being replaced, accepted as well while a rotation is under way. */
  previousWebhookToken?: string | null
  /** Without a trailing slash; default https://track.delhivery.com (staging: https://staging-express.delhivery.com). */
  apiBase?: string
  timeoutMs?: number
  fetch?: typeof fetch
}

/** The parts of Delhivery's answers that we read. */
interface CreateAnswer {
  success?: boolean
  rmk?: string
  packages?: { waybill?: string; status?: string; remarks?: unknown; refnum?: string }[]
}
interface PickupAnswer {
  pickup_id?: number | string
  pickup_date?: string
  pickup_time?: string
  pr_exist?: boolean
  error?: { message?: string } | string
  message?: string
}
interface ScanDetail {
  Scan?: unknown
  ScanType?: unknown
  ScanDateTime?: unknown
  StatusDateTime?: unknown
  ScannedLocation?: unknown
  Instructions?: unknown
  StatusCode?: unknown
}
interface ShipmentStatus {
  Status?: unknown
  StatusType?: unknown
  StatusDateTime?: unknown
  StatusLocation?: unknown
  Instructions?: unknown
  StatusCode?: unknown
}

/** Delhivery's REST API: token-authenticated calls bounded by a timeout, our credentials never quoted. */
class DelhiveryApi {
  readonly #fetch: typeof fetch
  readonly #timeoutMs: number
  readonly #apiBase: string
  readonly #apiToken: string
  readonly #secrets: string[]

  constructor(options: DelhiveryOptions, webhookTokens: string[]) {
    this.#fetch = options.fetch ?? fetch
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.#apiBase = (options.apiBase ?? DELHIVERY_DEFAULT_API_BASE).replace(/\/+$/, '')
    this.#apiToken = options.apiToken
    this.#secrets = [options.apiToken, ...webhookTokens]
  }

  /** Whatever Delhivery or the network said, without our credentials in it. */
  redact(text: string): string {
    return this.#secrets.reduce((out, secret) => out.replaceAll(secret, '[redacted]'), text)
  }

  /**
   * One HTTP exchange, bounded by the timeout: the answer's status and body as JSON (null when it is
   * not JSON). A network failure or a timeout is a CarrierError.
   */
  async send(method: 'GET' | 'POST', path: string, body?: { json: object } | { form: URLSearchParams }): Promise<{ status: number; text: string; json: unknown }> {
    let response: Response
    let text: string
    try {
      response = await this.#fetch(`${this.#apiBase}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          authorization: `Token ${this.#apiToken}`,
          ...(body ? { 'content-type': 'json' in body ? 'application/json' : 'application/x-www-form-urlencoded' } : {}),
        },
        ...(body ? { body: 'json' in body ? JSON.stringify(body.json) : body.form.toString() } : {}),
        signal: AbortSignal.timeout(this.#timeoutMs),
      })
      text = await response.text()
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError'
      const detail = timedOut ? `timed out after ${this.#timeoutMs} ms` : `could not be reached (${errorText(error)})`
      throw new CarrierError(this.redact(`Delhivery ${method} ${pathOnly(path)} ${detail}`))
    }
    let json: unknown = null
    try {
      json = JSON.parse(text)
    } catch {
      // Not JSON: the callers say so.
    }
    return { status: response.status, text, json }
  }

  /** The answer's JSON, or a CarrierError for an error status or a body that is not JSON. */
  async call<T>(method: 'GET' | 'POST', path: string, body?: { json: object } | { form: URLSearchParams }): Promise<T> {
    const answer = await this.send(method, path, body)
    const what = `Delhivery ${method} ${pathOnly(path)}`
    if (answer.status < 200 || answer.status > 299) throw new CarrierError(this.redact(`${what} answered ${answer.status}: ${describeError(answer.text)}`))
    if (answer.json === null) throw new CarrierError(`${what} answered ${answer.status} with a body that is not JSON`)
    return answer.json as T
  }
}

/** Delhivery as a carrier (its B2C API): bookings, rates per mode, pickups, NDR, cancellations, callbacks and tracking. */
class DelhiveryCarrier implements Carrier {
  readonly name = 'delhivery'
  readonly #options: DelhiveryOptions
  readonly #webhookTokens: string[]
  readonly #api: DelhiveryApi

  constructor(options: DelhiveryOptions) {
    this.#options = options
    this.#webhookTokens = [options.webhookToken, options.previousWebhookToken].filter((t): t is string => typeof t === 'string' && t !== '')
    if (this.#webhookTokens.length === 0) throw new Error('Delhivery needs a webhook token')
    if (options.apiToken === '') throw new Error('Delhivery needs an API token')
    this.#api = new DelhiveryApi(options, this.#webhookTokens)
  }

  async book(request: BookingRequest): Promise<BookedShipment> {
    const mode = modeOf(request.courierId)
    const form = new URLSearchParams({ format: 'json', data: JSON.stringify({ shipments: [shipment(request, mode)], pickup_location: { name: request.origin?.pickupName ?? this.#options.pickupLocation } }) })
    const answer = await this.#api.call<CreateAnswer>('POST', PATHS.create, { form })
    const created = answer?.packages?.[0]
    const awb = typeof created?.waybill === 'string' ? created.waybill.trim() : ''
    if (answer?.success !== true || created?.status !== 'Success' || awb === '') {
      const remarks = Array.isArray(created?.remarks) ? created.remarks.filter((r): r is string => typeof r === 'string' && r.trim() !== '') : []
      throw new CarrierError(this.#api.redact(`Delhivery POST ${PATHS.create} created no shipment: ${cut([...remarks, answer?.rmk ?? ''].filter((r) => r !== '').join('; ') || 'no waybill in the answer')}`))
    }
    // A reverse pickup's label is the courier's business: the customer has nothing to print.
    const labelUrl = request.direction === 'FORWARD' ? await this.#label(awb) : null
    return { awb, carrierShipmentId: null, courierName: DELHIVERY_MODES[mode].courierName, trackingUrl: delhiveryTrackingUrl(awb), labelUrl, expectedDeliveryDate: null }
  }

  /**
   * One rate per mode for a pincode Delhivery serves (none for one it does not), with the days its
   * expected-TAT API gives for the mode (so FASTEST can choose Express); Delhivery recommends
   * nothing, so the cheaper is recommended.
   */
  async rates(request: RateRequest): Promise<CourierRate[]> {
    if (!(await this.#serviceable(request))) return []
    const modes = Object.keys(DELHIVERY_MODES) as ModeId[]
    const [charges, days] = await Promise.all([Promise.all(modes.map((mode) => this.#charge(mode, request))), Promise.all(modes.map((mode) => this.#days(mode, request)))])
    const offered = modes.flatMap((mode, i) => {
      const amount = charges[i]
      return amount === null || amount === undefined ? [] : [{ mode, charge: amount, days: days[i] ?? null }]
    })
    const cheapest = offered.reduce<(typeof offered)[number] | null>((best, o) => (best === null || o.charge < best.charge ? o : best), null)
    return offered.map((o) => ({ courierId: o.mode, courierName: DELHIVERY_MODES[o.mode].courierName, charge: o.charge, estimatedDays: o.days, recommended: o === cheapest }))
  }

  /**
   * Delhivery's asynchronous NDR API: a corrected address or phone (EDIT_DETAILS), then a deferred
   * date (DEFER_DLV) or a re-attempt (RE-ATTEMPT), in one request; accepted is done (its request_id
   * would say later whether Delhivery applied it). Its API has no return-to-origin action.
   */
  async ndrAction(shipment: { awb: string }, request: NdrRequest): Promise<void> {
    if (request.action === 'RTO') {
      throw new CarrierUnsupportedError(`Delhivery's API takes no return-to-origin request: ask for the return of ${shipment.awb} in the Delhivery One panel (NDR)`)
    }
    const answer = await this.#api.call<{ request_id?: unknown; error?: unknown }>('POST', PATHS.ndr, { json: { data: ndrActions(shipment.awb, request) } })
    if (typeof answer?.request_id !== 'string' || answer.request_id === '') throw new CarrierError(this.#api.redact(`Delhivery POST ${PATHS.ndr} took no action for ${shipment.awb}: ${describeError(JSON.stringify(answer))}`))
  }

  /**
   * A forward parcel: a pickup request for the warehouse (Delhivery's pickups are per warehouse and
   * slot, not per parcel); one that already exists for the slot counts as accepted. A reverse
   * pickup is scheduled by Delhivery when it is manifested (its status goes Open, then Scheduled).
   */
  async requestPickup(shipment: Pick<PickupAsked, 'direction' | 'pickupName'>, at: Date): Promise<PickupRequested> {
    if (shipment.direction === 'REVERSE') return { scheduledAt: null, reference: null }
    const slot = pickupSlot(at)
    const warehouse = shipment.pickupName ?? this.#options.pickupLocation
    const answer = await this.#api.send('POST', PATHS.pickup, { json: { pickup_time: slot.time, pickup_date: slot.date, pickup_location: warehouse, expected_package_count: 1 } })
    const body = (isRecord(answer.json) ? answer.json : {}) as PickupAnswer
    const reference = body.pickup_id !== undefined && String(body.pickup_id).trim() !== '' ? String(body.pickup_id).trim() : null
    // Asked twice for the same warehouse and day (a retry, another parcel, another node): the request stands.
    const message = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message ?? '')
    if (body.pr_exist === true || /already exists/i.test(message)) return { scheduledAt: null, reference }
    if (answer.status < 200 || answer.status > 299 || reference === null) {
      throw new CarrierError(this.#api.redact(`Delhivery POST ${PATHS.pickup} scheduled no pickup (${answer.status}): ${describeError(answer.text)}`))
    }
    return { scheduledAt: parseDelhiveryTime(`${body.pickup_date ?? slot.date}T${body.pickup_time ?? slot.time}`), reference }
  }

  async cancel(shipment: { awb: string }): Promise<void> {
    const answer = await this.#api.call<{ status?: unknown; remark?: unknown; error?: unknown }>('POST', PATHS.edit, { json: { waybill: shipment.awb, cancellation: 'true' } })
    if (answer?.status !== true) throw new CarrierError(this.#api.redact(`Delhivery POST ${PATHS.edit} did not cancel ${shipment.awb}: ${describeError(JSON.stringify(answer))}`))
  }

  parseWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): TrackingEvent[] {
    const presented = headerValue(headers, DELHIVERY_WEBHOOK_TOKEN_HEADER)
    if (presented === undefined) throw new CarrierSignatureError(`Missing ${DELHIVERY_WEBHOOK_TOKEN_HEADER} token`)
    // Every configured token is compared, so the time taken says nothing about which one matched.
    const matches = this.#webhookTokens.map((token) => safeEqual(`Bearer ${token}`, presented))
    if (!matches.includes(true)) throw new CarrierSignatureError(`The ${DELHIVERY_WEBHOOK_TOKEN_HEADER} token does not match`)
    let body: unknown
    try {
      body = JSON.parse(rawBody.toString('utf8'))
    } catch {
      throw new CarrierPayloadError('Delhivery webhook body is not JSON')
    }
    return webhookEvents(body)
  }

  async track(awb: string): Promise<TrackingEvent[]> {
    const path = `${PATHS.track}?${new URLSearchParams({ waybill: awb })}`
    const answer = await this.#api.call<{ ShipmentData?: unknown; Error?: unknown }>('GET', path)
    // A waybill Delhivery has no data for yet has no events.
    if (typeof answer?.Error === 'string' && /no such waybill/i.test(answer.Error)) return []
    const first: unknown = Array.isArray(answer?.ShipmentData) ? answer.ShipmentData[0] : undefined
    const shipment = isRecord(first) ? first.Shipment : undefined
    if (!isRecord(shipment)) throw new CarrierError(`Delhivery GET ${PATHS.track} answered without ShipmentData`)
    return trackedEvents(awb, shipment)
  }

  /** The label (Delhivery's packing slip PDF), or null when it has none now: the AWB is booked, and we render a label of our own. */
  async #label(awb: string): Promise<string | null> {
    try {
      const answer = await this.#api.call<{ packages?: { pdf_download_link?: unknown }[] }>('GET', `${PATHS.label}?${new URLSearchParams({ wbns: awb, pdf: 'true' })}`)
      const link = answer?.packages?.[0]?.pdf_download_link
      return typeof link === 'string' && link !== '' ? link : null
    } catch (error) {
      if (error instanceof CarrierError) return null
      throw error
    }
  }

  /** Whether Delhivery serves the customer's pincode for this parcel (delivery, COD, or a pickup for a return). */
  async #serviceable(request: RateRequest): Promise<boolean> {
    const answer = await this.#api.call<{ delivery_codes?: { postal_code?: Record<string, unknown> }[] }>('GET', `${PATHS.pincodes}?${new URLSearchParams({ filter_codes: request.customerPincode })}`)
    const postal = answer?.delivery_codes?.[0]?.postal_code
    if (!isRecord(postal)) return false
    // "Embargo": the pincode is temporarily not served.
    if (typeof postal.remarks === 'string' && /embargo/i.test(postal.remarks)) return false
    const flag = request.direction === 'REVERSE' ? postal.pickup : request.collectAmount > 0n ? postal.cod : postal.pre_paid
    return flag === 'Y'
  }

  /**
   * One mode's transit days from its expected-TAT API (`{success, data: {tat}}`); null when it gives
   * none or cannot be asked: a rate without days still books (it sorts last for FASTEST).
   */
  async #days(mode: ModeId, request: RateRequest): Promise<number | null> {
    const reverse = request.direction === 'REVERSE'
    const query = new URLSearchParams({
      origin_pin: reverse ? request.customerPincode : this.#origin(request),
      destination_pin: reverse ? this.#origin(request) : request.customerPincode,
      mot: mode,
      pdt: 'B2C',
    })
    try {
      const answer = await this.#api.call<{ data?: { tat?: unknown } }>('GET', `${PATHS.tat}?${query}`)
      const tat = Number(answer?.data?.tat)
      return Number.isInteger(tat) && tat > 0 ? tat : null
    } catch (err) {
      if (err instanceof CarrierError) return null
      throw err
    }
  }

  /** The warehouse end of a parcel (where a forward one leaves from, where a return goes): its stock location's pincode (decision 0043), else the registered warehouse's. */
  #origin(request: RateRequest): string {
    return request.originPincode || this.#options.pickupPincode
  }

  /** One mode's charge for the parcel, in paise; null when Delhivery gives no amount. */
  async #charge(mode: ModeId, request: RateRequest): Promise<bigint | null> {
    const reverse = request.direction === 'REVERSE'
    const cod = !reverse && request.collectAmount > 0n
    const query = new URLSearchParams({
      md: mode,
      ss: reverse ? 'DTO' : 'Delivered',
      o_pin: reverse ? request.customerPincode : this.#origin(request),
      d_pin: reverse ? this.#origin(request) : request.customerPincode,
      cgm: String(chargeableGrams(request)),
      pt: cod ? 'COD' : 'Pre-paid',
      ...(cod ? { cod: String(rupees(request.collectAmount)) } : {}),
    })
    const answer = await this.#api.call<unknown>('GET', `${PATHS.charges}?${query}`)
    const first = Array.isArray(answer) ? (answer[0] as unknown) : null
    return isRecord(first) ? rupeesToPaise(first.total_amount) : null
  }
}

export function createDelhiveryCarrier(options: DelhiveryOptions): Carrier {
  return new DelhiveryCarrier(options)
}

/** Events from a push or a scan; [] when the status has none of ours. */
function trackingEvent(awb: string, fields: { type: string; status: string; code: string | null; at: Date; location: string | null; instructions: string | null; expectedDeliveryDate: string | null }): TrackingEvent[] {
  const status = delhiveryStatus(fields.type, fields.status, fields.code)
  if (status === null) return []
  const note = fields.instructions ?? fields.status
  return [
    {
      eventId: delhiveryEventId(awb, fields.type, fields.status, fields.code, fields.at),
      awb,
      status,
      occurredAt: fields.at,
      location: fields.location,
      note,
      expectedDeliveryDate: fields.expectedDeliveryDate,
      refused: status === 'DELIVERY_FAILED' && isRefusal(fields.instructions),
    },
  ]
}

/** A verified push's event: [] for a status the parcel does not take; CarrierPayloadError when it cannot be read. */
function webhookEvents(body: unknown): TrackingEvent[] {
  const shipment = isRecord(body) ? body.Shipment : undefined
  if (!isRecord(shipment)) throw new CarrierPayloadError('Delhivery webhook has no Shipment')
  const awb = textOrNull(shipment.AWB)
  if (awb === null) throw new CarrierPayloadError('Delhivery webhook has no AWB')
  const current = (isRecord(shipment.Status) ? shipment.Status : {}) as ShipmentStatus
  const type = textOrNull(current.StatusType)
  const status = textOrNull(current.Status)
  if (type === null || status === null) throw new CarrierPayloadError(`Delhivery webhook for AWB ${awb} has no Status and StatusType`)
  const at = parseDelhiveryTime(current.StatusDateTime)
  if (at === null) throw new CarrierPayloadError(`Delhivery webhook for AWB ${awb} has no readable StatusDateTime`)
  return trackingEvent(awb, {
    type,
    status,
    code: textOrNull(shipment.NSLCode) ?? textOrNull(current.StatusCode),
    at,
    location: textOrNull(current.StatusLocation),
    instructions: textOrNull(current.Instructions),
    expectedDeliveryDate: istDate(shipment.ExpectedDeliveryDate),
  })
}

/** The events of a tracking answer's scans, oldest first, with the current status when no scan carried it. */
function trackedEvents(awb: string, shipment: Record<string, unknown>): TrackingEvent[] {
  const expectedDeliveryDate = istDate(shipment.ExpectedDeliveryDate)
  const events = new Map<string, TrackingEvent>()
  const add = (found: TrackingEvent[]) => found.forEach((e) => events.has(e.eventId) || events.set(e.eventId, e))
  for (const scan of Array.isArray(shipment.Scans) ? shipment.Scans : []) {
    const detail = (isRecord(scan) && isRecord(scan.ScanDetail) ? scan.ScanDetail : {}) as ScanDetail
    const type = textOrNull(detail.ScanType)
    const status = textOrNull(detail.Scan)
    const at = parseDelhiveryTime(detail.StatusDateTime) ?? parseDelhiveryTime(detail.ScanDateTime)
    if (type === null || status === null || at === null) continue
    add(trackingEvent(awb, { type, status, code: textOrNull(detail.StatusCode), at, location: textOrNull(detail.ScannedLocation), instructions: textOrNull(detail.Instructions), expectedDeliveryDate }))
  }
  // The shipment's current status, when no scan carried it.
  const current = (isRecord(shipment.Status) ? shipment.Status : {}) as ShipmentStatus
  const type = textOrNull(current.StatusType)
  const status = textOrNull(current.Status)
  const at = parseDelhiveryTime(current.StatusDateTime)
  if (type !== null && status !== null && at !== null) {
    const currentEvents = trackingEvent(awb, { type, status, code: textOrNull(current.StatusCode), at, location: textOrNull(current.StatusLocation), instructions: textOrNull(current.Instructions), expectedDeliveryDate })
    if (!currentEvents.some((c) => [...events.values()].some((e) => e.status === c.status))) add(currentEvents)
  }
  return [...events.values()].sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime())
}

/** The public tracking page of an AWB. */
export function delhiveryTrackingUrl(awb: string): string {
  return `https://www.delhivery.com/track/package/${encodeURIComponent(awb)}`
}

/**
 * The same update always has the same id, whether it was pushed (again) or pulled: the AWB, the
 * status type, the status, its code (NSLCode in a push, StatusCode in a scan) and the moment.
 */
export function delhiveryEventId(awb: string, statusType: string, status: string, code: string | null, occurredAt: Date): string {
  return createHash('sha256').update(`delhivery|${awb}|${statusKey(statusType, status)}|${code ?? ''}|${occurredAt.toISOString()}`).digest('hex')
}

/**
 * A Delhivery time as an instant. Delhivery writes India Standard Time without an offset
 * ("2019-01-09T17:10:42.767", "2024-09-21T18:20:25.57", "2026-11-27 14:00:00"); a time with an
 * explicit offset or Z is taken as it says. Null when unreadable or impossible.
 */
export function parseDelhiveryTime(value: unknown): Date | null {
  if (typeof value !== 'string') return null
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?(Z|[+-]\d{2}:\d{2})?$/i.exec(value.trim())
  if (!match) return null
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((p) => Number(p ?? 0)) as [number, number, number, number, number, number]
  const millis = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3))
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis)
  const check = new Date(local)
  // Date.UTC rolls 31 April over into May: an impossible date is refused, not moved.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null
  const offset = match[8]
  if (offset === undefined) return new Date(local - IST_OFFSET_MS)
  const offsetMs = offset.toUpperCase() === 'Z' ? 0 : (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) * 60_000
  return new Date(local - offsetMs)
}

/** The calendar date (YYYY-MM-DD) in India of a Delhivery time; null when there is none. */
function istDate(value: unknown): string | null {
  const instant = parseDelhiveryTime(value)
  return instant === null ? null : istParts(instant).date
}

function istParts(instant: Date): { date: string; time: string; hour: number } {
  const iso = new Date(instant.getTime() + IST_OFFSET_MS).toISOString()
  return { date: iso.slice(0, 10), time: iso.slice(11, 19), hour: Number(iso.slice(11, 13)) }
}

/**
 * The pickup slot asked for a parcel booked at `at`: 16:00 the same day in India when booked before
 * 14:00 (two hours to pack), otherwise 11:00 the next day.
 */
export function pickupSlot(at: Date): { date: string; time: string } {
  const now = istParts(at)
  if (now.hour < 14) return { date: now.date, time: '16:00:00' }
  return { date: istParts(new Date(at.getTime() + 24 * 60 * 60 * 1000)).date, time: '11:00:00' }
}

/** Paise as the rupee number Delhivery reads: 99999n is 999.99 (JSON writes the shortest decimal, exactly these digits). */
const rupees = (paise: bigint) => Number(formatPaise(paise))

/** A rupee amount Delhivery answered (87.5, "87.50") as paise, to the nearest paisa; null when it is none. */
function rupeesToPaise(value: unknown): bigint | null {
  const text = typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value.toFixed(2) : typeof value === 'string' ? value.trim() : null
  const match = text === null ? null : /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text)
  return match ? BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0')) : null
}

/** The weight Delhivery bills (cgm): the parcel's, or its volumetric weight when the box weighs less than its size. */
function chargeableGrams(request: { weightGrams: number; dimensionsCm: { length: number; breadth: number; height: number } }): number {
  const { length, breadth, height } = request.dimensionsCm
  return Math.max(grams(request.weightGrams), Math.ceil((length * breadth * height) / VOLUMETRIC_DIVISOR_GRAMS))
}

function grams(weight: number): number {
  if (!Number.isSafeInteger(weight) || weight <= 0) throw new CarrierError(`A weight of ${weight} g cannot be sent to Delhivery`)
  return weight
}

function modeOf(courierId: string | null): ModeId {
  if (courierId === null) return 'S'
  if (courierId === 'S' || courierId === 'E') return courierId
  throw new CarrierError(`Delhivery has no courier "${courierId}": S (Surface) or E (Express)`)
}

/** Delhivery wants the bare 10-digit mobile. */
const mobile = (phone: string) => normalizeIndianMobile(phone) ?? phone.replace(/\D/g, '').slice(-10)

/**
 * The shipment as create.json takes it. Forward: `name/add/pin…` is the customer, the parcel leaves
 * the pickup location. Reverse (payment mode "Pickup"): `name/add/pin…` is still the customer, now
 * where the parcel is collected, and it goes to the pickup location. RTOs and reverse parcels go to
 * the return address registered with the warehouse, so no return_* fields are sent.
 */
function shipment(request: BookingRequest, mode: ModeId) {
  const customer = request.customer
  const reverse = request.direction === 'REVERSE'
  const cod = !reverse && request.collectAmount > 0n
  const hsnCodes = [...new Set(request.items.map((item) => item.hsnCode).filter((code): code is string => code !== null && code !== ''))]
  return {
    name: customer.name,
    add: [customer.line1, customer.line2, customer.landmark].map((part) => part.trim()).filter((part) => part !== '').join(', '),
    pin: customer.pincode,
    city: customer.city,
    state: customer.state,
    country: 'India',
    phone: mobile(customer.phone),
    order: request.shipmentId,
    payment_mode: reverse ? 'Pickup' : cod ? 'COD' : 'Prepaid',
    products_desc: request.items.map((item) => `${item.name} x ${item.quantity}`).join(', '),
    ...(hsnCodes.length > 0 ? { hsn_code: hsnCodes.join(',') } : {}),
    cod_amount: cod ? rupees(request.collectAmount) : 0,
    order_date: istParts(request.orderDate).date,
    total_amount: rupees(request.declaredValue),
    quantity: request.items.reduce((units, item) => units + item.quantity, 0),
    ...(request.invoiceNumber ? { seller_inv: request.invoiceNumber } : {}),
    ...(request.ewayBillNo ? { ewbn: request.ewayBillNo } : {}),
    waybill: '',
    weight: grams(request.weightGrams),
    shipment_length: request.dimensionsCm.length,
    shipment_width: request.dimensionsCm.breadth,
    shipment_height: request.dimensionsCm.height,
    shipping_mode: DELHIVERY_MODES[mode].shippingMode,
  }
}

/** The NDR API's actions for a re-attempt: the corrected details first, then when to deliver. */
function ndrActions(awb: string, request: NdrRequest) {
  const details = { ...(request.addressLine ? { add: request.addressLine } : {}), ...(request.phone ? { phone: request.phone } : {}) }
  return [
    ...(Object.keys(details).length > 0 ? [{ waybill: awb, act: 'EDIT_DETAILS', action_data: details }] : []),
    request.deferredDate ? { waybill: awb, act: 'DEFER_DLV', action_data: { deferred_date: request.deferredDate } } : { waybill: awb, act: 'RE-ATTEMPT' },
  ]
}

function textOrNull(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value)
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** The endpoint a path calls, without its query (an AWB, pincodes): what errors name. */
function pathOnly(path: string): string {
  return path.split('?')[0]!
}

function cut(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat === '') return 'no details'
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE)}…` : flat
}

/** Delhivery answers errors in several shapes: {rmk}, {remark}, {error}, {detail}, {message}, or a plain text. */
function describeError(text: string): string {
  let description = text
  try {
    const parsed = JSON.parse(text) as unknown
    if (isRecord(parsed)) {
      const error = isRecord(parsed.error) ? parsed.error.message : parsed.error
      const said = [parsed.rmk, parsed.remark, error, parsed.detail, parsed.message].find((v): v is string => typeof v === 'string' && v.trim() !== '')
      if (said !== undefined) description = said
    }
  } catch {
    // Not JSON: quote the start of the text.
  }
  return cut(description)
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return `${error.message}${cause}`
}
