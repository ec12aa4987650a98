// The command line, run as a partner's operator would run it, against a fresh database. Commands
// run in this process (`main` with captured stdout and stderr) on one test database held open; one
// test lets commands open the database themselves, as the process does; the last tests spawn the
// real bundled binary for what only a process shows (its exit code, what `--help` loads).
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'
import { main, runsLong } from '../../src/cli/index.ts'
import { ADMIN_ROLES_HELP } from '../../src/cli/admin.ts'
import { ADMIN_ROLES } from '../../src/modules/admins/index.ts'
import { createTestApp, freshPostgres, type TestApp } from '../helpers/app.ts'

const root = new URL('../../', import.meta.url).pathname
const dataDir = mkdtempSync(join(tmpdir(), 'commerce-cli-'))
let databaseUrl: string | undefined
let dropDatabase = async () => {}
let shop: TestApp

before(async () => {
  shop = await createTestApp()
  if (!process.env.TEST_DATABASE_URL) return
  const fresh = await freshPostgres(process.env.TEST_DATABASE_URL)
  databaseUrl = fresh.url
  dropDatabase = fresh.drop
})
after(async () => {
  await shop.close()
  await dropDatabase()
  rmSync(dataDir, { recursive: true, force: true })
})

function environment(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir, AUTH_SECRET: 'c'.repeat(40), ...extra }
  delete env.NODE_OPTIONS
  delete env.DATABASE_URL
  delete env.REDIS_URL
  if (databaseUrl) env.DATABASE_URL = databaseUrl
  return env
}

interface Run {
  code: number
  stdout: string
  stderr: string
}

/**
 * `commerce ...args` in this process, on the test database; `tty` makes stderr a terminal (live
 * progress); `opensDatabase` lets the command open the database of its environment itself.
 */
async function commerce(args: string[], options: { tty?: boolean; env?: Record<string, string>; opensDatabase?: boolean } = {}): Promise<Run> {
  let stdout = ''
  let stderr = ''
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text), isTTY: options.tty ?? false },
    env: environment(options.env),
    runtime: options.opensDatabase ? undefined : shop.deps,
  })
  return { code, stdout, stderr }
}
const cli = (...args: string[]) => commerce(args)
/** What a terminal's live progress line starts with: back to column 0, clear the line. */
const CLEAR_LINE = '\r\x1b[2K'

/** The one JSON error document a failed command prints on stderr under --json. */
function jsonError(run: Run): { code: string; message: string; details?: string[] } {
  assert.equal(run.stdout, '', 'a failed command prints nothing on stdout')
  const lines = run.stderr.trim().split('\n')
  assert.equal(lines.length, 1, `one JSON line on stderr, got: ${run.stderr}`)
  return (JSON.parse(lines[0]!) as { error: { code: string; message: string; details?: string[] } }).error
}

test('--help lists every command; each command help lists its options, the description two spaces after the longest option', async () => {
  const help = await cli('--help')
  assert.equal(help.code, 0)
  const names = ['migrate', 'seed', 'partner create', 'partner return-origins', 'partner list', 'partner rotate-secret', 'partner deactivate', 'apikey create', 'apikey list', 'apikey revoke', 'admin create', 'catalog import', 'bench-data']
  for (const name of names) {
    assert.match(help.stdout, new RegExp(`^  ${name}  +\\S`, 'm'), name)
    const own = await cli(...name.split(' '), '--help')
    assert.equal(own.code, 0, name)
    const optionLines = own.stdout.split('\n').filter((l) => l.startsWith('  --'))
    assert.ok(optionLines.some((l) => l.startsWith('  --json ')), name)
    for (const line of optionLines) assert.match(line, /^ {2}--[a-z-]+(?: <value>)? {2,}\S/, `${name}: ${line}`)
  }
  const partnerHelp = await cli('partner', 'create', '--help')
  assert.match(partnerHelp.stdout, /^ {2}--return-origins <value> {2}Comma-separated/m)
  assert.equal((await cli()).stdout, help.stdout, 'no command: the usage')
})

