// The route table of the authorization matrix (test/security/authorization-matrix.test.ts): every
// route Fastify registers, with its guard (AUTH), the status its rightful caller gets and, for
// routes that take an object id, whose object it is; `req` builds the request of one cell. The
// matrix hands over its fixtures with useFixtures() before the first cell runs.
import { randomInt, randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { AdminRole } from '../../src/modules/admins/index.ts'
import { gstinCheckCharacter } from '../../src/lib/gstin.ts'
import { givenCustomer, givenPartner, randomPhone } from '../helpers/factories.ts'
import { png } from '../helpers/uploads.ts'
import { type CustomerName, type Fixtures, type OwnedObjects, type PartnerName, PREFIX, type Principal, zoneBody } from './fixtures.ts'

let f: Fixtures
export function useFixtures(fixtures: Fixtures) {
  f = fixtures
}

/** The guard of a route. `fixed`: the request carries its own credential (a refresh token, a
 * provider signature, a sandbox session, an upload signature), so every principal gets `status`
 * for the request below; the positive cells are in "credentials carried in the request". */
export type Auth = 'public' | 'apiKey' | 'customer' | 'customerOfPartner' | 'partnerSecret' | { admin: AdminRole[] } | { fixed: number }

// ---------------------------------------------------------------------------------------------
// The route table

export interface Cell {
  p: Principal
  /** The objects the request names: those of `ownerName` (A1 unless the route iterates owners). */
  o: OwnedObjects
  ownerName: CustomerName
  /** For partner-owned routes: whose catalog the request names. */
  partner: PartnerName
  /** The principal's own objects (A1's for non-customers): carts use its partner's products. */
  mine: OwnedObjects
  /** The cell expects a success: a route that changes its object gets a fresh one. */
  allowed: boolean
}
export interface Req {
  url?: string
  payload?: object | string
  headers?: Record<string, string>
}
export interface Route {
  auth: Auth
  ok: number
  owner?: 'customer' | 'partner'
  req?: (c: Cell) => Req | Promise<Req>
}

export const SUPPORT: { admin: AdminRole[] } = { admin: ['SUPPORT'] }
export const CATALOG: { admin: AdminRole[] } = { admin: ['CATALOG'] }
export const ADMIN_ONLY: { admin: AdminRole[] } = { admin: [] }
export const idem = () => ({ 'x-idempotency-key': randomUUID() })
export const items = (c: Cell) => [{ productId: c.mine.productId, quantity: 1 }]
export const partnerC = () => f.partners.C.partnerId
export const uploadFiles = { files: [{ fileName: 'photo.png', contentType: 'image/png', sizeBytes: 100 }] }
export const address = { label: 'Home', line1: '12 MG Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560001' }

export const MATRIX: Record<string, Route> = {
  // Health and the OpenAPI document: public.
  'GET /health/live': { auth: 'public', ok: 200 },
  'GET /health/ready': { auth: 'public', ok: 200 },
  'GET /health': { auth: 'public', ok: 200 },
  'GET /openapi.json': { auth: 'public', ok: 200 },

  // Credentials exchanged in the request.
  'POST /auth/customer-token': { auth: 'partnerSecret', ok: 200, req: () => ({ payload: { phone: randomPhone() } }) },
  'POST /auth/refresh': { auth: { fixed: 401 }, ok: 200, req: () => ({ payload: { refreshToken: 'rt_not-a-real-token' } }) },
  // Logout is idempotent: an unknown refresh token succeeds (the token itself is the credential).
  'POST /auth/logout': { auth: { fixed: 200 }, ok: 200, req: () => ({ payload: { refreshToken: 'rt_not-a-real-token' } }) },
  'POST /admin/auth/login': { auth: { fixed: 401 }, ok: 200, req: () => ({ payload: { email: 'nobody@matrix.test', password: 'not-the-password' } }) },
  // People (ADMIN only): a fresh invitee for each allowed cell that changes one; one's own password: every role, with a wrong current password (400 shows the route ran).
  'GET /admin/admins': { auth: ADMIN_ONLY, ok: 200 },
  'POST /admin/admins': { auth: ADMIN_ONLY, ok: 201, req: () => ({ payload: { email: `matrix-${randomUUID()}@people.test`, role: 'SUPPORT' } }) },
  'PATCH /admin/admins/:adminId': { auth: ADMIN_ONLY, ok: 200, req: async () => ({ url: `/admin/admins/${await invitee()}`, payload: { role: 'CATALOG' } }) },
  'POST /admin/admins/:adminId/reset-password': { auth: ADMIN_ONLY, ok: 200, req: async () => ({ url: `/admin/admins/${await invitee()}/reset-password` }) },
  'PUT /admin/me/password': { auth: { admin: ['SUPPORT', 'CATALOG'] }, ok: 400, req: () => ({ payload: { currentPassword: 'not-the-password', newPassword: 'a-new-long-password' } }) },
  'POST /admin/shipments/labels': { auth: SUPPORT, ok: 200, req: async () => ({ payload: { shipmentIds: [(await sharedParcel()).id] } }) },

  // Catalog: a valid API key, answering from its own catalog only.
  'GET /categories': { auth: 'apiKey', ok: 200 },
  'GET /products': { auth: 'apiKey', ok: 200 },
  'GET /products/:slug': { auth: 'apiKey', ok: 200, owner: 'partner', req: (c) => ({ url: `/products/${f.slugs[c.partner]}` }) },
  'GET /search': { auth: 'apiKey', ok: 200, req: () => ({ url: '/search?q=tea' }) },

  // Profile and address book: customer token, x-partner-id optional.
  'GET /users/me': { auth: 'customer', ok: 200 },
  'PATCH /users/me': { auth: 'customer', ok: 200, req: () => ({ payload: { name: 'Renamed customer' } }) },
  'GET /users/me/addresses': { auth: 'customer', ok: 200 },
  'POST /users/me/addresses': { auth: 'customer', ok: 201, req: () => ({ payload: address }) },
  'PATCH /users/me/addresses/:addressId': { auth: 'customer', ok: 200, owner: 'customer', req: (c) => ({ url: `/users/me/addresses/${c.o.addressId}`, payload: { label: 'Work' } }) },
  'DELETE /users/me/addresses/:addressId': {
    auth: 'customer',
    ok: 200,
    owner: 'customer',
    req: async (c) => ({ url: `/users/me/addresses/${c.allowed ? await f.fresh.address(c.o.customer) : c.o.addressId}` }),
  },

  // Checkout and wallet: customer token and its x-partner-id.
  'POST /checkout/serviceability': { auth: 'customerOfPartner', ok: 200, req: (c) => ({ payload: { pincode: '560001', items: items(c) } }) },
  'GET /checkout/delivery-quote': { auth: 'customerOfPartner', ok: 200, req: (c) => ({ url: `/checkout/delivery-quote?pincode=560001&items=${c.mine.productId}:1` }) },
  'GET /checkout/cod-eligibility': { auth: 'customerOfPartner', ok: 200, req: () => ({ url: '/checkout/cod-eligibility?pincode=560001&collectableAmount=100.00' }) },
  'POST /wallet/quote': { auth: 'customerOfPartner', ok: 200, req: (c) => ({ payload: { items: items(c), pincode: '560001' } }) },
  'GET /wallet': { auth: 'customerOfPartner', ok: 200 },

  // Orders and their payments. Denied cells aim at objects the action would succeed on.
  'POST /orders': {
    auth: 'customerOfPartner',
    ok: 201,
    owner: 'customer', // the saved address in the body
    req: (c) => ({ headers: idem(), payload: { items: items(c), shippingAddress: { addressId: c.o.addressId, landmark: 'Near the park' }, paymentMode: 'COD' } }),
  },
  'GET /orders': { auth: 'customerOfPartner', ok: 200 },
  'GET /orders/:orderId': { auth: 'customerOfPartner', ok: 200, owner: 'customer', req: (c) => ({ url: `/orders/${c.o.deliveredOrder.id}` }) },
  'GET /orders/:orderId/invoice': {
    auth: 'customerOfPartner',
    ok: 200,
    owner: 'customer',
    req: async (c) => ({ url: `/orders/${c.allowed ? await invoicedOrder(c.o.customer) : c.o.deliveredOrder.id}/invoice` }),
  },
  'POST /orders/:orderId/cancel': {
    auth: 'customerOfPartner',
    ok: 200,
    owner: 'customer',
    req: async (c) => ({ url: `/orders/${c.allowed ? (await f.fresh.codOrder(c.o.customer)).id : c.o.pendingOrder.id}/cancel`, payload: { reason: 'Changed my mind' } }),
  },
  'POST /orders/:orderId/cancel-items': {
    auth: 'customerOfPartner',
    ok: 200,
    owner: 'customer',
    req: async (c) => {
      const order = c.allowed ? await f.fresh.codOrder(c.o.customer, 2) : await twoUnitOrder(c.o.customer)
      return { url: `/orders/${order.id}/cancel-items`, payload: { items: [{ orderItemId: order.items[0]!.id, quantity: 1 }], reason: 'Ordered too many' } }
    },
  },
  'POST /orders/:orderId/payments': {
    auth: 'customerOfPartner',
    ok: 201,
    owner: 'customer',
    req: async (c) => ({ url: `/orders/${c.allowed ? (await f.fresh.prepaidOrder(c.o.customer)).id : c.o.pendingOrder.id}/payments`, headers: idem() }),
  },
  'POST /orders/:orderId/payments/:paymentId/abandon': {
    auth: 'customerOfPartner',
    ok: 200,
    owner: 'customer',
    req: async (c) => {
      const order = c.allowed ? await f.fresh.prepaidOrder(c.o.customer) : c.o.pendingOrder
      return { url: `/orders/${order.id}/payments/${order.paymentId}/abandon` }
    },
  },
  // The test app pays out through the sandbox, which has no callbacks: 404 for everyone (RazorpayX's: test/payments/razorpayx-payouts.test.ts).
  'POST /payouts/webhooks/:provider': { auth: { fixed: 404 }, ok: 404, req: () => ({ url: '/payouts/webhooks/razorpayx', payload: { event: 'payout.processed' } }) },
  'POST /payments/webhooks/:provider': { auth: { fixed: 401 }, ok: 200, req: () => ({ url: '/payments/webhooks/sandbox', payload: { id: 'evt_unsigned', type: 'payment.succeeded' } }) },
  'GET /sandbox/checkout/:sessionId': { auth: { fixed: 404 }, ok: 200, req: () => ({ url: '/sandbox/checkout/no-such-session' }) },
  'POST /sandbox/checkout/:sessionId/:action': { auth: { fixed: 404 }, ok: 200, req: () => ({ url: '/sandbox/checkout/no-such-session/pay' }) },

  // Carrier tracking: the signature over the body is the credential (none here: 401); the sandbox
  // tracking page and its buttons take the AWB as the capability (an unknown one: 404). The positive
  // cells are in "credentials carried in the request".
  'POST /shipping/webhooks/:carrier': {
    auth: { fixed: 401 },
    ok: 200,
    req: () => ({ url: '/shipping/webhooks/sandbox', payload: { id: 'sbxtrk_unsigned', awb: 'SBX0000000000000', status: 'DELIVERED', occurredAt: new Date().toISOString() } }),
  },
  'GET /sandbox/shipments/:awb': { auth: { fixed: 404 }, ok: 200, req: () => ({ url: '/sandbox/shipments/SBX0000000000000' }) },
  'POST /sandbox/shipments/:awb/:status': { auth: { fixed: 404 }, ok: 200, req: () => ({ url: '/sandbox/shipments/SBX0000000000000/DELIVERED' }) },

  // Back office: orders (SUPPORT).
  'GET /admin/orders': { auth: SUPPORT, ok: 200 },
  'GET /admin/orders/stats': { auth: SUPPORT, ok: 200 },
  'GET /admin/orders/:orderId/invoice': { auth: SUPPORT, ok: 200, req: async (c) => ({ url: `/admin/orders/${await invoicedOrder(c.mine.customer)}/invoice` }) },
  'GET /admin/orders/:orderId': { auth: SUPPORT, ok: 200, req: () => ({ url: `/admin/orders/${f.objects.A1.deliveredOrder.id}` }) },
  'POST /admin/orders/:orderId/cancel-items': {
    auth: SUPPORT,
    ok: 200,
    req: async (c) => {
      const order = c.allowed ? await f.fresh.codOrder(f.objects.A1.customer, 2) : await twoUnitOrder(f.objects.A1.customer)
      return { url: `/admin/orders/${order.id}/cancel-items`, payload: { items: [{ orderItemId: order.items[0]!.id, quantity: 1 }], reason: 'Matrix' } }
    },
  },
  'POST /admin/orders/:orderId/status': {
    auth: SUPPORT,
    ok: 200,
    req: async (c) => ({
      url: `/admin/orders/${c.allowed ? (await f.fresh.prepaidOrder(f.objects.A1.customer)).id : f.objects.A1.pendingOrder.id}/status`,
      payload: { status: 'CANCELLED', note: 'Matrix' },
    }),
  },

  // Back office: fulfilment (SUPPORT; decision 0024). Denied cells aim at a parcel (or an order)
  // the action would succeed on; the cells that succeed book their own.
  'POST /admin/orders/:orderId/shipments': {
    auth: SUPPORT,
    ok: 201,
    req: async (c) => ({ url: `/admin/orders/${c.allowed ? (await f.fresh.codOrder(f.objects.A1.customer)).id : (await shippableOrder()).id}/shipments`, payload: { weightGrams: 500 } }),
  },
  'POST /admin/orders/:orderId/shipping-rates': { auth: SUPPORT, ok: 200, req: async () => ({ url: `/admin/orders/${(await shippableOrder()).id}/shipping-rates`, payload: {} }) },
  'GET /admin/shipments/:shipmentId': { auth: SUPPORT, ok: 200, req: async () => ({ url: `/admin/shipments/${(await sharedParcel()).id}` }) },
  'POST /admin/shipments/:shipmentId/cancel': {
    auth: SUPPORT,
    ok: 200,
    req: async (c) => ({ url: `/admin/shipments/${(c.allowed ? await freshParcel() : await sharedParcel()).id}/cancel` }),
  },
  // A parcel of the merchant's own delivery, booked for each allowed cell and moved on its way; the denied cells try the shared carrier parcel.
  'POST /admin/shipments/:shipmentId/status': {
    auth: SUPPORT,
    ok: 200,
    req: async (c) => ({ url: `/admin/shipments/${(c.allowed ? await ownDelivery() : await sharedParcel()).id}/status`, payload: { status: 'IN_TRANSIT' } }),
  },
  // A fresh lost parcel for each allowed cell (a resolution happens once); the denied cells touch a shared one.
  'POST /admin/shipments/:shipmentId/resolve': {
    auth: SUPPORT,
    ok: 200,
    req: async (c) => ({ url: `/admin/shipments/${(c.allowed ? await lostParcel(freshParcel()) : await sharedLostParcel()).id}/resolve`, payload: { action: 'REFUND' } }),
  },
  'POST /admin/shipments/:shipmentId/ndr': { auth: SUPPORT, ok: 200, req: async () => ({ url: `/admin/shipments/${(await failedParcel(f.objects.A1.customer)).id}/ndr`, payload: { action: 'RTO' } }) },
  'POST /partner/shipments/:shipmentId/ndr': { auth: 'partnerSecret', ok: 200, req: async (c) => ({ url: `/partner/shipments/${(await failedParcel(c.mine.customer)).id}/ndr`, payload: { action: 'RTO' } }) },
  // A parcel whose pickup the carrier did not accept (the sandbox accepts at once: the test clears it).
  'POST /admin/shipments/:shipmentId/pickup': { auth: SUPPORT, ok: 200, req: async () => ({ url: `/admin/shipments/${(await parcelAwaitingPickup()).id}/pickup` }) },
  'POST /admin/shipments/:shipmentId/refresh': { auth: SUPPORT, ok: 200, req: async () => ({ url: `/admin/shipments/${(await sharedParcel()).id}/refresh` }) },
  'GET /admin/shipments/:shipmentId/label': { auth: SUPPORT, ok: 200, req: async () => ({ url: `/admin/shipments/${(await sharedParcel()).id}/label` }) },
  'GET /admin/fulfilment/pick-list': { auth: SUPPORT, ok: 200 },
  'GET /admin/fulfilment/manifest': { auth: SUPPORT, ok: 200, req: () => ({ url: '/admin/fulfilment/manifest?carrier=sandbox' }) },
  // Courier rules of the matrix zone (it has no pincodes: no booking goes by them). SUPPORT reads, ADMIN writes.
  'GET /admin/fulfilment/zone-rules': { auth: SUPPORT, ok: 200 },
  'GET /admin/fulfilment/carrier-callbacks': { auth: SUPPORT, ok: 200 },
  'PUT /admin/fulfilment/zone-rules/:zoneId': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/fulfilment/zone-rules/${f.admin.zoneId}`, payload: { carrier: null, courierRule: 'CHEAPEST' } }) },
  'DELETE /admin/fulfilment/zone-rules/:zoneId': {
    auth: ADMIN_ONLY,
    ok: 200,
    req: async (c) => {
      if (c.allowed) await f.t.deps.database.db.execute(sql`insert into zone_courier_rules values (${f.admin.zoneId}, null, 'FASTEST', 'ADMIN:matrix', now()) on conflict do nothing`)
      return { url: `/admin/fulfilment/zone-rules/${f.admin.zoneId}` }
    },
  },

  // A partner's own server (x-partner-id + x-partner-secret; no principal of the grid has a secret,
  // the positive cells and partner B's 404 are in test/orders/partner-sync.test.ts).
  'GET /partner/orders': { auth: 'partnerSecret', ok: 200 },
  'GET /partner/orders/:orderId/invoice': { auth: 'partnerSecret', ok: 200, req: async (c) => ({ url: `/partner/orders/${await invoicedOrder(c.mine.customer)}/invoice` }) },
  'GET /partner/orders/:orderId': { auth: 'partnerSecret', ok: 200, req: () => ({ url: `/partner/orders/${f.objects.A1.deliveredOrder.id}` }) },
  'GET /partner/returns': { auth: 'partnerSecret', ok: 200 },
  'GET /partner/returns/:returnRequestId': { auth: 'partnerSecret', ok: 200, req: () => ({ url: `/partner/returns/${f.objects.A1.returnId}` }) },
  'GET /partner/support/tickets': { auth: 'partnerSecret', ok: 200 },
  'GET /partner/support/tickets/:ticketId': { auth: 'partnerSecret', ok: 200, req: () => ({ url: `/partner/support/tickets/${f.objects.A1.ticketId}` }) },
  'POST /partner/support/tickets/:ticketId/messages': { auth: 'partnerSecret', ok: 201, req: () => ({ url: `/partner/support/tickets/${f.objects.A1.ticketId}/messages`, payload: { body: 'Matrix' } }) },
  'POST /partner/support/tickets/:ticketId/status': { auth: 'partnerSecret', ok: 200, req: () => ({ url: `/partner/support/tickets/${f.objects.A1.ticketId}/status`, payload: { status: 'IN_PROGRESS' } }) },
  'GET /partner/webhook': { auth: 'partnerSecret', ok: 200 },
  'DELETE /partner/webhook': { auth: 'partnerSecret', ok: 200 },
  'POST /partner/webhook/rotate-secret': { auth: 'partnerSecret', ok: 200 },
  'POST /partner/webhook/ping': { auth: 'partnerSecret', ok: 200 },
  'PUT /partner/webhook': { auth: 'partnerSecret', ok: 200, req: () => ({ payload: { url: 'https://hooks.example.com/a' } }) },
  'GET /partner/events': { auth: 'partnerSecret', ok: 200 },
  'GET /partner/events/:eventId': { auth: 'partnerSecret', ok: 200, req: () => ({ url: `/partner/events/${f.admin.eventId}` }) },
  'POST /partner/events/:eventId/replay': { auth: 'partnerSecret', ok: 200, req: () => ({ url: `/partner/events/${f.admin.eventId}/replay` }) },
  'GET /partner/customers': { auth: 'partnerSecret', ok: 200 },
  'GET /partner/customers/:userId': { auth: 'partnerSecret', ok: 200, req: () => ({ url: `/partner/customers/${f.objects.A1.customer.userId}` }) },

  // Back office: customers (SUPPORT). Blocking takes a fresh customer, so the shared ones stay usable.
  'GET /admin/customers': { auth: SUPPORT, ok: 200 },
  // The back office's one search box (issue #39): every partner's orders, customers and products.
  'GET /admin/search': { auth: SUPPORT, ok: 200, req: () => ({ url: '/admin/search?q=ab' }) },
  'GET /admin/audit-log': { auth: SUPPORT, ok: 200, req: () => ({ url: '/admin/audit-log?limit=1' }) },
  'GET /admin/customers/:userId': { auth: SUPPORT, ok: 200, req: () => ({ url: `/admin/customers/${f.objects.A1.customer.userId}` }) },
  'POST /admin/customers/:userId/block': {
    auth: SUPPORT,
    ok: 200,
    req: async (c) => ({ url: `/admin/customers/${c.allowed ? (await givenCustomer(f.t.app, f.partners.A)).userId : f.objects.A2.customer.userId}/block`, payload: { reason: 'Matrix' } }),
  },
  'POST /admin/customers/:userId/unblock': { auth: SUPPORT, ok: 200, req: () => ({ url: `/admin/customers/${f.objects.A1.customer.userId}/unblock` }) },

  // Back office: partners and API keys (ADMIN only). Cells that change a partner get a fresh one.
  'POST /admin/partners': { auth: ADMIN_ONLY, ok: 201, req: () => ({ url: '/admin/partners', payload: { name: `Matrix ${randomUUID()}` } }) },
  'GET /admin/partners': { auth: ADMIN_ONLY, ok: 200 },
  'GET /admin/partners/:partnerId': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/partners/${partnerC()}` }) },
  'PATCH /admin/partners/:partnerId': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/partners/${partnerC()}`, payload: { returnUrlOrigins: ['https://c.example'] } }) },
  'POST /admin/partners/:partnerId/deactivate': { auth: ADMIN_ONLY, ok: 200, req: async (c) => ({ url: `/admin/partners/${c.allowed ? (await givenPartner(f.t.deps, 'Matrix')).partnerId : partnerC()}/deactivate` }) },
  'POST /admin/partners/:partnerId/rotate-secret': { auth: ADMIN_ONLY, ok: 200, req: async (c) => ({ url: `/admin/partners/${c.allowed ? (await givenPartner(f.t.deps, 'Matrix')).partnerId : partnerC()}/rotate-secret` }) },
  'GET /admin/partners/:partnerId/api-keys': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/partners/${partnerC()}/api-keys` }) },
  'POST /admin/partners/:partnerId/api-keys': { auth: ADMIN_ONLY, ok: 201, req: () => ({ url: `/admin/partners/${partnerC()}/api-keys`, payload: { name: 'matrix' } }) },
  'POST /admin/partners/:partnerId/api-keys/:keyId/revoke': {
    auth: ADMIN_ONLY,
    ok: 200,
    req: async (c) => {
      const partner = c.allowed ? await givenPartner(f.t.deps, 'Matrix') : f.partners.C
      return { url: `/admin/partners/${partner.partnerId}/api-keys/${partner.apiKeyId}/revoke` }
    },
  },

  // Back office: partner webhooks and events (ADMIN only).
  'GET /admin/partners/:partnerId/webhook': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/partners/${partnerC()}/webhook` }) },
  'PUT /admin/partners/:partnerId/webhook': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/partners/${partnerC()}/webhook`, payload: { url: 'https://hooks.example.com/c' } }) },
  'DELETE /admin/partners/:partnerId/webhook': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/partners/${partnerC()}/webhook` }) },
  'POST /admin/partners/:partnerId/webhook/rotate-secret': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/partners/${partnerC()}/webhook/rotate-secret` }) },
  'POST /admin/partners/:partnerId/webhook/ping': {
    auth: ADMIN_ONLY,
    ok: 200,
    req: async () => {
      await f.fresh.webhookUrl(partnerC()) // a URL nobody answers at in this sandbox: the ping answers what happened
      return { url: `/admin/partners/${partnerC()}/webhook/ping` }
    },
  },
  'POST /admin/partners/:partnerId/webhook/test': {
    auth: ADMIN_ONLY,
    ok: 201,
    req: async () => {
      await f.fresh.webhookUrl(partnerC()) // so that a leak would queue an event (201), not answer 409
      return { url: `/admin/partners/${partnerC()}/webhook/test` }
    },
  },
  'GET /admin/events': { auth: ADMIN_ONLY, ok: 200 },
  'GET /admin/events/:eventId': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/events/${f.admin.eventId}` }) },
  'POST /admin/events/:eventId/replay': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/events/${f.admin.eventId}/replay` }) },
  'POST /admin/events/replay-failed': { auth: ADMIN_ONLY, ok: 200, req: () => ({ payload: { partnerId: partnerC() } }) },

  // Evidence uploads: slots need the customer; the signed PUT needs its signature; a publicUrl is
  // itself the capability to read the file (unguessable object name), so anyone holding it may.
  'POST /support/uploads/signed-urls': { auth: 'customerOfPartner', ok: 201, req: () => ({ payload: uploadFiles }) },
  'POST /returns/uploads/signed-urls': { auth: 'customerOfPartner', ok: 201, req: () => ({ payload: uploadFiles }) },
  'PUT /uploads/*': { auth: { fixed: 403 }, ok: 201, req: () => ({ url: `/uploads/support/${randomUUID()}/photo.png`, payload: png(100), headers: { 'content-type': 'image/png' } }) },
  'GET /uploads/*': { auth: { fixed: 200 }, ok: 200, req: () => ({ url: new URL(f.objects.A1.imageUrl).pathname.slice(PREFIX.length) }) },

  // Support tickets: customer side, then back office (SUPPORT).
  'POST /support/tickets': {
    auth: 'customerOfPartner',
    ok: 201,
    owner: 'customer', // the order in the body
    req: (c) => ({ payload: { topic: 'Damaged item', detail: 'The box was crushed', orderId: c.o.deliveredOrder.id } }),
  },
  'GET /support/tickets': { auth: 'customerOfPartner', ok: 200 },
  'GET /support/tickets/:ticketId': { auth: 'customerOfPartner', ok: 200, owner: 'customer', req: (c) => ({ url: `/support/tickets/${c.o.ticketId}` }) },
  'GET /support/tickets/:ticketId/messages': { auth: 'customerOfPartner', ok: 200, owner: 'customer', req: (c) => ({ url: `/support/tickets/${c.o.ticketId}/messages` }) },
  'POST /support/tickets/:ticketId/messages': { auth: 'customerOfPartner', ok: 201, owner: 'customer', req: (c) => ({ url: `/support/tickets/${c.o.ticketId}/messages`, payload: { body: 'Any news?' } }) },
  'GET /admin/support/tickets': { auth: SUPPORT, ok: 200 },
  'GET /admin/support/tickets/:ticketId': { auth: SUPPORT, ok: 200, req: () => ({ url: `/admin/support/tickets/${f.objects.A1.ticketId}` }) },
  'POST /admin/support/tickets/:ticketId/messages': { auth: SUPPORT, ok: 201, req: () => ({ url: `/admin/support/tickets/${f.objects.A1.ticketId}/messages`, payload: { body: 'Looking into it' } }) },
  'POST /admin/support/tickets/:ticketId/uploads/signed-urls': {
    auth: SUPPORT,
    ok: 201,
    req: () => ({ url: `/admin/support/tickets/${f.objects.A1.ticketId}/uploads/signed-urls`, payload: { files: [{ fileName: 'chart.png', contentType: 'image/png', sizeBytes: 100 }] } }),
  },
  'POST /admin/support/tickets/:ticketId/status': {
    auth: SUPPORT,
    ok: 200,
    req: async (c) => ({ url: `/admin/support/tickets/${c.allowed ? await f.fresh.ticket(f.objects.A1.customer) : f.objects.A2.ticketId}/status`, payload: { status: 'IN_PROGRESS' } }),
  },

  // Returns: customer side, then back office (SUPPORT).
  'POST /returns': {
    auth: 'customerOfPartner',
    ok: 201,
    owner: 'customer', // the order and its item in the body
    req: (c) => ({
      payload: {
        orderId: c.o.deliveredOrder.id,
        reason: 'Damaged',
        detail: 'The pack was torn',
        requestedResolution: 'WALLET_CREDIT',
        items: [{ orderItemId: c.o.deliveredOrder.itemId, quantity: 1, reason: 'Torn' }],
      },
    }),
  },
  'GET /returns': { auth: 'customerOfPartner', ok: 200 },
  'GET /returns/:returnRequestId': { auth: 'customerOfPartner', ok: 200, owner: 'customer', req: (c) => ({ url: `/returns/${c.o.returnId}` }) },
  'POST /returns/:returnRequestId/respond': {
    auth: 'customerOfPartner',
    ok: 200,
    owner: 'customer',
    req: async (c) => ({
      url: `/returns/${c.allowed ? await f.fresh.returnRequest(c.o.customer, c.o.deliveredOrder, 'NEEDS_INFO') : c.o.returnId}/respond`,
      payload: { detail: 'Photo attached' },
    }),
  },
  'PUT /returns/:returnRequestId/refund-to': {
    auth: 'customerOfPartner',
    ok: 200,
    owner: 'customer',
    req: async (c) => ({
      url: `/returns/${c.allowed ? await f.fresh.returnRequest(c.o.customer, c.o.deliveredOrder, undefined, 'ORIGINAL_PAYMENT_REFUND') : c.o.returnId}/refund-to`,
      payload: { method: 'UPI', vpa: 'asha@oksbi' },
    }),
  },
  'GET /admin/returns': { auth: SUPPORT, ok: 200 },
  'GET /admin/returns/:returnRequestId': { auth: SUPPORT, ok: 200, req: () => ({ url: `/admin/returns/${f.objects.A1.returnId}` }) },
  'POST /admin/returns/:returnRequestId/status': {
    auth: SUPPORT,
    ok: 200,
    req: async (c) => {
      const a2 = f.objects.A2
      const id = c.allowed ? await f.fresh.returnRequest(a2.customer, a2.deliveredOrder) : a2.returnId
      return { url: `/admin/returns/${id}/status`, payload: { status: 'UNDER_REVIEW' } }
    },
  },

  // Return pickups and the quality check (decision 0024): an approved return of A2 for the allowed cells.
  'POST /admin/returns/:returnRequestId/pickup': {
    auth: SUPPORT,
    ok: 200,
    req: async (c) => {
      const a2 = f.objects.A2
      const id = c.allowed ? await f.fresh.returnRequest(a2.customer, a2.deliveredOrder, 'APPROVED') : a2.returnId
      return { url: `/admin/returns/${id}/pickup`, payload: { weightGrams: 500 } }
    },
  },
  'POST /admin/returns/:returnRequestId/quality-check': {
    auth: SUPPORT,
    ok: 200,
    req: async (c) => {
      const a2 = f.objects.A2
      const id = c.allowed ? await f.fresh.returnRequest(a2.customer, a2.deliveredOrder, 'APPROVED') : a2.returnId
      return { url: `/admin/returns/${id}/quality-check`, payload: { result: 'FAILED', note: 'Opened' } }
    },
  },

  // Back office: checkout settings (ADMIN only) and ledger adjustments (SUPPORT).
  'GET /admin/delivery-zones': { auth: ADMIN_ONLY, ok: 200 },
  'POST /admin/delivery-zones': { auth: ADMIN_ONLY, ok: 201, req: () => ({ payload: zoneBody(`Zone ${randomUUID()}`) }) },
  'PATCH /admin/delivery-zones/:zoneId': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/delivery-zones/${f.admin.zoneId}`, payload: { cutoffHour: 13 } }) },
  'PUT /admin/partners/:partnerId/pricing': {
    auth: ADMIN_ONLY,
    ok: 200,
    req: () => ({ url: `/admin/partners/${partnerC()}/pricing`, payload: { rewardEarnPercent: 1, rewardRedeemCapPercent: 10, paisePerPoint: 100 } }),
  },
  'POST /admin/partners/:partnerId/coupons': {
    auth: ADMIN_ONLY,
    ok: 201,
    req: () => ({ url: `/admin/partners/${partnerC()}/coupons`, payload: { code: `M${randomUUID().slice(0, 8)}`, kind: 'FLAT', value: '5.00' } }),
  },
  'GET /admin/partners/:partnerId/coupons': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/partners/${partnerC()}/coupons` }) },
  'PATCH /admin/coupons/:couponId': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/coupons/${f.admin.couponId}`, payload: { isActive: true } }) },
  'POST /admin/customers/:userId/ledger': {
    auth: SUPPORT,
    ok: 200,
    req: () => ({ url: `/admin/customers/${f.objects.A1.customer.userId}/ledger`, payload: { kind: 'WALLET_CASH', amount: '1.00', reason: 'Goodwill credit' } }),
  },

  // Back office: catalog (CATALOG), on catalog C.
  'GET /admin/catalogs': { auth: CATALOG, ok: 200 },
  'POST /admin/catalogs': { auth: CATALOG, ok: 201, req: () => ({ payload: { name: `Matrix ${randomUUID()}` } }) },
  'GET /admin/catalogs/:catalogId/categories': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/catalogs/${f.admin.catalogId}/categories` }) },
  'POST /admin/catalogs/:catalogId/categories': {
    auth: CATALOG,
    ok: 201,
    req: () => ({ url: `/admin/catalogs/${f.admin.catalogId}/categories`, payload: { name: 'New', slug: `c-${randomUUID().slice(0, 8)}` } }),
  },
  'GET /admin/categories/:categoryId': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/categories/${f.admin.categoryId}` }) },
  'PATCH /admin/categories/:categoryId': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/categories/${f.admin.categoryId}`, payload: { name: 'Misc renamed' } }) },
  'GET /admin/catalogs/:catalogId/products': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/catalogs/${f.admin.catalogId}/products` }) },
  'POST /admin/catalogs/:catalogId/products': {
    auth: CATALOG,
    ok: 201,
    req: () => {
      const id = randomUUID().slice(0, 8)
      return {
        url: `/admin/catalogs/${f.admin.catalogId}/products`,
        payload: { name: 'New thing', slug: `c-${id}`, brand: 'C', sku: `C-${id}`, categoryId: f.admin.categoryId, sellingPrice: '10.00', mrp: '12.00' },
      }
    },
  },
  'GET /admin/products/:productId': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/products/${f.admin.productId}` }) },
  'PATCH /admin/products/:productId': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/products/${f.admin.productId}`, payload: { description: 'Updated by the matrix' } }) },
  'POST /admin/products/:productId/stock': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/products/${f.admin.productId}/stock`, payload: { delta: 1 } }) },
  // A product given variants cannot go back, and its flat stock is then refused: each allowed cell gets a fresh product.
  'PUT /admin/products/:productId/variants': {
    auth: CATALOG,
    ok: 200,
    req: async (c) => ({ url: `/admin/products/${c.allowed ? await freshAdminProduct() : f.admin.productId}/variants`, payload: SIZE_GRID }),
  },
  'PATCH /admin/products/:productId/variants/:variantId': {
    auth: CATALOG,
    ok: 200,
    req: async (c) => {
      if (!c.allowed) return { url: `/admin/products/${f.admin.productId}/variants/var_matrix`, payload: { stock: 3 } }
      const productId = await freshAdminProduct()
      const put = await f.t.app.inject({ method: 'PUT', url: `${PREFIX}/admin/products/${productId}/variants`, headers: { authorization: `Bearer ${f.adminTokens.ADMIN}` }, payload: SIZE_GRID })
      return { url: `/admin/products/${productId}/variants/${put.json().data.variants[0].id}`, payload: { stock: 3 } }
    },
  },
  'GET /admin/catalogs/:catalogId/locations': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/catalogs/${f.admin.locations.catalogId}/locations` }) },
  'POST /admin/catalogs/:catalogId/locations': {
    auth: CATALOG,
    ok: 201,
    req: () => ({ url: `/admin/catalogs/${f.admin.locations.catalogId}/locations`, payload: { name: `Store ${randomUUID().slice(0, 6)}`, addressLine1: '2 Hill Road', city: 'Mumbai', state: 'Maharashtra', pincode: '400050' } }),
  },
  'PATCH /admin/locations/:locationId': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/locations/${f.admin.locations.locationId}`, payload: { pickupName: 'MATRIX-WH' } }) },
  'GET /admin/locations/:locationId/stock': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/locations/${f.admin.locations.locationId}/stock` }) },
  'POST /admin/locations/:locationId/stock': {
    auth: CATALOG,
    ok: 200,
    req: () => ({ url: `/admin/locations/${f.admin.locations.locationId}/stock`, payload: { productId: f.admin.locations.productId, kind: 'RECEIVE', quantity: 1, reason: 'Matrix receipt' } }),
  },
  'POST /admin/locations/:locationId/transfers': {
    auth: CATALOG,
    ok: 200,
    req: async () => {
      const other = await f.t.app.inject({
        method: 'POST',
        url: `${PREFIX}/admin/catalogs/${f.admin.locations.catalogId}/locations`,
        headers: { authorization: `Bearer ${f.adminTokens.ADMIN}` },
        payload: { name: `Depot ${randomUUID().slice(0, 6)}`, addressLine1: '3 Port Road', city: 'Mumbai', state: 'Maharashtra', pincode: '400001' },
      })
      return { url: `/admin/locations/${f.admin.locations.locationId}/transfers`, payload: { productId: f.admin.locations.productId, toLocationId: other.json().data.id, quantity: 1, reason: 'Matrix transfer' } }
    },
  },
  'GET /admin/catalogs/:catalogId/inventory-moves': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/catalogs/${f.admin.locations.catalogId}/inventory-moves` }) },
  'POST /admin/catalogs/:catalogId/import': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/catalogs/${f.admin.catalogId}/import`, payload: { categories: [], products: [] } }) },
  'GET /admin/catalogs/:catalogId/export': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/catalogs/${f.admin.catalogId}/export?format=csv` }) },
  'GET /admin/catalogs/:catalogId/search-analytics': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/catalogs/${f.admin.catalogId}/search-analytics` }) },

  // Back office: GST. The seller of catalog C (ADMIN); rates and products missing tax data (CATALOG).
  'PUT /admin/catalogs/:catalogId/seller': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/catalogs/${f.admin.catalogId}/seller`, payload: GST_SELLER }) },
  'GET /admin/catalogs/:catalogId/seller': {
    auth: ADMIN_ONLY,
    ok: 200,
    req: async () => {
      await givenGstSeller()
      return { url: `/admin/catalogs/${f.admin.catalogId}/seller` }
    },
  },
  'GET /admin/tax/rates': { auth: CATALOG, ok: 200 },
  'GET /admin/catalogs/:catalogId/tax/gstr1': {
    auth: ADMIN_ONLY,
    ok: 200,
    req: async () => {
      await givenGstSeller()
      return { url: `/admin/catalogs/${f.admin.catalogId}/tax/gstr1?from=2026-01-01&to=2026-12-31` }
    },
  },
  'GET /admin/catalogs/:catalogId/tax/missing': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/catalogs/${f.admin.catalogId}/tax/missing` }) },
  'PUT /admin/catalogs/:catalogId/gst-registration': { auth: ADMIN_ONLY, ok: 200, req: async () => ({ url: `/admin/catalogs/${f.admin.catalogId}/gst-registration`, payload: { registrationId: await gstRegistrationId() } }) },
  'GET /admin/gst/registrations': { auth: ADMIN_ONLY, ok: 200 },
  'POST /admin/gst/registrations': { auth: ADMIN_ONLY, ok: 201, req: () => ({ url: '/admin/gst/registrations', payload: { ...GST_SELLER, gstin: randomGstin('27') } }) },
  'GET /admin/gst/registrations/:registrationId': { auth: ADMIN_ONLY, ok: 200, req: async () => ({ url: `/admin/gst/registrations/${await gstRegistrationId()}` }) },
  'PATCH /admin/gst/registrations/:registrationId': { auth: ADMIN_ONLY, ok: 200, req: async () => ({ url: `/admin/gst/registrations/${await gstRegistrationId()}`, payload: { filingFrequency: 'MONTHLY' } }) },
  'GET /admin/gst/gstr1': {
    auth: ADMIN_ONLY,
    ok: 200,
    req: async () => {
      await givenGstSeller()
      return { url: `/admin/gst/gstr1?gstin=${GST_SELLER.gstin}&fp=072017` }
    },
  },

  // Back office: cash-on-delivery risk rules and blocked pincodes of partner C (ADMIN only).
  'GET /admin/partners/:partnerId/cod-rules': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/partners/${partnerC()}/cod-rules` }) },
  'PUT /admin/partners/:partnerId/cod-rules': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/partners/${partnerC()}/cod-rules`, payload: { maxOpenCodOrders: 50 } }) },
  'GET /admin/partners/:partnerId/cod-blocked-pincodes': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/partners/${partnerC()}/cod-blocked-pincodes` }) },
  'POST /admin/partners/:partnerId/cod-blocked-pincodes': { auth: ADMIN_ONLY, ok: 201, req: () => ({ url: `/admin/partners/${partnerC()}/cod-blocked-pincodes`, payload: { pincode: randomPincode() } }) },
  'DELETE /admin/partners/:partnerId/cod-blocked-pincodes/:pincode': {
    auth: ADMIN_ONLY,
    ok: 200,
    req: async (c) => ({ url: `/admin/partners/${partnerC()}/cod-blocked-pincodes/${c.allowed ? await blockedPincode() : '560001'}` }),
  },
  'GET /orders/:orderId/convert-to-prepaid': { auth: 'customerOfPartner', ok: 200, owner: 'customer', req: async (c) => ({ url: `/orders/${(await twoUnitOrder(c.o.customer)).id}/convert-to-prepaid` }) },
  'POST /orders/:orderId/convert-to-prepaid': {
    auth: 'customerOfPartner',
    ok: 201,
    owner: 'customer',
    req: async (c) => ({ url: `/orders/${(c.allowed ? await f.fresh.codOrder(c.o.customer) : await twoUnitOrder(c.o.customer)).id}/convert-to-prepaid`, headers: idem() }),
  },
  'POST /partner/orders/:orderId/convert-to-prepaid': { auth: 'partnerSecret', ok: 201, req: async (c) => ({ url: `/partner/orders/${(await twoUnitOrder(c.mine.customer)).id}/convert-to-prepaid`, headers: idem() }) },
  'GET /admin/partners/:partnerId/pricing': { auth: ADMIN_ONLY, ok: 200, req: () => ({ url: `/admin/partners/${partnerC()}/pricing` }) },
}

