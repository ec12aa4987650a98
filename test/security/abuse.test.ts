// Abuse of the API's limits (reliability plan 7.6): password guessing on the back-office login
// (SE-02), resource limits: order lines, body size, slow clients (SE-05), and a coupon redeemed by
// more orders at once than it allows (SE-06). The app keeps its default rate limits here, so
// requests that are not about a limit come from addresses of their own (inject's remoteAddress).
import assert from 'node:assert/strict'
import { createHmac, randomUUID } from 'node:crypto'
import { connect, type Socket } from 'node:net'
import { Readable } from 'node:stream'
import { after, before, describe, test } from 'node:test'
import { and, count, eq } from 'drizzle-orm'
import { signPayload } from '../../src/lib/signature.ts'
import { createAdmin } from '../../src/modules/admins/index.ts'
import { importCatalog } from '../../src/modules/catalog/import.ts'
import { couponRedemptions, coupons } from '../../src/modules/checkout/schema.sql.ts'
import { orders } from '../../src/modules/orders/schema.sql.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, randomPhone } from '../helpers/factories.ts'
import { ADDRESS, givenShop, type Shop } from '../helpers/shop.ts'

const PREFIX = '/api/v1'
/** The slow-client timeouts this file sets (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); src/app.ts checks them every second. */
const HEADERS_TIMEOUT_MS = 1500
const REQUEST_TIMEOUT_MS = 3000
const CHECK_INTERVAL_MS = 1000
/** The default auth limit per client address a minute (RATE_LIMIT_AUTH_MAX), and so 5 failed logins a minute per admin account. */
const AUTH_MAX = 30
const PER_ACCOUNT = 5

let t: TestApp
let shop: Shop
/** 100 products of the shop's catalog, for the longest cart allowed (a product may be on one line only). */
let bulkIds: string[]
let adminToken: string
let addressCounter = 0
/** A client address nobody else in this file uses. */
const freshAddress = () => `10.77.${Math.floor(++addressCounter / 250)}.${(addressCounter % 250) + 1}`

before(async () => {
  t = await createTestApp({ env: { HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } })
  shop = await givenShop(t)
  const bulk = Array.from({ length: 100 }, (_, i) => ({ slug: `bulk-${i}`, name: `Bulk ${i}`, brand: 'Bulk', sku: `B-${i}`, categorySlug: 'staples', sellingPrice: '10.00', mrp: '10.00', stock: 10, weightGrams: 10 }))
  await importCatalog(t.deps.database.db, shop.catalogId, { categories: [{ slug: 'staples', name: 'Staples' }], products: bulk })
  const rows = await t.deps.database.db.query.products.findMany({ where: (p, { and, eq, like }) => and(eq(p.catalogId, shop.catalogId), like(p.slug, 'bulk-%')) })
  bulkIds = rows.map((p) => p.id)
  await createAdmin(t.deps.database.db, { email: 'abuse-admin@abuse.test', password: 'long-enough-password', role: 'ADMIN' })
  const login = await adminLogin('abuse-admin@abuse.test', 'long-enough-password', freshAddress())
  assert.equal(login.statusCode, 200, login.body)
  adminToken = login.json().data.accessToken
})
after(() => t?.close())

function adminLogin(email: string, password: string, remoteAddress: string) {
  return t.app.inject({ method: 'POST', url: `${PREFIX}/admin/auth/login`, payload: { email, password }, remoteAddress })
}

/** A customer of the shop's partner, made through the API from an address of its own (the auth limit is per address). */
async function customer(): Promise<CustomerFixture> {
  const phone = randomPhone()
  const res = await t.app.inject({
    method: 'POST',
    url: `${PREFIX}/auth/customer-token`,
    headers: { 'x-partner-id': shop.partner.partnerId, 'x-partner-secret': shop.partner.secret },
    payload: { name: 'Abuse Customer', phone },
    remoteAddress: freshAddress(),
  })
  assert.equal(res.statusCode, 200, res.body)
  const data = res.json().data
  return { accessToken: data.accessToken, refreshToken: data.refreshToken, userId: data.user.id, phone, partnerId: shop.partner.partnerId }
}