test('admin create --help names exactly the roles the admins module accepts', async () => {
  assert.equal(ADMIN_ROLES_HELP, ADMIN_ROLES.join(', '))
  assert.match((await cli('admin', 'create', '--help')).stdout, new RegExp(`One of ${ADMIN_ROLES.join(', ')}`))
})

test('an unknown command says so, then the usage, and exits 2; under --json only the JSON error', async () => {
  const unknown = await cli('frobnicate')
  assert.equal(unknown.code, 2)
  assert.equal(unknown.stdout, '')
  assert.match(unknown.stderr, /^Unknown command: frobnicate\n\nUsage: commerce <command>/)
  const sub = await cli('partner', 'frobnicate')
  assert.equal(sub.code, 2)
  assert.match(sub.stderr, /^Unknown command: partner frobnicate\n/)
  const json = await cli('frobnicate', '--json')
  assert.equal(json.code, 2)
  assert.deepEqual(jsonError(json), { code: 'USAGE', message: 'Unknown command: frobnicate' })
})

test('a missing or unknown option, or a missing FILE, exits 2 with the command help (JSON under --json)', async () => {
  const missing = await cli('partner', 'create')
  assert.equal(missing.code, 2)
  assert.match(missing.stderr, /^Missing --name\n\nUsage: commerce partner create/)
  const unknownOption = await cli('partner', 'list', '--colour', 'red')
  assert.equal(unknownOption.code, 2)
  assert.match(unknownOption.stderr, /Unknown option '--colour'/)
  const missingFile = await cli('catalog', 'import')
  assert.equal(missingFile.code, 2)
  assert.match(missingFile.stderr, /^Missing FILE\n/)
  const json = await cli('partner', 'create', '--json')
  assert.equal(json.code, 2)
  assert.deepEqual(jsonError(json), { code: 'USAGE', message: 'Missing --name' })
})

test('without an open database, a command opens and migrates the one of DATABASE_URL or DATA_DIR, and closes it', async () => {
  const first = await commerce(['migrate', '--json'], { opensDatabase: true })
  assert.equal(first.code, 0, first.stderr)
  assert.deepEqual(JSON.parse(first.stdout), { migrated: true })
  const second = await commerce(['migrate'], { opensDatabase: true })
  assert.equal(second.code, 0, `closed after the first command, so it opens again: ${second.stderr}`)
  assert.equal(second.stdout, 'Database is up to date.\n')
})

test('a command that fails before it uses the database closes the one it started opening: the next command opens it', async () => {
  const failed = await commerce(['catalog', 'import', join(dataDir, 'no-such-file.csv'), '--json'], { opensDatabase: true })
  assert.equal(failed.code, 1)
  assert.match(jsonError(failed).message, /no-such-file\.csv/)
  if (!databaseUrl) assert.equal(existsSync(join(dataDir, 'pglite.lock')), false, 'the embedded database is unlocked')
  const next = await commerce(['migrate'], { opensDatabase: true })
  assert.equal(next.code, 0, next.stderr)
})

test('an embedded database in use by another process is exit 1, DATABASE_LOCKED under --json', { skip: Boolean(process.env.TEST_DATABASE_URL) && 'PostgreSQL has no lock file' }, async () => {
  const lockedDir = mkdtempSync(join(tmpdir(), 'commerce-cli-locked-'))
  try {
    writeFileSync(join(lockedDir, 'pglite.lock'), String(process.ppid)) // a live process that is not this one
    const locked = await commerce(['migrate', '--json'], { opensDatabase: true, env: { DATA_DIR: lockedDir } })
    assert.equal(locked.code, 1)
    const error = jsonError(locked)
    assert.equal(error.code, 'DATABASE_LOCKED')
    assert.match(error.message, new RegExp(`in use by process ${process.ppid}`))
  } finally {
    rmSync(lockedDir, { recursive: true, force: true })
  }
})

