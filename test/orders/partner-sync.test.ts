// A partner's own server reads its orders (/partner/orders): cursor sync that returns every order
// exactly once while orders are being created, filters, one order, and another partner's 404.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setTimeout as delay } from 'node:timers/promises'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'

const API = '/api/v1'
let t: TestApp
let shop: Shop
let other: PartnerFixture
let customer: CustomerFixture

before(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_MAX: '100000' } })
  shop = await givenShop(t)
  other = await givenPartner(t.deps, 'Other', shop.catalogId)
  customer = await givenCustomer(t.app, shop.partner)
})
after(() => t?.close())

const asPartner = (p: PartnerFixture, url: string) => t.app.inject({ method: 'GET', url: `${API}${url}`, headers: { 'x-partner-id': p.partnerId, 'x-partner-secret': p.secret } })

async function order(c: CustomerFixture = customer) {
  const res = await placeOrder(t, c, { items: [{ productId: shop.ids.atta!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as { id: string; orderNumber: string }
}

interface Page {
  data: { id: string; status: string; userId: string; updatedAt: string }[]
  meta: { nextCursor: string | null; hasMore: boolean }
}

async function page(p: PartnerFixture, query: string): Promise<Page> {
  const res = await asPartner(p, `/partner/orders?${query}`)
  assert.equal(res.statusCode, 200, res.body)
  return res.json()
}

/** Follows cursors from `cursor` until hasMore is false; every id seen, in order, and the last cursor. */
async function drain(p: PartnerFixture, cursor: string | null, limit = 3): Promise<{ ids: string[]; cursor: string | null }> {
  const ids: string[] = []
  for (;;) {
    const got = await page(p, `limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
    ids.push(...got.data.map((o) => o.id))
    cursor = got.meta.nextCursor
    if (!got.meta.hasMore) return { ids, cursor }
  }
}

/**
 * Drains until `count` orders have come. A poll delivers only orders whose transactions are older
 * than every transaction still running on the server (so none can commit behind the cursor); on
 * PostgreSQL that horizon is the whole cluster's, and another test file's open transaction holds it
 * back for a moment: the orders come with a later poll, as they would for a partner.
 */
async function drainAll(p: PartnerFixture, cursor: string | null, count: number, limit = 3): Promise<{ ids: string[]; cursor: string | null }> {
  const ids: string[] = []
  const deadline = Date.now() + 15_000
  for (;;) {
    const got = await drain(p, cursor, limit)
    ids.push(...got.ids)
    cursor = got.cursor
    if (ids.length >= count) return { ids, cursor }
    assert.ok(Date.now() < deadline, `${count} orders came within 15 s (${ids.length} did)`)
    await delay(20)
  }
}

/**
 * A filtered page once it holds `count` orders: a filter sees the same horizon as a cursor (the
 * orders of transactions that have all ended, drainAll above), which another test file's open
 * transaction on the same PostgreSQL holds back for a moment.
 */
async function pageOnceDelivered(p: PartnerFixture, query: string, count: number): Promise<Page> {
  const deadline = Date.now() + 15_000
  for (;;) {
    const got = await page(p, query)
    if (got.data.length >= count) return got
    assert.ok(Date.now() < deadline, `${count} orders matched ${query} within 15 s (${got.data.length} did)`)
    await delay(20)
  }
}

describe('partner order sync', () => {
  test('pages by cursor; a later poll with the last cursor returns only what was written since, changed orders again', async () => {
    const p = await givenPartner(t.deps, 'Sync', shop.catalogId)
    const c = await givenCustomer(t.app, p)
    const first = [await order(c), await order(c), await order(c), await order(c)]
    const all = await drainAll(p, null, first.length)
    assert.deepEqual(all.ids, first.map((o) => o.id))
    const nothing = await page(p, `cursor=${all.cursor}`)
    assert.deepEqual(nothing.data, [])
    assert.equal(nothing.meta.nextCursor, all.cursor, 'nothing new: the same cursor to poll with')

    const added = await order(c)
    const support = await t.app.inject({ method: 'POST', url: `${API}/orders/${first[0]!.id}/cancel`, headers: { authorization: `Bearer ${c.accessToken}`, 'x-partner-id': p.partnerId }, payload: { reason: 'Changed my mind' } })
    assert.equal(support.statusCode, 200, support.body)
    const since = await drainAll(p, all.cursor, 2)
    assert.deepEqual(since.ids, [added.id, first[0]!.id])
  })

  test('every order exactly once while orders are created concurrently', async () => {
    const p = await givenPartner(t.deps, 'Concurrent', shop.catalogId)
    const customers = await Promise.all(Array.from({ length: 4 }, () => givenCustomer(t.app, p)))
    let cursor: string | null = null
    const seen: string[] = []
    const created: string[] = []
    let writing = true
    const writers = Promise.all(
      customers.map(async (c) => {
        for (let i = 0; i < 5; i++) created.push((await order(c)).id)
      }),
    ).finally(() => (writing = false))
    while (writing) {
      // In process the reads can complete on microtasks alone: let the writers' timers run too.
      await delay(5)
      const got = await drain(p, cursor, 2)
      seen.push(...got.ids)
      cursor = got.cursor
    }
    await writers
    seen.push(...(await drainAll(p, cursor, created.length - new Set(seen).size, 2)).ids)
    assert.equal(created.length, 20)
    assert.deepEqual([...seen].sort(), [...created].sort(), 'each created order exactly once')
  })

  test('filters by status, payment status, customer, order number and dates; a bad cursor or unknown parameter is 400', async () => {
    const mine = await order()
    const someoneElse = await givenCustomer(t.app, shop.partner)
    await order(someoneElse)
    const byNumber = await pageOnceDelivered(shop.partner, `orderNumber=${mine.orderNumber}`, 1)
    assert.deepEqual(byNumber.data.map((o) => o.id), [mine.id])
    const byCustomer = await pageOnceDelivered(shop.partner, `customerId=${someoneElse.userId}`, 1)
    assert.ok(byCustomer.data.length === 1 && byCustomer.data[0]!.userId === someoneElse.userId)
    const codPending = await pageOnceDelivered(shop.partner, `paymentStatus=COD_PENDING&status=CONFIRMED&orderNumber=${mine.orderNumber}`, 1)
    assert.deepEqual(codPending.data.map((o) => [o.id, o.status]), [[mine.id, 'CONFIRMED']])
    const notCodPending = await page(shop.partner, `paymentStatus=PAID&orderNumber=${mine.orderNumber}`)
    assert.deepEqual(notCodPending.data, [], 'a COD order waiting for its cash is not PAID')
    const future = await page(shop.partner, `createdFrom=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)
    assert.deepEqual(future.data, [])
    assert.equal((await asPartner(shop.partner, '/partner/orders?cursor=bm90IGEgY3Vyc29y')).statusCode, 400)
    assert.equal((await asPartner(shop.partner, '/partner/orders?partnerId=x')).statusCode, 400)
  })
})

describe('partner credentials and tenancy', () => {
  test("another partner's orders are never synced, and one of them by id is 404", async () => {
    const mine = await order()
    const theirs = await drain(other, null, 200)
    assert.ok(!theirs.ids.includes(mine.id))
    assert.equal((await asPartner(other, `/partner/orders/${mine.id}`)).statusCode, 404)
    const own = await asPartner(shop.partner, `/partner/orders/${mine.id}`)
    assert.equal(own.statusCode, 200)
    assert.equal(own.json().data.id, mine.id)
  })

  test('a wrong secret, a missing one, an API key or a customer token are 401', async () => {
    const bad = await t.app.inject({ method: 'GET', url: `${API}/partner/orders`, headers: { 'x-partner-id': shop.partner.partnerId, 'x-partner-secret': other.secret } })
    assert.equal(bad.statusCode, 401)
    assert.equal((await t.app.inject({ method: 'GET', url: `${API}/partner/orders`, headers: { 'x-partner-id': shop.partner.partnerId } })).statusCode, 401)
    assert.equal((await t.app.inject({ method: 'GET', url: `${API}/partner/orders`, headers: { 'x-api-key': shop.partner.apiKey } })).statusCode, 400, 'no x-partner-id')
    assert.equal((await t.app.inject({ method: 'GET', url: `${API}/partner/orders`, headers: { authorization: `Bearer ${customer.accessToken}`, 'x-partner-id': shop.partner.partnerId } })).statusCode, 401)
  })
})
