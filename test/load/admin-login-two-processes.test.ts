// Issue #20's per-account login lock across nodes: two real `src/server.ts` processes on one
// PostgreSQL and one Redis prefix. The lock counts each attempt in Redis before the password is
// checked, so a burst split over both processes still gets at most RATE_LIMIT_AUTH_MAX / 6 (5)
// password checks in all. Each guess comes from its own address (TRUST_PROXY and X-Forwarded-For,
// as behind a load balancer), so the per-address limit answers none of them: every 429 is the account's.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { openDatabase, type Database } from '../../src/db/client.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { createAdmin } from '../../src/modules/admins/index.ts'
import { freshPostgres } from '../helpers/app.ts'
import { freePort } from '../helpers/factories.ts'
import { type ServerProcess, startServer } from './load-support.ts'
import { schema } from '../helpers/schema-db.ts'

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379'
const ADMIN = { email: 'locked-twice@example.test', password: 'long-enough-password' }

let fresh: { url: string; drop(): Promise<void> }
let database: Database
let servers: ServerProcess[] = []
let dataDir: string

before(async () => {
  fresh = await freshPostgres()
  database = await openDatabase({ databaseUrl: fresh.url, pgliteDir: null, poolSize: 2, schema })
  await migrateDatabase(database)
  await createAdmin(database.db, { ...ADMIN, role: 'ADMIN' })
  dataDir = mkdtempSync(join(tmpdir(), 'commerce-login-lock-'))
  const env = {
    DATABASE_URL: fresh.url,
    REDIS_URL,
    REDIS_PREFIX: `login-lock:${randomBytes(4).toString('hex')}:`,
    AUTH_SECRET: 'login-lock-secret-that-is-long-enough-0123',
    DATA_DIR: dataDir,
    RATE_LIMIT_AUTH_MAX: '30',
    TRUST_PROXY: 'true',
    JOB_INTERVAL_MS: '600000',
  }
  const [a, b] = [await freePort(), await freePort()]
  servers = await Promise.all([startServer(a, env), startServer(b, env)])
})

after(async () => {
  await Promise.all(servers.map((s) => s.stop()))
  await database?.close()
  await fresh?.drop()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

async function login(server: ServerProcess, password: string, address: string) {
  const res = await fetch(`${server.url}/api/v1/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ email: ADMIN.email, password }),
  })
  return { status: res.status, body: (await res.json()) as { message: string } }
}

test('two processes: 50 concurrent wrong passwords for one account, half through each, get at most 5 password checks; the rest and then the right password are 429', async () => {
  const results = await Promise.all(Array.from({ length: 50 }, (_, i) => login(servers[i % 2]!, `wrong-${i}`, `10.40.0.${i + 1}`)))
  const checked = results.filter((r) => r.status === 401).length
  const locked = results.filter((r) => r.status === 429)
  console.log(`login lock, two processes: ${checked} x 401, ${locked.length} x 429 of 50`)
  assert.equal(checked + locked.length, 50, `statuses: ${[...new Set(results.map((r) => r.status))]}`)
  assert.ok(checked <= 5, `${checked} passwords were checked`)
  for (const r of locked) assert.match(r.body.message, /^Too many failed logins for this account/)
  for (const [i, server] of servers.entries()) {
    const right = await login(server, ADMIN.password, `10.41.0.${i + 1}`)
    assert.equal(right.status, 429, 'the right password is refused while the account is locked, on either process')
  }
})
