// `commerce catalog import` on a merchant's file with problems: --dry-run reports them by kind and
// writes nothing; --skip-invalid imports the valid rows and writes the others to --rejects, a CSV
// with the file's own header and an error column (JSON for a JSON file). Commands run in this
// process (`main`) on one test database, as in cli.test.ts.
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { and, count, eq } from 'drizzle-orm'
import { main } from '../../src/cli/index.ts'
import { createCatalog, importCatalog } from '../../src/modules/catalog/index.ts'
import { categories, products } from '../../src/modules/catalog/schema.sql.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

const dir = mkdtempSync(join(tmpdir(), 'commerce-cli-import-'))
let shop: TestApp
let catalogId: string

before(async () => {
  shop = await createTestApp()
  catalogId = (await createCatalog(shop.deps.database.db, 'CLI import')).id
  await importCatalog(shop.deps.database.db, catalogId, { categories: [{ slug: 'staples', name: 'Staples' }] })
})
after(async () => {
  await shop.close()
  rmSync(dir, { recursive: true, force: true })
})

interface Run {
  code: number
  stdout: string
  stderr: string
}

/** `commerce ...args` in this process, on the test database. */
async function cli(...args: string[]): Promise<Run> {
  let stdout = ''
  let stderr = ''
  const env = { DATA_DIR: dir, AUTH_SECRET: 'c'.repeat(40), PATH: process.env.PATH ?? '' }
  const code = await main(args, { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text), isTTY: false }, env, runtime: shop.deps })
  return { code, stdout, stderr }
}
const importing = (file: string, ...options: string[]) => cli('catalog', 'import', file, '--catalog', catalogId, ...options)
const file = (name: string, content: string) => {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}
const productCount = async () => (await shop.deps.database.db.select({ n: count() }).from(products).where(eq(products.catalogId, catalogId)))[0]!.n
const productSlugs = async (like: string) =>
  (await shop.deps.database.db.select({ slug: products.slug }).from(products).where(eq(products.catalogId, catalogId)))
    .map((p) => p.slug)
    .filter((s) => s.startsWith(like))
    .sort()

const HEADER = 'slug,name,brand,sku,categorySlug,sellingPrice,mrp'
const row = (i: number, fields: Partial<Record<'name' | 'brand' | 'sku' | 'price', string>> = {}) =>
  `dry-${i},${fields.name ?? `Dry ${i}`},${fields.brand ?? 'Brand'},${fields.sku ?? `DRY-${i}`},staples,${fields.price ?? '10'},12`

test('--dry-run prints every problem counted by kind and the first 1,000; it writes nothing and exits 1, or 0 for a clean file', async () => {
  const lines = [
    HEADER,
    ...Array.from({ length: 150 }, (_, i) => row(i, { sku: '' })),
    ...Array.from({ length: 3 }, (_, i) => row(150 + i, { brand: 'B'.repeat(101) })),
    ...Array.from({ length: 900 }, (_, i) => row(200 + i, { name: 'N'.repeat(201) })),
    row(1200, { price: 'ten' }),
    row(1201),
  ]
  const path = file('dry.csv', `${lines.join('\n')}\n`)
  const before = await productCount()

  const text = await importing(path, '--dry-run')
  assert.equal(text.code, 1, text.stderr)
  const out = text.stdout.split('\n')
  assert.deepEqual(out.slice(0, 7), [
    'Dry run, nothing was written. Checked 0 categories and 1055 products.',
    '1054 problems in 0 categories and 1054 products, by kind:',
    '  bad price: 1',
    '  brand too long: 3',
    '  missing sku: 150',
    '  name too long: 900',
    'The first 1000 of them:',
  ])
  assert.equal(out[7], '  line 2: sku is required')
  assert.equal(out[7 + 153], '  line 155: name must be at most 200 characters, got 201')
  assert.equal(out.filter((l) => l.startsWith('  line ')).length, 1000)
  assert.match(text.stderr, /^Checked 0 categories and 1055 products in \d+\.\d s: 1054 problems\.\n$/)

  const json = await importing(path, '--dry-run', '--json')
  assert.equal(json.code, 1)
  const report = JSON.parse(json.stdout)
  assert.deepEqual(report.problems.byKind, { 'bad price': 1, 'brand too long': 3, 'missing sku': 150, 'name too long': 900 })
  assert.equal(report.problems.total, 1054)
  assert.equal(report.problems.first.length, 1000)
  assert.deepEqual({ dryRun: report.dryRun, checked: report.checked, invalid: report.invalid }, { dryRun: true, checked: { categories: 0, products: 1055 }, invalid: { categories: 0, products: 1054 } })
  assert.equal(await productCount(), before, 'a dry run wrote nothing')

  const clean = await importing(file('clean.csv', `${HEADER}\n${row(1)}\n${row(2, { brand: '' })}\n`), '--dry-run')
  assert.equal(clean.code, 0, clean.stderr)
  assert.equal(clean.stdout, 'Dry run, nothing was written. Checked 0 categories and 2 products.\nNo problems.\n')
  assert.equal(await productCount(), before, 'a clean file is not imported by a dry run either')
})

