// The command line, run as a partner's operator would run it, against a fresh database.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'
import { freshPostgres } from '../helpers/app.ts'

const run = promisify(execFile)
const root = new URL('../../', import.meta.url).pathname
const dataDir = mkdtempSync(join(tmpdir(), 'commerce-cli-'))
let databaseUrl: string | undefined
let dropDatabase = async () => {}

before(async () => {
  if (!process.env.TEST_DATABASE_URL) return
  const fresh = await freshPostgres(process.env.TEST_DATABASE_URL)
  databaseUrl = fresh.url
  dropDatabase = fresh.drop
})
after(async () => {
  await dropDatabase()
  rmSync(dataDir, { recursive: true, force: true })
})

async function commerce(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir, AUTH_SECRET: 'c'.repeat(40) }
  delete env.NODE_OPTIONS
  delete env.DATABASE_URL
  if (databaseUrl) env.DATABASE_URL = databaseUrl
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/commerce.js', ...args], { cwd: root, env })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

test('--help lists the commands; an unknown command fails', async () => {
  const help = await commerce('--help')
  assert.equal(help.code, 0)
  for (const name of ['migrate', 'seed', 'partner create', 'partner list', 'partner rotate-secret', 'partner deactivate', 'apikey create', 'apikey list', 'apikey revoke', 'admin create']) {
    assert.match(help.stdout, new RegExp(name))
  }
  const partnerHelp = await commerce('partner', 'create', '--help')
  assert.equal(partnerHelp.code, 0)
  assert.match(partnerHelp.stdout, /--name/)
  assert.equal((await commerce('frobnicate')).code, 1)
})

test('migrate, seed --json, partner create, list, rotate-secret and deactivate, apikey create, list and revoke, admin create', { timeout: 180_000 }, async () => {
  assert.equal((await commerce('migrate')).code, 0)

  const seeded = await commerce('seed', '--json')
  assert.equal(seeded.code, 0, seeded.stderr)
  const demo = JSON.parse(seeded.stdout)
  assert.match(demo.partner.id, /^prt_/)
  assert.match(demo.partner.secret, /^psk_/)
  assert.match(demo.apiKey, /^ck_/)
  assert.equal(demo.admin.email, 'admin@demo.local')
  assert.ok(demo.admin.password.length >= 12)

  const again = JSON.parse((await commerce('seed', '--json')).stdout)
  assert.equal(again.partner.id, demo.partner.id, 'seeding again keeps the demo partner')
  assert.notEqual(again.partner.secret, demo.partner.secret, 'and prints a fresh secret')

  const created = await commerce('partner', 'create', '--name', 'Acme Shop', '--json')
  assert.equal(created.code, 0, created.stderr)
  const acme = JSON.parse(created.stdout)
  assert.equal(acme.partner.name, 'Acme Shop')
  assert.equal(acme.catalogId, demo.catalogId, 'a new partner sells the main catalog by default')

  const origins = await commerce('partner', 'return-origins', '--partner', acme.partner.id, '--origins', 'https://acme.example/shop, http://localhost:5173', '--json')
  assert.equal(origins.code, 0, origins.stderr)
  assert.deepEqual(JSON.parse(origins.stdout).origins, ['https://acme.example', 'http://localhost:5173'])
  const badOrigin = await commerce('partner', 'return-origins', '--partner', acme.partner.id, '--origins', 'javascript:alert(1)')
  assert.equal(badOrigin.code, 1)
  assert.match(badOrigin.stderr, /javascript:alert\(1\) is not an http\(s\) origin/)
  const noPartner = await commerce('partner', 'return-origins', '--partner', 'prt_nope', '--origins', 'https://a.example')
  assert.equal(noPartner.code, 1)
  assert.match(noPartner.stderr, /Partner not found/)

  const missing = await commerce('partner', 'create')
  assert.equal(missing.code, 1)
  assert.match(missing.stderr, /Missing --name/)

  const key = JSON.parse((await commerce('apikey', 'create', '--partner', acme.partner.id, '--json')).stdout)
  assert.match(key.id, /^key_/)
  const revoked = await commerce('apikey', 'revoke', '--id', key.id)
  assert.equal(revoked.code, 0, revoked.stderr)
  const unknown = await commerce('apikey', 'revoke', '--id', 'key_nope')
  assert.equal(unknown.code, 1)
  assert.match(unknown.stderr, /API key not found/)
  const twice = await commerce('apikey', 'revoke', '--id', key.id)
  assert.equal(twice.code, 1)
  assert.match(twice.stderr, /API key is already revoked/)
  const keys = JSON.parse((await commerce('apikey', 'list', '--partner', acme.partner.id, '--json')).stdout) as { id: string; revokedAt: string | null }[]
  assert.deepEqual(keys.map((k) => [k.id, k.revokedAt !== null]).sort(), [[acme.apiKeyId, false], [key.id, true]].sort())

  const listed = JSON.parse((await commerce('partner', 'list', '--search', 'acme', '--json')).stdout)
  assert.deepEqual(listed.data.map((p: { id: string }) => p.id), [acme.partner.id])
  const duplicate = await commerce('partner', 'create', '--name', 'ACME shop')
  assert.equal(duplicate.code, 1)
  assert.match(duplicate.stderr, /A partner named Acme Shop already exists/)
  const rotated = JSON.parse((await commerce('partner', 'rotate-secret', '--partner', acme.partner.id, '--json')).stdout)
  assert.match(rotated.secret, /^psk_/)
  assert.ok(new Date(rotated.previousSecretExpiresAt).getTime() > Date.now() + 23 * 3600_000, 'the old secret overlaps for 24 h by default')
  const deactivated = JSON.parse((await commerce('partner', 'deactivate', '--partner', acme.partner.id, '--json')).stdout)
  assert.equal(deactivated.isActive, false)

  const admin = await commerce('admin', 'create', '--email', 'Ops@Example.com', '--password', 'long-password', '--role', 'SUPPORT', '--json')
  assert.equal(admin.code, 0, admin.stderr)
  assert.deepEqual({ ...JSON.parse(admin.stdout), id: undefined }, { id: undefined, email: 'ops@example.com', role: 'SUPPORT' })
  const badRole = await commerce('admin', 'create', '--email', 'x@example.com', '--password', 'long-password', '--role', 'ROOT')
  assert.equal(badRole.code, 1)
  assert.match(badRole.stderr, /role must be one of the following values: ADMIN, SUPPORT, CATALOG/)
})