function order(c: CustomerFixture, payload: object, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: `${PREFIX}/orders`, headers: { ...customerHeaders(c), 'x-idempotency-key': randomUUID(), ...headers }, payload })
}

/** The error body of commerce-api.md "Errors". */
function assertErrorBody(res: { statusCode: number; json(): unknown }, status: number, path: string) {
  const body = res.json() as Record<string, unknown>
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'path', 'statusCode', 'timestamp'])
  assert.equal(body.statusCode, status)
  assert.equal(body.path, path)
  assert.ok(!Number.isNaN(Date.parse(String(body.timestamp))))
  return body
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now()
  const result = await work()
  return [result, performance.now() - start]
}

describe('password guessing on the back-office login', () => {
  test('after 5 failed logins on one admin account within a minute, the 6th attempt is 429 with retry-after, from any address, even with the right password', async () => {
    const email = `guessed-${randomUUID()}@abuse.test`
    await createAdmin(t.deps.database.db, { email, password: 'the-right-password', role: 'SUPPORT' })
    // Five wrong guesses, each from another address: the per-address limit never sees more than one.
    for (let i = 1; i <= PER_ACCOUNT; i++) {
      const wrong = await adminLogin(email, `wrong-guess-${i}`, freshAddress())
      assert.equal(wrong.statusCode, 401, `attempt ${i}: ${wrong.body}`)
    }
    // The sixth, with the right password and the email in capitals, from yet another address.
    const sixth = await adminLogin(email.toUpperCase(), 'the-right-password', freshAddress())
    assert.equal(sixth.statusCode, 429, sixth.body)
    const body = assertErrorBody(sixth, 429, `${PREFIX}/admin/auth/login`)
    assert.equal(body.error, 'Too Many Requests')
    assert.equal((body as { data?: unknown }).data, undefined, 'no token in a 429')
    assert.ok(Number(sixth.headers['retry-after']) > 0 && Number(sixth.headers['retry-after']) <= 60, `retry-after ${sixth.headers['retry-after']}`)
    assert.equal(sixth.headers['x-ratelimit-limit'], String(PER_ACCOUNT))
    assert.equal(sixth.headers['x-ratelimit-remaining'], '0')
    // Another account is not locked by this one's guesses, from the same addresses or others.
    assert.equal((await adminLogin('abuse-admin@abuse.test', 'long-enough-password', freshAddress())).statusCode, 200)
  })

  test('successful logins do not count: an admin who logs in often is never locked out', async () => {
    const email = `busy-${randomUUID()}@abuse.test`
    await createAdmin(t.deps.database.db, { email, password: 'the-right-password', role: 'SUPPORT' })
    const statuses: number[] = []
    for (let i = 0; i < PER_ACCOUNT + 3; i++) statuses.push((await adminLogin(email, 'the-right-password', freshAddress())).statusCode)
    assert.deepEqual(statuses, Array(PER_ACCOUNT + 3).fill(200))
    // Failures after them still count from zero: 4 wrong guesses leave the right password working.
    for (let i = 0; i < PER_ACCOUNT - 1; i++) assert.equal((await adminLogin(email, 'wrong-guess', freshAddress())).statusCode, 401)
    assert.equal((await adminLogin(email, 'the-right-password', freshAddress())).statusCode, 200)
  })

  test('an account nobody has is limited the same way (the 429 does not tell which emails exist)', async () => {
    const email = `nobody-${randomUUID()}@abuse.test`
    const statuses: number[] = []
    for (let i = 0; i < PER_ACCOUNT + 2; i++) statuses.push((await adminLogin(email, 'whatever-password', freshAddress())).statusCode)
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429])
  })

  test('one client address gets 30 auth attempts a minute on each auth route (admin login, customer-token, refresh), then 429', async () => {
    const ip = freshAddress()
    const wrongSecret = { 'x-partner-id': shop.partner.partnerId, 'x-partner-secret': 'psk_guess' }
    const attempts: Record<string, () => Promise<{ statusCode: number; headers: Record<string, unknown> }>> = {
      // Every attempt on another account: only the per-address limit applies.
      'admin login': () => adminLogin(`spray-${randomUUID()}@abuse.test`, 'password-guess', ip),
      // The partner secret guarded by customer-token: the partner's "account".
      'customer-token': () => t.app.inject({ method: 'POST', url: `${PREFIX}/auth/customer-token`, headers: wrongSecret, payload: { phone: randomPhone() }, remoteAddress: ip }),
      'refresh': () => t.app.inject({ method: 'POST', url: `${PREFIX}/auth/refresh`, payload: { refreshToken: `rt_guess_${randomUUID()}` }, remoteAddress: ip }),
    }
    for (const [name, attempt] of Object.entries(attempts)) {
      const statuses = new Set<number>()
      for (let i = 0; i < AUTH_MAX; i++) statuses.add((await attempt()).statusCode)
      assert.deepEqual([...statuses], [401], `${name}: the first ${AUTH_MAX} attempts are judged`)
      const over = await attempt()
      assert.equal(over.statusCode, 429, `${name}: attempt ${AUTH_MAX + 1}`)
      assert.ok(Number(over.headers['retry-after']) > 0, `${name}: retry-after`)
    }
  })
})

