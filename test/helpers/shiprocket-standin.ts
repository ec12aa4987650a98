// A local stand-in of Shiprocket's REST API (login and bearer tokens, adhoc and return orders with
// the published required fields and limits checked, AWB assignment, pickup requests, labels,
// cancellation, tracking, pickup locations), with Shiprocket-shaped answers and errors, on a stand-in server (standin-server.ts), for the carrier's tests. Every request is recorded; a test can expire
// the tokens it gave out (the next call is a 401), answer in its own way (an outage: 500s, a body
// that is not JSON) or never answer ('hang'). shiprocketWebhook() builds the tracking callback
// Shiprocket would post, with the panel's token in x-api-key.
import type { IncomingHttpHeaders } from 'node:http'
import { createStandInServer, type StandInReply, type StandInRequest, type StandInServer } from './standin-server.ts'

export type ShiprocketRequest = StandInRequest
export type ShiprocketReply = StandInReply
export interface ShiprocketPickupLocation {
  id: number
  pickup_location: string
  name: string
  email: string
  phone: string
  address: string
  address_2: string
  city: string
  state: string
  country: string
  pin_code: string
}

export interface ShiprocketStandIn extends StandInServer {
  /** The pickup locations of the account (GET /settings/company/pickup); create/adhoc refuses another nickname. */
  pickupLocations: ShiprocketPickupLocation[]
  /** tracking_data per AWB, as GET /courier/track/awb/:awb answers it; an unknown AWB has no activities yet. */
  readonly trackingByAwb: Map<string, Record<string, unknown>>
  /** When set, AWB assignment answers awb_assign_status 0 with this error (no courier serviceable). */
  awbAssignError: string | null
  /** Sent as data.etd with the AWB (Shiprocket's time format), when set. */
  awbEtd: string | null
  /** The couriers courier/serviceability offers (a delivery pincode starting with 9 has none: 404). */
  couriers: ShiprocketCourier[]
  /** The pickup_scheduled_date a pickup request answers (Shiprocket's time format, India). */
  pickupScheduledDate: string
  /** Shipment ids whose pickup was requested (a second request is a 400 "Already in Pickup Queue"). */
  readonly pickupsRequested: Set<string>
  /** Tokens given out by login since the last reset. */
  readonly tokens: string[]
  /** Makes every token given so far invalid: the next authenticated call is a 401 "Token has expired". */
  expireTokens(): void
  /** Back to answering like Shiprocket: no override, no tracking, AWBs assigned, no token valid, no requests recorded. */
  reset(): void
}

export interface ShiprocketCourier {
  courier_company_id: number
  courier_name: string
  /** Rupees, COD charges included when cod=1 was asked (as Shiprocket answers it). */
  rate: number
  cod_charges: number
  estimated_delivery_days: string
  blocked: 0 | 1
  cod: 0 | 1
}

/** Three couriers and a blocked one; Shiprocket recommends the first. */
export const DEFAULT_COURIERS: ShiprocketCourier[] = [
  { courier_company_id: 142, courier_name: 'Delhivery Surface', rate: 87.5, cod_charges: 0, estimated_delivery_days: '5', blocked: 0, cod: 1 },
  { courier_company_id: 24, courier_name: 'Xpressbees Surface', rate: 79, cod_charges: 0, estimated_delivery_days: '4 - 6', blocked: 0, cod: 1 },
  { courier_company_id: 33, courier_name: 'Blue Dart Air', rate: 162.3, cod_charges: 0, estimated_delivery_days: '2', blocked: 0, cod: 1 },
  { courier_company_id: 51, courier_name: 'Blocked Courier', rate: 10, cod_charges: 0, estimated_delivery_days: '1', blocked: 1, cod: 1 },
]

export const DEFAULT_PICKUP_LOCATION: ShiprocketPickupLocation = {
  id: 4_100_001,
  pickup_location: 'Bengaluru WH',
  name: 'Acme Fulfilment',
  email: 'warehouse@acme.example',
  phone: '9000000001',
  address: 'Plot 12, KIADB Industrial Area',
  address_2: 'Bommasandra',
  city: 'Bengaluru',
  state: 'Karnataka',
  country: 'India',
  pin_code: '560099',
}

