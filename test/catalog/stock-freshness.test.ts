// Public stock is right at once after any stock change (issue #20): placing, cancelling (customer
// or back office) and the sweeper's expiry all drop the cached product answers, on every node.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop, stockOf } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let adminToken: string

before(async () => {
  t = await createTestApp({ clock })
  adminToken = await givenAdminToken(t.app, t.deps, 'ops@stock.test', 'SUPPORT')
})
after(() => t.close())

const publicGet = (shop: Shop, url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { 'x-api-key': shop.partner.apiKey } })

/** The stock public answers show for `slug`: its page and its line in the list (both cached). */
async function publicStock(shop: Shop, slug: string) {
  const page = (await publicGet(shop, `/products/${slug}`)).json().data.stock as number
  const list = (await publicGet(shop, '/products?limit=100')).json().data as { slug: string; stock: number }[]
  return { page, list: list.find((p) => p.slug === slug)!.stock }
}

async function order(shop: Shop, customer: CustomerFixture, slug: string, quantity: number, paymentMode: 'PREPAID' | 'COD' = 'PREPAID') {
  const res = await placeOrder(t, customer, { items: [{ productId: shop.ids[slug]!, quantity }], shippingAddress: ADDRESS, paymentMode })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as { id: string }
}

describe('public stock after stock changes', () => {
  test('when an order is placed, then the public product shows the stock taken at once', async () => {
    const shop = await givenShop(t)
    assert.deepEqual(await publicStock(shop, 'earbuds'), { page: 100, list: 100 })
    await order(shop, await givenCustomer(t.app, shop.partner), 'earbuds', 3)
    assert.deepEqual(await publicStock(shop, 'earbuds'), { page: 97, list: 97 })
  })

  test('when a customer cancels an order, then the public product shows the stock back at once', async () => {
    const shop = await givenShop(t)
    const customer = await givenCustomer(t.app, shop.partner)
    const placed = await order(shop, customer, 'earbuds', 2)
    assert.deepEqual(await publicStock(shop, 'earbuds'), { page: 98, list: 98 })
    const cancel = await t.app.inject({ method: 'POST', url: `/api/v1/orders/${placed.id}/cancel`, headers: customerHeaders(customer), payload: { reason: 'Changed my mind' } })
    assert.equal(cancel.statusCode, 200, cancel.body)
    assert.deepEqual(await publicStock(shop, 'earbuds'), { page: 100, list: 100 })
  })

  test('when the back office cancels the order that sold a product out, then the public product is back in stock at once', async () => {
    const shop = await givenShop(t, { hotStock: 2 })
    const placed = await order(shop, await givenCustomer(t.app, shop.partner), 'hot', 2, 'COD')
    assert.deepEqual(await publicStock(shop, 'hot'), { page: 0, list: 0 })
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/orders/${placed.id}/status`,
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { status: 'CANCELLED', note: 'Customer called' },
    })
    assert.equal(cancel.statusCode, 200, cancel.body)
    assert.deepEqual(await publicStock(shop, 'hot'), { page: 2, list: 2 })
  })

  test('when the sweeper expires an unpaid reservation, then the public product shows the stock back at once', async () => {
    const shop = await givenShop(t)
    await order(shop, await givenCustomer(t.app, shop.partner), 'atta', 4)
    assert.deepEqual(await publicStock(shop, 'atta'), { page: 96, list: 96 })
    clock.advance(31 * 60_000)
    assert.ok((await t.app.payments.sweepExpiredReservations()) >= 1)
    assert.equal(await stockOf(t, shop.ids.atta!), 100)
    assert.deepEqual(await publicStock(shop, 'atta'), { page: 100, list: 100 })
  })
})