describe('resource limits', () => {
  const line = (productId: string) => ({ productId, quantity: 1 })

  test('an order of 101 lines (or 10,000) is refused 400 within 1 s with the error body; 100 lines is the most accepted', async () => {
    const c = await customer()
    assert.equal(bulkIds.length, 100)
    for (const lines of [101, 10_000]) {
      const [res, ms] = await timed(() => order(c, { items: Array.from({ length: lines }, (_, i) => line(bulkIds[i % 100]!)), shippingAddress: ADDRESS, paymentMode: 'COD' }))
      assert.equal(res.statusCode, 400, `${lines} lines: ${res.body.slice(0, 300)}`)
      const body = assertErrorBody(res, 400, `${PREFIX}/orders`)
      assert.equal(body.error, 'Bad Request')
      assert.deepEqual(body.message, ['items must contain no more than 100 elements'])
      assert.ok(ms <= 1000, `${lines} lines answered in ${ms.toFixed(0)} ms`)
    }
    assert.equal((await t.deps.database.db.select({ n: count() }).from(orders).where(eq(orders.userId, c.userId)))[0]!.n, 0, 'no order from a refused cart')
    // The bound itself: 100 lines of 100 products make one order.
    // (The 1 s bound is for refusals; a real 100-line order takes what 100 reservations take.)
    const res = await order(c, { items: bulkIds.map(line), shippingAddress: ADDRESS, paymentMode: 'COD' })
    assert.equal(res.statusCode, 201, res.body.slice(0, 300))
    assert.equal(res.json().data.items.length, 100)
  })

  test('a body over the 1 MiB body limit is 413 with the error body within 1 s, with or without content-length', async () => {
    const c = await customer()
    const oversized = JSON.stringify({ items: [line(shop.ids.earbuds!)], shippingAddress: { ...ADDRESS, line2: 'x'.repeat(1_048_576) }, paymentMode: 'COD' })
    const headers = { ...customerHeaders(c), 'x-idempotency-key': randomUUID(), 'content-type': 'application/json' }
    const sent = [
      ['content-length', () => t.app.inject({ method: 'POST', url: `${PREFIX}/orders`, headers, payload: oversized })],
      ['chunked', () => t.app.inject({ method: 'POST', url: `${PREFIX}/orders`, headers, payload: Readable.from([oversized.slice(0, 600_000), oversized.slice(600_000)]) })],
    ] as const
    for (const [how, send] of sent) {
      const [res, ms] = await timed(send)
      assert.equal(res.statusCode, 413, `${how}: ${res.body.slice(0, 300)}`)
      assert.equal(assertErrorBody(res, 413, `${PREFIX}/orders`).message, 'Request body is too large')
      assert.ok(ms <= 1000, `${how}: answered in ${ms.toFixed(0)} ms`)
    }
  })

  /** Every answer of a refusal: the status, the error body, within 1 s. */
  async function refused(status: number, path: string, send: () => Promise<{ statusCode: number; body: string; json(): unknown }>) {
    const [res, ms] = await timed(send)
    assert.equal(res.statusCode, status, `${path}: ${res.body.slice(0, 300)}`)
    assertErrorBody(res, status, path)
    assert.ok(ms <= 1000, `${path}: answered in ${ms.toFixed(0)} ms`)
    return res
  }

  test('?limit=100000 on every list is 400 within 1 s (the maximum is 100, which is served)', async () => {
    const c = await customer()
    const partner = { 'x-api-key': shop.partner.apiKey }
    const lists = [
      [`${PREFIX}/products`, partner],
      [`${PREFIX}/support/tickets`, customerHeaders(c)],
      [`${PREFIX}/returns`, customerHeaders(c)],
      [`${PREFIX}/admin/orders`, { authorization: `Bearer ${adminToken}` }],
    ] as const
    for (const [path, headers] of lists) {
      const res = await refused(400, path, () => t.app.inject({ method: 'GET', url: `${path}?limit=100000`, headers }))
      assert.deepEqual((res.json() as { message: unknown }).message, ['limit must not be greater than 100'])
      const max = await t.app.inject({ method: 'GET', url: `${path}?limit=100`, headers })
      assert.equal(max.statusCode, 200, `${path}?limit=100: ${max.body.slice(0, 200)}`)
    }
  })

  test('too many evidence images, over-long strings, 6 upload slots and a 15 MiB + 1 file are 400 within 1 s, and nothing is stored', async () => {
    const c = await customer()
    const headers = customerHeaders(c)
    const image = 'https://example.com/x.png'
    const ticket = (payload: object) => () => t.app.inject({ method: 'POST', url: `${PREFIX}/support/tickets`, headers, payload })
    await refused(400, `${PREFIX}/support/tickets`, ticket({ topic: 'Late', detail: 'Where is it', imageUrls: Array(11).fill(image) }))
    await refused(400, `${PREFIX}/support/tickets`, ticket({ topic: 'Late', detail: 'x'.repeat(5001) }))
    await refused(400, `${PREFIX}/support/tickets`, ticket({ topic: 'x'.repeat(201), detail: 'Where is it' }))
    const tickets = await t.app.inject({ method: 'GET', url: `${PREFIX}/support/tickets`, headers })
    assert.equal(tickets.json().data.length, 0, 'no ticket from a refused body')

    const slots = (files: object[]) => () => t.app.inject({ method: 'POST', url: `${PREFIX}/support/uploads/signed-urls`, headers, payload: { files } })
    const file = (sizeBytes: number) => ({ fileName: 'evidence.png', contentType: 'image/png', sizeBytes })
    await refused(400, `${PREFIX}/support/uploads/signed-urls`, slots(Array(6).fill(file(1000))))
    await refused(400, `${PREFIX}/support/uploads/signed-urls`, slots([file(15 * 1024 * 1024 + 1)]))
    const five = await slots([...Array(4).fill(file(1000)), file(15 * 1024 * 1024)])()
    assert.equal(five.statusCode, 201, five.body.slice(0, 300))
    assert.equal(five.json().data.length, 5, '5 slots, the largest exactly 15 MiB, are the most one request gets')
  })

  test('JSON nested 10,000 deep is 400 within 1 s; a search made of regex and wildcard characters is answered within 1 s', async () => {
    const c = await customer()
    const deep = `{"items":${'['.repeat(10_000)}${']'.repeat(10_000)},"shippingAddress":{},"paymentMode":"COD"}`
    await refused(400, `${PREFIX}/orders`, () =>
      t.app.inject({ method: 'POST', url: `${PREFIX}/orders`, headers: { ...customerHeaders(c), 'x-idempotency-key': randomUUID(), 'content-type': 'application/json' }, payload: deep }),
    )
    const partner = { 'x-api-key': shop.partner.apiKey }
    for (const q of ['(a+)+$'.repeat(33), '%_'.repeat(100), '.*'.repeat(100), 'a'.repeat(200), Array(66).fill('ab').join(' ')]) {
      for (const url of [`${PREFIX}/search?q=${encodeURIComponent(q)}`, `${PREFIX}/products?search=${encodeURIComponent(q)}`]) {
        const [res, ms] = await timed(() => t.app.inject({ method: 'GET', url, headers: partner }))
        assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 200)}`)
        assert.ok(ms <= 1000, `${url.slice(0, 60)}: ${ms.toFixed(0)} ms`)
      }
    }
  })

  test('a signed carrier callback with its fields nested 10,000 deep, objects where text goes, an 800 kB event id, or JSON that is not an object is 200 within 1 s, kept unapplied, and moves nothing', async () => {
    const placed = await order(await customer(), { items: [line(bulkIds[0]!)], shippingAddress: ADDRESS, paymentMode: 'COD' })
    assert.equal(placed.statusCode, 201, placed.body)
    const admin = { authorization: `Bearer ${adminToken}` }
    const booked = await t.app.inject({ method: 'POST', url: `${PREFIX}/admin/orders/${placed.json().data.id}/shipments`, headers: admin, payload: { weightGrams: 100 }, remoteAddress: freshAddress() })
    assert.equal(booked.statusCode, 201, booked.body)
    const parcel = booked.json().data
    // Signed with the sandbox carrier's key (HMAC-SHA256(AUTH_SECRET, 'sandbox-carrier')): only the body is wrong.
    const key = createHmac('sha256', t.deps.config.authSecret).update('sandbox-carrier').digest('hex')
    const event = (fields: string) => `{"id":"sbxtrk_${randomUUID()}","awb":"${parcel.awb}","status":"DELIVERED",${fields}}`
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`
    for (const body of [
      event(`"occurredAt":${deep}`),
      event(`"occurredAt":"${new Date().toISOString()}","location":${deep}`),
      event(`"occurredAt":"${new Date().toISOString()}","note":{"text":"left at the door"}`),
      event(`"occurredAt":"${new Date().toISOString()}","location":["Hub"]`),
      // An event id of 800 kB (its unique index cannot hold it).
      event(`"occurredAt":"${new Date().toISOString()}"`).replace(/"id":"[^"]*"/, `"id":"${'😀'.repeat(200_000)}"`),
      // JSON, signed, but not an object (reading a field of null threw: a 500 the fuzzer found).
      'null',
      '5',
      '[]',
      '"DELIVERED"',
    ]) {
      const url = `${PREFIX}/shipping/webhooks/sandbox`
      const headers = { 'content-type': 'application/json', 'x-sandbox-carrier-signature': signPayload(key, Math.floor(Date.now() / 1000), body) }
      const [res, ms] = await timed(() => t.app.inject({ method: 'POST', url, headers, payload: body, remoteAddress: freshAddress() }))
      // Signed, so never refused (decision 0044): kept for the back office, applied to nothing.
      assert.equal(res.statusCode, 200, `${body.slice(0, 120)}: ${res.body}`)
      assert.match(String(res.json().message), /^Tracking kept, not applied: the body could not be read \(/)
      assert.ok(ms <= 1000, `${ms.toFixed(0)} ms`)
    }
    const after = await t.app.inject({ method: 'GET', url: `${PREFIX}/admin/shipments/${parcel.id}`, headers: admin, remoteAddress: freshAddress() })
    assert.equal(after.json().data.status, 'CREATED', 'nothing applied')
    assert.deepEqual(after.json().data.events, [])
  })

  test('1,000 bodies of 1 MiB + 1 in a row are each 413 (or 429 once the rate limit is spent), and resident memory grows less than 50 MB', async () => {
    const c = await customer()
    const headers = { ...customerHeaders(c), 'content-type': 'application/json' }
    const oversized = JSON.stringify({ shippingAddress: { line2: 'x'.repeat(1_048_577) } })
    const rssBefore = process.memoryUsage().rss
    let slowest = 0
    const statuses = { 413: 0, 429: 0 }
    for (let i = 0; i < 1000; i++) {
      const [res, ms] = await timed(() => t.app.inject({ method: 'POST', url: `${PREFIX}/orders`, headers: { ...headers, 'x-idempotency-key': randomUUID() }, payload: oversized }))
      assert.ok(res.statusCode === 413 || res.statusCode === 429, `answer ${i}: ${res.statusCode}`)
      if (res.statusCode === 429) assert.ok(Number(res.headers['retry-after']) > 0, 'a 429 says when to retry')
      statuses[res.statusCode]++
      slowest = Math.max(slowest, ms)
    }
    const grownMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024
    console.log(`SE-05 flood: ${statuses[413]} x 413, ${statuses[429]} x 429, slowest ${slowest.toFixed(0)} ms, RSS grew ${grownMb.toFixed(1)} MB`)
    assert.ok(statuses[413] >= 100, 'the body limit answered before the rate limit did')
    assert.ok(slowest <= 1000, `slowest ${slowest.toFixed(0)} ms`)
    assert.ok(grownMb < 50, `RSS grew ${grownMb.toFixed(1)} MB`)
    assert.equal((await t.deps.database.db.select({ n: count() }).from(orders).where(eq(orders.userId, c.userId)))[0]!.n, 0)
  })

  describe('slow clients on a real socket', () => {
    let port: number
    before(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' })
      port = (t.app.server.address() as { port: number }).port
    })

    /** Opens a socket, writes `head` at once, then `trickle` one byte every 100 ms; resolves when the server closes it. */
    function slowClient(head: string, trickle: string): Promise<{ closedAfterMs: number; answer: string; bytesSent: number }> {
      return new Promise((resolve, reject) => {
        const socket: Socket = connect(port, '127.0.0.1')
        const start = performance.now()
        let answer = ''
        let sent = 0
        let timer: NodeJS.Timeout | undefined
        const giveUp = setTimeout(() => {
          clearInterval(timer)
          socket.destroy()
          reject(new Error(`the server kept the slow connection open for 15 s (${sent} bytes trickled)`))
        }, 15_000)
        socket.on('connect', () => {
          socket.write(head)
          timer = setInterval(() => {
            if (sent < trickle.length && socket.writable) socket.write(trickle[sent++]!)
          }, 100)
        })
        socket.on('data', (chunk) => (answer += chunk.toString()))
        socket.on('error', () => {}) // a reset is a close too
        socket.on('close', () => {
          clearInterval(timer)
          clearTimeout(giveUp)
          resolve({ closedAfterMs: performance.now() - start, answer, bytesSent: sent })
        })
      })
    }

    test('a slow-loris client trickling its headers is cut off by the headers timeout', async () => {
      const { closedAfterMs, answer } = await slowClient(`GET ${PREFIX}/health/live HTTP/1.1\r\nHost: localhost\r\n`, `X-Slow: ${'a'.repeat(500)}`)
      assert.ok(closedAfterMs >= HEADERS_TIMEOUT_MS - 100, `closed after ${closedAfterMs.toFixed(0)} ms: before the timeout, so by something else (${answer.slice(0, 80)})`)
      assert.ok(closedAfterMs <= HEADERS_TIMEOUT_MS + CHECK_INTERVAL_MS + 1000, `closed after ${closedAfterMs.toFixed(0)} ms, headers timeout ${HEADERS_TIMEOUT_MS} ms`)
      assert.ok(answer === '' || answer.startsWith('HTTP/1.1 408'), `answer: ${answer.slice(0, 80)}`)
    })

    test('a client trickling its body is cut off by the request timeout', async () => {
      const head = `POST ${PREFIX}/auth/refresh HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`
      const { closedAfterMs, answer } = await slowClient(head, `{"refreshToken":"${'r'.repeat(980)}"}`)
      assert.ok(closedAfterMs >= REQUEST_TIMEOUT_MS - 100, `closed after ${closedAfterMs.toFixed(0)} ms: before the timeout (${answer.slice(0, 80)})`)
      assert.ok(closedAfterMs <= REQUEST_TIMEOUT_MS + CHECK_INTERVAL_MS + 1000, `closed after ${closedAfterMs.toFixed(0)} ms, request timeout ${REQUEST_TIMEOUT_MS} ms`)
      assert.ok(answer === '' || answer.startsWith('HTTP/1.1 408'), `answer: ${answer.slice(0, 80)}`)
    })

    test('a client that sends its request at a normal pace is served over the same listener', async () => {
      const res = await fetch(`http://127.0.0.1:${port}${PREFIX}/health/live`)
      assert.equal(res.status, 200)
    })
  })
})

