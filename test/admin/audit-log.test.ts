// The audit log (issue #39, decision 0033): every back-office write records who, when, what and the
// values before and after, in the transaction of the change (a refused or rolled-back write leaves
// no entry); customers' and partners' own writes are not the back office's and record nothing;
// secrets never appear; GET /admin/audit-log filters by record (with the records under it), actor,
// operation and time, and pages. Real HTTP over the real app and database.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-20T04:30:00.000Z'))
let t: TestApp
let shop: Shop
let owner: string
let agent: string
let catalogAdmin: string
before(async () => {
  t = await createTestApp({ clock })
  shop = await givenShop(t)
  owner = await givenAdminToken(t.app, t.deps, 'owner@audit.test', 'ADMIN')
  agent = await givenAdminToken(t.app, t.deps, 'agent@audit.test', 'SUPPORT')
  catalogAdmin = await givenAdminToken(t.app, t.deps, 'catalog@audit.test', 'CATALOG')
})
after(() => t.close())

const as = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) })

interface Entry {
  id: number
  at: string
  actorId: string
  actorEmail: string
  action: string
  requestId: string
  objectType: string
  objectId: string
  relatedId: string | null
  operation: string
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
}
const log = async (query: string, token = owner) => {
  const res = await as(token, 'GET', `/audit-log?${query}`)
  assert.equal(res.statusCode, 200, res.body)
  return res.json() as { data: Entry[]; meta: { total: number } }
}

