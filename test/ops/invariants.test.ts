// The invariant sweep (test/helpers/invariants.ts) that every test app runs at close(): healthy data
// reports nothing, and each check fires on the violation it is about. Each violation is written
// with raw SQL inside a transaction that is rolled back, so the cases do not disturb each other.
// Where the database itself refuses the violation (products_stock_check, the refunds_within_paid
// trigger), the case switches that guard off inside the same rolled-back transaction: the sweep
// still has to catch what a dropped or bypassed guard would let through.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'drizzle-orm'
import { type Executor, queryRows } from '../../src/db/client.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { createCoupon } from '../../src/modules/checkout/coupons.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer, givenPartner } from '../helpers/factories.ts'
import { invariantViolations } from '../helpers/invariants.ts'
import { ADDRESS, credit, givenShop, placeOrder, sandboxAction, type Shop } from '../helpers/shop.ts'
import { uploadedImage } from '../helpers/uploads.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop
let agent: string
let db: Executor
/** The healthy fixture: one of each kind of order, a return, a replacement and a ticket. */
const f = {} as {
  alice: CustomerFixture
  bob: CustomerFixture
  cod: { id: string; itemId: string }
  paid: { id: string; paymentId: string }
  pending: { id: string; paymentId: string }
  cancelled: { id: string }
  wallet: { id: string }
  returned: { id: string; returnId: string; returnItemId: string }
  replacementReturnId: string
  ticketId: string
  aliceUpload: string
  bobUpload: string
  couponId: string
}