test('a bad configuration is exit 1 with its message; under --json the CONFIG error', async () => {
  const text = await commerce(['migrate'], { env: { AUTH_SECRET: 'short' } })
  assert.equal(text.code, 1)
  assert.match(text.stderr, /^Invalid configuration: AUTH_SECRET must be at least 32 characters long\n$/)
  const json = await commerce(['migrate', '--json'], { env: { AUTH_SECRET: 'short' } })
  assert.equal(json.code, 1)
  assert.deepEqual(jsonError(json), { code: 'CONFIG', message: 'Invalid configuration: AUTH_SECRET must be at least 32 characters long' })
})

test('migrate, seed --json, partner create, list, rotate-secret and deactivate, apikey create, list and revoke, admin create', async () => {
  assert.equal((await cli('migrate')).code, 0)

  const seeded = await cli('seed', '--json')
  assert.equal(seeded.code, 0, seeded.stderr)
  const demo = JSON.parse(seeded.stdout)
  assert.match(demo.partner.id, /^prt_/)
  assert.match(demo.partner.secret, /^psk_/)
  assert.match(demo.apiKey, /^ck_/)
  assert.equal(demo.admin.email, 'admin@demo.local')
  assert.ok(demo.admin.password.length >= 12)
  assert.match(seeded.stderr, /^Seeded demo data in \d+\.\d s\.\n$/, 'piped: one summary line, no live progress')

  const again = await commerce(['seed', '--json'], { tty: true })
  const reseeded = JSON.parse(again.stdout)
  assert.equal(reseeded.partner.id, demo.partner.id, 'seeding again keeps the demo partner')
  assert.notEqual(reseeded.partner.secret, demo.partner.secret, 'and prints a fresh secret')
  assert.ok(again.stderr.includes(`${CLEAR_LINE}Opening the database… `), 'on a terminal: the phases, live')
  assert.ok(again.stderr.includes(`${CLEAR_LINE}Seeding demo data… `), again.stderr)
  assert.match(again.stderr.split(CLEAR_LINE).at(-1)!, /^Seeded demo data in \d+\.\d s\.\n$/, 'then the summary in place of the live line')

  const created = await cli('partner', 'create', '--name', 'Acme Shop', '--json')
  assert.equal(created.code, 0, created.stderr)
  const acme = JSON.parse(created.stdout)
  assert.equal(acme.partner.name, 'Acme Shop')
  assert.equal(acme.catalogId, demo.catalogId, 'a new partner sells the main catalog by default')
  assert.equal(created.stderr, '')

  const origins = await cli('partner', 'return-origins', '--partner', acme.partner.id, '--origins', 'https://acme.example/shop, http://localhost:5173', '--json')
  assert.equal(origins.code, 0, origins.stderr)
  assert.deepEqual(JSON.parse(origins.stdout).origins, ['https://acme.example', 'http://localhost:5173'])
  const badOrigin = await cli('partner', 'return-origins', '--partner', acme.partner.id, '--origins', 'javascript:alert(1)')
  assert.equal(badOrigin.code, 1)
  assert.match(badOrigin.stderr, /javascript:alert\(1\) is not an http\(s\) origin/)
  const noPartner = await cli('partner', 'return-origins', '--partner', 'prt_nope', '--origins', 'https://a.example')
  assert.equal(noPartner.code, 1)
  assert.equal(noPartner.stderr, 'Partner prt_nope not found\n')
  for (const args of [['partner', 'rotate-secret'], ['partner', 'deactivate'], ['apikey', 'list'], ['apikey', 'create']]) {
    const run = await cli(...args, '--partner', 'prt_nope', '--json')
    assert.equal(run.code, 1, args.join(' '))
    assert.deepEqual(jsonError(run), { code: 'NOT_FOUND', message: 'Partner prt_nope not found' }, args.join(' '))
  }
  const noCatalog = await cli('partner', 'create', '--name', 'Nowhere Shop', '--catalog', 'cat_nope', '--json')
  assert.deepEqual(jsonError(noCatalog), { code: 'NOT_FOUND', message: 'Catalog cat_nope not found' })

  const key = JSON.parse((await cli('apikey', 'create', '--partner', acme.partner.id, '--json')).stdout)
  assert.match(key.id, /^key_/)
  const products = (apiKey: string) => shop.app.inject({ method: 'GET', url: '/api/v1/products?limit=1', headers: { 'x-api-key': apiKey } })
  assert.equal((await products(key.apiKey)).statusCode, 200, 'the printed key reads the catalog')
  const keyElsewhere = await cli('apikey', 'create', '--partner', acme.partner.id, '--catalog', 'cat_nope')
  assert.equal(keyElsewhere.code, 1)
  assert.equal(keyElsewhere.stderr, 'Catalog cat_nope not found\n')
  const revoked = await cli('apikey', 'revoke', '--id', key.id)
  assert.equal(revoked.code, 0, revoked.stderr)
  assert.equal((await products(key.apiKey)).statusCode, 401, 'a revoked key is refused at once')
  const unknown = await cli('apikey', 'revoke', '--id', 'key_nope', '--json')
  assert.equal(unknown.code, 1)
  assert.deepEqual(jsonError(unknown), { code: 'NOT_FOUND', message: 'API key key_nope not found' })
  const twice = await cli('apikey', 'revoke', '--id', key.id)
  assert.equal(twice.code, 1)
  assert.equal(twice.stderr, 'API key is already revoked\n')
  const keys = JSON.parse((await cli('apikey', 'list', '--partner', acme.partner.id, '--json')).stdout) as { id: string; revokedAt: string | null }[]
  assert.deepEqual(keys.map((k) => [k.id, k.revokedAt !== null]).sort(), [[acme.apiKeyId, false], [key.id, true]].sort())

  const listed = JSON.parse((await cli('partner', 'list', '--search', 'acme', '--json')).stdout)
  assert.deepEqual(listed.data.map((p: { id: string }) => p.id), [acme.partner.id])
  const duplicate = await cli('partner', 'create', '--name', 'ACME shop', '--json')
  assert.equal(duplicate.code, 1)
  assert.deepEqual(jsonError(duplicate), { code: 'CONFLICT', message: 'A partner named Acme Shop already exists' })
  const rotated = JSON.parse((await cli('partner', 'rotate-secret', '--partner', acme.partner.id, '--json')).stdout)
  assert.match(rotated.secret, /^psk_/)
  assert.ok(new Date(rotated.previousSecretExpiresAt).getTime() > Date.now() + 23 * 3600_000, 'the old secret overlaps for 24 h by default')
  const deactivated = JSON.parse((await cli('partner', 'deactivate', '--partner', acme.partner.id, '--json')).stdout)
  assert.equal(deactivated.isActive, false)

  const admin = await cli('admin', 'create', '--email', 'Ops@Example.com', '--password', 'long-password', '--role', 'SUPPORT', '--json')
  assert.equal(admin.code, 0, admin.stderr)
  assert.deepEqual({ ...JSON.parse(admin.stdout), id: undefined }, { id: undefined, email: 'ops@example.com', role: 'SUPPORT' })
  const badRole = await cli('admin', 'create', '--email', 'x@example.com', '--password', 'long-password', '--role', 'ROOT', '--json')
  assert.equal(badRole.code, 1)
  assert.deepEqual(jsonError(badRole), { code: 'BAD_REQUEST', message: 'role must be one of the following values: ADMIN, SUPPORT, CATALOG' })
})

