// The Shiprocket carrier (issue #24): an Indian shipping aggregator that books the parcel with one of
// its couriers. Forward parcels are adhoc orders, reverse pickups are return orders; each then gets an
// AWB (and, forward, a label). Talks to the REST API with a bearer token obtained by logging in with
// the API user's email and password, cached in memory for 9 of its 10 days and renewed once on a 401.
// Tracking arrives on Shiprocket's webhook, which is not signed: it carries the token configured in
// the panel in `x-api-key`. Every call has a timeout, and every failure becomes a CarrierError whose
// message never carries the password, a bearer token or a webhook token. Amounts are integer paise
// here and rupee numbers (999.99) only in the bodies sent.
import { createHash } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { type Clock, systemClock } from '../../../lib/clock.ts'
import { safeEqual } from '../../../lib/hashing.ts'
import { formatPaise, lineTotal, sumPaise } from '../../../lib/money.ts'
import { normalizeIndianMobile } from '../../../lib/phone.ts'
import { isRecord } from '../../../lib/json.ts'
import {
  type BookedShipment,
  type BookingRequest,
  type Carrier,
  type CarrierAddress,
  CarrierError,
  type CourierRate,
  type NdrRequest,
  type PickupRequested,
  type RateRequest,
  CarrierPayloadError,
  CarrierSignatureError,
  isRefusal,
  type TrackingEvent,
  type TrackingStatus,
} from './types.ts'

/** The header Shiprocket's tracking webhook carries the panel's token in. */
export const SHIPROCKET_WEBHOOK_TOKEN_HEADER = 'x-api-key'
export const SHIPROCKET_DEFAULT_API_BASE = 'https://apiv2.shiprocket.in'
/** The bound of every Shiprocket call (`SHIPROCKET_TIMEOUT_MS`). */
const DEFAULT_TIMEOUT_MS = 5_000
/** Shiprocket's tokens last 10 days; one older than 9 is replaced before it is used. */
export const SHIPROCKET_TOKEN_REFRESH_AFTER_MS = 9 * 24 * 60 * 60 * 1000
/** Shiprocket's messages are quoted in our errors, cut to this length. */
const MAX_MESSAGE = 200
/** Shiprocket's published limit of billing_city (and, the same field, pickup_city): longer names are cut. */
export const SHIPROCKET_CITY_MAX = 30
/** India Standard Time, which every Shiprocket time without an offset is in. */
const IST_OFFSET_MS = 330 * 60 * 1000

const PATHS = {
  login: '/v1/external/auth/login',
  createForward: '/v1/external/orders/create/adhoc',
  createReturn: '/v1/external/orders/create/return',
  assignAwb: '/v1/external/courier/assign/awb',
  label: '/v1/external/courier/generate/label',
  cancel: '/v1/external/orders/cancel/shipment/awbs',
  track: '/v1/external/courier/track/awb/',
  pickupLocations: '/v1/external/settings/company/pickup',
  pickup: '/v1/external/courier/generate/pickup',
  serviceability: '/v1/external/courier/serviceability/',
  ndrAction: (awb: string) => `/v1/external/ndr/${encodeURIComponent(awb)}/action`,
} as const

/**
 * Shiprocket's shipment status ids (`shipment_status_id` in the webhook, `sr-status` in scans,
 * `shipment_status` in tracking) and what each means for our shipment. Ids and labels are
 * Shiprocket's published list; `null` means the shipment has no status for it (before pickup,
 * paperwork, or a state that needs a person: a partial delivery), and the event gives [].
 * Returns to origin have one status of ours for the whole trip back (RTO_INITIATED) until RTO_DELIVERED.
 */
