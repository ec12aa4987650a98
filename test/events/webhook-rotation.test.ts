// The webhook signing secret rotates with an overlap (deliveries carry a signature with the new and
// with the previous secret until it ends), and a ping tests an endpoint at once, answering the
// receiver's status and latency. Back office and the partner's own server alike.
import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { recordEvent } from '../../src/modules/events/index.ts'
import { verifySignature } from '../../src/modules/events/signing.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'

interface Received {
  body: string
  headers: IncomingMessage['headers']
}
let received: Received[] = []
let status = 200
let receiver: Server
let url: string
const clock = new ManualClock(new Date('2026-11-25T10:00:00Z'))
let t: TestApp
let admin: string

before(async () => {
  receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      received.push({ body, headers: req.headers })
      res.statusCode = status
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`
  t = await createTestApp({ clock, env: { PARTNER_SECRET_OVERLAP_SECONDS: '3600', WEBHOOK_TIMEOUT_MS: '2000' } })
  admin = await givenAdminToken(t.app, t.deps, `rotation-${Date.now()}@example.test`, 'ADMIN')
})
after(async () => {
  await t.close()
  receiver.closeAllConnections()
  await new Promise((resolve) => receiver.close(resolve))
})

const asAdmin = (method: 'POST' | 'PUT', path: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${path}`, headers: { authorization: `Bearer ${admin}` }, ...(payload ? { payload } : {}) })
const asPartner = (p: PartnerFixture, method: 'POST' | 'PUT', path: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/partner${path}`, headers: { 'x-partner-id': p.partnerId, 'x-partner-secret': p.secret }, ...(payload ? { payload } : {}) })

async function deliverOne(partnerId: string): Promise<Received> {
  received = []
  await t.deps.database.db.transaction((tx) => recordEvent(tx, { partnerId, type: 'webhook.test', subjectId: partnerId, data: { n: 1 }, at: clock.now() }))
  while ((await t.app.dispatcher.dispatchOnce()) > 0);
  assert.equal(received.length, 1)
  return received[0]!
}
const verifies = (secret: string, r: Received) => verifySignature(secret, String(r.headers['x-commerce-signature']), r.body, Math.floor(clock.now().getTime() / 1000))

describe('webhook secret rotation', () => {
  test('deliveries are signed with the new and the previous secret until the overlap ends, then with the new one only', async () => {
    const partner = await givenPartner(t.deps, 'Rotating')
    const first = (await asAdmin('PUT', `/partners/${partner.partnerId}/webhook`, { url })).json().data.secret as string
    assert.ok(verifies(first, await deliverOne(partner.partnerId)))

    const rotated = await asAdmin('POST', `/partners/${partner.partnerId}/webhook/rotate-secret`)
    assert.equal(rotated.statusCode, 200)
    const second = rotated.json().data.secret as string
    assert.equal(rotated.json().data.previousSecretExpiresAt, new Date(clock.now().getTime() + 3600_000).toISOString())
    const during = await deliverOne(partner.partnerId)
    assert.equal(String(during.headers['x-commerce-signature']).split(',v1=').length, 3, 'two v1 signatures')
    assert.ok(verifies(second, during), 'a receiver with the new secret accepts it')
    assert.ok(verifies(first, during), 'a receiver still on the previous secret accepts it')

    clock.advance(3600_000 + 1000)
    const afterOverlap = await deliverOne(partner.partnerId)
    assert.ok(verifies(second, afterOverlap))
    assert.ok(!verifies(first, afterOverlap), 'the previous secret signs nothing after the overlap')
  })
})

describe('ping', () => {
  test("answers the receiver's status and latency, signed like an event; from the back office and the partner's server", async () => {
    const partner = await givenPartner(t.deps, 'Pinging')
    const secret = (await asPartner(partner, 'PUT', '/webhook', { url })).json().data.secret as string
    received = []
    status = 200
    const ping = await asAdmin('POST', `/partners/${partner.partnerId}/webhook/ping`)
    assert.equal(ping.statusCode, 200, ping.body)
    const answer = ping.json().data
    assert.equal(answer.delivered, true)
    assert.equal(answer.statusCode, 200)
    assert.equal(answer.error, null)
    assert.ok(Number.isInteger(answer.durationMs) && answer.durationMs >= 0)
    assert.equal(received.length, 1)
    assert.equal(JSON.parse(received[0]!.body).type, 'ping')
    assert.ok(verifies(secret, received[0]!))

    status = 503
    const failing = (await asPartner(partner, 'POST', '/webhook/ping')).json().data
    assert.deepEqual({ delivered: failing.delivered, statusCode: failing.statusCode, error: failing.error }, { delivered: false, statusCode: 503, error: 'HTTP 503' })
    status = 200
  })

  test('without a URL it is 409; an unreachable receiver is answered, not an error', async () => {
    const partner = await givenPartner(t.deps, 'No hook')
    assert.equal((await asPartner(partner, 'POST', '/webhook/ping')).statusCode, 409)
    await asAdmin('PUT', `/partners/${partner.partnerId}/webhook`, { url: 'http://127.0.0.1:9/closed' })
    const down = await asAdmin('POST', `/partners/${partner.partnerId}/webhook/ping`)
    assert.equal(down.statusCode, 200)
    assert.equal(down.json().data.delivered, false)
    assert.equal(down.json().data.statusCode, null)
  })
})

describe('the events of customers and tickets', () => {
  test('customer.created, ticket.created, ticket.message.created and ticket.status_changed are delivered, signed, with the objects', async () => {
    const partner = await givenPartner(t.deps, 'Eventful')
    const secret = (await asPartner(partner, 'PUT', '/webhook', { url })).json().data.secret as string
    const customer = await givenCustomer(t.app, partner)
    const opened = await t.app.inject({ method: 'POST', url: '/api/v1/support/tickets', headers: customerHeaders(customer), payload: { topic: 'Where is my order', detail: 'Late' } })
    const ticketId = opened.json().data.id as string
    assert.equal((await asPartner(partner, 'POST', `/support/tickets/${ticketId}/messages`, { body: 'On its way' })).statusCode, 201)
    received = []
    while ((await t.app.dispatcher.dispatchOnce()) > 0);
    const bodies = received.map((r) => ({ r, body: JSON.parse(r.body) as { type: string; data: Record<string, unknown> } }))
    // The manual clock stands still here: events of one instant go out in id order, not in the order written.
    assert.deepEqual(bodies.map((b) => b.body.type).sort(), ['customer.created', 'ticket.created', 'ticket.message.created', 'ticket.status_changed'])
    for (const { r } of bodies) assert.ok(verifies(secret, r))
    const byType = Object.fromEntries(bodies.map((b) => [b.body.type, b.body.data]))
    assert.equal((byType['customer.created']!.customer as { id: string }).id, customer.userId)
    assert.deepEqual(byType['ticket.created']!.ticket, opened.json().data)
    assert.equal((byType['ticket.status_changed']!.ticket as { status: string }).status, 'IN_PROGRESS')
    assert.equal(byType['ticket.status_changed']!.by, `PARTNER:${partner.partnerId}`)
    assert.equal((byType['ticket.message.created']!.message as { body: string }).body, 'On its way')
  })
})