test('seed refuses a production database without --force (exit 1, FORBIDDEN under --json)', async () => {
  const refused = await commerce(['seed', '--json'], { env: { NODE_ENV: 'production', PAYMENT_SANDBOX_IN_PRODUCTION: 'true' } })
  assert.equal(refused.code, 1)
  assert.deepEqual(jsonError(refused), { code: 'FORBIDDEN', message: 'Refusing to seed demo data with NODE_ENV=production (pass --force if you mean it)' })
})

test('catalog import FILE: JSON, progress on a terminal and one summary line when piped; an unknown catalog is named', async () => {
  const jsonFile = join(dataDir, 'import.json')
  writeFileSync(
    jsonFile,
    JSON.stringify({
      categories: [{ slug: 'cli-staples', name: 'CLI Staples' }],
      products: [{ slug: 'cli-atta-5kg', name: 'CLI Atta 5 kg', brand: 'Aashirvaad', sku: 'CLI-1', categorySlug: 'cli-staples', sellingPrice: '289.00', mrp: '320.00' }],
    }),
  )
  const imported = await cli('catalog', 'import', jsonFile, '--json')
  assert.equal(imported.code, 0, imported.stderr)
  assert.deepEqual(JSON.parse(imported.stdout), { categories: { created: 1, updated: 0 }, products: { created: 1, updated: 0 } })
  assert.match(imported.stderr, /^Imported 1 categories and 1 products in \d+\.\d s\.\n$/)

  const onTerminal = await commerce(['catalog', 'import', jsonFile], { tty: true })
  assert.equal(onTerminal.code, 0, onTerminal.stderr)
  assert.equal(onTerminal.stdout, 'Imported: categories 0 created, 1 updated; products 0 created, 1 updated.\n')
  assert.ok(onTerminal.stderr.includes(`${CLEAR_LINE}Importing [${'#'.repeat(30)}] 100% (2/2)`), onTerminal.stderr)
  assert.match(onTerminal.stderr.split(CLEAR_LINE).at(-1)!, /^Imported 1 categories and 1 products in \d+\.\d s\.\n$/)

  const noCatalog = await cli('catalog', 'import', jsonFile, '--catalog', 'cat_123', '--json')
  assert.equal(noCatalog.code, 1)
  assert.deepEqual(jsonError(noCatalog), { code: 'NOT_FOUND', message: 'Catalog cat_123 not found' })
  const noFile = await cli('catalog', 'import', join(dataDir, 'absent.json'), '--json')
  assert.deepEqual(jsonError(noFile), { code: 'NOT_FOUND', message: `File ${join(dataDir, 'absent.json')} not found` })
  const notJson = join(dataDir, 'broken.json')
  writeFileSync(notJson, '{"products": [')
  const broken = await cli('catalog', 'import', notJson, '--json')
  assert.equal(broken.code, 1)
  assert.equal(jsonError(broken).code, 'BAD_REQUEST')
  assert.match(jsonError(broken).message, /broken\.json is not valid JSON/)

  const invalid = join(dataDir, 'invalid.json')
  writeFileSync(invalid, JSON.stringify({ products: [{ slug: 'BAD' }] }))
  const rejected = await cli('catalog', 'import', invalid, '--json')
  assert.equal(rejected.code, 1)
  const error = jsonError(rejected)
  assert.equal(error.message, 'The import has invalid rows; nothing was imported (6 problems in 1 row: bad slug: 1, missing category: 1, missing name: 1, missing price: 2, missing sku: 1)')
  assert.ok(error.details?.includes('products[0]: slug must be lower-case words joined by hyphens'), String(error.details))
})