export const SHIPROCKET_STATUSES: Readonly<Record<number, { label: string; status: TrackingStatus | null }>> = {
  1: { label: 'AWB Assigned', status: null },
  2: { label: 'Label Generated', status: null },
  3: { label: 'Pickup Scheduled/Generated', status: null },
  4: { label: 'Pickup Queued', status: null },
  5: { label: 'Manifest Generated', status: null },
  6: { label: 'Shipped', status: 'IN_TRANSIT' },
  7: { label: 'Delivered', status: 'DELIVERED' },
  8: { label: 'Canceled', status: 'CANCELLED' },
  9: { label: 'RTO Initiated', status: 'RTO_INITIATED' },
  10: { label: 'RTO Delivered', status: 'RTO_DELIVERED' },
  11: { label: 'Pending', status: null },
  // Lost or untraceable; destroyed, damaged or disposed of: the parcel's journey ends there, and the
  // back office resolves it (reship or refund, decision 0030) while the merchant claims from Shiprocket.
  12: { label: 'Lost', status: 'LOST' },
  13: { label: 'Pickup Error', status: null },
  14: { label: 'RTO Acknowledged', status: 'RTO_INITIATED' },
  15: { label: 'Pickup Rescheduled', status: null },
  // Requested is not done: Canceled (8) follows when Shiprocket confirms.
  16: { label: 'Cancellation Requested', status: null },
  17: { label: 'Out For Delivery', status: 'OUT_FOR_DELIVERY' },
  18: { label: 'In Transit', status: 'IN_TRANSIT' },
  19: { label: 'Out For Pickup', status: null },
  20: { label: 'Pickup Exception', status: null },
  21: { label: 'Undelivered', status: 'DELIVERY_FAILED' },
  // Still moving, late: in transit (the shipment never moves backwards, so after OUT_FOR_DELIVERY it is recorded only).
  22: { label: 'Delayed', status: 'IN_TRANSIT' },
  // Some packages of a multi-package shipment delivered: not DELIVERED (the rest are not), for a person.
  23: { label: 'Partial Delivered', status: null },
  24: { label: 'Destroyed', status: 'DAMAGED' },
  25: { label: 'Damaged', status: 'DAMAGED' },
  // Shiprocket's own bookkeeping after Delivered (7), which is what we act on.
  26: { label: 'Fulfilled', status: null },
  27: { label: 'Pickup Booked', status: null },
  38: { label: 'Reached At Destination Hub', status: 'IN_TRANSIT' },
  39: { label: 'Misrouted', status: 'IN_TRANSIT' },
  40: { label: 'RTO NDR', status: 'RTO_INITIATED' },
  41: { label: 'RTO OFD', status: 'RTO_INITIATED' },
  42: { label: 'Picked Up', status: 'IN_TRANSIT' },
  43: { label: 'Self Fulfilled', status: null },
  44: { label: 'Disposed Off', status: 'DAMAGED' },
  45: { label: 'Cancelled Before Dispatched', status: 'CANCELLED' },
  46: { label: 'RTO In Transit', status: 'RTO_INITIATED' },
  47: { label: 'QC Failed', status: null },
  48: { label: 'Reached Warehouse', status: null },
  50: { label: 'In Flight', status: 'IN_TRANSIT' },
  51: { label: 'Handover To Courier', status: 'IN_TRANSIT' },
  52: { label: 'Shipment Booked', status: null },
  75: { label: 'RTO Lock', status: 'RTO_INITIATED' },
  76: { label: 'Untraceable', status: 'LOST' },
  // A non-delivery report whose reason is the recipient (not reachable, refused, wrong address).
  77: { label: 'Issue Related To The Recipient', status: 'DELIVERY_FAILED' },
  78: { label: 'Reached Back At Seller City', status: 'RTO_INITIATED' },
}

const STATUS_ID_BY_LABEL = new Map(Object.entries(SHIPROCKET_STATUSES).map(([id, { label }]) => [labelKey(label), Number(id)]))

export interface ShiprocketOptions {
  /** The API user's email and password (Settings > API in the Shiprocket panel). */
  email: string
  password: string
  /** The token configured with the webhook in the panel, sent back in `x-api-key`. */
  webhookToken: string
  /** The token being replaced, accepted as well while a rotation is under way. */
  previousWebhookToken?: string | null
  /** Without a trailing slash; default https://apiv2.shiprocket.in */
  apiBase?: string
  /** The nickname of the pickup location (the warehouse) in the Shiprocket panel. */
  pickupLocation: string
  /** The Shiprocket channel the orders belong to; unset: the account's custom channel. */
  channelId?: string | null
  timeoutMs?: number
  fetch?: typeof fetch
  /** For the token's age. */
  clock?: Clock
}

/** The parts of Shiprocket's answers that we read. */
interface CreatedOrder {
  order_id?: number | string
  shipment_id?: number | string
}
interface AwbAnswer {
  awb_assign_status?: number
  response?: { data?: { awb_code?: string | number; courier_name?: string | null; shipment_id?: number | string; etd?: string | null; awb_assign_error?: string } }
  message?: string
}
interface ServiceabilityAnswer {
  status?: number
  message?: string
  data?: {
    available_courier_companies?: {
      courier_company_id?: number | string
      courier_name?: string
      rate?: number | string
      estimated_delivery_days?: number | string | null
      blocked?: number
      cod?: number
    }[]
    recommended_courier_company_id?: number | string | null
  }
}
interface PickupAnswer {
  pickup_status?: number
  response?: { pickup_scheduled_date?: string | null; pickup_token_number?: string | number | null; data?: unknown }
  message?: string
}
interface PickupLocation {
  pickup_location?: string
  name?: string
  email?: string
  phone?: string | number
  address?: string
  address_2?: string | null
  city?: string
  state?: string
  country?: string
  pin_code?: string | number
}
interface TrackActivity {
  date?: string
  status?: string
  activity?: string
  location?: string
  'sr-status'?: string | number
  'sr-status-label'?: string
}
interface TrackAnswer {
  tracking_data?: {
    track_status?: number
    shipment_status?: number | string
    shipment_track?: { current_status?: string; delivered_date?: string | null; edd?: string | null; destination?: string | null }[] | null
    shipment_track_activities?: TrackActivity[] | null
    etd?: string | null
    error?: string
  }
}
interface WebhookBody {
  awb?: unknown
  current_status?: unknown
  current_status_id?: unknown
  shipment_status?: unknown
  shipment_status_id?: unknown
  current_timestamp?: unknown
  etd?: unknown
  scans?: unknown
  is_return?: unknown
}

