import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenPartner, type PartnerFixture } from '../helpers/factories.ts'

let t: TestApp
let partner: PartnerFixture
before(async () => {
  t = await createTestApp()
  partner = await givenPartner(t.deps)
})
after(() => t.close())

const tokenRequest = (payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/customer-token',
    headers: { 'x-partner-id': partner.partnerId, 'x-partner-secret': partner.secret, ...headers },
    payload: payload as object,
  })

function assertErrorBody(body: Record<string, unknown>, status: number, path: string) {
  assert.equal(body.statusCode, status)
  assert.equal(typeof body.error, 'string')
  assert.ok(typeof body.timestamp === 'string' && !Number.isNaN(Date.parse(body.timestamp as string)))
  assert.equal(body.path, path)
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'path', 'statusCode', 'timestamp'])
}

describe('success envelope', () => {
  test('when a request succeeds, then the body is {statusCode, message, data} and the request id is echoed', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health/live', headers: { 'x-request-id': 'abc-123' } })
    assert.equal(res.statusCode, 200)
    const body = res.json()
    assert.deepEqual(Object.keys(body).sort(), ['data', 'message', 'statusCode'])
    assert.equal(body.statusCode, 200)
    assert.equal(typeof body.message, 'string')
    assert.ok(body.message.length > 0)
    assert.equal(res.headers['x-request-id'], 'abc-123')
  })

  test('when no request id is sent, then one is generated', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health/live' })
    assert.match(String(res.headers['x-request-id']), /^req_[0-9a-f]{8}-[0-9a-z]+$/)
  })
})

describe('errors raised before routing', () => {
  test('a malformed percent-encoding and an over-long path segment answer in the error body', async () => {
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/products/%zz' })
    assert.equal(bad.statusCode, 400)
    assert.equal(bad.json().message, 'The URL is not valid: check its percent-encoding')
    assert.equal(bad.json().path, '/api/v1/products/%zz')
    assert.ok(bad.json().timestamp)
    const long = await t.app.inject({ method: 'GET', url: `/api/v1/products/${'x'.repeat(300)}` })
    assert.equal(long.statusCode, 414)
    assert.deepEqual(Object.keys(long.json()).sort(), ['error', 'message', 'path', 'statusCode', 'timestamp'])
    assert.equal(long.json().message, 'A path segment of the URL is too long')
  })
})

describe('validation errors', () => {
  test('a body with thousands of unknown fields answers fast with the first 20 messages', async () => {
    const body = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]))
    const started = Date.now()
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: body })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().message.length, 20)
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`)
  })

  test('when a body has an unknown field and broken rules, then 400 lists one class-validator message per rule', async () => {
    const res = await tokenRequest({ phone: '12345', email: 'not-an-email', foo: 1, name: 7 })
    assert.equal(res.statusCode, 400)
    const body = res.json()
    assertErrorBody(body, 400, '/api/v1/auth/customer-token')
    assert.equal(body.error, 'Bad Request')
    assert.ok(Array.isArray(body.message))
    assert.deepEqual([...body.message].sort(), [
      'email must be an email',
      'name must be a string',
      'phone must be a valid Indian mobile number',
      'property foo should not exist',
    ])
  })

  test('when a required field is missing, then it is named', async () => {
    const res = await tokenRequest({})
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json().message, ['phone should not be empty'])
  })

  test('when a string is longer than its bound, then 400 with the maxLength wording', async () => {
    const res = await tokenRequest({ phone: '9876543210', name: 'x'.repeat(101) })
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json().message, ['name must be shorter than or equal to 100 characters'])
  })

  test('when a number is sent where a string is expected, then it is not coerced', async () => {
    const res = await tokenRequest({ phone: 9876543210 })
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json().message, ['phone must be a string'])
  })

  test('when the body is an array instead of an object, then 400', async () => {
    const res = await tokenRequest([{ phone: '9876543210' }])
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json().message, ['body must be an object'])
  })

  test('when a string holds a NUL character, then 400, never a 500', async () => {
    const res = await tokenRequest({ phone: '9876543210', name: 'a\u0000b' })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().message, 'Text must not contain NUL characters')
  })

  test('when nothing is valid, then nothing is written', async () => {
    await tokenRequest({ phone: '98765', foo: true })
    const users = await t.deps.database.db.query.users.findMany()
    assert.equal(users.length, 0)
  })
})

describe('transport errors', () => {
  test('when the route does not exist, then 404 in the error body', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/does-not-exist?x=1' })
    assert.equal(res.statusCode, 404)
    assertErrorBody(res.json(), 404, '/api/v1/does-not-exist')
  })

  test('when the JSON is malformed, then 400 in the error body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      headers: { 'content-type': 'application/json' },
      payload: '{"refreshToken": ',
    })
    assert.equal(res.statusCode, 400)
    assertErrorBody(res.json(), 400, '/api/v1/auth/refresh')
    assert.equal(res.json().message, 'Request body is not valid JSON')
  })

  test('when the content type is not JSON, then 415 in the error body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      headers: { 'content-type': 'text/plain' },
      payload: 'refreshToken=abc',
    })
    assert.equal(res.statusCode, 415)
    assertErrorBody(res.json(), 415, '/api/v1/auth/refresh')
  })

  test('when the body is larger than the limit, then 413 in the error body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ refreshToken: 'x'.repeat(2 * 1024 * 1024) }),
    })
    assert.equal(res.statusCode, 413)
    assertErrorBody(res.json(), 413, '/api/v1/auth/refresh')
  })

  test('when a huge string fits the body limit but not the field, then 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: 'x'.repeat(100_000) } })
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json().message, ['refreshToken must be shorter than or equal to 200 characters'])
  })
})

describe('OpenAPI and reference', () => {
  test('the OpenAPI 3 document is served and lists the routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })
    assert.equal(res.statusCode, 200)
    const doc = res.json()
    assert.match(doc.openapi, /^3\./)
    assert.ok(doc.paths['/api/v1/auth/customer-token'])
    assert.ok(doc.paths['/api/v1/health/ready'])
  })

  test('the interactive reference is served without internet access', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' })
    assert.equal(page.statusCode, 200)
    assert.match(page.body, /swagger/i)
    const script = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' })
    assert.equal(script.statusCode, 200)
  })
})
