// The authorization matrix (reliability plan API1 BOLA, API5 BFLA, API9 inventory; SE-01, SE-04,
// BI-07): every route Fastify registers × every principal × objects owned by A1, A2 and B1.
//
// How the route table is read: buildApp creates the Fastify instance itself and registers every
// route before it returns, so an onRoute hook added through extraRoutes would come too late, and
// printRoutes() is a tree meant for people. Fastify publishes each new instance on the
// `fastify.initialization` diagnostics channel (public API, made for instrumentation) before any
// plugin runs; the fixtures subscribe to it and add an onRoute hook there, which sees every route
// with its method and full URL (test/security/fixtures.ts). The table is then diffed against the
// OpenAPI document served at /api/v1/openapi.json and against MATRIX below: a route missing from
// either fails the first test.
//
// Each MATRIX row names the route's guard (AUTH), the status its rightful caller gets, and, for
// routes that take an object id, whose object it is. The GRID says what every principal gets from
// each guard; the runner turns rows × principals × owners into cells and compares exact statuses.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import type { AdminRole } from '../../src/modules/admins/index.ts'
import { givenCustomer, givenPartner, randomPhone } from '../helpers/factories.ts'
import { png } from '../helpers/uploads.ts'
import { buildFixtures, CUSTOMERS, type CustomerName, type Fixtures, type OwnedObjects, type PartnerName, PREFIX, type Principal, type PrincipalName, zoneBody } from './fixtures.ts'

let f: Fixtures
before(async () => {
  f = await buildFixtures()
})
after(() => f?.t.close())

// ---------------------------------------------------------------------------------------------
// Guards and what each principal gets from them

/** The guard of a route. `fixed`: the request carries its own credential (a refresh token, a
 * provider signature, a sandbox session, an upload signature), so every principal gets `status`
 * for the request below; the positive cells are in "credentials carried in the request". */
type Auth = 'public' | 'apiKey' | 'customer' | 'customerOfPartner' | 'partnerSecret' | { admin: AdminRole[] } | { fixed: number }
type GuardKind = 'apiKey' | 'customer' | 'customerOfPartner' | 'partnerSecret' | 'admin'
/** ok: the route's success status (or 404 for another owner's object); role: ok if the admin role may, else 403. */
type Outcome = number | 'ok' | 'role'

//                                 apiKey  customer (x-partner-id optional)  customerOfPartner  partnerSecret  admin
const row = (apiKey: Outcome, customer: Outcome, customerOfPartner: Outcome, partnerSecret: Outcome, admin: Outcome) => ({ apiKey, customer, customerOfPartner, partnerSecret, admin })
/**
 * Spent, broken or crossed credentials are refused by every guarded route of the OpenAPI document
 * in the shared suite, test/auth/credentials-on-every-route.test.ts; the matrix keeps the
 * principals whose answer depends on the route (its object, its role, its partner header).
 */
const CHECKED_BY_SHARED_SUITE = ['revoked key', 'x-partner-id only', 'A1 with x-partner-id B', 'A1 expired token', 'A1 forged token', 'A1 logged-out session'] as const
type MatrixPrincipal = Exclude<PrincipalName, (typeof CHECKED_BY_SHARED_SUITE)[number]>
const inMatrix = (p: Principal): p is Principal & { name: MatrixPrincipal } => !(CHECKED_BY_SHARED_SUITE as readonly string[]).includes(p.name)
const GRID: Record<MatrixPrincipal, Record<GuardKind, Outcome>> = {
  'none': row(401, 401, 400, 400, 401),
  'key A': row('ok', 401, 401, 401, 401),
  'key B': row('ok', 401, 401, 401, 401),
  'A1': row(401, 'ok', 'ok', 401, 401),
  'A2': row(401, 'ok', 'ok', 401, 401),
  'B1': row(401, 'ok', 'ok', 401, 401),
  'A1 without x-partner-id': row(401, 'ok', 400, 400, 401),
  'ADMIN': row(401, 401, 401, 401, 'role'),
  'SUPPORT': row(401, 401, 401, 401, 'role'),
  'CATALOG': row(401, 401, 401, 401, 'role'),
}

// ---------------------------------------------------------------------------------------------
// The route table