/**
 * Shiprocket's REST API: one login shared by concurrent calls, kept 9 days and renewed once on a
 * 401; every answer read as JSON or refused as a CarrierError, with our credentials never quoted.
 */
class ShiprocketApi {
  readonly #fetch: typeof fetch
  readonly #timeoutMs: number
  readonly #apiBase: string
  readonly #clock: Clock
  readonly #email: string
  readonly #password: string
  readonly #otherSecrets: string[]
  /** Every bearer token this process was given, so that none is ever quoted back. */
  readonly #issuedTokens = new Set<string>()
  #session: { token: string; obtainedAt: number } | null = null
  #loggingIn: Promise<string> | null = null

  constructor(options: ShiprocketOptions, otherSecrets: string[]) {
    this.#fetch = options.fetch ?? fetch
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.#apiBase = (options.apiBase ?? SHIPROCKET_DEFAULT_API_BASE).replace(/\/+$/, '')
    this.#clock = options.clock ?? systemClock
    this.#email = options.email
    this.#password = options.password
    this.#otherSecrets = otherSecrets
  }

  /** Whatever Shiprocket or the network said, without our credentials in it. */
  redact(text: string): string {
    return [this.#password, ...this.#issuedTokens, ...this.#otherSecrets].reduce((out, secret) => (secret ? out.replaceAll(secret, '[redacted]') : out), text)
  }

  /** An authenticated call; a 401 (token revoked or expired early) logs in again once and retries once. */
  async call<T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
    let token = await this.#currentToken()
    let answer = await this.#send(method, path, body, token)
    if (answer.status === 401) {
      // Another call may have renewed it meanwhile: then its token is used, with no second login.
      if (this.#session?.token === token) this.#session = null
      token = await this.#currentToken()
      answer = await this.#send(method, path, body, token)
    }
    return this.#read<T>(method, path, answer)
  }

  /** One HTTP exchange, bounded by the timeout; a network failure or a timeout is a CarrierError. */
  async #send(method: 'GET' | 'POST', path: string, body: object | undefined, token: string | null): Promise<{ status: number; text: string }> {
    try {
      const response = await this.#fetch(`${this.#apiBase}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.#timeoutMs),
      })
      return { status: response.status, text: await response.text() }
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError'
      const detail = timedOut ? `timed out after ${this.#timeoutMs} ms` : `could not be reached (${errorText(error)})`
      throw new CarrierError(this.redact(`Shiprocket ${method} ${path} ${detail}`))
    }
  }

  /** The answer as JSON, or a CarrierError for an error status, a body that is not JSON, or an error body under a 2xx. */
  #read<T>(method: string, path: string, answer: { status: number; text: string }): T {
    const what = `Shiprocket ${method} ${path}`
    if (answer.status < 200 || answer.status > 299) throw new CarrierError(this.redact(`${what} answered ${answer.status}: ${describeError(answer.text)}`))
    let parsed: unknown
    try {
      parsed = JSON.parse(answer.text)
    } catch {
      throw new CarrierError(`${what} answered ${answer.status} with a body that is not JSON`)
    }
    // Some of Shiprocket's refusals come as 200 with the error's status inside.
    const inner = isRecord(parsed) ? parsed.status_code : undefined
    if (typeof inner === 'number' && inner >= 400) throw new CarrierError(this.redact(`${what} answered ${answer.status} with status_code ${inner}: ${describeError(answer.text)}`))
    return parsed as T
  }

  async #login(): Promise<string> {
    const answer = await this.#send('POST', PATHS.login, { email: this.#email, password: this.#password }, null)
    const body = this.#read<{ token?: unknown }>('POST', PATHS.login, answer)
    if (typeof body?.token !== 'string' || body.token === '') throw new CarrierError(`Shiprocket POST ${PATHS.login} answered without a token`)
    this.#issuedTokens.add(body.token)
    return body.token
  }

  /** The cached token while it is younger than 9 days; otherwise one login, shared by concurrent callers. */
  #currentToken(): Promise<string> {
    const session = this.#session
    if (session && this.#clock.now().getTime() - session.obtainedAt < SHIPROCKET_TOKEN_REFRESH_AFTER_MS) return Promise.resolve(session.token)
    this.#loggingIn ??= this.#login()
      .then((token) => {
        this.#session = { token, obtainedAt: this.#clock.now().getTime() }
        return token
      })
      .finally(() => {
        this.#loggingIn = null
      })
    return this.#loggingIn
  }
}

/** Shiprocket as a carrier: bookings, rates, pickups, NDR actions, cancellations, callbacks and tracking. */
class ShiprocketCarrier implements Carrier {
  readonly name = 'shiprocket'
  readonly #options: ShiprocketOptions
  readonly #webhookTokens: string[]
  readonly #api: ShiprocketApi
  readonly #warehouses = new Map<string, Promise<PickupLocation>>()

