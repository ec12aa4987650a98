// The published contract (openapi/v1.json) is what the routes generate, and the breaking-change
// check (scripts/openapi-compat.ts, decision 0042) finds what would break a client: each rule on a
// document deliberately broken from the real one, and nothing on additive changes.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { breakingChanges, CONTRACT_FILE, contractOf, contractText, type Finding } from '../../scripts/openapi-compat.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp
let document: Json
before(async () => {
  t = await createTestApp()
  document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json()
})
after(() => t?.close())

const copy = (d: Json): Json => structuredClone(d)
const errors = (base: Json, head: Json) => breakingChanges(base, head).filter((f) => f.level === 'error')
const warnings = (base: Json, head: Json) => breakingChanges(base, head).filter((f) => f.level === 'warning')
const say = (findings: Finding[]) => findings.map((f) => `${f.where}: ${f.message}`)

/** The JSON body schema of an operation's 200 or 201 answer (inside the envelope's data). */
const answerData = (d: Json, path: string, method: string, status = '200') => d.paths[path][method].responses[status].content['application/json'].schema.properties.data
const requestBody = (d: Json, path: string, method: string) => d.paths[path][method].requestBody.content['application/json'].schema

test('the checked-in contract is what the current routes generate (else run npm run sdk:generate)', () => {
  const checkedIn = readFileSync(CONTRACT_FILE, 'utf8')
  // Not deepEqual on 1.9 MB: its diff would drown the message.
  assert.ok(checkedIn === contractText(document), 'openapi/v1.json is stale: run npm run sdk:generate and commit it')
})

test('the current document breaks nothing of the checked-in contract, and compares with itself without a finding', () => {
  const contract = JSON.parse(readFileSync(CONTRACT_FILE, 'utf8'))
  assert.deepEqual(say(errors(contract, contractOf(document))), [])
  assert.deepEqual(breakingChanges(document, document), [])
})

describe('a deliberately broken document fails the check', () => {
  test('an operation removed, its operationId renamed, or an open one now authenticated', () => {
    const head = copy(document)
    delete head.paths['/api/v1/products/{slug}'].get
    head.paths['/api/v1/orders'].post.operationId = 'placeOrder'
    head.paths['/api/v1/health/live'].get.security = [{ apiKey: [] }]
    assert.deepEqual(say(errors(document, head)), [
      'GET /api/v1/health/live: the operation now requires authentication',
      'GET /api/v1/products/{slug}: the operation was removed',
      'POST /api/v1/orders: operationId changed from createOrder to placeOrder (a generated client\'s method name)',
    ])
  })

  test('a property removed from an answer, or no longer always sent; a nullable type widened', () => {
    const head = copy(document)
    const product = answerData(head, '/api/v1/products/{slug}', 'get')
    delete product.properties.sellingPrice
    product.required = product.required.filter((n: string) => n !== 'mrp')
    product.properties.name = { anyOf: [product.properties.name, { type: 'null' }] }
    assert.deepEqual(say(errors(document, head)).sort(), [
      'GET /api/v1/products/{slug} 200.data.mrp: the property is no longer always sent',
      'GET /api/v1/products/{slug} 200.data.name: may now be null',
      'GET /api/v1/products/{slug} 200.data.sellingPrice: the property is no longer sent',
    ])
  })

  test('a request property newly required, a new required parameter, a narrowed enum, a tightened limit', () => {
    const head = copy(document)
    const body = requestBody(head, '/api/v1/orders', 'post')
    body.required = [...body.required, 'couponCode']
    body.properties.paymentMode.enum = ['PREPAID']
    body.properties.items.maxItems = 50
    head.paths['/api/v1/products'].get.parameters.push({ in: 'query', name: 'catalogId', required: true, schema: { type: 'string' } })
    const found = say(errors(document, head))
    assert.ok(found.includes('POST /api/v1/orders request body.couponCode: the property became required'), found.join('\n'))
    assert.ok(found.includes('POST /api/v1/orders request body.paymentMode: no longer accepts COD'), found.join('\n'))
    assert.ok(found.includes('POST /api/v1/orders request body.items: maxItems lowered from 100 to 50'), found.join('\n'))
    assert.ok(found.includes('GET /api/v1/products query catalogId: a new required parameter'), found.join('\n'))
    assert.equal(found.length, 4, found.join('\n'))
  })

  test('a success status removed, a request property no longer accepted, a webhook removed', () => {
    const head = copy(document)
    const created = head.paths['/api/v1/orders'].post.responses
    created['200'] = created['201']
    delete created['201']
    delete requestBody(head, '/api/v1/orders', 'post').properties.alternatePhone
    const hook = Object.keys(head.webhooks)[0]!
    delete head.webhooks[hook]
    assert.deepEqual(say(errors(document, head)), [
      'POST /api/v1/orders request body.alternatePhone: the property is no longer accepted',
      'POST /api/v1/orders 201: the response status was removed',
      `webhook ${hook}: the webhook was removed`,
    ])
  })
})

describe('additive changes pass', () => {
  test('a new operation, an optional parameter, an optional request property, an answer property, a looser limit', () => {
    const head = copy(document)
    head.paths['/api/v1/products/{slug}/variants'] = { get: { operationId: 'listVariants', responses: { 200: { description: 'ok' } } } }
    head.paths['/api/v1/products'].get.parameters.push({ in: 'query', name: 'size', required: false, schema: { type: 'string' } })
    const body = requestBody(head, '/api/v1/orders', 'post')
    body.properties.items.items.properties.variantId = { type: 'string' }
    body.properties.items.maxItems = 200
    const product = answerData(head, '/api/v1/products/{slug}', 'get')
    product.properties.barcode = { type: 'string' }
    product.required.push('barcode')
    assert.deepEqual(say(errors(document, head)), [])
  })

  test('a new value in an answer\'s enum is a warning, not an error; annotations are not compared', () => {
    const head = copy(document)
    const order = answerData(head, '/api/v1/orders/{orderId}', 'get')
    order.properties.status.enum = [...order.properties.status.enum, 'ON_HOLD']
    head.paths['/api/v1/orders'].post.summary = 'Place an order'
    assert.deepEqual(say(errors(document, head)), [])
    assert.deepEqual(say(warnings(document, head)), ['GET /api/v1/orders/{orderId} 200.data.status: may now be ON_HOLD (a new value a client may not know)'])
  })
})
