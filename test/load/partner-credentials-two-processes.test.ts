// Issue #21's partner credentials across nodes: two real `src/server.ts` processes on one
// PostgreSQL and one Redis prefix. A partner deactivated through one process is refused by the
// other at once (its API key, remembered by that node's authenticator, is forgotten through Redis
// pub/sub); a rotated secret's predecessor works on both nodes inside the overlap and on neither
// after it.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { setTimeout as delay } from 'node:timers/promises'
import { openDatabase, type Database } from '../../src/db/client.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { createAdmin } from '../../src/modules/admins/index.ts'
import { createCatalog } from '../../src/modules/catalog/index.ts'
import { freshPostgres } from '../helpers/app.ts'
import { freePort } from '../helpers/factories.ts'
import { type ServerProcess, startServer } from './load-support.ts'
import { schema } from '../helpers/schema-db.ts'

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379'
const ADMIN = { email: 'partners-twice@example.test', password: 'long-enough-password' }
const OVERLAP_SECONDS = 3

let fresh: { url: string; drop(): Promise<void> }
let database: Database
let servers: ServerProcess[] = []
let dataDir: string
let token: string

before(async () => {
  fresh = await freshPostgres()
  database = await openDatabase({ databaseUrl: fresh.url, pgliteDir: null, poolSize: 2, schema })
  await migrateDatabase(database)
  await createAdmin(database.db, { ...ADMIN, role: 'ADMIN' })
  await createCatalog(database.db, 'Main catalog')
  dataDir = mkdtempSync(join(tmpdir(), 'commerce-partners-twice-'))
  const env = {
    DATABASE_URL: fresh.url,
    REDIS_URL,
    REDIS_PREFIX: `partners-twice:${randomBytes(4).toString('hex')}:`,
    AUTH_SECRET: 'partners-twice-secret-that-is-long-enough-01',
    DATA_DIR: dataDir,
    PARTNER_SECRET_OVERLAP_SECONDS: String(OVERLAP_SECONDS),
    JOB_INTERVAL_MS: '600000',
  }
  const [a, b] = [await freePort(), await freePort()]
  servers = await Promise.all([startServer(a, env), startServer(b, env)])
  const login = await fetch(`${servers[0]!.url}/api/v1/admin/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) })
  token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken
})

after(async () => {
  await Promise.all(servers.map((s) => s.stop()))
  await database?.close()
  await fresh?.drop()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

async function asAdmin(server: ServerProcess, path: string, body?: object) {
  const res = await fetch(`${server.url}/api/v1/admin${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { status: res.status, data: ((await res.json()) as { data: Record<string, unknown> }).data }
}
const products = (server: ServerProcess, apiKey: string) => fetch(`${server.url}/api/v1/products?limit=1`, { headers: { 'x-api-key': apiKey } }).then((r) => r.status)
const exchange = (server: ServerProcess, partnerId: string, secret: string) =>
  fetch(`${server.url}/api/v1/auth/customer-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-partner-id': partnerId, 'x-partner-secret': secret },
    body: JSON.stringify({ phone: `98${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}` }),
  }).then((r) => r.status)

test('a partner deactivated through one process: its API key is refused by the other on the next request, though that node had it cached', async () => {
  const [a, b] = servers as [ServerProcess, ServerProcess]
  const created = await asAdmin(a, '/partners', { name: `Two nodes ${randomBytes(4).toString('hex')}` })
  assert.equal(created.status, 201)
  const partner = created.data.partner as { id: string }
  const apiKey = (created.data.apiKey as { apiKey: string }).apiKey
  assert.equal(await products(b, apiKey), 200, 'node B now remembers the key')
  assert.equal((await asAdmin(a, `/partners/${partner.id}/deactivate`)).status, 200)
  // The announcement travels through Redis while the admin's answer travels back: allow the few
  // milliseconds between them, far under the 5 s the key cache would otherwise keep it.
  let status = await products(b, apiKey)
  for (let i = 0; i < 20 && status === 200; i++) status = await delay(25).then(() => products(b, apiKey))
  assert.equal(status, 401)
})

test('a rotated secret: the previous one works on both processes inside the overlap, on neither after it', async () => {
  const [a, b] = servers as [ServerProcess, ServerProcess]
  const created = await asAdmin(a, '/partners', { name: `Rotating ${randomBytes(4).toString('hex')}` })
  const partnerId = (created.data.partner as { id: string }).id
  const old = created.data.secret as string
  const rotated = await asAdmin(b, `/partners/${partnerId}/rotate-secret`)
  const next = rotated.data.secret as string
  for (const server of [a, b]) {
    assert.equal(await exchange(server, partnerId, old), 200)
    assert.equal(await exchange(server, partnerId, next), 200)
  }
  await delay(OVERLAP_SECONDS * 1000 + 200)
  for (const server of [a, b]) {
    assert.equal(await exchange(server, partnerId, old), 401)
    assert.equal(await exchange(server, partnerId, next), 200)
  }
})

test('a customer session remembered by one process: a logout or a block through the other is refused there on the next requests', async () => {
  const [a, b] = servers as [ServerProcess, ServerProcess]
  const created = await asAdmin(a, '/partners', { name: `Sessions ${randomBytes(4).toString('hex')}` })
  const partnerId = (created.data.partner as { id: string }).id
  const secret = created.data.secret as string
  const signIn = async () => {
    const res = await fetch(`${a.url}/api/v1/auth/customer-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-partner-id': partnerId, 'x-partner-secret': secret },
      body: JSON.stringify({ phone: `97${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}` }),
    })
    return ((await res.json()) as { data: { accessToken: string; refreshToken: string; user: { id: string } } }).data
  }
  const me = (server: ServerProcess, accessToken: string) => fetch(`${server.url}/api/v1/users/me`, { headers: { authorization: `Bearer ${accessToken}` } }).then((r) => r.status)
  const refusedOn = async (server: ServerProcess, accessToken: string) => {
    let status = await me(server, accessToken)
    for (let i = 0; i < 20 && status === 200; i++) status = await delay(25).then(() => me(server, accessToken))
    return status
  }
  const leaving = await signIn()
  assert.equal(await me(b, leaving.accessToken), 200, 'node B now remembers the session')
  const out = await fetch(`${a.url}/api/v1/auth/logout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken: leaving.refreshToken }) })
  assert.equal(out.status, 200)
  assert.equal(await refusedOn(b, leaving.accessToken), 401)
  const blocked = await signIn()
  assert.equal(await me(b, blocked.accessToken), 200)
  assert.equal((await asAdmin(a, `/customers/${blocked.user.id}/block`, { reason: 'Fraud ring' })).status, 200)
  assert.equal(await refusedOn(b, blocked.accessToken), 403)
})