  constructor(options: ShiprocketOptions) {
    this.#options = options
    this.#webhookTokens = [options.webhookToken, options.previousWebhookToken].filter((t): t is string => typeof t === 'string' && t !== '')
    if (this.#webhookTokens.length === 0) throw new Error('Shiprocket needs a webhook token')
    this.#api = new ShiprocketApi(options, this.#webhookTokens)
  }

  async book(request: BookingRequest): Promise<BookedShipment> {
    // Shiprocket requires an e-mail on both ends: a customer without one is billed under the
    // merchant's, the pickup location's in the panel (decision 0030).
    const merchant = request.direction === 'REVERSE' || request.customer.email === null ? await this.#warehouseAddress(request.origin?.pickupName ?? this.#options.pickupLocation) : null
    const path = request.direction === 'FORWARD' ? PATHS.createForward : PATHS.createReturn
    const created = await this.#api.call<CreatedOrder>('POST', path, request.direction === 'FORWARD' ? forwardOrder(request, this.#options, merchant) : returnOrder(request, this.#options, merchant!))
    if ((typeof created?.shipment_id !== 'number' && typeof created?.shipment_id !== 'string') || String(created.shipment_id) === '') {
      throw new CarrierError(`Shiprocket POST ${path} answered without a shipment_id`)
    }
    const shipmentId = String(created.shipment_id)
    const { awb, courierName, etd } = await this.#assignAwb(shipmentId, request.direction, request.courierId)
    // A reverse pickup's label is the courier's business: the customer has nothing to print.
    const labelUrl = request.direction === 'FORWARD' ? await this.#label(shipmentId) : null
    return { awb, carrierShipmentId: shipmentId, courierName, trackingUrl: shiprocketTrackingUrl(awb), labelUrl, expectedDeliveryDate: etd }
  }

  async rates(request: RateRequest): Promise<CourierRate[]> {
    const reverse = request.direction === 'REVERSE'
    // A parcel from or back to a stock location is quoted from or to its pincode (decision 0043); anything else the configured warehouse's.
    const warehousePincode = request.originPincode ? request.originPincode : String((await this.#warehouseAddress(this.#options.pickupLocation)).pin_code ?? '')
    const query = new URLSearchParams({
      pickup_postcode: reverse ? request.customerPincode : warehousePincode,
      delivery_postcode: reverse ? warehousePincode : request.customerPincode,
      cod: request.collectAmount > 0n ? '1' : '0',
      weight: String(kilograms(request.weightGrams)),
      length: String(request.dimensionsCm.length),
      breadth: String(request.dimensionsCm.breadth),
      height: String(request.dimensionsCm.height),
      declared_value: String(rupees(request.declaredValue)),
      ...(reverse ? { is_return: '1' } : {}),
    })
    let answer: ServiceabilityAnswer
    try {
      answer = await this.#api.call<ServiceabilityAnswer>('GET', `${PATHS.serviceability}?${query}`)
    } catch (error) {
      // No courier for the pincodes is Shiprocket's 404, not an outage.
      if (error instanceof CarrierError && / answered 404\b/.test(error.message)) return []
      throw error
    }
    return courierRates(answer)
  }

  /** Shiprocket's NDR action: re-attempt (with a date, address or phone) or return to origin. */
  async ndrAction(shipment: { awb: string }, request: NdrRequest): Promise<void> {
    await this.#api.call<unknown>('POST', PATHS.ndrAction(shipment.awb), {
      action: request.action === 'REATTEMPT' ? 're-attempt' : 'return',
      comments: request.note ?? (request.action === 'REATTEMPT' ? 'Please deliver again' : 'Return to origin'),
      ...(request.deferredDate ? { deferred_date: request.deferredDate } : {}),
      ...(request.addressLine ? { address1: request.addressLine } : {}),
      ...(request.phone ? { phone: request.phone } : {}),
    })
  }

  async requestPickup(shipment: { awb: string; carrierShipmentId: string | null }): Promise<PickupRequested> {
    if (shipment.carrierShipmentId === null) throw new CarrierError(`Shipment ${shipment.awb} has no Shiprocket shipment_id to ask a pickup for`)
    let answer: PickupAnswer
    try {
      answer = await this.#api.call<PickupAnswer>('POST', PATHS.pickup, { shipment_id: [Number(shipment.carrierShipmentId)] })
    } catch (error) {
      // Asked twice (a retry after a lost answer, or another node): the pickup stands.
      if (error instanceof CarrierError && /already in pickup queue/i.test(error.message)) return { scheduledAt: null, reference: null }
      throw error
    }
    if (answer?.pickup_status !== 1) throw new CarrierError(this.#api.redact(`Shiprocket POST ${PATHS.pickup} scheduled no pickup: ${cut(String(answer?.message ?? 'pickup_status is not 1'))}`))
    const token = answer.response?.pickup_token_number
    return {
      scheduledAt: parseShiprocketTime(answer.response?.pickup_scheduled_date),
      reference: (typeof token === 'string' && token.trim() !== '') || typeof token === 'number' ? String(token).trim() : null,
    }
  }

  async cancel(shipment: { awb: string }): Promise<void> {
    await this.#api.call<unknown>('POST', PATHS.cancel, { awbs: [shipment.awb] })
  }

  parseWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): TrackingEvent[] {
    const presented = headerValue(headers, SHIPROCKET_WEBHOOK_TOKEN_HEADER)
    if (presented === undefined) throw new CarrierSignatureError(`Missing ${SHIPROCKET_WEBHOOK_TOKEN_HEADER} token`)
    // Every configured token is compared, so the time taken says nothing about which one matched.
    const matches = this.#webhookTokens.map((token) => safeEqual(token, presented))
    if (!matches.includes(true)) throw new CarrierSignatureError(`The ${SHIPROCKET_WEBHOOK_TOKEN_HEADER} token does not match`)
    let body: WebhookBody
    try {
      body = JSON.parse(rawBody.toString('utf8')) as WebhookBody
    } catch {
      throw new CarrierPayloadError('Shiprocket webhook body is not JSON')
    }
    return webhookEvents(body)
  }

  async track(awb: string): Promise<TrackingEvent[]> {
    const path = `${PATHS.track}${encodeURIComponent(awb)}`
    const data = (await this.#api.call<TrackAnswer>('GET', path))?.tracking_data
    if (!isRecord(data)) throw new CarrierError(`Shiprocket GET ${path} answered without tracking_data`)
    return trackedEvents(awb, data)
  }

  /**
   * A pickup location's address (the warehouse a reverse pickup goes to: the configured one, or a
   * stock location's), read once per name from the panel's settings.
   */
  #warehouseAddress(name: string): Promise<PickupLocation> {
    const setting = name === this.#options.pickupLocation ? ' (SHIPROCKET_PICKUP_LOCATION)' : " (the stock location's pickupName)"
    const pending =
      this.#warehouses.get(name) ??
      this.#api.call<{ data?: { shipping_address?: PickupLocation[] } }>('GET', PATHS.pickupLocations).then((answer) => {
        const found = (answer?.data?.shipping_address ?? []).find((l) => l.pickup_location === name)
        if (!found) throw new CarrierError(`Shiprocket has no pickup location named "${name}"${setting}`)
        return found
      })
    this.#warehouses.set(name, pending)
    // A failed read is asked again by the next booking.
    pending.catch(() => {
      if (this.#warehouses.get(name) === pending) this.#warehouses.delete(name)
    })
    return pending
  }

