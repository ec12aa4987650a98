// Fixtures of the authorization matrix (test/security/authorization-matrix.test.ts): the app with
// the route table Fastify built, two partners with their own catalogs, three customers, the
// principals that call every route, and objects owned by each customer. Everything is made
// through the API or the services, never by raw inserts.
import { randomUUID } from 'node:crypto'
import { decodeJwt } from 'jose'
import { systemClock } from '../../src/lib/clock.ts'
import type { AdminRole } from '../../src/modules/admins/index.ts'
import { createTokenSigner } from '../../src/modules/auth/tokens.ts'
import { createCatalog } from '../../src/modules/catalog/index.ts'
import { importCatalog } from '../../src/modules/catalog/import.ts'
import { createApiKey, revokeApiKey } from '../../src/modules/partners/index.ts'
import { createTestApp, TEST_AUTH_SECRET, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder } from '../helpers/shop.ts'
import { type RegisteredRoute, withRouteTable } from '../helpers/route-table.ts'
import { uploadedImage } from '../helpers/uploads.ts'

export const PREFIX = '/api/v1'
export type PartnerName = 'A' | 'B'
export type CustomerName = 'A1' | 'A2' | 'B1'
export const CUSTOMERS: CustomerName[] = ['A1', 'A2', 'B1']

export type PrincipalName =
  | 'none'
  | 'key A'
  | 'key B'
  | 'revoked key'
  | 'A1'
  | 'A2'
  | 'B1'
  | 'A1 without x-partner-id'
  | 'A1 with x-partner-id B'
  | 'x-partner-id only'
  | 'A1 expired token'
  | 'A1 forged token'
  | 'A1 logged-out session'
  | 'ADMIN'
  | 'SUPPORT'
  | 'CATALOG'

export interface Principal {
  name: PrincipalName
  headers: Record<string, string>
  /** The customer a customer guard accepts this principal as (when the route's x-partner-id rule is met). */
  customer?: CustomerName
  /** The partner whose valid API key this is. */
  apiKey?: PartnerName
  adminRole?: AdminRole
}

export interface OwnedObjects {
  customer: CustomerFixture
  partner: PartnerName
  /** A product of the customer's partner catalog, to put in carts. */
  productId: string
  addressId: string
  /** A COD order, delivered, 10 units: returns are made of it one unit at a time. */
  deliveredOrder: { id: string; itemId: string }
  /** A PREPAID order waiting for its payment, with the payment and its sandbox session. */
  pendingOrder: { id: string; paymentId: string; sessionId: string }
  ticketId: string
  returnId: string
  /** publicUrl of a support upload of this customer. */
  imageUrl: string
}

export interface Fixtures {
  t: TestApp
  routes: RegisteredRoute[]
  partners: Record<PartnerName, PartnerFixture> & { C: PartnerFixture }
  /** A slug that exists only in each partner's catalog. */
  slugs: Record<PartnerName, string>
  productIds: Record<PartnerName, string[]>
  principals: Principal[]
  adminTokens: Record<AdminRole, string>
  objects: Record<CustomerName, OwnedObjects>
  /** Objects the back-office routes act on (partner C and its catalog, so A and B stay untouched). */
  admin: { catalogId: string; categoryId: string; productId: string; zoneId: string; couponId: string; eventId: string; locations: { catalogId: string; locationId: string; productId: string } }
  /** A refresh token nobody uses elsewhere (for the positive /auth/refresh cell). */
  spareRefreshToken: string
  /** The email of the ADMIN principal (password long-enough-password, from givenAdminToken). */
  adminEmail: string
  fresh: FreshObjects
}

export type FreshObjects = ReturnType<typeof freshObjects>

/** The fields of answers the fixtures read (orders, payments, tickets, returns, zones, coupons, shipments). */
interface Data {
  id: string
  items: { id: string }[]
  payment: { id: string }
  paymentClientAction: { payload: { sessionId: string } }
  awb: string
  orderId: string
}

const json = (res: { statusCode: number; body: string }, status: number, what: string): Data => {
  if (res.statusCode !== status) throw new Error(`${what}: ${res.statusCode} ${res.body}`)
  return (JSON.parse(res.body) as { data: Data }).data
}

/**
 * Fresh objects for cells that change what they touch (cancel, pay, move a state machine): a
 * success must not spend the shared objects the other cells read.
 */
