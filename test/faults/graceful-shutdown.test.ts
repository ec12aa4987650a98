// FT-08 (reliability plan 7.4): SIGTERM while requests are in flight: orders of three different
// products and customer sign-ups, each held ~2 s inside its transaction by pg_sleep triggers on the
// throwaway database (orders of one product would queue on its row, one at a time). The in-flight
// requests complete 2xx, requests arriving after the signal get 503 or a refused connection, and
// the process exits 0 within 10 s with its pools closed cleanly.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { customerHeaders, randomPhone } from '../helpers/factories.ts'
import { type FaultShop, orderBody, prepareFaultShop, type Sample, serverEnv, timed } from '../helpers/fault-load.ts'
import { type ServerProcess, sleep, startServerProcess, startThrowawayPostgres, type ThrowawayPostgres } from '../helpers/throwaway.ts'

const PRODUCTS = ['atta', 'earbuds', 'hot']
const SIGN_UPS = 5
const IN_FLIGHT = PRODUCTS.length + SIGN_UPS
let postgres: ThrowawayPostgres
let fs: FaultShop
let server: ServerProcess

describe('Graceful shutdown', { timeout: 120_000 }, () => {
  before(async () => {
    postgres = await startThrowawayPostgres()
    const url = await postgres.createDatabase('app')
    fs = await prepareFaultShop(url, PRODUCTS.length + 1)
    server = await startServerProcess(serverEnv(url, null))
    await server.ready()
  })
  after(async () => {
    server?.kill('SIGKILL')
    await fs?.close().catch(() => {})
    await postgres?.cleanup()
  })

  test(`SIGTERM with ${IN_FLIGHT} requests in flight: they complete 2xx, new requests 503 or refused, exit 0 within 10 s`, async () => {
    const sql = (text: string) => postgres.query(text, [], 'app')
    await sql(`create function slow_insert() returns trigger language plpgsql as $$ begin perform pg_sleep(2); return new; end $$`)
    await sql(`create trigger slow_insert before insert on order_items for each row execute function slow_insert()`)
    await sql(`create trigger slow_insert before insert on users for each row execute function slow_insert()`)
    const place = (i: number, slug = 'hot') =>
      timed('order', `${server.base}/orders`, {
        method: 'POST',
        headers: { ...customerHeaders(fs.customers[i]!), 'x-idempotency-key': randomUUID(), 'content-type': 'application/json' },
        body: JSON.stringify({ ...orderBody(fs.shop), items: [{ productId: fs.shop.ids[slug]!, quantity: 1 }] }),
      })
    const signUp = () =>
      timed('order', `${server.base}/auth/customer-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-partner-id': fs.shop.partner.partnerId, 'x-partner-secret': fs.shop.partner.secret },
        body: JSON.stringify({ phone: randomPhone(), name: 'Late Customer' }),
      })
    const inFlight: Promise<Sample>[] = [...PRODUCTS.map((slug, i) => place(i, slug)), ...Array.from({ length: SIGN_UPS }, signUp)]
    const deadline = Date.now() + 15_000
    while ((await postgres.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where datname = 'app' and wait_event = 'PgSleep'`))[0]!.n < IN_FLIGHT) {
      assert.ok(Date.now() < deadline, 'orders reached the slow insert')
      await sleep(50)
    }

    const signalledAt = Date.now()
    server.kill('SIGTERM')
    await sleep(200)
    const late = await Promise.all([
      place(PRODUCTS.length),
      timed('read', `${server.base}/products?limit=5`, { headers: { 'x-api-key': fs.shop.partner.apiKey } }),
      timed('ready', `${server.base}/health/ready`),
    ])
    const finished = await Promise.all(inFlight)
    const { code, signal } = await server.exited
    const exitMs = Date.now() - signalledAt

    assert.deepEqual(finished.map((r) => r.status), [...PRODUCTS.map(() => 201), ...Array(SIGN_UPS).fill(200)], 'every in-flight request completed')
    assert.ok(late.every((r) => r.status === 503 || r.status === 0), `after SIGTERM: ${late.map((r) => r.status).join(', ')} (503 or refused)`)
    // Readiness drops at once, while the in-flight requests are still being served (not after the drain).
    const ready = late[2]!
    const firstDone = Math.min(...finished.map((r) => r.end))
    assert.ok(ready.end < firstDone, `ready answered ${ready.status} at +${ready.end - signalledAt} ms; the first in-flight request completed at +${firstDone - signalledAt} ms`)
    assert.equal(code, 0, `exit code ${code}, signal ${signal}\n${server.output()}`)
    assert.ok(exitMs <= 10_000, `exited ${exitMs} ms after SIGTERM (bound 10 s)`)
    assert.doesNotMatch(server.output(), /Connection terminated|unhandled error/, 'pools closed without errors')
    const rows = await postgres.query<{ n: number }>('select count(*)::int as n from orders', [], 'app')
    assert.equal(rows[0]!.n, PRODUCTS.length)
    console.log(
      `FT-08 SIGTERM with ${IN_FLIGHT} requests in flight (~2 s each; ${PRODUCTS.length} orders, ${SIGN_UPS} sign-ups): ${IN_FLIGHT}/${IN_FLIGHT} completed 2xx; requests after the signal: ${late.map((r) => r.status || 'refused').join(', ')} (ready at +${ready.end - signalledAt} ms, first in-flight done at +${firstDone - signalledAt} ms); ` +
        `exit 0 ${(exitMs / 1000).toFixed(2)} s after SIGTERM`,
    )
  })
})