  async #assignAwb(shipmentId: string, direction: BookingRequest['direction'], courierId: string | null) {
    const answer = await this.#api.call<AwbAnswer>('POST', PATHS.assignAwb, {
      shipment_id: shipmentId,
      ...(courierId !== null ? { courier_id: Number(courierId) } : {}),
      ...(direction === 'REVERSE' ? { is_return: 1 } : {}),
    })
    const data = answer?.response?.data
    const awb = data?.awb_code
    if (answer?.awb_assign_status !== 1 || (typeof awb !== 'string' && typeof awb !== 'number') || String(awb) === '') {
      const reason = data?.awb_assign_error ?? answer?.message ?? 'no AWB in the answer'
      throw new CarrierError(this.#api.redact(`Shiprocket POST ${PATHS.assignAwb} assigned no AWB: ${cut(String(reason))}`))
    }
    return { awb: String(awb), courierName: typeof data?.courier_name === 'string' && data.courier_name !== '' ? data.courier_name : null, etd: istDate(data?.etd) }
  }

  /** The label, or null when Shiprocket cannot make one now: the AWB is booked, and we render a label of our own. */
  async #label(shipmentId: string): Promise<string | null> {
    try {
      const answer = await this.#api.call<{ label_created?: number; label_url?: unknown }>('POST', PATHS.label, { shipment_id: [shipmentId] })
      return answer?.label_created === 1 && typeof answer.label_url === 'string' && answer.label_url !== '' ? answer.label_url : null
    } catch (error) {
      if (error instanceof CarrierError) return null
      throw error
    }
  }
}

export function createShiprocketCarrier(options: ShiprocketOptions): Carrier {
  return new ShiprocketCarrier(options)
}

/** The couriers of a serviceability answer that can take the parcel, with their charges. */
function courierRates(answer: ServiceabilityAnswer): CourierRate[] {
  const recommended = answer?.data?.recommended_courier_company_id
  return (answer?.data?.available_courier_companies ?? []).flatMap((c): CourierRate[] => {
    const id = c.courier_company_id
    const charge = rupeesToPaise(c.rate)
    if ((typeof id !== 'number' && typeof id !== 'string') || String(id) === '' || charge === null || c.blocked === 1) return []
    return [{ courierId: String(id), courierName: textOrNull(c.courier_name) ?? `Courier ${id}`, charge, estimatedDays: daysOf(c.estimated_delivery_days), recommended: recommended !== undefined && recommended !== null && String(recommended) === String(id) }]
  })
}

