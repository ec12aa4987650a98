// A partner's own server (x-partner-id + x-partner-secret): its returns, tickets (read, reply as
// its support, move), webhook endpoint, events (list, read, replay) and customers. Every object of
// another partner is 404; orders are in test/orders/partner-sync.test.ts.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'

const API = '/api/v1'
let t: TestApp
let shop: Shop
let other: PartnerFixture
let customer: CustomerFixture
let stranger: CustomerFixture
let admin: string
let ticketId: string
let returnId: string
let strangerTicketId: string

before(async () => {
  t = await createTestApp()
  shop = await givenShop(t)
  other = await givenPartner(t.deps, 'Other', shop.catalogId)
  customer = await givenCustomer(t.app, shop.partner)
  stranger = await givenCustomer(t.app, other)
  admin = await givenAdminToken(t.app, t.deps, `server-api-${Date.now()}@example.test`, 'ADMIN')
  const order = await placeOrder(t, customer, { items: [{ productId: shop.ids.atta!, quantity: 2 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
  assert.equal(order.statusCode, 201, order.body)
  const { id: orderId, items } = order.json().data
  for (const status of ['PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) {
    // Every unit in a parcel (the merchant's own delivery) before SHIPPED: an order is not shipped with nothing in one.
    if (status === 'SHIPPED') assert.equal((await t.app.inject({ method: 'POST', url: `${API}/admin/orders/${orderId}/shipments`, headers: { authorization: `Bearer ${admin}` }, payload: { carrier: 'manual' } })).statusCode, 201)
    const moved = await t.app.inject({ method: 'POST', url: `${API}/admin/orders/${orderId}/status`, headers: { authorization: `Bearer ${admin}` }, payload: { status } })
    assert.equal(moved.statusCode, 200, moved.body)
  }
  const ret = await t.app.inject({ method: 'POST', url: `${API}/returns`, headers: customerHeaders(customer), payload: { orderId, reason: 'Damaged', detail: 'Torn pack', requestedResolution: 'WALLET_CREDIT', items: [{ orderItemId: items[0].id, quantity: 1, reason: 'Torn' }] } })
  assert.equal(ret.statusCode, 201, ret.body)
  returnId = ret.json().data.id
  const ticket = await t.app.inject({ method: 'POST', url: `${API}/support/tickets`, headers: customerHeaders(customer), payload: { topic: 'Damaged', detail: 'Torn pack', orderId } })
  ticketId = ticket.json().data.id
  strangerTicketId = (await t.app.inject({ method: 'POST', url: `${API}/support/tickets`, headers: customerHeaders(stranger), payload: { topic: 'Other', detail: 'Other shop' } })).json().data.id
})
after(() => t?.close())

const as = (p: PartnerFixture, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `${API}${url}`, headers: { 'x-partner-id': p.partnerId, 'x-partner-secret': p.secret }, ...(payload ? { payload } : {}) })

describe('returns and tickets of the partner', () => {
  test("lists and reads its own, filtered by customer; another partner's are 404 and never listed", async () => {
    const list = await as(shop.partner, 'GET', `/partner/returns?customerId=${customer.userId}`)
    assert.equal(list.statusCode, 200)
    assert.deepEqual(list.json().data.map((r: { id: string }) => r.id), [returnId])
    const one = await as(shop.partner, 'GET', `/partner/returns/${returnId}`)
    assert.equal(one.statusCode, 200)
    assert.equal(one.json().data.userId, customer.userId)
    assert.equal((await as(other, 'GET', `/partner/returns/${returnId}`)).statusCode, 404)
    const [created] = await t.deps.database.db.query.outboxEvents.findMany({ where: (e, { and, eq }) => and(eq(e.subjectId, returnId), eq(e.type, 'return.created')) })
    // The partner's answer adds words for its ids (the order's number, the items' names and SKUs) to what the event carries.
    const { updatedAt: _u, orderNumber, items, ...shown } = one.json().data as Record<string, unknown> & { items: Record<string, unknown>[] }
    const { updatedAt: _e, items: carriedItems, ...carried } = created!.data.return as Record<string, unknown>
    assert.deepEqual({ ...carried, userId: shown.userId, history: shown.history }, shown, 'return.created carries the return as the API answers it')
    assert.deepEqual(items.map(({ name: _n, sku: _s, ...item }) => item), carriedItems)
    assert.equal(orderNumber, (await as(shop.partner, 'GET', `/partner/orders/${(carried as { orderId: string }).orderId}`)).json().data.orderNumber)
    assert.equal('actions' in one.json().data, false, "the back office's actions are not the partner's")
    assert.deepEqual((await as(other, 'GET', '/partner/returns')).json().data, [])

    const tickets = await as(shop.partner, 'GET', '/partner/support/tickets?limit=100')
    const ids = tickets.json().data.map((tk: { id: string }) => tk.id)
    assert.ok(ids.includes(ticketId) && !ids.includes(strangerTicketId))
    assert.equal((await as(other, 'GET', `/partner/support/tickets/${ticketId}`)).statusCode, 404)
  })

  test("replies as the partner's support and moves the ticket; the customer sees the reply; another partner's ticket is 404", async () => {
    const reply = await as(shop.partner, 'POST', `/partner/support/tickets/${ticketId}/messages`, { body: 'A replacement is on its way' })
    assert.equal(reply.statusCode, 201, reply.body)
    assert.equal(reply.json().data.author, 'AGENT')
    const seen = await t.app.inject({ method: 'GET', url: `${API}/support/tickets/${ticketId}/messages`, headers: customerHeaders(customer) })
    assert.ok(seen.json().data.some((m: { body: string }) => m.body === 'A replacement is on its way'))
    const ticket = await as(shop.partner, 'GET', `/partner/support/tickets/${ticketId}`)
    assert.equal(ticket.json().data.status, 'IN_PROGRESS', 'an agent reply takes an OPEN ticket in hand')
    const resolved = await as(shop.partner, 'POST', `/partner/support/tickets/${ticketId}/status`, { status: 'RESOLVED' })
    assert.equal(resolved.statusCode, 200)
    assert.equal(resolved.json().data.status, 'RESOLVED')
    assert.equal((await as(shop.partner, 'POST', `/partner/support/tickets/${ticketId}/status`, { status: 'OPEN' })).statusCode, 409)

    assert.equal((await as(shop.partner, 'POST', `/partner/support/tickets/${strangerTicketId}/messages`, { body: 'Not mine' })).statusCode, 404)
    assert.equal((await as(shop.partner, 'POST', `/partner/support/tickets/${strangerTicketId}/status`, { status: 'IN_PROGRESS' })).statusCode, 404)
    const untouched = await t.app.inject({ method: 'GET', url: `${API}/support/tickets/${strangerTicketId}`, headers: customerHeaders(stranger) })
    assert.equal(untouched.json().data.status, 'OPEN')
  })
})

describe('webhook endpoint and events of the partner', () => {
  test('sets its endpoint (secret shown once), lists, reads and replays its own events; 404 for another partner', async () => {
    const set = await as(shop.partner, 'PUT', '/partner/webhook', { url: 'https://hooks.example.com/shop' })
    assert.equal(set.statusCode, 200, set.body)
    assert.ok(set.json().data.secret)
    const read = await as(shop.partner, 'GET', '/partner/webhook')
    assert.equal(read.json().data.url, 'https://hooks.example.com/shop')
    assert.equal(read.json().data.secret, undefined)
    assert.equal((await as(shop.partner, 'PUT', '/partner/webhook', { url: 'ftp://x' })).statusCode, 400)

    const events = await as(shop.partner, 'GET', '/partner/events?type=order.created')
    assert.equal(events.statusCode, 200)
    const [event] = events.json().data as { id: string; partnerId: string }[]
    assert.ok(event)
    assert.ok(events.json().data.every((e: { partnerId: string }) => e.partnerId === shop.partner.partnerId))
    assert.equal((await as(shop.partner, 'GET', `/partner/events/${event.id}`)).statusCode, 200)
    assert.equal((await as(shop.partner, 'POST', `/partner/events/${event.id}/replay`)).statusCode, 200)
    assert.equal((await as(other, 'GET', `/partner/events/${event.id}`)).statusCode, 404)
    assert.equal((await as(other, 'POST', `/partner/events/${event.id}/replay`)).statusCode, 404)
    assert.ok((await as(other, 'GET', '/partner/events?limit=100')).json().data.every((e: { partnerId: string }) => e.partnerId === other.partnerId))
  })

  test('rotates its own signing secret (shown once, the previous one honoured for the overlap) and removes its endpoint', async () => {
    assert.equal((await as(shop.partner, 'PUT', '/partner/webhook', { url: 'https://hooks.example.com/rotating' })).statusCode, 200)
    const rotated = await as(shop.partner, 'POST', '/partner/webhook/rotate-secret')
    assert.equal(rotated.statusCode, 200, rotated.body)
    const { secret, previousSecretExpiresAt, url } = rotated.json().data
    assert.match(secret, /^whsec_/)
    assert.equal(url, 'https://hooks.example.com/rotating')
    assert.ok(Date.parse(previousSecretExpiresAt) > Date.now())
    assert.equal((await as(shop.partner, 'GET', '/partner/webhook')).json().data.secret, undefined)
    assert.notEqual((await as(other, 'GET', '/partner/webhook')).json().data.url, 'https://hooks.example.com/rotating')

    const removed = await as(shop.partner, 'DELETE', '/partner/webhook')
    assert.equal(removed.statusCode, 200)
    assert.deepEqual({ url: removed.json().data.url, hasSecret: removed.json().data.hasSecret }, { url: null, hasSecret: true })
    assert.equal((await as(shop.partner, 'GET', '/partner/webhook')).json().data.url, null)
    assert.equal((await as(shop.partner, 'POST', '/partner/webhook/ping')).statusCode, 409)
    // Setting a URL again keeps the secret it has: none is shown.
    assert.equal((await as(shop.partner, 'PUT', '/partner/webhook', { url: 'https://hooks.example.com/again' })).json().data.secret, undefined)
  })
})

describe('customers of the partner', () => {
  test("lists and reads its own customers; another partner's is 404 and never listed", async () => {
    const list = await as(shop.partner, 'GET', `/partner/customers?phone=${customer.phone}`)
    assert.deepEqual(list.json().data.map((c: { id: string }) => c.id), [customer.userId])
    const one = await as(shop.partner, 'GET', `/partner/customers/${customer.userId}`)
    assert.equal(one.statusCode, 200)
    assert.equal(one.json().data.recentReturns[0].id, returnId)
    assert.equal((await as(shop.partner, 'GET', `/partner/customers/${stranger.userId}`)).statusCode, 404)
    const all = (await as(shop.partner, 'GET', '/partner/customers?limit=100')).json().data.map((c: { id: string }) => c.id)
    assert.ok(!all.includes(stranger.userId))
    assert.equal((await as(shop.partner, 'GET', `/partner/customers?partnerId=${other.partnerId}`)).statusCode, 400)
  })
})