/** A 6-digit pincode nobody has blocked yet (most likely). */
const randomPincode = () => String(randomInt(100_000, 1_000_000))

/** A pincode partner C has just blocked for COD, so that unblocking it succeeds for its rightful caller. */
async function blockedPincode(): Promise<string> {
  const pincode = randomPincode()
  const res = await f.t.app.inject({
    method: 'POST',
    url: `${PREFIX}/admin/partners/${partnerC()}/cod-blocked-pincodes`,
    headers: { authorization: `Bearer ${f.adminTokens.ADMIN}` },
    payload: { pincode },
  })
  if (res.statusCode !== 201) throw new Error(`COD blocked pincode: ${res.statusCode} ${res.body}`)
  return pincode
}

const GST_SELLER = {
  legalName: 'Matrix Retail Private Limited',
  gstin: '27AAPFU0939F1ZV',
  address: { line1: '12 Nariman Point', city: 'Mumbai', state: 'Maharashtra', pincode: '400021' },
}

/**
 * A confirmed COD order of two units per customer, made once: the denied cells of cancel-items aim
 * at it (an object the action would succeed on), and none of them may change it.
 */
const twoUnitOrders = new Map<string, ReturnType<Fixtures['fresh']['codOrder']>>()
function twoUnitOrder(customer: Parameters<Fixtures['fresh']['codOrder']>[0]) {
  let order = twoUnitOrders.get(customer.userId)
  if (!order) twoUnitOrders.set(customer.userId, (order = f.fresh.codOrder(customer, 2)))
  return order
}

