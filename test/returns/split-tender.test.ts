// DI-18: returns of an order paid with three tenders at once: the card (an online payment through
// the sandbox provider), Wallet Cash and Reward Points. Whatever the returns (one full return, or
// partial returns one after another, one of them approved for less), each tender gets back at most
// what it paid, the points given back are at most the points spent, and a return's refunds add up
// to its approved amount to the paisa. Prices are chosen so that the card / wallet split of most
// amounts does not divide evenly.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createCatalog } from '../../src/modules/catalog/index.ts'
import { importCatalog } from '../../src/modules/catalog/import.ts'
import { seedDeliveryZones } from '../../src/modules/checkout/seed-zones.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'
import { ADDRESS, credit, placeOrder, sandboxAction } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let partner: PartnerFixture
let agent: string
const ids: Record<string, string> = {}

before(async () => {
  t = await createTestApp({ clock })
  const db = t.deps.database.db
  await seedDeliveryZones(db)
  const catalog = await createCatalog(db, 'Split tender')
  await importCatalog(db, catalog.id, {
    categories: [{ slug: 'wear', name: 'Wear' }],
    products: [
      { slug: 'tee', name: 'Tee', brand: 'Levis', sku: 'T', categorySlug: 'wear', sellingPrice: '3333.33', mrp: '3999.00', stock: 100 },
      { slug: 'cap', name: 'Cap', brand: 'Puma', sku: 'C', categorySlug: 'wear', sellingPrice: '1000.01', mrp: '1200.00', stock: 100 },
    ],
  })
  for (const p of await db.query.products.findMany()) ids[p.slug] = p.id
  partner = await givenPartner(t.deps, 'Split tender partner', catalog.id)
  agent = await givenAdminToken(t.app, t.deps, 'split-tender@admin.test', 'SUPPORT')
})
after(() => t.close())

