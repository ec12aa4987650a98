// A local stand-in of Delhivery's B2C (express) API, after its public documentation
// (delhivery-express-api-doc.readme.io): the static token in `Authorization: Token …`, create.json
// with its form-encoded `format=json&data=…` body (required fields, 6-digit pincodes, 10-digit phones,
// payment modes, unique order ids, the registered pickup location, the e-way bill above ₹50,000),
// packing slips, pickup requests (one per warehouse and date), cancellation, NDR actions, pincode
// serviceability, the rate calculator and tracking, with Delhivery-shaped answers and errors.
// standin-server.ts reads JSON bodies only, so this one keeps its own server on the same pattern:
// every request is recorded (a form body's `data` parsed as `body`), a test can answer in its own way
// (an outage, a body that is not JSON) or never answer ('hang'). delhiveryWebhook() builds the
// tracking push Delhivery would post, with our token in `Authorization: Bearer …`.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface DelhiveryRequest {
  method: string
  /** Path and query string. */
  path: string
  headers: IncomingHttpHeaders
  /** The JSON body; for a form body, its `data` field parsed (null when it is not JSON). */
  body: Record<string, unknown> | null
  /** A form-encoded body's fields; null for any other body. */
  form: Record<string, string> | null
  at: number
}
export interface DelhiveryReply {
  status: number
  /** A string is sent as it is; anything else as JSON. */
  body: unknown
}

/** A pincode's serviceability flags, as pin-codes/json answers them. */
export interface PostalCode {
  pre_paid: 'Y' | 'N'
  cod: 'Y' | 'N'
  pickup: 'Y' | 'N'
  remarks: string
}

export interface DelhiveryStandIn {
  apiBase: string
  readonly requests: DelhiveryRequest[]
  /** When set and it answers (not null), it replaces the API's own answer; 'hang' never answers. */
  override: ((request: DelhiveryRequest) => DelhiveryReply | 'hang' | null) | null
  /** Requests that match: a string is the path with or without its query, a RegExp is matched against the path with its query. */
  sent(method: string, path: string | RegExp): DelhiveryRequest[]
  /** The account's registered warehouses (pickup locations). */
  warehouses: string[]
  /** Serviceability by pincode; a pincode not listed is served in full, one starting with 9 is not served at all. */
  readonly postalCodes: Map<string, PostalCode>
  /** The Shipment object GET packages/json answers per waybill; an unknown waybill is "No such waybill". */
  readonly trackingByAwb: Map<string, Record<string, unknown>>
  /** Waybills given out by create.json, in order. */
  readonly waybills: string[]
  /** Waybills Delhivery has picked up: they can no longer be cancelled. */
  readonly pickedUp: Set<string>
  listen(): Promise<string>
  close(): Promise<void>
  /** Back to answering like Delhivery: no override, no tracking, no pickups or orders, no requests recorded. */
  reset(): void
}

export const DEFAULT_WAREHOUSE = 'Bengaluru WH'
export const WAREHOUSE_PINCODE = '560099'
/** The e-way bill threshold the create API enforces (its documentation: above ₹50,000). */
const EWAY_BILL_ABOVE_RUPEES = 50_000
const SERVED: PostalCode = { pre_paid: 'Y', cod: 'Y', pickup: 'Y', remarks: '' }

