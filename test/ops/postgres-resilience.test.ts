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
import { systemClock } from '../../src/lib/clock.ts'
import { freshPostgres, POSTGRES_URL, TEST_AUTH_SECRET } from '../helpers/app.ts'
import { givenPartner } from '../helpers/factories.ts'
import { testLogger } from '../helpers/log-capture.ts'
import { unlessMachineHas } from '../helpers/machine-services.ts'
import { schema } from '../helpers/schema-db.ts'

async function appOn(databaseUrl: string, database: Database) {
  const config = loadConfig({ NODE_ENV: 'test', AUTH_SECRET: TEST_AUTH_SECRET, LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, DATA_DIR: '/tmp/commerce-pgres' })
  return buildApp({ config, database, redis: null, clock: systemClock, logger: testLogger(config) })
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
