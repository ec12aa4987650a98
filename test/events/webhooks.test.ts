import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { after, before, beforeEach, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { recordEvent } from '../../src/modules/events/index.ts'
import { Dispatcher, LEASE_MS } from '../../src/modules/events/dispatcher.ts'
import { eventRepo } from '../../src/modules/events/repo.ts'
import { verifySignature } from '../../src/modules/events/signing.ts'
import { setPartnerWebhook } from '../../src/modules/partners/index.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenAdminToken, givenCustomer, givenPartner, type PartnerFixture, randomPhone } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'

interface Received {
  body: string
  headers: IncomingMessage['headers']
}

/** A partner's webhook receiver: records every request and answers with `behaviour`. */
let received: Received[] = []
let behaviour: (req: IncomingMessage, res: ServerResponse, n: number) => void = (_req, res) => res.end('ok')
let receiver: Server
let receiverUrl: string
const hanging: ServerResponse[] = []

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop
let admin: string
let secret: string

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = admin) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${token}` }, payload })
const db = () => t.deps.database.db
const eventsOf = (partnerId: string) => db().query.outboxEvents.findMany({ where: (e, { eq }) => eq(e.partnerId, partnerId), orderBy: (e, { asc }) => [asc(e.createdAt), asc(e.id)] })

before(async () => {
  receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      received.push({ body, headers: req.headers })
      behaviour(req, res, received.length)
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`
  t = await createTestApp({ clock, env: { WEBHOOK_TIMEOUT_MS: '300', RATE_LIMIT_AUTH_MAX: '100000' } })
  shop = await givenShop(t)
  admin = await givenAdminToken(t.app, t.deps, 'events@admin.test', 'ADMIN')
  const res = await api('PUT', `/partners/${shop.partner.partnerId}/webhook`, { url: receiverUrl })
  assert.equal(res.statusCode, 200, res.body)
  secret = res.json().data.secret
  await givenCustomer(t.app, shop.partner, { phone: buyerPhone })
})
after(async () => {
  for (const res of hanging) res.destroy()
  await t.close()
  receiver.closeAllConnections()
  await new Promise((resolve) => receiver.close(resolve))
})
beforeEach(async () => {
  // Anything left over from the previous test is delivered first, then the slate is clean.
  behaviour = (_req, res) => res.end('ok')
  clock.advance(2 * 3_600_000)
  await relogin()
  while ((await t.app.dispatcher.dispatchOnce()) > 0) {
    /* drain */
  }
  received = []
})

/** Back-office tokens last 8 hours of (manual) clock time: log in again. */
async function relogin() {
  const login = await t.app.inject({ method: 'POST', url: '/api/v1/admin/auth/login', payload: { email: 'events@admin.test', password: 'long-enough-password' } })
  admin = login.json().data.accessToken
}