const db = () => t.deps.database.db
const admin = (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${agent}` }, payload })
/** "1234.56" -> 123456n */
const paise = (rupees: string) => {
  assert.match(rupees, /^\d+\.\d{2}$/)
  return BigInt(rupees.replace('.', ''))
}

const POINTS = 2000n
const WALLET = 700_000n

/**
 * 3 tees and 11 caps (₹21,000.10, free shipping), paid 2,000 points (₹2,000: the 10% cap allows
 * 2,100), ₹7,000 Wallet Cash and ₹12,000.10 by card on the sandbox checkout; then delivered.
 */
async function splitTenderOrder() {
  const customer = await givenCustomer(t.app, partner)
  await credit(t, clock, customer, 'REWARD_POINTS', POINTS)
  await credit(t, clock, customer, 'WALLET_CASH', WALLET)
  const res = await placeOrder(t, customer, {
    items: [{ productId: ids.tee, quantity: 3 }, { productId: ids.cap, quantity: 11 }],
    shippingAddress: ADDRESS,
    paymentMode: 'PREPAID',
    useRewardPoints: true,
    useWalletCash: true,
  })
  assert.equal(res.statusCode, 201, res.body)
  const created = res.json().data
  assert.deepEqual(
    [created.itemsTotal, created.shippingCharge, created.rewardPointsUsed, created.walletCashUsed, created.amountPayable],
    ['21000.10', '0.00', 2000, '7000.00', '12000.10'],
  )
  assert.equal((await sandboxAction(t, created.paymentClientAction, 'pay')).statusCode, 200)
  for (const status of ['PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) {
    // Every unit in a parcel (the merchant's own delivery) before SHIPPED: an order is not shipped with nothing in one.
    if (status === 'SHIPPED') assert.equal((await admin(`/orders/${created.id}/shipments`, { carrier: 'manual' })).statusCode, 201)
    const moved = await admin(`/orders/${created.id}/status`, { status })
    assert.equal(moved.statusCode, 200, moved.body)
  }
  const order = (await t.app.inject({ method: 'GET', url: `/api/v1/orders/${created.id}`, headers: customerHeaders(customer) })).json().data
  assert.equal(order.paymentStatus, 'PAID')
  const card = (await db().query.payments.findMany({ where: (p, { eq }) => eq(p.orderId, order.id) })).filter((p) => p.status === 'SUCCEEDED')
  assert.equal(card.length, 1)
  assert.equal(card[0]!.amount, 1_200_010n)
  return { customer, order, cardPaid: card[0]!.amount, cardPaymentId: card[0]!.id }
}

type Line = { orderItemId: string; quantity: number }

/** Requests an ORIGINAL_PAYMENT_REFUND return, approves it (for less when told) and refunds it; the sandbox's one-off refund failure is retried. */
async function refundedReturn(customer: CustomerFixture, orderId: string, lines: Line[], approvedAmount?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/returns',
    headers: customerHeaders(customer),
    payload: { orderId, reason: 'Does not fit', detail: 'Too small', requestedResolution: 'ORIGINAL_PAYMENT_REFUND', items: lines.map((l) => ({ ...l, reason: 'size' })) },
  })
  assert.equal(res.statusCode, 201, res.body)
  const created = res.json().data
  assert.equal((await admin(`/returns/${created.id}/status`, { status: 'UNDER_REVIEW' })).statusCode, 200)
  const approved = await admin(`/returns/${created.id}/status`, approvedAmount ? { status: 'APPROVED', approvedAmount, note: 'Tag missing' } : { status: 'APPROVED' })
  assert.equal(approved.statusCode, 200, approved.body)
  let done = (await admin(`/returns/${created.id}/status`, { status: 'REFUND_PENDING' })).json().data
  if (done.status === 'REFUND_FAILED') {
    clock.advance(1000)
    done = (await admin(`/returns/${created.id}/status`, { status: 'REFUND_PENDING', note: 'retry' })).json().data
  }
  assert.equal(done.status, 'REFUNDED', JSON.stringify(done))
  return { id: created.id as string, requested: paise(created.requestedAmount), approved: paise(done.approvedAmount) }
}

/** What went back to each tender of the order, from the refunds and the ledger. */
async function tenderRefunds(orderId: string, returnIds: string[]) {
  const rows = (await db().query.refunds.findMany({ where: (r, { eq }) => eq(r.orderId, orderId) })).filter((r) => r.status !== 'FAILED')
  const sum = (list: { amount: bigint }[]) => list.reduce((s, r) => s + r.amount, 0n)
  const pointsBack = await db().query.ledgerEntries.findMany({
    where: (e, { and, eq, inArray }) => and(eq(e.kind, 'REWARD_POINTS'), eq(e.reason, 'RETURN_POINTS_BACK'), inArray(e.reference, returnIds)),
  })
  return {
    card: sum(rows.filter((r) => r.method === 'ORIGINAL_PAYMENT')),
    wallet: sum(rows.filter((r) => r.method === 'WALLET_CREDIT')),
    points: sum(pointsBack),
    perReturn: new Map(returnIds.map((id) => [id, sum(rows.filter((r) => r.returnRequestId === id))])),
    rows,
  }
}

describe('split-tender refunds (card + Wallet Cash + Reward Points)', () => {
  test('a full return gives each tender back exactly what it paid: card, Wallet Cash, all 2,000 points', async () => {
    const { customer, order, cardPaid, cardPaymentId } = await splitTenderOrder()
    const r = await refundedReturn(customer, order.id, order.items.map((i: { id: string; quantity: number }) => ({ orderItemId: i.id, quantity: i.quantity })))
    const paidForItems = order.items.reduce((s: bigint, i: { paidAmount: string }) => s + paise(i.paidAmount), 0n)
    assert.equal(r.requested, paidForItems)
    assert.equal(r.approved, cardPaid + WALLET, 'free shipping: the items are everything the card and the wallet paid')
    const back = await tenderRefunds(order.id, [r.id])
    assert.ok(back.rows.filter((x) => x.method === 'ORIGINAL_PAYMENT').every((x) => x.paymentId === cardPaymentId && x.status === 'SUCCEEDED'))
    assert.equal(back.card, cardPaid, 'card refund = card paid')
    assert.equal(back.wallet, WALLET, 'wallet refund = wallet paid')
    assert.equal(back.card + back.wallet, r.approved, 'Σ tenders = refund total to the paisa')
    assert.equal(back.perReturn.get(r.id), r.approved)
    assert.equal(back.points, POINTS, 'every point spent comes back when every unit comes back')
    const fetched = (await t.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: customerHeaders(customer) })).json().data
    assert.equal(fetched.paymentStatus, 'REFUNDED')
  })

  test('partial returns one after another until every unit is back: no tender ever gets back more than it paid; each return adds up', async () => {
    const { customer, order, cardPaid } = await splitTenderOrder()
    const tee = order.items.find((i: { productId: string }) => i.productId === ids.tee)!.id as string
    const cap = order.items.find((i: { productId: string }) => i.productId === ids.cap)!.id as string
    const steps: { lines: Line[] }[] = [
      { lines: [{ orderItemId: cap, quantity: 1 }] },
      { lines: [{ orderItemId: tee, quantity: 1 }] },
      { lines: [{ orderItemId: cap, quantity: 4 }] },
      { lines: [{ orderItemId: tee, quantity: 1 }, { orderItemId: cap, quantity: 3 }] },
      // The rest: every unit has now come back.
      { lines: [{ orderItemId: tee, quantity: 1 }, { orderItemId: cap, quantity: 3 }] },
    ]
    const returnIds: string[] = []
    let approvedTotal = 0n
    for (const [n, step] of steps.entries()) {
      const current = (await t.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: customerHeaders(customer) })).json().data
      for (const line of step.lines) {
        const item = current.items.find((i: { id: string }) => i.id === line.orderItemId)
        assert.ok(item.returnableQuantity >= line.quantity, `step ${n}: ${line.quantity} of ${item.returnableQuantity} returnable`)
      }
      const r = await refundedReturn(customer, order.id, step.lines)
      returnIds.push(r.id)
      approvedTotal += r.approved
      const back = await tenderRefunds(order.id, returnIds)
      assert.ok(back.card <= cardPaid, `after return ${n + 1}: card refunds ${back.card} > card paid ${cardPaid}`)
      assert.ok(back.wallet <= WALLET, `after return ${n + 1}: wallet refunds ${back.wallet} > wallet paid ${WALLET}`)
      assert.ok(back.points <= POINTS, `after return ${n + 1}: ${back.points} points back > ${POINTS} spent`)
      assert.equal(back.perReturn.get(r.id), r.approved, `return ${n + 1}: its refunds add up to its approved amount`)
      assert.equal(back.card + back.wallet, approvedTotal, `after return ${n + 1}: Σ tenders = Σ approved`)
    }
    const after = (await t.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: customerHeaders(customer) })).json().data
    assert.ok(after.items.every((i: { returnableQuantity: number }) => i.returnableQuantity === 0), 'every unit came back')
    const back = await tenderRefunds(order.id, returnIds)
    assert.equal(back.card + back.wallet, cardPaid + WALLET, 'everything the card and the wallet paid came back, to the paisa')
    assert.equal(back.points, POINTS, 'every point spent came back over the partial returns')
    // The wallet balance is exactly the Wallet Cash given back (all ₹7,000 was spent on the order).
    const wallet = await db().query.ledgerEntries.findMany({ where: (e, { and, eq }) => and(eq(e.userId, customer.userId), eq(e.kind, 'WALLET_CASH')) })
    assert.equal(wallet.reduce((s, e) => s + e.amount, 0n), back.wallet)
  })
})
