// What the back office may do with a return now (issue #39): every back-office answer lists the
// status moves (nextStatuses) and the actions (bookPickup, qualityCheck, startRefund) allowed now,
// and those are exactly what the routes accept. For each status (and the states of a pickup and a
// quality check), every action not listed is tried and refused with 409, changing nothing; every
// action listed is tried, each on a return of its own in that state, and accepted with 200.
// Plus: the order's number and the items' names and SKUs instead of ids.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'drizzle-orm'
import { importCatalog } from '../../src/modules/catalog/import.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, sandboxAction, type Shop } from '../helpers/shop.ts'

let t: TestApp
let shop: Shop
let agent: string

before(async () => {
  // A customer of their own per state: more sign-ins in a minute than the sign-in limit allows.
  t = await createTestApp({ env: { RATE_LIMIT_AUTH_MAX: '1000' } })
  shop = await givenShop(t)
  // A refund of an amount ending in 13 paise fails at the sandbox provider the first time (REFUND_FAILED).
  await importCatalog(t.deps.database.db, shop.catalogId, {
    products: [{ slug: 'odd', name: 'Odd socks', brand: 'Jockey', sku: 'ODD-13', categorySlug: 'audio', sellingPrice: '500.13', mrp: '600.00', stock: 100, weightGrams: 100 }],
  })
  shop.ids.odd = (await t.deps.database.db.query.products.findFirst({ where: (p, { and, eq }) => and(eq(p.catalogId, shop.catalogId), eq(p.slug, 'odd')) }))!.id
  agent = await givenAdminToken(t.app, t.deps, 'actions@returns.test', 'SUPPORT')
})
after(() => t.close())

