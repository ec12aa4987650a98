// FT-10 connection exhaustion (reliability plan 7.4): PostgreSQL allows fewer connections than the
// app's pool wants. A throwaway cluster with max_connections 8, 3 of them reserved for superusers,
// leaves 5 for the app's role (`app`, not a superuser, as in production), against a pool of 10.
// Another "instance" (3 connections of the same role, held open) takes 3 of the 5, so the server
// process can open 2. Under 12 clients of catalog reads and orders, every connection the pool tries
// to open beyond those is refused by PostgreSQL ("too many clients", SQLSTATE 53300): the request
// must answer 503 + Retry-After within the pool's 3 s wait, never hang and never 500, while the
// requests that got a connection succeed, /health/live stays 200 and the process stays up. Once
// the other instance lets its connections go, a load within the 5 connections runs without a 503.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { openDatabase } from '../../src/db/client.ts'
import { durations, type FaultShop, type Load, percentile, prepareFaultShop, type Sample, serverEnv, startLoad } from '../helpers/fault-load.ts'
import { invariantViolations } from '../helpers/invariants.ts'
import { type ServerProcess, sleep, startServerProcess, startThrowawayPostgres, type ThrowawayPostgres } from '../helpers/throwaway.ts'
import { schema } from '../helpers/schema-db.ts'

const MAX_CONNECTIONS = 8
const RESERVED = 3
/** Connections a role that is not a superuser may open. */
const APP_SLOTS = MAX_CONNECTIONS - RESERVED
const POOL_SIZE = 10
const OTHER_INSTANCE = 3
const CLIENTS = 12
const CALM_CLIENTS = 3
/** The pool's connectionTimeoutMillis (src/db/client.ts) and a margin for a loaded box. */
const POOL_WAIT_MS = 3000
const MARGIN_MS = 1500

let postgres: ThrowawayPostgres
let fs: FaultShop
let appUrl: string
let server: ServerProcess
let serverExit: string | null = null