test('--skip-invalid imports the valid rows; --rejects gets the header and exactly the invalid rows, as they were, with their problems', async () => {
  const header = 'sku,slug,name,categorySlug,sellingPrice,mrp,description'
  const path = file(
    'skip.csv',
    [
      header,
      'SKIP-1,skip-atta,Atta 5 kg,staples,289,320,"Whole wheat,\nstone ground"',
      ',skip-no-sku,"Besan, 1 kg",staples,95,110,',
      'SKIP-3,skip-rava,Rava,staples,55,60,',
      `SKIP-4,skip-long,${'N'.repeat(205)},nowhere,70,60,`,
      '',
    ].join('\n'),
  )
  const rejects = join(dir, 'skip-rejects.csv')
  const run = await importing(path, '--skip-invalid', '--rejects', rejects)
  assert.equal(run.code, 0, run.stderr)
  assert.deepEqual(run.stdout.split('\n'), [
    'Imported: categories 0 created, 0 updated; products 2 created, 0 updated.',
    `Rejected: 0 categories and 2 products, written to ${rejects} with their problems.`,
    '4 problems in 0 categories and 2 products, by kind:',
    '  missing sku: 1',
    '  name too long: 1',
    '  price above mrp: 1',
    '  unknown category: 1',
    'Each of them:',
    '  line 4: sku is required',
    '  line 6: name must be at most 200 characters, got 205',
    '  line 6: categorySlug "nowhere" does not exist',
    '  line 6: sellingPrice must not be greater than mrp',
    '',
  ])
  assert.match(run.stderr, /^Imported 0 categories and 2 products in \d+\.\d s; rejected 2 rows\.\n$/)
  assert.deepEqual(await productSlugs('skip-'), ['skip-atta', 'skip-rava'])
  assert.equal(
    readFileSync(rejects, 'utf8'),
    `${header},error\n` +
      ',skip-no-sku,"Besan, 1 kg",staples,95,110,,sku is required\n' +
      `SKIP-4,skip-long,${'N'.repeat(205)},nowhere,70,60,,"name must be at most 200 characters, got 205; categorySlug ""nowhere"" does not exist; sellingPrice must not be greater than mrp"\n`,
  )

  // Fixed in place, the rejects file imports as it is (its error column is ignored).
  writeFileSync(rejects, readFileSync(rejects, 'utf8').replace(',skip-no-sku,', 'SKIP-2,skip-no-sku,').replace(`${'N'.repeat(205)},nowhere,70`, 'Sooji,staples,50'))
  const again = await importing(rejects, '--json')
  assert.equal(again.code, 0, again.stderr)
  assert.deepEqual(JSON.parse(again.stdout), { categories: { created: 0, updated: 0 }, products: { created: 2, updated: 0 } })
  assert.deepEqual(await productSlugs('skip-'), ['skip-atta', 'skip-long', 'skip-no-sku', 'skip-rava'])
})

