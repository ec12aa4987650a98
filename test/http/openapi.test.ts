// The OpenAPI document (/api/v1/openapi.json) is good enough to generate a client from (issue #27,
// decisions 0023 and 0026): valid OpenAPI 3.1, every route Fastify serves is in it under a stable
// operationId with a tag, examples its schemas accept and every error status of its guard with the
// error body; public routes say they take no credential, no path has a wildcard, the server is
// PUBLIC_BASE_URL, the partner events are its webhooks, and Redocly's recommended rules find no
// error in it.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { promisify } from 'node:util'
import { Validator } from '@seriousme/openapi-schema-validator'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { ERROR_BODY_COMPONENT, WILDCARD_PARAM } from '../../src/http/openapi.ts'
import { EVENT_TYPES } from '../../src/modules/events/index.ts'
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER } from '../../src/modules/events/signing.ts'
import { undeclaredAnswers } from '../helpers/answer-conformance.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type RegisteredRoute, withRouteTable } from '../helpers/route-table.ts'

const PREFIX = '/api/v1'
const PUBLIC_BASE_URL = 'https://api.shop.test'
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

interface MediaType {
  schema?: Record<string, unknown>
  example?: unknown
}
interface Operation {
  operationId?: string
  tags?: string[]
  security?: Record<string, string[]>[]
  parameters?: { name: string; in: string; required?: boolean }[]
  requestBody?: { content?: Record<string, MediaType> }
  responses?: Record<string, { description?: string; content?: Record<string, MediaType>; headers?: Record<string, { $ref?: string }> }>
}
interface Document {
  openapi: string
  servers?: { url: string }[]
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>
  webhooks?: Record<string, { post?: Operation }>
  components: { schemas: Record<string, unknown>; headers?: Record<string, unknown> }
}
interface Documented extends Operation {
  method: string
  path: string
}

/**
 * The operations that take no credential, each with `security: []`: probes, the refresh-token
 * routes (the token in the body is the credential), the back-office login, provider callbacks
 * and carrier tracking callbacks (signed, or a shared token), the sandbox checkout and tracking
 * pages (the session id or AWB is the capability) and the uploads addresses (a
 * signature, or the tagged object name). Why each is public, and a request proving it answers
 * without credentials: test/auth/credentials-on-every-route.test.ts.
 */
const PUBLIC = [
  'getLiveness',
  'getReadiness',
  'getHealth',
  'refreshCustomerToken',
  'logoutCustomer',
  'adminLogin',
  'receivePaymentWebhook',
  'receivePayoutWebhook',
  'getSandboxCheckoutPage',
  'submitSandboxCheckoutAction',
  'receiveCarrierWebhook',
  'getSandboxTrackingPage',
  'submitSandboxTrackingEvent',
  'uploadFile',
  'getUploadedFile',
].sort()

let t: TestApp
let routes: RegisteredRoute[]
let doc: Document
let operations: Documented[]
before(async () => {
  ;({ built: t, routes } = await withRouteTable(() => createTestApp({ env: { PUBLIC_BASE_URL } })))
  const res = await t.app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` })
  assert.equal(res.statusCode, 200)
  doc = res.json() as Document
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] ? [{ ...item[method], method: method.toUpperCase(), path }] : [])),
  )
})
after(() => t?.close())

const label = (op: { method: string; path: string }) => `${op.method} ${op.path}`
/** A Fastify URL as the document writes it: `:id` is `{id}`, a trailing wildcard `{path}`. */
const documentForm = (url: string) => url.replace(/\*$/, `{${WILDCARD_PARAM}}`).replace(/:(\w+)/g, '{$1}')

test('the document is valid OpenAPI 3.1 (the OpenAPI Initiative schema, through @seriousme/openapi-schema-validator)', async () => {
  assert.equal(doc.openapi, '3.1.0')
  const result = await new Validator().validate(structuredClone(doc) as never)
  assert.deepEqual(result.errors ?? [], [])
  assert.equal(result.valid, true)
})

test('the server is PUBLIC_BASE_URL, and only it', () => {
  assert.deepEqual(doc.servers, [{ url: PUBLIC_BASE_URL }])
})

test('every route Fastify serves is in the document with an operationId, except the ones hidden on purpose', () => {
  // HEAD routes are Fastify's automatic twins of GET routes, documented by their GET.
  const gets = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.url))
  const served = routes.filter((r) => !r.hidden && !(r.method === 'HEAD' && gets.has(r.url)))
  assert.ok(served.length > 100, `only ${served.length} routes seen: is the onRoute hook still attached?`)
  const documented = new Map(operations.map((op) => [label(op), op]))
  const missing = served.map((r) => `${r.method} ${documentForm(r.url)}`).filter((key) => !documented.has(key))
  assert.deepEqual(missing, [], 'routes Fastify serves that the document does not list (or hide them with schema.hide, on purpose)')
  const phantom = [...documented.keys()].filter((key) => !served.some((r) => `${r.method} ${documentForm(r.url)}` === key))
  assert.deepEqual(phantom, [], 'operations Fastify does not serve')
  assert.deepEqual(operations.filter((op) => !op.operationId).map(label), [], 'operations without an operationId')
  // Only the reference itself, what points at it and the console's static files (GET /admin,
  // /admin/*: decision 0028) are hidden: nothing of the API.
  const hidden = routes.filter((r) => r.hidden && r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`)
  const console_ = (r: string) => r === 'GET /admin' || r.startsWith('GET /admin/')
  assert.deepEqual(hidden.filter((r) => !r.startsWith('GET /docs') && r !== 'GET /' && r !== `GET ${PREFIX}/openapi.json` && !console_(r)), [], 'API routes hidden from the document')
})