test('catalog import FILE.csv: rows named by their line, an unknown column refused, all or nothing', async () => {
  const csvFile = join(dataDir, 'import.csv')
  writeFileSync(csvFile, 'slug,name,brand,sku,categorySlug,sellingPrice,mrp,description\ncli-besan,"CLI Besan, 1 kg",Fortune,CLI-2,cli-staples,95,110,"Gram flour,\nfinely milled"\ncli-rava,CLI Rava,Fortune,CLI-3,cli-staples,abc,60,\n')
  const bad = await cli('catalog', 'import', csvFile, '--json')
  assert.equal(bad.code, 1)
  assert.deepEqual(jsonError(bad), {
    code: 'BAD_REQUEST',
    message: 'The import has invalid rows; nothing was imported (1 problem in 1 row: bad price: 1)',
    details: ['line 4: sellingPrice must be an amount with at most two decimals'],
  })
  const unknownColumn = join(dataDir, 'colour.csv')
  writeFileSync(unknownColumn, 'slug,name,brand,sku,categorySlug,sellingPrice,mrp,colour\ncli-dal,CLI Dal,Tata,CLI-4,cli-staples,90,100,yellow\n')
  const refused = await cli('catalog', 'import', unknownColumn)
  assert.equal(refused.code, 1)
  assert.match(refused.stderr, /^The CSV header is not valid; nothing was imported\n {2}line 1: column colour should not exist \(the columns are slug, name, brand, sku, categorySlug, sellingPrice, mrp, stock, images, description, weightGrams, lengthCm, breadthCm, heightCm, isActive, hsnCode, gstRateBps, option1Name, option1Value, option2Name, option2Value, option3Name, option3Value, variantSku, variantSellingPrice, variantMrp, variantStock, variantWeightGrams, variantLengthCm, variantBreadthCm, variantHeightCm, variantBarcode, variantHsnCode, variantGstRateBps, variantImages, variantIsActive\)\n$/)

  writeFileSync(csvFile, 'slug,name,brand,sku,categorySlug,sellingPrice,mrp,description\ncli-besan,"CLI Besan, 1 kg",Fortune,CLI-2,cli-staples,95,110,"Gram flour,\nfinely milled"\ncli-rava,CLI Rava,Fortune,CLI-3,cli-staples,55,60,\n')
  const imported = await cli('catalog', 'import', csvFile, '--json')
  assert.equal(imported.code, 0, imported.stderr)
  assert.deepEqual(JSON.parse(imported.stdout), { categories: { created: 0, updated: 0 }, products: { created: 2, updated: 0 } })
  const reader = JSON.parse((await cli('partner', 'create', '--name', 'CSV reader', '--json')).stdout) as { apiKey: string }
  const besan = await shop.app.inject({ method: 'GET', url: '/api/v1/products/cli-besan', headers: { 'x-api-key': reader.apiKey } })
  assert.equal(besan.statusCode, 200, besan.body)
  assert.equal(besan.json().data.name, 'CLI Besan, 1 kg')
  assert.equal(besan.json().data.sellingPrice, '95.00')
})

