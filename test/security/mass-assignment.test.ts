// Mass assignment (reliability plan API3): every route Fastify registers is read from the route
// table (the `fastify.initialization` diagnostics channel, as test/security/fixtures.ts does), and
// the body schema each one is validated with, as compiled by the app's own validator compiler, must
// close every object (additionalProperties: false) at every depth. A write route with no body schema
// must be listed below with the reason. Then unknown fields on a few write routes are refused 400
// and change no row. (The answers' key sets are in answer-key-sets.test.ts.)
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import diagnostics from 'node:diagnostics_channel'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance, FastifySchemaCompiler, RouteOptions } from 'fastify'
import { count, eq } from 'drizzle-orm'
import { coupons } from '../../src/modules/checkout/schema.sql.ts'
import { users } from '../../src/modules/customers/schema.sql.ts'
import { orders } from '../../src/modules/orders/schema.sql.ts'
import { shipments } from '../../src/modules/shipping/schema.sql.ts'
import { returnRequests } from '../../src/modules/returns/schema.sql.ts'
import { supportTickets } from '../../src/modules/support/schema.sql.ts'
import { customerHeaders } from '../helpers/factories.ts'
import { ADDRESS } from '../helpers/shop.ts'
import { buildFixtures, type Fixtures, PREFIX } from './fixtures.ts'

interface SeenRoute {
  method: string
  url: string
  body: unknown
  /** The compiler this route's schemas are compiled with: its own, else its plugin's (the app's). */
  compiler: FastifySchemaCompiler<unknown> | undefined
  ownCompiler: boolean
}

let f: Fixtures
const routes: SeenRoute[] = []
before(async () => {
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance }
    fastify.addHook('onRoute', function (this: FastifyInstance, route: RouteOptions) {
      for (const method of [route.method].flat()) {
        routes.push({ method, url: route.url, body: route.schema?.body, compiler: (route.validatorCompiler ?? this.validatorCompiler) as never, ownCompiler: route.validatorCompiler !== undefined })
      }
    })
  }
  diagnostics.subscribe('fastify.initialization', onInit)
  try {
    f = await buildFixtures()
  } finally {
    diagnostics.unsubscribe('fastify.initialization', onInit)
  }
})
after(() => f?.t.close())

// ---------------------------------------------------------------------------------------------
// Every body schema closes its objects

/** Write routes that take no JSON body, and why none is declared. Their handlers never read a body. */
const NO_BODY_SCHEMA: Record<string, string> = {
  'POST /payments/webhooks/:provider': "the provider's own event, kept as raw bytes: its signature is over them (an unknown field from the provider must not break payments)",
  'POST /payouts/webhooks/:provider': "the payout provider's own event, kept as raw bytes: its signature is over them",
  'PUT /uploads/*': 'the file bytes of a signed upload, checked against the slot (type, size, magic bytes)',
  'POST /orders/:orderId/payments': 'no body: the order in the path and the idempotency key are the whole request',
  'POST /orders/:orderId/payments/:paymentId/abandon': 'no body',
  'POST /sandbox/checkout/:sessionId/:action': 'no body: the sandbox page buttons',
  'DELETE /users/me/addresses/:addressId': 'no body',
  'DELETE /admin/partners/:partnerId/webhook': 'no body',
  'POST /admin/admins/:adminId/reset-password': 'no body',
  'DELETE /admin/fulfilment/zone-rules/:zoneId': 'no body',
  'POST /admin/partners/:partnerId/webhook/rotate-secret': 'no body',
  'POST /admin/partners/:partnerId/webhook/test': 'no body',
  'POST /admin/events/:eventId/replay': 'no body',
  'POST /admin/partners/:partnerId/deactivate': 'no body',
  'POST /admin/partners/:partnerId/rotate-secret': 'no body',
  'POST /admin/partners/:partnerId/api-keys/:keyId/revoke': 'no body',
  'POST /admin/customers/:userId/unblock': 'no body',
  'POST /partner/events/:eventId/replay': 'no body',
  'POST /partner/webhook/ping': 'no body',
  'DELETE /partner/webhook': 'no body',
  'POST /partner/webhook/rotate-secret': 'no body',
  'POST /admin/partners/:partnerId/webhook/ping': 'no body',
  'POST /shipping/webhooks/:carrier': "the carrier's own tracking callback, kept as raw bytes: its signature is over them (parsed and checked by the carrier, an unreadable event is 400)",
  'POST /sandbox/shipments/:awb/:status': 'no body: the sandbox tracking page buttons',
  'POST /admin/shipments/:shipmentId/cancel': 'no body',
  'POST /admin/shipments/:shipmentId/refresh': 'no body',
  'POST /admin/shipments/:shipmentId/pickup': 'no body',
  'DELETE /admin/partners/:partnerId/cod-blocked-pincodes/:pincode': 'no body: the pincode in the path is the whole request',
  'POST /orders/:orderId/convert-to-prepaid': 'no body: the order in the path and the idempotency key are the whole request',
  'POST /partner/orders/:orderId/convert-to-prepaid': 'no body: the order in the path and the idempotency key are the whole request',
  // Unknown fields here are ignored, not refused (contract.md says refused): the rows are read
  // field by field into the insert; the dynamic test below proves an unknown field has no effect.
  'POST /admin/catalogs/:catalogId/import': 'JSON {categories, products} or a CSV (text/csv), checked row by row by the catalog import',
}
/** Objects inside body schemas that may carry keys of their own choosing: none. */
const OPEN_OBJECTS: Record<string, string> = {}

