// One authentication suite for every route: it walks every path and method of the served
// /api/v1/openapi.json and, from the security requirement each operation declares, checks the
// credential rules of that kind of caller. The requirement names the kind:
//
//   [{ apiKey }]                     a partner's API key (x-api-key): the catalog
//   [{ bearer, partnerId }]          a customer's access token (+ x-partner-id)
//   [{ bearer }]                     a back-office admin token (its role may still be refused: 403)
//   [{ partnerId, partnerSecret }]   a partner's own server (x-partner-id + x-partner-secret)
//   none                             only the routes in PUBLIC below, each with the credential it
//                                    carries in the request instead (or none at all)
//
// An operation with any other requirement, or with none and not in PUBLIC, fails the first test:
// a route added later has to declare who may call it. Every refusal is checked against the error
// body the document declares for that operation and status. The routes' own rules (whose object,
// which role) are in test/security/authorization-matrix.test.ts; the guards' answers in detail
// (messages, the identity they attach) in test/auth/guards.test.ts.
import assert from 'node:assert/strict'
import { createHmac, randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { Ajv, type ValidateFunction } from 'ajv'
import { ManualClock } from '../../src/lib/clock.ts'
import { createSandboxCarrier } from '../../src/modules/shipping/carriers/sandbox.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture, randomPhone } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder } from '../helpers/shop.ts'
import { png, requestSlots } from '../helpers/uploads.ts'

const PREFIX = '/api/v1'
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD'
type Kind = 'apiKey' | 'customer' | 'admin' | 'partnerSecret'

interface Operation {
  method: Method
  /** The OpenAPI path, e.g. /api/v1/orders/{orderId}. */
  path: string
  security?: Record<string, string[]>[]
  responses: Record<string, { content?: Record<string, { schema?: object }> }>
}

/** The kind of credential a declared security requirement names; null for anything else. */
function kindOf(security: Operation['security']): Kind | 'none' | null {
  if (!security || security.length === 0) return 'none'
  if (security.length !== 1) return null
  const schemes = Object.keys(security[0]!).sort().join('+')
  const kinds: Record<string, Kind> = { 'apiKey': 'apiKey', 'bearer+partnerId': 'customer', 'bearer': 'admin', 'partnerId+partnerSecret': 'partnerSecret' }
  return kinds[schemes] ?? null
}

const clock = new ManualClock()
let t: TestApp
let operations: Operation[]
const ajv = new Ajv({ strict: false, allErrors: true })
ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)))
const validators = new Map<string, ValidateFunction>()

/** Fixtures: two partners' credentials of every kind, and spent ones. */
let A: PartnerFixture
let B: PartnerFixture
let a1: CustomerFixture
let adminToken: string
let supportToken: string
let catalogToken: string
let revokedKey: string
let loggedOut: CustomerFixture
/** Every credential of a partner that was then deactivated. */
let gone: { partner: PartnerFixture; customer: CustomerFixture }
/** Credentials whose use is the request itself (PUBLIC): made before they are spent. */
let spare: { refreshToken: string; logoutToken: string; adminEmail: string; sessionId: string; uploadUrl: string; publicUrl: string; awb: string }