/** A verified callback's event: [] for a status the parcel does not take; CarrierPayloadError when it cannot be read. */
function webhookEvents(body: WebhookBody): TrackingEvent[] {
  if (!isRecord(body)) throw new CarrierPayloadError('Shiprocket webhook body is not an object')
  const awb = awbOf(body.awb)
  if (awb === null) throw new CarrierPayloadError('Shiprocket webhook has no awb')
  // shipment_status_id is the list above; current_status_id is another numbering (Shiprocket's own
  // sample sends IN TRANSIT as current_status_id 20, shipment_status_id 18), so it is not read.
  // A return (is_return 1) moves through the same statuses: DELIVERED is then back at the warehouse.
  const statusId = statusIdOf(body.shipment_status_id) ?? statusIdByLabel(body.shipment_status)
  if (statusId === null) throw new CarrierPayloadError(`Shiprocket webhook for AWB ${awb} has no shipment status`)
  const status = SHIPROCKET_STATUSES[statusId]?.status ?? null
  if (status === null) return []
  const occurredAt = parseShiprocketTime(body.current_timestamp)
  if (occurredAt === null) throw new CarrierPayloadError(`Shiprocket webhook for AWB ${awb} has no readable current_timestamp`)
  const scan = latestScan(body.scans)
  const note = scan?.activity ?? (typeof body.current_status === 'string' && body.current_status !== '' ? body.current_status : null)
  return [
    {
      eventId: shiprocketEventId(awb, statusId, occurredAt),
      awb,
      status,
      occurredAt,
      location: scan?.location ?? null,
      note,
      expectedDeliveryDate: istDate(body.etd),
      refused: status === 'DELIVERY_FAILED' && isRefusal(note),
    },
  ]
}

/** The events of a tracking answer's scans, oldest first, with the current status when no scan carried it. */
function trackedEvents(awb: string, data: NonNullable<TrackAnswer['tracking_data']>): TrackingEvent[] {
  const current = Array.isArray(data.shipment_track) ? data.shipment_track[0] : undefined
  const expectedDeliveryDate = istDate(data.etd) ?? istDate(current?.edd)
  const activities = Array.isArray(data.shipment_track_activities) ? data.shipment_track_activities : []

  const events = new Map<string, TrackingEvent>()
  const add = (statusId: number | null, occurredAt: Date | null, location: unknown, note: unknown) => {
    const status = statusId === null ? null : (SHIPROCKET_STATUSES[statusId]?.status ?? null)
    if (statusId === null || status === null || occurredAt === null) return
    const eventId = shiprocketEventId(awb, statusId, occurredAt)
    const text = textOrNull(note)
    if (!events.has(eventId)) events.set(eventId, { eventId, awb, status, occurredAt, location: textOrNull(location), note: text, expectedDeliveryDate, refused: status === 'DELIVERY_FAILED' && isRefusal(text) })
  }
  for (const activity of activities) {
    if (!isRecord(activity)) continue
    add(statusIdOf(activity['sr-status']) ?? statusIdByLabel(activity['sr-status-label']), parseShiprocketTime(activity.date), activity.location, activity.activity)
  }
  // The shipment's current status, when no scan carried it (couriers whose scans have no sr-status):
  // dated by its delivery, or else by the latest scan.
  const currentId = statusIdOf(data.shipment_status) ?? statusIdByLabel(current?.current_status)
  const currentStatus = currentId === null ? null : (SHIPROCKET_STATUSES[currentId]?.status ?? null)
  if (currentStatus !== null && ![...events.values()].some((e) => e.status === currentStatus)) {
    const latest = activities.map((a) => (isRecord(a) ? parseShiprocketTime(a.date) : null)).reduce<Date | null>((max, d) => (d && (!max || d > max) ? d : max), null)
    const delivered = currentStatus === 'DELIVERED' || currentStatus === 'RTO_DELIVERED' ? parseShiprocketTime(current?.delivered_date) : null
    add(currentId, delivered ?? latest, currentStatus === 'DELIVERED' ? current?.destination : null, current?.current_status)
  }
  return [...events.values()].sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime())
}

/** The public tracking page of an AWB. */
export function shiprocketTrackingUrl(awb: string): string {
  return `https://shiprocket.co/tracking/${encodeURIComponent(awb)}`
}

/**
 * The same update always has the same id, whether it came by webhook (again) or by tracking: the
 * AWB, Shiprocket's status id and the moment, as an instant (the webhook and the scans write it differently).
 */
export function shiprocketEventId(awb: string, statusId: number, occurredAt: Date): string {
  return createHash('sha256').update(`shiprocket|${awb}|${statusId}|${occurredAt.toISOString()}`).digest('hex')
}

/**
 * A Shiprocket time as an instant. Shiprocket writes India Standard Time without an offset, as
 * "23 05 2023 11:43:52" (the webhook's current_timestamp) or "2023-05-23 11:43:52" (scans, etd);
 * a time with an explicit offset or Z is taken as it says. Null when unreadable or impossible.
 */
export function parseShiprocketTime(value: unknown): Date | null {
  if (typeof value !== 'string') return null
  const text = value.trim()
  const dayFirst = /^(\d{2})[ /-](\d{2})[ /-](\d{4})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text)
  const yearFirst = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/.exec(text)
  const parts = dayFirst
    ? [dayFirst[3], dayFirst[2], dayFirst[1], dayFirst[4], dayFirst[5], dayFirst[6]]
    : yearFirst
      ? [yearFirst[1], yearFirst[2], yearFirst[3], yearFirst[4], yearFirst[5], yearFirst[6]]
      : null
  if (!parts) {
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/i.test(text)) return null
    const instant = new Date(text)
    return Number.isNaN(instant.getTime()) ? null : instant
  }
  const [year, month, day, hour, minute, second] = parts.map((p) => Number(p ?? 0)) as [number, number, number, number, number, number]
  const local = Date.UTC(year, month - 1, day, hour, minute, second)
  const check = new Date(local)
  // Date.UTC rolls 31 April over into May: an impossible date is refused, not moved.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null
  return new Date(local - IST_OFFSET_MS)
}