type JsonSchema = Record<string, unknown>
const isObjectSchema = (s: JsonSchema) => s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object')) || 'properties' in s || 'patternProperties' in s

/** Paths inside a schema where an object accepts properties nobody declared. */
function openObjects(schema: unknown, path: string, out: string[]): string[] {
  if (Array.isArray(schema)) {
    schema.forEach((s, i) => openObjects(s, `${path}[${i}]`, out))
    return out
  }
  if (schema === null || typeof schema !== 'object') return out
  const s = schema as JsonSchema
  if (isObjectSchema(s) && (s.additionalProperties !== false || 'patternProperties' in s) && !OPEN_OBJECTS[path]) {
    out.push(`${path || '(body)'}: additionalProperties ${JSON.stringify(s.additionalProperties)}${'patternProperties' in s ? ' with patternProperties' : ''}`)
  }
  for (const [key, value] of Object.entries(s)) {
    if (key === 'properties' || key === '$defs' || key === 'definitions') {
      for (const [name, sub] of Object.entries(value as JsonSchema)) openObjects(sub, path ? `${path}.${name}` : name, out)
    } else if (key === 'items' || key === 'anyOf' || key === 'oneOf' || key === 'allOf' || key === 'not' || key === 'additionalProperties' || key === 'then' || key === 'else' || key === 'if') {
      openObjects(value, `${path}${key === 'items' ? '[]' : `<${key}>`}`, out)
    }
  }
  return out
}