/** Shiprocket's labels of the status ids, as its webhook writes them. */
export const SHIPROCKET_STATUS_LABELS: Record<number, string> = {
  3: 'PICKUP SCHEDULED',
  5: 'MANIFEST GENERATED',
  6: 'SHIPPED',
  7: 'DELIVERED',
  8: 'CANCELED',
  9: 'RTO INITIATED',
  10: 'RTO DELIVERED',
  12: 'LOST',
  14: 'RTO ACKNOWLEDGED',
  16: 'CANCELLATION REQUESTED',
  17: 'OUT FOR DELIVERY',
  18: 'IN TRANSIT',
  19: 'OUT FOR PICKUP',
  21: 'UNDELIVERED',
  22: 'DELAYED',
  25: 'DAMAGED',
  38: 'REACHED AT DESTINATION HUB',
  40: 'RTO NDR',
  41: 'RTO OFD',
  42: 'PICKED UP',
  45: 'CANCELLED BEFORE DISPATCHED',
  46: 'RTO IN TRANSIT',
  77: 'ISSUE RELATED TO THE RECIPIENT',
}

const unauthenticated = (message: string): ShiprocketReply => ({ status: 401, body: { message, status_code: 401 } })

export function createShiprocketStandIn(options: { email: string; password: string }): ShiprocketStandIn {
  const valid = new Set<string>()
  let counter = 0
  let tokenCounter = 0
  /** Shipment ids that have an AWB (a pickup is requested for those only). */
  const assigned = new Set<string>()

  const standIn: ShiprocketStandIn = Object.assign(createStandInServer((request) => shiprocket(request)), {
    pickupLocations: [DEFAULT_PICKUP_LOCATION],
    trackingByAwb: new Map<string, Record<string, unknown>>(),
    awbAssignError: null as string | null,
    awbEtd: null as string | null,
    couriers: DEFAULT_COURIERS,
    pickupScheduledDate: '2026-11-27 14:00:00',
    pickupsRequested: new Set<string>(),
    tokens: [] as string[],
    expireTokens: () => valid.clear(),
    reset() {
      standIn.requests.length = 0
      standIn.tokens.length = 0
      valid.clear()
      standIn.pickupLocations = [DEFAULT_PICKUP_LOCATION]
      standIn.trackingByAwb.clear()
      standIn.awbAssignError = null
      standIn.awbEtd = null
      standIn.couriers = DEFAULT_COURIERS
      standIn.pickupScheduledDate = '2026-11-27 14:00:00'
      standIn.pickupsRequested.clear()
      assigned.clear()
      standIn.override = null
    },
  })

  function shiprocket(request: ShiprocketRequest): ShiprocketReply {
    const body = request.body ?? {}
    if (request.method === 'POST' && request.path === '/v1/external/auth/login') {
      if (body.email !== options.email || body.password !== options.password) {
        return { status: 400, body: { message: 'Invalid email and password combination', status_code: 400 } }
      }
      const token = `eyJhbGciOiJIUzI1NiJ9.standin.${++tokenCounter}x${Math.random().toString(36).slice(2, 12)}`
      valid.add(token)
      standIn.tokens.push(token)
      return { status: 200, body: { company_id: 25149, created_at: '2023-01-02 10:00:00', email: options.email, first_name: 'API', id: 8_811, last_name: 'User', token } }
    }

    const authorization = request.headers.authorization
    if (typeof authorization !== 'string' || !authorization.startsWith('Bearer ')) return unauthenticated('Token not provided')
    if (!valid.has(authorization.slice('Bearer '.length))) return unauthenticated('Token has expired')

    if (request.method === 'POST' && (request.path === '/v1/external/orders/create/adhoc' || request.path === '/v1/external/orders/create/return')) {
      const forward = request.path.endsWith('/adhoc')
      if (forward && !standIn.pickupLocations.some((l) => l.pickup_location === body.pickup_location)) {
        return {
          status: 422,
          body: { message: 'Wrong Pickup location entered. Please choose one location from data given', status_code: 422, data: { data: standIn.pickupLocations } },
        }
      }
      if (!Array.isArray(body.order_items) || body.order_items.length === 0) {
        return { status: 422, body: { message: 'The given data was invalid.', errors: { order_items: ['The order items field is required.'] }, status_code: 422 } }
      }
      const errors = invalidOrderFields(body, forward ? 'billing' : 'pickup')
      if (Object.keys(errors).length > 0) return { status: 422, body: { message: 'Oops! Invalid Data.', errors, status_code: 422 } }
      const n = ++counter
      return {
        status: 200,
        body: { order_id: 300_000_000 + n, shipment_id: 200_000_000 + n, status: forward ? 'NEW' : 'RETURN PENDING', status_code: forward ? 1 : 21, onboarding_completed_now: 0, awb_code: '', courier_company_id: '', courier_name: '' },
      }
    }

    if (request.method === 'POST' && request.path === '/v1/external/courier/assign/awb') {
      if (standIn.awbAssignError !== null) {
        return { status: 200, body: { awb_assign_status: 0, response: { data: { awb_assign_error: standIn.awbAssignError } } } }
      }
      const chosen = body.courier_id === undefined ? standIn.couriers[0] : standIn.couriers.find((c) => c.courier_company_id === body.courier_id && c.blocked === 0)
      if (!chosen) return { status: 200, body: { awb_assign_status: 0, response: { data: { awb_assign_error: `Courier ${String(body.courier_id)} is not serviceable` } } } }
      const n = ++counter
      assigned.add(String(body.shipment_id))
      return {
        status: 200,
        body: {
          awb_assign_status: 1,
          response: {
            data: {
              courier_company_id: chosen?.courier_company_id ?? 142,
              awb_code: `14112322${String(n).padStart(7, '0')}`,
              cod: 0,
              order_id: 300_000_000 + n,
              shipment_id: body.shipment_id,
              awb_code_status: 1,
              assigned_date_time: { date: '2023-05-19 11:59:16.000000', timezone_type: 3, timezone: 'Asia/Kolkata' },
              applied_weight: 0.5,
              company_id: 25149,
              courier_name: chosen?.courier_name ?? 'Delhivery Surface',
              child_courier_name: null,
              pickup_scheduled_date: '2023-05-19 14:00:00',
              routing_code: 'DEL/ABC',
              ...(standIn.awbEtd !== null ? { etd: standIn.awbEtd } : {}),
            },
          },
        },
      }
    }

    if (request.method === 'GET' && request.path.startsWith('/v1/external/courier/serviceability/?')) {
      const query = new URLSearchParams(request.path.split('?')[1])
      const missing = ['pickup_postcode', 'delivery_postcode', 'weight', 'cod'].filter((p) => !query.get(p))
      if (missing.length > 0) return { status: 422, body: { message: 'Oops! Invalid Data.', errors: Object.fromEntries(missing.map((p) => [p, [`The ${p.replaceAll('_', ' ')} field is required.`]])), status_code: 422 } }
      if (!/^\d{6}$/.test(query.get('pickup_postcode')!) || query.get('delivery_postcode')!.startsWith('9') || query.get('pickup_postcode')!.startsWith('9')) {
        return { status: 404, body: { message: 'No courier serviceable for this pincode', status_code: 404 } }
      }
      const cod = query.get('cod') === '1'
      return {
        status: 200,
        body: {
          company_auto_shipment_insurance_setting: false,
          currency: 'INR',
          status: 200,
          data: {
            available_courier_companies: standIn.couriers.filter((c) => !cod || c.cod === 1).map((c) => ({ ...c, rate: cod ? c.rate + 35 : c.rate, cod_charges: cod ? 35 : 0, freight_charge: c.rate, etd: 'Dec 02, 2026' })),
            recommended_courier_company_id: standIn.couriers[0]?.courier_company_id ?? null,
            shiprocket_recommended_courier_id: standIn.couriers[0]?.courier_company_id ?? null,
          },
        },
      }
    }

    const ndr = /^\/v1\/external\/ndr\/([^/]+)\/action$/.exec(request.path)
    if (request.method === 'POST' && ndr) {
      if (!['re-attempt', 'return', 'fake-attempt'].includes(String(body.action))) {
        return { status: 422, body: { message: 'Oops! Invalid Data.', errors: { action: ['The selected action is invalid.'] }, status_code: 422 } }
      }
      if (typeof body.comments !== 'string' || body.comments.trim() === '') return { status: 422, body: { message: 'Oops! Invalid Data.', errors: { comments: ['The comments field is required.'] }, status_code: 422 } }
      return { status: 200, body: { message: `Action ${String(body.action)} taken for AWB ${decodeURIComponent(ndr[1]!)}` } }
    }

    if (request.method === 'POST' && request.path === '/v1/external/courier/generate/pickup') {
      const ids = Array.isArray(body.shipment_id) ? body.shipment_id.map(String) : []
      if (ids.length === 0) return { status: 422, body: { message: 'Oops! Invalid Data.', errors: { shipment_id: ['The shipment id field is required.'] }, status_code: 422 } }
      if (!ids.every((id) => assigned.has(id))) return { status: 400, body: { message: 'Please assign AWB before generating pickup.', status_code: 400 } }
      if (ids.some((id) => standIn.pickupsRequested.has(id))) return { status: 400, body: { message: 'Already in Pickup Queue.', status_code: 400 } }
      for (const id of ids) standIn.pickupsRequested.add(id)
      return {
        status: 200,
        body: {
          pickup_status: 1,
          response: {
            pickup_scheduled_date: standIn.pickupScheduledDate,
            pickup_token_number: `Reference No: ${194_000_000 + counter}`,
            status: 3,
            others: '{"tier_id":5}',
            pickup_generated_date: { date: '2026-11-26 10:30:00.000000', timezone_type: 3, timezone: 'Asia/Kolkata' },
            data: `Pickup is confirmed by Delhivery Surface For AWB :- ${ids.join(', ')}`,
          },
        },
      }
    }

    if (request.method === 'POST' && request.path === '/v1/external/courier/generate/label') {
      const ids = Array.isArray(body.shipment_id) ? body.shipment_id : []
      return { status: 200, body: { label_created: 1, label_url: `https://kr-shipmultichannel-mum.s3.ap-south-1.amazonaws.com/25149/labels/${ids.join('-')}.pdf`, response: 'Label has been created and uploaded successfully!', not_created: [] } }
    }

    if (request.method === 'POST' && request.path === '/v1/external/orders/cancel/shipment/awbs') {
      return { status: 200, body: { message: 'Bulk Shipment cancellation is in progress. Please wait for 24 hours.' } }
    }

    const track = /^\/v1\/external\/courier\/track\/awb\/([^/?]+)$/.exec(request.path)
    if (request.method === 'GET' && track) {
      const awb = decodeURIComponent(track[1]!)
      const data = standIn.trackingByAwb.get(awb)
      if (data) return { status: 200, body: { tracking_data: data } }
      return {
        status: 200,
        body: { tracking_data: { track_status: 0, shipment_status: 0, shipment_track: [{ id: 0, awb_code: awb, current_status: '' }], shipment_track_activities: null, error: 'Aahh! There is no activities found in our DB. Please have some patience it will be updated soon.' } },
      }
    }

    if (request.method === 'GET' && request.path === '/v1/external/settings/company/pickup') {
      return { status: 200, body: { data: { shipping_address: standIn.pickupLocations, allow_more: '1', is_blackbox_seller: false, company_name: 'Acme', recent_addresses: [] } } }
    }

    return { status: 404, body: { message: 'The requested resource was not found.', status_code: 404 } }
  }

  return standIn
}

