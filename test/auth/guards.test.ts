// The credential rules every guarded route shares, exercised through probe routes that use the
// real guards (the same hooks the product routes declare).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { SignJWT } from 'jose'
import { customerOf } from '../../src/http/guards.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { createAdmin } from '../../src/modules/admins/index.ts'
import { revokeApiKey } from '../../src/modules/partners/index.ts'
import { createTestApp, TEST_AUTH_SECRET, type TestApp } from '../helpers/app.ts'
import { customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'

let t: TestApp
let partner: PartnerFixture
let otherPartner: PartnerFixture
const clock = new ManualClock()

before(async () => {
  t = await createTestApp({
    clock,
    extraRoutes: (app) => {
      app.get('/probe/api-key', { preValidation: app.guards.apiKey }, async (request) => request.apiKeyIdentity)
      app.get('/probe/customer', { preValidation: app.guards.customer }, async (request) => customerOf(request))
      app.get('/probe/customer-of-partner', { preValidation: app.guards.customerOfPartner }, async (request) => customerOf(request))
      app.get('/probe/admin-catalog', { preValidation: app.guards.admin('CATALOG') }, async (request) => request.adminIdentity)
    },
  })
  partner = await givenPartner(t.deps, 'Partner A')
  otherPartner = await givenPartner(t.deps, 'Partner B')
})
after(() => t.close())

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers })

describe('x-api-key', () => {
  test('when the header is missing, then 401 Missing x-api-key header', async () => {
    const res = await get('/probe/api-key')
    assert.equal(res.statusCode, 401)
    assert.equal(res.json().message, 'Missing x-api-key header')
  })

  test('when the key is unknown, then 401 Invalid or inactive API key', async () => {
    const res = await get('/probe/api-key', { 'x-api-key': 'ck_unknown' })
    assert.equal(res.statusCode, 401)
    assert.equal(res.json().message, 'Invalid or inactive API key')
  })

  test('when the key is valid, then the request sees its partner and catalog', async () => {
    const res = await get('/probe/api-key', { 'x-api-key': partner.apiKey })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { keyId: partner.apiKeyId, partnerId: partner.partnerId, catalogId: partner.catalogId })
  })

  test('when the key is revoked, then 401 Invalid or inactive API key at once', async () => {
    const own = await givenPartner(t.deps, 'Revoking partner')
    assert.equal((await get('/probe/api-key', { 'x-api-key': own.apiKey })).statusCode, 200)
    await revokeApiKey(t.deps.database.db, t.deps.clock, own.apiKeyId)
    const res = await get('/probe/api-key', { 'x-api-key': own.apiKey })
    assert.equal(res.statusCode, 401)
    assert.equal(res.json().message, 'Invalid or inactive API key')
  })
})