describe('mass assignment', () => {
  test('every body schema, as the app compiles it, closes every object (additionalProperties: false) at every depth', () => {
    const api = routes.filter((r) => r.url.startsWith(`${PREFIX}/`) && r.method !== 'HEAD')
    assert.ok(api.length > 50, `only ${api.length} routes seen: is the onRoute hook still attached?`)
    const problems: string[] = []
    let checked = 0
    for (const route of api) {
      const key = `${route.method} ${route.url.slice(PREFIX.length)}`
      const writes = !['GET', 'OPTIONS'].includes(route.method)
      if (route.body === undefined) {
        if (writes && !NO_BODY_SCHEMA[key]) problems.push(`${key}: a write route with no body schema (list it in NO_BODY_SCHEMA with the reason, or declare its body)`)
        continue
      }
      if (NO_BODY_SCHEMA[key]) problems.push(`${key}: listed in NO_BODY_SCHEMA but declares a body schema`)
      if (route.ownCompiler) problems.push(`${key}: has a validator compiler of its own`)
      if (!route.compiler) {
        problems.push(`${key}: no validator compiler`)
        continue
      }
      // A body schema per content type ({content: {'application/json': {schema}}}) or one schema.
      const declared = route.body as JsonSchema
      const perType = declared.content ? Object.entries(declared.content as Record<string, { schema: unknown }>).map(([type, c]) => [type, c.schema] as const) : [['', declared] as const]
      for (const [type, schema] of perType) {
        const validate = route.compiler({ schema: schema as never, method: route.method, url: route.url, httpPart: 'body' }) as { schema?: unknown }
        if (!validate.schema || typeof validate.schema !== 'object') {
          problems.push(`${key}${type ? ` (${type})` : ''}: the compiled validator does not expose the schema it enforces`)
          continue
        }
        checked++
        for (const open of openObjects(validate.schema, '', [])) problems.push(`${key}${type ? ` (${type})` : ''}: ${open}`)
      }
    }
    assert.ok(checked > 30, `only ${checked} body schemas checked`)
    assert.deepEqual(problems, [])
  })

  test('unknown fields on write routes are refused 400 and change no row', async () => {
    const db = f.t.deps.database.db
    const a1 = f.objects.A1
    const headers = customerHeaders(a1.customer)
    const admin = { authorization: `Bearer ${f.adminTokens.ADMIN}` }
    const shippable = await f.fresh.codOrder(a1.customer)
    const rows = async () => ({
      orders: (await db.select({ n: count() }).from(orders))[0]!.n,
      shipments: (await db.select({ n: count() }).from(shipments))[0]!.n,
      returns: (await db.select({ n: count() }).from(returnRequests))[0]!.n,
      tickets: (await db.select({ n: count() }).from(supportTickets))[0]!.n,
      user: await db.query.users.findFirst({ where: eq(users.id, a1.customer.userId) }),
      coupon: await db.query.coupons.findFirst({ where: eq(coupons.id, f.admin.couponId) }),
    })
    const before = await rows()
    const cases: { name: string; method: 'POST' | 'PATCH' | 'PUT'; url: string; headers: Record<string, string>; payload: object; expect: string[] }[] = [
      {
        name: 'POST /orders with a status, prices, totals and another tenant and customer',
        method: 'POST',
        url: '/orders',
        headers: { ...headers, 'x-idempotency-key': randomUUID() },
        payload: {
          items: [{ productId: a1.productId, quantity: 1, unitPrice: '0.01' }],
          shippingAddress: { ...ADDRESS, isVerified: true },
          paymentMode: 'COD',
          status: 'PAID',
          totalAmount: 1,
          discount: 100,
          tenantId: f.partners.B.partnerId,
          customerId: f.objects.A2.customer.userId,
        },
        expect: ['property status should not exist', 'property totalAmount should not exist', 'property discount should not exist', 'property tenantId should not exist', 'property customerId should not exist', 'items.0.property unitPrice should not exist', 'shippingAddress.property isVerified should not exist'],
      },
      {
        name: 'PATCH /users/me with a role, a wallet balance and points',
        method: 'PATCH',
        url: '/users/me',
        headers,
        payload: { name: 'Mallory', role: 'admin', walletBalance: 1e6, points: 1e6 },
        expect: ['property role should not exist', 'property walletBalance should not exist', 'property points should not exist'],
      },
      {
        name: 'POST /returns with an approved amount and a status',
        method: 'POST',
        url: '/returns',
        headers,
        payload: {
          orderId: a1.deliveredOrder.id,
          reason: 'Damaged',
          detail: 'Torn',
          requestedResolution: 'WALLET_CREDIT',
          items: [{ orderItemId: a1.deliveredOrder.itemId, quantity: 1, reason: 'Torn', requestedAmount: '99999.00' }],
          approvedAmount: '99999.00',
          status: 'APPROVED',
        },
        expect: ['property approvedAmount should not exist', 'property status should not exist', 'items.0.property requestedAmount should not exist'],
      },
      {
        name: 'POST /support/tickets with a status and another partner',
        method: 'POST',
        url: '/support/tickets',
        headers,
        payload: { topic: 'Late', detail: 'Where is it?', status: 'RESOLVED', partnerId: f.partners.B.partnerId },
        expect: ['property status should not exist', 'property partnerId should not exist'],
      },
      {
        name: 'PATCH /admin/coupons/:couponId with its use count',
        method: 'PATCH',
        url: `/admin/coupons/${f.admin.couponId}`,
        headers: admin,
        payload: { isActive: true, usedCount: 0, partnerId: f.partners.A.partnerId },
        expect: ['property usedCount should not exist', 'property partnerId should not exist'],
      },
      {
        name: 'POST /admin/orders/:orderId/shipments with its AWB, status, cash to collect and a line price',
        method: 'POST',
        url: `/admin/orders/${shippable.id}/shipments`,
        headers: admin,
        payload: {
          weightGrams: 500,
          items: [{ orderItemId: shippable.items[0]!.id, quantity: 1, unitPrice: '0.01' }],
          awb: 'SBX0000000000001',
          status: 'DELIVERED',
          collectAmount: 0,
          orderId: f.objects.B1.deliveredOrder.id,
        },
        expect: ['property awb should not exist', 'property status should not exist', 'property collectAmount should not exist', 'property orderId should not exist', 'items.0.property unitPrice should not exist'],
      },
      {
        name: 'PUT /admin/partners/:partnerId/cod-rules with another partner and a date',
        method: 'PUT',
        url: `/admin/partners/${f.partners.C.partnerId}/cod-rules`,
        headers: admin,
        payload: { maxOpenCodOrders: 5, partnerId: f.partners.A.partnerId, updatedAt: '2000-01-01T00:00:00Z' },
        expect: ['property partnerId should not exist', 'property updatedAt should not exist'],
      },
    ]
    for (const c of cases) {
      const res = await f.t.app.inject({ method: c.method, url: `${PREFIX}${c.url}`, headers: c.headers, payload: c.payload })
      assert.equal(res.statusCode, 400, `${c.name}: ${res.body}`)
      const message = res.json().message as string[]
      assert.deepEqual([...message].sort(), [...c.expect].sort(), c.name)
    }
    assert.deepEqual(await rows(), before, 'a refused write changed a row')
  })

  test('the catalog import (no body schema) refuses unknown fields of the body and of each row, and writes nothing', async () => {
    const db = f.t.deps.database.db
    const slug = `bi04-${randomUUID().slice(0, 8)}`
    const foreignCatalog = f.partners.A.catalogId
    const product = { slug, name: 'Mass assigned', brand: 'C', sku: `S-${slug}`, categorySlug: 'c-misc', sellingPrice: '10.00', mrp: '12.00', stock: 3 }
    const send = (payload: object) =>
      f.t.app.inject({
        method: 'POST',
        url: `${PREFIX}/admin/catalogs/${f.admin.catalogId}/import`,
        headers: { authorization: `Bearer ${f.adminTokens.CATALOG}` },
        payload,
      })
    const planted = await send({ products: [{ ...product, id: 'prd_chosen_by_client', catalogId: foreignCatalog, searchText: 'hidden', createdAt: '2000-01-01T00:00:00Z' }] })
    assert.equal(planted.statusCode, 400, planted.body)
    assert.deepEqual([...planted.json().message].sort(), [
      'products[0]: property catalogId should not exist',
      'products[0]: property createdAt should not exist',
      'products[0]: property id should not exist',
      'products[0]: property searchText should not exist',
    ])
    const topLevel = await send({ products: [product], partnerId: f.partners.B.partnerId })
    assert.equal(topLevel.statusCode, 400, topLevel.body)
    assert.deepEqual(topLevel.json().message, ['property partnerId should not exist'])
    assert.equal((await db.query.products.findMany({ where: (p, { eq }) => eq(p.slug, slug) })).length, 0, 'nothing written')
    // The same row without the planted fields is imported.
    assert.equal((await send({ products: [product] })).statusCode, 200)
    const [row] = await db.query.products.findMany({ where: (p, { eq }) => eq(p.slug, slug) })
    assert.equal(row!.catalogId, f.admin.catalogId)
  })
})
