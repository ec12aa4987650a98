// The OpenAPI document's webhooks (src/modules/events/catalogue.ts, decision 0026) describe the
// events the service really writes: real flows (a customer, orders paid, failed, dropped and
// cancelled, some units cancelled, a parcel booked, a COD order returned with its payout refused, a ticket with a message and a status move, a
// taxed and nil-rated order invoiced and cancelled, a test event) write their events, and each one's delivery body matches its documented schema.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, sandboxAction, type Shop } from '../helpers/shop.ts'

let t: TestApp
let shop: Shop
let admin: string
let customer: CustomerFixture

before(async () => {
  t = await createTestApp()
  shop = await givenShop(t)
  admin = await givenAdminToken(t.app, t.deps, 'schemas@events.test', 'ADMIN')
  customer = await givenCustomer(t.app, shop.partner)
})
after(() => t?.close())

const asCustomer = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url: `/api/v1${url}`, headers: customerHeaders(customer), payload })
const asAdmin = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) => t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${admin}` }, payload })
const asPartner = (method: 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/partner${url}`, headers: { 'x-partner-id': shop.partner.partnerId, 'x-partner-secret': shop.partner.secret }, payload })

const succeeded = (res: { statusCode: number; body: string }) => assert.ok(res.statusCode >= 200 && res.statusCode < 300, res.body)

async function order(items: { productId: string; quantity: number }[], then: 'pay' | 'fail' | 'close') {
  const res = await placeOrder(t, customer, { items, shippingAddress: ADDRESS, paymentMode: 'PREPAID' })
  assert.equal(res.statusCode, 201, res.body)
  const placed = res.json().data
  assert.equal((await sandboxAction(t, placed.paymentClientAction, then)).statusCode, 200)
  return placed as { id: string; items: { id: string }[] }
}

test('every event real flows write matches the schema of its type in the OpenAPI webhooks', async () => {
  const paid = await order([{ productId: shop.ids.atta!, quantity: 2 }, { productId: shop.ids.earbuds!, quantity: 1 }], 'pay')
  await order([{ productId: shop.ids.hot!, quantity: 1 }], 'fail')
  const dropped = await order([{ productId: shop.ids.hot!, quantity: 1 }], 'close')
  assert.equal((await asCustomer('POST', `/orders/${dropped.id}/cancel`, { reason: 'Changed my mind' })).statusCode, 200)
  const cancelItems = await asCustomer('POST', `/orders/${paid.id}/cancel-items`, { items: [{ orderItemId: paid.items[0]!.id, quantity: 1 }], reason: 'Ordered one too many' })
  assert.equal(cancelItems.statusCode, 200, cancelItems.body)
  const shipment = await asAdmin('POST', `/orders/${paid.id}/shipments`, { carrier: 'sandbox', weightGrams: 5400 })
  assert.equal(shipment.statusCode, 201, shipment.body)
  const ticket = await asCustomer('POST', '/support/tickets', { topic: 'Where is my parcel', detail: 'It was booked yesterday', orderId: paid.id })
  assert.equal(ticket.statusCode, 201, ticket.body)
  const ticketId = ticket.json().data.id
  assert.equal((await asCustomer('POST', `/support/tickets/${ticketId}/messages`, { body: 'Any news?' })).statusCode, 201)
  succeeded(await asPartner('POST', `/support/tickets/${ticketId}/status`, { status: 'IN_PROGRESS' }))
  // A COD order delivered and returned, its cash paid out to a UPI ID the sandbox payout provider refuses.
  const cod = await placeOrder(t, customer, { items: [{ productId: shop.ids.earbuds!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
  assert.equal(cod.statusCode, 201, cod.body)
  // Every unit in a parcel first (the merchant's own delivery): an order is not SHIPPED with nothing in one.
  succeeded(await asAdmin('POST', `/orders/${cod.json().data.id}/shipments`, { carrier: 'manual' }))
  for (const status of ['SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) succeeded(await asAdmin('POST', `/orders/${cod.json().data.id}/status`, { status }))
  const ret = await asCustomer('POST', '/returns', {
    orderId: cod.json().data.id,
    reason: 'Defective',
    detail: 'Dead on arrival',
    requestedResolution: 'ORIGINAL_PAYMENT_REFUND',
    items: [{ orderItemId: cod.json().data.items[0].id, quantity: 1, reason: 'Dead' }],
    refundTo: { method: 'UPI', vpa: 'failure@razorpay' },
  })
  assert.equal(ret.statusCode, 201, ret.body)
  for (const status of ['UNDER_REVIEW', 'APPROVED', 'REFUND_PENDING']) succeeded(await asAdmin('POST', `/returns/${ret.json().data.id}/status`, { status }))
  // GST documents: the catalog gets a seller, atta is nil-rated and earbuds taxed; a mixed COD order gets a tax invoice and a bill of supply, and its cancellation their credit notes.
  succeeded(await asAdmin('PUT', `/catalogs/${shop.catalogId}/seller`, { legalName: 'Acme Retail Private Limited', gstin: '27AAPFU0939F1ZV', address: { line1: '12 Nariman Point', city: 'Mumbai', state: 'Maharashtra', pincode: '400021' } }))
  succeeded(await asAdmin('PATCH', `/products/${shop.ids.atta}`, { hsnCode: '1101', gstRateBps: 0 }))
  succeeded(await asAdmin('PATCH', `/products/${shop.ids.earbuds}`, { hsnCode: '85183000', gstRateBps: 1800 }))
  const taxed = await placeOrder(t, customer, { items: [{ productId: shop.ids.atta!, quantity: 1 }, { productId: shop.ids.earbuds!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
  assert.equal(taxed.statusCode, 201, taxed.body)
  succeeded(await asCustomer('POST', `/orders/${taxed.json().data.id}/cancel`, { reason: 'Changed my mind' }))
  succeeded(await asAdmin('PUT', `/partners/${shop.partner.partnerId}/webhook`, { url: 'https://hooks.partner.example/commerce' }))
  succeeded(await asAdmin('POST', `/partners/${shop.partner.partnerId}/webhook/test`))

  const document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: object }> } } }> }
  const ajv = new Ajv2020.default({ strict: false, allErrors: true })
  addFormats.default(ajv)
  const events = await t.deps.database.db.query.outboxEvents.findMany({ where: (e, { eq }) => eq(e.partnerId, shop.partner.partnerId) })
  const problems: string[] = []
  for (const event of events) {
    // The body the dispatcher sends (dispatcher.ts webhookBody), through JSON as it travels.
    const body = JSON.parse(JSON.stringify({ id: event.id, type: event.type, createdAt: event.createdAt.toISOString(), data: event.data }))
    const schema = document.webhooks[event.type]?.post.requestBody.content['application/json']!.schema
    if (!schema) problems.push(`${event.type}: not in the document's webhooks`)
    else if (!ajv.validate(schema, body)) problems.push(`${event.type}: ${ajv.errorsText(ajv.errors)}`)
  }
  assert.deepEqual(problems, [])
  const types = new Set(events.map((e) => e.type))
  const expected = ['customer.created', 'order.created', 'order.status_changed', 'payment.succeeded', 'payment.failed', 'payment.user_dropped', 'order.items_cancelled', 'refund.succeeded', 'refund.failed', 'return.created', 'return.status_changed', 'shipment.created', 'ticket.created', 'ticket.message.created', 'ticket.status_changed', 'webhook.test', 'invoice.created', 'bill_of_supply.created', 'credit_note.created']
  assert.deepEqual(expected.filter((type) => !types.has(type)), [], `written: ${[...types].sort().join(', ')}`)
})
