// SE-08 (reliability plan 5.1 API8, 7.6): the header checklist on a sample of routes (public,
// partner key, customer, admin, an error answer, an unknown route), CORS with a list of origins
// against an evil Origin, and TRACE / unknown methods answered in the error body without a stack.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'

const ALLOWED = 'https://shop.example'
let t: TestApp
let partner: PartnerFixture
before(async () => {
  t = await createTestApp({ env: { CORS_ORIGINS: `${ALLOWED},https://admin.shop.example` } })
  partner = await givenPartner(t.deps, 'Headers partner')
})
after(() => t.close())

function assertBaseHeaders(res: LightMyRequestResponse, label: string) {
  assert.equal(res.headers['x-content-type-options'], 'nosniff', label)
  assert.match(String(res.headers['strict-transport-security']), /^max-age=\d{7,}; includeSubDomains/, label)
  assert.equal(res.headers['x-powered-by'], undefined, label)
}

function assertErrorBody(res: LightMyRequestResponse, status: number, label: string) {
  assert.equal(res.statusCode, status, `${label}: ${res.body}`)
  assert.match(String(res.headers['content-type']), /^application\/json/, label)
  const body = res.json()
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'path', 'statusCode', 'timestamp'], label)
  assert.equal(body.statusCode, status, label)
  assert.doesNotMatch(res.body, /"stack"|\bat [\w.<>]+ \(|node:internal|\/src\//, `${label}: no stack trace`)
}

describe('header checklist', () => {
  test('public, partner-key, customer, admin, error and unknown-route answers: nosniff, HSTS, no X-Powered-By', async () => {
    const customer = await givenCustomer(t.app, partner)
    const admin = await givenAdminToken(t.app, t.deps, 'headers-admin@example.com', 'ADMIN')
    const samples: [string, LightMyRequestResponse, number][] = [
      ['health', await t.app.inject({ method: 'GET', url: '/api/v1/health/live' }), 200],
      ['catalog', await t.app.inject({ method: 'GET', url: '/api/v1/products?limit=2', headers: { 'x-api-key': partner.apiKey } }), 200],
      ['customer', await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: customerHeaders(customer) }), 200],
      ['admin', await t.app.inject({ method: 'GET', url: '/api/v1/admin/orders', headers: { authorization: `Bearer ${admin}` } }), 200],
      ['error', await t.app.inject({ method: 'GET', url: '/api/v1/products', headers: { 'x-api-key': 'wrong-key' } }), 401],
      ['unknown route', await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' }), 404],
    ]
    for (const [label, res, status] of samples) {
      assert.equal(res.statusCode, status, `${label}: ${res.body}`)
      assertBaseHeaders(res, label)
    }
  })

  test('customer and admin answers (successes and errors) carry Cache-Control: no-store', async () => {
    const customer = await givenCustomer(t.app, partner)
    const admin = await givenAdminToken(t.app, t.deps, 'headers-admin-2@example.com', 'ADMIN')
    const answers: [string, LightMyRequestResponse][] = [
      ['customer', await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: customerHeaders(customer) })],
      ['customer 404', await t.app.inject({ method: 'GET', url: '/api/v1/orders/ord_nope', headers: customerHeaders(customer) })],
      ['admin', await t.app.inject({ method: 'GET', url: '/api/v1/admin/orders', headers: { authorization: `Bearer ${admin}` } })],
      ['bad token', await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { ...customerHeaders(customer), authorization: 'Bearer x.y.z' } })],
      [
        'token issue',
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/auth/customer-token',
          headers: { 'x-partner-id': partner.partnerId, 'x-partner-secret': partner.secret },
          payload: { phone: customer.phone, name: 'Test Customer' },
        }),
      ],
    ]
    for (const [label, res] of answers) {
      assert.ok(res.statusCode < 500, `${label}: ${res.statusCode}`)
      assert.equal(res.headers['cache-control'], 'no-store', `${label} (${res.statusCode})`)
      assertBaseHeaders(res, label)
    }
  })
})

describe('CORS with a list of origins', () => {
  test('an evil Origin is not reflected; an allowed one is, and credentials are never combined with *', async () => {
    for (const method of ['GET', 'OPTIONS'] as const) {
      const headers = { origin: 'https://evil.example', 'access-control-request-method': 'GET' }
      const evil = await t.app.inject({ method, url: '/api/v1/products?limit=1', headers: method === 'GET' ? { ...headers, 'x-api-key': partner.apiKey } : headers })
      const allow = evil.headers['access-control-allow-origin']
      assert.ok(allow === undefined || allow === 'false', `${method}: evil origin got Access-Control-Allow-Origin ${allow}`)
      assert.notEqual(allow, '*')
      assert.notEqual(allow, 'https://evil.example')
    }
    for (const origin of ['https://evil.example', ALLOWED, 'null']) {
      const res = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/products', headers: { origin, 'access-control-request-method': 'GET' } })
      if (res.headers['access-control-allow-credentials'] === 'true') assert.notEqual(res.headers['access-control-allow-origin'], '*', origin)
    }
    const good = await t.app.inject({ method: 'GET', url: '/api/v1/health/live', headers: { origin: ALLOWED } })
    assert.equal(good.headers['access-control-allow-origin'], ALLOWED)
    assert.notEqual(good.headers['access-control-allow-credentials'], 'true')
  })
})

describe('methods', () => {
  test('TRACE and an unknown method: 404/405 in the error body, no stack trace, headers set', async () => {
    for (const url of ['/api/v1/health/live', '/api/v1/products', '/api/v1/no-such-thing']) {
      const trace = await t.app.inject({ method: 'TRACE', url, headers: { 'x-api-key': partner.apiKey } })
      assert.ok([404, 405].includes(trace.statusCode), `TRACE ${url}: ${trace.statusCode}`)
      assertErrorBody(trace, trace.statusCode, `TRACE ${url}`)
      assert.doesNotMatch(trace.body, new RegExp(partner.apiKey), 'the request is not echoed back')
      assertBaseHeaders(trace, `TRACE ${url}`)
    }
    const unknown = await t.app.inject({ method: 'PROPFIND' as 'GET', url: '/api/v1/health/live' })
    assert.ok([404, 405].includes(unknown.statusCode), `PROPFIND: ${unknown.statusCode}`)
    assertErrorBody(unknown, unknown.statusCode, 'PROPFIND')
  })
})
