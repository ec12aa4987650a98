// Leaked fields (reliability plan API3): the exact key set of every object in the answers about
// orders, payments, refunds, returns, wallet, tickets and the back office, recursively, against
// whitelists written here from commerce-api.md and contract.md. A field the spec does not name (a
// hash, an internal id, a secret) fails the test; so does a whitelisted field that went missing.
// Nested objects that can be null or empty must have been seen filled at least once, so a leak
// cannot hide behind a null. (Unknown fields in requests are in mass-assignment.test.ts.)
import assert from 'node:assert/strict'
import { createHmac, randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { after, before, describe, test } from 'node:test'
import { gstinCheckCharacter } from '../../src/lib/gstin.ts'
import { createSandboxCarrier } from '../../src/modules/shipping/carriers/sandbox.ts'
import { customerHeaders, givenCustomer, givenPartner, randomPhone } from '../helpers/factories.ts'
import { ADDRESS, placeOrder } from '../helpers/shop.ts'
import { uploadedImage } from '../helpers/uploads.ts'
import { buildFixtures, type Fixtures, PREFIX } from './fixtures.ts'

let f: Fixtures
let hookServer: Server | undefined
before(async () => {
  f = await buildFixtures()
})
after(async () => {
  hookServer?.close()
  await f?.t.close()
})

/** A scalar: string, number, boolean or null, never an object or array. */
const V = 'scalar' as const
class Nullable {
  constructor(readonly shape: Shape) {}
}
/** An object whose keys are drawn from a fixed list, each holding a scalar (event payloads, which differ per event type). */
/** An object whose keys come from `keys`, each a scalar, or, for the keys of `objects`, an object of that shape. */
class KeysFrom {
  constructor(
    readonly keys: readonly string[],
    readonly objects: Record<string, Shape> = {},
  ) {}
}
/**
 * A copy of a stored record's fields (the audit log's before and after): any keys, but a field whose
 * name says it holds a secret or a hash holds '(hidden)' or null, never its value.
 */
class StoredValues {}
const SECRET_FIELD = /(Hash|Secret|Encrypted|Sealed|Token)$|^password$/
class ListOf {
  constructor(readonly item: Shape) {}
}
type Shape = typeof V | Nullable | KeysFrom | StoredValues | ListOf | { [key: string]: Shape }
const nullable = (shape: Shape) => new Nullable(shape)
const list = (item: Shape) => new ListOf(item)

/** The problems of one value against its shape; `seen` collects the nested paths found filled. */
function check(value: unknown, shape: Shape, path: string, problems: string[], seen: Set<string>) {
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)
  if (shape === V) {
    if (value !== null && typeof value === 'object') problems.push(`${path}: a scalar was whitelisted, got ${Array.isArray(value) ? 'an array' : `an object with keys ${Object.keys(value)}`}`)
    return
  }
  if (shape instanceof Nullable) {
    if (value === null) return
    seen.add(path)
    return check(value, shape.shape, path, problems, seen)
  }
  if (shape instanceof StoredValues) {
    if (!isObject(value)) return void problems.push(`${path}: expected an object`)
    for (const [key, v] of Object.entries(value)) if (SECRET_FIELD.test(key) && v !== '(hidden)' && v !== null) problems.push(`${path}.${key}: a secret's value shown`)
    return
  }
  if (shape instanceof KeysFrom) {
    if (!isObject(value)) return void problems.push(`${path}: expected an object`)
    for (const [key, v] of Object.entries(value)) {
      if (!shape.keys.includes(key)) problems.push(`${path}.${key}: not whitelisted`)
      else if (v !== null && typeof v === 'object' && shape.objects[key]) check(v, shape.objects[key], `${path}.${key}`, problems, seen)
      else if (v !== null && typeof v === 'object') problems.push(`${path}.${key}: a scalar was whitelisted`)
    }
    return
  }
  if (shape instanceof ListOf) {
    if (!Array.isArray(value)) return void problems.push(`${path}: expected an array`)
    if (value.length > 0) seen.add(`${path}[]`)
    value.forEach((item) => check(item, shape.item, `${path}[]`, problems, seen))
    return
  }
  if (!isObject(value)) return void problems.push(`${path}: expected an object, got ${JSON.stringify(value)?.slice(0, 60)}`)
  const fields = shape as { [key: string]: Shape }
  for (const key of Object.keys(value)) if (!(key in fields)) problems.push(`${path}.${key}: not whitelisted (leaked field?)`)
  for (const key of Object.keys(fields)) if (!(key in value)) problems.push(`${path}.${key}: whitelisted but missing`)
  for (const key of Object.keys(fields)) if (key in value) check(value[key], fields[key]!, `${path}.${key}`, problems, seen)
}

/** The nested paths of a shape that hold objects and may be null or empty: each must be seen filled once. */
function fillable(shape: Shape, path: string, out: string[] = []): string[] {
  if (shape === V || shape instanceof KeysFrom || shape instanceof StoredValues) return out
  if (shape instanceof Nullable) {
    if (shape.shape !== V) out.push(path)
    return fillable(shape.shape, path, out)
  }
  if (shape instanceof ListOf) {
    if (shape.item !== V && !(shape.item instanceof KeysFrom)) out.push(`${path}[]`)
    return fillable(shape.item, `${path}[]`, out)
  }
  for (const [key, sub] of Object.entries(shape as { [key: string]: Shape })) fillable(sub, `${path}.${key}`, out)
  return out
}