/** A confirmed COD order of A1 with nothing shipped, made once: the denied cells of shipment creation aim at it. */
let shippable: ReturnType<Fixtures['fresh']['codOrder']> | undefined
const shippableOrder = () => (shippable ??= f.fresh.codOrder(f.objects.A1.customer))

/** A parcel booked with the sandbox carrier for a fresh COD order of A1 (status CREATED: it may still be cancelled). */
export const freshParcel = () => f.fresh.shipment(f.objects.A1.customer)

/** A parcel of the customer whose delivery failed (as a carrier's scan would leave it), one per customer: NDR actions may be repeated on it. */
const failedParcels = new Map<string, ReturnType<typeof freshParcel>>()
function failedParcel(customer: Parameters<typeof f.fresh.shipment>[0]) {
  let parcel = failedParcels.get(customer.userId)
  if (!parcel) {
    parcel = f.fresh.shipment(customer).then(async (p) => {
      await f.t.deps.database.db.execute(sql`update shipments set status = 'DELIVERY_FAILED' where id = ${p.id}`)
      return p
    })
    failedParcels.set(customer.userId, parcel)
  }
  return parcel
}

/** A fresh COD order of A1 in a parcel of the merchant's own delivery. */
async function ownDelivery(): Promise<{ id: string }> {
  const order = await f.fresh.codOrder(f.objects.A1.customer)
  const res = await f.t.app.inject({ method: 'POST', url: `${PREFIX}/admin/orders/${order.id}/shipments`, headers: { authorization: `Bearer ${f.adminTokens.ADMIN}` }, payload: { carrier: 'manual' } })
  if (res.statusCode !== 201) throw new Error(`own delivery parcel: ${res.statusCode} ${res.body}`)
  return res.json().data
}

