// A POST with no body and `content-type: application/json` (SDKs send the header on every request)
// is bodiless, for every route (issue #20): a route that takes no body or an optional one runs; a
// route that requires a body answers its usual validation 400.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'

let t: TestApp
let shop: Shop

before(async () => {
  t = await createTestApp()
  shop = await givenShop(t)
})
after(() => t.close())

/** Both forms SDKs send: an explicit `content-length: 0`, and no content-length at all. */
const BODILESS: Record<string, string>[] = [
  { 'content-type': 'application/json', 'content-length': '0' },
  { 'content-type': 'application/json' },
  { 'content-type': 'application/json; charset=utf-8', 'content-length': '0' },
]

const bodilessPost = (customer: CustomerFixture, url: string, headers: Record<string, string>, extra: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { ...customerHeaders(customer), ...headers, ...extra } })

async function prepaidOrder(customer: CustomerFixture) {
  const res = await placeOrder(t, customer, { items: [{ productId: shop.ids.earbuds!, quantity: 1 }], shippingAddress: ADDRESS })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as { id: string }
}

describe('bodiless POST with content-type application/json', () => {
  test('POST /orders/{id}/payments with a JSON content type and no body starts a new payment session', async () => {
    for (const headers of BODILESS) {
      const customer = await givenCustomer(t.app, shop.partner)
      const order = await prepaidOrder(customer)
      const res = await bodilessPost(customer, `/orders/${order.id}/payments`, headers, { 'x-idempotency-key': crypto.randomUUID() })
      assert.equal(res.statusCode, 201, `${JSON.stringify(headers)}: ${res.body}`)
      assert.equal(res.json().data.payment.status, 'PENDING')
    }
  })

  test('POST /orders/{id}/payments/{paymentId}/abandon with a JSON content type and no body marks the payment USER_DROPPED', async () => {
    for (const headers of BODILESS) {
      const customer = await givenCustomer(t.app, shop.partner)
      const order = await prepaidOrder(customer)
      const paymentId = (await t.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: customerHeaders(customer) })).json().data.payment.id
      const res = await bodilessPost(customer, `/orders/${order.id}/payments/${paymentId}/abandon`, headers)
      assert.equal(res.statusCode, 200, `${JSON.stringify(headers)}: ${res.body}`)
      assert.equal(res.json().data.status, 'USER_DROPPED')
    }
  })

  test('a route with an optional body (cancel: no field required) runs with its defaults, with or without a content type', async () => {
    for (const headers of [...BODILESS, {}]) {
      const customer = await givenCustomer(t.app, shop.partner)
      const order = await prepaidOrder(customer)
      const res = await bodilessPost(customer, `/orders/${order.id}/cancel`, headers)
      assert.equal(res.statusCode, 200, `${JSON.stringify(headers)}: ${res.body}`)
      assert.equal(res.json().data.cancelReason, 'Cancelled by the customer')
    }
  })

  test('a route that requires a body still answers its validation 400, not an empty-body error', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    for (const url of ['/users/me/addresses', '/orders']) {
      const res = await bodilessPost(customer, url, BODILESS[0]!, { 'x-idempotency-key': crypto.randomUUID() })
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`)
      const body = res.json()
      assert.doesNotMatch(JSON.stringify(body), /must not be empty/, url)
      assert.ok(Array.isArray(body.message) && body.message.length > 0, `${url}: ${res.body}`)
    }
  })

  test('a body that is present but not JSON is still a 400', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/users/me/addresses', headers: { ...customerHeaders(customer), 'content-type': 'application/json' }, payload: '{"label":' })
    assert.equal(res.statusCode, 400, res.body)
  })
})
