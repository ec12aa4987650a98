// The SDK (packages/sdk) against the real app, listening in-process on a local port: the README's
// flow through the typed client, customer-token refresh, the idempotency key of an order attempt,
// retries (network errors, 429 with Retry-After, 5xx; idempotent calls only), typed errors and
// pagination. The network is real; where a failure is needed, a fetch that loses an answer or
// answers for the server stands between the client and the app, never a stand-in for the app.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  CommerceApiError,
  CommerceNetworkError,
  createCommerceClient,
  type CommerceClientOptions,
  type CustomerTokens,
  IDEMPOTENCY_KEY_HEADER,
} from '../../packages/sdk/src/index.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { randomPhone } from '../helpers/factories.ts'
import { ADDRESS, givenShop, type Shop } from '../helpers/shop.ts'

let t: TestApp
let shop: Shop
let baseUrl: string

before(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_AUTH_MAX: '100000' } })
  shop = await givenShop(t)
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`
})
after(() => t?.close())

const partnerClient = (extra: Partial<CommerceClientOptions> = {}) =>
  createCommerceClient({ baseUrl, apiKey: shop.partner.apiKey, partnerId: shop.partner.partnerId, partnerSecret: shop.partner.secret, ...extra })

/** A client acting for a new customer of the shop's partner, with a fetch of the test's choosing. */
async function customerClient(extra: Partial<CommerceClientOptions> = {}) {
  const client = partnerClient(extra)
  await client.exchangeCustomerToken({ phone: randomPhone(), name: 'Asha Rao' })
  return client
}

/** Calls the real fetch and records every request it sends (method, path, headers). */
function recordingFetch(behaviour?: (request: { method: string; path: string; headers: Headers; n: number }, send: () => Promise<Response>) => Promise<Response>) {
  const sent: { method: string; path: string; headers: Headers }[] = []
  const fetchImpl: typeof fetch = async (input, init) => {
    const request = { method: init?.method ?? 'GET', path: new URL(String(input)).pathname, headers: new Headers(init?.headers), n: sent.length + 1 }
    sent.push(request)
    const send = () => fetch(input, init)
    return behaviour ? behaviour(request, send) : send()
  }
  return { sent, fetchImpl }
}

const noWait = async () => {}

describe('the README flow through the client', () => {
  test('a partner exchanges a customer token, browses, searches, quotes, orders, pays on the sandbox and reads the paid order', async () => {
    const tokens: CustomerTokens[] = []
    const client = partnerClient({ onTokens: (pair) => void tokens.push(pair) })
    const customer = await client.exchangeCustomerToken({ phone: randomPhone(), name: 'Asha Rao' })
    assert.ok(customer.userId && customer.accessToken)
    assert.deepEqual(tokens, [{ accessToken: customer.accessToken, refreshToken: customer.refreshToken }])

    const { data: categories } = await client.GET('/api/v1/categories')
    assert.deepEqual(categories!.data.map((c) => c.slug).sort(), ['audio', 'staples'])
    const { data: products } = await client.GET('/api/v1/products', { params: { query: { limit: 10 } } })
    assert.equal(products!.meta.total, 3, 'the three active products')
    const { data: atta } = await client.GET('/api/v1/products/{slug}', { params: { path: { slug: 'atta' } } })
    assert.equal(atta!.data.sellingPrice, '300.00')
    const { data: found } = await client.GET('/api/v1/search', { params: { query: { q: 'atta' } } })
    assert.ok(found!.data.products.some((p) => p.slug === 'atta'))

    const items = [{ productId: shop.ids.atta!, quantity: 2 }]
    const { data: serviceable } = await client.POST('/api/v1/checkout/serviceability', { body: { items, pincode: ADDRESS.pincode } })
    assert.equal(serviceable!.data.serviceable, true)
    const { data: quote } = await client.POST('/api/v1/wallet/quote', { body: { items, pincode: ADDRESS.pincode, paymentMode: 'PREPAID' } })
    assert.equal(quote!.data.itemsTotal, '600.00')

    const { data: placed } = await client.POST('/api/v1/orders', { body: { items, shippingAddress: ADDRESS, paymentMode: 'PREPAID' } })
    const order = placed!.data
    assert.equal(order.status, 'PENDING_PAYMENT')
    assert.equal(order.totalAmount, quote!.data.totalAmount, 'the order costs what the quote said')
    const sessionId = (order.paymentClientAction?.payload as { sessionId: string }).sessionId
    await client.POST('/api/v1/sandbox/checkout/{sessionId}/{action}', { params: { path: { sessionId, action: 'pay' } } })

    const { data: paid } = await client.GET('/api/v1/orders/{orderId}', { params: { path: { orderId: order.id } } })
    assert.equal(paid!.data.status, 'CONFIRMED')
    assert.equal(paid!.data.paymentStatus, 'PAID')
    const { data: me } = await client.GET('/api/v1/users/me')
    assert.equal(me!.data.id, customer.userId)
  })

  test('a customer saves an address, orders to it, cancels the unpaid order, and logging out ends its refresh token', async () => {
    const client = await customerClient()
    const { data: saved } = await client.POST('/api/v1/users/me/addresses', {
      body: { label: 'Home', line1: ADDRESS.line1, city: ADDRESS.city, state: ADDRESS.state, pincode: ADDRESS.pincode },
    })
    const { data: book } = await client.GET('/api/v1/users/me/addresses')
    assert.deepEqual(book!.data.map((a) => a.id), [saved!.data.id])
    const { data: placed } = await client.POST('/api/v1/orders', {
      body: { items: [{ productId: shop.ids.earbuds!, quantity: 1 }], shippingAddress: { addressId: saved!.data.id, landmark: ADDRESS.landmark }, paymentMode: 'PREPAID' },
    })
    assert.equal(placed!.data.shippingAddress.pincode, ADDRESS.pincode)
    const { data: cancelled } = await client.POST('/api/v1/orders/{orderId}/cancel', { params: { path: { orderId: placed!.data.id } }, body: { reason: 'Changed my mind' } })
    assert.equal(cancelled!.data.status, 'CANCELLED')
    await client.POST('/api/v1/auth/logout', { body: { refreshToken: client.tokens!.refreshToken } })
    await assert.rejects(client.POST('/api/v1/auth/refresh', { body: { refreshToken: client.tokens!.refreshToken } }), (e: CommerceApiError) => e.status === 401)
  })
})

describe('customer tokens', () => {
  test('when the access token is refused, the client refreshes it once, resends the call and hands the new pair to onTokens', async () => {
    const issued: CustomerTokens[] = []
    const { sent, fetchImpl } = recordingFetch()
    const client = await customerClient({ fetch: fetchImpl, onTokens: (pair) => void issued.push(pair) })
    const first = client.tokens!
    // An access token the server no longer accepts (expired, or its key rotated): 401.
    const refused = `${first.accessToken}x`
    client.setTokens({ accessToken: refused, refreshToken: first.refreshToken })
    const { data: me } = await client.GET('/api/v1/users/me')
    assert.equal(me!.data.phone.length, 10)
    assert.deepEqual(sent.slice(-3).map((r) => `${r.method} ${r.path}`), ['GET /api/v1/users/me', 'POST /api/v1/auth/refresh', 'GET /api/v1/users/me'])
    assert.equal(issued.length, 2, 'the exchange and the refresh')
    assert.deepEqual(client.tokens, issued[1])
    assert.equal(sent.at(-3)!.headers.get('authorization'), `Bearer ${refused}`)
    assert.equal(sent.at(-1)!.headers.get('authorization'), `Bearer ${client.tokens!.accessToken}`)
  })

  test('calls refused at the same time share one refresh (a refresh token is used once)', async () => {
    const { sent, fetchImpl } = recordingFetch()
    const client = await customerClient({ fetch: fetchImpl })
    client.setTokens({ accessToken: 'not-a-token', refreshToken: client.tokens!.refreshToken })
    const answers = await Promise.all([client.GET('/api/v1/users/me'), client.GET('/api/v1/wallet'), client.GET('/api/v1/orders')])
    assert.ok(answers.every((a) => a.data))
    assert.equal(sent.filter((r) => r.path === '/api/v1/auth/refresh').length, 1)
  })

  test('when the refresh token is refused too, the call fails with the 401 error body', async () => {
    const client = await customerClient()
    client.setTokens({ accessToken: 'not-a-token', refreshToken: 'not-a-refresh-token' })
    await assert.rejects(client.GET('/api/v1/users/me'), (e: unknown) => {
      assert.ok(e instanceof CommerceApiError)
      assert.equal(e.status, 401)
      assert.equal(e.body.statusCode, 401)
      assert.equal(e.body.path, '/api/v1/users/me')
      assert.match(String(e.body.message), /access token/i)
      return true
    })
  })
})

describe('idempotency keys', () => {
  test('when the answer to an order is lost, the retry sends the same key and gets the same order: one order exists', async () => {
    let lost = false
    const { sent, fetchImpl } = recordingFetch(async (request, send) => {
      const response = await send()
      if (request.path === '/api/v1/orders' && request.method === 'POST' && !lost) {
        lost = true
        throw new TypeError('fetch failed: the connection was reset after the server answered')
      }
      return response
    })
    const client = await customerClient({ fetch: fetchImpl, sleep: noWait })
    const { data } = await client.POST('/api/v1/orders', { body: { items: [{ productId: shop.ids.hot!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'PREPAID' } })
    const attempts = sent.filter((r) => r.method === 'POST' && r.path === '/api/v1/orders')
    assert.equal(attempts.length, 2)
    const key = attempts[0]!.headers.get(IDEMPOTENCY_KEY_HEADER)
    assert.match(key ?? '', /^[0-9a-f-]{36}$/)
    assert.equal(attempts[1]!.headers.get(IDEMPOTENCY_KEY_HEADER), key)
    const { data: orders } = await client.GET('/api/v1/orders')
    assert.deepEqual(orders!.data.map((o) => o.id), [data!.data.id], 'the retry did not order twice')
  })

  test('each new order attempt gets a new key, and a key the caller gives is kept', async () => {
    const { sent, fetchImpl } = recordingFetch()
    const client = await customerClient({ fetch: fetchImpl })
    const body = { items: [{ productId: shop.ids.atta!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'PREPAID' as const }
    await client.POST('/api/v1/orders', { body })
    await client.POST('/api/v1/orders', { body })
    await client.POST('/api/v1/orders', { body, params: { header: { 'x-idempotency-key': 'checkout-42-attempt-1' } } })
    const keys = sent.filter((r) => r.method === 'POST' && r.path === '/api/v1/orders').map((r) => r.headers.get(IDEMPOTENCY_KEY_HEADER))
    assert.equal(new Set(keys).size, 3)
    assert.equal(keys[2], 'checkout-42-attempt-1')
    assert.equal(sent.find((r) => r.path === '/api/v1/users/me'), undefined)
  })
})

describe('retries', () => {
  test('a GET that meets network errors is retried with growing backoff until it is answered', async () => {
    const delays: number[] = []
    const { sent, fetchImpl } = recordingFetch(async (request, send) => {
      if (request.path === '/api/v1/categories' && sent.filter((r) => r.path === request.path).length <= 2) throw new TypeError('fetch failed')
      return send()
    })
    const client = partnerClient({ fetch: fetchImpl, sleep: async (ms) => void delays.push(ms), retry: { baseDelayMs: 100 } })
    const { data } = await client.GET('/api/v1/categories')
    assert.equal(data!.data.length, 2)
    assert.equal(sent.filter((r) => r.path === '/api/v1/categories').length, 3)
    assert.equal(delays.length, 2)
    assert.ok(delays[0]! >= 50 && delays[0]! <= 100 && delays[1]! >= 100 && delays[1]! <= 200, `backoff ${delays}`)
  })

  test('a GET answered 5xx is retried, after the Retry-After the server gave; after the last retry the error is thrown', async () => {
    const delays: number[] = []
    const unavailable = () => new Response(JSON.stringify({ statusCode: 503, message: 'Service temporarily unavailable, please retry', error: 'Service Unavailable', timestamp: new Date().toISOString(), path: '/api/v1/categories' }), { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '1' } })
    const flaky = recordingFetch(async (request, send) => (request.n === 1 ? unavailable() : send()))
    const client = partnerClient({ fetch: flaky.fetchImpl, sleep: async (ms) => void delays.push(ms) })
    await client.GET('/api/v1/categories')
    assert.deepEqual(delays, [1000])
    const down = recordingFetch(async () => unavailable())
    const failing = partnerClient({ fetch: down.fetchImpl, sleep: noWait, retry: { retries: 2 } })
    await assert.rejects(failing.GET('/api/v1/categories'), (e: CommerceApiError) => e.status === 503 && e.retryAfter === 1 && e.body.error === 'Service Unavailable')
    assert.equal(down.sent.length, 3)
  })

  test('a POST without an idempotency key is never retried: a network error is thrown at once', async () => {
    const { sent, fetchImpl } = recordingFetch(async (request, send) => (request.path === '/api/v1/wallet/quote' ? Promise.reject(new TypeError('fetch failed')) : send()))
    const client = await customerClient({ fetch: fetchImpl, sleep: noWait })
    await assert.rejects(client.POST('/api/v1/wallet/quote', { body: { items: [{ productId: shop.ids.atta!, quantity: 1 }] } }), CommerceNetworkError)
    assert.equal(sent.filter((r) => r.path === '/api/v1/wallet/quote').length, 1)
  })
})

describe('errors and pages', () => {
  test('an error status is a CommerceApiError carrying the error body: validation messages are a list', async () => {
    const client = await customerClient()
    await assert.rejects(client.POST('/api/v1/orders', { body: { items: [], shippingAddress: ADDRESS } }), (e: unknown) => {
      assert.ok(e instanceof CommerceApiError)
      assert.equal(e.status, 400)
      assert.deepEqual(Object.keys(e.body).sort(), ['error', 'message', 'path', 'statusCode', 'timestamp'])
      assert.ok(e.messages.length >= 1)
      return true
    })
    await assert.rejects(client.GET('/api/v1/products/{slug}', { params: { path: { slug: 'no-such-product' } } }), (e: CommerceApiError) => e.status === 404 && e.body.path === '/api/v1/products/no-such-product')
  })

  test('paginate walks every page of a list as one async iterator', async () => {
    const client = partnerClient()
    const seen: string[] = []
    for await (const product of client.paginate('/api/v1/products', { params: { query: { limit: 1 } } })) seen.push(product.slug)
    assert.deepEqual(seen.sort(), ['atta', 'earbuds', 'hot'])
  })
})

describe('rate limits', () => {
  let limited: TestApp
  let limitedUrl: string
  let partner: Shop['partner']
  before(async () => {
    // Three calls a second per caller: the fourth is 429 with the seconds to wait.
    limited = await createTestApp({ env: { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '1000' } })
    partner = (await givenShop(limited)).partner
    await limited.app.listen({ port: 0, host: '127.0.0.1' })
    limitedUrl = `http://127.0.0.1:${(limited.app.server.address() as { port: number }).port}`
  })
  after(() => limited?.close())

  test('a call answered 429 waits the Retry-After the server sent, then succeeds', async () => {
    const delays: number[] = []
    const { sent, fetchImpl } = recordingFetch()
    const client = createCommerceClient({
      baseUrl: limitedUrl,
      apiKey: partner.apiKey,
      fetch: fetchImpl,
      sleep: (ms) => (delays.push(ms), new Promise((resolve) => setTimeout(resolve, ms))),
    })
    for (let i = 0; i < 4; i++) await client.GET('/api/v1/categories')
    assert.equal(sent.length, 5, 'the fourth call was sent twice')
    assert.equal(delays.length, 1)
    assert.ok(delays[0]! >= 1000 && delays[0]! <= 2000, `waited ${delays[0]} ms`)
  })
})