interface Cell {
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
interface Req {
  url?: string
  payload?: object | string
  headers?: Record<string, string>
}
interface Route {
  auth: Auth
  ok: number
  owner?: 'customer' | 'partner'
  req?: (c: Cell) => Req | Promise<Req>
}

const SUPPORT: { admin: AdminRole[] } = { admin: ['SUPPORT'] }
const CATALOG: { admin: AdminRole[] } = { admin: ['CATALOG'] }
const ADMIN_ONLY: { admin: AdminRole[] } = { admin: [] }
const idem = () => ({ 'x-idempotency-key': randomUUID() })
const items = (c: Cell) => [{ productId: c.mine.productId, quantity: 1 }]
const partnerC = () => f.partners.C.partnerId
const uploadFiles = { files: [{ fileName: 'photo.png', contentType: 'image/png', sizeBytes: 100 }] }
const address = { label: 'Home', line1: '12 MG Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560001' }

const MATRIX: Record<string, Route> = {
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
  'POST /orders/:orderId/cancel': {
    auth: 'customerOfPartner',
    ok: 200,
    owner: 'customer',
    req: async (c) => ({ url: `/orders/${c.allowed ? (await f.fresh.codOrder(c.o.customer)).id : c.o.pendingOrder.id}/cancel`, payload: { reason: 'Changed my mind' } }),
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
  'POST /payments/webhooks/:provider': { auth: { fixed: 401 }, ok: 200, req: () => ({ url: '/payments/webhooks/sandbox', payload: { id: 'evt_unsigned', type: 'payment.succeeded' } }) },
  'GET /sandbox/checkout/:sessionId': { auth: { fixed: 404 }, ok: 200, req: () => ({ url: '/sandbox/checkout/no-such-session' }) },
  'POST /sandbox/checkout/:sessionId/:action': { auth: { fixed: 404 }, ok: 200, req: () => ({ url: '/sandbox/checkout/no-such-session/pay' }) },

  // Back office: orders (SUPPORT).
  'GET /admin/orders': { auth: SUPPORT, ok: 200 },
  'GET /admin/orders/:orderId': { auth: SUPPORT, ok: 200, req: () => ({ url: `/admin/orders/${f.objects.A1.deliveredOrder.id}` }) },
  'POST /admin/orders/:orderId/status': {
    auth: SUPPORT,
    ok: 200,
    req: async (c) => ({
      url: `/admin/orders/${c.allowed ? (await f.fresh.prepaidOrder(f.objects.A1.customer)).id : f.objects.A1.pendingOrder.id}/status`,
      payload: { status: 'CANCELLED', note: 'Matrix' },
    }),
  },

  // A partner's own server (x-partner-id + x-partner-secret; no principal of the grid has a secret,
  // the positive cells and partner B's 404 are in test/orders/partner-sync.test.ts).
  'GET /partner/orders': { auth: 'partnerSecret', ok: 200 },
  'GET /partner/orders/:orderId': { auth: 'partnerSecret', ok: 200, req: () => ({ url: `/partner/orders/${f.objects.A1.deliveredOrder.id}` }) },
  'GET /partner/returns': { auth: 'partnerSecret', ok: 200 },
  'GET /partner/returns/:returnRequestId': { auth: 'partnerSecret', ok: 200, req: () => ({ url: `/partner/returns/${f.objects.A1.returnId}` }) },
  'GET /partner/support/tickets': { auth: 'partnerSecret', ok: 200 },
  'GET /partner/support/tickets/:ticketId': { auth: 'partnerSecret', ok: 200, req: () => ({ url: `/partner/support/tickets/${f.objects.A1.ticketId}` }) },
  'POST /partner/support/tickets/:ticketId/messages': { auth: 'partnerSecret', ok: 201, req: () => ({ url: `/partner/support/tickets/${f.objects.A1.ticketId}/messages`, payload: { body: 'Matrix' } }) },
  'POST /partner/support/tickets/:ticketId/status': { auth: 'partnerSecret', ok: 200, req: () => ({ url: `/partner/support/tickets/${f.objects.A1.ticketId}/status`, payload: { status: 'IN_PROGRESS' } }) },
  'GET /partner/webhook': { auth: 'partnerSecret', ok: 200 },
  'POST /partner/webhook/ping': { auth: 'partnerSecret', ok: 200 },
  'PUT /partner/webhook': { auth: 'partnerSecret', ok: 200, req: () => ({ payload: { url: 'https://hooks.example.com/a' } }) },
  'GET /partner/events': { auth: 'partnerSecret', ok: 200 },
  'GET /partner/events/:eventId': { auth: 'partnerSecret', ok: 200, req: () => ({ url: `/partner/events/${f.admin.eventId}` }) },
  'POST /partner/events/:eventId/replay': { auth: 'partnerSecret', ok: 200, req: () => ({ url: `/partner/events/${f.admin.eventId}/replay` }) },
  'GET /partner/customers': { auth: 'partnerSecret', ok: 200 },
  'GET /partner/customers/:userId': { auth: 'partnerSecret', ok: 200, req: () => ({ url: `/partner/customers/${f.objects.A1.customer.userId}` }) },

  // Back office: customers (SUPPORT). Blocking takes a fresh customer, so the shared ones stay usable.
  'GET /admin/customers': { auth: SUPPORT, ok: 200 },
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
  'POST /admin/catalogs/:catalogId/import': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/catalogs/${f.admin.catalogId}/import`, payload: { categories: [], products: [] } }) },
  'GET /admin/catalogs/:catalogId/search-analytics': { auth: CATALOG, ok: 200, req: () => ({ url: `/admin/catalogs/${f.admin.catalogId}/search-analytics` }) },
}

// ---------------------------------------------------------------------------------------------
// The runner

interface Result {
  route: string
  principal: PrincipalName
  owner: string
  expected: number
  actual: number
  body: string
}

const guardOf = (auth: Auth): GuardKind | null =>
  typeof auth === 'string' ? (auth === 'public' ? null : auth) : 'admin' in auth ? 'admin' : null

/** The cells of one route: [principal, owner, expected status]. */
function cellsOf(route: Route, p: Principal & { name: MatrixPrincipal }): { owner: CustomerName | PartnerName; expected: number }[] {
  const guard = guardOf(route.auth)
  if (typeof route.auth === 'object' && 'fixed' in route.auth) return [{ owner: 'A1', expected: route.auth.fixed }]
  const outcome: Outcome = guard ? GRID[p.name][guard] : 'ok'
  if (typeof outcome === 'number') return [{ owner: route.owner === 'partner' ? 'A' : 'A1', expected: outcome }]
  if (outcome === 'role') {
    const roles = (route.auth as { admin: AdminRole[] }).admin
    const may = p.adminRole === 'ADMIN' || roles.includes(p.adminRole!)
    return [{ owner: 'A1', expected: may ? route.ok : 403 }]
  }
  // The guard lets the principal in: the object decides. Another owner's object is 404, never 403,
  // so nobody learns that it exists.
  if (route.owner === 'customer') return CUSTOMERS.map((owner) => ({ owner, expected: owner === p.customer ? route.ok : 404 }))
  if (route.owner === 'partner') return (['A', 'B'] as const).map((owner) => ({ owner, expected: owner === p.apiKey ? route.ok : 404 }))
  return [{ owner: 'A1', expected: route.ok }]
}

async function runCell(key: string, route: Route, p: Principal, owner: CustomerName | PartnerName, expected: number, method?: string): Promise<Result> {
  const [routeMethod, path] = key.split(' ') as [string, string]
  const ownerName: CustomerName = owner === 'A' || owner === 'B' ? 'A1' : owner
  const cell: Cell = {
    p,
    o: f.objects[ownerName],
    ownerName,
    partner: owner === 'A' || owner === 'B' ? owner : 'A',
    mine: f.objects[p.customer ?? 'A1'],
    allowed: expected >= 200 && expected < 300,
  }
  const req = route.req ? await route.req(cell) : {}
  const res = await f.t.app.inject({
    method: (method ?? routeMethod) as 'GET',
    url: `${PREFIX}${req.url ?? path}`,
    headers: { ...p.headers, ...req.headers },
    ...(req.payload === undefined ? {} : { payload: req.payload }),
  })
  return { route: `${method ?? routeMethod} ${path}`, principal: p.name, owner, expected, actual: res.statusCode, body: res.body.slice(0, 200) }
}

const allResults: Result[] = []
const mismatches = (results: Result[]) => results.filter((r) => r.actual !== r.expected).map((r) => `${r.route} as ${r.principal} on ${r.owner}'s object: expected ${r.expected}, got ${r.actual} ${r.body}`)

/** Principals whose GET cells are repeated as HEAD (Fastify adds a HEAD route for every GET). */
const HEAD_PRINCIPALS: PrincipalName[] = ['none', 'key B', 'A2', 'B1', 'SUPPORT', 'CATALOG']

// ---------------------------------------------------------------------------------------------

const fastifyForm = (openApiPath: string) => openApiPath.replace(/\{\*\}/g, '*').replace(/\{(\w+)\}/g, ':$1')

test('inventory: the Fastify route table, the OpenAPI document and MATRIX list the same routes', async () => {
  const doc = (await f.t.app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` })).json() as { paths: Record<string, Record<string, unknown>> }
  const documented = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${fastifyForm(path)}`)))
  // HEAD routes are Fastify's automatic twins of GET routes; /docs is the reference UI itself.
  const registered = new Set(f.routes.filter((r) => r.method !== 'HEAD' && !r.url.startsWith('/docs')).map((r) => `${r.method} ${r.url}`))
  assert.ok(registered.size > 50, `only ${registered.size} routes seen: is the onRoute hook still attached?`)
  const notApi = [...registered].filter((r) => !r.split(' ')[1]!.startsWith(`${PREFIX}/`))
  assert.deepEqual(notApi, [], 'every route lives under /api/v1')

  const undocumented = [...registered].filter((r) => !documented.has(r) && r !== `GET ${PREFIX}/openapi.json`)
  assert.deepEqual(undocumented, [], 'routes missing from the OpenAPI document')
  const phantom = [...documented].filter((r) => !registered.has(r))
  assert.deepEqual(phantom, [], 'OpenAPI operations Fastify does not serve')

  const inMatrix = new Set(Object.keys(MATRIX).map((k) => k.replace(' ', ` ${PREFIX}`)))
  assert.deepEqual([...registered].filter((r) => !inMatrix.has(r)), [], 'routes missing from MATRIX')
  assert.deepEqual([...inMatrix].filter((r) => !registered.has(r)), [], 'MATRIX rows for routes that do not exist')
})

describe('authorization matrix: route × principal × owner', () => {
  for (const [key, route] of Object.entries(MATRIX)) {
    test(key, async () => {
      const results: Result[] = []
      for (const p of f.principals.filter(inMatrix)) {
        for (const { owner, expected } of cellsOf(route, p)) {
          results.push(await runCell(key, route, p, owner, expected))
          if (key.startsWith('GET ') && HEAD_PRINCIPALS.includes(p.name)) results.push(await runCell(key, route, p, owner, expected, 'HEAD'))
        }
      }
      allResults.push(...results)
      const bad = mismatches(results)
      assert.ok(bad.length === 0, `${bad.length} of ${results.length} cells differ:\n${bad.join('\n')}`)
    })
  }
})

describe('credentials carried in the request, and objects named in bodies', () => {
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string> = {}, payload?: object) =>
    f.t.app.inject({ method, url: `${PREFIX}${url}`, headers, ...(payload ? { payload } : {}) })
  const headersOf = (name: CustomerName) => f.principals.find((p) => p.name === name)!.headers

  test('customer-token: the partner id and its own secret; another partner secret is 401', async () => {
    const A = f.partners.A
    const ok = await call('POST', '/auth/customer-token', { 'x-partner-id': A.partnerId, 'x-partner-secret': A.secret }, { phone: randomPhone() })
    assert.equal(ok.statusCode, 200, ok.body)
    const crossed = await call('POST', '/auth/customer-token', { 'x-partner-id': A.partnerId, 'x-partner-secret': f.partners.B.secret }, { phone: randomPhone() })
    assert.equal(crossed.statusCode, 401, crossed.body)
    const noHeader = await call('POST', '/auth/customer-token', { 'x-partner-secret': A.secret }, { phone: randomPhone() })
    assert.equal(noHeader.statusCode, 400)
    assert.equal(noHeader.json().message, 'x-partner-id header is required')
  })

  test('refresh with a real refresh token (once); admin login with the right password only', async () => {
    assert.equal((await call('POST', '/auth/refresh', {}, { refreshToken: f.spareRefreshToken })).statusCode, 200)
    // Presented again, the used token is reuse: 401.
    assert.equal((await call('POST', '/auth/refresh', {}, { refreshToken: f.spareRefreshToken })).statusCode, 401)
    assert.equal((await call('POST', '/admin/auth/login', {}, { email: f.adminEmail, password: 'long-enough-password' })).statusCode, 200)
    assert.equal((await call('POST', '/admin/auth/login', {}, { email: f.adminEmail, password: 'not-the-password' })).statusCode, 401)
  })

  test('provider webhooks: a wrong signature is 401, an unknown provider 404', async () => {
    const forged = await call('POST', '/payments/webhooks/sandbox', { 'x-sandbox-signature': 'deadbeef' }, { id: 'evt_1' })
    assert.equal(forged.statusCode, 401, forged.body)
    assert.equal((await call('POST', '/payments/webhooks/stripe', {}, { id: 'evt_1' })).statusCode, 404)
  })

  test('sandbox checkout: an existing session answers anyone who holds its id (it is the capability)', async () => {
    const { sessionId } = await f.fresh.prepaidOrder(f.objects.A1.customer)
    assert.equal((await call('GET', `/sandbox/checkout/${sessionId}`)).statusCode, 200)
    assert.equal((await call('POST', `/sandbox/checkout/${sessionId}/close`)).statusCode, 200)
  })

  test('A2 and B1 cannot attach A1 uploads, pay with A1 payment ids, or use A1 orders in tickets', async () => {
    const a1 = f.objects.A1
    for (const name of ['A2', 'B1'] as const) {
      const attach = await call('POST', '/support/tickets', headersOf(name), { topic: 'T', detail: 'D', imageUrls: [a1.imageUrl] })
      assert.equal(attach.statusCode, 400, `${name}: ${attach.body}`)
      const own = f.objects[name].pendingOrder
      const abandon = await call('POST', `/orders/${own.id}/payments/${a1.pendingOrder.paymentId}/abandon`, headersOf(name))
      assert.equal(abandon.statusCode, 404, `${name}: ${abandon.body}`)
      const reply = await call('POST', `/support/tickets/${a1.ticketId}/messages`, headersOf(name), { body: 'hi', imageUrls: [f.objects[name].imageUrl] })
      assert.equal(reply.statusCode, 404, `${name}: ${reply.body}`)
    }
  })

  test('an API key answers from its own catalog, whatever x-partner-id says', async () => {
    const keyA = { 'x-api-key': f.partners.A.apiKey, 'x-partner-id': f.partners.B.partnerId }
    assert.equal((await call('GET', `/products/${f.slugs.B}`, keyA)).statusCode, 404)
    assert.equal((await call('GET', `/products/${f.slugs.A}`, keyA)).statusCode, 200)
  })
})

