// The reservation sweeper with Razorpay, the whole app against a stand-in of Razorpay's API
// (test/helpers/razorpay-app.ts): an order whose reservation runs out is asked about at Razorpay
// before it is cancelled; a late callback and the sweeper's own check confirm a payment once.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/db/client.ts'
import { givenCustomer } from '../helpers/factories.ts'
import { stockOf } from '../helpers/shop.ts'
import { BASIC, RESERVATION_MS, WH09_ORDERS, clock, orderOf, paiseOf, paymentEvent, paymentsByOrder, post, prepaidOrder, requests, sent, shop, standIn, t, webhook } from '../helpers/razorpay-app.ts'

describe('the reservation sweeper with Razorpay', () => {
  /** Expires and sweeps whatever earlier tests left waiting, so counts below are about one order. */
  async function sweepLeftovers() {
    clock.advance(RESERVATION_MS + 60_000)
    await t.app.payments.sweepExpiredReservations()
    requests.length = 0
  }

  /**
   * Two orders waiting for payment after the leftovers are swept: one paid at Razorpay (captured as
   * `paymentId`, its webhook never comes), one left unpaid.
   */
  async function paidAndLeftOrders(paymentId: string) {
    await sweepLeftovers()
    const [payer, leaver] = await Promise.all([givenCustomer(t.app, shop.partner), givenCustomer(t.app, shop.partner)])
    const stock = await stockOf(t, shop.ids.earbuds!)
    const paidOrder = await prepaidOrder(payer)
    const leftOrder = await prepaidOrder(leaver)
    const paidRzp: string = paidOrder.paymentClientAction.payload.order_id
    paymentsByOrder.set(paidRzp, [{ id: paymentId, entity: 'payment', order_id: paidRzp, amount: paiseOf(paidOrder.amountPayable), currency: 'INR', status: 'captured' }])
    const statusOf = async (customer: typeof payer, orderId: string) => (await orderOf(await givenCustomer(t.app, shop.partner, { phone: customer.phone }), orderId)).status
    return { payer, leaver, stock, paidOrder, leftOrder, statusOf }
  }

  test('a payment captured at Razorpay whose webhook never came: the sweeper confirms the order, cancels nothing', async () => {
    await sweepLeftovers()
    const customer = await givenCustomer(t.app, shop.partner)
    const stock = await stockOf(t, shop.ids.earbuds!)
    const order = await prepaidOrder(customer)
    const rzpOrderId: string = order.paymentClientAction.payload.order_id
    const amount = paiseOf(order.amountPayable)
    paymentsByOrder.set(rzpOrderId, [
      { id: 'pay_AppLateFail1', entity: 'payment', order_id: rzpOrderId, amount, currency: 'INR', status: 'failed' },
      { id: 'pay_AppLate01', entity: 'payment', order_id: rzpOrderId, amount, currency: 'INR', status: 'captured' },
    ])

    clock.advance(RESERVATION_MS + 60_000)
    const cancelled = await t.app.payments.sweepExpiredReservations()
    assert.equal(cancelled, 0)
    const asked = sent('GET', `/v1/orders/${rzpOrderId}/payments`)
    assert.equal(asked.length, 1, 'the sweeper asked Razorpay about the open session')
    assert.equal(asked[0]!.headers.authorization, BASIC)

    const fresh = await givenCustomer(t.app, shop.partner, { phone: customer.phone })
    const fetched = await orderOf(fresh, order.id)
    assert.equal(fetched.status, 'CONFIRMED')
    assert.equal(fetched.paymentStatus, 'PAID')
    assert.equal(fetched.payment.status, 'SUCCEEDED')
    assert.equal(fetched.statusHistory.at(-1).actor, 'PROVIDER')
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 1, 'the stock stays sold')
    assert.equal(sent('POST', /refund$/).length, 0)

    // The webhook arriving at last changes nothing.
    const late = await webhook(paymentEvent('payment.captured', { id: 'pay_AppLate01', order_id: rzpOrderId, amount }), 'evt_AppLate01')
    assert.equal(late.statusCode, 200, late.body)
    assert.deepEqual(await orderOf(fresh, order.id), fetched)

    // The sweeper recorded the captured payment's id: a cancellation refunds that payment.
    const refunded = await post(fresh, `/orders/${order.id}/cancel`, {})
    assert.equal(refunded.statusCode, 200, refunded.body)
    assert.deepEqual(sent('POST', /refund$/).map((r) => [r.path, r.body!.amount]), [['/v1/payments/pay_AppLate01/refund', amount]])
    assert.equal(refunded.json().data.paymentStatus, 'REFUNDED')
  })

  test('nothing paid at Razorpay: the sweeper cancels the order and the stock is back', async () => {
    await sweepLeftovers()
    const customer = await givenCustomer(t.app, shop.partner)
    const stock = await stockOf(t, shop.ids.earbuds!)
    const order = await prepaidOrder(customer)
    const rzpOrderId: string = order.paymentClientAction.payload.order_id
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 1)

    clock.advance(RESERVATION_MS - 60_000)
    assert.equal(await t.app.payments.sweepExpiredReservations(), 0, 'not before the reservation runs out')
    assert.equal((await orderOf(await givenCustomer(t.app, shop.partner, { phone: customer.phone }), order.id)).status, 'PENDING_PAYMENT')
    assert.equal(sent('GET', /payments$/).length, 0)

    clock.advance(2 * 60_000)
    const cancelled = await t.app.payments.sweepExpiredReservations()
    assert.equal(cancelled, 1)
    assert.equal(sent('GET', `/v1/orders/${rzpOrderId}/payments`).length, 1, 'the sweeper asked Razorpay first')

    const fresh = await givenCustomer(t.app, shop.partner, { phone: customer.phone })
    const fetched = await orderOf(fresh, order.id)
    assert.equal(fetched.status, 'CANCELLED')
    assert.equal(fetched.paymentStatus, 'PENDING')
    assert.equal(fetched.payment.status, 'EXPIRED')
    assert.equal(fetched.statusHistory.at(-1).actor, 'SYSTEM')
    assert.deepEqual(fetched.refunds, [])
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock)
    assert.equal(sent('POST', /refund$/).length, 0)
  })

  test(`the captured webhook and the sweeper's own look at Razorpay confirm the same payment at the same moment, for ${WH09_ORDERS} orders: one confirmation each, no refund, no 5xx`, async () => {
    await sweepLeftovers()
    // Five unpaid orders per customer is the cap: a customer for every five orders.
    const customers = await Promise.all(Array.from({ length: WH09_ORDERS / 5 }, () => givenCustomer(t.app, shop.partner)))
    await t.deps.database.db.execute(sql`update products set stock = stock + ${WH09_ORDERS} where id = ${shop.ids.earbuds!}`)
    const placed: Awaited<ReturnType<typeof prepaidOrder>>[] = []
    for (let i = 0; i < WH09_ORDERS; i++) placed.push(await prepaidOrder(customers[i % customers.length]!))
    const captured = placed.map((order, i) => {
      const rzpOrderId: string = order.paymentClientAction.payload.order_id
      const payment = { id: `pay_AppRace${i}`, entity: 'payment' as const, order_id: rzpOrderId, amount: paiseOf(order.amountPayable), currency: 'INR', status: 'captured' as const }
      paymentsByOrder.set(rzpOrderId, [payment])
      return payment
    })
    clock.advance(RESERVATION_MS + 60_000)
    const [cancelled, ...answers] = await Promise.all([
      t.app.payments.sweepExpiredReservations(),
      // Razorpay redelivers a webhook that did not get a 2xx: a 503 shed by a pool busy with the
      // other 199 callbacks and the sweep is sent again, as Razorpay would.
      ...captured.map(async (payment, i) => {
        for (let attempt = 1; ; attempt++) {
          const answer = await webhook(paymentEvent('payment.captured', payment), `evt_AppRace${i}`)
          if (answer.statusCode !== 503 || attempt === 10) return answer
        }
      }),
    ])
    assert.equal(cancelled, 0)
    assert.deepEqual([...new Set(answers.map((a) => a.statusCode))], [200])
    const ids = placed.map((o) => o.id)
    const rows = await queryRows<{ id: string; status: string; payment_status: string; confirmations: number; succeeded: number }>(
      t.deps.database.db,
      sql`select o.id, o.status, o.payment_status,
                 (select count(*)::int from order_status_history h where h.order_id = o.id and h.to_status = 'CONFIRMED') as confirmations,
                 (select count(*)::int from payments p where p.order_id = o.id and p.status = 'SUCCEEDED') as succeeded
            from orders o where o.id in ${ids}`,
    )
    assert.equal(rows.length, WH09_ORDERS)
    assert.deepEqual(rows.filter((r) => r.status !== 'CONFIRMED' || r.payment_status !== 'PAID' || r.confirmations !== 1 || r.succeeded !== 1), [])
    assert.equal(sent('POST', /refund$/).length, 0, 'the same payment seen twice is not a second capture')
  })

  test('a session whose check fails on its own holds the other due orders back for one run only', async () => {
    await sweepLeftovers()
    const [stuck, payer] = await Promise.all([givenCustomer(t.app, shop.partner), givenCustomer(t.app, shop.partner)])
    const stuckOrder = await prepaidOrder(stuck)
    clock.advance(60_000)
    const paidOrder = await prepaidOrder(payer)
    const stuckRzp: string = stuckOrder.paymentClientAction.payload.order_id
    const paidRzp: string = paidOrder.paymentClientAction.payload.order_id
    paymentsByOrder.set(paidRzp, [{ id: 'pay_AppAlone01', entity: 'payment', order_id: paidRzp, amount: paiseOf(paidOrder.amountPayable), currency: 'INR', status: 'captured' }])
    // Razorpay fails for the first (older) order's session only.
    standIn.override = (r) => (r.method === 'GET' && r.path.includes(stuckRzp) ? { status: 500, body: { error: { code: 'SERVER_ERROR', description: 'this one' } } } : null)
    clock.advance(RESERVATION_MS + 60_000)
    const statuses = async () => [(await orderOf(await givenCustomer(t.app, shop.partner, { phone: stuck.phone }), stuckOrder.id)).status, (await orderOf(await givenCustomer(t.app, shop.partner, { phone: payer.phone }), paidOrder.id)).status]
    assert.equal(await t.app.payments.sweepExpiredReservations(), 0)
    assert.deepEqual(sent('GET', /payments$/).map((r) => r.path), [`/v1/orders/${stuckRzp}/payments`], 'the older one first; it failed, so the run stopped asking')
    assert.deepEqual(await statuses(), ['PENDING_PAYMENT', 'PENDING_PAYMENT'])
    assert.equal(await t.app.payments.sweepExpiredReservations(), 0)
    assert.deepEqual(await statuses(), ['PENDING_PAYMENT', 'CONFIRMED'], 'the next run asks the other first')
    standIn.override = null
  })

  test('a run cancels only orders it asked about: when a paid one drops out, the next due order is not cancelled unasked', async () => {
    await sweepLeftovers()
    const customers = await Promise.all([0, 1, 2].map(() => givenCustomer(t.app, shop.partner)))
    const placed: Awaited<ReturnType<typeof prepaidOrder>>[] = []
    for (const customer of customers) {
      placed.push(await prepaidOrder(customer))
      clock.advance(60_000)
    }
    // The first and the last were paid at Razorpay; no webhook came for either.
    for (const i of [0, 2]) {
      const rzpOrderId: string = placed[i].paymentClientAction.payload.order_id
      paymentsByOrder.set(rzpOrderId, [{ id: `pay_AppUnasked${i}`, entity: 'payment', order_id: rzpOrderId, amount: paiseOf(placed[i].amountPayable), currency: 'INR', status: 'captured' }])
    }
    clock.advance(RESERVATION_MS)
    const statuses = async () => Promise.all(placed.map(async (o, i) => (await orderOf(await givenCustomer(t.app, shop.partner, { phone: customers[i]!.phone }), o.id)).status))
    // A run of two: the oldest two are asked about; the first turns out paid, the second is cancelled.
    assert.equal(await t.app.payments.sweepExpiredReservations(2), 1)
    assert.equal(sent('GET', /payments$/).length, 2)
    assert.deepEqual(await statuses(), ['CONFIRMED', 'CANCELLED', 'PENDING_PAYMENT'], 'the third was not asked about, so it waits')
    assert.equal(await t.app.payments.sweepExpiredReservations(2), 0)
    assert.deepEqual(await statuses(), ['CONFIRMED', 'CANCELLED', 'CONFIRMED'])
    assert.equal(sent('POST', /refund$/).length, 0, 'no paid order was cancelled and refunded')
  })

  test('Razorpay cannot be asked: the order is kept for the next run (it may have been paid); asked again once Razorpay is back, it is confirmed or cancelled; unchecked for another reservation period, cancelled anyway', async () => {
    const { payer, leaver, stock, paidOrder, leftOrder, statusOf } = await paidAndLeftOrders('pay_AppDown01')

    standIn.override = (r) => (r.method === 'GET' ? { status: 503, body: { error: { code: 'SERVER_ERROR', description: 'down' } } } : null)
    clock.advance(RESERVATION_MS + 60_000)
    assert.equal(await t.app.payments.sweepExpiredReservations(), 0, 'nothing cancelled while its payment cannot be checked')
    assert.equal(sent('GET', /payments$/).length, 1, 'after one failed check the run asks no more')
    assert.equal(await t.app.payments.sweepExpiredReservations(), 0)
    assert.equal(sent('GET', /payments$/).length, 2, 'one call a run while Razorpay is down')
    assert.equal(await statusOf(payer, paidOrder.id), 'PENDING_PAYMENT')
    assert.equal(await statusOf(leaver, leftOrder.id), 'PENDING_PAYMENT')
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 2, 'their stock stays held')

    standIn.override = null
    assert.equal(await t.app.payments.sweepExpiredReservations(), 1, 'the next run after recovery resolves both')
    assert.equal(await statusOf(payer, paidOrder.id), 'CONFIRMED')
    assert.equal(await statusOf(leaver, leftOrder.id), 'CANCELLED')
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 1)
    assert.equal(sent('POST', /refund$/).length, 0)

    // Razorpay's status API stays down: kept until one more reservation period has passed, then cancelled.
    const unlucky = await givenCustomer(t.app, shop.partner)
    const stuckOrder = await prepaidOrder(unlucky)
    standIn.override = (r) => (r.method === 'GET' ? { status: 503, body: { error: { code: 'SERVER_ERROR', description: 'down' } } } : null)
    clock.advance(RESERVATION_MS + 60_000)
    assert.equal(await t.app.payments.sweepExpiredReservations(), 0)
    clock.advance(RESERVATION_MS - 2 * 60_000)
    assert.equal(await t.app.payments.sweepExpiredReservations(), 0, 'still within one more reservation period')
    clock.advance(2 * 60_000)
    assert.equal(await t.app.payments.sweepExpiredReservations(), 1)
    assert.equal(await statusOf(unlucky, stuckOrder.id), 'CANCELLED')
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 1)
  })
  test('the database out of connections during a run: the paid order is not cancelled and the run cancels nothing; the next run confirms and cancels them', { skip: !process.env.TEST_DATABASE_URL && 'the embedded database has no pool to run out of' }, async () => {
    const { payer, leaver, stock, paidOrder, leftOrder, statusOf } = await paidAndLeftOrders('pay_AppBusy01')

    // While Razorpay is asked about the first order, every free connection of the app's pool is
    // taken (by another burst of requests, in production): each write after it waits the pool's
    // 3 s and fails with "timeout exceeded when trying to connect".
    const pool = t.deps.database.pool!
    const held: { release(): void }[] = []
    standIn.onRequest = async (r) => {
      if (r.method !== 'GET' || held.length > 0) return
      const free = pool.options.max - (pool.totalCount - pool.idleCount)
      for (let i = 0; i < free; i++) held.push(await pool.connect())
    }
    clock.advance(RESERVATION_MS + 60_000)
    try {
      assert.equal(await t.app.payments.sweepExpiredReservations(), 0, 'the run ends, cancelling nothing')
    } finally {
      standIn.onRequest = null
      for (const client of held.splice(0)) client.release()
    }
    assert.ok(sent('GET', /payments$/).length >= 1)
    assert.equal(await statusOf(payer, paidOrder.id), 'PENDING_PAYMENT', 'paid at Razorpay: never cancelled for want of a connection')
    assert.equal(await statusOf(leaver, leftOrder.id), 'PENDING_PAYMENT')
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 2, 'their stock stays held')

    assert.equal(await t.app.payments.sweepExpiredReservations(), 1)
    assert.equal(await statusOf(payer, paidOrder.id), 'CONFIRMED')
    assert.equal(await statusOf(leaver, leftOrder.id), 'CANCELLED')
    assert.equal(await stockOf(t, shop.ids.earbuds!), stock - 1)
    assert.equal(sent('POST', /refund$/).length, 0)
  })
})
