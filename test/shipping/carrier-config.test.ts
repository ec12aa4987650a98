// Which carriers a service ships with: SHIPPING_SANDBOX=false (the production default) takes the
// sandbox carrier away, its tracking page and buttons with it, and a shipment then has no carrier.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { loadConfig } from '../../src/config.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder } from '../helpers/shop.ts'

let t: TestApp
before(async () => {
  t = await createTestApp({ env: { SHIPPING_SANDBOX: 'false' } })
})
after(() => t.close())

test('without the sandbox carrier, its page and buttons are not served and a shipment has no carrier to go with', async () => {
  const shop = await givenShop(t)
  const support = await givenAdminToken(t.app, t.deps, 'support@carriers.test', 'SUPPORT')
  const customer = await givenCustomer(t.app, shop.partner)
  const order = (await placeOrder(t, customer, { items: [{ productId: shop.ids['atta']!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/admin/orders/${order.id}/shipments`, headers: { authorization: `Bearer ${support}` }, payload: { weightGrams: 100 } })
  assert.equal(res.statusCode, 400)
  assert.equal(res.json().message, 'Unknown carrier: no carrier is configured')
  for (const [method, url] of [['GET', '/api/v1/sandbox/shipments/SBX1'], ['POST', '/api/v1/sandbox/shipments/SBX1/DELIVERED'], ['POST', '/api/v1/shipping/webhooks/sandbox']] as const) {
    assert.equal((await t.app.inject({ method, url, headers: { 'content-type': 'application/json' }, payload: method === 'POST' ? '{}' : undefined })).statusCode, 404, url)
  }
})

test('production has no sandbox carrier unless SHIPPING_SANDBOX=true', () => {
  const production = { NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(48), PUBLIC_BASE_URL: 'https://shop.example', PAYMENT_PROVIDER: 'sandbox', PAYMENT_SANDBOX_IN_PRODUCTION: 'true', DATA_DIR: '/tmp' }
  assert.equal(loadConfig(production).shippingSandbox, false)
  assert.equal(loadConfig({ ...production, SHIPPING_SANDBOX: 'true' }).shippingSandbox, true)
  assert.equal(loadConfig({ NODE_ENV: 'development', DATA_DIR: '/tmp' }).shippingSandbox, true)
})