/** One invited SUPPORT account, made once: the people cells change its role or reset its password. */
let invited: Promise<string> | undefined
function invitee(): Promise<string> {
  invited ??= f.t.app
    .inject({ method: 'POST', url: `${PREFIX}/admin/admins`, headers: { authorization: `Bearer ${f.adminTokens.ADMIN}` }, payload: { email: `invitee-${randomUUID()}@people.test`, role: 'SUPPORT' } })
    .then((res) => {
      if (res.statusCode !== 201) throw new Error(`invitee: ${res.statusCode} ${res.body}`)
      return res.json().data.admin.id as string
    })
  return invited
}

/** A parcel as its carrier's LOST scan would leave it. */
async function lostParcel(booked: ReturnType<typeof freshParcel>) {
  const parcel = await booked
  await f.t.deps.database.db.execute(sql`update shipments set status = 'LOST' where id = ${parcel.id}`)
  return parcel
}
let sharedLost: ReturnType<typeof freshParcel> | undefined
const sharedLostParcel = () => (sharedLost ??= lostParcel(freshParcel()))

/** The shared parcel as if its carrier had not accepted the pickup (again, before every cell): the retry route's 200. */
async function parcelAwaitingPickup() {
  const parcel = await sharedParcel()
  await f.t.deps.database.db.execute(sql`update shipments set pickup_requested_at = null where id = ${parcel.id}`)
  return parcel
}