export function createDelhiveryStandIn(options: { token: string }): DelhiveryStandIn {
  const hanging: ServerResponse[] = []
  let server: Server | null = null
  let counter = 0
  const orders = new Set<string>()
  /** Pickup requests by "warehouse|date", with their id. */
  const pickups = new Map<string, number>()

  const standIn: DelhiveryStandIn = {
    apiBase: '',
    requests: [],
    override: null,
    sent: (method, path) => standIn.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path || r.path.split('?')[0] === path : path.test(r.path))),
    warehouses: [DEFAULT_WAREHOUSE],
    postalCodes: new Map(),
    trackingByAwb: new Map(),
    waybills: [],
    pickedUp: new Set(),
    async listen() {
      server = createServer((req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (chunk: Buffer) => chunks.push(chunk))
        req.on('end', () => {
          const request = recordOf(req.method!, req.url!, req.headers, Buffer.concat(chunks).toString('utf8'))
          standIn.requests.push(request)
          const reply = standIn.override?.(request) ?? delhivery(request)
          if (reply === 'hang') return void hanging.push(res)
          res.writeHead(reply.status, { 'content-type': 'application/json' }).end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body))
        })
      })
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
      standIn.apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      return standIn.apiBase
    },
    async close() {
      for (const res of hanging.splice(0)) res.destroy()
      if (!server) return
      server.closeAllConnections()
      await new Promise((resolve) => server!.close(resolve))
    },
    reset() {
      standIn.requests.length = 0
      standIn.override = null
      standIn.warehouses = [DEFAULT_WAREHOUSE]
      standIn.postalCodes.clear()
      standIn.trackingByAwb.clear()
      standIn.waybills.length = 0
      standIn.pickedUp.clear()
      orders.clear()
      pickups.clear()
    },
  }

  function delhivery(request: DelhiveryRequest): DelhiveryReply {
    if (request.headers.authorization !== `Token ${options.token}`) return { status: 401, body: { detail: 'Invalid token.' } }
    const [path, queryString] = request.path.split('?') as [string, string | undefined]
    const query = new URLSearchParams(queryString ?? '')
    const body = request.body ?? {}

    if (request.method === 'POST' && path === '/api/cmu/create.json') return create(request)

    if (request.method === 'GET' && path === '/api/p/packing_slip') {
      const awb = query.get('wbns') ?? ''
      if (!standIn.waybills.includes(awb)) return { status: 200, body: { packages: [], packages_found: 0 } }
      return { status: 200, body: { packages: [{ wbn: awb, pdf_download_link: `https://delhivery-label.s3.amazonaws.com/packing_slips/${awb}.pdf`, pdf_encoding: '' }], packages_found: 1 } }
    }

    if (request.method === 'POST' && path === '/fm/request/new/') {
      const problems = [
        !/^\d{2}:\d{2}:\d{2}$/.test(String(body.pickup_time)) && 'pickup_time must be hh:mm:ss',
        !/^\d{4}-\d{2}-\d{2}$/.test(String(body.pickup_date)) && 'pickup_date must be YYYY-MM-DD',
        !standIn.warehouses.includes(String(body.pickup_location)) && `ClientWarehouse matching query does not exist: ${String(body.pickup_location)}`,
        !(Number.isInteger(body.expected_package_count) && (body.expected_package_count as number) > 0) && 'expected_package_count must be a positive integer',
      ].filter((p): p is string => p !== false)
      if (problems.length > 0) return { status: 400, body: { success: false, error: { message: problems.join('; '), code: 400 } } }
      const key = `${String(body.pickup_location)}|${String(body.pickup_date)}`
      const existing = pickups.get(key)
      if (existing !== undefined) {
        const message = 'Pickup request already exists for this date and pickup location'
        return { status: 400, body: { status: false, success: false, pickup_id: existing, pr_exist: true, error: { message, code: 400 }, data: { message } } }
      }
      const id = 16_000_000 + ++counter
      pickups.set(key, id)
      return {
        status: 200,
        body: {
          pickup_id: id,
          pickup_date: body.pickup_date,
          pickup_time: body.pickup_time,
          pickup_location_name: body.pickup_location,
          expected_package_count: String(body.expected_package_count),
          incoming_center_name: 'Bengaluru_Bomsndra_PC (Karnataka)',
          client_name: 'ACME SURFACE',
        },
      }
    }

    if (request.method === 'POST' && path === '/api/p/edit') {
      const awb = String(body.waybill ?? '')
      if (body.cancellation !== 'true') return { status: 400, body: { status: false, waybill: awb, remark: 'Nothing to update', order_id: null } }
      if (!standIn.waybills.includes(awb)) return { status: 200, body: { status: false, waybill: awb, remark: 'Waybill not found', order_id: null, error: 'Invalid waybill' } }
      if (standIn.pickedUp.has(awb)) return { status: 200, body: { status: false, waybill: awb, remark: 'Shipment can not be cancelled in its current status', order_id: null } }
      return { status: 200, body: { status: true, waybill: awb, remark: 'Shipment has been cancelled', order_id: null } }
    }

    if (request.method === 'POST' && path === '/api/p/update') {
      const actions = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : []
      const invalid = actions.length === 0 ? 'data is required' : actions.map(ndrProblem).find((p) => p !== null)
      if (invalid) return { status: 400, body: { error: invalid } }
      return { status: 200, body: { request_id: `UPL${String(4_000_000_000_000 + ++counter)}` } }
    }

    if (request.method === 'GET' && path === '/c/api/pin-codes/json/') {
      const pin = query.get('filter_codes') ?? ''
      if (!/^\d{6}$/.test(pin) || pin.startsWith('9')) return { status: 200, body: { delivery_codes: [] } }
      const flags = standIn.postalCodes.get(pin) ?? SERVED
      return { status: 200, body: { delivery_codes: [{ postal_code: { pin: Number(pin), district: 'Bengaluru', state_code: 'KA', country_code: 'IN', is_oda: 'N', sort_code: 'BLR/IDR', repl: 'Y', cash: flags.cod, ...flags } }] } }
    }

    if (request.method === 'GET' && path === '/api/kinko/v1/invoice/charges/.json') return charges(query)
    if (request.method === 'GET' && path === '/api/dc/expected_tat') return expectedTat(query)

    if (request.method === 'GET' && path === '/api/v1/packages/json/') {
      const shipment = standIn.trackingByAwb.get(query.get('waybill') ?? '')
      return { status: 200, body: shipment ? { ShipmentData: [{ Shipment: shipment }] } : { Error: 'No such waybill or Order Id found' } }
    }

    return { status: 404, body: 'Not Found' }
  }

  function create(request: DelhiveryRequest): DelhiveryReply {
    const fail = (rmk: string, order = '', remarks: string[] = []) => ({
      status: 200,
      body: { success: false, rmk, error: true, package_count: remarks.length > 0 ? 1 : 0, upload_wbn: null, packages: remarks.length > 0 ? [{ status: 'Fail', client: 'ACME SURFACE', sort_code: null, remarks, waybill: '', cod_amount: 0, payment: '', serviceable: false, refnum: order }] : [] },
    })
    if (request.form?.format !== 'json') return fail('format key missing in POST')
    const data = request.body
    const shipments = Array.isArray(data?.shipments) ? (data.shipments as Record<string, unknown>[]) : []
    if (shipments.length === 0) return fail('shipments are required')
    const location = data?.pickup_location
    if (typeof location !== 'object' || location === null || !standIn.warehouses.includes(String((location as Record<string, unknown>).name))) {
      return fail('ClientWarehouse matching query does not exist.')
    }
    const packages = shipments.map((s) => {
      const order = String(s.order ?? '')
      const remarks = shipmentProblems(s, orders)
      if (remarks.length > 0) return { status: 'Fail', client: 'ACME SURFACE', sort_code: null, remarks, waybill: '', cod_amount: 0, payment: String(s.payment_mode ?? ''), serviceable: true, refnum: order }
      orders.add(order)
      const waybill = `1490812${String(++counter).padStart(7, '0')}`
      standIn.waybills.push(waybill)
      return { status: 'Success', client: 'ACME SURFACE', sort_code: 'BLR/IDR', remarks: [], waybill, cod_amount: s.cod_amount, payment: s.payment_mode === 'Prepaid' ? 'Pre-paid' : s.payment_mode, serviceable: true, refnum: order }
    })
    const failed = packages.find((p) => p.status === 'Fail')
    if (failed) return fail('An internal Error has occurred, Please get in touch with client.support@delhivery.com', failed.refnum, failed.remarks)
    return { status: 200, body: { success: true, rmk: null, error: false, package_count: packages.length, upload_wbn: `UPL${counter}`, cash_pickups: 0, cod_count: 0, prepaid_count: 0, pickups_count: 0, replacement_count: 0, packages } }
  }

  return standIn
}