/**
 * The fields create/adhoc (billing_*) and create/return (pickup_*) require, with the published
 * limits: Shiprocket answers 422 naming each field. A required text must not be empty; the city is
 * at most 30 characters; the box's sides more than 0.5 cm; the weight more than 0 kg; amounts numbers.
 */
function invalidOrderFields(body: Record<string, unknown>, party: 'billing' | 'pickup'): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const label = (field: string) => field.replaceAll('_', ' ')
  const required = [`${party}_customer_name`, `${party}_address`, `${party}_city`, `${party}_pincode`, `${party}_state`, `${party}_country`, `${party}_email`, `${party}_phone`, 'order_id', 'order_date', 'payment_method']
  for (const field of required) {
    const value = body[field]
    if ((typeof value !== 'string' && typeof value !== 'number') || String(value).trim() === '') errors[field] = [`The ${label(field)} field is required.`]
  }
  const email = body[`${party}_email`]
  if (typeof email === 'string' && email !== '' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) errors[`${party}_email`] = [`The ${label(`${party}_email`)} must be a valid email address.`]
  const city = body[`${party}_city`]
  if (typeof city === 'string' && city.length > 30) errors[`${party}_city`] = [`The ${label(`${party}_city`)} may not be greater than 30 characters.`]
  for (const side of ['length', 'breadth', 'height']) {
    if (typeof body[side] !== 'number' || (body[side] as number) <= 0.5) errors[side] = [`The ${side} must be greater than 0.5.`]
  }
  if (typeof body.weight !== 'number' || body.weight <= 0) errors.weight = ['The weight must be greater than 0.']
  for (const amount of ['sub_total', 'shipping_charges', 'total_discount']) {
    if (body[amount] !== undefined && typeof body[amount] !== 'number') errors[amount] = [`The ${label(amount)} must be a number.`]
  }
  if (typeof body.sub_total !== 'number') errors.sub_total ??= ['The sub total field is required.']
  for (const [i, item] of (body.order_items as Record<string, unknown>[]).entries()) {
    if (typeof item.selling_price !== 'number') errors[`order_items.${i}.selling_price`] = ['The selling price must be a number.']
    if (item.tax !== undefined && typeof item.tax !== 'number') errors[`order_items.${i}.tax`] = ['The tax must be a number.']
  }
  return errors
}

