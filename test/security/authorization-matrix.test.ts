// The authorization matrix (reliability plan API1 BOLA, API5 BFLA, API9 inventory; SE-01, SE-04,
// BI-07): every route Fastify registers × every principal × objects owned by A1, A2 and B1.
//
// How the route table is read: buildApp creates the Fastify instance itself and registers every
// route before it returns, so an onRoute hook added through extraRoutes would come too late, and
// printRoutes() is a tree meant for people. Fastify publishes each new instance on the
// `fastify.initialization` diagnostics channel (public API, made for instrumentation) before any
// plugin runs; the fixtures subscribe to it and add an onRoute hook there, which sees every route
// with its method and full URL (test/helpers/route-table.ts, shared with test/http/openapi.test.ts).
// The table is then diffed against the OpenAPI document served at /api/v1/openapi.json and
// against MATRIX (authorization-routes.ts): a route missing from either fails the first test.
//
// Each MATRIX row names the route's guard (AUTH), the status its rightful caller gets, and, for
// routes that take an object id, whose object it is. The GRID says what every principal gets from
// each guard; the runner turns rows × principals × owners into cells and compares exact statuses.
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { WILDCARD_PARAM } from '../../src/http/openapi.ts'
import type { AdminRole } from '../../src/modules/admins/index.ts'
import { createSandboxCarrier } from '../../src/modules/shipping/carriers/sandbox.ts'
import { randomPhone } from '../helpers/factories.ts'
import { type Auth, type Cell, freshParcel, MATRIX, type Route, useFixtures } from './authorization-routes.ts'
import { buildFixtures, CUSTOMERS, type CustomerName, type Fixtures, type PartnerName, PREFIX, type Principal, type PrincipalName } from './fixtures.ts'

let f: Fixtures
before(async () => {
  f = await buildFixtures({ skipAuditCheck: true })
  useFixtures(f)
})
after(() => f?.t.close())

// ---------------------------------------------------------------------------------------------
// Guards and what each principal gets from them

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

// The document names a trailing wildcard {path} (src/http/openapi.ts); Fastify's table says `*`.
const fastifyForm = (openApiPath: string) => openApiPath.replace(new RegExp(`\\{${WILDCARD_PARAM}\\}$`), '*').replace(/\{(\w+)\}/g, ':$1')

test('inventory: the Fastify route table, the OpenAPI document and MATRIX list the same routes', async () => {
  const doc = (await f.t.app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` })).json() as { paths: Record<string, Record<string, unknown>> }
  const documented = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${fastifyForm(path)}`)))
  // HEAD routes are Fastify's automatic twins of GET routes; /docs is the reference UI itself and
  // `GET /` only points at it (test/http/root.test.ts); GET /admin and /admin/* are the console's
  // static files (decision 0028), which call the API like any client.
  const outsideTheApi = (r: { method: string; url: string }) =>
    r.url.startsWith('/docs') || (r.method === 'GET' && (r.url === '/' || r.url === '/admin' || r.url.startsWith('/admin/')))
  const registered = new Set(f.routes.filter((r) => r.method !== 'HEAD' && !outsideTheApi(r)).map((r) => `${r.method} ${r.url}`))
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

  test("carrier webhooks: the sandbox carrier's signature is the credential; a forged one is 401, an unknown carrier 404", async () => {
    const parcel = await freshParcel()
    const sign = (secret: string) => {
      const carrier = createSandboxCarrier({ secret, publicBaseUrl: '' })
      return carrier.signedEvent(carrier.eventFor(parcel.awb, 'IN_TRANSIT'))
    }
    const post = (carrier: string, signed: ReturnType<typeof sign>) =>
      f.t.app.inject({ method: 'POST', url: `${PREFIX}/shipping/webhooks/${carrier}`, headers: signed.headers as Record<string, string>, payload: signed.rawBody })
    // Signed with the key derived from AUTH_SECRET (src/modules/shipping/carriers/index.ts); a customer's or an admin's token adds nothing.
    const key = createHmac('sha256', f.t.deps.config.authSecret).update('sandbox-carrier').digest('hex')
    const forged = await post('sandbox', sign(createHmac('sha256', 'another-secret').update('sandbox-carrier').digest('hex')))
    assert.equal(forged.statusCode, 401, forged.body)
    assert.equal((await post('fedex', sign(key))).statusCode, 404)
    const res = await post('sandbox', sign(key))
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(res.json().data, { received: 1, applied: 1, duplicates: 0, unknown: 0 })
  })

  test('sandbox tracking: an existing AWB answers anyone who holds it (it is the capability)', async () => {
    const parcel = await freshParcel()
    assert.equal((await call('GET', `/sandbox/shipments/${parcel.awb}`)).statusCode, 200)
    const moved = await call('POST', `/sandbox/shipments/${parcel.awb}/IN_TRANSIT`)
    assert.equal(moved.statusCode, 200, moved.body)
    assert.equal(moved.json().data.shipmentId, parcel.id)
  })

  test("shipments are seen through their order only: A1 sees its parcel, A2 and B1 get 404 and none of it in their lists", async () => {
    const parcel = await freshParcel()
    const mine = await call('GET', `/orders/${parcel.orderId}`, headersOf('A1'))
    assert.equal(mine.statusCode, 200, mine.body)
    assert.deepEqual(mine.json().data.shipments.map((s: { id: string }) => s.id), [parcel.id])
    for (const name of ['A2', 'B1'] as const) {
      const theirs = await call('GET', `/orders/${parcel.orderId}`, headersOf(name))
      assert.equal(theirs.statusCode, 404, `${name}: ${theirs.body}`)
      const list = await call('GET', '/orders?limit=100', headersOf(name))
      assert.equal(list.statusCode, 200)
      assert.ok(!list.body.includes(parcel.id) && !list.body.includes(parcel.awb), `${name} sees A1's parcel in its orders`)
    }
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
