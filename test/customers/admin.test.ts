// The back office's customers (/admin/customers): list and search, one customer's view, block and
// unblock. Role checks of every route are in test/security/authorization-matrix.test.ts.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture, randomPhone } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder } from '../helpers/shop.ts'

const API = '/api/v1'
let t: TestApp
let support: string
let shop: Awaited<ReturnType<typeof givenShop>>
let other: PartnerFixture

before(async () => {
  t = await createTestApp()
  support = await givenAdminToken(t.app, t.deps, `support-${randomUUID()}@example.test`, 'SUPPORT')
  shop = await givenShop(t)
  other = await givenPartner(t.deps, 'Other shop')
})
after(() => t?.close())

const asSupport = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `${API}${url}`, headers: { authorization: `Bearer ${support}` }, ...(payload ? { payload } : {}) })

async function orderOf(customer: CustomerFixture) {
  const res = await placeOrder(t, customer, { items: [{ productId: shop.ids.atta!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as { id: string; orderNumber: string }
}

describe('listing customers', () => {
  test("by partner, by mobile in any accepted form, by email and by partial name; another partner's customers are not in a partner's list", async () => {
    const name = `Meera ${randomUUID().slice(0, 6)}`
    const email = `meera-${randomUUID().slice(0, 6)}@example.in`
    const phone = randomPhone()
    const a = await givenCustomer(t.app, shop.partner, { phone, name, email })
    const b = await givenCustomer(t.app, other, { phone, name })

    const ofShop = await asSupport('GET', `/admin/customers?partnerId=${shop.partner.partnerId}&limit=100`)
    assert.equal(ofShop.statusCode, 200)
    const ids = ofShop.json().data.map((c: { id: string }) => c.id)
    assert.ok(ids.includes(a.userId) && !ids.includes(b.userId))

    const byPhone = await asSupport('GET', `/admin/customers?phone=${encodeURIComponent(`+91 ${phone}`)}`)
    assert.deepEqual(byPhone.json().data.map((c: { id: string }) => c.id).sort(), [a.userId, b.userId].sort())
    const byEmail = await asSupport('GET', `/admin/customers?email=${encodeURIComponent(email.toUpperCase())}`)
    assert.deepEqual(byEmail.json().data.map((c: { id: string }) => c.id), [a.userId])
    const byName = await asSupport('GET', `/admin/customers?name=${encodeURIComponent(name.slice(2).toLowerCase())}&partnerId=${other.partnerId}`)
    assert.deepEqual(byName.json().data.map((c: { id: string }) => c.id), [b.userId])
    assert.equal(byName.json().meta.total, 1)
  })

  test('a malformed mobile and an unknown parameter are 400', async () => {
    const bad = await asSupport('GET', '/admin/customers?phone=12345')
    assert.equal(bad.statusCode, 400)
    assert.deepEqual(bad.json().message, ['phone must be a valid Indian mobile number'])
    assert.equal((await asSupport('GET', '/admin/customers?userId=x')).statusCode, 400)
    const blank = await asSupport('GET', '/admin/customers?name=%20%20')
    assert.equal(blank.statusCode, 400, 'a blank name would match every customer')
    assert.deepEqual(blank.json().message, ['name must contain a visible character'])
  })
})

describe("one customer's view", () => {
  test('profile, addresses, balances and the recent orders, returns and tickets of this customer only', async () => {
    const mine = await givenCustomer(t.app, shop.partner)
    const someoneElse = await givenCustomer(t.app, shop.partner)
    const order = await orderOf(mine)
    await orderOf(someoneElse)
    const address = await t.app.inject({ method: 'POST', url: `${API}/users/me/addresses`, headers: customerHeaders(mine), payload: { label: 'Home', line1: ADDRESS.line1, city: ADDRESS.city, state: ADDRESS.state, pincode: ADDRESS.pincode } })
    assert.equal(address.statusCode, 201, address.body)
    const ticket = await t.app.inject({ method: 'POST', url: `${API}/support/tickets`, headers: customerHeaders(mine), payload: { topic: 'Where is it', detail: 'Late', orderId: order.id } })
    assert.equal(ticket.statusCode, 201, ticket.body)

    const res = await asSupport('GET', `/admin/customers/${mine.userId}`)
    assert.equal(res.statusCode, 200)
    const view = res.json().data
    assert.equal(view.id, mine.userId)
    assert.equal(view.phone, mine.phone)
    assert.equal(view.blocked, false)
    assert.deepEqual(view.addresses.map((a: { id: string }) => a.id), [address.json().data.id])
    assert.deepEqual(view.balances, { walletCash: '0.00', rewardPoints: 0 })
    assert.deepEqual(view.recentOrders.map((o: { id: string }) => o.id), [order.id])
    assert.equal(view.recentOrders[0].orderNumber, order.orderNumber)
    assert.deepEqual(view.recentTickets.map((tk: { id: string }) => tk.id), [ticket.json().data.id])
    assert.deepEqual(view.recentReturns, [])
    assert.equal((await asSupport('GET', '/admin/customers/usr_missing')).statusCode, 404)
  })
})

describe('blocking a customer', () => {
  test('its tokens get 403 on every customer route, new tokens and refreshes are 403; unblocked, the same session works again', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const me = () => t.app.inject({ method: 'GET', url: `${API}/users/me`, headers: customerHeaders(customer) })
    assert.equal((await me()).statusCode, 200)

    const blocked = await asSupport('POST', `/admin/customers/${customer.userId}/block`, { reason: 'Refused 4 COD parcels' })
    assert.equal(blocked.statusCode, 200)
    assert.equal(blocked.json().data.blocked, true)
    assert.equal(blocked.json().data.blockedReason, 'Refused 4 COD parcels')

    const refused = await me()
    assert.equal(refused.statusCode, 403)
    assert.equal(refused.json().message, 'This customer is blocked: contact the merchant')
    const order = await placeOrder(t, customer, { items: [{ productId: shop.ids.atta!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
    assert.equal(order.statusCode, 403)
    assert.equal(order.json().message, 'This customer is blocked: contact the merchant')
    const token = await t.app.inject({ method: 'POST', url: `${API}/auth/customer-token`, headers: { 'x-partner-id': shop.partner.partnerId, 'x-partner-secret': shop.partner.secret }, payload: { phone: customer.phone } })
    assert.equal(token.statusCode, 403)
    const refresh = await t.app.inject({ method: 'POST', url: `${API}/auth/refresh`, payload: { refreshToken: customer.refreshToken } })
    assert.equal(refresh.statusCode, 403)

    const unblocked = await asSupport('POST', `/admin/customers/${customer.userId}/unblock`)
    assert.equal(unblocked.statusCode, 200)
    assert.equal(unblocked.json().data.blocked, false)
    assert.equal((await me()).statusCode, 200)
    assert.equal((await t.app.inject({ method: 'POST', url: `${API}/auth/refresh`, payload: { refreshToken: customer.refreshToken } })).statusCode, 200)
  })

  test('a reason is required; an unknown customer is 404', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    assert.equal((await asSupport('POST', `/admin/customers/${customer.userId}/block`, {})).statusCode, 400)
    assert.equal((await asSupport('POST', '/admin/customers/usr_missing/block', { reason: 'Fraud' })).statusCode, 404)
  })
})