describe('PostgreSQL out of connections', { timeout: 200_000 }, () => {
  before(async () => {
    postgres = await startThrowawayPostgres({ max_connections: String(MAX_CONNECTIONS), superuser_reserved_connections: String(RESERVED) })
    await postgres.query('create role app login')
    await postgres.query('create database app owner app')
    appUrl = `postgres://app@127.0.0.1:${postgres.port}/app`
    fs = await prepareFaultShop(appUrl, CLIENTS + CALM_CLIENTS)
    // The shop is built (its fixtures stay usable): its pool's connections would count against the app's 5.
    await fs.close()
    server = await startServerProcess(serverEnv(appUrl, null, { DB_POOL_SIZE: String(POOL_SIZE) }))
    void server.exited.then(({ code, signal }) => (serverExit = `code ${code}, signal ${signal}`))
    await server.ready()
  })
  after(async () => {
    if (server) server.kill('SIGKILL')
    await postgres?.cleanup()
  })

  const appBackends = async () =>
    (await postgres.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where usename = 'app'`))[0]!.n

  test(`pool ${POOL_SIZE}, ${APP_SLOTS} connections allowed, ${OTHER_INSTANCE} held elsewhere: beyond capacity 503 + Retry-After within ${POOL_WAIT_MS / 1000} s, never a hang or a 500; process and liveness up; success resumes`, async () => {
    // ---- Phase 1: another instance holds 3 of the 5; 12 clients share what is left. ----
    const other: pg.Client[] = []
    for (let i = 0; i < OTHER_INSTANCE; i++) {
      const client = new pg.Client({ connectionString: appUrl })
      await client.connect()
      other.push(client)
    }
    let heldBackends = 0
    const load: Load = startLoad(server.base, fs, fs.customers.slice(0, CLIENTS), { pauseMs: 50 })
    const sampler = setInterval(() => void appBackends().then((n) => (heldBackends = Math.max(heldBackends, n)), () => {}), 250)
    await sleep(6000)
    // The refusal the server meets, seen from a client of its own: PostgreSQL's 53300. (Should the
    // probe find a slot the pool had let go for a moment, it hands it back and asks again.)
    let probeError: { code?: string; message: string } | null = null
    for (let i = 0; i < 20 && !probeError; i++) {
      const probe = new pg.Client({ connectionString: appUrl })
      probeError = await probe.connect().then(
        () => null,
        (err: { code?: string; message: string }) => err,
      )
      await probe.end().catch(() => {})
      if (!probeError) await sleep(100)
    }
    await load.stop()
    clearInterval(sampler)
    const squeezed = load.samples

    // ---- Phase 2: the other instance lets go; a load within the 5 connections. ----
    await Promise.all(other.map((c) => c.end()))
    await sleep(500)
    const calmFrom = Date.now()
    const calm = startLoad(server.base, fs, fs.customers.slice(CLIENTS, CLIENTS + CALM_CLIENTS), { pauseMs: 50 })
    await sleep(4000)
    await calm.stop()

    const work = (samples: Sample[]) => samples.filter((s) => s.kind === 'read' || s.kind === 'order')
    const count = (samples: Sample[], ok: (s: Sample) => boolean) => samples.filter(ok).length
    const squeezedWork = work(squeezed)
    const shed = squeezedWork.filter((s) => s.status === 503)
    const succeeded = squeezedWork.filter((s) => s.status === 200 || s.status === 201)

    assert.equal(probeError?.code, '53300', `with the other instance and the server connected, PostgreSQL refuses more: ${probeError?.message}`)
    assert.equal(serverExit, null, `the server process stayed up (${serverExit}):\n${server.output()}`)
    assert.deepEqual(
      squeezedWork.filter((s) => s.status !== 503 && s.status !== 200 && s.status !== 201).map((s) => `${s.kind} ${s.status}`),
      [],
      'only 200/201 or 503 while connections are short: never a 500, a hang (-1) or a refused connection (0)',
    )
    assert.ok(shed.length > 0, 'the load went beyond capacity (some 503s)')
    assert.ok(succeeded.length > 0, 'the requests that got a connection succeeded')
    assert.deepEqual(shed.filter((s) => s.retryAfter !== '1').length, 0, 'every 503 says Retry-After: 1')
    const slowest = Math.max(...durations(squeezedWork))
    assert.ok(slowest <= POOL_WAIT_MS + MARGIN_MS, `every answer within the pool's ${POOL_WAIT_MS} ms wait + ${MARGIN_MS} ms (slowest ${slowest} ms)`)
    const live = [...squeezed, ...calm.samples].filter((s) => s.kind === 'live')
    assert.ok(live.length > 0 && live.every((s) => s.status === 200), `/health/live 200 throughout: ${live.map((s) => s.status).join(',')}`)
    assert.deepEqual([...load.unexpected, ...calm.unexpected], [], 'every order confirmed with its key')

    const calmWork = work(calm.samples)
    assert.deepEqual(calmWork.filter((s) => s.status !== 200 && s.status !== 201).map((s) => `${s.kind} ${s.status}`), [], 'within capacity: every request succeeds')
    const firstOrder = calmWork.filter((s) => s.kind === 'order' && s.status === 201).sort((a, b) => a.end - b.end)[0]
    assert.ok(firstOrder && firstOrder.end - calmFrom < 2000, 'the first order after the connections came back succeeds at once')
    assert.equal(serverExit, null)

    // Nothing half-written by the 503s: one order per confirmed key, each answered id in the database.
    const placed = [...load.placed, ...calm.placed]
    const userIds = [...new Set(placed.map((p) => p.customer.userId))]
    const rows = await postgres.query<{ id: string }>('select id from orders where user_id = any($1)', [userIds], 'app')
    assert.deepEqual(new Set(rows.map((r) => r.id)), new Set(placed.map((p) => p.orderId)), 'orders in the database = the orders answered 201')
    const database = await openDatabase({ databaseUrl: postgres.url('app'), pgliteDir: null, poolSize: 1, schema })
    try {
      assert.deepEqual(await invariantViolations(database.db, { now: new Date() }), [])
    } finally {
      await database.close()
    }

    const orders = squeezedWork.filter((s) => s.kind === 'order')
    console.log(
      `FT-10 pool ${POOL_SIZE}, ${APP_SLOTS} connections for the app role, ${OTHER_INSTANCE} held by another instance (at most ${heldBackends} app backends seen, ${OTHER_INSTANCE} of them the other instance's): ` +
        `${CLIENTS} clients for 6 s: ${succeeded.length} x 2xx, ${shed.length} x 503 + Retry-After (${count(orders, (s) => s.status === 503)} of ${orders.length} orders), 0 x 500, 0 hangs; ` +
        `slowest answer ${slowest} ms, 503 p99 ${percentile(durations(shed), 99)} ms; /health/live ${live.length}/${live.length} x 200; process up; ` +
        `${placed.filter((p) => p.replayed).length} orders confirmed by a same-key retry, ${placed.length} orders, 0 lost or duplicated. ` +
        `After release, ${CALM_CLIENTS} clients for 4 s: ${calmWork.length} x 2xx, 0 x 503, first 201 ${firstOrder ? firstOrder.end - calmFrom : '-'} ms after; sweep clean`,
    )
  })
})