/** The buyer of codOrder, made once (its customer.created event is drained before the first test); each order logs it in again. */
const buyerPhone = randomPhone()
async function codOrder() {
  const buyer = await givenCustomer(t.app, shop.partner, { phone: buyerPhone })
  const res = await placeOrder(t, buyer, { items: [{ productId: shop.ids.atta!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data
}

describe('webhook configuration', () => {
  test('the secret is shown once; GET never shows it; bad URLs are refused', async () => {
    assert.match(secret, /^whsec_/)
    const shown = (await api('GET', `/partners/${shop.partner.partnerId}/webhook`)).json().data
    assert.deepEqual(shown, { partnerId: shop.partner.partnerId, url: receiverUrl, hasSecret: true })
    const again = (await api('PUT', `/partners/${shop.partner.partnerId}/webhook`, { url: receiverUrl })).json().data
    assert.equal(again.secret, undefined, 'changing the URL keeps the secret')
    for (const [url, message] of [['ftp://example.com/x', 'url must use http or https'], ['not a url', 'url must be an absolute URL'], ['https://user:pw@example.com/', 'url must not contain credentials']]) {
      const res = await api('PUT', `/partners/${shop.partner.partnerId}/webhook`, { url })
      assert.equal(res.statusCode, 400)
      assert.deepEqual(res.json().message, [message])
    }
    assert.equal((await api('PUT', '/partners/prt_nope/webhook', { url: receiverUrl })).statusCode, 404)
    const support = await givenAdminToken(t.app, t.deps, 'support@events.test', 'SUPPORT')
    assert.equal((await api('GET', '/events', undefined, support)).statusCode, 403)
  })
})

describe('delivery', () => {
  test('an order status change carries the order as the API answers it after the move', async () => {
    const order = await codOrder()
    assert.equal((await api('POST', `/orders/${order.id}/status`, { status: 'PACKED' })).statusCode, 200)
    const [event] = await db().query.outboxEvents.findMany({ where: (e, { and, eq }) => and(eq(e.subjectId, order.id), eq(e.type, 'order.status_changed')) })
    const shown = event!.data.order as { id: string; status: string; statusHistory: { status: string }[] }
    assert.equal(shown.id, order.id)
    assert.equal(shown.status, 'PACKED')
    assert.deepEqual(shown.statusHistory.map((h) => h.status), ['CONFIRMED', 'PACKED'])
    while ((await t.app.dispatcher.dispatchOnce()) > 0);
  })

  test('an order event arrives signed, verifiable, with {id, type, createdAt, data}', async () => {
    const order = await codOrder()
    assert.equal(await t.app.dispatcher.dispatchOnce(), 1)
    assert.equal(received.length, 1)
    const [got] = received
    const body = JSON.parse(got!.body)
    assert.equal(body.type, 'order.created')
    assert.equal(body.data.orderId, order.id)
    assert.equal(body.data.orderNumber, order.orderNumber)
    const { paymentClientAction: _action, ...answered } = order
    assert.deepEqual(body.data.order, answered, 'the order as the API answered it')
    assert.deepEqual(Object.keys(body).sort(), ['createdAt', 'data', 'id', 'type'])
    assert.equal(got!.headers['x-commerce-event-id'], body.id)
    assert.equal(got!.headers['x-commerce-event-type'], 'order.created')
    const signature = String(got!.headers['x-commerce-signature'])
    const now = Math.floor(clock.now().getTime() / 1000)
    assert.ok(verifySignature(secret, signature, got!.body, now))
    assert.equal(verifySignature(secret, signature, got!.body.replace('order.created', 'order.cancelled'), now), false)
    assert.equal(verifySignature('whsec_wrong', signature, got!.body, now), false)
    const stored = (await api('GET', `/events/${body.id}`)).json().data
    assert.equal(stored.status, 'DELIVERED')
    assert.deepEqual(stored.deliveries.map((d: { statusCode: number }) => d.statusCode), [200])
    assert.equal(await t.app.dispatcher.dispatchOnce(), 0, 'a delivered event is not sent again')
  })

  test('a receiver that answers 500 then 200 gets the event again after the backoff', async () => {
    behaviour = (_req, res, n) => {
      res.statusCode = n === 1 ? 500 : 200
      res.end()
    }
    await codOrder()
    await t.app.dispatcher.dispatchOnce()
    const [event] = (await api('GET', `/events?partnerId=${shop.partner.partnerId}&status=PENDING`)).json().data
    assert.equal(event.attempts, 1)
    assert.equal(event.lastError, 'HTTP 500')
    assert.equal(await t.app.dispatcher.dispatchOnce(), 0, 'not before the backoff')
    clock.advance(7000)
    assert.equal(await t.app.dispatcher.dispatchOnce(), 1)
    assert.equal(received.length, 2)
    assert.equal(JSON.parse(received[0]!.body).id, JSON.parse(received[1]!.body).id)
    const stored = (await api('GET', `/events/${event.id}`)).json().data
    assert.equal(stored.status, 'DELIVERED')
    assert.deepEqual(stored.deliveries.map((d: { statusCode: number }) => d.statusCode), [500, 200])
  })

  test('a receiver that hangs is cut off by the timeout and retried', async () => {
    behaviour = (_req, res, n) => {
      if (n === 1) hanging.push(res)
      else res.end('ok')
    }
    await codOrder()
    const started = Date.now()
    await t.app.dispatcher.dispatchOnce()
    assert.ok(Date.now() - started < 3000)
    const [event] = (await api('GET', `/events?partnerId=${shop.partner.partnerId}&status=PENDING`)).json().data
    assert.equal(event.lastError, 'no answer within 300 ms')
    clock.advance(7000)
    await t.app.dispatcher.dispatchOnce()
    assert.equal((await api('GET', `/events/${event.id}`)).json().data.status, 'DELIVERED')
  })

  test('a redirect is not followed: it counts as a failed delivery', async () => {
    behaviour = (_req, res, n) => {
      if (n === 1) {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' })
        res.end()
      } else res.end('ok')
    }
    await codOrder()
    await t.app.dispatcher.dispatchOnce()
    assert.equal(received.length, 1)
    const [event] = (await api('GET', `/events?partnerId=${shop.partner.partnerId}&status=PENDING`)).json().data
    assert.equal(event.lastError, 'HTTP 302')
  })

  test("one dispatcher sends a partner's events in creation order", async () => {
    for (let i = 0; i < 4; i++) await codOrder()
    await t.app.dispatcher.dispatchOnce()
    const created = (await eventsOf(shop.partner.partnerId)).filter((e) => e.status === 'DELIVERED').slice(-4).map((e) => e.id)
    assert.deepEqual(received.map((r) => JSON.parse(r.body).id), created)
  })

  test('two dispatchers at once deliver each event exactly once', async () => {
    for (let i = 0; i < 8; i++) await codOrder()
    const second = new Dispatcher(t.deps)
    const [a, b] = await Promise.all([t.app.dispatcher.dispatchOnce(5), second.dispatchOnce(5)])
    assert.equal(a + b, 8)
    await Promise.all([t.app.dispatcher.dispatchOnce(), second.dispatchOnce()])
    const ids = received.map((r) => JSON.parse(r.body).id)
    assert.equal(ids.length, 8)
    assert.equal(new Set(ids).size, 8)
  })

  test('a node that dies after claiming events holds them back for the 15 s lease only; then another node sends them', async () => {
    // The lease a round takes, seen by the receiver while the event is on its way.
    let leasedFor: number | undefined
    behaviour = (_req, res) => {
      void eventsOf(shop.partner.partnerId).then((events) => {
        leasedFor = events.find((e) => e.status === 'PENDING')!.lockedUntil!.getTime() - clock.now().getTime()
        res.end('ok')
      })
    }
    await codOrder()
    assert.equal(await t.app.dispatcher.dispatchOnce(), 1)
    assert.equal(leasedFor, LEASE_MS)
    assert.equal(LEASE_MS, 15_000)
    behaviour = (_req, res) => res.end('ok')
    received = []

    for (let i = 0; i < 3; i++) await codOrder()
    // The dead node's claim: what dispatchOnce does first, with the lease it uses.
    const now = clock.now()
    const claimed = await eventRepo.claim(db(), now, new Date(now.getTime() + LEASE_MS), 50)
    assert.equal(claimed.length, 3)
    assert.equal(await t.app.dispatcher.dispatchOnce(), 0, 'leased to the dead node')
    clock.advance(LEASE_MS - 1000)
    assert.equal(await t.app.dispatcher.dispatchOnce(), 0, 'still leased')
    clock.advance(1000)
    assert.equal(await t.app.dispatcher.dispatchOnce(), 3, 'the lease ran out')
    assert.deepEqual(received.map((r) => JSON.parse(r.body).id), claimed.map((e) => e.id))
  })

  test("a node whose lease ran out and was taken over neither gives the event back nor overwrites the new holder's outcome", async () => {
    await codOrder()
    const first = clock.now()
    const leaseA = new Date(first.getTime() + LEASE_MS)
    const [event] = await eventRepo.claim(db(), first, leaseA, 1)
    clock.advance(LEASE_MS)
    const leaseB = new Date(clock.now().getTime() + LEASE_MS)
    assert.equal((await eventRepo.claim(db(), clock.now(), leaseB, 1))[0]?.id, event!.id, 'node B took it over')
    // Node A, late: its give-back and its outcome do not apply to B's claim.
    await eventRepo.release(db(), [event!.id], leaseA)
    assert.equal(await eventRepo.update(db(), event!.id, { status: 'PENDING', lockedUntil: null, lastError: 'HTTP 500' }, leaseA), null)
    const held = (await eventsOf(shop.partner.partnerId)).find((e) => e.id === event!.id)!
    assert.equal(held.lockedUntil?.getTime(), leaseB.getTime())
    assert.equal(held.attempts, 2)
    assert.equal(held.lastError, null)
    // B's own outcome applies.
    assert.equal((await eventRepo.update(db(), event!.id, { status: 'DELIVERED', deliveredAt: clock.now(), lockedUntil: null }, leaseB))?.status, 'DELIVERED')
  })

  test('a round starts no delivery it could not finish inside its lease: the rest go back unsent and uncounted, in order', async () => {
    behaviour = (_req, res) => setTimeout(() => res.end('ok'), 100)
    for (let i = 0; i < 10; i++) await codOrder()
    const pending = (await eventsOf(shop.partner.partnerId)).filter((e) => e.status === 'PENDING').map((e) => e.id)
    assert.equal(pending.length, 10)
    // Timeout 300 ms: a lease of 900 ms leaves 300 ms to start deliveries of 100 ms or more each.
    assert.equal(await t.app.dispatcher.dispatchOnce(50, 900), 10, 'all ten were claimed')
    const sent = received.length
    assert.ok(sent >= 1 && sent <= 5, `a few were sent (${sent})`)
    const rest = (await eventsOf(shop.partner.partnerId)).filter((e) => e.status === 'PENDING')
    assert.deepEqual(rest.map((e) => e.id), pending.slice(sent))
    for (const e of rest) {
      assert.equal(e.lockedUntil, null, 'claimable again at once')
      assert.equal(e.attempts, 0, 'not counted as an attempt')
    }
    while ((await t.app.dispatcher.dispatchOnce()) > 0) {
      /* the next rounds send the rest */
    }
    assert.deepEqual(received.map((r) => JSON.parse(r.body).id), pending, 'each once, in creation order')
  })

  test('events after 24 hours of failures are FAILED; replay from the back office re-sends them', async () => {
    behaviour = (_req, res) => {
      res.statusCode = 503
      res.end()
    }
    await codOrder()
    await t.app.dispatcher.dispatchOnce()
    for (let i = 0; i < 40; i++) {
      clock.advance(3_600_000)
      await t.app.dispatcher.dispatchOnce()
    }
    await relogin()
    const failed = (await api('GET', `/events?partnerId=${shop.partner.partnerId}&status=FAILED`)).json().data
    assert.equal(failed.length, 1)
    const attempts = failed[0].attempts
    assert.ok(attempts >= 5 && attempts <= 30, `attempts ${attempts}`)
    behaviour = (_req, res) => res.end('ok')
    const requeued = await api('POST', '/events/replay-failed', { partnerId: shop.partner.partnerId })
    assert.deepEqual(requeued.json().data, { requeued: 1 })
    received = []
    await t.app.dispatcher.dispatchOnce()
    assert.equal(received.length, 1)
    assert.equal((await api('GET', `/events/${failed[0].id}`)).json().data.status, 'DELIVERED')

    const replay = await api('POST', `/events/${failed[0].id}/replay`)
    assert.equal(replay.statusCode, 200)
    await t.app.dispatcher.dispatchOnce()
    assert.equal(received.length, 2, 'a delivered event can be replayed too')
    assert.equal(JSON.parse(received[1]!.body).id, failed[0].id)
    assert.equal((await api('POST', '/events/evt_nope/replay')).statusCode, 404)
  })

  test('a rolled-back change leaves no event', async () => {
    const partner: PartnerFixture = await givenPartner(t.deps, 'Rollback partner', shop.catalogId)
    await assert.rejects(
      db().transaction(async (tx) => {
        await recordEvent(tx, { partnerId: partner.partnerId, type: 'order.created', subjectId: 'ord_x', data: {}, at: clock.now() })
        throw new Error('the change failed')
      }),
    )
    assert.equal((await eventsOf(partner.partnerId)).length, 0)
  })

  test('a test event from the back office; a rotated secret signs the next delivery', async () => {
    const rotated = (await api('POST', `/partners/${shop.partner.partnerId}/webhook/rotate-secret`)).json().data.secret
    assert.notEqual(rotated, secret)
    const queued = await api('POST', `/partners/${shop.partner.partnerId}/webhook/test`)
    assert.equal(queued.statusCode, 201, queued.body)
    await t.app.dispatcher.dispatchOnce()
    const [got] = received
    assert.equal(JSON.parse(got!.body).type, 'webhook.test')
    const now = Math.floor(clock.now().getTime() / 1000)
    assert.ok(verifySignature(rotated, String(got!.headers['x-commerce-signature']), got!.body, now))
    // The previous secret signs too while the rotation's overlap lasts (its end: webhook-rotation.test.ts).
    assert.ok(verifySignature(secret, String(got!.headers['x-commerce-signature']), got!.body, now))
    assert.equal(verifySignature('whsec_another', String(got!.headers['x-commerce-signature']), got!.body, now), false)
    secret = rotated
  })

  test('events of a partner without a webhook URL are kept, not sent', async () => {
    const partner = await givenPartner(t.deps, 'Quiet partner', shop.catalogId)
    const customer = await givenCustomer(t.app, partner)
    await placeOrder(t, customer, { items: [{ productId: shop.ids.atta!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
    await t.app.dispatcher.dispatchOnce()
    assert.equal(received.length, 0)
    const [event] = await eventsOf(partner.partnerId)
    assert.equal(event!.status, 'PENDING')
    assert.equal(event!.attempts, 0)
    assert.equal((await api('POST', `/partners/${partner.partnerId}/webhook/test`)).statusCode, 409)
  })
})

describe('outbound guard', () => {
  test('private and loopback addresses are refused when set and when sent, when not allowed; https only when http is not allowed', async () => {
    const guarded = await createTestApp({ clock, env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', WEBHOOK_ALLOW_HTTP: 'false', WEBHOOK_TIMEOUT_MS: '500' } })
    try {
      const token = await givenAdminToken(guarded.app, guarded.deps, 'guard@admin.test', 'ADMIN')
      const partner = await givenPartner(guarded.deps, 'Guarded partner')
      const put = (url: string) => guarded.app.inject({ method: 'PUT', url: `/api/v1/admin/partners/${partner.partnerId}/webhook`, headers: { authorization: `Bearer ${token}` }, payload: { url } })
      const http = await put(receiverUrl)
      assert.equal(http.statusCode, 400)
      assert.deepEqual(http.json().message, ['url must use https'])
      // Refused when set; one stored anyway (before the rule, or by hand) is refused again when sent.
      assert.equal((await put('https://partner.example/hooks')).statusCode, 200)
      for (const url of ['https://127.0.0.1:9/x', 'https://localhost:9/x', 'https://[::1]:9/x', 'https://169.254.169.254/latest']) {
        const refused = await put(url)
        assert.equal(refused.statusCode, 400, url)
        assert.deepEqual(refused.json().message, ['url must not point to a private or loopback address'])
        await setPartnerWebhook(guarded.deps.database.db, partner.partnerId, { url })
        await guarded.deps.database.db.transaction((tx) => recordEvent(tx, { partnerId: partner.partnerId, type: 'webhook.test', subjectId: partner.partnerId, data: {}, at: clock.now() }))
        await guarded.app.dispatcher.dispatchOnce()
        const events = await guarded.deps.database.db.query.outboxEvents.findMany({ where: (e, { eq }) => eq(e.partnerId, partner.partnerId), orderBy: (e, { desc }) => [desc(e.createdAt), desc(e.id)] })
        assert.match(events[0]!.lastError ?? '', /private or loopback address/, url)
      }
    } finally {
      await guarded.close()
    }
  })
})