describe('operationIds', () => {
  test('are camelCase, start with a lower-case letter, and are unique', () => {
    const ids = operations.map((op) => op.operationId ?? '')
    assert.deepEqual(ids.filter((id) => !/^[a-z][A-Za-z0-9]+$/.test(id)), [])
    assert.deepEqual(ids.filter((id, i) => ids.indexOf(id) !== i), [], 'operationIds used twice')
  })

  test('back-office operations start with admin, the partner server API with partner, and no others do', () => {
    const area = (path: string) => (path.startsWith(`${PREFIX}/admin/`) ? 'admin' : path.startsWith(`${PREFIX}/partner/`) ? 'partner' : null)
    const wrong = operations.filter((op) => {
      const prefix = area(op.path)
      const id = op.operationId ?? ''
      return prefix ? !new RegExp(`^${prefix}[A-Z]`).test(id) : /^(admin|partner)[A-Z]/.test(id)
    })
    assert.deepEqual(wrong.map((op) => `${label(op)}: ${op.operationId}`), [])
  })

  test('the names an SDK is built on stay what they are', () => {
    const byId = new Map(operations.map((op) => [op.operationId, label(op)]))
    const expected: Record<string, string> = {
      listProducts: 'GET /api/v1/products',
      getProduct: 'GET /api/v1/products/{slug}',
      searchProducts: 'GET /api/v1/search',
      createCustomerToken: 'POST /api/v1/auth/customer-token',
      refreshCustomerToken: 'POST /api/v1/auth/refresh',
      quoteCart: 'POST /api/v1/wallet/quote',
      createOrder: 'POST /api/v1/orders',
      getOrder: 'GET /api/v1/orders/{orderId}',
      cancelOrder: 'POST /api/v1/orders/{orderId}/cancel',
      cancelOrderItems: 'POST /api/v1/orders/{orderId}/cancel-items',
      adminCancelOrderItems: 'POST /api/v1/admin/orders/{orderId}/cancel-items',
      initiatePayment: 'POST /api/v1/orders/{orderId}/payments',
      abandonPayment: 'POST /api/v1/orders/{orderId}/payments/{paymentId}/abandon',
      getOrderInvoice: 'GET /api/v1/orders/{orderId}/invoice',
      adminListOrders: 'GET /api/v1/admin/orders',
      adminGetOrder: 'GET /api/v1/admin/orders/{orderId}',
      adminGetOrderInvoice: 'GET /api/v1/admin/orders/{orderId}/invoice',
      partnerListOrders: 'GET /api/v1/partner/orders',
    }
    assert.deepEqual(Object.fromEntries(Object.keys(expected).map((id) => [id, byId.get(id)])), expected)
  })
})

test('every operation declares its security; the public ones, and only they, declare security: []', () => {
  assert.deepEqual(operations.filter((op) => !Array.isArray(op.security)).map(label), [], 'operations with no security declared')
  const open = operations.filter((op) => op.security!.length === 0).map((op) => op.operationId ?? label(op)).sort()
  assert.deepEqual(open, PUBLIC)
})

test('no path has a wildcard, and every path template names a declared path parameter', () => {
  assert.deepEqual(Object.keys(doc.paths).filter((path) => path.includes('*')), [])
  const mismatched = operations.filter((op) => {
    const inTemplate = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort()
    const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name).sort()
    return JSON.stringify(inTemplate) !== JSON.stringify(declared)
  })
  assert.deepEqual(mismatched.map(label), [])
  const uploads = doc.paths[`${PREFIX}/uploads/{${WILDCARD_PARAM}}`]
  assert.ok(uploads?.get && uploads.put, 'the uploads addresses are documented under {path}')
})