const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${agent}` }, ...(payload ? { payload } : {}) })
const sandboxParcel = (awb: string, status: string) => t.app.inject({ method: 'POST', url: `/api/v1/sandbox/shipments/${awb}/${status}` })

const STATUSES = ['REQUESTED', 'UNDER_REVIEW', 'NEEDS_INFO', 'APPROVED', 'REJECTED', 'REFUND_PENDING', 'REFUNDED', 'REFUND_FAILED', 'RESOLVED'] as const
/** Every action of the back office on a return: a move to each status, the pickup and the quality check. */
const EVERY_ACTION = [...STATUSES.map((s) => `status:${s}`), 'bookPickup', 'qualityCheck']

interface AdminReturn {
  id: string
  status: string
  orderId: string
  orderNumber: string
  items: { orderItemId: string; name: string; sku: string }[]
  pickup: { awb: string; status: string } | null
  qualityCheck: { result: string } | null
  nextStatuses: string[]
  actions: { startRefund: boolean; bookPickup: boolean; qualityCheck: boolean }
  updatedAt: string
}

/** The actions an answer lists, as names of EVERY_ACTION. */
function listed(r: AdminReturn): string[] {
  assert.equal(r.actions.startRefund, r.nextStatuses.includes('REFUND_PENDING'), 'startRefund is the move to REFUND_PENDING')
  return EVERY_ACTION.filter((a) => (a.startsWith('status:') ? r.nextStatuses.includes(a.slice(7)) : r.actions[a as 'bookPickup' | 'qualityCheck']))
}

/** Tries one action on the return as it is; the answer. */
function attempt(r: AdminReturn, action: string) {
  if (action.startsWith('status:')) return admin('POST', `/returns/${r.id}/status`, { status: action.slice(7) })
  if (action === 'bookPickup') return admin('POST', `/returns/${r.id}/pickup`, { weightGrams: 500 })
  // A result other than one already recorded (the same again is a retry answered 200 that changes nothing).
  return admin('POST', `/returns/${r.id}/quality-check`, { result: r.qualityCheck?.result === 'PASSED' ? 'FAILED' : 'PASSED', note: 'Checked' })
}

async function shown(id: string): Promise<AdminReturn> {
  const res = await admin('GET', `/returns/${id}`)
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data
}

/** An order of `quantity` units of `slug`, paid online and delivered through a parcel the sandbox carrier brought. */
async function deliveredOrder(customer: CustomerFixture, slug: string, quantity: number) {
  const placed = await placeOrder(t, customer, { items: [{ productId: shop.ids[slug], quantity }], shippingAddress: ADDRESS, paymentMode: 'PREPAID' })
  assert.equal(placed.statusCode, 201, placed.body)
  const order = placed.json().data
  assert.equal((await sandboxAction(t, order.paymentClientAction, 'pay')).statusCode, 200)
  const parcel = await admin('POST', `/orders/${order.id}/shipments`, { weightGrams: 1000 })
  assert.equal(parcel.statusCode, 201, parcel.body)
  const delivered = await sandboxParcel(parcel.json().data.awb, 'DELIVERED')
  assert.equal(delivered.statusCode, 200, delivered.body)
  return order as { id: string; orderNumber: string; items: { id: string }[] }
}

async function move(id: string, ...statuses: string[]) {
  let answer: AdminReturn | undefined
  for (const status of statuses) {
    const res = await admin('POST', `/returns/${id}/status`, { status, note: 'Checked' })
    assert.equal(res.statusCode, 200, `${status}: ${res.body}`)
    answer = res.json().data
  }
  return answer!
}

interface Scenario {
  /** The state, in words. */
  name: string
  resolution?: string
  product?: string
  /** Brings a REQUESTED return to the state. */
  reach(id: string): Promise<unknown>
  nextStatuses: string[]
  bookPickup: boolean
  qualityCheck: boolean
}

const approved = (id: string) => move(id, 'UNDER_REVIEW', 'APPROVED')
async function withPickup(id: string, status: 'CREATED' | 'DELIVERED') {
  await approved(id)
  const booked = await admin('POST', `/returns/${id}/pickup`, { weightGrams: 500 })
  assert.equal(booked.statusCode, 200, booked.body)
  const answer: AdminReturn = booked.json().data
  assert.deepEqual([answer.actions.bookPickup, answer.actions.qualityCheck], [false, false], 'the pickup answer lists what is allowed after it')
  if (status === 'DELIVERED') assert.equal((await sandboxParcel(answer.pickup!.awb, 'DELIVERED')).statusCode, 200)
}

const SCENARIOS: Scenario[] = [
  { name: 'REQUESTED', reach: async () => {}, nextStatuses: ['UNDER_REVIEW'], bookPickup: false, qualityCheck: false },
  { name: 'UNDER_REVIEW', reach: (id) => move(id, 'UNDER_REVIEW'), nextStatuses: ['NEEDS_INFO', 'APPROVED', 'REJECTED'], bookPickup: false, qualityCheck: false },
  { name: 'NEEDS_INFO', reach: (id) => move(id, 'UNDER_REVIEW', 'NEEDS_INFO'), nextStatuses: ['UNDER_REVIEW'], bookPickup: false, qualityCheck: false },
  // Units brought back by hand: checked without a pickup.
  { name: 'APPROVED, no pickup booked', reach: approved, nextStatuses: ['REFUND_PENDING'], bookPickup: true, qualityCheck: true },
  { name: 'APPROVED, its pickup on the way', reach: (id) => withPickup(id, 'CREATED'), nextStatuses: ['REFUND_PENDING'], bookPickup: false, qualityCheck: false },
  { name: 'APPROVED, its pickup received', reach: (id) => withPickup(id, 'DELIVERED'), nextStatuses: ['REFUND_PENDING'], bookPickup: false, qualityCheck: true },
  {
    name: 'APPROVED, checked',
    reach: async (id) => {
      await approved(id)
      assert.equal((await admin('POST', `/returns/${id}/quality-check`, { result: 'PASSED' })).statusCode, 200)
    },
    nextStatuses: ['REFUND_PENDING'],
    bookPickup: false,
    qualityCheck: false,
  },
  { name: 'APPROVED, the customer keeps the item', resolution: 'KEEP_ITEM_WALLET_CREDIT', reach: approved, nextStatuses: ['REFUND_PENDING'], bookPickup: false, qualityCheck: false },
  { name: 'REJECTED', reach: (id) => move(id, 'UNDER_REVIEW', 'REJECTED'), nextStatuses: [], bookPickup: false, qualityCheck: false },
  {
    // The sandbox provider answers at once, so a return waits in REFUND_PENDING only while a real
    // provider has not answered: set here as it would stand then.
    name: 'REFUND_PENDING',
    reach: async (id) => {
      await approved(id)
      await t.deps.database.db.execute(sql`update return_requests set status = 'REFUND_PENDING' where id = ${id}`)
    },
    nextStatuses: [],
    bookPickup: true,
    qualityCheck: true,
  },
  { name: 'REFUNDED', reach: (id) => move(id, 'UNDER_REVIEW', 'APPROVED', 'REFUND_PENDING'), nextStatuses: ['RESOLVED'], bookPickup: true, qualityCheck: true },
  {
    name: 'REFUND_FAILED',
    resolution: 'ORIGINAL_PAYMENT_REFUND',
    product: 'odd',
    reach: async (id) => assert.equal((await move(id, 'UNDER_REVIEW', 'APPROVED', 'REFUND_PENDING')).status, 'REFUND_FAILED'),
    nextStatuses: ['REFUND_PENDING'],
    bookPickup: true,
    qualityCheck: true,
  },
  { name: 'RESOLVED, refunded', reach: (id) => move(id, 'UNDER_REVIEW', 'APPROVED', 'REFUND_PENDING', 'RESOLVED'), nextStatuses: [], bookPickup: true, qualityCheck: true },
  {
    name: 'RESOLVED, replaced',
    resolution: 'REPLACEMENT',
    reach: async (id) => assert.equal((await approved(id)).status, 'RESOLVED'),
    nextStatuses: [],
    bookPickup: true,
    qualityCheck: true,
  },
]

describe('what the back office may do with a return now', () => {
  for (const scenario of SCENARIOS) {
    const allowed = [...scenario.nextStatuses.map((s) => `status:${s}`), ...(scenario.bookPickup ? ['bookPickup'] : []), ...(scenario.qualityCheck ? ['qualityCheck'] : [])]
    test(`${scenario.name}: lists ${allowed.join(', ') || 'nothing'}; each listed action is accepted, every other is 409`, async () => {
      const customer = await givenCustomer(t.app, shop.partner)
      const product = scenario.product ?? 'earbuds'
      // One unit a return: a return of its own for each listed action (each changes the state).
      const order = await deliveredOrder(customer, product, Math.max(1, allowed.length))
      let unit = 0
      const fresh = async () => {
        // The sandbox fails an amount ending in 13 paise once a payment: a REFUND_FAILED return needs an order of its own.
        const o = product === 'odd' && unit > 0 ? await deliveredOrder(customer, product, 1) : order
        unit += 1
        const created = await t.app.inject({
          method: 'POST',
          url: '/api/v1/returns',
          headers: customerHeaders(customer),
          payload: { orderId: o.id, reason: 'Damaged', detail: 'Does not work', requestedResolution: scenario.resolution ?? 'WALLET_CREDIT', items: [{ orderItemId: o.items[0]!.id, quantity: 1, reason: 'Damaged' }] },
        })
        assert.equal(created.statusCode, 201, created.body)
        const id: string = created.json().data.id
        await scenario.reach(id)
        return shown(id)
      }

      const first = await fresh()
      assert.deepEqual(
        { nextStatuses: first.nextStatuses, bookPickup: first.actions.bookPickup, qualityCheck: first.actions.qualityCheck },
        { nextStatuses: scenario.nextStatuses, bookPickup: scenario.bookPickup, qualityCheck: scenario.qualityCheck },
      )
      assert.deepEqual(listed(first), allowed)
      // The list's line says the same.
      const line = (await admin('GET', `/returns?status=${first.status}&limit=100`)).json().data.find((r: { id: string }) => r.id === first.id)
      assert.deepEqual({ nextStatuses: line.nextStatuses, actions: line.actions, orderNumber: line.orderNumber }, { nextStatuses: first.nextStatuses, actions: first.actions, orderNumber: first.orderNumber })

      for (const action of EVERY_ACTION.filter((a) => !allowed.includes(a))) {
        const res = await attempt(first, action)
        assert.equal(res.statusCode, 409, `${action} is not listed in ${scenario.name}: ${res.body}`)
      }
      const after = await shown(first.id)
      assert.deepEqual([after.status, after.updatedAt, after.pickup?.awb, after.qualityCheck], [first.status, first.updatedAt, first.pickup?.awb, first.qualityCheck], 'a refused action changes nothing')

      for (const [i, action] of allowed.entries()) {
        const r = i === 0 ? first : await fresh()
        const res = await attempt(r, action)
        assert.equal(res.statusCode, 200, `${action} is listed in ${scenario.name}: ${res.body}`)
        const answer: AdminReturn = res.json().data
        assert.deepEqual([answer.nextStatuses, answer.actions], [(await shown(r.id)).nextStatuses, (await shown(r.id)).actions], 'the action answers what is allowed after it')
      }
    })
  }
})

describe('words instead of ids', () => {
  test("the back-office return answers the order's number and each item's product name and SKU", async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await deliveredOrder(customer, 'atta', 2)
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/returns',
      headers: customerHeaders(customer),
      payload: { orderId: order.id, reason: 'Torn', detail: 'The bag was torn', requestedResolution: 'WALLET_CREDIT', items: [{ orderItemId: order.items[0]!.id, quantity: 2, reason: 'Torn' }] },
    })
    assert.equal(created.statusCode, 201, created.body)
    const customerView = created.json().data
    assert.equal('orderNumber' in customerView, false, "the customer's answer is unchanged")
    assert.deepEqual(Object.keys(customerView.items[0]).sort(), ['id', 'orderItemId', 'quantity', 'reason', 'requestedAmount'])
    const r = await shown(customerView.id)
    assert.equal(r.orderNumber, order.orderNumber)
    assert.deepEqual(r.items.map((i) => [i.orderItemId, i.name, i.sku]), [[order.items[0]!.id, 'Atta 5 kg', 'A-1']])
    const line = (await admin('GET', `/returns?search=${encodeURIComponent(order.orderNumber)}`)).json().data
    assert.deepEqual(line.map((l: { id: string; orderNumber: string }) => [l.id, l.orderNumber]), [[r.id, order.orderNumber]])
  })
})