test('catalog import FILE (JSON and CSV, all or nothing) and bench-data', { timeout: 120_000 }, async () => {
  const { writeFileSync } = await import('node:fs')
  const jsonFile = join(dataDir, 'import.json')
  writeFileSync(
    jsonFile,
    JSON.stringify({
      categories: [{ slug: 'cli-staples', name: 'CLI Staples' }],
      products: [{ slug: 'cli-atta-5kg', name: 'CLI Atta 5 kg', brand: 'Aashirvaad', sku: 'CLI-1', categorySlug: 'cli-staples', sellingPrice: '289.00', mrp: '320.00' }],
    }),
  )
  const imported = await commerce('catalog', 'import', jsonFile, '--json')
  assert.equal(imported.code, 0, imported.stderr)
  assert.deepEqual(JSON.parse(imported.stdout), { categories: { created: 1, updated: 0 }, products: { created: 1, updated: 0 } })

  const csvFile = join(dataDir, 'import.csv')
  writeFileSync(csvFile, 'slug,name,brand,sku,categorySlug,sellingPrice,mrp\ncli-besan,"CLI Besan, 1 kg",Fortune,CLI-2,cli-staples,95,110\nBAD,,x,CLI-3,nowhere,1,1\n')
  const bad = await commerce('catalog', 'import', csvFile)
  assert.equal(bad.code, 1)
  assert.match(bad.stderr, /invalid rows/)

  const missingFile = await commerce('catalog', 'import')
  assert.equal(missingFile.code, 1)
  assert.match(missingFile.stderr, /Missing FILE/)

  const bench = await commerce('bench-data', '--products', '300', '--json')
  assert.equal(bench.code, 0, bench.stderr)
  const made = JSON.parse(bench.stdout)
  assert.equal(made.products, 300)
  assert.match(made.apiKey, /^ck_/)
  assert.equal((await commerce('bench-data', '--products', 'lots')).code, 1)
})
