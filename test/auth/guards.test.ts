// The guards themselves, through probe routes that use the real guards (the same hooks the product
// routes declare): the identity each one attaches, the optional x-partner-id, forged tokens of every
// shape, the role a token claims. That every route of the OpenAPI document refuses missing, wrong,
// expired, revoked and other kinds of credentials is the shared suite's job:
// test/auth/credentials-on-every-route.test.ts.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { SignJWT } from 'jose'
import { customerOf } from '../../src/http/guards.ts'
import { createTestApp, TEST_AUTH_SECRET, type TestApp } from '../helpers/app.ts'
import { customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'

let t: TestApp
let partner: PartnerFixture

before(async () => {
  t = await createTestApp({
    extraRoutes: (app) => {
      app.get('/probe/api-key', { preValidation: app.guards.apiKey }, async (request) => request.apiKeyIdentity)
      app.get('/probe/customer', { preValidation: app.guards.customer }, async (request) => customerOf(request))
      app.get('/probe/customer-of-partner', { preValidation: app.guards.customerOfPartner }, async (request) => customerOf(request))
      app.get('/probe/admin-catalog', { preValidation: app.guards.admin('CATALOG') }, async (request) => request.adminIdentity)
    },
  })
  partner = await givenPartner(t.deps, 'Partner A')
})
after(() => t.close())

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers })

describe('x-api-key', () => {
  test('when the key is valid, then the request sees its partner and catalog', async () => {
    const res = await get('/probe/api-key', { 'x-api-key': partner.apiKey })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { keyId: partner.apiKeyId, partnerId: partner.partnerId, catalogId: partner.catalogId })
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

  test("when the partner is deactivated, then its customers' tokens (remembered live a moment ago) and refreshes stop working at once", async () => {
    const own = await givenPartner(t.deps, 'Soon inactive')
    const customer = await givenCustomer(t.app, own)
    assert.equal((await get('/probe/customer-of-partner', customerHeaders(customer))).statusCode, 200)
    const admin = await givenAdminToken(t.app, t.deps, 'deactivates@example.com', 'ADMIN')
    const deactivated = await t.app.inject({ method: 'POST', url: `/api/v1/admin/partners/${own.partnerId}/deactivate`, headers: { authorization: `Bearer ${admin}` } })
    assert.equal(deactivated.statusCode, 200, deactivated.body)
    assert.equal((await get('/probe/customer-of-partner', customerHeaders(customer))).statusCode, 401)
    const refresh = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: customer.refreshToken } })
    assert.equal(refresh.statusCode, 401)
  })

  test('a session changed in the database behind the service (another tool) is taken as live for at most SESSION_CACHE_MS', async () => {
    const customer = await givenCustomer(t.app, partner)
    assert.equal((await get('/probe/customer-of-partner', customerHeaders(customer))).statusCode, 200)
    const { authSessions } = await import('../../src/modules/auth/schema.sql.ts')
    const { SESSION_CACHE_MS } = await import('../../src/modules/auth/service.ts')
    const { eq } = await import('drizzle-orm')
    await t.deps.database.db.update(authSessions).set({ revokedAt: new Date() }).where(eq(authSessions.userId, customer.userId))
    assert.equal((await get('/probe/customer-of-partner', customerHeaders(customer))).statusCode, 200, 'remembered live')
    await new Promise((resolve) => setTimeout(resolve, SESSION_CACHE_MS + 50))
    assert.equal((await get('/probe/customer-of-partner', customerHeaders(customer))).statusCode, 401, 'read again once the moment is over')
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

  test('when a token claims a role its admin does not have, then the stored role wins', async () => {
    const support = await adminToken('support2@example.com', 'SUPPORT')
    const claims = JSON.parse(Buffer.from(support.split('.')[1]!, 'base64url').toString())
    const forged = await new SignJWT({ ...claims, role: 'ADMIN' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(TEST_AUTH_SECRET))
    assert.equal((await get('/probe/admin-catalog', { authorization: `Bearer ${forged}` })).statusCode, 403)
  })
})
