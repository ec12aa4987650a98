// Query-string injection (issue #20): for every read route in the OpenAPI document, adding tenant
// parameters (userId, partnerId, customerId, catalogId, status…) or random keys, with empty values,
// other tenants' ids or arrays, never widens what comes back. An undeclared parameter is a 400 in
// the error body ("property foo should not exist"); a declared one may narrow the answer, never
// add to it. The routes come from the served document, so a new GET route is covered without a
// new test (a new path parameter or required query parameter needs a value below, and the first
// test fails until it has one).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import fc from 'fast-check'
import { WILDCARD_PARAM } from '../../src/http/openapi.ts'
import { ADDRESS } from '../helpers/shop.ts'
import { buildFixtures, type Fixtures, PREFIX, type Principal } from './fixtures.ts'

let f: Fixtures
/** Parcels booked with the sandbox carrier: A1's is the back office's and the tracking page's target; A2's and B1's no answer to A1 may name. */
let parcels: Record<'A1' | 'A2' | 'B1', { id: string; awb: string; orderId: string }>
/** A GST registration of the back office (GSTR-1 and the registration's own routes read it). */
let registration: { id: string; gstin: string }
before(async () => {
  f = await buildFixtures()
  const created = await f.t.app.inject({
    method: 'POST',
    url: `${PREFIX}/admin/gst/registrations`,
    headers: f.principals.find((p) => p.name === 'ADMIN')!.headers,
    payload: { legalName: 'Injection Retail Private Limited', gstin: '27AAPFU0939F1ZV', address: { line1: '12 Nariman Point', city: 'Mumbai', state: 'Maharashtra', pincode: '400021' } },
  })
  assert.equal(created.statusCode, 201, created.body)
  registration = created.json().data
  parcels = {
    A1: await f.fresh.shipment(f.objects.A1.customer),
    A2: await f.fresh.shipment(f.objects.A2.customer),
    B1: await f.fresh.shipment(f.objects.B1.customer),
  }
})
after(() => f?.t.close())

interface Parameter {
  name: string
  in: 'path' | 'query' | 'header'
  required?: boolean
  schema?: { enum?: string[]; default?: unknown }
}
interface Operation {
  security?: Record<string, string[]>[]
  parameters?: Parameter[]
}
interface ReadRoute {
  path: string
  operation: Operation
}

async function readRoutes(): Promise<ReadRoute[]> {
  const res = await f.t.app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` })
  assert.equal(res.statusCode, 200)
  const doc = res.json() as { paths: Record<string, Record<string, Operation>> }
  return Object.entries(doc.paths).flatMap(([path, ops]) => (ops.get ? [{ path, operation: ops.get }] : []))
}

/** Values of path parameters: A1's objects, partner A's catalog, the back office's targets. */
function pathValue(name: string): string | undefined {
  const a1 = f.objects.A1
  const values: Record<string, string> = {
    orderId: a1.deliveredOrder.id,
    returnRequestId: a1.returnId,
    ticketId: a1.ticketId,
    addressId: a1.addressId,
    slug: f.slugs.A,
    sessionId: a1.pendingOrder.sessionId,
    catalogId: f.admin.catalogId,
    categoryId: f.admin.categoryId,
    productId: f.admin.productId,
    zoneId: f.admin.zoneId,
    couponId: f.admin.couponId,
    eventId: f.admin.eventId,
    partnerId: f.partners.A.partnerId,
    userId: a1.customer.userId,
    shipmentId: parcels.A1.id,
    awb: parcels.A1.awb,
    registrationId: registration.id,
    locationId: f.admin.locations.locationId,
    // The uploads wildcard (`/uploads/*`), documented as {path}: the object name, slashes included.
    [WILDCARD_PARAM]: new URL(a1.imageUrl).pathname.replace(/^\/api\/v1\/uploads\//, ''),
  }
  return values[name]
}

/** Values of required query parameters that make the baseline request valid. */
function requiredQueryValue(name: string): string | undefined {
  const values: Record<string, string> = {
    q: 'atta',
    pincode: ADDRESS.pincode,
    items: `${f.objects.A1.productId}:1`,
    collectableAmount: '100.00',
    from: '2026-01-01',
    to: '2026-12-31',
    gstin: registration.gstin,
    fp: '072017',
    carrier: 'sandbox',
  }
  return values[name]
}

/** The caller of a route, from its OpenAPI security: customer A1, partner A's key, an ADMIN, or nobody. */
function principalFor(op: Operation): Principal {
  const schemes = (op.security ?? []).flatMap((s) => Object.keys(s))
  if (schemes.includes('partnerSecret')) return partnerA()
  const name = schemes.includes('partnerId') ? 'A1' : schemes.includes('apiKey') ? 'key A' : schemes.includes('bearer') ? 'ADMIN' : 'none'
  return f.principals.find((p) => p.name === name)!
}

/** Partner A's own server (not a principal of the authorization grid, which has no secrets). */
function partnerA(): Principal {
  return { name: 'none', headers: { 'x-partner-id': f.partners.A.partnerId, 'x-partner-secret': f.partners.A.secret } }
}

function baseRequest(route: ReadRoute): { path: string; query: [string, string][]; declared: Set<string> } | string {
  let path = route.path
  for (const p of route.operation.parameters ?? []) {
    if (p.in !== 'path') continue
    const value = pathValue(p.name)
    if (value === undefined) return `no value for path parameter ${p.name}`
    path = path.replace(`{${p.name}}`, p.name === WILDCARD_PARAM ? value : encodeURIComponent(value))
  }
  const query: [string, string][] = []
  const declared = new Set<string>()
  for (const p of route.operation.parameters ?? []) {
    if (p.in !== 'query') continue
    declared.add(p.name)
    if (p.name === 'limit') query.push(['limit', '50'])
    if (!p.required || p.schema?.default !== undefined) continue
    const value = requiredQueryValue(p.name)
    if (value === undefined) return `no value for required query parameter ${p.name}`
    query.push([p.name, value])
  }
  return { path, query, declared }
}

/** Every `id`, `userId` and `partnerId` anywhere in an answer's data: what the answer discloses. */
function disclosed(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) disclosed(v, into)
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' && /^(id|userId|partnerId|orderId|catalogId)$/.test(k)) into.add(`${k}=${v}`)
      else disclosed(v, into)
    }
  }
  return into
}