test('bench-data prints the catalog, partner ID, partner secret and API key, with or without --json', async () => {
  const bench = await cli('bench-data', '--products', '300', '--json')
  assert.equal(bench.code, 0, bench.stderr)
  const made = JSON.parse(bench.stdout)
  assert.equal(made.products, 300)
  assert.match(made.apiKey, /^ck_/)
  assert.match(made.partnerSecret, /^psk_/)
  assert.match(bench.stderr, /^Generated 300 products in \d+\.\d s\.\n$/)

  const text = await cli('bench-data', '--products', '5')
  assert.equal(text.code, 0, text.stderr)
  const [, catalogId] = /^Catalog (cat_\S+) with 5 products in \d+\.\d s\.$/m.exec(text.stdout) ?? []
  const [, partnerId] = /^ {2}Partner ID \(x-partner-id\): (prt_\S+)$/m.exec(text.stdout) ?? []
  assert.ok(catalogId && partnerId, text.stdout)
  assert.match(text.stdout, /^ {2}Partner secret: +psk_\S+$/m)
  assert.match(text.stdout, /^ {2}API key \(x-api-key\): +ck_\S+$/m)
  const partner = JSON.parse((await cli('partner', 'list', '--search', partnerId, '--json')).stdout)
  assert.deepEqual(partner.data.map((p: { id: string }) => p.id), [partnerId], 'the printed partner exists')

  const bad = await cli('bench-data', '--products', 'lots', '--json')
  assert.equal(bad.code, 1)
  assert.deepEqual(jsonError(bad), { code: 'BAD_REQUEST', message: '--products must be a whole number from 1 to 5000000' })
})