describe('lists never leak', () => {
  const list = async (name: CustomerName, url: string) => {
    const res = await f.t.app.inject({ method: 'GET', url: `${PREFIX}${url}`, headers: f.principals.find((p) => p.name === name)!.headers })
    assert.equal(res.statusCode, 200, res.body)
    return res.json().data as { id: string; partnerId?: string; userId?: string }[]
  }

  for (const url of ['/orders?limit=100', '/support/tickets?limit=100', '/returns?limit=100', '/users/me/addresses']) {
    test(`GET ${url.split('?')[0]}: A2 and B1 see none of A1's ids, and only their own partner's rows`, async () => {
      const mine = await list('A1', url)
      assert.ok(mine.length > 0, 'A1 has something to leak')
      const a1Ids = new Set(mine.map((row) => row.id))
      for (const name of ['A2', 'B1'] as const) {
        const theirs = await list(name, url)
        assert.ok(theirs.length > 0, `${name} has rows of its own`)
        assert.deepEqual(theirs.filter((row) => a1Ids.has(row.id)).map((row) => row.id), [], `${name} sees A1's rows`)
        const partnerId = f.objects[name].customer.partnerId
        assert.deepEqual(theirs.filter((row) => row.partnerId !== undefined && row.partnerId !== partnerId).map((row) => row.id), [], `${name} sees another partner's rows`)
        const userId = f.objects[name].customer.userId
        assert.deepEqual(theirs.filter((row) => row.userId !== undefined && row.userId !== userId).map((row) => row.id), [], `${name} sees another customer's rows`)
      }
    })
  }

  test("catalog lists: key B sees none of A's products, and the reverse", async () => {
    for (const [key, other] of [['A', 'B'], ['B', 'A']] as const) {
      const headers = { 'x-api-key': f.partners[key].apiKey }
      const products = (await f.t.app.inject({ method: 'GET', url: `${PREFIX}/products?limit=100`, headers })).json().data as { id: string }[]
      const found = (await f.t.app.inject({ method: 'GET', url: `${PREFIX}/search?q=${key === 'A' ? 'tea' : 'atta'}&limit=50`, headers })).json().data.products as { id: string }[]
      const foreign = new Set(f.productIds[other])
      assert.ok(products.length > 0)
      assert.deepEqual([...products, ...found].filter((p) => foreign.has(p.id)).map((p) => p.id), [], `key ${key} sees partner ${other}'s products`)
    }
  })
})

test('summary', (t) => {
  const routes = new Set(allResults.map((r) => r.route.replace(/^HEAD /, 'GET ')))
  const byStatus = new Map<number, number>()
  for (const r of allResults) byStatus.set(r.expected, (byStatus.get(r.expected) ?? 0) + 1)
  const statuses = [...byStatus].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')
  t.diagnostic(`${routes.size} routes, ${allResults.length} cells (${allResults.filter((r) => r.route.startsWith('HEAD ')).length} HEAD): ${statuses}; ${mismatches(allResults).length} differ`)
  assert.equal(routes.size, Object.keys(MATRIX).length, 'every MATRIX row ran')
})