// The whitelists. Field names from commerce-api.md (Resources, Endpoints) and contract.md (orders,
// payments, refund record, returns, tickets, wallet, back office).
const PAYMENT = { id: V, orderId: V, provider: V, status: V, amount: V, currency: V, failureReason: V, createdAt: V, updatedAt: V }
/** A payout destination as answers show it (a bank account number masked: test/returns/cod-refunds.test.ts). */
const PAYOUT_DESTINATION = { method: V, vpa: V, accountHolderName: V, ifsc: V, accountNumber: V }
const REFUND = { id: V, returnRequestId: V, orderId: V, amount: V, method: V, status: V, providerRefundId: V, payoutTo: nullable(PAYOUT_DESTINATION), failureReason: V, createdAt: V }
/** The sandbox provider's session: what the partner app opens (contract.md, providers). */
const CLIENT_ACTION = { type: V, payload: nullable({ url: V, amount: V, currency: V, provider: V, sessionId: V }) }
/** GST (issue #28, decision 0021): added to the quote and the order, none of the spec's fields changed. */
const TAX_AMOUNTS = { taxableValue: V, cgst: V, sgst: V, igst: V, totalTax: V }
const TAX = {
  placeOfSupply: { stateCode: V, state: V },
  intraState: V,
  ...TAX_AMOUNTS,
  charges: list({ kind: V, amount: V, hsnCode: V, gstRateBps: V, ...TAX_AMOUNTS }),
}
/** A list that is always empty in this answer: an item of any key fails. */
const ALWAYS_EMPTY = list(new KeysFrom([]))
/** A parcel of the order (decision 0024), as the order answer, the back office and the shipment events carry it. */
const SHIPMENT = {
  id: V, direction: V, returnId: V, carrier: V, courierName: V, awb: V, trackingUrl: V, expectedDeliveryDate: V, status: V, weightGrams: V,
  resolution: nullable({ action: V, at: V }),
  items: list({ orderItemId: V, quantity: V }),
  events: list({ status: V, location: V, note: V, at: V, applied: V, refused: V }),
  ndrActions: list({ action: V, deferredDate: V, addressLine: V, phone: V, at: V }),
  createdAt: V,
  updatedAt: V,
}
/** A non-delivery action forwarded to the carrier (issue #38). */
const NDR_ACTION = { action: V, deferredDate: V, addressLine: V, phone: V, note: V, requestedBy: V, at: V }
const ORDER = {
  id: V,
  orderNumber: V,
  partnerId: V,
  userId: V,
  status: V,
  paymentStatus: V,
  paymentMode: V,
  deliveryMethod: V,
  items: list({
    id: V, productId: V, variantId: V, variantTitle: V, options: list({ name: V, value: V }), name: V, sku: V, imageUrl: V, quantity: V, unitPrice: V, mrp: V, lineTotal: V, couponDiscount: V, rewardPointsDiscount: V, paidAmount: V, cancelledQuantity: V, returnableQuantity: V,
    hsnCode: V, gstRateBps: V, taxableValue: V, cgst: V, sgst: V, igst: V, totalTax: V,
    prepaidDiscount: V,
  }),
  shippingAddress: { name: V, phone: V, line1: V, line2: V, landmark: V, city: V, state: V, pincode: V },
  alternatePhone: V,
  couponCode: V,
  itemsTotal: V,
  mrpTotal: V,
  couponDiscount: V,
  prepaidDiscount: V,
  shippingCharge: V,
  codFee: V,
  totalAmount: V,
  rewardPointsUsed: V,
  rewardPointsValue: V,
  walletCashUsed: V,
  amountPayable: V,
  rewardPointsEarned: V,
  reservationExpiresAt: V,
  cancelReason: V,
  statusHistory: list({ fromStatus: V, status: V, note: V, actor: V, at: V }),
  payment: nullable(PAYMENT),
  refunds: list(REFUND),
  deliveredAt: V,
  tax: nullable(TAX),
  shipments: list(SHIPMENT),
  createdAt: V,
  updatedAt: V,
}
const ORDER_SUMMARY = { id: V, orderNumber: V, partnerId: V, status: V, paymentStatus: V, paymentMode: V, totalAmount: V, amountPayable: V, itemCount: V, createdAt: V }
const RETURN = {
  id: V,
  partnerId: V,
  orderId: V,
  status: V,
  reason: V,
  detail: V,
  requestedResolution: V,
  requestedAmount: V,
  approvedAmount: V,
  imageUrls: list(V),
  items: list({ id: V, orderItemId: V, quantity: V, reason: V, requestedAmount: V }),
  refunds: list(REFUND),
  refundTo: nullable(PAYOUT_DESTINATION),
  replacementOrderId: V,
  // A return's pickup is a reverse parcel: never resolved as lost here (decision 0030), its resolution always null;
  // a failed pickup takes no non-delivery action (those are of forward parcels), so none are listed.
  pickup: nullable({ ...SHIPMENT, resolution: V, ndrActions: ALWAYS_EMPTY }),
  qualityCheck: nullable({ result: V, note: V, at: V, restocked: V }),
  createdAt: V,
  updatedAt: V,
}
const RETURN_SUMMARY = { id: V, orderId: V, status: V, reason: V, requestedResolution: V, requestedAmount: V }
const RETURN_ALLOWED = { nextStatuses: list(V), actions: { startRefund: V, bookPickup: V, qualityCheck: V } }
const TICKET = {
  id: V,
  partnerId: V,
  orderId: V,
  topic: V,
  detail: V,
  imageUrls: list(V),
  status: V,
  order: nullable({ id: V, orderNumber: V, status: V, totalAmount: V }),
  createdAt: V,
  updatedAt: V,
}
const MESSAGE = { id: V, ticketId: V, author: V, body: V, imageUrls: list(V), createdAt: V }
const BALANCES = { walletCash: V, rewardPoints: V }
const COUPON = {
  id: V,
  partnerId: V,
  code: V,
  kind: V,
  value: V,
  maxDiscount: V,
  minOrderValue: V,
  validFrom: V,
  validUntil: V,
  totalUsageLimit: V,
  perCustomerLimit: V,
  usedCount: V,
  categoryIds: nullable(list(V)),
  isActive: V,
}
const WEBHOOK = { partnerId: V, url: V, hasSecret: V }
const PARTY = { name: V, tradeName: V, gstin: V, phone: V, address: { line1: V, line2: V, city: V, state: V, pincode: V }, stateCode: V }
/** A GST invoice or credit note (src/modules/tax/document.ts). */
const DOCUMENT = {
  id: V, type: V, number: V, financialYear: V, issuedAt: V, date: V, orderId: V, orderNumber: V, invoice: nullable({ id: V, number: V, date: V }), reason: V,
  seller: PARTY, buyer: PARTY, placeOfSupply: { state: V, stateCode: V }, intraState: V, reverseCharge: V,
  lines: list({ position: V, kind: V, description: V, hsnCode: V, quantity: V, unit: V, unitPrice: V, amount: V, discount: V, taxableValue: V, gstRateBps: V, gstRate: V, cgst: V, sgst: V, igst: V, total: V }),
  totals: { taxableValue: V, cgst: V, sgst: V, igst: V, tax: V, total: V },
  amountInWords: V,
}
// An invoice's `invoice` (the invoice a credit note reverses) is always null.
const DOCUMENTS = { invoices: list({ ...DOCUMENT, invoice: V }), billsOfSupply: list({ ...DOCUMENT, invoice: V }), creditNotes: list(DOCUMENT) }
const REPORT_PLACE = { stateCode: V, state: V, label: V }
const REPORT_TOTALS = { count: V, taxableValue: V, cgst: V, sgst: V, igst: V, total: V }
const LISTED = { number: V, date: V, value: V, placeOfSupply: REPORT_PLACE, rateBps: V, rate: V, taxableValue: V, igst: V }
/** Every key an event's data holds, over all event types (src/modules/*: emit, recordEvent). */
const EVENT_DATA = new KeysFrom(
  [
    'orderId', 'orderNumber', 'status', 'from', 'paymentMode', 'paymentStatus', 'totalAmount', 'amountPayable', 'replacementFor',
    'paymentId', 'reason', 'amount', 'refundId', 'method', 'returnId', 'requestedResolution', 'ticketId', 'by', 'message', 'failureReason',
    'ticket', 'customerId', 'customer', 'order', 'return', 'refund', 'documentId', 'gstin', 'number', 'total', 'document',
    'items', 'refunded', 'cashToCollectReducedBy', 'rewardPointsReturned',
    'shipmentId', 'shipment', 'cancelledBy', 'ndrAction', 'resolution',
    'amountPaid', 'codFeeWaived', 'prepaidDiscount', 'saving',
  ],
  {
    // shipment.created and shipment.updated (orders/shipments.ts emitShipment; `from` and, for a cancelled parcel, `cancelledBy`).
    shipment: SHIPMENT,
    ndrAction: { action: V, deferredDate: V, addressLine: V, phone: V, note: V, requestedBy: V },
    resolution: { action: V, note: V, by: V },
    // order.items_cancelled (flows/order-moves/partial-cancel.ts).
    items: list({ orderItemId: V, quantity: V, amount: V, rewardPoints: V }),
    refunded: { originalPayment: V, walletCash: V },
    order: ORDER,
    document: DOCUMENT,
    return: RETURN,
    refund: REFUND,
    // The objects events carry, as the API answers them (issue #21); webhook.test's `message` is text.
    ticket: { id: V, partnerId: V, orderId: V, topic: V, detail: V, imageUrls: list(V), status: V, order: nullable({ id: V, orderNumber: V, status: V, totalAmount: V }), createdAt: V, updatedAt: V },
    message: { id: V, ticketId: V, author: V, body: V, imageUrls: list(V), createdAt: V },
    customer: { id: V, partnerId: V, phone: V, name: V, email: V, role: V },
  },
)
const EVENT = { id: V, partnerId: V, type: V, subjectId: V, data: EVENT_DATA, status: V, attempts: V, nextAttemptAt: V, lastError: V, deliveredAt: V, createdAt: V }
const ZONE_SLABS = list({ upToGrams: V, charge: V })
const ZONE = {
  id: V,
  name: V,
  serviceable: V,
  standardSlabs: ZONE_SLABS,
  standardMinDays: V,
  standardMaxDays: V,
  expressAvailable: V,
  expressSlabs: ZONE_SLABS,
  expressMinDays: V,
  expressMaxDays: V,
  freeShippingThreshold: V,
  cutoffHour: V,
  codAvailable: V,
  codLimit: V,
  codFee: V,
  updatedAt: V,
  pincodes: list({ prefix: V, city: V, state: V }),
}
const META = { total: V, page: V, limit: V, totalPages: V }