test('--skip-invalid on JSON: a product of an invalid category row is rejected too; the rejects file holds the rows and their errors', async () => {
  const input = {
    categories: [
      { slug: 'json-oils', name: 'Oils' },
      { slug: 'json-spices', name: '' },
    ],
    products: [
      { slug: 'json-mustard-oil', name: 'Mustard oil', sku: 'JSON-1', categorySlug: 'json-oils', sellingPrice: '180', mrp: '200' },
      { slug: 'json-haldi', name: 'Haldi', brand: 'Everest', sku: 'JSON-2', categorySlug: 'json-spices', sellingPrice: '40', mrp: '45' },
    ],
  }
  const rejects = join(dir, 'json-rejects.json')
  const run = await importing(file('skip.json', JSON.stringify(input)), '--skip-invalid', '--rejects', rejects, '--json')
  assert.equal(run.code, 0, run.stderr)
  const result = JSON.parse(run.stdout)
  assert.deepEqual(result.categories, { created: 1, updated: 0 })
  assert.deepEqual(result.products, { created: 1, updated: 0 })
  assert.deepEqual(result.rejected, { categories: 1, products: 1 })
  assert.equal(result.rejectsFile, rejects)
  assert.deepEqual(result.problems.byKind, { 'invalid category': 1, 'missing name': 1 })
  assert.deepEqual(JSON.parse(readFileSync(rejects, 'utf8')), {
    categories: [input.categories[1]],
    products: [input.products[1]],
    errors: [
      { row: 'categories[0]', was: 'categories[1]', problems: ['name is required'] },
      { row: 'products[0]', was: 'products[1]', problems: ['categorySlug "json-spices" is a category row with problems'] },
    ],
  })
  const db = shop.deps.database.db
  assert.equal((await db.select({ n: count() }).from(categories).where(and(eq(categories.catalogId, catalogId), eq(categories.slug, 'json-spices'))))[0]!.n, 0)
  assert.deepEqual(await productSlugs('json-'), ['json-mustard-oil'])
})

test('a rejects file that cannot be written stops the import before anything is written', async () => {
  const before = await productCount()
  const run = await importing(file('unwritable.csv', `${HEADER}\n${row(2001)}\n${row(2002, { sku: '' })}\n`), '--skip-invalid', '--rejects', join(dir, 'no-such-dir', 'rejects.csv'))
  assert.equal(run.code, 1)
  assert.match(run.stderr, /^Cannot write .*no-such-dir\/rejects\.csv: .*; nothing was imported\n$/)
  assert.equal(await productCount(), before)
})

test('without --skip-invalid a file with a problem imports nothing and says how many problems of each kind', async () => {
  const before = await productCount()
  const run = await importing(file('refused.csv', `${HEADER}\n${row(3001)}\n${row(3002, { sku: '' })}\n`), '--json')
  assert.equal(run.code, 1)
  assert.deepEqual(JSON.parse(run.stderr).error, {
    code: 'BAD_REQUEST',
    message: 'The import has invalid rows; nothing was imported (1 problem in 1 row: missing sku: 1)',
    details: ['line 3: sku is required'],
  })
  assert.equal(await productCount(), before)
})

test('--skip-invalid needs --rejects, --rejects needs --skip-invalid, --dry-run takes neither (exit 2); the help lists the CSV columns', async () => {
  const path = file('usage.csv', `${HEADER}\n${row(4001)}\n`)
  const cases: [string[], string][] = [
    [['--skip-invalid'], 'Missing --rejects (the file --skip-invalid writes the rows it leaves out to)'],
    [['--rejects', join(dir, 'r.csv')], '--rejects goes with --skip-invalid'],
    [['--dry-run', '--skip-invalid', '--rejects', join(dir, 'r.csv')], '--dry-run writes nothing: leave out --skip-invalid and --rejects'],
    [['--skip-invalid', '--rejects', path], '--rejects must not be FILE itself'],
  ]
  for (const [options, message] of cases) {
    const run = await importing(path, ...options)
    assert.equal(run.code, 2, options.join(' '))
    assert.ok(run.stderr.startsWith(`${message}\n\nUsage: commerce catalog import FILE`), run.stderr)
  }
  const help = (await cli('catalog', 'import', '--help')).stdout
  for (const option of ['--dry-run', '--skip-invalid', '--rejects <value>']) assert.match(help, new RegExp(`^ {2}${option} {2,}\\S`, 'm'), option)
  assert.match(help, /^CSV columns .*\n {2}slug\*, name\*, brand \(empty: none\), sku\*, categorySlug\*, sellingPrice\* and mrp\*/m)
})