function recordOf(method: string, path: string, headers: IncomingHttpHeaders, raw: string): DelhiveryRequest {
  const parse = (text: string) => {
    try {
      const parsed = JSON.parse(text) as unknown
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null
    } catch {
      return null
    }
  }
  if (String(headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
    const form = Object.fromEntries(new URLSearchParams(raw))
    return { method, path, headers, form, body: typeof form.data === 'string' ? parse(form.data) : null, at: Date.now() }
  }
  return { method, path, headers, form: null, body: raw ? parse(raw) : null, at: Date.now() }
}

/** What create.json refuses in a shipment, in Delhivery's words (a package's `remarks`). */
function shipmentProblems(s: Record<string, unknown>, orders: Set<string>): string[] {
  const problems: string[] = []
  for (const field of ['name', 'add', 'pin', 'phone', 'order', 'payment_mode']) {
    if ((typeof s[field] !== 'string' && typeof s[field] !== 'number') || String(s[field]).trim() === '') problems.push(`${field} is required`)
  }
  if (s.pin !== undefined && !/^\d{6}$/.test(String(s.pin))) problems.push('Invalid pincode')
  if (s.phone !== undefined && !/^[6-9]\d{9}$/.test(String(s.phone))) problems.push('Invalid phone number')
  if (orders.has(String(s.order))) problems.push(`Duplicate order id ${String(s.order)}`)
  if (!['Prepaid', 'COD', 'Pickup', 'REPL'].includes(String(s.payment_mode))) problems.push('Invalid payment mode')
  if (s.payment_mode === 'COD' && !(typeof s.cod_amount === 'number' && s.cod_amount > 0)) problems.push('cod_amount is required for COD shipments')
  if (typeof s.weight !== 'number' || s.weight <= 0) problems.push('weight (grams) must be a positive number')
  for (const amount of ['cod_amount', 'total_amount']) if (s[amount] !== undefined && typeof s[amount] !== 'number') problems.push(`${amount} must be a number`)
  if (typeof s.total_amount === 'number' && s.total_amount > EWAY_BILL_ABOVE_RUPEES && !/^\d{12}$/.test(String(s.ewbn ?? ''))) problems.push('ewbn is mandatory for shipments above 50000')
  if (s.shipping_mode !== undefined && !['Surface', 'Express'].includes(String(s.shipping_mode))) problems.push('Invalid shipping mode')
  return problems
}

function ndrProblem(action: Record<string, unknown>): string | null {
  if (typeof action.waybill !== 'string' || action.waybill === '') return 'waybill is required'
  const data = (typeof action.action_data === 'object' && action.action_data !== null ? action.action_data : {}) as Record<string, unknown>
  switch (action.act) {
    case 'RE-ATTEMPT':
      return null
    case 'DEFER_DLV':
      return /^\d{4}-\d{2}-\d{2}$/.test(String(data.deferred_date)) ? null : 'deferred_date must be YYYY-MM-DD'
    case 'EDIT_DETAILS':
      return ['name', 'add', 'phone'].some((k) => typeof data[k] === 'string') ? null : 'EDIT_DETAILS needs name, add or phone'
    default:
      return `Invalid act ${String(action.act)}`
  }
}

/** The expected-TAT API: Surface 5 days, Express 2 (pdt B2C); an unknown mode or pincode is its 400. */
function expectedTat(query: URLSearchParams): DelhiveryReply {
  const problems = [
    !['S', 'E', 'N'].includes(query.get('mot') ?? '') && 'mot must be S, E or N',
    !/^\d{6}$/.test(query.get('origin_pin') ?? '') && 'origin_pin must be a 6-digit pincode',
    !/^\d{6}$/.test(query.get('destination_pin') ?? '') && 'destination_pin must be a 6-digit pincode',
  ].filter((p): p is string => p !== false)
  if (problems.length > 0) return { status: 400, body: { success: false, msg: problems.join('; '), data: '' } }
  return { status: 200, body: { success: true, msg: '', data: { tat: query.get('mot') === 'E' ? 2 : 5 } } }
}

/** The rate calculator: Surface ₹45 a 500 g slab (Express twice that), COD ₹30 or 2 %, then 18 % GST; total_amount as Delhivery answers it. */
function charges(query: URLSearchParams): DelhiveryReply {
  const problems = [
    !['S', 'E'].includes(query.get('md') ?? '') && 'md must be E or S',
    !/^\d+$/.test(query.get('cgm') ?? '') && 'cgm must be grams',
    !/^\d{6}$/.test(query.get('o_pin') ?? '') && 'o_pin must be a 6-digit pincode',
    !/^\d{6}$/.test(query.get('d_pin') ?? '') && 'd_pin must be a 6-digit pincode',
    !['Delivered', 'RTO', 'DTO'].includes(query.get('ss') ?? '') && 'ss must be Delivered, RTO or DTO',
    !['Pre-paid', 'COD'].includes(query.get('pt') ?? '') && 'pt must be Pre-paid or COD',
  ].filter((p): p is string => p !== false)
  if (problems.length > 0) return { status: 400, body: { error: problems.join('; ') } }
  const slabs = Math.max(1, Math.ceil(Number(query.get('cgm')) / 500))
  const freight = slabs * 45 * (query.get('md') === 'E' ? 2 : 1)
  const cod = query.get('pt') === 'COD' ? Math.max(30, Number(query.get('cod') ?? 0) * 0.02) : 0
  const gross = freight + cod
  const round = (n: number) => Math.round(n * 100) / 100
  return {
    status: 200,
    body: [{ zone: 'D', charged_weight: Number(query.get('cgm')), charge_DL: freight, charge_COD: cod, gross_amount: round(gross), tax_data: { IGST: round(gross * 0.18), CGST: 0, SGST: 0 }, total_amount: round(gross * 1.18), status: query.get('ss') }],
  }
}

export interface PushOptions {
  /** The token sent as `Authorization: Bearer …`; null: no header. */
  token: string | null
  /** StatusDateTime, India's time without an offset (as Delhivery writes it). */
  at?: string
  /** NSLCode. */
  code?: string
  instructions?: string
  location?: string
}

/** The tracking push Delhivery posts for a waybill at a status (the published sample's shape). */
export function delhiveryWebhook(awb: string, statusType: string, status: string, options: PushOptions): { body: Record<string, unknown>; rawBody: Buffer; headers: IncomingHttpHeaders } {
  const body = {
    Shipment: {
      Status: {
        Status: status,
        StatusDateTime: options.at ?? '2026-11-24T11:43:52.767',
        StatusType: statusType,
        StatusLocation: options.location ?? 'Bengaluru_Indrngr_D (Karnataka)',
        Instructions: options.instructions ?? `${status} scan`,
      },
      PickUpDate: '2026-11-23T17:10:42.543',
      NSLCode: options.code ?? 'X-ILL2F',
      Sortcode: 'BLR/IDR',
      ReferenceNo: 'shp_01JABCDEFGHJKMNPQRSTVWXYZ0',
      AWB: awb,
    },
  }
  return { body, rawBody: Buffer.from(JSON.stringify(body)), headers: { 'content-type': 'application/json', ...(options.token !== null ? { authorization: `Bearer ${options.token}` } : {}) } }
}

/** A scan as packages/json lists it under Scans (oldest first). */
export function delhiveryScan(scanType: string, scan: string, at: string, code: string, instructions: string, location = 'Bengaluru_Indrngr_D (Karnataka)'): Record<string, unknown> {
  return { ScanDetail: { ScanDateTime: at, ScanType: scanType, Scan: scan, StatusDateTime: at, ScannedLocation: location, StatusCode: code, Instructions: instructions } }
}

/** The Shipment packages/json answers for a waybill: its scans, and its current status (the last scan's). */
export function delhiveryShipment(awb: string, scans: Record<string, unknown>[], expectedDeliveryDate: string | null = null): Record<string, unknown> {
  const last = (scans.at(-1)?.ScanDetail ?? {}) as Record<string, unknown>
  return {
    AWB: awb,
    ReferenceNo: 'shp_01JABCDEFGHJKMNPQRSTVWXYZ0',
    OrderType: 'Pre-paid',
    Origin: 'Bengaluru_Bomsndra_PC (Karnataka)',
    Destination: 'Bengaluru',
    ExpectedDeliveryDate: expectedDeliveryDate,
    PromisedDeliveryDate: expectedDeliveryDate,
    Status: { Status: last.Scan, StatusType: last.ScanType, StatusDateTime: last.StatusDateTime, StatusLocation: last.ScannedLocation, Instructions: last.Instructions, StatusCode: last.StatusCode, RecievedBy: '' },
    Scans: scans,
  }
}
