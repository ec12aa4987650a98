// DI-04 deadlock-prone ordering (reliability plan 7), on PostgreSQL only (scripts/test.ts runs
// test/load/ only there: the embedded database serves one connection, so nothing could deadlock).
// 200 distinct customers, each with its own idempotency key, order two products at once: half list
// them [A, B], half [B, A]. Order creation takes stock in product-id order whatever the line order,
// so there is no lock cycle: every order 201 (a 503 shed by a busy pool is retried with its key),
// never a 500, pg_stat_database.deadlocks unchanged, and both stocks down by exactly what was sold.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, test } from 'node:test'
import { sql } from 'drizzle-orm'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop, stockOf } from '../helpers/shop.ts'
import { percentile } from './load-support.ts'

const ORDERS = 200

let t: TestApp
let shop: Shop
before(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_MAX: '1000000', RATE_LIMIT_AUTH_MAX: '1000000' } })
  shop = await givenShop(t)
  // Enough stock for every order: A = atta, B = earbuds.
  await t.deps.database.db.execute(sql`update products set stock = 1000 where id in (${shop.ids.atta!}, ${shop.ids.earbuds!})`)
})
after(() => t.close())

async function deadlocks(): Promise<number> {
  const res = await t.deps.database.db.execute(sql`select deadlocks::int as n from pg_stat_database where datname = current_database()`)
  return (res as unknown as { rows: { n: number }[] }).rows[0]!.n
}

test(`${ORDERS} concurrent orders, half [A, B] and half [B, A]: every order 201 (shed 503s retried), no 5xx, no deadlock, stock exact`, async () => {
  const customers: CustomerFixture[] = []
  for (let i = 0; i < ORDERS; i += 50) customers.push(...(await Promise.all(Array.from({ length: 50 }, () => givenCustomer(t.app, shop.partner)))))
  const a = shop.ids.atta!
  const b = shop.ids.earbuds!
  const stockBefore = { a: await stockOf(t, a), b: await stockOf(t, b) }
  const deadlocksBefore = await deadlocks()
  let shed = 0
  const started = performance.now()
  const results = await Promise.all(
    customers.map(async (customer, i) => {
      const items = i % 2 === 0 ? [{ productId: a, quantity: 2 }, { productId: b, quantity: 1 }] : [{ productId: b, quantity: 1 }, { productId: a, quantity: 2 }]
      const t0 = performance.now()
      const key = randomUUID()
      // A deadlock (40P01) would be a 500. A 503 is the documented shed answer when the pool's wait
      // runs out on a busy box (CI runs the slow suite beside the fast one): the client retries with
      // the same key after Retry-After, as a partner would, and the retry must then succeed.
      for (let attempt = 1; ; attempt++) {
        const res = await placeOrder(t, customer, { items, shippingAddress: ADDRESS, paymentMode: 'COD' }, key)
        if (res.statusCode === 503 && attempt < 10) {
          shed++
          assert.equal(res.headers['retry-after'], '1', 'a 503 says when to retry')
          await new Promise((r) => setTimeout(r, 1000 * Number(res.headers['retry-after'])))
          continue
        }
        return { status: res.statusCode, ms: performance.now() - t0, body: res.statusCode === 201 ? '' : res.body }
      }
    }),
  )
  const wallMs = performance.now() - started
  // Statistics reach pg_stat_database when a backend reports them (at most about a second later).
  await new Promise((r) => setTimeout(r, 1200))
  const newDeadlocks = (await deadlocks()) - deadlocksBefore
  const created = results.filter((r) => r.status === 201).length
  const fiveXx = results.filter((r) => r.status >= 500)
  console.log(
    `DI-04 deadlock ordering: ${created}/${ORDERS} orders 201 (${ORDERS / 2} [A,B], ${ORDERS / 2} [B,A]), ${fiveXx.length} x 5xx, ` +
      `${shed} x 503 shed on the way (retried), ${newDeadlocks} deadlocks; p99 ${Math.round(percentile(results.map((r) => r.ms), 99))} ms, all settled in ${Math.round(wallMs)} ms`,
  )
  assert.deepEqual([...new Set(fiveXx.map((r) => `${r.status} ${r.body}`))], [], 'never a 5xx')
  assert.deepEqual([...new Set(results.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body}`))], [], 'every order 201')
  assert.equal(newDeadlocks, 0)
  assert.equal(await stockOf(t, a), stockBefore.a - 2 * ORDERS)
  assert.equal(await stockOf(t, b), stockBefore.b - ORDERS)
  const [row] = (await t.deps.database.db.execute(sql`select count(*)::int as n from orders where partner_id = ${shop.partner.partnerId}`) as unknown as { rows: { n: number }[] }).rows
  assert.equal(row!.n, ORDERS)
})