const SHAPES = {
  // A new order has no refunds nor shipments yet: empty lists here (their keys are checked on 'order').
  'order (create)': { ...ORDER, refunds: ALWAYS_EMPTY, shipments: ALWAYS_EMPTY, paymentClientAction: CLIENT_ACTION },
  'order': ORDER,
  'orders (list)': list(ORDER_SUMMARY),
  'payment (initiate)': { payment: PAYMENT, clientAction: CLIENT_ACTION },
  'payment (abandon)': PAYMENT,
  'return': RETURN,
  'returns (list)': list(RETURN_SUMMARY),
  'wallet': { balances: BALANCES, entries: list({ id: V, kind: V, amount: V, reason: V, reference: V, createdAt: V }) },
  'wallet quote': {
    itemsTotal: V, mrpTotal: V, couponDiscount: V, shippingCharge: V, codFee: V, totalAmount: V,
    rewardPointsUsed: V, rewardPointsValue: V, walletCashUsed: V, remainingPayable: V, balances: BALANCES,
    tax: nullable({ ...TAX, lines: list({ productId: V, hsnCode: V, gstRateBps: V, ...TAX_AMOUNTS }) }),
  },
  'ticket': TICKET,
  'tickets (list)': list(TICKET),
  'ticket message': MESSAGE,
  'ticket messages': list(MESSAGE),
  'customer token': { accessToken: V, tokenType: V, expiresIn: V, refreshToken: V, user: { id: V, partnerId: V, phone: V, name: V, email: V, role: V } },
  'admin login': { accessToken: V, tokenType: V, expiresIn: V, admin: { id: V, email: V, role: V, mustChangePassword: V } },
  // People (issue #39): an account never answers its password hash; a temporary password only to the invite and the reset.
  person: { id: V, email: V, role: V, isActive: V, mustChangePassword: V, createdAt: V },
  'people (list)': list({ id: V, email: V, role: V, isActive: V, mustChangePassword: V, createdAt: V }),
  'person with password': { admin: { id: V, email: V, role: V, isActive: V, mustChangePassword: V, createdAt: V }, temporaryPassword: V },
  'admin orders (list)': list(ORDER_SUMMARY),
  // The back office's search (issue #39): hits of every type, all scalars.
  'admin search (list)': list({ type: V, id: V, title: V, subtitle: V, exact: V, status: V, amount: V, partnerId: V, createdAt: V }),
  // The audit log (issue #39): who changed what; before and after are copies of stored fields.
  'admin audit log (list)': list({
    id: V, at: V, actorId: V, actorEmail: V, action: V, requestId: V, objectType: V, objectId: V, relatedId: V, operation: V,
    before: nullable(new StoredValues()), after: nullable(new StoredValues()),
  }),
  'admin order': { ...ORDER, payments: list(PAYMENT), nextStatuses: list(V), unparcelled: list({ orderItemId: V, quantity: V }) },
  'invoice': DOCUMENTS,
  'admin invoice': DOCUMENTS,
  'gst report': {
    gstin: V, legalName: V, catalogId: V, fp: V, from: V, to: V,
    b2cs: list({ type: V, placeOfSupply: REPORT_PLACE, supplyType: V, rateBps: V, rate: V, taxableValue: V, cgst: V, sgst: V, igst: V, cess: V }),
    b2cl: list(LISTED),
    cdnur: list({ ...LISTED, invoiceNumber: V, invoiceDate: V }),
    nil: list({ supplyType: V, nilRated: V, exempted: V, nonGst: V }),
    hsn: { b2b: list(V), b2c: list({ hsnCode: V, description: V, uqc: V, quantity: V, rateBps: V, rate: V, taxableValue: V, cgst: V, sgst: V, igst: V, cess: V }) },
    documentsIssued: list({ docNum: V, nature: V, series: list({ documentType: V, from: V, to: V, total: V, cancelled: V, netIssued: V }) }),
    ecoSupplies: list({ ecoGstin: V, netValue: V, igst: V, cgst: V, sgst: V, cess: V }),
    totals: { invoices: REPORT_TOTALS, billsOfSupply: REPORT_TOTALS, creditNotes: REPORT_TOTALS, net: REPORT_TOTALS },
  },
  // What the back office may do now (issue #39, docs/returns.md), and words for the ids: the order's number, the items' names and SKUs.
  'admin returns (list)': list({ ...RETURN_SUMMARY, ...RETURN_ALLOWED, orderNumber: V }),
  'admin return': {
    ...RETURN,
    items: list({ id: V, orderItemId: V, quantity: V, reason: V, requestedAmount: V, name: V, sku: V }),
    orderNumber: V,
    userId: V,
    history: list({ fromStatus: V, status: V, actor: V, note: V, at: V }),
    ...RETURN_ALLOWED,
  },
  'admin tickets (list)': list(TICKET),
  'admin ticket': { ...TICKET, userId: V, messages: list(MESSAGE) },
  'admin coupon': COUPON,
  'admin coupons (list)': list(COUPON),
  'admin ledger adjustment': BALANCES,
  'admin pricing': { rewardEarnPercent: V, rewardRedeemCapPercent: V, paisePerPoint: V, returnWindowDays: V, prepaidDiscountPercent: V, prepaidDiscountCap: V },
  'admin delivery zone': ZONE,
  'prepaid conversion quote': { eligible: V, reasons: list(V), amountToPay: V, codFeeWaived: V, prepaidDiscount: V, saving: V },
  'prepaid conversion': { payment: PAYMENT, clientAction: CLIENT_ACTION, saving: V },
  'admin delivery zones (list)': list(ZONE),
  'admin webhook': WEBHOOK,
  'admin webhook (secret shown once)': { ...WEBHOOK, secret: V },
  'admin webhook (secret rotated)': { ...WEBHOOK, secret: V, previousSecretExpiresAt: V },
  'admin events (list)': list(EVENT),
  'carrier callbacks (list)': list({ id: V, carrier: V, problem: V, detail: V, unknownAwbs: list(V), body: V, receivedAt: V }),
  // Fulfilment (decision 0024): the back office's parcel, the carrier callback's receipt, the sandbox tracking buttons' result, the pick list.
  'admin shipment': { ...SHIPMENT, ndrActions: list(NDR_ACTION), orderId: V, labelUrl: V, dimensionsCm: { length: V, breadth: V, height: V }, ewayBillNo: V, origin: nullable({ locationId: V, pickupName: V }), pickup: nullable({ requestedAt: V, scheduledAt: V, reference: V }), resolution: nullable({ action: V, at: V, note: V, resolvedBy: V }) },
  'shipping rates': {
    zoneRule: nullable({ zoneId: V, zoneName: V, carrier: V, courierRule: V }),
    weightGrams: V,
    dimensionsCm: { length: V, breadth: V, height: V },
    rates: list({ carrier: V, courierId: V, courierName: V, charge: V, estimatedDays: V, recommended: V, cheapest: V, fastest: V }),
    unavailableCarriers: list(V),
  },
  // The partner's NDR answers a parcel whose delivery failed: never a resolved one (its resolution is null).
  'partner shipment': { ...SHIPMENT, resolution: V, orderId: V, ndrActions: list(NDR_ACTION) },
  'tracking receipt': { received: V, applied: V, duplicates: V, unknown: V },
  'sandbox tracking result': { shipmentId: V, orderId: V, shipmentStatus: V, orderStatus: V, applied: V },
  manifest: {
    carrier: V,
    date: V,
    parcels: list({ awb: V, orderNumber: V, courierName: V, units: V, weightGrams: V, codAmount: V, ewayBillNo: V }),
    totals: { parcels: V, units: V, weightGrams: V, codAmount: V },
  },
  'pick list': { date: V, shipments: V, lines: list({ sku: V, name: V, quantity: V, orders: list(V) }) },
  'admin event': { ...EVENT, deliveries: list({ id: V, url: V, statusCode: V, error: V, durationMs: V, createdAt: V }) },
  'admin cod rules': { maxOpenCodOrders: V, maxCodValue: V, rtoLimit: V, rtoWindowDays: V, maxRefusedDeliveries: V, refusedWindowDays: V, firstOrderCap: V },
  'zone rule': { zoneId: V, zoneName: V, carrier: V, courierRule: V, updatedBy: V, updatedAt: V },
  'zone rules (list)': list({ zoneId: V, zoneName: V, carrier: V, courierRule: V, updatedBy: V, updatedAt: V }),
  'admin cod blocked pincode': { pincode: V, reason: V, createdAt: V },
  'admin cod blocked pincodes (list)': list({ pincode: V, reason: V, createdAt: V }),
} satisfies Record<string, Shape>
type Kind = keyof typeof SHAPES