test('the wildcard is only renamed in the document: an upload address with slashes still reaches the route', async () => {
  // A name no upload was issued for: the uploads route answers its own 404, not the router's.
  const res = await t.app.inject({ method: 'GET', url: `${PREFIX}/uploads/support/no-such/photo.png` })
  assert.equal(res.statusCode, 404)
  assert.notEqual(res.json().message, `Route GET:${PREFIX}/uploads/support/no-such/photo.png not found`)
})

test("Redocly's recommended rules find no error in the document (redocly.yaml, offline)", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'))
  try {
    const file = join(dir, 'openapi.json')
    writeFileSync(file, JSON.stringify(doc))
    const started = Date.now()
    const cli = new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url).pathname
    const config = new URL('../../redocly.yaml', import.meta.url).pathname
    // Exits 1 when it finds errors: the report on stdout says which.
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--format=json', '--max-problems=1000', `--config=${config}`], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      if (!error.stdout) throw error
      return { stdout: error.stdout }
    })
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] }
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)
    assert.deepEqual(errors, [], 'Redocly errors')
    assert.equal(report.totals.errors, 0)
    const warnings = new Map<string, number>()
    for (const p of report.problems.filter((p) => p.severity === 'warn')) warnings.set(p.ruleId, (warnings.get(p.ruleId) ?? 0) + 1)
    t.diagnostic(`redocly lint in ${Date.now() - started} ms: 0 errors, ${report.totals.warnings} warnings (${[...warnings].map(([rule, n]) => `${rule} ×${n}`).join(', ') || 'none'})`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

/** Every operation and webhook with each JSON body it documents: the request's, and every status's answer. */
function mediaOf(op: Operation): [string, MediaType][] {
  const request = op.requestBody?.content?.['application/json']
  const answers = Object.entries(op.responses ?? {}).flatMap(([status, r]) => (r.content?.['application/json'] ? [[status, r.content['application/json']] as [string, MediaType]] : []))
  return [...(request ? [['request', request] as [string, MediaType]] : []), ...answers]
}

test('every operation has a tag, and an example of its JSON request and of each JSON answer that its own schema accepts', () => {
  assert.deepEqual(operations.filter((op) => !op.tags?.length).map(label), [], 'operations without a tag')
  const ajv = new Ajv2020.default({ strict: false, allErrors: true })
  addFormats.default(ajv)
  ajv.addSchema({ components: doc.components }, 'document')
  const webhooks = Object.entries(doc.webhooks ?? {}).map(([type, item]) => ({ ...item.post!, method: 'WEBHOOK', path: type }))
  const problems: string[] = []
  let checked = 0
  for (const op of [...operations, ...webhooks]) {
    for (const [status, media] of mediaOf(op)) {
      if (media.example === undefined) {
        problems.push(`${label(op)} ${status}: no example`)
        continue
      }
      const schema = JSON.parse(JSON.stringify(media.schema).replaceAll('"#/components/', '"document#/components/'))
      checked++
      if (!ajv.validate(schema, media.example)) problems.push(`${label(op)} ${status}: ${ajv.errorsText(ajv.errors)}`)
    }
  }
  assert.deepEqual(problems, [])
  assert.ok(checked > 2 * operations.length, `only ${checked} examples checked`)
  // The envelope's status is the answer's: an example of a 201 says 201.
  const created = doc.paths[`${PREFIX}/orders`]!.post!.responses!['201']!.content!['application/json']!.example as { statusCode: number }
  assert.equal(created.statusCode, 201)
})

describe('error answers', () => {
  test('every 4xx and 5xx answer of every operation is the error body of the spec, with an example of it', () => {
    const errorBody = doc.components.schemas[ERROR_BODY_COMPONENT] as { required: string[] }
    assert.deepEqual([...errorBody.required].sort(), ['error', 'message', 'path', 'statusCode', 'timestamp'])
    // The health probes' 503 is their report of what is down, not an error (src/modules/health).
    const HEALTH_REPORT = new Set(['getReadiness 503', 'getHealth 503'])
    const wrong = operations.flatMap((op) =>
      Object.entries(op.responses ?? {})
        .filter(([status]) => Number(status) >= 400 && !HEALTH_REPORT.has(`${op.operationId} ${status}`))
        .filter(([status, r]) => {
          const media = r.content?.['application/json']
          return media?.schema?.$ref !== `#/components/schemas/${ERROR_BODY_COMPONENT}` || (media.example as { statusCode?: number })?.statusCode !== Number(status)
        })
        .map(([status]) => `${label(op)} ${status}`),
    )
    assert.deepEqual(wrong, [])
  })

  test('every operation lists the errors its guard, its inputs, the rate limiter and the database can answer', () => {
    const missing: string[] = []
    for (const op of operations) {
      const statuses = new Set(Object.keys(op.responses ?? {}).map(Number))
      const schemes = new Set((op.security ?? []).flatMap((r) => Object.keys(r)))
      const expected = [500, 503]
      if (schemes.size > 0) expected.push(401)
      // A back-office role that may not, or a customer the merchant blocked.
      if (schemes.has('bearer')) expected.push(403)
      if (schemes.has('partnerId')) expected.push(400)
      if ((op.parameters ?? []).some((p) => p.in === 'path')) expected.push(400, 404)
      if (op.requestBody) expected.push(400, 413, 415)
      // A body sent to any POST, PUT, PATCH or DELETE is read (and can be too large or not JSON) before the route's own rules.
      if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method.toUpperCase())) expected.push(413, 415)
      // The load balancer's probes are the only routes the rate limiter skips.
      if (!['getLiveness', 'getReadiness'].includes(op.operationId ?? '')) expected.push(429)
      for (const status of new Set(expected)) if (!statuses.has(status)) missing.push(`${label(op)} ${status}`)
    }
    assert.deepEqual(missing, [])
  })

  test('a status the document lists for a guard is what the route answers: a customer route without a token is 401 with the error body', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${PREFIX}/orders`, headers: { 'x-partner-id': 'prt_unknown' }, payload: {} })
    assert.equal(res.statusCode, 401)
    const documented = doc.paths[`${PREFIX}/orders`]!.post!.responses!['401']!.content!['application/json']!.example as Record<string, unknown>
    assert.deepEqual(Object.keys(res.json()).sort(), Object.keys(documented).sort())
    assert.equal(res.json().message, documented.message)
  })

  test('the 400 example of a route with a body is the message a field the schema does not know gets', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${PREFIX}/admin/auth/login`, payload: { email: 'ops@shop.test', password: 'long-enough-password', unknownField: 1 } })
    assert.equal(res.statusCode, 400)
    const documented = doc.paths[`${PREFIX}/admin/auth/login`]!.post!.responses!['400']!.content!['application/json']!.example as { message: string[] }
    assert.deepEqual(res.json().message, documented.message)
  })
})