/** The `data` of a JSON answer; nothing for a page or a file (the sandbox checkout and tracking pages, an upload, a label). */
function dataOf(body: string): unknown {
  try {
    return (JSON.parse(body) as { data?: unknown }).data
  } catch {
    return undefined
  }
}

function get(path: string, query: [string, string][], principal: Principal) {
  const search = new URLSearchParams(query).toString()
  return f.t.app.inject({ method: 'GET', url: `${path}${search ? `?${search}` : ''}`, headers: principal.headers })
}

/** What other tenants own: no answer to A1 may name any of it. */
function othersIds(): string[] {
  return (['A2', 'B1'] as const).flatMap((n) => {
    const o = f.objects[n]
    return [o.customer.userId, o.deliveredOrder.id, o.pendingOrder.id, o.ticketId, o.returnId, o.addressId, parcels[n].id, parcels[n].awb, parcels[n].orderId]
  })
}

describe('query-string injection never widens an answer', () => {
  test('every GET route of the OpenAPI document has values for its path and required query parameters', async () => {
    const problems = (await readRoutes()).flatMap((r) => {
      const base = baseRequest(r)
      return typeof base === 'string' ? [`${r.path}: ${base}`] : []
    })
    assert.deepEqual(problems, [])
  })

  test('the OpenAPI document still lists every declared query parameter of a closed query string', async () => {
    const returns = (await readRoutes()).find((r) => r.path === `${PREFIX}/returns`)!
    const names = (returns.operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name).sort()
    assert.deepEqual(names, ['limit', 'page', 'resolution', 'search', 'status'])
  })

  test('an unknown parameter is a 400 naming it, on a customer, a key and a back-office route', async () => {
    const a1 = f.principals.find((p) => p.name === 'A1')!
    for (const [url, principal] of [
      [`${PREFIX}/returns?userId=&partnerId=`, a1],
      [`${PREFIX}/orders/${f.objects.A1.deliveredOrder.id}?foo=1`, a1],
      [`${PREFIX}/products?limit=100&utm_x=7`, f.principals.find((p) => p.name === 'key A')!],
      [`${PREFIX}/admin/orders?userId=${f.objects.B1.customer.userId}`, f.principals.find((p) => p.name === 'ADMIN')!],
    ] as const) {
      const res = await f.t.app.inject({ method: 'GET', url, headers: principal.headers })
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`)
      const body = res.json()
      const key = [...new URL(url, 'http://x').searchParams.keys()].find((k) => k !== 'limit')!
      assert.ok((body.message as string[]).includes(`property ${key} should not exist`), `${url}: ${res.body}`)
      assert.equal(body.path, new URL(url, 'http://x').pathname)
      assert.ok(body.timestamp)
    }
  })

  test("a customer's return list with another partner's ids in the query answers 400, and without them only the customer's own", async () => {
    const a1 = f.principals.find((p) => p.name === 'A1')!
    for (const query of ['userId=&partnerId=', `partnerId=${f.partners.B.partnerId}`, `userId=${f.objects.A2.customer.userId}`]) {
      const res = await f.t.app.inject({ method: 'GET', url: `${PREFIX}/returns?${query}`, headers: a1.headers })
      assert.equal(res.statusCode, 400, `${query}: ${res.body}`)
    }
    const own = await f.t.app.inject({ method: 'GET', url: `${PREFIX}/returns`, headers: a1.headers })
    assert.deepEqual(own.json().data.map((r: { id: string }) => r.id), [f.objects.A1.returnId])
  })

  test('property: injected tenant keys and random keys, with empty, foreign and array values, never widen any read route', async () => {
    const routes = await readRoutes()
    const others = othersIds()
    const b1 = f.objects.B1
    const partnerBIds = [f.partners.B.partnerId, b1.customer.userId, b1.deliveredOrder.id, b1.pendingOrder.id, b1.ticketId, b1.returnId, parcels.B1.id, parcels.B1.awb]
    const foreign = [f.partners.B.partnerId, f.objects.B1.customer.userId, f.objects.A2.customer.userId, f.admin.catalogId, f.partners.C.partnerId, f.objects.B1.deliveredOrder.id]
    const key = fc.oneof(
      fc.constantFrom('userId', 'partnerId', 'customerId', 'catalogId', 'status', 'orderId', 'user_id', 'partner_id', '__proto__', 'constructor'),
      fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_.[\]]{0,15}$/),
    )
    const value = fc.oneof(fc.constant(''), fc.constantFrom(...foreign), fc.string({ maxLength: 20 }), fc.constantFrom('DELIVERED', 'PENDING', 'REQUESTED', 'OPEN', 'true', '0', 'null'))
    const values = fc.oneof(value.map((v) => [v]), fc.array(value, { minLength: 2, maxLength: 3 }))
    const injection = fc.array(fc.tuple(key, values), { minLength: 1, maxLength: 4 })

    for (const route of routes) {
      const base = baseRequest(route)
      assert.ok(typeof base !== 'string', `${route.path}: ${base}`)
      const principal = principalFor(route.operation)
      const path = base.path
      const baseline = await get(path, base.query, principal)
      assert.ok(baseline.statusCode < 500, `${route.path} baseline: ${baseline.statusCode} ${baseline.body}`)
      const baselineIds = baseline.statusCode === 200 ? disclosed(dataOf(baseline.body)) : new Set<string>()

      await fc.assert(
        fc.asyncProperty(injection, async (pairs) => {
          const injected: [string, string][] = pairs.flatMap(([k, vs]) => vs.map((v): [string, string] => [k, v]))
          const res = await get(path, [...base.query, ...injected], principal)
          const where = `${route.path} ${new URLSearchParams(injected).toString()}`
          assert.ok([200, 400, 404].includes(res.statusCode) || res.statusCode === baseline.statusCode, `${where}: ${res.statusCode} ${res.body}`)
          if (res.statusCode === 400) {
            const body = res.json()
            assert.ok(Array.isArray(body.message) || typeof body.message === 'string', where)
            const undeclared = injected.map(([k]) => k).filter((k) => !base.declared.has(k))
            for (const k of new Set(undeclared)) {
              assert.ok([body.message].flat().includes(`property ${k} should not exist`), `${where}: ${res.body}`)
            }
            return
          }
          if (res.statusCode !== 200) return
          assert.equal(baseline.statusCode, 200, `${where}: 200 where the plain request got ${baseline.statusCode}`)
          const widened = [...disclosed(dataOf(res.body))].filter((id) => !baselineIds.has(id))
          assert.deepEqual(widened, [], `${where} disclosed what the plain request did not`)
          if (principal.customer) for (const id of others) assert.ok(!res.body.includes(id), `${where} named another customer's ${id}`)
          if (principal.headers['x-partner-secret']) for (const id of partnerBIds) assert.ok(!res.body.includes(id), `${where} named partner B's ${id}`)
        }),
        { numRuns: 15 },
      )
    }
  })
})