describe('a coupon redeemed by more orders at once than it allows', () => {
  async function givenCoupon(limits: { totalUsageLimit?: number; perCustomerLimit?: number }) {
    const code = `RACE${randomUUID().slice(0, 8).toUpperCase()}`
    const res = await t.app.inject({
      method: 'POST',
      url: `${PREFIX}/admin/partners/${shop.partner.partnerId}/coupons`,
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { code, kind: 'FLAT', value: '50.00', ...limits },
    })
    assert.equal(res.statusCode, 201, res.body)
    return { code, id: res.json().data.id as string }
  }
  const couponOrder = (c: CustomerFixture, code: string) => order(c, { items: [{ productId: shop.ids.earbuds!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD', couponCode: code })
  const db = () => t.deps.database.db

  test('a coupon with a total limit of 4 used by 12 customers at once: exactly 4 orders get it, 8 get the coupon error, 0 5xx', async () => {
    const LIMIT = 4
    const { code, id } = await givenCoupon({ totalUsageLimit: LIMIT })
    const customers = await Promise.all(Array.from({ length: 12 }, () => customer()))
    const answers = await Promise.all(customers.map((c) => couponOrder(c, code)))
    const statuses = answers.map((r) => r.statusCode)
    assert.deepEqual(statuses.filter((s) => s >= 500), [], 'no 5xx')
    assert.equal(statuses.filter((s) => s === 201).length, LIMIT, `statuses: ${statuses}`)
    for (const refused of answers.filter((r) => r.statusCode !== 201)) {
      assert.equal(refused.statusCode, 400, refused.body)
      assert.match(String(assertErrorBody(refused, 400, `${PREFIX}/orders`).message), /^Coupon (\S+ )?has been fully used$/)
    }
    for (const created of answers.filter((r) => r.statusCode === 201)) assert.equal(created.json().data.couponDiscount, '50.00')
    const [coupon] = await db().select().from(coupons).where(eq(coupons.id, id))
    assert.equal(coupon!.usedCount, LIMIT)
    assert.equal((await db().select({ n: count() }).from(couponRedemptions).where(eq(couponRedemptions.couponId, id)))[0]!.n, LIMIT)
    assert.equal((await db().select({ n: count() }).from(orders).where(eq(orders.couponCode, code)))[0]!.n, LIMIT)
  })

  test('a coupon of one use per customer sent in 6 orders at once by one customer: exactly 1 order gets it', async () => {
    const { code, id } = await givenCoupon({ perCustomerLimit: 1 })
    const c = await customer()
    const answers = await Promise.all(Array.from({ length: 6 }, () => couponOrder(c, code)))
    const statuses = answers.map((r) => r.statusCode)
    assert.deepEqual(statuses.filter((s) => s >= 500), [], 'no 5xx')
    assert.equal(statuses.filter((s) => s === 201).length, 1, `statuses: ${statuses}`)
    for (const refused of answers.filter((r) => r.statusCode !== 201)) {
      assert.equal(refused.statusCode, 400, refused.body)
      assert.match(String(assertErrorBody(refused, 400, `${PREFIX}/orders`).message), /^Coupon \S+ has already been used the most times allowed for this customer$/)
    }
    const mine = and(eq(couponRedemptions.couponId, id), eq(couponRedemptions.userId, c.userId))
    assert.equal((await db().select({ n: count() }).from(couponRedemptions).where(mine))[0]!.n, 1)
    // Another customer still may use it.
    assert.equal((await couponOrder(await customer(), code)).statusCode, 201)
  })
})