describe('audit log', () => {
  test("a price change records who, when, which operation and request, and only the changed fields before and after, as the API names them", async () => {
    const productId = shop.ids.earbuds!
    const res = await as(catalogAdmin, 'PATCH', `/products/${productId}`, { sellingPrice: '899.50', stock: 90 })
    assert.equal(res.statusCode, 200, res.body)
    const { data } = await log(`object=${productId}`)
    assert.equal(data.length, 1)
    const [entry] = data
    assert.deepEqual(
      { ...entry, id: undefined },
      {
        id: undefined,
        at: '2026-11-20T04:30:00.000Z',
        actorId: entry!.actorId,
        actorEmail: 'catalog@audit.test',
        action: 'adminUpdateProduct',
        requestId: res.headers['x-request-id'],
        objectType: 'product',
        objectId: productId,
        relatedId: shop.catalogId,
        operation: 'UPDATE',
        before: { sellingPrice: 100000, stock: 100 },
        after: { sellingPrice: 89950, stock: 90 },
      },
    )
  })

  test("an order's history holds its own changes and those of its lines; a customer's, the block and the balance adjustment; a customer's own order records nothing", async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const placed = await placeOrder(t, customer, { items: [{ productId: shop.ids.atta!, quantity: 2 }, { productId: shop.ids.hot!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
    assert.equal(placed.statusCode, 201, placed.body)
    const order = placed.json().data
    assert.equal((await log(`object=${order.id}`)).meta.total, 0, "the customer's own write is not the back office's")

    clock.advance(60_000)
    const cancelled = await as(agent, 'POST', `/orders/${order.id}/cancel-items`, { items: [{ orderItemId: order.items[1].id, quantity: 1 }], reason: 'Out of stock at the warehouse' })
    assert.equal(cancelled.statusCode, 200, cancelled.body)
    clock.advance(60_000)
    assert.equal((await as(agent, 'POST', `/orders/${order.id}/status`, { status: 'PACKED' })).statusCode, 200)

    const history = (await log(`object=${order.id}`)).data
    const moved = history.find((e) => e.objectType === 'order' && e.action === 'adminUpdateOrderStatus')
    assert.ok(moved, JSON.stringify(history))
    assert.deepEqual([moved.before?.status, moved.after?.status, moved.actorEmail, moved.at], ['CONFIRMED', 'PACKED', 'agent@audit.test', '2026-11-20T04:32:00.000Z'])
    const line = history.find((e) => e.objectType === 'order_item')
    assert.ok(line, JSON.stringify(history))
    assert.deepEqual([line.objectId, line.relatedId, line.action, line.before?.cancelledQuantity, line.after?.cancelledQuantity], [order.items[1].id, order.id, 'adminCancelOrderItems', 0, 1])
    assert.ok(history.every((e) => e.objectId === order.id || e.relatedId === order.id))
    assert.ok(history[0]!.at >= history.at(-1)!.at, 'newest first')

    assert.equal((await as(agent, 'POST', `/customers/${customer.userId}/block`, { reason: 'Refused three COD parcels' })).statusCode, 200)
    assert.equal((await as(agent, 'POST', `/customers/${customer.userId}/ledger`, { kind: 'WALLET_CASH', amount: '50.00', reason: 'Goodwill for a late delivery' })).statusCode, 200)
    const theirs = (await log(`object=${customer.userId}`)).data
    assert.deepEqual(theirs.map((e) => [e.objectType, e.operation, e.action]).sort(), [
      ['customer', 'UPDATE', 'adminBlockCustomer'],
      ['ledger_entry', 'INSERT', 'adminAdjustCustomerBalance'],
    ])
    const entry = theirs.find((e) => e.objectType === 'ledger_entry')!
    assert.deepEqual([entry.before, entry.after?.amount, entry.after?.kind, entry.relatedId], [null, 5000, 'WALLET_CASH', customer.userId])
  })

  test('a refused write and a write that fails halfway leave no entry; a save that changes nothing records nothing', async () => {
    const productId = shop.ids.atta!
    const before = (await log(`object=${productId}`)).meta.total
    assert.equal((await as(owner, 'PATCH', `/products/${productId}`, { mrp: '1.00' })).statusCode, 400, 'MRP below the selling price')
    assert.equal((await as(owner, 'POST', `/orders/ord_unknown/status`, { status: 'PACKED' })).statusCode, 404)
    const current = (await as(owner, 'GET', `/products/${productId}`)).json().data
    assert.equal((await as(owner, 'PATCH', `/products/${productId}`, { name: current.name })).statusCode, 200)
    assert.equal((await log(`object=${productId}`)).meta.total, before)
  })

  test('secrets, hashes and temporary passwords never appear: a partner made and its secret rotated, an admin invited and reset', async () => {
    const made = await as(owner, 'POST', '/partners', { name: 'Audited partner' })
    assert.equal(made.statusCode, 201, made.body)
    const partner = made.json().data
    assert.equal((await as(owner, 'POST', `/partners/${partner.id ?? partner.partner?.id}/rotate-secret`)).statusCode, 200)
    const invited = await as(owner, 'POST', '/admins', { email: 'new@audit.test', role: 'SUPPORT' })
    assert.equal(invited.statusCode, 201, invited.body)
    const { admin, temporaryPassword } = invited.json().data
    const reset = await as(owner, 'POST', `/admins/${admin.id}/reset-password`)
    assert.equal(reset.statusCode, 200, reset.body)

    const entries = [...(await log('objectType=partner')).data, ...(await log(`object=${admin.id}`)).data]
    assert.ok(entries.length >= 4, JSON.stringify(entries))
    const text = JSON.stringify(entries)
    for (const secret of [temporaryPassword, reset.json().data.temporaryPassword, partner.secret ?? partner.partner?.secret]) {
      if (secret) assert.ok(!text.includes(secret), 'a secret in the audit log')
    }
    assert.doesNotMatch(text, /\$argon2/)
    for (const e of entries) {
      for (const [field, value] of [...Object.entries(e.before ?? {}), ...Object.entries(e.after ?? {})]) {
        if (/(Hash|Secret|Encrypted|Sealed)$/.test(field)) assert.ok(value === '(hidden)' || value === null, `${field}: ${String(value)}`)
      }
    }
    const rotation = entries.find((e) => e.action === 'adminRotatePartnerSecret')
    assert.ok(rotation, 'the rotation is recorded, though what changed is only secrets')
    assert.deepEqual([rotation.before?.secretHash, rotation.after?.secretHash], ['(hidden)', '(hidden)'])
    const invite = entries.find((e) => e.action === 'adminInviteAdmin' && e.operation === 'INSERT')!
    assert.equal(invite.after?.passwordHash, '(hidden)', JSON.stringify(invite))
    const resetEntry = entries.find((e) => e.action === 'adminResetAdminPassword')!
    assert.deepEqual(Object.keys(resetEntry.after!).sort(), ['mustChangePassword', 'passwordHash', 'sessionVersion'].filter((k) => k in resetEntry.after!).sort())
    assert.equal(resetEntry.after?.passwordHash, '(hidden)')
  })

  test('filters: by actor, operation, kind of record and time; pages newest first; from must be before to; SUPPORT reads it, CATALOG may not', async () => {
    const catalogActor = (await log('action=adminUpdateProduct')).data[0]!.actorId
    const byActor = await log(`actorId=${catalogActor}`)
    assert.ok(byActor.meta.total >= 1 && byActor.data.every((e) => e.actorEmail === 'catalog@audit.test'))
    const moves = await log('action=adminUpdateOrderStatus&objectType=order')
    assert.ok(moves.data.length >= 1 && moves.data.every((e) => e.action === 'adminUpdateOrderStatus' && e.objectType === 'order'))
    const early = await log(`to=${encodeURIComponent('2026-11-20T04:31:00.000Z')}`)
    assert.ok(early.data.every((e) => e.at < '2026-11-20T04:31:00.000Z') && early.meta.total >= 1)
    const late = await log(`from=${encodeURIComponent('2026-11-20T04:31:00.000Z')}`)
    assert.ok(late.data.every((e) => e.at >= '2026-11-20T04:31:00.000Z') && late.meta.total >= 1)
    const all = await log('limit=100')
    assert.equal(all.meta.total, early.meta.total + late.meta.total)
    const [first, second] = [await log('limit=2&page=1'), await log('limit=2&page=2')]
    assert.deepEqual([...first.data, ...second.data].map((e) => e.id), all.data.slice(0, 4).map((e) => e.id))
    for (let i = 1; i < all.data.length; i++) {
      const [a, b] = [all.data[i - 1]!, all.data[i]!]
      assert.ok(a.at > b.at || (a.at === b.at && a.id > b.id), 'newest first, then the later entry first')
    }

    const backwards = await as(owner, 'GET', `/audit-log?from=${encodeURIComponent('2026-11-21T00:00:00Z')}&to=${encodeURIComponent('2026-11-20T00:00:00Z')}`)
    assert.equal(backwards.statusCode, 400)
    assert.equal(backwards.json().message, 'from must be before to')
    assert.equal((await as(owner, 'GET', '/audit-log?objectType=invoice')).statusCode, 400)
    assert.equal((await log('limit=1', agent)).data.length, 1)
    assert.equal((await as(catalogAdmin, 'GET', '/audit-log')).statusCode, 403)
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/admin/audit-log' })).statusCode, 401)
  })
})