const NEWER_EVENT_TYPES = ['shipment.created', 'shipment.updated', 'order.items_cancelled'] as const

/** The answers collected per kind: [what was called, body]. */
const samples = new Map<Kind, { call: string; body: Record<string, unknown> }[]>()

describe('answers carry only whitelisted keys', () => {
  const call = async (kind: Kind, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: object, status = method === 'POST' ? [200, 201] : [200]) => {
    const res = await f.t.app.inject({ method, url: `${PREFIX}${url}`, headers, ...(payload ? { payload } : {}) })
    assert.ok(status.includes(res.statusCode), `${kind}: ${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`)
    const body = res.json() as Record<string, unknown>
    // The envelope's statusCode is the HTTP status (a 201 says 201).
    assert.equal(body.statusCode, res.statusCode, `${kind}: ${method} ${url}: the envelope says ${String(body.statusCode)}`)
    const list = samples.get(kind) ?? []
    list.push({ call: `${method} ${url}`, body })
    samples.set(kind, list)
    return body.data as Record<string, unknown> & { id: string }
  }

  before(async () => {
    const t = f.t
    const a1 = f.objects.A1.customer
    const me = customerHeaders(a1)
    const admin = { authorization: `Bearer ${f.adminTokens.ADMIN}` }
    const key = () => ({ ...me, 'x-idempotency-key': randomUUID() })
    const productId = f.objects.A1.productId

    // Partner A's webhook goes to a local listener, so events get deliveries.
    hookServer = createServer((_req, res) => res.end('ok'))
    await new Promise<void>((resolve) => hookServer!.listen(0, '127.0.0.1', resolve))
    const hookUrl = `http://127.0.0.1:${(hookServer.address() as { port: number }).port}/hooks`
    await call('admin webhook (secret shown once)', 'PUT', `/admin/partners/${f.partners.A.partnerId}/webhook`, admin, { url: hookUrl })
    await call('admin webhook (secret rotated)', 'POST', `/admin/partners/${f.partners.A.partnerId}/webhook/rotate-secret`, admin)
    await call('admin webhook', 'GET', `/admin/partners/${f.partners.A.partnerId}/webhook`, admin)

    // Coupons, pricing, zones, a ledger credit (so the wallet has entries).
    const coupon = await call('admin coupon', 'POST', `/admin/partners/${f.partners.A.partnerId}/coupons`, admin, {
      code: `KEYS${randomUUID().slice(0, 6)}`, kind: 'PERCENT', value: 10, maxDiscount: '50.00', totalUsageLimit: 100, perCustomerLimit: 5, categoryIds: [],
    })
    await call('admin coupon', 'PATCH', `/admin/coupons/${coupon.id}`, admin, { validUntil: new Date(Date.now() + 86_400_000).toISOString() })
    await call('admin coupons (list)', 'GET', `/admin/partners/${f.partners.A.partnerId}/coupons`, admin)
    await call('admin pricing', 'PUT', `/admin/partners/${f.partners.C.partnerId}/pricing`, admin, { rewardEarnPercent: 1, rewardRedeemCapPercent: 10, paisePerPoint: 100, returnWindowDays: 7 })
    await call('admin delivery zone', 'PATCH', `/admin/delivery-zones/${f.admin.zoneId}`, admin, { cutoffHour: 13, expressSlabs: [{ upToGrams: 500, charge: '60.00' }], pincodes: [{ prefix: '194', city: 'Leh', state: 'Ladakh' }] })
    await call('admin delivery zones (list)', 'GET', '/admin/delivery-zones', admin)
    await call('admin ledger adjustment', 'POST', `/admin/customers/${a1.userId}/ledger`, admin, { kind: 'WALLET_CASH', amount: '20.00', reason: 'Goodwill' })
    await call('admin ledger adjustment', 'POST', `/admin/customers/${a1.userId}/ledger`, admin, { kind: 'REWARD_POINTS', amount: 40, reason: 'Goodwill' })

    // GST: partner A's catalog has a registered seller (Maharashtra; the orders go to Karnataka) and its product a rate, so the tax blocks are filled.
    assert.equal((await t.app.inject({ method: 'PUT', url: `${PREFIX}/admin/catalogs/${f.partners.A.catalogId}/seller`, headers: admin, payload: {
      legalName: 'Acme Retail Private Limited', gstin: '27AAPFU0939F1ZV', address: { line1: '12 Nariman Point', city: 'Mumbai', state: 'Maharashtra', pincode: '400021' },
    } })).statusCode, 200)
    assert.equal((await t.app.inject({ method: 'PATCH', url: `${PREFIX}/admin/products/${productId}`, headers: admin, payload: { hsnCode: '1101', gstRateBps: 500 } })).statusCode, 200)

    // Orders: COD with the coupon, points and wallet; prepaid paid then cancelled (a refund); one more for the payment calls.
    const cod = await call('order (create)', 'POST', '/orders', key(), {
      items: [{ productId, quantity: 3 }], shippingAddress: ADDRESS, alternatePhone: '9876500000', paymentMode: 'COD', couponCode: String(coupon.code), useRewardPoints: true, useWalletCash: true,
    })
    // Some of its units cancelled, by the customer and by the back office (order.items_cancelled, a Wallet Cash refund).
    const codLine = (cod.items as { id: string }[])[0]!.id
    await call('order', 'POST', `/orders/${cod.id}/cancel-items`, me, { items: [{ orderItemId: codLine, quantity: 1 }], reason: 'Ordered too many' })
    await call('admin order', 'POST', `/admin/orders/${cod.id}/cancel-items`, admin, { items: [{ orderItemId: codLine, quantity: 1 }], reason: 'Out of stock' })
    const paid = await call('order (create)', 'POST', '/orders', key(), { items: [{ productId, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'PREPAID' })
    const session = (paid.paymentClientAction as { payload: { sessionId: string } }).payload.sessionId
    assert.equal((await t.app.inject({ method: 'POST', url: `${PREFIX}/sandbox/checkout/${session}/pay` })).statusCode, 200)
    await call('order', 'POST', `/orders/${paid.id}/cancel`, me, { reason: 'Changed my mind' })
    await call('order', 'GET', `/orders/${paid.id}`, me)
    await call('order', 'GET', `/orders/${f.objects.A1.deliveredOrder.id}`, me)
    await call('orders (list)', 'GET', '/orders', me)
    const pending = await f.fresh.prepaidOrder(a1)
    const initiated = await call('payment (initiate)', 'POST', `/orders/${pending.id}/payments`, key())
    await call('payment (abandon)', 'POST', `/orders/${pending.id}/payments/${(initiated.payment as { id: string }).id}/abandon`, me)
    await call('admin order', 'GET', `/admin/orders/${paid.id}`, admin)
    // A COD order paid online instead (COD -> prepaid, issue #25): quote, session, success (order.converted_to_prepaid).
    await call('admin pricing', 'PUT', `/admin/partners/${f.partners.A.partnerId}/pricing`, admin, { rewardEarnPercent: 1, rewardRedeemCapPercent: 10, paisePerPoint: 100, prepaidDiscountPercent: 5, prepaidDiscountCap: '25.00' })
    await call('admin pricing', 'GET', `/admin/partners/${f.partners.A.partnerId}/pricing`, admin)
    const toConvert = await f.fresh.codOrder(a1)
    await call('prepaid conversion quote', 'GET', `/orders/${toConvert.id}/convert-to-prepaid`, me)
    const conversion = await call('prepaid conversion', 'POST', `/orders/${toConvert.id}/convert-to-prepaid`, key())
    assert.equal((await t.app.inject({ method: 'POST', url: `${PREFIX}/sandbox/checkout/${(conversion.clientAction as { payload: { sessionId: string } }).payload.sessionId}/pay` })).statusCode, 200)
    await call('order', 'GET', `/orders/${toConvert.id}`, me)
    await call('prepaid conversion', 'POST', `/partner/orders/${(await f.fresh.codOrder(a1)).id}/convert-to-prepaid`, { 'x-partner-id': f.partners.A.partnerId, 'x-partner-secret': f.partners.A.secret, 'x-idempotency-key': randomUUID() })
    // Its invoice and the credit note of its cancellation; a large inter-state invoice for the report's B2CL and CDNUR.
    await call('invoice', 'GET', `/orders/${paid.id}/invoice`, me)
    await call('admin invoice', 'GET', `/admin/orders/${paid.id}/invoice`, admin)
    const category = await t.deps.database.db.query.categories.findFirst({ where: (c, { eq }) => eq(c.catalogId, f.partners.A.catalogId) })
    const tv = await t.app.inject({ method: 'POST', url: `${PREFIX}/admin/catalogs/${f.partners.A.catalogId}/products`, headers: admin, payload: {
      name: 'Television', slug: 'key-sets-tv', brand: 'Acme', sku: 'KS-TV', categoryId: category!.id, sellingPrice: '110000.00', mrp: '120000.00', stock: 5, hsnCode: '85287200', gstRateBps: 1800,
    } })
    assert.equal(tv.statusCode, 201, tv.body)
    const large = await call('order (create)', 'POST', '/orders', key(), { items: [{ productId: tv.json().data.id, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'PREPAID' })
    assert.equal((await t.app.inject({ method: 'POST', url: `${PREFIX}/sandbox/checkout/${(large.paymentClientAction as { payload: { sessionId: string } }).payload.sessionId}/pay` })).statusCode, 200)
    await call('order', 'POST', `/orders/${large.id}/cancel`, me, { reason: 'Too many' })
    // Partner A's app collects the payment (an e-commerce operator: GSTR-1 Table 14), and a mixed order gets a tax invoice and a bill of supply of its nil-rated goods.
    const ecoGstin = `27AAACF1234A1C${gstinCheckCharacter('27AAACF1234A1C')}`
    assert.equal((await t.app.inject({ method: 'PATCH', url: `${PREFIX}/admin/partners/${f.partners.A.partnerId}`, headers: admin, payload: { ecoGstin } })).statusCode, 200)
    const rice = await t.app.inject({ method: 'POST', url: `${PREFIX}/admin/catalogs/${f.partners.A.catalogId}/products`, headers: admin, payload: {
      name: 'Rice', slug: 'key-sets-rice', brand: 'Acme', sku: 'KS-RICE', categoryId: category!.id, sellingPrice: '60.00', mrp: '60.00', stock: 5, hsnCode: '1006', gstRateBps: 0,
    } })
    assert.equal(rice.statusCode, 201, rice.body)
    // Rice in two packs (decision 0043): the order line names its variant as sold, its options filled.
    const packs = await t.app.inject({ method: 'PUT', url: `${PREFIX}/admin/products/${rice.json().data.id}/variants`, headers: admin, payload: {
      options: [{ name: 'Pack', values: ['1 kg', '5 kg'] }],
      variants: [
        { options: [{ name: 'Pack', value: '1 kg' }], sku: 'KS-RICE-1', sellingPrice: '60.00', mrp: '60.00', stock: 5 },
        { options: [{ name: 'Pack', value: '5 kg' }], sku: 'KS-RICE-5', sellingPrice: '280.00', mrp: '300.00', stock: 5 },
      ],
    } })
    assert.equal(packs.statusCode, 200, packs.body)
    const onePack = { productId: rice.json().data.id, variantId: packs.json().data.variants[0].id, quantity: 1 }
    const mixed = await call('order (create)', 'POST', '/orders', key(), { items: [onePack, { productId, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
    await call('order', 'GET', `/orders/${mixed.id}`, me)
    await call('admin order', 'GET', `/admin/orders/${mixed.id}`, admin)
    await call('invoice', 'GET', `/orders/${mixed.id}/invoice`, me)
    await call('admin invoice', 'GET', `/admin/orders/${mixed.id}/invoice`, admin)
    await call('admin orders (list)', 'GET', '/admin/orders?limit=5', admin)
    // The partner changed and the product made above, among the rest of the back office's writes.
    await call('admin audit log (list)', 'GET', '/admin/audit-log?limit=100', admin)
    // A customer and their orders by the account phone; products by the beginning of their SKUs.
    await call('admin search (list)', 'GET', `/admin/search?q=${a1.phone}&limit=10`, admin)
    await call('admin search (list)', 'GET', '/admin/search?q=KS-&limit=10', admin)

    // A return with evidence, approved and refunded to the wallet.
    const evidence = await uploadedImage(t, a1, 'returns')
    const ret = await call('return', 'POST', '/returns', me, {
      orderId: f.objects.A1.deliveredOrder.id, reason: 'Damaged', detail: 'Torn', requestedResolution: 'WALLET_CREDIT', imageUrls: [evidence],
      items: [{ orderItemId: f.objects.A1.deliveredOrder.itemId, quantity: 1, reason: 'Torn' }],
    })
    for (const status of ['UNDER_REVIEW', 'APPROVED', 'REFUND_PENDING']) await call('admin return', 'POST', `/admin/returns/${ret.id}/status`, admin, { status, note: 'Checked' })
    // Its pickup, received and checked (decision 0024): the return's pickup and qualityCheck filled.
    const picked = await call('admin return', 'POST', `/admin/returns/${ret.id}/pickup`, admin, { weightGrams: 400 })
    const pickupAwb = String((picked.pickup as { awb: string }).awb)
    for (const status of ['IN_TRANSIT', 'DELIVERED']) await call('sandbox tracking result', 'POST', `/sandbox/shipments/${pickupAwb}/${status}`, {})
    await call('admin return', 'POST', `/admin/returns/${ret.id}/quality-check`, admin, { result: 'PASSED', note: 'Resellable' })
    await call('return', 'GET', `/returns/${ret.id}`, me)
    // The cash of another unit paid out to a bank account (issue #25): refundTo and payoutTo filled, the number masked.
    const paidOut = await call('return', 'POST', '/returns', me, {
      orderId: f.objects.A1.deliveredOrder.id, reason: 'Damaged', detail: 'Torn', requestedResolution: 'ORIGINAL_PAYMENT_REFUND',
      refundTo: { method: 'BANK', accountHolderName: 'Asha Rao', ifsc: 'HDFC0001234', accountNumber: '50100123454321' },
      items: [{ orderItemId: f.objects.A1.deliveredOrder.itemId, quantity: 1, reason: 'Torn' }],
    })
    for (const status of ['UNDER_REVIEW', 'APPROVED', 'REFUND_PENDING']) await call('admin return', 'POST', `/admin/returns/${paidOut.id}/status`, admin, { status })
    await call('return', 'GET', `/returns/${paidOut.id}`, me)
    await call('order', 'GET', `/orders/${f.objects.A1.deliveredOrder.id}`, me)
    await call('admin order', 'GET', `/admin/orders/${f.objects.A1.deliveredOrder.id}`, admin)
    await call('return', 'PUT', `/returns/${(await call('return', 'POST', '/returns', me, {
      orderId: f.objects.A1.deliveredOrder.id, reason: 'Damaged', detail: 'Torn', requestedResolution: 'ORIGINAL_PAYMENT_REFUND',
      items: [{ orderItemId: f.objects.A1.deliveredOrder.itemId, quantity: 1, reason: 'Torn' }],
    })).id}/refund-to`, me, { method: 'UPI', vpa: 'asha@oksbi' })
    await call('returns (list)', 'GET', '/returns', me)
    await call('admin return', 'GET', `/admin/returns/${ret.id}`, admin)
    await call('admin returns (list)', 'GET', '/admin/returns?limit=5', admin)
    const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10)
    await call('gst report', 'GET', `/admin/catalogs/${f.partners.A.catalogId}/tax/gstr1?from=2026-01-01&to=${today}`, admin)
    await call('wallet', 'GET', '/wallet', me)
    await call('wallet quote', 'POST', '/wallet/quote', me, { items: [{ productId, quantity: 1 }], pincode: '560001', useRewardPoints: true, useWalletCash: true })

    // A ticket about an order, with images, and a conversation.
    const photo = await uploadedImage(t, a1, 'support')
    const ticket = await call('ticket', 'POST', '/support/tickets', me, { topic: 'Damaged item', detail: 'Crushed box', orderId: paid.id, imageUrls: [photo] })
    await call('ticket message', 'POST', `/support/tickets/${ticket.id}/messages`, me, { body: 'Another photo', imageUrls: [await uploadedImage(t, a1, 'support')] })
    await call('ticket message', 'POST', `/admin/support/tickets/${ticket.id}/messages`, admin, { body: 'Looking into it' })
    await call('ticket', 'GET', `/support/tickets/${ticket.id}`, me)
    await call('tickets (list)', 'GET', '/support/tickets', me)
    await call('ticket messages', 'GET', `/support/tickets/${ticket.id}/messages`, me)
    await call('admin ticket', 'GET', `/admin/support/tickets/${ticket.id}`, admin)
    await call('admin tickets (list)', 'GET', '/admin/support/tickets?limit=5', admin)

    // Credentials: a customer token and an admin login.
    await call('customer token', 'POST', '/auth/customer-token', { 'x-partner-id': f.partners.A.partnerId, 'x-partner-secret': f.partners.A.secret }, { phone: randomPhone(), name: 'Key Sets', email: 'keys@example.com' })
    await call('admin login', 'POST', '/admin/auth/login', {}, { email: f.adminEmail, password: 'long-enough-password' })
    // People: an invitation, a role change, a reset, the list.
    const invited = await call('person with password', 'POST', '/admin/admins', admin, { email: `keys-${Date.now()}@people.test`, role: 'SUPPORT' })
    const personId = String((invited.admin as { id: string }).id)
    await call('person', 'PATCH', `/admin/admins/${personId}`, admin, { role: 'CATALOG' })
    await call('person with password', 'POST', `/admin/admins/${personId}/reset-password`, admin)
    await call('people (list)', 'GET', '/admin/admins', admin)

    // Shipments of a COD order of two units (one parcel at a time: its cash is collected at one door):
    // a parcel booked and cancelled (shipment.updated with cancelledBy), then the one that travels,
    // moved by a signed carrier callback and by the sandbox tracking button, read and refreshed.
    const shipped = await f.fresh.codOrder(a1, 2)
    const shippedLine = shipped.items[0]!.id
    const first = await call('admin shipment', 'POST', `/admin/orders/${shipped.id}/shipments`, admin, { weightGrams: 700, items: [{ orderItemId: shippedLine, quantity: 1 }] })
    await call('admin shipment', 'POST', `/admin/shipments/${first.id}/cancel`, admin)
    // The zone of the order's pincode gets a carrier rule (the sandbox, as the default), seen in the quote, then removed.
    const zoneId = (await t.app.inject({ method: 'GET', url: `${PREFIX}/admin/delivery-zones?search=${ADDRESS.pincode}`, headers: admin })).json().data[0].id
    await call('zone rule', 'PUT', `/admin/fulfilment/zone-rules/${zoneId}`, admin, { carrier: 'sandbox', courierRule: null })
    await call('zone rules (list)', 'GET', '/admin/fulfilment/zone-rules', admin)
    // A signed callback naming an AWB booked nowhere: kept (decision 0044), its AWB listed.
    const sandboxCarrier = createSandboxCarrier({ secret: createHmac('sha256', t.deps.config.authSecret).update('sandbox-carrier').digest('hex'), publicBaseUrl: '' })
    const stray = sandboxCarrier.signedEvent(sandboxCarrier.eventFor('SBX0000000000999', 'IN_TRANSIT'))
    const strayAnswer = await t.app.inject({ method: 'POST', url: `${PREFIX}/shipping/webhooks/sandbox`, headers: stray.headers as Record<string, string>, payload: stray.rawBody })
    assert.equal(strayAnswer.statusCode, 200, strayAnswer.body)
    await call('carrier callbacks (list)', 'GET', '/admin/fulfilment/carrier-callbacks?carrier=sandbox', admin)
    await call('shipping rates', 'POST', `/admin/orders/${shipped.id}/shipping-rates`, admin, {})
    await call('zone rule', 'DELETE', `/admin/fulfilment/zone-rules/${zoneId}`, admin)
    const parcel = await call('admin shipment', 'POST', `/admin/orders/${shipped.id}/shipments`, admin, { weightGrams: 700 })
    const carrier = createSandboxCarrier({ secret: createHmac('sha256', t.deps.config.authSecret).update('sandbox-carrier').digest('hex'), publicBaseUrl: '' })
    const signed = carrier.signedEvent(carrier.eventFor(String(parcel.awb), 'IN_TRANSIT', new Date(Date.now() - 60_000), 'Left the hub'))
    await call('tracking receipt', 'POST', '/shipping/webhooks/sandbox', signed.headers as Record<string, string>, signed.rawBody)
    await call('sandbox tracking result', 'POST', `/sandbox/shipments/${String(parcel.awb)}/OUT_FOR_DELIVERY`, {})
    await call('admin shipment', 'GET', `/admin/shipments/${parcel.id}`, admin)
    await call('admin shipment', 'POST', `/admin/shipments/${parcel.id}/refresh`, admin)
    // A failed attempt the recipient refused, then a re-attempt asked by the back office and the partner's server.
    const failed = carrier.signedEvent({ ...carrier.eventFor(String(parcel.awb), 'DELIVERY_FAILED', new Date(Date.now() + 1_000)), note: 'Consignee refused to accept' })
    await call('tracking receipt', 'POST', '/shipping/webhooks/sandbox', failed.headers as Record<string, string>, failed.rawBody)
    const tomorrow = new Date(Date.now() + 5.5 * 3_600_000 + 86_400_000).toISOString().slice(0, 10)
    await call('admin shipment', 'POST', `/admin/shipments/${parcel.id}/ndr`, admin, { action: 'REATTEMPT', deferredDate: tomorrow, addressLine: 'Flat 4B', phone: '9876543210', note: 'Call first' })
    await call('partner shipment', 'POST', `/partner/shipments/${parcel.id}/ndr`, { 'x-partner-id': f.partners.A.partnerId, 'x-partner-secret': f.partners.A.secret }, { action: 'RTO' })
    // Then lost on the way, and resolved by sending its units again (shipment.updated with resolution).
    const lost = carrier.signedEvent(carrier.eventFor(String(parcel.awb), 'LOST', new Date(Date.now() + 2_000)))
    await call('tracking receipt', 'POST', '/shipping/webhooks/sandbox', lost.headers as Record<string, string>, lost.rawBody)
    await call('admin shipment', 'POST', `/admin/shipments/${parcel.id}/resolve`, admin, { action: 'RESHIP', note: 'Claim filed' })
    // A parcel from a stock location (decision 0043): catalog D keeps its stock at one.
    const buyerD = await givenCustomer(t.app, await givenPartner(t.deps, 'Partner of catalog D', f.admin.locations.catalogId))
    const orderD = await placeOrder(t, buyerD, { items: [{ productId: f.admin.locations.productId, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
    assert.equal(orderD.statusCode, 201, orderD.body)
    await call('admin shipment', 'POST', `/admin/orders/${orderD.json().data.id}/shipments`, admin, {})
    await call('order', 'GET', `/orders/${shipped.id}`, me)
    await call('admin order', 'GET', `/admin/orders/${shipped.id}`, admin)
    await call('pick list', 'GET', '/admin/fulfilment/pick-list', admin)
    await call('manifest', 'GET', '/admin/fulfilment/manifest?carrier=sandbox', admin)

    // Events, once delivered to the listener.
    while ((await t.app.dispatcher.dispatchOnce()) > 0) {
      /* drain */
    }
    const events = await call('admin events (list)', 'GET', `/admin/events?partnerId=${f.partners.A.partnerId}&limit=100`, admin)
    const delivered = (events as unknown as { id: string; status: string }[]).find((e) => e.status === 'DELIVERED')
    assert.ok(delivered, 'an event was delivered to the listener')
    await call('admin event', 'GET', `/admin/events/${delivered.id}`, admin)
    // The events of the newer types, whatever the list above reached.
    for (const type of NEWER_EVENT_TYPES) await call('admin events (list)', 'GET', `/admin/events?partnerId=${f.partners.A.partnerId}&type=${type}&limit=20`, admin)

    // Cash-on-delivery risk rules and blocked pincodes, on partner C (no orders of these fixtures use them).
    const codRules = `/admin/partners/${f.partners.C.partnerId}/cod-rules`
    await call('admin cod rules', 'PUT', codRules, admin, { maxOpenCodOrders: 3, maxCodValue: '5000.00', rtoLimit: 2, rtoWindowDays: 90, maxRefusedDeliveries: 2, refusedWindowDays: 60, firstOrderCap: '2000.00' })
    await call('admin cod rules', 'GET', codRules, admin)
    const blocked = `/admin/partners/${f.partners.C.partnerId}/cod-blocked-pincodes`
    await call('admin cod blocked pincode', 'POST', blocked, admin, { pincode: '682001', reason: 'Refused parcels' })
    await call('admin cod blocked pincodes (list)', 'GET', blocked, admin)
    await call('admin cod blocked pincode', 'DELETE', `${blocked}/682001`, admin)
  })

  test('the event data checked includes that of shipment.created, shipment.updated (a cancelled parcel too) and order.items_cancelled', () => {
    const events = (samples.get('admin events (list)') ?? []).flatMap(({ body }) => body.data as { type: string; data: Record<string, unknown> }[])
    for (const type of NEWER_EVENT_TYPES) assert.ok(events.some((e) => e.type === type), `no ${type} event was checked`)
    assert.ok(events.some((e) => e.type === 'shipment.updated' && 'cancelledBy' in e.data), 'no cancelled parcel event was checked')
  })

  for (const [kind, shape] of Object.entries(SHAPES) as [Kind, Shape][]) {
    test(`the ${kind} answer carries only whitelisted keys`, () => {
      const got = samples.get(kind) ?? []
      assert.ok(got.length > 0, `no ${kind} answer was collected`)
      const problems: string[] = []
      const seen = new Set<string>()
      for (const { call, body } of got) {
        const envelope = { statusCode: V, message: V, data: V, ...('meta' in body ? { meta: META } : {}) }
        const local: string[] = []
        check({ ...body, data: null }, envelope, '', local, seen)
        check(body.data, shape, 'data', local, seen)
        problems.push(...local.map((p) => `${call}: ${p}`))
      }
      assert.deepEqual(problems, [])
      const unseen = fillable(shape, 'data').filter((path) => !seen.has(path))
      assert.deepEqual(unseen, [], `nested objects never seen filled in ${got.length} answer(s): their keys went unchecked`)
    })
  }
})
