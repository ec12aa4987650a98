// FT-05 (reliability plan 7.4): a slow database (a TCP delay proxy between the server process and
// a throwaway PostgreSQL) and a locked table. With the delay every request still succeeds, only
// slower; with `products` locked by another connection, order creation fails at lock_timeout with
// 503 + Retry-After instead of hanging, while reads and liveness carry on.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { LOCK_TIMEOUT_MS } from '../../src/db/client.ts'
import { customerHeaders } from '../helpers/factories.ts'
import { durations, type FaultShop, orderBody, percentile, prepareFaultShop, serverEnv, startLoad, timed } from '../helpers/fault-load.ts'
import { type DelayProxy, type ServerProcess, sleep, startDelayProxy, startServerProcess, startThrowawayPostgres, type ThrowawayPostgres } from '../helpers/throwaway.ts'

const DELAY_MS = 50
let postgres: ThrowawayPostgres
let proxy: DelayProxy
let fs: FaultShop
let server: ServerProcess

describe('Slow and locked database', { timeout: 200_000 }, () => {
  before(async () => {
    postgres = await startThrowawayPostgres()
    const url = await postgres.createDatabase('app')
    fs = await prepareFaultShop(url, 6)
    proxy = await startDelayProxy(postgres.port, 0)
    server = await startServerProcess(serverEnv(`postgres://postgres@127.0.0.1:${proxy.port}/app`, null))
    await server.ready()
  })
  after(async () => {
    if (server) server.kill('SIGKILL')
    await proxy?.close()
    await fs?.close().catch(() => {})
    await postgres?.cleanup()
  })

  test(`${DELAY_MS} ms added each way on every database packet: every request succeeds, slower`, async () => {
    const load = startLoad(server.base, fs, fs.customers.slice(0, 3))
    await sleep(3000)
    const slowFrom = Date.now()
    proxy.setDelay(DELAY_MS)
    await sleep(6000)
    const slowTo = Date.now()
    proxy.setDelay(0)
    await load.stop()

    const work = load.samples.filter((s) => s.kind === 'read' || s.kind === 'order')
    assert.deepEqual(work.filter((s) => s.status !== 200 && s.status !== 201).map((s) => s.status), [], 'success rate 100%')
    assert.deepEqual(load.unexpected, [])
    const p50 = (kind: string, from: number, to: number) => percentile(durations(work.filter((s) => s.kind === kind && s.start >= from && s.end <= to)), 50)
    const fast = { read: p50('read', 0, slowFrom), order: p50('order', 0, slowFrom) }
    const slow = { read: p50('read', slowFrom, slowTo), order: p50('order', slowFrom, slowTo) }
    assert.ok(slow.order > fast.order + 2 * DELAY_MS, `orders slower with the delay (${fast.order} -> ${slow.order} ms)`)
    const live = load.samples.filter((s) => s.kind === 'live')
    assert.ok(live.every((s) => s.status === 200))
    console.log(
      `FT-05 +${2 * DELAY_MS} ms per database round trip: 100% success (${work.length} requests); ` +
        `read p50 ${fast.read} -> ${slow.read} ms, order p50 ${fast.order} -> ${slow.order} ms; /health/live p99 ${percentile(durations(live), 99)} ms`,
    )
  })

  test('products locked by another connection: order creation answers 503 at lock_timeout, reads carry on', async () => {
    const locker = new pg.Client({ connectionString: postgres.url('app') })
    await locker.connect()
    try {
      await locker.query('begin')
      await locker.query('lock table products in exclusive mode')
      const customer = fs.customers[5]!
      const key = randomUUID()
      const order = timed('order', `${server.base}/orders`, {
        method: 'POST',
        headers: { ...customerHeaders(customer), 'x-idempotency-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(orderBody(fs.shop)),
      })
      const reads = []
      for (let i = 0; i < 10; i++) {
        reads.push(await timed('read', `${server.base}/products?limit=20`, { headers: { 'x-api-key': fs.shop.partner.apiKey } }))
        reads.push(await timed('live', `${server.base}/health/live`))
        await sleep(200)
      }
      const failed = await order
      const took = failed.end - failed.start
      assert.equal(failed.status, 503, JSON.stringify(failed.body))
      assert.equal(failed.retryAfter, '1')
      assert.ok(took >= LOCK_TIMEOUT_MS - 200 && took <= LOCK_TIMEOUT_MS + 2000, `503 after ${took} ms (lock_timeout ${LOCK_TIMEOUT_MS} ms)`)
      assert.ok(reads.every((r) => r.status === 200), 'reads and liveness unaffected by the lock')
      await locker.query('rollback')

      // The failed attempt left nothing behind: the same key now creates the order.
      const retry = await timed('order', `${server.base}/orders`, {
        method: 'POST',
        headers: { ...customerHeaders(customer), 'x-idempotency-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(orderBody(fs.shop)),
      })
      assert.equal(retry.status, 201)
      const rows = await postgres.query<{ n: number }>('select count(*)::int as n from orders where user_id = $1', [customer.userId], 'app')
      assert.equal(rows[0]!.n, 1)
      console.log(
        `FT-05 products locked: order creation 503 + Retry-After after ${(took / 1000).toFixed(2)} s (lock_timeout ${LOCK_TIMEOUT_MS} ms); ` +
          `reads p99 ${percentile(durations(reads.filter((r) => r.kind === 'read')), 99)} ms, live p99 ${percentile(durations(reads.filter((r) => r.kind === 'live')), 99)} ms meanwhile; same-key retry after the lock: 201, one order`,
      )
    } finally {
      await locker.end().catch(() => {})
    }
  })
})