/** One parcel, booked once: the cells that read it, and the denied cells of cancel (none of them may cancel it). */
let shared: ReturnType<typeof freshParcel> | undefined
export const sharedParcel = () => (shared ??= freshParcel())

let invoicing: Promise<void> | undefined
/**
 * A fresh COD order of the customer, invoiced: partners A's and B's catalogs get a GST seller and
 * their products a rate (once), so the order is taxed and its invoice issued as it is placed.
 */
async function invoicedOrder(customer: Parameters<Fixtures['fresh']['codOrder']>[0]): Promise<string> {
  invoicing ??= (async () => {
    for (const partner of ['A', 'B'] as const) {
      const catalogId = f.partners[partner].catalogId
      const seller = await f.t.app.inject({ method: 'PUT', url: `${PREFIX}/admin/catalogs/${catalogId}/seller`, headers: { authorization: `Bearer ${f.adminTokens.ADMIN}` }, payload: GST_SELLER })
      if (seller.statusCode !== 200) throw new Error(`GST seller: ${seller.statusCode} ${seller.body}`)
      for (const productId of f.productIds[partner]) {
        const res = await f.t.app.inject({ method: 'PATCH', url: `${PREFIX}/admin/products/${productId}`, headers: { authorization: `Bearer ${f.adminTokens.ADMIN}` }, payload: { hsnCode: '1101', gstRateBps: 500 } })
        if (res.statusCode !== 200) throw new Error(`GST rate: ${res.statusCode} ${res.body}`)
      }
    }
  })()
  await invoicing
  return (await f.fresh.codOrder(customer)).id
}