/** The calendar date (YYYY-MM-DD) in India of a Shiprocket time, e.g. an etd; null when there is none. */
function istDate(value: unknown): string | null {
  const instant = parseShiprocketTime(value)
  return instant === null ? null : new Date(instant.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10)
}

/** "YYYY-MM-DD HH:mm" in India, as Shiprocket's order_date. */
function istDateTime(instant: Date): string {
  return new Date(instant.getTime() + IST_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ')
}

/** Paise as the rupee number Shiprocket reads: 99999n is 999.99 (JSON writes the shortest decimal, exactly these digits). */
const rupees = (paise: bigint) => Number(formatPaise(paise))

/** A rupee amount Shiprocket answered (87.5, "87.50") as paise, to the nearest paisa; null when it is none. */
function rupeesToPaise(value: unknown): bigint | null {
  const text = typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value.toFixed(2) : typeof value === 'string' ? value.trim() : null
  const match = text === null ? null : /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text)
  return match ? BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0')) : null
}

/** Shiprocket's estimated_delivery_days ("3", 3, "3 - 4"): the longer end; null when unreadable. */
function daysOf(value: unknown): number | null {
  const numbers = String(value ?? '').match(/\d+/g)?.map(Number) ?? []
  return numbers.length > 0 && numbers.length <= 2 ? Math.max(...numbers) : null
}

/** Grams as kilograms, exactly to the gram: 1250 is 1.25. */
function kilograms(grams: number): number {
  if (!Number.isSafeInteger(grams) || grams <= 0) throw new CarrierError(`A weight of ${grams} g cannot be sent to Shiprocket`)
  return Number(`${Math.trunc(grams / 1000)}.${String(grams % 1000).padStart(3, '0')}`)
}

/** Shiprocket wants the bare 10-digit mobile. */
const mobile = (phone: string) => normalizeIndianMobile(phone) ?? phone.replace(/\D/g, '').slice(-10)

const secondLine = (address: CarrierAddress) => [address.line2, address.landmark].filter((part) => part.trim() !== '').join(', ')

/** A city as Shiprocket takes it: at most 30 characters, cut at a word when one ends near enough. */
export function shiprocketCity(city: string): string {
  const flat = city.replace(/\s+/g, ' ').trim()
  if (flat.length <= SHIPROCKET_CITY_MAX) return flat
  const cut = flat.slice(0, SHIPROCKET_CITY_MAX)
  if (flat[SHIPROCKET_CITY_MAX] === ' ') return cut
  const space = cut.lastIndexOf(' ')
  return (space >= SHIPROCKET_CITY_MAX / 2 ? cut.slice(0, space) : cut).trim()
}

function orderItems(request: BookingRequest) {
  return request.items.map((item) => ({
    name: item.name,
    sku: item.sku,
    units: item.quantity,
    selling_price: rupees(item.unitPrice),
    ...(item.hsnCode ? { hsn: item.hsnCode } : {}),
    // The GST rate in per cent (tax-inclusive prices: Shiprocket prints it on its invoice).
    ...(item.gstRateBps !== null ? { tax: item.gstRateBps / 100 } : {}),
  }))
}

/** The paperwork the goods travel with, when there is some. */
function documents(request: BookingRequest) {
  return { ...(request.invoiceNumber ? { invoice_number: request.invoiceNumber } : {}), ...(request.ewayBillNo ? { ewaybill_no: request.ewayBillNo } : {}) }
}

/**
 * The order's amounts. Shiprocket's order total is sub_total + shipping_charges - total_discount:
 * for COD it is what the courier collects, otherwise the parcel's value (invoice, insurance). The
 * lines are at their prices, so the difference to the amount we mean goes in as a discount (coupons,
 * wallet, points, a part paid online) or as a charge (shipping, COD fee).
 */
function amounts(request: BookingRequest, cod: boolean) {
  const subTotal = sumPaise(request.items.map((item) => lineTotal(item.unitPrice, item.quantity)))
  const total = cod ? request.collectAmount : request.declaredValue
  const difference = total - subTotal
  return {
    sub_total: rupees(subTotal),
    shipping_charges: rupees(difference > 0n ? difference : 0n),
    total_discount: rupees(difference < 0n ? -difference : 0n),
  }
}

function parcel(request: BookingRequest) {
  const { length, breadth, height } = request.dimensionsCm
  return { length, breadth, height, weight: kilograms(request.weightGrams) }
}

/** The customer's e-mail, or the merchant's (the pickup location's) for a customer without one. */
function emailOf(request: BookingRequest, merchant: PickupLocation | null): string {
  const email = request.customer.email ?? (typeof merchant?.email === 'string' && merchant.email.trim() !== '' ? merchant.email.trim() : null)
  if (email === null) throw new CarrierError(`Shiprocket requires an e-mail: the customer has none, and the pickup location "${merchant?.pickup_location ?? ''}" has none to fall back on`)
  return email
}

