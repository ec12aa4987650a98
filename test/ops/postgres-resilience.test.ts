// PostgreSQL pool behaviour: survives its connections being killed (a database restart), and fails
// fast with 503 in the error body while the database is unreachable. Uses the machine's PostgreSQL
// (TEST_DATABASE_URL's server, or 127.0.0.1:5432) in both suites, since PGlite has no pool.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { type Database, openDatabase } from '../../src/db/client.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { type Clock, ManualClock, systemClock } from '../../src/lib/clock.ts'
import { freshPostgres, POSTGRES_URL, TEST_AUTH_SECRET } from '../helpers/app.ts'
import { givenCustomer, givenPartner } from '../helpers/factories.ts'
import { testLogger } from '../helpers/log-capture.ts'
import { unlessMachineHas } from '../helpers/machine-services.ts'
import { schema } from '../helpers/schema-db.ts'
import { ADDRESS, givenShop, placeOrder } from '../helpers/shop.ts'

async function appOn(databaseUrl: string, database: Database, clock: Clock = systemClock) {
  const config = loadConfig({ NODE_ENV: 'test', AUTH_SECRET: TEST_AUTH_SECRET, LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, DATA_DIR: '/tmp/commerce-pgres' })
  return buildApp({ config, database, redis: null, clock, logger: testLogger(config) })
}

describe('PostgreSQL pool', { skip: await unlessMachineHas('postgres') }, () => {
  let database: Database
  let url: string
  let drop: () => Promise<void>
  before(async () => {
    const fresh = await freshPostgres()
    url = fresh.url
    drop = fresh.drop
    database = await openDatabase({ databaseUrl: url, pgliteDir: null, poolSize: 3, schema })
    await migrateDatabase(database)
  })
  after(async () => {
    await database.close()
    await drop()
  })

  test('when every connection is killed (a restart), then the next requests are served again', async () => {
    const app = await appOn(url, database)
    const partner = await givenPartner({ database } as never)
    const issue = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/auth/customer-token',
        headers: { 'x-partner-id': partner.partnerId, 'x-partner-secret': partner.secret },
        payload: { phone: '9876543210' },
      })
    assert.equal((await issue()).statusCode, 200)
    // The pool drops each killed idle client as it learns of it ('remove'): wait for all of them.
    const pool = database.pool!
    const idle = pool.idleCount
    const removed = new Promise<void>((resolve) => {
      let seen = 0
      const onRemove = () => {
        if (++seen < idle) return
        pool.off('remove', onRemove)
        resolve()
      }
      if (idle === 0) resolve()
      else pool.on('remove', onRemove)
    })
    const killer = new pg.Client({ connectionString: POSTGRES_URL })
    await killer.connect()
    await killer.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [new URL(url).pathname.slice(1)])
    await killer.end()
    await removed
    const statuses = [(await issue()).statusCode, (await issue()).statusCode]
    assert.equal(statuses[1], 200)
    assert.ok([200, 503].includes(statuses[0]!))
    await app.close()
  })

  test('when a connection checked out of the pool (mid-transaction) is killed, then the process stays up and the pool recovers', async () => {
    // The pool listens for errors on idle clients only; a checked-out client that loses its server
    // emits 'error' too, and with no listener of ours that is an uncaught exception (exit).
    const client = await database.pool!.connect()
    await client.query('begin')
    const ended = new Promise((resolve) => client.once('end', resolve))
    const killer = new pg.Client({ connectionString: POSTGRES_URL })
    await killer.connect()
    await killer.query('select pg_terminate_backend($1)', [(client as unknown as { processID: number }).processID])
    await killer.end()
    await ended
    await assert.rejects(client.query('select 1'))
    client.release(true)
    assert.equal(await database.ping(2000), true)
  })

  test('the reservation sweeper out of connections neither fails nor cancels anything, and its next run cancels the expired order', async () => {
    // One connection: the sweeper reads its candidates with it; the moment it takes it, this test
    // asks for it too, and gets it when the sweeper lets it go. The sweeper's next reads (the
    // order's payments, then the cancelling transaction) wait the pool's 3 s and time out.
    const single = await openDatabase({ databaseUrl: url, pgliteDir: null, poolSize: 1, schema })
    const clock = new ManualClock(new Date('2026-11-28T10:00:00+05:30'))
    const app = await appOn(url, single, clock)
    try {
      const t = { app, deps: { database: single } } as never
      const shop = await givenShop(t)
      const customer = await givenCustomer(app, shop.partner)
      const placed = await placeOrder(t, customer, { items: [{ productId: shop.ids.atta, quantity: 2 }], shippingAddress: ADDRESS, paymentMode: 'PREPAID' })
      assert.equal(placed.statusCode, 201, placed.body)
      const orderId = placed.json().data.id
      const stock = async () => (await single.pool!.query<{ stock: number }>('select stock from products where id = $1', [shop.ids.atta])).rows[0]!.stock
      assert.equal(await stock(), 98)
      clock.advance(31 * 60_000) // past the 30-minute reservation
      const pool = single.pool!
      let held: pg.PoolClient | undefined
      const taken = new Promise<void>((resolve) => {
        pool.once('acquire', () => {
          void pool.connect().then((client) => {
            held = client
            resolve()
          })
        })
      })
      const sweeping = app.payments.sweepExpiredReservations()
      await taken
      // Given back whatever the sweep does, so that a failure is reported, not a pool left waiting.
      const cancelled = await sweeping.finally(() => held!.release())
      assert.equal(cancelled, 0)
      const status = async () => (await single.pool!.query<{ status: string }>('select status from orders where id = $1', [orderId])).rows[0]!.status
      assert.equal(await status(), 'PENDING_PAYMENT', 'an order whose payments could not be read is not cancelled unasked')
      assert.equal(await stock(), 98)
      // The next run, with its connection back: asked, then cancelled, its stock released.
      assert.equal(await app.payments.sweepExpiredReservations(), 1)
      assert.equal(await status(), 'CANCELLED')
      assert.equal(await stock(), 100)
    } finally {
      await app.close()
      await single.close()
    }
  })

  test('when the database is unreachable, then requests fail fast with 503 in the error body and ready says down', async () => {
    const unreachable = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none', pgliteDir: null, poolSize: 1, schema })
    const app = await appOn('postgres://postgres@127.0.0.1:1/none', unreachable)
    // The route compiles its validator and serializers on its first request (decision 0036): that
    // first request is not what is timed.
    await app.inject({ method: 'POST', url: '/api/v1/auth/customer-token', headers: { 'x-partner-id': 'prt_x', 'x-partner-secret': 'psk_x' }, payload: { phone: '9876543210' } })
    const started = Date.now()
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/customer-token',
      headers: { 'x-partner-id': 'prt_x', 'x-partner-secret': 'psk_x' },
      payload: { phone: '9876543210' },
    })
    assert.equal(res.statusCode, 503)
    assert.equal(res.json().statusCode, 503)
    assert.equal(res.json().path, '/api/v1/auth/customer-token')
    assert.ok(Date.now() - started < 5000)
    const ready = await app.inject({ method: 'GET', url: '/api/v1/health/ready' })
    assert.equal(ready.statusCode, 503)
    assert.equal(ready.json().data.database, 'down')
    await app.close()
    await unreachable.close()
  })
})
