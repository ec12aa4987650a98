// The OpenAPI document (/api/v1/openapi.json) is good enough to generate a client from (issue #27,
// decision 0023): every route Fastify serves is in it under a stable operationId, public routes say
// they take no credential, no path has a wildcard, the server is PUBLIC_BASE_URL, and Redocly's
// recommended rules find no error in it.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { promisify } from 'node:util'
import { WILDCARD_PARAM } from '../../src/http/openapi.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type RegisteredRoute, withRouteTable } from '../helpers/route-table.ts'

const PREFIX = '/api/v1'
const PUBLIC_BASE_URL = 'https://api.shop.test'
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

interface Operation {
  operationId?: string
  security?: Record<string, string[]>[]
  parameters?: { name: string; in: string }[]
}
interface Document {
  openapi: string
  servers?: { url: string }[]
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>
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
  // /admin/*: decision 0027) are hidden: nothing of the API.
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