const spawn = promisify(execFile)
async function binary(...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await spawn(process.execPath, ['bin/commerce.js', ...args], { cwd: root, env: environment() })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

test('the bundled binary: rebuilt when older than src/, --help exits 0, an unknown command 2 with a JSON error under --json', async () => {
  const entry = join(root, 'dist/cli/commerce.js')
  if (existsSync(entry)) utimesSync(entry, new Date(0), new Date(0)) // older than every source file
  const help = await binary('--help')
  assert.equal(help.code, 0, help.stderr)
  assert.match(help.stdout, /^Usage: commerce <command> \[options\]/)
  assert.ok(statSync(entry).mtimeMs > Date.now() - 60_000, 'the stale bundle was rebuilt before it ran')
  const unknown = await binary('frobnicate', '--json')
  assert.equal(unknown.code, 2)
  assert.deepEqual(jsonError(unknown), { code: 'USAGE', message: 'Unknown command: frobnicate' })
})

/** The packages a bundle file imports when it loads, through the chunks it imports statically (not `import()`). */
function packagesLoadedBy(file: string, seen = new Set<string>()): Set<string> {
  const packages = new Set<string>()
  if (seen.has(file)) return packages
  seen.add(file)
  const code = readFileSync(file, 'utf8')
  for (const [, from] of code.matchAll(/^import\s(?:[^;]*?\sfrom\s)?"([^"]+)";/gms)) {
    if (from!.startsWith('.')) for (const p of packagesLoadedBy(join(dirname(file), from!), seen)) packages.add(p)
    else if (!from!.startsWith('node:')) packages.add(from!)
  }
  // A package bundled into the chunk (decision 0039): esbuild heads each of its modules with its path.
  for (const [, name] of code.matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)) packages.add(name!)
  return packages
}

test('commerce --help loads no database driver, ORM, logger or Fastify: the commands import them when they run', async () => {
  const entry = join(root, 'dist/cli/commerce.js')
  assert.equal((await binary('--help')).code, 0) // built and current
  const heavy = ['@electric-sql/pglite', 'pg', 'drizzle-orm', 'fastify', 'pino', 'ioredis', '@node-rs/argon2']
  const atStart = packagesLoadedBy(entry)
  assert.deepEqual(heavy.filter((p) => atStart.has(p)), [], `loaded by --help: ${[...atStart].join(', ')}`)
  // The same reading finds them where the database opens: the check reads imports right.
  const chunks = join(dirname(entry), 'chunks')
  // The newest: a rebuild keeps older chunks for an hour (a command of that build may be loading them).
  const bootstrap = readdirSync(chunks)
    .filter((f) => /^bootstrap-\w+\.js$/.test(f))
    .sort((a, b) => statSync(join(chunks, b)).mtimeMs - statSync(join(chunks, a)).mtimeMs)[0]
  assert.ok(bootstrap, 'a chunk of its own for opening the database')
  const whenRun = packagesLoadedBy(join(chunks, bootstrap))
  for (const p of ['pino', 'drizzle-orm']) assert.ok(whenRun.has(p), `${p} in ${[...whenRun].join(', ')}`)
})

test('only long commands keep the optimising WebAssembly compiler: bench-data and a catalog import of a file over 1 MB (decision 0040)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-long-'))
  try {
    const small = join(dir, 'small.csv')
    const large = join(dir, 'large.csv')
    writeFileSync(small, 'slug,name\n')
    writeFileSync(large, `slug,name\n${'a,b\n'.repeat(300_000)}`) // 1.2 MB
    assert.equal(runsLong(['partner', 'list']), false)
    assert.equal(runsLong(['seed']), false)
    assert.equal(runsLong(['bench-data', '--products', '10']), true)
    assert.equal(runsLong(['catalog', 'import', small]), false)
    assert.equal(runsLong(['catalog', 'import', large, '--dry-run']), true)
    assert.equal(runsLong(['catalog', 'import', join(dir, 'missing.csv')]), false)
    assert.equal(runsLong(['catalog', 'import', large, '--no-such-option']), false) // a usage error runs nothing
    assert.equal(runsLong(['no-such-command']), false)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