/** Catalog C's GST seller, registered through the API so that reading it succeeds for its rightful caller. */
/** The registration of the back office's catalog's seller (registered first). */
async function gstRegistrationId(): Promise<string> {
  await givenGstSeller()
  const res = await f.t.app.inject({ method: 'GET', url: `${PREFIX}/admin/catalogs/${f.admin.catalogId}/seller`, headers: { authorization: `Bearer ${f.adminTokens.ADMIN}` } })
  return res.json().data.registrationId
}

/** A valid GSTIN of a random PAN in a state. */
function randomGstin(stateCode: string): string {
  const letters = () => Array.from({ length: 5 }, () => String.fromCharCode(65 + randomInt(26))).join('')
  const first14 = `${stateCode}${letters()}${String(randomInt(10_000)).padStart(4, '0')}${String.fromCharCode(65 + randomInt(26))}1Z`
  return `${first14}${gstinCheckCharacter(first14)}`
}

async function givenGstSeller() {
  const res = await f.t.app.inject({
    method: 'PUT',
    url: `${PREFIX}/admin/catalogs/${f.admin.catalogId}/seller`,
    headers: { authorization: `Bearer ${f.adminTokens.ADMIN}` },
    payload: GST_SELLER,
  })
  if (res.statusCode !== 200) throw new Error(`GST seller: ${res.statusCode} ${res.body}`)
}

const SIZE_GRID = {
  options: [{ name: 'Size', values: ['M'] }],
  get variants() {
    return [{ options: [{ name: 'Size', value: 'M' }], sku: `V-${randomUUID().slice(0, 8)}`, sellingPrice: '10.00', mrp: '12.00', stock: 2 }]
  },
}

/** A new product of catalog C, made by an ADMIN (for routes that change a product for good). */
async function freshAdminProduct(): Promise<string> {
  const id = randomUUID().slice(0, 8)
  const res = await f.t.app.inject({
    method: 'POST',
    url: `${PREFIX}/admin/catalogs/${f.admin.catalogId}/products`,
    headers: { authorization: `Bearer ${f.adminTokens.ADMIN}` },
    payload: { name: 'Fresh', slug: `fresh-${id}`, brand: 'F', sku: `F-${id}`, categoryId: f.admin.categoryId, sellingPrice: '10.00', mrp: '12.00' },
  })
  return res.json().data.id
}