describe('what the document declares beyond JSON bodies (issue #42)', () => {
  const byId = (id: string) => operations.find((op) => op.operationId === id)!
  const contentTypes = (op: Documented, status: string) => Object.keys(op.responses?.[status]?.content ?? {})

  test('x-idempotency-key is a required header of exactly the keyed operations, whose successes may say idempotent-replayed', () => {
    const keyed = operations.filter((op) => (op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'x-idempotency-key'))
    assert.deepEqual(keyed.map((op) => op.operationId).sort(), ['convertOrderToPrepaid', 'createOrder', 'initiatePayment', 'partnerConvertOrderToPrepaid'])
    for (const op of keyed) {
      assert.equal(op.parameters!.find((p) => p.name === 'x-idempotency-key')!.required, true, label(op))
      const success = Object.keys(op.responses ?? {}).find((status) => status.startsWith('2'))!
      assert.deepEqual(op.responses![success]!.headers!['idempotent-replayed'], { $ref: '#/components/headers/IdempotentReplayed' }, label(op))
    }
  })

  test('the catalog reads that answer 304 declare it, the ETag on their 200 and If-None-Match; no other operation does', () => {
    const conditional = operations.filter((op) => '304' in (op.responses ?? {}))
    assert.deepEqual(conditional.map((op) => op.operationId).sort(), ['getProduct', 'listCategories', 'listProducts', 'searchProducts'])
    for (const op of conditional) {
      assert.ok(op.responses!['200']!.headers!.etag, label(op))
      assert.deepEqual(contentTypes(op, '304'), [], `${label(op)}: 304 has no body`)
      assert.ok((op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'if-none-match'), label(op))
    }
  })

  test('every 429 and 503 declares Retry-After, and every answer of a rate-limited operation the rate-limit headers', () => {
    for (const name of ['RetryAfter', 'RateLimitLimit', 'RateLimitRemaining', 'RateLimitReset']) assert.ok(doc.components.headers?.[name], name)
    for (const op of operations) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (status === '429' || status === '503') assert.ok(response.headers?.['retry-after'], `${label(op)} ${status}`)
        if ('429' in op.responses!) assert.ok(response.headers?.['x-ratelimit-remaining'], `${label(op)} ${status}`)
      }
    }
  })

  test('bodies that are not JSON have their content types: an upload is image bytes, a catalog import JSON or CSV', () => {
    assert.deepEqual(Object.keys(byId('uploadFile').requestBody!.content!), ['image/png', 'image/jpeg', 'image/webp', 'image/gif'])
    assert.deepEqual(byId('uploadFile').requestBody!.content!['image/png']!.schema, { type: 'string', format: 'binary', description: 'The file bytes, with the Content-Type and length that were signed' })
    assert.deepEqual(Object.keys(byId('adminImportCatalog').requestBody!.content!), ['application/json', 'text/csv'])
    assert.match(String(byId('uploadFile').responses!['415']!.content!['application/json']!.example && (byId('uploadFile').responses!['415']!.content!['application/json']!.example as { message: string }).message), /send image\/png, image\/jpeg/)
  })

  test('pages and files declare their content types; their errors, and those of PDF and CSV downloads, are JSON', () => {
    assert.deepEqual(contentTypes(byId('getSandboxCheckoutPage'), '200'), ['text/html'])
    assert.deepEqual(contentTypes(byId('getUploadedFile'), '200'), ['image/png', 'image/jpeg', 'image/webp', 'image/gif'])
    assert.deepEqual(contentTypes(byId('getOrderInvoice'), '200'), ['application/json', 'application/pdf'])
    assert.deepEqual(byId('getOrderInvoice').responses!['200']!.content!['application/pdf']!.schema, { type: 'string', format: 'binary' })
    for (const op of operations) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (/^[45]/.test(status)) assert.deepEqual(Object.keys(response.content ?? {}), ['application/json'], `${label(op)} ${status}`)
      }
    }
  })

  test('the check every test file runs: an answer whose status, content type or API header the document does not declare, or an operation it does not list, is reported', () => {
    const seen = new Set([
      'GET /api/v1/categories|200|application/json|etag,x-ratelimit-limit',
      'GET /api/v1/categories|304||etag',
      'GET /api/v1/categories|418|application/json|',
      'GET /api/v1/categories|200|text/html|',
      'GET /api/v1/orders|200|application/json|etag',
      'GET /api/v1/not-an-operation|500|text/plain|',
    ])
    assert.deepEqual(undeclaredAnswers(t.app, { seen }), [
      'OpenAPI document: GET /api/v1/categories answered 418, which it does not declare',
      'OpenAPI document: GET /api/v1/categories answered 200 as text/html; it declares application/json',
      'OpenAPI document: GET /api/v1/orders answered 200 with the header etag, which it does not declare',
      'OpenAPI document: GET /api/v1/not-an-operation answered 500, and the document does not list the operation',
    ])
  })

  test('a customer operation declares 403 with the message a blocked customer gets', () => {
    for (const id of ['getProfile', 'createCustomerToken', 'refreshCustomerToken']) {
      const refused = byId(id).responses!['403']!
      assert.equal((refused.content!['application/json']!.example as { message: string }).message, 'This customer is blocked: contact the merchant', id)
      assert.equal(refused.description, 'The merchant blocked this customer', id)
    }
    assert.equal((byId('adminListOrders').responses!['403']!.content!['application/json']!.example as { message: string }).message, 'Your role does not allow this action')
  })
})

