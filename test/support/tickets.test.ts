import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'
import { pathOf, png, put, requestSlots, uploadedImage } from '../helpers/uploads.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop
let agent: string

before(async () => {
  t = await createTestApp({ clock })
  shop = await givenShop(t)
  agent = await givenAdminToken(t.app, t.deps, 'agent@support.test', 'SUPPORT')
})
after(() => t.close())

const call = (customer: CustomerFixture, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: customerHeaders(customer), payload })
const asAgent = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${agent}` }, payload })

async function order(customer: CustomerFixture) {
  return (await placeOrder(t, customer, { items: [{ productId: shop.ids.atta!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
}

describe('POST /support/tickets', () => {
  test('the full evidence flow: slots, PUT, a ticket about an own order with the public URLs', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const o = await order(customer)
    const images = [await uploadedImage(t, customer, 'support'), await uploadedImage(t, customer, 'support')]
    const res = await call(customer, 'POST', '/support/tickets', { topic: 'Damaged item', detail: 'The pack was torn', orderId: o.id, imageUrls: images })
    assert.equal(res.statusCode, 201, res.body)
    const ticket = res.json().data
    assert.equal(ticket.status, 'OPEN')
    assert.equal(ticket.partnerId, shop.partner.partnerId)
    assert.equal(ticket.orderId, o.id)
    assert.deepEqual(ticket.imageUrls, images)
    assert.deepEqual(ticket.order, { id: o.id, orderNumber: o.orderNumber, status: 'CONFIRMED', totalAmount: o.totalAmount })
    const one = (await call(customer, 'GET', `/support/tickets/${ticket.id}`)).json().data
    assert.deepEqual(one, ticket)
  })

  test('imageUrls must be uploads of this customer for support, and uploaded: else 400 naming the URL', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const other = await givenCustomer(t.app, shop.partner)
    const theirs = await uploadedImage(t, other, 'support')
    const forReturns = await uploadedImage(t, customer, 'returns')
    const slot = (await requestSlots(t, customer, 'support', [{ fileName: 'x.png', contentType: 'image/png', sizeBytes: 50 }])).json().data[0]
    const cases: [string, string][] = [
      [theirs, `imageUrls: ${theirs} is not an upload of this customer for support`],
      [forReturns, `imageUrls: ${forReturns} is not an upload of this customer for support`],
      ['https://evil.example/x.png', 'imageUrls: https://evil.example/x.png is not an upload of this customer for support'],
      [slot.publicUrl, `imageUrls: ${slot.publicUrl} has not been uploaded`],
    ]
    for (const [url, message] of cases) {
      const res = await call(customer, 'POST', '/support/tickets', { topic: 'T', detail: 'D', imageUrls: [url] })
      assert.equal(res.statusCode, 400, url)
      assert.equal(res.json().message, message)
    }
    assert.equal((await call(customer, 'GET', '/support/tickets')).json().meta.total, 0, 'nothing was created')
  })

  test('bad input and another customer order', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const stranger = await givenCustomer(t.app, shop.partner)
    const theirs = await order(stranger)
    const notMine = await call(customer, 'POST', '/support/tickets', { topic: 'T', detail: 'D', orderId: theirs.id })
    assert.equal(notMine.statusCode, 404)
    assert.equal(notMine.json().message, 'Order not found')
    const cases: [object, string[]][] = [
      [{ detail: 'D' }, ['topic should not be empty']],
      [{ topic: '', detail: 'D' }, ['topic should not be empty']],
      [{ topic: 'x'.repeat(201), detail: 'D' }, ['topic must be shorter than or equal to 200 characters']],
      [{ topic: 'T', detail: 'x'.repeat(5001) }, ['detail must be shorter than or equal to 5000 characters']],
      [{ topic: 'T', detail: 'D', imageUrls: Array.from({ length: 11 }, (_, i) => `u${i}`) }, ['imageUrls must contain no more than 10 elements']],
      [{ topic: 'T', detail: 'D', priority: 'high' }, ['property priority should not exist']],
    ]
    for (const [payload, message] of cases) {
      const res = await call(customer, 'POST', '/support/tickets', payload)
      assert.equal(res.statusCode, 400, JSON.stringify(payload))
      assert.deepEqual(res.json().message, message)
    }
  })
})

describe('GET /support/tickets', () => {
  test('filters by status, searches topic, detail and order number; other customers tickets are 404', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const o = await order(customer)
    const a = (await call(customer, 'POST', '/support/tickets', { topic: 'Late delivery', detail: 'Still waiting', orderId: o.id })).json().data
    clock.advance(1000)
    const b = (await call(customer, 'POST', '/support/tickets', { topic: 'Refund question', detail: 'Where is my wallet credit?' })).json().data
    const list = (await call(customer, 'GET', '/support/tickets')).json()
    assert.deepEqual(list.meta, { total: 2, page: 1, limit: 20, totalPages: 1 })
    assert.deepEqual(list.data.map((x: { id: string }) => x.id), [b.id, a.id])
    assert.equal(list.data[1].order.orderNumber, o.orderNumber)
    assert.equal(list.data[0].order, null)
    // Pages, and a page past the end, count all of the customer's tickets.
    const second = (await call(customer, 'GET', '/support/tickets?limit=1&page=2')).json()
    assert.deepEqual([second.data.map((x: { id: string }) => x.id), second.meta], [[a.id], { total: 2, page: 2, limit: 1, totalPages: 2 }])
    const past = (await call(customer, 'GET', '/support/tickets?limit=1&page=5')).json()
    assert.deepEqual([past.data, past.meta.total], [[], 2])
    const search = async (q: string) => (await call(customer, 'GET', `/support/tickets?search=${encodeURIComponent(q)}`)).json().data.map((x: { id: string }) => x.id)
    assert.deepEqual(await search('late'), [a.id])
    assert.deepEqual(await search('WALLET'), [b.id])
    assert.deepEqual(await search(o.orderNumber.slice(3)), [a.id])
    assert.deepEqual(await search('%'), [])
    await asAgent('POST', `/support/tickets/${a.id}/status`, { status: 'IN_PROGRESS' })
    assert.deepEqual((await call(customer, 'GET', '/support/tickets?status=IN_PROGRESS')).json().data.map((x: { id: string }) => x.id), [a.id])
    assert.equal((await call(customer, 'GET', '/support/tickets?limit=101')).statusCode, 400)
    assert.equal((await call(customer, 'GET', '/support/tickets?status=DONE')).statusCode, 400)

    const stranger = await givenCustomer(t.app, shop.partner)
    const otherShop = await givenShop(t)
    const foreigner = await givenCustomer(t.app, otherShop.partner)
    for (const intruder of [stranger, foreigner]) {
      assert.equal((await call(intruder, 'GET', `/support/tickets/${a.id}`)).statusCode, 404)
      assert.equal((await call(intruder, 'GET', `/support/tickets/${a.id}/messages`)).statusCode, 404)
      assert.equal((await call(intruder, 'POST', `/support/tickets/${a.id}/messages`, { body: 'hi' })).statusCode, 404)
      assert.equal((await call(intruder, 'GET', '/support/tickets')).json().meta.total, 0)
    }
  })
})

describe('conversation and status', () => {
  test('every allowed and refused transition; a customer reply reopens a RESOLVED ticket; CLOSED takes no more', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const ticket = (await call(customer, 'POST', '/support/tickets', { topic: 'Help', detail: 'Please' })).json().data
    const move = async (status: string) => asAgent('POST', `/support/tickets/${ticket.id}/status`, { status })
    for (const [to, code] of [['RESOLVED', 409], ['CLOSED', 409], ['OPEN', 409]] as const) {
      const res = await move(to)
      assert.equal(res.statusCode, code, to)
      assert.equal(res.json().message, `Ticket cannot move from OPEN to ${to}`)
    }
    const reply = await asAgent('POST', `/support/tickets/${ticket.id}/messages`, { body: 'Looking into it' })
    assert.equal(reply.statusCode, 201, reply.body)
    assert.equal((await call(customer, 'GET', `/support/tickets/${ticket.id}`)).json().data.status, 'IN_PROGRESS', 'an agent reply starts the work')
    assert.equal((await move('CLOSED')).statusCode, 409)
    assert.equal((await move('RESOLVED')).json().data.status, 'RESOLVED')
    const image = await uploadedImage(t, customer, 'support')
    const again = await call(customer, 'POST', `/support/tickets/${ticket.id}/messages`, { body: 'Not fixed', imageUrls: [image] })
    assert.equal(again.statusCode, 201, again.body)
    assert.equal((await call(customer, 'GET', `/support/tickets/${ticket.id}`)).json().data.status, 'OPEN')
    await move('IN_PROGRESS')
    await move('RESOLVED')
    assert.equal((await move('CLOSED')).json().data.status, 'CLOSED')
    assert.equal((await move('OPEN')).statusCode, 409)
    const closed = await call(customer, 'POST', `/support/tickets/${ticket.id}/messages`, { body: 'Hello?' })
    assert.equal(closed.statusCode, 409)
    assert.equal(closed.json().message, 'This ticket is closed; open a new ticket')
    const messages = (await call(customer, 'GET', `/support/tickets/${ticket.id}/messages`)).json().data
    assert.deepEqual(messages.map((m: { author: string; body: string }) => [m.author, m.body]), [['AGENT', 'Looking into it'], ['CUSTOMER', 'Not fixed']])
    assert.deepEqual(messages[1].imageUrls, [image])
    const events = await t.deps.database.db.query.outboxEvents.findMany({
      where: (e, { and, eq }) => and(eq(e.subjectId, ticket.id), eq(e.type, 'ticket.status_changed')),
      orderBy: (e, { asc }) => [asc(e.createdAt), asc(e.id)],
    })
    assert.deepEqual(events.map((e) => e.data.status), ['IN_PROGRESS', 'RESOLVED', 'OPEN', 'IN_PROGRESS', 'RESOLVED', 'CLOSED'])
    assert.deepEqual(events.map((e) => (e.data.ticket as { status: string }).status), ['IN_PROGRESS', 'RESOLVED', 'OPEN', 'IN_PROGRESS', 'RESOLVED', 'CLOSED'], 'each carries the ticket as it became')
    const created = await t.deps.database.db.query.outboxEvents.findMany({ where: (e, { and, eq }) => and(eq(e.subjectId, ticket.id), eq(e.type, 'ticket.created')) })
    assert.equal(created.length, 1)
    assert.equal((created[0]!.data.ticket as { id: string; status: string }).status, 'OPEN')
    const said = await t.deps.database.db.query.outboxEvents.findMany({
      where: (e, { and, eq }) => and(eq(e.subjectId, ticket.id), eq(e.type, 'ticket.message.created')),
      orderBy: (e, { asc }) => [asc(e.createdAt), asc(e.id)],
    })
    assert.deepEqual(said.map((e) => { const m = e.data.message as { author: string; body: string }; return [m.author, m.body] }), [['AGENT', 'Looking into it'], ['CUSTOMER', 'Not fixed']])
  })

  test('the back office lists every partner tickets and sees the conversation; customers cannot', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const ticket = (await call(customer, 'POST', '/support/tickets', { topic: 'Admin view', detail: 'D' })).json().data
    const list = (await asAgent('GET', `/support/tickets?partnerId=${shop.partner.partnerId}&search=admin%20view`)).json()
    assert.deepEqual(list.data.map((x: { id: string }) => x.id), [ticket.id])
    const view = (await asAgent('GET', `/support/tickets/${ticket.id}`)).json().data
    assert.equal(view.userId, customer.userId)
    assert.deepEqual(view.messages, [])
    const asCustomer = await t.app.inject({ method: 'GET', url: '/api/v1/admin/support/tickets', headers: customerHeaders(customer) })
    assert.equal(asCustomer.statusCode, 401)
    assert.equal((await asAgent('POST', '/support/tickets/tkt_nope/status', { status: 'IN_PROGRESS' })).statusCode, 404)
  })
})

describe('agent replies with images', () => {
  test("an agent uploads an image for the ticket and replies with it; the customer sees it in the conversation; another ticket's or customer's image, and a CLOSED ticket, are refused", async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const other = await givenCustomer(t.app, shop.partner)
    const ticket = (await call(customer, 'POST', '/support/tickets', { topic: 'Which size to order', detail: 'Is the 5 kg pack the big one?' })).json().data
    const otherTicket = (await call(other, 'POST', '/support/tickets', { topic: 'Delivery time', detail: 'When?' })).json().data

    const slots = await asAgent('POST', `/support/tickets/${ticket.id}/uploads/signed-urls`, { files: [{ fileName: 'size chart.png', contentType: 'image/png', sizeBytes: 300 }] })
    assert.equal(slots.statusCode, 201, slots.body)
    const [slot] = slots.json().data
    assert.equal(slot.method, 'PUT')
    assert.equal((await put(t, slot.uploadUrl, png(300), 'image/png')).statusCode, 201)
    const reply = await asAgent('POST', `/support/tickets/${ticket.id}/messages`, { body: 'Here is the size chart', imageUrls: [slot.publicUrl] })
    assert.equal(reply.statusCode, 201, reply.body)
    assert.deepEqual([reply.json().data.author, reply.json().data.imageUrls], ['AGENT', [slot.publicUrl]])
    const seen = (await call(customer, 'GET', `/support/tickets/${ticket.id}/messages`)).json().data
    assert.deepEqual(seen.at(-1).imageUrls, [slot.publicUrl])
    assert.equal((await t.app.inject({ method: 'GET', url: pathOf(slot.publicUrl) })).statusCode, 200, 'the image is served')

    // The image was issued for this ticket's customer: another ticket's reply cannot cite it, nor an image not yet uploaded.
    const elsewhere = await asAgent('POST', `/support/tickets/${otherTicket.id}/messages`, { body: 'Wrong ticket', imageUrls: [slot.publicUrl] })
    assert.equal(elsewhere.statusCode, 400)
    assert.match(elsewhere.json().message, /imageUrls: .* is not an upload of this customer for support/)
    const pending = (await asAgent('POST', `/support/tickets/${ticket.id}/uploads/signed-urls`, { files: [{ fileName: 'later.png', contentType: 'image/png', sizeBytes: 100 }] })).json().data[0]
    const notUploaded = await asAgent('POST', `/support/tickets/${ticket.id}/messages`, { body: 'Not uploaded', imageUrls: [pending.publicUrl] })
    assert.equal(notUploaded.statusCode, 400)
    assert.match(notUploaded.json().message, /has not been uploaded/)
    assert.equal((await asAgent('POST', `/support/tickets/${ticket.id}/messages`, { body: 'Six', imageUrls: Array(6).fill(slot.publicUrl) })).statusCode, 400)

    assert.equal((await asAgent('POST', '/support/tickets/tkt_unknown/uploads/signed-urls', { files: [{ fileName: 'a.png', contentType: 'image/png', sizeBytes: 100 }] })).statusCode, 404)
    assert.equal((await asAgent('POST', `/support/tickets/${ticket.id}/uploads/signed-urls`, { files: [{ fileName: 'a.svg', contentType: 'image/svg+xml', sizeBytes: 100 }] })).statusCode, 400)
    assert.equal((await call(customer, 'POST', `/admin/support/tickets/${ticket.id}/uploads/signed-urls`, { files: [{ fileName: 'a.png', contentType: 'image/png', sizeBytes: 100 }] })).statusCode, 401)
    for (const status of ['RESOLVED', 'CLOSED']) assert.equal((await asAgent('POST', `/support/tickets/${ticket.id}/status`, { status })).statusCode, 200)
    const closed = await asAgent('POST', `/support/tickets/${ticket.id}/uploads/signed-urls`, { files: [{ fileName: 'a.png', contentType: 'image/png', sizeBytes: 100 }] })
    assert.deepEqual([closed.statusCode, closed.json().message], [409, 'This ticket is closed'])
  })
})
