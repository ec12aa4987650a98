// The SDK's runnable example (packages/sdk/examples/partner-checkout.ts) against the real app
// listening in-process, its webhook dispatcher running: token exchange, browse, search, quote, a
// prepaid order paid on the sandbox, and the payment.succeeded event received and verified. The
// event it verified also matches its schema in the OpenAPI document's webhooks.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { partnerCheckout } from '../../packages/sdk/examples/partner-checkout.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { randomPhone } from '../helpers/factories.ts'
import { givenShop, type Shop } from '../helpers/shop.ts'

let t: TestApp
let shop: Shop
let baseUrl: string
let dispatcher: { stop(): Promise<void> }

before(async () => {
  t = await createTestApp({ env: { WEBHOOK_POLL_INTERVAL_MS: '50' } })
  shop = await givenShop(t)
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`
  dispatcher = t.app.dispatcher.start()
})
after(async () => {
  await dispatcher?.stop()
  await t?.close()
})

test('the partner checkout example runs end to end, verifies the payment event it receives, runs again and leaves the webhook as it found it', async () => {
  const lines: string[] = []
  const run = () => partnerCheckout({ baseUrl, apiKey: shop.partner.apiKey, partnerId: shop.partner.partnerId, partnerSecret: shop.partner.secret, phone: randomPhone(), log: (line) => lines.push(line) })
  const partnerHeaders = { 'x-partner-id': shop.partner.partnerId, 'x-partner-secret': shop.partner.secret }
  const webhookUrl = async () => (await t.app.inject({ method: 'GET', url: '/api/v1/partner/webhook', headers: partnerHeaders })).json().data.url
  const result = await run()
  // It leaves the partner's webhook as it found it (none), and runs again (the secret rotated).
  assert.equal(await webhookUrl(), null)
  await t.app.inject({ method: 'PUT', url: '/api/v1/partner/webhook', headers: partnerHeaders, payload: { url: 'https://hooks.example.com/partner' } })
  const again = await run()
  assert.equal(again.paymentStatus, 'PAID')
  assert.equal(await webhookUrl(), 'https://hooks.example.com/partner')
  assert.equal(result.status, 'CONFIRMED')
  assert.equal(result.paymentStatus, 'PAID')
  assert.equal(result.event.type, 'payment.succeeded')
  assert.equal(result.event.data.orderId, result.orderId)
  assert.ok(lines.some((line) => line.startsWith('verified payment.succeeded')), lines.join('\n'))

  const document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json()
  const ajv = new Ajv2020.default({ strict: false, allErrors: true })
  addFormats.default(ajv)
  const schema = document.webhooks['payment.succeeded'].post.requestBody.content['application/json'].schema
  assert.ok(ajv.validate(schema, result.event), ajv.errorsText(ajv.errors))

  // Every event the checkout wrote for the partner, as its delivery body, matches its documented schema.
  const events = await t.deps.database.db.query.outboxEvents.findMany({ where: (e, { eq }) => eq(e.partnerId, shop.partner.partnerId) })
  const types = [...new Set(events.map((e) => e.type))].sort()
  for (const type of ['customer.created', 'order.created', 'order.status_changed', 'payment.succeeded']) assert.ok(types.includes(type), `${type} in ${types}`)
  for (const event of events) {
    const body = JSON.parse(JSON.stringify({ id: event.id, type: event.type, createdAt: event.createdAt.toISOString(), data: event.data }))
    const documented = document.webhooks[event.type].post.requestBody.content['application/json'].schema
    assert.ok(ajv.validate(documented, body), `${event.type}: ${ajv.errorsText(ajv.errors)}`)
  }
})