describe('webhooks', () => {
  test('every partner event type, and the ping, is a webhook with its body schema', () => {
    assert.deepEqual(Object.keys(doc.webhooks ?? {}).sort(), [...EVENT_TYPES, 'ping'].sort())
    for (const [type, item] of Object.entries(doc.webhooks!)) {
      const schema = item.post!.requestBody!.content!['application/json']!.schema as { required: string[]; properties: { type: { const: string }; data: { type: string } } }
      assert.deepEqual([...schema.required].sort(), ['createdAt', 'data', 'id', 'type'], type)
      assert.equal(schema.properties.type.const, type)
      assert.equal(schema.properties.data.type, 'object', type)
    }
  })

  test('every webhook names the signature, event id and event type headers, the signature required', () => {
    for (const [type, item] of Object.entries(doc.webhooks!)) {
      const headers = new Map((item.post!.parameters ?? []).filter((p) => p.in === 'header').map((p) => [p.name, p]))
      assert.equal(headers.get(SIGNATURE_HEADER)?.required, true, type)
      assert.ok(headers.has(EVENT_ID_HEADER) && headers.has(EVENT_TYPE_HEADER), type)
      assert.ok(item.post!.operationId && /^on[A-Z]/.test(item.post!.operationId), type)
    }
  })
})