function freshObjects(t: TestApp, adminToken: string, productOf: (c: CustomerFixture) => string) {
  const asAdmin = (method: 'POST' | 'PUT', url: string, payload: object) =>
    t.app.inject({ method, url: `${PREFIX}${url}`, headers: { authorization: `Bearer ${adminToken}` }, payload })
  const asCustomer = (c: CustomerFixture, method: 'POST', url: string, payload: object) =>
    t.app.inject({ method, url: `${PREFIX}${url}`, headers: customerHeaders(c), payload })

  const self = {
    async codOrder(c: CustomerFixture, quantity = 1) {
      const res = await placeOrder(t, c, { items: [{ productId: productOf(c), quantity }], shippingAddress: ADDRESS, paymentMode: 'COD' })
      return json(res, 201, 'COD order')
    },
    async prepaidOrder(c: CustomerFixture) {
      const res = await placeOrder(t, c, { items: [{ productId: productOf(c), quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'PREPAID' })
      const order = json(res, 201, 'prepaid order')
      return { id: order.id, paymentId: order.payment.id, sessionId: order.paymentClientAction.payload.sessionId }
    },
    async deliveredOrder(c: CustomerFixture, quantity = 10) {
      const order = await self.codOrder(c, quantity)
      // Every unit in a parcel (the merchant's own delivery) before SHIPPED: an order is not shipped with nothing in one.
      json(await asAdmin('POST', `/admin/orders/${order.id}/shipments`, { carrier: 'manual' }), 201, 'own delivery parcel')
      for (const status of ['SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) json(await asAdmin('POST', `/admin/orders/${order.id}/status`, { status }), 200, `order -> ${status}`)
      return { id: order.id, itemId: order.items[0]!.id }
    },
    /** A parcel booked with the sandbox carrier for a fresh COD order of the customer (CREATED: it may still be cancelled). */
    async shipment(c: CustomerFixture) {
      const order = await self.codOrder(c)
      const parcel = json(await asAdmin('POST', `/admin/orders/${order.id}/shipments`, { weightGrams: 500 }), 201, 'shipment')
      return { id: parcel.id, awb: parcel.awb, orderId: parcel.orderId }
    },
    async ticket(c: CustomerFixture) {
      return json(await asCustomer(c, 'POST', '/support/tickets', { topic: 'Late delivery', detail: 'Where is my order?' }), 201, 'ticket').id
    },
    async returnRequest(c: CustomerFixture, order: { id: string; itemId: string }, status?: 'NEEDS_INFO' | 'APPROVED', requestedResolution = 'WALLET_CREDIT') {
      const body = { orderId: order.id, reason: 'Damaged', detail: 'The pack was torn', requestedResolution, items: [{ orderItemId: order.itemId, quantity: 1, reason: 'Torn' }] }
      const id = json(await asCustomer(c, 'POST', '/returns', body), 201, 'return').id
      if (status === 'NEEDS_INFO') {
        for (const s of ['UNDER_REVIEW', 'NEEDS_INFO']) json(await asAdmin('POST', `/admin/returns/${id}/status`, { status: s, note: 'Send a photo' }), 200, `return -> ${s}`)
      }
      if (status === 'APPROVED') {
        for (const s of ['UNDER_REVIEW', 'APPROVED']) json(await asAdmin('POST', `/admin/returns/${id}/status`, { status: s }), 200, `return -> ${s}`)
      }
      return id
    },
    async address(c: CustomerFixture) {
      const body = { label: 'Home', line1: ADDRESS.line1, city: ADDRESS.city, state: ADDRESS.state, pincode: ADDRESS.pincode }
      return json(await asCustomer(c, 'POST', '/users/me/addresses', body), 201, 'address').id
    },
    async webhookUrl(partnerId: string) {
      json(await asAdmin('PUT', `/admin/partners/${partnerId}/webhook`, { url: 'https://hooks.example.com/commerce' }), 200, 'webhook url')
    },
  }
  return self
}

/** Every route Fastify registers (test/helpers/route-table.ts). */
async function appWithRouteTable(options: { skipAuditCheck?: boolean }): Promise<{ t: TestApp; routes: RegisteredRoute[] }> {
  // High limits: the matrix sends a few thousand requests from one address; limits have tests of their own.
  const { built: t, routes } = await withRouteTable(() => createTestApp({ env: { RATE_LIMIT_MAX: '1000000', RATE_LIMIT_AUTH_MAX: '1000000' }, ...options }))
  return { t, routes }
}

/** `skipAuditCheck`: for the authorization matrix, whose writes mostly repeat what the fixtures hold (a save that changes nothing records nothing). */
export async function buildFixtures(options: { skipAuditCheck?: boolean } = {}): Promise<Fixtures> {
  const { t, routes } = await appWithRouteTable(options)
  const db = t.deps.database.db

  // Partner A: the shop helper's catalog (atta, earbuds, hot, old). Partner B: a catalog of its own.
  const shopA = await givenShop(t)
  const catalogB = await createCatalog(db, `Catalog B ${randomUUID()}`)
  await importCatalog(db, catalogB.id, {
    categories: [{ slug: 'b-tea', name: 'Tea' }],
    products: [{ slug: 'b-assam-tea', name: 'Assam tea', brand: 'Tata', sku: 'B-1', categorySlug: 'b-tea', sellingPrice: '250.00', mrp: '300.00', stock: 500, weightGrams: 500 }],
  })
  const partnerB = await givenPartner(t.deps, `Partner B ${randomUUID()}`, catalogB.id)
  const partnerC = await givenPartner(t.deps, `Partner C ${randomUUID()}`)
  const productsOf = async (catalogId: string) => db.query.products.findMany({ where: (p, { eq }) => eq(p.catalogId, catalogId) })
  const productsB = await productsOf(catalogB.id)
  const productsA = await productsOf(shopA.catalogId)
  const partners = { A: shopA.partner, B: partnerB, C: partnerC }

  const revoked = await createApiKey(db, partners.A.partnerId, partners.A.catalogId, 'revoked')
  await revokeApiKey(db, systemClock, revoked.id)

  const customers: Record<CustomerName, CustomerFixture> = {
    A1: await givenCustomer(t.app, partners.A),
    A2: await givenCustomer(t.app, partners.A),
    B1: await givenCustomer(t.app, partners.B),
  }
  const a1 = customers.A1
  // A1's claims, signed 20 minutes ago (tokens live 15), and signed now with another secret.
  const claims = decodeJwt(a1.accessToken) as { sub: string; pid: string; sid: string }
  const expired = await createTokenSigner(TEST_AUTH_SECRET).sign({ pid: claims.pid, sid: claims.sid }, claims.sub, 'customer', 900, new Date(Date.now() - 20 * 60_000))
  const forged = await createTokenSigner(`${TEST_AUTH_SECRET}-not-ours`).sign({ pid: claims.pid, sid: claims.sid }, claims.sub, 'customer', 900, new Date())
  // A second session of A1, logged out: its access token has not expired, its session is revoked.
  const loggedOut = await givenCustomer(t.app, partners.A, { phone: a1.phone })
  const logout = await t.app.inject({ method: 'POST', url: `${PREFIX}/auth/logout`, payload: { refreshToken: loggedOut.refreshToken } })
  if (logout.statusCode !== 200) throw new Error(`logout: ${logout.body}`)
  const spare = await givenCustomer(t.app, partners.C)

  const adminEmail = `admin-${randomUUID()}@matrix.test`
  const adminTokens: Record<AdminRole, string> = {
    ADMIN: await givenAdminToken(t.app, t.deps, adminEmail, 'ADMIN'),
    SUPPORT: await givenAdminToken(t.app, t.deps, `support-${randomUUID()}@matrix.test`, 'SUPPORT'),
    CATALOG: await givenAdminToken(t.app, t.deps, `catalog-${randomUUID()}@matrix.test`, 'CATALOG'),
  }

  const bearer = (token: string) => `Bearer ${token}`
  const A = partners.A.partnerId
  const B = partners.B.partnerId
  // API keys and admin tokens also send x-partner-id (of A): on customer routes the guard then judges
  // the credential itself (401), not the missing header (400).
  const principals: Principal[] = [
    { name: 'none', headers: {} },
    { name: 'key A', headers: { 'x-api-key': partners.A.apiKey, 'x-partner-id': A }, apiKey: 'A' },
    { name: 'key B', headers: { 'x-api-key': partners.B.apiKey, 'x-partner-id': B }, apiKey: 'B' },
    { name: 'revoked key', headers: { 'x-api-key': revoked.apiKey, 'x-partner-id': A } },
    { name: 'A1', headers: customerHeaders(customers.A1), customer: 'A1' },
    { name: 'A2', headers: customerHeaders(customers.A2), customer: 'A2' },
    { name: 'B1', headers: customerHeaders(customers.B1), customer: 'B1' },
    { name: 'A1 without x-partner-id', headers: { authorization: bearer(a1.accessToken) }, customer: 'A1' },
    { name: 'A1 with x-partner-id B', headers: { authorization: bearer(a1.accessToken), 'x-partner-id': B } },
    { name: 'x-partner-id only', headers: { 'x-partner-id': A } },
    { name: 'A1 expired token', headers: { authorization: bearer(expired), 'x-partner-id': A } },
    { name: 'A1 forged token', headers: { authorization: bearer(forged), 'x-partner-id': A } },
    { name: 'A1 logged-out session', headers: { authorization: bearer(loggedOut.accessToken), 'x-partner-id': A } },
    { name: 'ADMIN', headers: { authorization: bearer(adminTokens.ADMIN), 'x-partner-id': A }, adminRole: 'ADMIN' },
    { name: 'SUPPORT', headers: { authorization: bearer(adminTokens.SUPPORT), 'x-partner-id': A }, adminRole: 'SUPPORT' },
    { name: 'CATALOG', headers: { authorization: bearer(adminTokens.CATALOG), 'x-partner-id': A }, adminRole: 'CATALOG' },
  ]

  const partnerOf = (c: CustomerFixture): PartnerName => (c.partnerId === A ? 'A' : 'B')
  const productOf = (c: CustomerFixture) => (partnerOf(c) === 'A' ? shopA.ids.atta! : productsB[0]!.id)
  const fresh = freshObjects(t, adminTokens.ADMIN, productOf)

  const objects = {} as Record<CustomerName, OwnedObjects>
  for (const name of CUSTOMERS) {
    const customer = customers[name]
    const deliveredOrder = await fresh.deliveredOrder(customer)
    objects[name] = {
      customer,
      partner: partnerOf(customer),
      productId: productOf(customer),
      addressId: await fresh.address(customer),
      deliveredOrder,
      pendingOrder: await fresh.prepaidOrder(customer),
      ticketId: await fresh.ticket(customer),
      returnId: await fresh.returnRequest(customer, deliveredOrder),
      imageUrl: await uploadedImage(t, customer, 'support'),
    }
  }

  // Back-office targets: catalog C with a category and a product, a zone, a coupon, an event.
  const asAdmin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `${PREFIX}${url}`, headers: { authorization: bearer(adminTokens.ADMIN) }, payload })
  const catalogC = await createCatalog(db, `Catalog C ${randomUUID()}`)
  await importCatalog(db, catalogC.id, {
    categories: [{ slug: 'c-misc', name: 'Misc' }],
    products: [{ slug: 'c-thing', name: 'Thing', brand: 'C', sku: 'C-1', categorySlug: 'c-misc', sellingPrice: '10.00', mrp: '10.00', stock: 10 }],
  })
  const [productC] = await productsOf(catalogC.id)
  const zone = json(await asAdmin('POST', '/admin/delivery-zones', zoneBody('Matrix zone')), 201, 'zone')
  const coupon = json(await asAdmin('POST', `/admin/partners/${partners.C.partnerId}/coupons`, { code: `M${randomUUID().slice(0, 8)}`, kind: 'FLAT', value: '10.00' }), 201, 'coupon')
  const events = await asAdmin('GET', `/admin/events?partnerId=${A}&limit=1`)
  const [event] = JSON.parse(events.body).data as { id: string }[]
  if (!event) throw new Error(`no event of partner A: ${events.body}`)
  // Catalog D keeps its stock at a location (catalog C's flat stock writes stay open to the matrix).
  const catalogD = await createCatalog(db, `Catalog D ${randomUUID()}`)
  await importCatalog(db, catalogD.id, {
    categories: [{ slug: 'd-misc', name: 'Misc' }],
    products: [{ slug: 'd-thing', name: 'Stocked thing', brand: 'D', sku: 'D-1', categorySlug: 'd-misc', sellingPrice: '10.00', mrp: '10.00', stock: 10 }],
  })
  const [productD] = await productsOf(catalogD.id)
  const locationD = json(
    await asAdmin('POST', `/admin/catalogs/${catalogD.id}/locations`, { name: 'Matrix warehouse', addressLine1: '1 Dock Road', city: 'Mumbai', state: 'Maharashtra', pincode: '400001' }),
    201,
    'location',
  )

  return {
    t,
    routes,
    partners,
    slugs: { A: 'atta', B: 'b-assam-tea' },
    productIds: { A: productsA.map((p) => p.id), B: productsB.map((p) => p.id) },
    principals,
    adminTokens,
    objects,
    admin: {
      catalogId: catalogC.id,
      categoryId: productC!.categoryId,
      productId: productC!.id,
      zoneId: zone.id,
      couponId: coupon.id,
      eventId: event.id,
      locations: { catalogId: catalogD.id, locationId: locationD.id, productId: productD!.id },
    },
    spareRefreshToken: spare.refreshToken,
    adminEmail,
    fresh,
  }
}

/** A delivery zone nobody delivers to: no pincodes, so serviceability elsewhere is unchanged. */
export function zoneBody(name: string) {
  const slabs = [{ upToGrams: 1000, charge: '40.00' }]
  return {
    name,
    standardSlabs: slabs,
    standardMinDays: 2,
    standardMaxDays: 4,
    expressAvailable: false,
    expressSlabs: [],
    expressMinDays: 1,
    expressMaxDays: 1,
    freeShippingThreshold: null,
    cutoffHour: 12,
    codAvailable: true,
    codLimit: '5000.00',
    codFee: '40.00',
    pincodes: [],
  }
}