/** A tracking activity (scan) as Shiprocket lists them, newest first. */
export function trackingActivity(date: string, statusId: number | 'NA', activity: string, location: string): Record<string, unknown> {
  return { date, status: 'X-SCAN', activity, location, 'sr-status': statusId === 'NA' ? 'NA' : String(statusId), 'sr-status-label': statusId === 'NA' ? 'NA' : (SHIPROCKET_STATUS_LABELS[statusId] ?? 'NA') }
}

export interface WebhookOptions {
  /** The token sent in x-api-key; null: no header. */
  token: string | null
  /** "DD MM YYYY HH:mm:ss", IST. */
  timestamp?: string
  etd?: string
  isReturn?: boolean
  scans?: Record<string, unknown>[]
}

/** The tracking callback Shiprocket posts for an AWB at a status, with the panel's token in x-api-key. */
export function shiprocketWebhook(awb: string, statusId: number, options: WebhookOptions): { body: Record<string, unknown>; rawBody: Buffer; headers: IncomingHttpHeaders } {
  const label = SHIPROCKET_STATUS_LABELS[statusId] ?? 'UNKNOWN'
  const body = {
    awb,
    courier_name: 'Delhivery Surface',
    current_status: label,
    // Shiprocket's current_status_id is its own numbering, not the shipment status id.
    current_status_id: statusId + 2,
    shipment_status: label,
    shipment_status_id: statusId,
    current_timestamp: options.timestamp ?? '23 05 2023 11:43:52',
    order_id: '1373900_150876814',
    sr_order_id: 348_456_385,
    awb_assigned_date: '2023-05-19 11:59:16',
    pickup_scheduled_date: '2023-05-19 11:59:17',
    etd: options.etd ?? '2023-05-23 15:40:19',
    scans: options.scans ?? [
      { date: '2023-05-19 11:59:16', status: 'X-UCI', activity: 'Manifested - Manifest uploaded', location: 'Chomu_SamodRd_D (Rajasthan)', 'sr-status': '5', 'sr-status-label': 'MANIFEST GENERATED' },
      { date: '2023-05-23 11:43:52', status: 'X-SCAN', activity: `${label} - scanned`, location: 'Bengaluru_Hub (Karnataka)', 'sr-status': String(statusId), 'sr-status-label': label },
    ],
    is_return: options.isReturn ? 1 : 0,
    channel_id: 3_422_553,
    pod_status: 'OTP Based Delivery',
    pod: 'Not Available',
  }
  return {
    body,
    rawBody: Buffer.from(JSON.stringify(body)),
    headers: { 'content-type': 'application/json', ...(options.token !== null ? { 'x-api-key': options.token } : {}) },
  }
}