before(async () => {
  t = await createTestApp({ clock, env: { RATE_LIMIT_MAX: '1000000', RATE_LIMIT_AUTH_MAX: '1000000' } })
  const doc = (await t.app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` })).json() as { paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>; components: object }
  // Error answers refer to the document's ErrorBody component (src/http/openapi.ts).
  ajv.addSchema({ components: doc.components }, 'document')
  operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ ...op, method: method.toUpperCase() as Method, path })))

  const shop = await givenShop(t)
  A = shop.partner
  B = await givenPartner(t.deps, 'Partner B')
  a1 = await givenCustomer(t.app, A)
  const adminEmail = `admin-${randomUUID()}@auth.test`
  adminToken = await givenAdminToken(t.app, t.deps, adminEmail, 'ADMIN')
  supportToken = await givenAdminToken(t.app, t.deps, `support-${randomUUID()}@auth.test`, 'SUPPORT')
  catalogToken = await givenAdminToken(t.app, t.deps, `catalog-${randomUUID()}@auth.test`, 'CATALOG')
  const asAdmin = (url: string) => t.app.inject({ method: 'POST', url: `${PREFIX}${url}`, headers: { authorization: `Bearer ${adminToken}` } })

  const revoking = await givenPartner(t.deps, 'Revoked key')
  assert.equal((await asAdmin(`/admin/partners/${revoking.partnerId}/api-keys/${revoking.apiKeyId}/revoke`)).statusCode, 200)
  revokedKey = revoking.apiKey

  loggedOut = await givenCustomer(t.app, A, { phone: a1.phone })
  assert.equal((await t.app.inject({ method: 'POST', url: `${PREFIX}/auth/logout`, payload: { refreshToken: loggedOut.refreshToken } })).statusCode, 200)

  const goner = await givenPartner(t.deps, 'Deactivated')
  gone = { partner: goner, customer: await givenCustomer(t.app, goner) }
  assert.equal((await asAdmin(`/admin/partners/${goner.partnerId}/deactivate`)).statusCode, 200)

  const order = await placeOrder(t, await givenCustomer(t.app, A), { items: [{ productId: shop.ids.atta, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'PREPAID' })
  assert.equal(order.statusCode, 201, order.body)
  const slots = await requestSlots(t, a1, 'support', [{ fileName: 'photo.png', contentType: 'image/png', sizeBytes: 100 }])
  assert.equal(slots.statusCode, 201, slots.body)
  // A parcel booked with the sandbox carrier: its AWB is the capability of the sandbox tracking routes.
  const cod = await placeOrder(t, await givenCustomer(t.app, A), { items: [{ productId: shop.ids.atta, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
  assert.equal(cod.statusCode, 201, cod.body)
  const parcel = await t.app.inject({ method: 'POST', url: `${PREFIX}/admin/orders/${cod.json().data.id}/shipments`, headers: { authorization: `Bearer ${adminToken}` }, payload: { weightGrams: 500 } })
  assert.equal(parcel.statusCode, 201, parcel.body)
  spare = {
    refreshToken: (await givenCustomer(t.app, A)).refreshToken,
    logoutToken: (await givenCustomer(t.app, A)).refreshToken,
    adminEmail,
    sessionId: order.json().data.paymentClientAction.payload.sessionId,
    uploadUrl: slots.json().data[0].uploadUrl,
    publicUrl: slots.json().data[0].publicUrl,
    awb: parcel.json().data.awb,
  }
})
after(() => t?.close())

const label = (op: Operation) => `${op.method} ${op.path.slice(PREFIX.length)}`
/** A URL for the operation: every path parameter filled with an id nobody has (guards run before validation). */
const urlOf = (op: Operation) => op.path.replace(/\{\*\}/g, 'x/y.png').replace(/\{\w+\}/g, () => randomUUID())

/** The one route that checks its credential after its body (it is not a guard but the exchange itself): a valid body. */
const BODIES: Record<string, () => object> = {
  'POST /auth/customer-token': () => ({ phone: randomPhone() }),
}

async function call(op: Operation, headers: Record<string, string>, method: Method = op.method) {
  const body = BODIES[label(op)]
  return t.app.inject({ method, url: urlOf(op), headers, ...(body ? { payload: body() } : {}) })
}

/** The answer is the declared refusal: the status is documented for the operation and the body is its declared schema. */
function assertRefused(op: Operation, res: { statusCode: number; body: string }, status: number, message: string | RegExp | undefined, what: string, bodyOf = status) {
  const where = `${label(op)} with ${what}`
  assert.equal(res.statusCode, status, `${where}: ${res.body}`)
  const declared = op.responses[String(bodyOf)]?.content?.['application/json']?.schema
  assert.ok(declared, `${where}: ${bodyOf} is not a documented answer of this operation`)
  const key = `${label(op)} ${bodyOf}`
  const ref = (declared as { $ref?: string }).$ref
  if (!validators.has(key)) validators.set(key, ajv.compile(ref ? { $ref: `document${ref}` } : declared))
  const body = JSON.parse(res.body) as { statusCode?: number; message?: string }
  const valid = validators.get(key)!
  assert.ok(valid(body), `${where}: the body is not the declared error body: ${ajv.errorsText(valid.errors)} ${res.body}`)
  assert.equal(body.statusCode, status, where)
  if (typeof message === 'string') assert.equal(body.message, message, where)
  else if (message) assert.match(body.message ?? '', message, where)
}

/** The credential got through the guard: what follows (a 400 for the missing body, a 404 for the made-up id) is the route's own answer. */
function assertAdmitted(op: Operation, res: { statusCode: number; body: string }, what: string) {
  assert.ok(![401, 403].includes(res.statusCode), `${label(op)} with ${what}: ${res.statusCode} ${res.body}`)
}

interface Case {
  what: string
  headers: () => Record<string, string>
  status: number
  message?: string | RegExp
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const secretOf = (p: PartnerFixture) => ({ 'x-partner-id': p.partnerId, 'x-partner-secret': p.secret })
const keyOf = (key: string) => ({ 'x-api-key': key })
/** The same claims signed with a secret that is not ours. */
function forged(token: string): string {
  const [header, payload] = token.split('.')
  const signature = createHmac('sha256', 'another-secret-that-is-long-enough-000000').update(`${header}.${payload}`).digest('base64url')
  return `${header}.${payload}.${signature}`
}

/** For each kind: the missing, malformed, wrong and revoked credentials, and the valid credentials of the other kinds. */
const REFUSALS: Record<Kind, Case[]> = {
  apiKey: [
    { what: 'no credential', headers: () => ({}), status: 401, message: 'Missing x-api-key header' },
    { what: 'x-partner-id alone', headers: () => ({ 'x-partner-id': A.partnerId }), status: 401, message: 'Missing x-api-key header' },
    { what: 'a malformed key', headers: () => keyOf('not a key'), status: 401, message: 'Invalid or inactive API key' },
    { what: 'an unknown key', headers: () => keyOf(`ck_${randomUUID().replace(/-/g, '')}`), status: 401, message: 'Invalid or inactive API key' },
    { what: 'an over-long key', headers: () => keyOf(`ck_${'x'.repeat(300)}`), status: 401, message: 'Invalid or inactive API key' },
    { what: 'a revoked key', headers: () => keyOf(revokedKey), status: 401, message: 'Invalid or inactive API key' },
    { what: "a deactivated partner's key", headers: () => keyOf(gone.partner.apiKey), status: 401, message: 'Invalid or inactive API key' },
    { what: 'a customer token', headers: () => customerHeaders(a1), status: 401, message: 'Missing x-api-key header' },
    { what: 'an admin token', headers: () => bearer(adminToken), status: 401, message: 'Missing x-api-key header' },
    { what: 'a partner secret', headers: () => secretOf(A), status: 401, message: 'Missing x-api-key header' },
  ],
  customer: [
    { what: 'x-partner-id and no token', headers: () => ({ 'x-partner-id': A.partnerId }), status: 401, message: 'Missing bearer token' },
    { what: 'a Basic authorization', headers: () => ({ authorization: 'Basic YTpi', 'x-partner-id': A.partnerId }), status: 401, message: 'Missing bearer token' },
    { what: 'a malformed token', headers: () => ({ ...bearer('not.a.jwt'), 'x-partner-id': A.partnerId }), status: 401, message: 'Invalid or expired access token' },
    { what: 'a token signed with another secret', headers: () => ({ ...bearer(forged(a1.accessToken)), 'x-partner-id': A.partnerId }), status: 401, message: 'Invalid or expired access token' },
    { what: 'a logged-out session', headers: () => customerHeaders(loggedOut), status: 401, message: 'Invalid or expired access token' },
    { what: "a deactivated partner's customer", headers: () => customerHeaders(gone.customer), status: 401, message: 'Invalid or expired access token' },
    { what: "another partner's x-partner-id", headers: () => ({ ...bearer(a1.accessToken), 'x-partner-id': B.partnerId }), status: 401, message: 'Access token does not belong to this partner' },
    { what: 'an API key', headers: () => ({ ...keyOf(A.apiKey), 'x-partner-id': A.partnerId }), status: 401, message: 'Missing bearer token' },
    { what: 'an admin token', headers: () => ({ ...bearer(adminToken), 'x-partner-id': A.partnerId }), status: 401, message: 'Invalid or expired access token' },
    { what: 'a partner secret', headers: () => secretOf(A), status: 401, message: 'Missing bearer token' },
  ],
  admin: [
    { what: 'no credential', headers: () => ({}), status: 401, message: 'Missing bearer token' },
    { what: 'x-partner-id alone', headers: () => ({ 'x-partner-id': A.partnerId }), status: 401, message: 'Missing bearer token' },
    { what: 'a malformed token', headers: () => bearer('not.a.jwt'), status: 401, message: 'Invalid or expired admin token' },
    { what: 'a token signed with another secret', headers: () => bearer(forged(adminToken)), status: 401, message: 'Invalid or expired admin token' },
    { what: 'a customer token', headers: () => customerHeaders(a1), status: 401, message: 'Invalid or expired admin token' },
    { what: 'an API key', headers: () => keyOf(A.apiKey), status: 401, message: 'Missing bearer token' },
    { what: 'a partner secret', headers: () => secretOf(A), status: 401, message: 'Missing bearer token' },
  ],
  partnerSecret: [
    { what: 'x-partner-id and no secret', headers: () => ({ 'x-partner-id': A.partnerId }), status: 401, message: 'Missing x-partner-secret header' },
    { what: 'a malformed secret', headers: () => ({ 'x-partner-id': A.partnerId, 'x-partner-secret': 'x' }), status: 401 },
    { what: "another partner's secret", headers: () => ({ 'x-partner-id': A.partnerId, 'x-partner-secret': B.secret }), status: 401 },
    { what: "a deactivated partner's secret", headers: () => secretOf(gone.partner), status: 401 },
    { what: 'a customer token', headers: () => customerHeaders(a1), status: 401, message: 'Missing x-partner-secret header' },
    { what: 'an API key', headers: () => ({ ...keyOf(A.apiKey), 'x-partner-id': A.partnerId }), status: 401, message: 'Missing x-partner-secret header' },
    { what: 'an admin token', headers: () => ({ ...bearer(adminToken), 'x-partner-id': A.partnerId }), status: 401, message: 'Missing x-partner-secret header' },
  ],
}

/** The valid credential of each kind. */
const VALID: Record<Kind, () => Record<string, string>> = {
  apiKey: () => keyOf(A.apiKey),
  customer: () => customerHeaders(a1),
  admin: () => bearer(adminToken),
  partnerSecret: () => secretOf(A),
}

/**
 * Routes that declare no security requirement, each with the reason and a request that carries
 * no header credential and gets its answer. Anything else without a requirement fails.
 */
const PUBLIC: Record<string, { why: string; status: number; req?: () => { url?: string; payload?: object | Buffer; headers?: Record<string, string> } }> = {
  'GET /health/live': { why: "the load balancer's probe", status: 200 },
  'GET /health/ready': { why: "the load balancer's probe", status: 200 },
  'GET /health': { why: 'the status page', status: 200 },
  'POST /auth/refresh': { why: 'the refresh token in the body is the credential', status: 200, req: () => ({ payload: { refreshToken: spare.refreshToken } }) },
  'POST /auth/logout': { why: 'the refresh token in the body is the credential', status: 200, req: () => ({ payload: { refreshToken: spare.logoutToken } }) },
  'POST /admin/auth/login': { why: 'the email and password in the body are the credential', status: 200, req: () => ({ payload: { email: spare.adminEmail, password: 'long-enough-password' } }) },
  'POST /payments/webhooks/{provider}': {
    why: "the provider's signature over the body is the credential",
    status: 200,
    req: () => {
      const body = JSON.stringify({ id: `evt_${randomUUID()}`, type: 'payment.closed', data: { sessionId: 'no-such-session' } })
      const secret = createHmac('sha256', t.deps.config.authSecret).update('sandbox-webhook').digest('hex')
      const timestamp = Math.floor(clock.now().getTime() / 1000)
      const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
      return { url: `${PREFIX}/payments/webhooks/sandbox`, payload: Buffer.from(body), headers: { 'content-type': 'application/json', 'x-sandbox-signature': `t=${timestamp},v1=${v1}` } }
    },
  },
  'POST /payouts/webhooks/{provider}': {
    // The test app pays out through the sandbox, which has no callbacks: its answer is 404, not 401.
    // RazorpayX's signed callbacks: test/payments/razorpayx-payouts.test.ts.
    why: "the payout provider's signature over the body is the credential",
    status: 404,
    req: () => ({ url: `${PREFIX}/payouts/webhooks/razorpayx`, payload: Buffer.from('{}'), headers: { 'content-type': 'application/json' } }),
  },
  'POST /shipping/webhooks/{carrier}': {
    why: "the carrier's signature over the body (or its shared token) is the credential",
    status: 200,
    req: () => {
      // The sandbox carrier's key, derived from AUTH_SECRET (src/modules/shipping/carriers/index.ts); it signs with the wall clock.
      const carrier = createSandboxCarrier({ secret: createHmac('sha256', t.deps.config.authSecret).update('sandbox-carrier').digest('hex'), publicBaseUrl: '' })
      const signed = carrier.signedEvent(carrier.eventFor(spare.awb, 'IN_TRANSIT'))
      return { url: `${PREFIX}/shipping/webhooks/sandbox`, payload: signed.rawBody, headers: signed.headers as Record<string, string> }
    },
  },
  'GET /sandbox/shipments/{awb}': { why: 'the AWB is the capability', status: 200, req: () => ({ url: `${PREFIX}/sandbox/shipments/${spare.awb}` }) },
  'POST /sandbox/shipments/{awb}/{status}': { why: 'the AWB is the capability', status: 200, req: () => ({ url: `${PREFIX}/sandbox/shipments/${spare.awb}/OUT_FOR_DELIVERY` }) },
  'GET /sandbox/checkout/{sessionId}': { why: 'the session id is the capability', status: 200, req: () => ({ url: `${PREFIX}/sandbox/checkout/${spare.sessionId}` }) },
  'POST /sandbox/checkout/{sessionId}/{action}': { why: 'the session id is the capability', status: 200, req: () => ({ url: `${PREFIX}/sandbox/checkout/${spare.sessionId}/close` }) },
  'PUT /uploads/{path}': {
    why: 'the signature in the URL is the credential',
    status: 201,
    req: () => ({ url: new URL(spare.uploadUrl).pathname + new URL(spare.uploadUrl).search, payload: png(100), headers: { 'content-type': 'image/png' } }),
  },
  'GET /uploads/{path}': { why: 'the tagged object name is the capability (after the PUT above)', status: 200, req: () => ({ url: new URL(spare.publicUrl).pathname }) },
}

test('every operation of the OpenAPI document declares a security requirement of a known kind, or is a listed public route', () => {
  assert.ok(operations.length > 80, `only ${operations.length} operations in the document`)
  const unknown = operations.filter((op) => kindOf(op.security) === null).map((op) => `${label(op)}: ${JSON.stringify(op.security)}`)
  assert.deepEqual(unknown, [], 'operations whose security requirement names no known kind of credential')
  const undeclared = operations.filter((op) => kindOf(op.security) === 'none' && !(label(op) in PUBLIC)).map(label)
  assert.deepEqual(undeclared, [], 'operations with no security requirement that are not in PUBLIC: declare one, or list the route with its reason')
  const stale = Object.keys(PUBLIC).filter((key) => !operations.some((op) => label(op) === key && kindOf(op.security) === 'none'))
  assert.deepEqual(stale, [], 'PUBLIC rows that are not public operations of the document')
})

test('the fulfilment back office (shipments, labels, pick list) declares the admin token, so every admin check below runs on it', () => {
  const fulfilment = operations.filter((op) => /^\/api\/v1\/admin\/(orders\/\{orderId\}\/(shipments|shipping-rates)|shipments\/|fulfilment\/)/.test(op.path))
  assert.deepEqual(
    fulfilment.map((op) => `${label(op)}: ${kindOf(op.security)}`).sort(),
    [
      'DELETE /admin/fulfilment/zone-rules/{zoneId}: admin',
      'GET /admin/fulfilment/carrier-callbacks: admin',
      'GET /admin/fulfilment/manifest: admin',
      'GET /admin/fulfilment/pick-list: admin',
      'GET /admin/fulfilment/zone-rules: admin',
      'GET /admin/shipments/{shipmentId}/label: admin',
      'GET /admin/shipments/{shipmentId}: admin',
      'POST /admin/orders/{orderId}/shipments: admin',
      'POST /admin/orders/{orderId}/shipping-rates: admin',
      'POST /admin/shipments/{shipmentId}/cancel: admin',
      'POST /admin/shipments/{shipmentId}/ndr: admin',
      'POST /admin/shipments/labels: admin',
      'POST /admin/shipments/{shipmentId}/resolve: admin',
      'POST /admin/shipments/{shipmentId}/status: admin',
      'PUT /admin/fulfilment/zone-rules/{zoneId}: admin',
      'POST /admin/shipments/{shipmentId}/pickup: admin',
      'POST /admin/shipments/{shipmentId}/refresh: admin',
    ].sort(),
  )
})

for (const kind of ['apiKey', 'customer', 'admin', 'partnerSecret'] as const) {
  describe(`routes that take ${{ apiKey: 'an API key', customer: 'a customer token', admin: 'an admin token', partnerSecret: 'a partner secret' }[kind]}`, () => {
    const ops = () => operations.filter((op) => kindOf(op.security) === kind)

    test('there are such routes', () => {
      assert.ok(ops().length > 0)
    })

    for (const refusal of REFUSALS[kind]) {
      test(`with ${refusal.what}, every one is ${refusal.status} with the declared error body`, async () => {
        for (const op of ops()) assertRefused(op, await call(op, refusal.headers()), refusal.status, refusal.message, refusal.what)
      })
    }

    if (kind === 'customer' || kind === 'admin') {
      // Issue a fresh token, then move the clock past its lifetime (15 minutes for customers, 8 hours
      // for admins by default). API keys and partner secrets do not expire; they are revoked, or their
      // partner deactivated (above).
      test('with an expired token, every one is 401 with the declared error body', async () => {
        const headers = kind === 'customer' ? customerHeaders(await givenCustomer(t.app, A)) : bearer(await givenAdminToken(t.app, t.deps, `expiring-${randomUUID()}@auth.test`, 'ADMIN'))
        for (const op of ops()) assertAdmitted(op, await call(op, headers), 'the token before it expires')
        const { exp } = JSON.parse(Buffer.from(headers.authorization!.split('.')[1]!, 'base64url').toString()) as { exp: number }
        const lifetime = exp * 1000 - clock.now().getTime() + 1000
        clock.advance(lifetime)
        try {
          const message = kind === 'customer' ? 'Invalid or expired access token' : 'Invalid or expired admin token'
          for (const op of ops()) assertRefused(op, await call(op, headers), 401, message, 'an expired token')
        } finally {
          clock.advance(-lifetime)
        }
      })
    }

    test('with the valid credential, every one gets past authentication', async () => {
      for (const op of ops()) assertAdmitted(op, await call(op, VALID[kind]()), 'the valid credential')
    })

    if (kind === 'customer') {
      test('with no header at all, every one is 401, or 400 where x-partner-id is required, with the error body', async () => {
        for (const op of ops()) {
          const res = await call(op, {})
          // Not every such operation documents its 400 (a gap of the document, not of the answer): the body is the 401's error body.
          if (res.statusCode === 400) assertRefused(op, res, 400, 'x-partner-id header is required', 'no header', 401)
          else assertRefused(op, res, 401, 'Missing bearer token', 'no header')
        }
      })
    }
    if (kind === 'partnerSecret') {
      test('with no header at all, every one is 400 x-partner-id header is required, with the error body', async () => {
        // Not every such operation documents its 400 (a gap of the document, not of the answer): the body is the 401's error body.
        for (const op of ops()) assertRefused(op, await call(op, {}), 400, 'x-partner-id header is required', 'no header', 401)
      })
    }
    if (kind === 'admin') {
      test('with a role the route does not allow, it is 403 with the declared error body; ADMIN is allowed everywhere', async () => {
        const refused: Record<string, number> = { SUPPORT: 0, CATALOG: 0 }
        for (const op of ops()) {
          for (const [role, token] of [['SUPPORT', supportToken], ['CATALOG', catalogToken]] as const) {
            const res = await call(op, bearer(token))
            if (res.statusCode === 403) {
              assertRefused(op, res, 403, 'Your role does not allow this action', role)
              refused[role]!++
            } else assertAdmitted(op, res, role)
          }
        }
        // Each limited role is refused somewhere and let in somewhere (the matrix has the exact table).
        for (const role of ['SUPPORT', 'CATALOG']) assert.ok(refused[role]! > 0 && refused[role]! < ops().length, `${role} refused on ${refused[role]} of ${ops().length}`)
      })
    }

    test('HEAD of every GET route without a credential is refused like the GET, with no body', async () => {
      for (const op of ops().filter((o) => o.method === 'GET')) {
        const get = await call(op, kind === 'customer' || kind === 'partnerSecret' ? { 'x-partner-id': A.partnerId } : {})
        const head = await call(op, kind === 'customer' || kind === 'partnerSecret' ? { 'x-partner-id': A.partnerId } : {}, 'HEAD')
        assert.equal(get.statusCode, 401, label(op))
        assert.equal(head.statusCode, 401, `HEAD ${label(op)}`)
        assert.equal(head.body, '', `HEAD ${label(op)}`)
      }
    })
  })
}

describe('routes that declare no security requirement', () => {
  for (const [key, route] of Object.entries(PUBLIC)) {
    test(`${key} answers ${route.status} with no header credential (${route.why})`, async () => {
      const [method, path] = key.split(' ') as [Method, string]
      const req = route.req?.() ?? {}
      const res = await t.app.inject({ method, url: req.url ?? `${PREFIX}${path}`, headers: req.headers ?? {}, ...(req.payload === undefined ? {} : { payload: req.payload }) })
      assert.equal(res.statusCode, route.status, res.body)
    })
  }

  test('GET /openapi.json (not in the document it serves) answers 200 with no credential', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` })).statusCode, 200)
  })
})