const call = (customer: CustomerFixture, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: customerHeaders(customer), payload })
const admin = (method: 'POST', url: string, payload: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${agent}` }, payload })

async function order(customer: CustomerFixture, payload: object) {
  const res = await placeOrder(t, customer, { shippingAddress: ADDRESS, ...payload })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data
}
async function deliver(orderId: string) {
  for (const status of ['PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) {
    // Every unit in a parcel (the merchant's own delivery) before SHIPPED: an order is not shipped with nothing in one.
    if (status === 'SHIPPED') assert.equal((await admin('POST', `/orders/${orderId}/shipments`, { carrier: 'manual' })).statusCode, 201)
    const res = await admin('POST', `/orders/${orderId}/status`, { status })
    assert.equal(res.statusCode, 200, res.body)
  }
}
async function moveReturn(id: string, status: string) {
  const res = await admin('POST', `/returns/${id}/status`, { status })
  assert.equal(res.statusCode, 200, res.body)
}
const one = async <T>(query: ReturnType<typeof sql>) => (await queryRows<T>(db, query))[0]!

before(async () => {
  t = await createTestApp({ clock, skipInvariants: true })
  db = t.deps.database.db
  shop = await givenShop(t)
  agent = await givenAdminToken(t.app, t.deps, 'sweep@admin.test', 'SUPPORT')
  f.alice = await givenCustomer(t.app, shop.partner)
  f.bob = await givenCustomer(t.app, shop.partner)
  const atta = shop.ids.atta!
  const earbuds = shop.ids.earbuds!

  const cod = await order(f.alice, { items: [{ productId: atta, quantity: 2 }], paymentMode: 'COD' })
  f.cod = { id: cod.id, itemId: cod.items[0].id }

  const paid = await order(f.alice, { items: [{ productId: earbuds, quantity: 1 }], paymentMode: 'PREPAID' })
  assert.equal((await sandboxAction(t, paid.paymentClientAction, 'pay')).statusCode, 200)
  f.paid = { id: paid.id, paymentId: (await one<{ id: string }>(sql`select id from payments where order_id = ${paid.id}`)).id }

  const pending = await order(f.alice, { items: [{ productId: atta, quantity: 1 }], paymentMode: 'PREPAID' })
  f.pending = { id: pending.id, paymentId: (await one<{ id: string }>(sql`select id from payments where order_id = ${pending.id}`)).id }

  const cancelled = await order(f.bob, { items: [{ productId: atta, quantity: 1 }], paymentMode: 'COD' })
  assert.equal((await call(f.bob, 'POST', `/orders/${cancelled.id}/cancel`, { reason: 'Changed my mind' })).statusCode, 200)
  f.cancelled = { id: cancelled.id }

  // Wallet Cash, Reward Points and a coupon on one COD order, delivered, then partly returned for Wallet Cash.
  f.couponId = (await createCoupon(db, shop.partner.partnerId, { code: 'SWEEP50', kind: 'FLAT', value: 5_000n }, clock.now())).id
  await credit(t, clock, f.bob, 'WALLET_CASH', 20_000n)
  await credit(t, clock, f.bob, 'REWARD_POINTS', 100n)
  const wallet = await order(f.bob, {
    items: [{ productId: atta, quantity: 3 }, { productId: earbuds, quantity: 1 }],
    paymentMode: 'COD',
    couponCode: 'SWEEP50',
    useWalletCash: true,
    useRewardPoints: true,
  })
  f.wallet = { id: wallet.id }
  await deliver(wallet.id)
  const item = wallet.items.find((i: { productId: string }) => i.productId === atta)
  const refund = await call(f.bob, 'POST', '/returns', {
    orderId: wallet.id,
    reason: 'Damaged',
    detail: 'Torn pack',
    requestedResolution: 'WALLET_CREDIT',
    items: [{ orderItemId: item.id, quantity: 1, reason: 'Torn' }],
    imageUrls: [await uploadedImage(t, f.bob, 'returns')],
  })
  assert.equal(refund.statusCode, 201, refund.body)
  const returnId = refund.json().data.id
  for (const status of ['UNDER_REVIEW', 'APPROVED', 'REFUND_PENDING']) await moveReturn(returnId, status)
  f.returned = { id: wallet.id, returnId, returnItemId: refund.json().data.items[0].id }

  // A replacement: a zero-value order with no idempotency key and no payment.
  await deliver(cod.id)
  const replace = await call(f.alice, 'POST', '/returns', {
    orderId: cod.id,
    reason: 'Wrong item',
    detail: 'Sent the wrong flour',
    requestedResolution: 'REPLACEMENT',
    items: [{ orderItemId: f.cod.itemId, quantity: 1, reason: 'Wrong' }],
  })
  assert.equal(replace.statusCode, 201, replace.body)
  f.replacementReturnId = replace.json().data.id
  for (const status of ['UNDER_REVIEW', 'APPROVED']) await moveReturn(f.replacementReturnId, status)

  f.aliceUpload = await uploadedImage(t, f.alice, 'support')
  f.bobUpload = await uploadedImage(t, f.bob, 'support')
  const ticket = await call(f.alice, 'POST', '/support/tickets', { topic: 'Late', detail: 'Where is it?', orderId: paid.id, imageUrls: [f.aliceUpload] })
  assert.equal(ticket.statusCode, 201, ticket.body)
  f.ticketId = ticket.json().data.id
})
after(() => t.close())

class Rollback extends Error {}

/** Applies `change` in a transaction, sweeps inside it, and rolls everything back. */
async function violationsWhen(change: (tx: Executor) => Promise<unknown>): Promise<string[]> {
  let found: string[] = []
  try {
    await t.deps.database.db.transaction(async (tx) => {
      await change(tx)
      found = await invariantViolations(tx, { now: clock.now() })
      throw new Rollback()
    })
  } catch (err) {
    if (!(err instanceof Rollback)) throw err
  }
  return found
}

/** Asserts that the sweep reports a violation of `rule` (its start) whose detail mentions `subject`. */
function assertReports(found: string[], rule: string, subject: string) {
  assert.ok(
    found.some((line) => line.startsWith(rule) && line.includes(subject)),
    `expected a violation "${rule}" about ${subject}; the sweep reported:\n  ${found.join('\n  ') || '(nothing)'}`,
  )
}

const exec = (tx: Executor, query: ReturnType<typeof sql>) => tx.execute(query)

describe('invariant sweep', () => {
  test('healthy data (COD, paid, pending, cancelled, wallet+points+coupon, a refunded return, a replacement, a ticket) reports nothing, quickly', async () => {
    const replacement = await one<{ replacement_order_id: string | null }>(sql`select replacement_order_id from return_requests where id = ${f.replacementReturnId}`)
    assert.ok(replacement.replacement_order_id, 'the replacement order exists')
    const refunds = await one<{ n: number }>(sql`select count(*)::int as n from refunds where return_request_id = ${f.returned.returnId}`)
    assert.equal(refunds.n, 1)
    assert.deepEqual(await invariantViolations(db, { now: clock.now() }), [])
    const started = performance.now()
    assert.deepEqual(await invariantViolations(db), [])
    const ms = performance.now() - started
    // One statement: ~15 ms on PostgreSQL, ~40 ms on PGlite when the machine is quiet (several times
    // that under a loaded parallel run); the bound only catches a sweep that went quadratic.
    assert.ok(ms < 1000, `the sweep took ${ms.toFixed(0)} ms`)
  })

  test('I1: negative stock (products_stock_check dropped inside the transaction)', async () => {
    const found = await violationsWhen(async (tx) => {
      await exec(tx, sql`alter table products drop constraint products_stock_check`)
      await exec(tx, sql`update products set stock = -1 where id = ${shop.ids.hot!}`)
    })
    assertReports(found, 'I1 products.stock >= 0', `product ${shop.ids.hot} has stock -1`)
  })

  test("I1: a location's level off its ledger, and a catalog at locations whose stock is not what its locations hold", async () => {
    const hot = shop.ids.hot!
    const variant = `var_${hot.slice(4)}`
    const found = await violationsWhen(async (tx) => {
      await exec(tx, sql`update catalogs set stock_at_locations = true where id = ${shop.catalogId}`)
      await exec(tx, sql`insert into locations (id, catalog_id, name, address_line1, city, state, pincode) values ('loc_sweep', ${shop.catalogId}, 'Sweep', '1 Road', 'Bengaluru', 'Karnataka', '560001')`)
      // 50 units of hot held, only 40 of them in the ledger; atta and earbuds held nowhere.
      await exec(tx, sql`insert into inventory_levels (location_id, product_id, variant_id, on_hand) values ('loc_sweep', ${hot}, ${variant}, 50)`)
      await exec(tx, sql`insert into inventory_moves (id, catalog_id, location_id, product_id, variant_id, kind, quantity, actor, reason) values ('imv_sweep', ${shop.catalogId}, 'loc_sweep', ${hot}, ${variant}, 'RECEIVE', 40, 'system', 'x')`)
    })
    assertReports(found, "I1 a location's level of a variant is the sum of its inventory moves", `location loc_sweep holds 50 of ${variant}, its moves add up to 40`)
    assertReports(found, 'I1 a catalog at locations has the stock of each unit its levels add up to', `unit var_${shop.ids.atta!.slice(4)} of catalog ${shop.catalogId} has stock`)
    assert.ok(!found.some((line) => line.includes(`unit ${variant} `)), 'hot is held in full: no stock violation for it')
  })

  test('I1: a live order whose reservation was released, and a cancelled order that never released', async () => {
    const released = await violationsWhen((tx) => exec(tx, sql`update orders set released_at = now() where id = ${f.paid.id}`))
    assertReports(released, 'I1 only a cancelled order, or one returned to origin, has released its reservation', f.paid.id)
    const kept = await violationsWhen((tx) => exec(tx, sql`update orders set released_at = null where id = ${f.cancelled.id}`))
    assertReports(kept, 'I1 a cancelled order, or one returned to origin, has given back what it reserved', f.cancelled.id)
  })

  test('I2: two keys for one order, a key for a missing or foreign order, an order without its key', async () => {
    const twice = await violationsWhen((tx) =>
      exec(tx, sql`insert into idempotency_keys (partner_id, user_id, route, key, fingerprint, state, resource_id, created_at, expires_at)
                   select partner_id, user_id, route, key || '-again', fingerprint, state, resource_id, created_at, expires_at
                     from idempotency_keys where resource_id = ${f.paid.id}`),
    )
    assertReports(twice, 'I2 one idempotency key per created resource', f.paid.id)
    const missing = await violationsWhen((tx) => exec(tx, sql`update idempotency_keys set resource_id = 'ord_missing' where resource_id = ${f.cod.id}`))
    assertReports(missing, 'I2 a POST /orders key points at an order of its own partner and customer', 'missing order ord_missing')
    assertReports(missing, 'I2 every order (except replacements) has its POST /orders key', f.cod.id)
    const foreign = await violationsWhen((tx) => exec(tx, sql`update idempotency_keys set user_id = ${f.bob.userId} where resource_id = ${f.cod.id}`))
    assertReports(foreign, 'I2 a POST /orders key points at an order of its own partner and customer', `order ${f.cod.id} of partner`)
    // Once the key's 24 hours are over, the purge may remove it: then a missing key is fine.
    const purged = await violationsWhen((tx) => exec(tx, sql`delete from idempotency_keys where resource_id = ${f.cod.id}`))
    assertReports(purged, 'I2 every order (except replacements) has its POST /orders key', f.cod.id)
    let later: string[] = []
    await violationsWhen(async (tx) => {
      await exec(tx, sql`delete from idempotency_keys where resource_id = ${f.cod.id}`)
      later = await invariantViolations(tx, { now: new Date(clock.now().getTime() + 25 * 3_600_000) })
    })
    assert.deepEqual(later, [])
  })

  test('I2: a payment-route key for a payment of another order', async () => {
    const found = await violationsWhen((tx) =>
      exec(tx, sql`insert into idempotency_keys (partner_id, user_id, route, key, fingerprint, state, resource_id, created_at, expires_at)
                   values (${shop.partner.partnerId}, ${f.alice.userId}, ${`POST /orders/${f.pending.id}/payments`}, 'k1', 'x', 'DONE', ${f.paid.paymentId}, now(), now() + interval '1 day')`),
    )
    assertReports(found, 'I2 a POST /orders/{id}/payments key points at a payment of that order', f.paid.paymentId)
  })

  test('I2: a second capture that was never refunded, and a coupon counted twice', async () => {
    const found = await violationsWhen((tx) =>
      exec(tx, sql`insert into payments (id, order_id, partner_id, provider, provider_session_id, amount, status, created_at, updated_at)
                   select 'pay_double', order_id, partner_id, provider, 'sess_double', amount, 'SUCCEEDED', now(), now() from payments where id = ${f.paid.paymentId}`),
    )
    assertReports(found, 'I2 at most one charge per order', f.paid.id)
    const coupon = await violationsWhen((tx) => exec(tx, sql`update coupons set used_count = used_count + 1 where id = ${f.couponId}`))
    assertReports(coupon, 'I2 a coupon is used once per order, by a live order, and counted', `coupon ${f.couponId} used_count 2 but 1 redemptions`)
    const released = await violationsWhen((tx) => exec(tx, sql`delete from coupon_redemptions where order_id = ${f.wallet.id}`))
    assertReports(released, 'I2 a coupon is used once per order', `order ${f.wallet.id}`)
  })

  test('I3: a negative balance, an order debit that does not match the order, a credit for an order of another customer', async () => {
    const negative = await violationsWhen((tx) =>
      exec(tx, sql`insert into ledger_entries (id, user_id, partner_id, kind, amount, reason, created_at)
                   values ('led_neg', ${f.alice.userId}, ${shop.partner.partnerId}, 'WALLET_CASH', -100, 'ADJUSTMENT: test', now())`),
    )
    assertReports(negative, 'I3 Wallet Cash and Reward Points balances >= 0', `customer ${f.alice.userId} has WALLET_CASH balance -100`)
    const unpaid = await violationsWhen((tx) => exec(tx, sql`delete from ledger_entries where reason = 'ORDER_PAYMENT' and kind = 'WALLET_CASH' and reference = ${f.wallet.id}`))
    assertReports(unpaid, 'I3 order ledger entries match the order', `ORDER_PAYMENT WALLET_CASH of order ${f.wallet.id}: expected -`)
    const foreign = await violationsWhen((tx) =>
      exec(tx, sql`insert into ledger_entries (id, user_id, partner_id, kind, amount, reason, reference, created_at)
                   values ('led_foreign', ${f.alice.userId}, ${shop.partner.partnerId}, 'WALLET_CASH', 500, 'ORDER_CANCELLED', ${f.cancelled.id}, now())`),
    )
    assertReports(foreign, 'I3 order ledger entries match the order', `ORDER_CANCELLED WALLET_CASH of order ${f.cancelled.id} (customer ${f.alice.userId}): no such order`)
  })

  test('I3: a ledger entry of another partner, return credits that do not match the refund', async () => {
    const other = await givenPartner(t.deps, 'Sweep other partner')
    const partner = await violationsWhen((tx) => exec(tx, sql`update ledger_entries set partner_id = ${other.partnerId} where reason = 'PROMOTION' and user_id = ${f.bob.userId}`))
    assertReports(partner, 'I3 ledger entries are non-zero, of a known kind, of a customer of their partner', `partner ${other.partnerId}`)
    const more = await violationsWhen((tx) => exec(tx, sql`update ledger_entries set amount = amount + 1 where reason = 'RETURN_REFUND' and reference = ${f.returned.returnId}`))
    assertReports(more, 'I3 Wallet Cash refunded for a return equals its RETURN_REFUND credits', f.returned.returnId)
    const wrongOwner = await violationsWhen((tx) => exec(tx, sql`update ledger_entries set user_id = ${f.alice.userId} where reason = 'RETURN_REFUND' and reference = ${f.returned.returnId}`))
    assertReports(wrongOwner, 'I3 return ledger entries reference a return of the same customer', f.returned.returnId)
    const points = await violationsWhen((tx) =>
      exec(tx, sql`insert into ledger_entries (id, user_id, partner_id, kind, amount, reason, reference, created_at)
                   values ('led_pts', ${f.bob.userId}, ${shop.partner.partnerId}, 'REWARD_POINTS', 100000, 'RETURN_POINTS_BACK', ${f.returned.returnId}, now())`),
    )
    assertReports(points, 'I3 Reward Points given back or taken back for returns stay within what the order spent or earned', f.returned.id)
  })

  test('I4: refunds above what was paid (refunds_within_paid disabled inside the transaction)', async () => {
    const provider = await violationsWhen(async (tx) => {
      await exec(tx, sql`alter table refunds disable trigger refunds_within_paid`)
      await exec(tx, sql`insert into refunds (id, order_id, payment_id, amount, method, status, reason, created_at, updated_at)
                         select 'ref_over', order_id, id, amount + 1, 'ORIGINAL_PAYMENT', 'PENDING', 'test', now(), now() from payments where id = ${f.paid.paymentId}`)
    })
    assertReports(provider, 'I4 refunds within what was paid', `order ${f.paid.id}: provider refunds`)
    assertReports(provider, 'I4 a provider refund refunds a captured payment of its own order, within its amount', f.paid.paymentId)
    const uncaptured = await violationsWhen(async (tx) => {
      await exec(tx, sql`alter table refunds disable trigger refunds_within_paid`)
      await exec(tx, sql`insert into refunds (id, order_id, payment_id, amount, method, status, reason, created_at, updated_at)
                         values ('ref_uncaptured', ${f.pending.id}, ${f.pending.paymentId}, 1, 'ORIGINAL_PAYMENT', 'PENDING', 'test', now(), now())`)
    })
    assertReports(uncaptured, 'I4 a provider refund refunds a captured payment', f.pending.paymentId)
    const cod = await violationsWhen(async (tx) => {
      await exec(tx, sql`alter table refunds disable trigger refunds_within_paid`)
      await exec(tx, sql`update refunds set amount = amount + 1000000 where return_request_id = ${f.returned.returnId}`)
    })
    assertReports(cod, 'I4 refunds within what was paid', `order ${f.returned.id}`)
    assertReports(cod, 'I4 a return is refunded at most its approved amount, from its own order', f.returned.returnId)
  })

  test('I4: more units returned than bought, a return whose items do not add up, a line that miscounts its units in returns', async () => {
    const units = await violationsWhen((tx) => exec(tx, sql`update return_items set quantity = 99 where id = ${f.returned.returnItemId}`))
    assertReports(units, 'I4 units returned never exceed units bought', 'of 3 units in live returns')
    const amount = await violationsWhen((tx) => exec(tx, sql`update return_requests set requested_amount = requested_amount + 1, approved_amount = approved_amount + 1 where id = ${f.returned.returnId}`))
    assertReports(amount, 'I4 units returned never exceed units bought; a return asks what its units cost', `return ${f.returned.returnId} requests`)
    const counted = await violationsWhen((tx) =>
      exec(tx, sql`update order_items set returned_quantity = 0 where id = (select order_item_id from return_items where id = ${f.returned.returnItemId})`),
    )
    assertReports(counted, 'I4 units returned never exceed units bought; a return asks what its units cost; each line counts the units of its live returns', 'counts 0 units in returns; its live returns hold')
  })

  test('I5: an order without lines, without its order.created event, with totals that do not add up', async () => {
    const lines = await violationsWhen((tx) => exec(tx, sql`delete from order_items where order_id = ${f.cancelled.id}`))
    assertReports(lines, 'I5 every order has lines, history and exactly one order.created event', `order ${f.cancelled.id} has 0 lines`)
    const event = await violationsWhen((tx) => exec(tx, sql`delete from outbox_events where subject_id = ${f.paid.id} and type = 'order.created'`))
    assertReports(event, 'I5 every order has lines, history and exactly one order.created event', `0 order.created events`)
    const history = await violationsWhen((tx) => exec(tx, sql`delete from order_status_history where order_id = ${f.pending.id}`))
    assertReports(history, 'I5 every order has lines, history', `order ${f.pending.id} has 1 lines, 0 history rows`)
    const total = await violationsWhen((tx) => exec(tx, sql`update orders set items_total = items_total + 1 where id = ${f.cod.id}`))
    assertReports(total, 'I5 order lines add up', f.cod.id)
    assertReports(total, 'I5 order amounts add up', f.cod.id)
    const line = await violationsWhen((tx) => exec(tx, sql`update order_items set paid_amount = paid_amount + 1 where order_id = ${f.wallet.id}`))
    assertReports(line, 'I5 order lines add up', `order ${f.wallet.id}`)
  })

  test('I5: an unpaid order with no reservation expiry or no payment', async () => {
    const expiry = await violationsWhen((tx) => exec(tx, sql`update orders set reservation_expires_at = null where id = ${f.pending.id}`))
    assertReports(expiry, 'I5 an unpaid order holds a reservation with an expiry and a payment to pay it', f.pending.id)
    const payment = await violationsWhen(async (tx) => {
      await exec(tx, sql`delete from idempotency_keys where resource_id = ${f.pending.paymentId}`)
      await exec(tx, sql`delete from payments where order_id = ${f.pending.id}`)
    })
    assertReports(payment, 'I5 an unpaid order holds a reservation with an expiry and a payment to pay it', `order ${f.pending.id} (PENDING_PAYMENT`)
  })

  test('I6: a capture that did not confirm its order, a confirmed order with no capture, a payment of the wrong amount, a move outside the machine', async () => {
    const unconfirmed = await violationsWhen((tx) => exec(tx, sql`update payments set status = 'SUCCEEDED' where id = ${f.pending.paymentId}`))
    assertReports(unconfirmed, 'I6 a captured payment has confirmed its order', `payment ${f.pending.paymentId} SUCCEEDED but order ${f.pending.id}`)
    const uncaptured = await violationsWhen((tx) => exec(tx, sql`update payments set status = 'FAILED' where id = ${f.paid.paymentId}`))
    assertReports(uncaptured, 'I6 a confirmed prepaid order with something to pay has a captured payment', `order ${f.paid.id} is CONFIRMED`)
    const amount = await violationsWhen((tx) => exec(tx, sql`update payments set amount = amount - 1 where id = ${f.paid.paymentId}`))
    assertReports(amount, 'I6 a payment asks for what the order has left to pay', f.paid.paymentId)
    const backwards = await violationsWhen((tx) =>
      exec(tx, sql`insert into order_status_history (id, order_id, from_status, to_status, actor, created_at) values ('osh_back', ${f.cod.id}, 'DELIVERED', 'PENDING_PAYMENT', 'SYSTEM', now())`),
    )
    assertReports(backwards, 'I6 order history follows the order machine', `order ${f.cod.id}: history moves DELIVERED -> PENDING_PAYMENT`)
    const jumped = await violationsWhen((tx) => exec(tx, sql`update orders set status = 'SHIPPED' where id = ${f.pending.id}`))
    assertReports(jumped, 'I6 order history follows the order machine and ends at the current status', `order ${f.pending.id} is SHIPPED`)
    const webhook = await violationsWhen((tx) =>
      exec(tx, sql`insert into payment_webhook_events (provider, event_id, type, payment_id, received_at) values ('sandbox', 'evt_ghost', 'x', 'pay_ghost', now())`),
    )
    assertReports(webhook, 'I6 a recorded provider event names an existing payment', 'pay_ghost')
  })

  test('I7: rows that cross partner or customer boundaries', async () => {
    const other = await givenPartner(t.deps, 'Sweep foreign partner')
    const payment = await violationsWhen((tx) => exec(tx, sql`update payments set partner_id = ${other.partnerId} where id = ${f.paid.paymentId}`))
    assertReports(payment, 'I7 payments.partner_id = orders.partner_id', f.paid.paymentId)
    const orderOwner = await violationsWhen((tx) => exec(tx, sql`update orders set partner_id = ${other.partnerId} where id = ${f.cod.id}`))
    assertReports(orderOwner, 'I7 an order belongs to a customer of its partner', f.cod.id)
    assertReports(orderOwner, 'I7 an event about an order goes to the partner of the order', f.cod.id)
    const ticket = await violationsWhen((tx) => exec(tx, sql`update support_tickets set order_id = ${f.cancelled.id} where id = ${f.ticketId}`))
    assertReports(ticket, 'I7 a support ticket is of a customer of its partner, about one of their own orders', `is about order ${f.cancelled.id} of customer ${f.bob.userId}`)
    const ret = await violationsWhen((tx) => exec(tx, sql`update return_requests set user_id = ${f.alice.userId} where id = ${f.returned.returnId}`))
    assertReports(ret, 'I7 a return is of a customer of its partner, for one of their own orders', f.returned.returnId)
    const image = await violationsWhen((tx) => exec(tx, sql`update support_tickets set image_urls = ${JSON.stringify([f.bobUpload])}::jsonb where id = ${f.ticketId}`))
    assertReports(image, 'I7 images cited by tickets, customer messages and returns are uploads of that customer', `ticket ${f.ticketId} (customer ${f.alice.userId}) cites ${f.bobUpload}: an upload of another customer`)
    const external = await violationsWhen((tx) => exec(tx, sql`update return_requests set image_urls = '["https://evil.example/x.png"]'::jsonb where id = ${f.returned.returnId}`))
    assertReports(external, 'I7 images cited', 'https://evil.example/x.png: not an upload')
  })

  test('close() fails the test file when an invariant is broken, and still drops the database', async () => {
    const broken = await createTestApp({ redisUrl: null })
    const partner = await givenPartner(broken.deps, 'Broken')
    const customer = await givenCustomer(broken.app, partner)
    await broken.deps.database.db.execute(sql`insert into ledger_entries (id, user_id, partner_id, kind, amount, reason, created_at)
      values ('led_broken', ${customer.userId}, ${partner.partnerId}, 'REWARD_POINTS', -5, 'ADJUSTMENT: broken on purpose', now())`)
    await assert.rejects(broken.close(), (err: Error) => {
      assert.match(err.message, /^Invariant sweep: 1 violation\(s\) after this test file:/)
      assert.match(err.message, new RegExp(`I3 Wallet Cash and Reward Points balances >= 0: customer ${customer.userId} has REWARD_POINTS balance -5`))
      return true
    })
    // The database is gone: the pool (PostgreSQL) or the embedded instance (PGlite) is closed.
    await assert.rejects(broken.deps.database.db.execute(sql`select 1`))
  })

  test('after every case was rolled back, the data is healthy again', async () => {
    assert.deepEqual(await invariantViolations(db, { now: clock.now() }), [])
  })
})