/**
 * The e-mail a return goes to (Shiprocket requires one): the pickup location's, else the customer's
 * (who is returning the parcel); neither is a CarrierError naming what to set, never an empty field.
 */
function warehouseEmail(request: BookingRequest, warehouse: PickupLocation): string {
  const own = typeof warehouse.email === 'string' ? warehouse.email.trim() : ''
  if (own !== '') return own
  if (request.customer.email) return request.customer.email
  throw new CarrierError(`Shiprocket requires an e-mail for the return's destination: the pickup location "${warehouse.pickup_location ?? ''}" has none (set it in the Shiprocket panel), and the customer has none`)
}

function forwardOrder(request: BookingRequest, options: ShiprocketOptions, merchant: PickupLocation | null) {
  const customer = request.customer
  const cod = request.collectAmount > 0n
  return {
    order_id: request.shipmentId,
    order_date: istDateTime(request.orderDate),
    pickup_location: request.origin?.pickupName ?? options.pickupLocation,
    ...(options.channelId ? { channel_id: options.channelId } : {}),
    comment: `Order ${request.orderNumber}`,
    billing_customer_name: customer.name,
    billing_last_name: '',
    billing_address: customer.line1,
    billing_address_2: secondLine(customer),
    billing_city: shiprocketCity(customer.city),
    billing_pincode: customer.pincode,
    billing_state: customer.state,
    billing_country: 'India',
    billing_email: emailOf(request, merchant),
    billing_phone: mobile(customer.phone),
    shipping_is_billing: true,
    order_items: orderItems(request),
    payment_method: cod ? 'COD' : 'Prepaid',
    ...amounts(request, cod),
    ...parcel(request),
    ...documents(request),
  }
}

function returnOrder(request: BookingRequest, options: ShiprocketOptions, warehouse: PickupLocation) {
  const customer = request.customer
  return {
    order_id: request.shipmentId,
    order_date: istDateTime(request.orderDate).slice(0, 10),
    ...(options.channelId ? { channel_id: options.channelId } : {}),
    pickup_customer_name: customer.name,
    pickup_last_name: '',
    pickup_address: customer.line1,
    pickup_address_2: secondLine(customer),
    pickup_city: shiprocketCity(customer.city),
    pickup_state: customer.state,
    pickup_country: 'India',
    pickup_pincode: customer.pincode,
    pickup_email: emailOf(request, warehouse),
    pickup_phone: mobile(customer.phone),
    pickup_isd_code: '91',
    shipping_customer_name: warehouse.name ?? options.pickupLocation,
    shipping_last_name: '',
    shipping_address: warehouse.address ?? '',
    shipping_address_2: warehouse.address_2 ?? '',
    shipping_city: shiprocketCity(warehouse.city ?? ''),
    shipping_state: warehouse.state ?? '',
    shipping_country: warehouse.country ?? 'India',
    shipping_pincode: String(warehouse.pin_code ?? ''),
    shipping_email: warehouseEmail(request, warehouse),
    shipping_phone: mobile(String(warehouse.phone ?? '')),
    shipping_isd_code: '91',
    order_items: orderItems(request),
    payment_method: 'Prepaid',
    ...amounts(request, false),
    ...parcel(request),
    ...documents(request),
  }
}


function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** Shiprocket sends the AWB as a string, or for some couriers as a number. */
function awbOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value)
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null
}

function statusIdOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value
  if (typeof value === 'string' && /^\d{1,4}$/.test(value.trim())) return Number(value.trim()) || null
  return null
}

function labelKey(label: string): string {
  return label.toUpperCase().replace(/[^A-Z]+/g, ' ').trim()
}

/** A status given only by its label ("RTO IN TRANSIT", "Out For Delivery", "RTO_OFD"). */
function statusIdByLabel(value: unknown): number | null {
  return typeof value === 'string' ? (STATUS_ID_BY_LABEL.get(labelKey(value)) ?? null) : null
}

/** The most recent scan of the webhook's list, for its location and activity. */
function latestScan(scans: unknown): { location: string | null; activity: string | null } | null {
  if (!Array.isArray(scans)) return null
  let latest: { at: number; location: string | null; activity: string | null } | null = null
  for (const scan of scans) {
    if (!isRecord(scan)) continue
    const at = parseShiprocketTime(scan.date)?.getTime() ?? -Infinity
    if (latest === null || at >= latest.at) latest = { at, location: textOrNull(scan.location), activity: textOrNull(scan.activity) }
  }
  return latest && { location: latest.location, activity: latest.activity }
}

function cut(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat === '') return 'no details'
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE)}…` : flat
}

/** Shiprocket answers errors as {message, status_code, errors: {field: [reason]}}. */
function describeError(text: string): string {
  let description = text
  try {
    const parsed = JSON.parse(text) as unknown
    if (isRecord(parsed) && typeof parsed.message === 'string') {
      const reasons = isRecord(parsed.errors)
        ? Object.entries(parsed.errors).map(([field, reason]) => `${field}: ${Array.isArray(reason) ? reason.join(' ') : String(reason)}`)
        : []
      description = [parsed.message, ...reasons].join('; ')
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
