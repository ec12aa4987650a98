// GET /admin/orders/stats: the back-office console's dashboard figures (orders and GMV per day in
// India's calendar, orders by status).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'

// 23:55 in India on 22 November is 18:25 UTC: an order placed now belongs to the 22nd.
const clock = new ManualClock(new Date('2026-11-22T23:55:00+05:30'))
let t: TestApp
let shop: Shop
let support: string
let catalogAdmin: string

before(async () => {
  t = await createTestApp({ clock })
  shop = await givenShop(t)
  support = await givenAdminToken(t.app, t.deps, 'support@stats.test', 'SUPPORT')
  catalogAdmin = await givenAdminToken(t.app, t.deps, 'catalog@stats.test', 'CATALOG')
})
after(() => t.close())

const stats = (query = '', token = support) =>
  t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/stats${query}`, headers: { authorization: `Bearer ${token}` } })

describe('order statistics for the dashboard', () => {
  test('orders and GMV are counted on India\'s calendar day; cancelled orders count as orders but not GMV; empty days are zeros', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const cod = (quantity: number) => placeOrder(t, customer, { items: [{ productId: shop.ids.atta!, quantity }], shippingAddress: ADDRESS, paymentMode: 'COD' })
    const first = await cod(1)
    assert.equal(first.statusCode, 201, first.body)
    clock.advance(10 * 60_000) // 00:05 on the 23rd in India, still the 22nd in UTC
    const second = await cod(2)
    const third = await cod(1)
    assert.equal(second.statusCode, 201, second.body)
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/orders/${third.json().data.id}/status`,
      headers: { authorization: `Bearer ${support}` },
      payload: { status: 'CANCELLED' },
    })
    assert.equal(cancelled.statusCode, 200, cancelled.body)

    const res = await stats('?days=3')
    assert.equal(res.statusCode, 200, res.body)
    const { days, byStatus } = res.json().data
    assert.deepEqual(
      days.map((d: { date: string; orders: number }) => [d.date, d.orders]),
      [['2026-11-21', 0], ['2026-11-22', 1], ['2026-11-23', 2]],
    )
    assert.equal(days[0].gmv, '0.00')
    assert.equal(days[1].gmv, first.json().data.totalAmount)
    assert.equal(days[2].gmv, second.json().data.totalAmount)
    assert.deepEqual(byStatus, [{ status: 'CANCELLED', count: 1 }, { status: 'CONFIRMED', count: 2 }])
  })

  test('fourteen days by default; more than 90 days is a 400', async () => {
    const res = await stats()
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().data.days.length, 14)
    assert.equal(res.json().data.days.at(-1).date, '2026-11-23')
    assert.equal((await stats('?days=91')).statusCode, 400)
  })

  test('a CATALOG admin may not read them (403), nor may an anonymous caller (401)', async () => {
    assert.equal((await stats('', catalogAdmin)).statusCode, 403)
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/admin/orders/stats' })).statusCode, 401)
  })
})