describe('customer bearer token and x-partner-id', () => {
  test('when the token is valid, then the request sees the customer', async () => {
    const customer = await givenCustomer(t.app, partner)
    const res = await get('/probe/customer-of-partner', customerHeaders(customer))
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().userId, customer.userId)
    assert.equal(res.json().partnerId, partner.partnerId)
  })

  test('when x-partner-id is missing on a route that requires it, then 400 with the exact message', async () => {
    const customer = await givenCustomer(t.app, partner)
    const res = await get('/probe/customer-of-partner', { authorization: `Bearer ${customer.accessToken}` })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().message, 'x-partner-id header is required')
  })

  test('when x-partner-id is optional and absent, then the token alone is enough', async () => {
    const customer = await givenCustomer(t.app, partner)
    const res = await get('/probe/customer', { authorization: `Bearer ${customer.accessToken}` })
    assert.equal(res.statusCode, 200)
  })

  test("when a token of partner A is sent with partner B's id, then 401", async () => {
    const customer = await givenCustomer(t.app, partner)
    for (const url of ['/probe/customer', '/probe/customer-of-partner']) {
      const res = await get(url, { authorization: `Bearer ${customer.accessToken}`, 'x-partner-id': otherPartner.partnerId })
      assert.equal(res.statusCode, 401, url)
    }
  })

  test('when the token is missing, malformed, tampered or signed with another secret, then 401', async () => {
    const customer = await givenCustomer(t.app, partner)
    const [h, p, s] = customer.accessToken.split('.')
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString())
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: 'usr_someone_else' })).toString('base64url')
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another-secret-that-is-long-enough-000000'))
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`
    for (const authorization of [undefined, 'Bearer', 'Basic abc', 'Bearer not.a.jwt', `Bearer ${h}.${forgedPayload}.${s}`, `Bearer ${foreign}`, `Bearer ${none}`]) {
      const headers: Record<string, string> = { 'x-partner-id': partner.partnerId }
      if (authorization) headers.authorization = authorization
      const res = await get('/probe/customer-of-partner', headers)
      assert.equal(res.statusCode, 401, String(authorization))
    }
  })

  test('when the access token has expired, then 401', async () => {
    const customer = await givenCustomer(t.app, partner)
    clock.advance(16 * 60 * 1000)
    try {
      const res = await get('/probe/customer-of-partner', customerHeaders(customer))
      assert.equal(res.statusCode, 401)
      assert.equal(res.json().message, 'Invalid or expired access token')
    } finally {
      clock.advance(-16 * 60 * 1000)
    }
  })

  test('when the session was logged out, then its access token stops working at once', async () => {
    const customer = await givenCustomer(t.app, partner)
    await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', payload: { refreshToken: customer.refreshToken } })
    const res = await get('/probe/customer-of-partner', customerHeaders(customer))
    assert.equal(res.statusCode, 401)
  })

  test("when the partner is deactivated, then its customers' tokens and refreshes stop working", async () => {
    const own = await givenPartner(t.deps, 'Soon inactive')
    const customer = await givenCustomer(t.app, own)
    assert.equal((await get('/probe/customer-of-partner', customerHeaders(customer))).statusCode, 200)
    const { partners } = await import('../../src/modules/partners/schema.sql.ts')
    const { eq } = await import('drizzle-orm')
    await t.deps.database.db.update(partners).set({ isActive: false }).where(eq(partners.id, own.partnerId))
    assert.equal((await get('/probe/customer-of-partner', customerHeaders(customer))).statusCode, 401)
    const refresh = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: customer.refreshToken } })
    assert.equal(refresh.statusCode, 401)
  })

  test('when an admin token is used as a customer token, then 401', async () => {
    const admin = await createAdmin(t.deps.database.db, { email: 'ops@example.com', password: 'correct horse', role: 'ADMIN' })
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/admin/auth/login', payload: { email: admin.email, password: 'correct horse' } })
    const res = await get('/probe/customer', { authorization: `Bearer ${login.json().data.accessToken}` })
    assert.equal(res.statusCode, 401)
  })
})

describe('admin bearer token and roles', () => {
  const adminToken = (email: string, role: 'ADMIN' | 'SUPPORT' | 'CATALOG') => givenAdminToken(t.app, t.deps, email, role)

  test('when the role is allowed (or ADMIN), then 200; when it is not, then 403', async () => {
    const catalog = await adminToken('catalog@example.com', 'CATALOG')
    const admin = await adminToken('boss@example.com', 'ADMIN')
    const support = await adminToken('support@example.com', 'SUPPORT')
    assert.equal((await get('/probe/admin-catalog', { authorization: `Bearer ${catalog}` })).statusCode, 200)
    assert.equal((await get('/probe/admin-catalog', { authorization: `Bearer ${admin}` })).statusCode, 200)
    const denied = await get('/probe/admin-catalog', { authorization: `Bearer ${support}` })
    assert.equal(denied.statusCode, 403)
    assert.equal(denied.json().statusCode, 403)
  })

  test('when a customer token is sent to an admin route, then 401', async () => {
    const customer = await givenCustomer(t.app, partner)
    const res = await get('/probe/admin-catalog', { authorization: `Bearer ${customer.accessToken}` })
    assert.equal(res.statusCode, 401)
  })

  test('when a token claims a role its admin does not have, then the stored role wins', async () => {
    const support = await adminToken('support2@example.com', 'SUPPORT')
    const claims = JSON.parse(Buffer.from(support.split('.')[1]!, 'base64url').toString())
    const forged = await new SignJWT({ ...claims, role: 'ADMIN' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(TEST_AUTH_SECRET))
    assert.equal((await get('/probe/admin-catalog', { authorization: `Bearer ${forged}` })).statusCode, 403)
  })
})
