// Secrets never reach the logs: the service's own logger (redaction included) at trace level, over
// flows that carry every kind of credential; the captured lines are searched for each secret.
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { after, before, test } from 'node:test'
import { buildApp } from '../../src/app.ts'
import { createLogger } from '../../src/bootstrap.ts'
import { loadConfig } from '../../src/config.ts'
import type { Deps } from '../../src/deps.ts'
import { withTables } from '../helpers/schema-db.ts'
import { systemClock } from '../../src/lib/clock.ts'
import { createPaymentProvider } from '../../src/modules/payments/providers/index.ts'
import { revokeApiKey } from '../../src/modules/partners/index.ts'
import { openTestDatabase, TEST_AUTH_SECRET, type TestApp } from '../helpers/app.ts'
import { customerHeaders, givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { findSecrets } from '../helpers/secret-scan.ts'
import { ADDRESS, givenShop, placeOrder } from '../helpers/shop.ts'
import { png, put, requestSlots } from '../helpers/uploads.ts'

const lines: string[] = []
const capture = new Writable({
  write(chunk, _encoding, done) {
    lines.push(chunk.toString())
    done()
  },
})
let t: TestApp

before(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'commerce-logs-'))
  const config = loadConfig({ NODE_ENV: 'test', AUTH_SECRET: TEST_AUTH_SECRET, LOG_LEVEL: 'trace', DATA_DIR: dataDir })
  const { database, drop } = await openTestDatabase()
  const deps: Deps = { config, database, redis: null, clock: systemClock, logger: createLogger(config, capture) }
  const app = await buildApp(deps)
  await app.ready()
  t = {
    app,
    deps: { ...deps, database: withTables(database) },
    async close() {
      await app.close()
      await drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
})
after(() => t.close())

test('no API key, partner secret, token, password, webhook secret or signature appears in the logs', async () => {
  const shop = await givenShop(t)
  const secrets: Record<string, string> = { apiKey: shop.partner.apiKey, partnerSecret: shop.partner.secret }

  // Catalog with a good, a wrong and a revoked key; customer tokens; refresh and logout.
  await t.app.inject({ method: 'GET', url: '/api/v1/products', headers: { 'x-api-key': shop.partner.apiKey } })
  await t.app.inject({ method: 'GET', url: '/api/v1/products', headers: { 'x-api-key': `${shop.partner.apiKey}x` } })
  const customer = await givenCustomer(t.app, shop.partner)
  secrets.accessToken = customer.accessToken
  secrets.refreshToken = customer.refreshToken
  const refreshed = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: customer.refreshToken } })
  secrets.rotatedRefresh = refreshed.json().data.refreshToken
  await t.app.inject({ method: 'POST', url: '/api/v1/auth/customer-token', headers: { 'x-partner-id': shop.partner.partnerId, 'x-partner-secret': 'psk_wrong' }, payload: { phone: '9876543210' } })

  // Orders, a sandbox payment (signed callback), a forged callback.
  const placed = await placeOrder(t, customer, { items: [{ productId: shop.ids.atta!, quantity: 1 }], shippingAddress: ADDRESS })
  assert.equal(placed.statusCode, 201, placed.body)
  const order = placed.json().data
  const sandbox = createPaymentProvider(t.deps.config).sandbox!
  const signed = sandbox.signedEvent(sandbox.eventFor('pay', { sessionId: order.paymentClientAction.payload.sessionId, amount: 1n, currency: 'INR' }))
  secrets.signature = String(signed.headers['x-sandbox-signature']).split('v1=')[1]!
  await t.app.inject({ method: 'POST', url: '/api/v1/payments/webhooks/sandbox', headers: signed.headers as Record<string, string>, payload: signed.rawBody })
  await t.app.inject({ method: 'POST', url: '/api/v1/payments/webhooks/sandbox', headers: { 'content-type': 'application/json', 'x-sandbox-signature': `t=1,v1=${'a'.repeat(64)}` }, payload: '{}' })
  await t.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: customerHeaders(customer) })

  // Back office: login with a password, a wrong password, a webhook secret.
  const admin = await givenAdminToken(t.app, t.deps, 'logs@admin.test', 'ADMIN')
  secrets.adminToken = admin
  secrets.adminPassword = 'long-enough-password'
  await t.app.inject({ method: 'POST', url: '/api/v1/admin/auth/login', payload: { email: 'logs@admin.test', password: 'wrong-password-123' } })
  const hook = await t.app.inject({ method: 'PUT', url: `/api/v1/admin/partners/${shop.partner.partnerId}/webhook`, headers: { authorization: `Bearer ${admin}` }, payload: { url: 'http://127.0.0.1:9/hook' } })
  secrets.webhookSecret = hook.json().data.secret
  await t.app.dispatcher.dispatchOnce()

  // An evidence upload: its URL is signed in the query string, and request logs carry the URL.
  const slots = await requestSlots(t, customer, 'support', [{ fileName: 'a.png', contentType: 'image/png', sizeBytes: 120 }])
  assert.equal(slots.statusCode, 201, slots.body)
  const uploadUrl = new URL(slots.json().data[0].uploadUrl)
  secrets.uploadSignature = uploadUrl.searchParams.get('signature')!
  assert.equal((await put(t, uploadUrl.toString(), png(120), 'image/png')).statusCode, 201)

  // A reused refresh token (revokes the family), then a revoked API key.
  await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: customer.refreshToken } })
  await revokeApiKey(t.deps.database.db, systemClock, shop.partner.apiKeyId)
  await t.app.inject({ method: 'GET', url: '/api/v1/products', headers: { 'x-api-key': shop.partner.apiKey } })

  const log = lines.join('')
  assert.ok(lines.length > 20, `the flows were logged (${lines.length} lines)`)
  // Request logs carry method, URL and addresses, never headers or bodies; errors carry their own fields.
  assert.ok(log.includes('/api/v1/payments/webhooks/sandbox'))
  for (const [name, value] of Object.entries(secrets)) {
    assert.ok(value && value.length > 8, name)
    assert.equal(log.includes(value), false, `${name} appears in the logs`)
  }
  assert.equal(/psk_wrong|wrong-password-123/.test(log), false, 'rejected credentials are not logged either')
  // And the suite-wide scan (SE-11, scripts/test.ts) finds nothing in these lines either.
  assert.deepEqual(lines.flatMap((line) => findSecrets(line, Object.values(secrets))), [])
})
