// `npm test`: runs the fast test files (each in its own process, each on its own fresh database) and
// ends with one plain line, "N passed, N failed". `npm run test:slow` (--slow) runs the slow rows
// instead: load, faults and fuzz (SLOW below). Files named on the command line (`npm test -- health`)
// run whichever of the two they belong to.
// Every file's database is a copy of one migrated template made here once per run: on the embedded
// database a dump of a migrated PGlite (each file loads it in about a second instead of migrating
// for four), on PostgreSQL (TEST_DATABASE_URL) a migrated database that each file's database is
// created from (`CREATE DATABASE ... TEMPLATE`). TEST_REDIS_URL adds Redis.
// Every run also captures the logs of every test app and server process (TEST_LOG_DIR, one file per
// process, test/helpers/log-capture.ts) and scans each line for secrets (reliability row SE-11,
// test/helpers/secret-scan.ts): a match, or nothing captured, counts as one more failed test.
// TEST_LOG_DIR set by the caller keeps the captured logs there after the run.
import { createHmac } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { packagesExternalExceptBundled } from './esbuild-packages.mjs'
import { run } from 'node:test'
import { spec } from 'node:test/reporters'
import { finished } from 'node:stream/promises'
import { openDatabase } from '../src/db/client.ts'
import { migrateDatabase } from '../src/db/migrate.ts'
import { createTestApp, migratedPostgresTemplate, TEST_AUTH_SECRET } from '../test/helpers/app.ts'
import { scanLogDirectory } from '../test/helpers/secret-scan.ts'

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'helpers' ? [] : testFiles(path)
    return name.endsWith('.test.ts') ? [path] : []
  })
}

const args = process.argv.slice(2)
const slowRun = args.includes('--slow')
// --all: both suites in one run (CI): the fault rows mostly wait on outages they hold, so they
// overlap with files that compute, where a slow suite alone leaves the cores idle.
const allRun = args.includes('--all')
const filter = args.filter((a) => a !== '--slow' && a !== '--all')
// Folders that measure PostgreSQL itself (concurrent connections, several server processes): the
// embedded database serves one connection, so they run only with TEST_DATABASE_URL. test/faults
// starts throwaway PostgreSQL clusters and Redis servers of its own, in the PostgreSQL run only.
const POSTGRES_ONLY = [join('test', 'load') + '/', join('test', 'faults') + '/']
// The slow rows, in `npm run test:slow` only: load and fault rows (minutes of traffic, outages held
// for seconds), the six shards of the CI fuzz (1,000 runs a route), and the two randomized property
// rows sized like it: DI-20 interleavings (250-400 scheduled races) and the DI-19/22 ledger model
// (20 sequences of up to 50 HTTP commands, each property).
const SLOW = [
  ...POSTGRES_ONLY,
  join('test', 'security', 'fuzz-'),
  join('test', 'orders', 'interleavings.test.ts'),
  join('test', 'orders', 'ledger-model.test.ts'),
  // WH-02/05/06: every byte of a signed body changed in turn, every delivery order of four events
  // on both providers (76 s of a CI run's fast suite; signatures keep their cases in payments.test.ts).
  join('test', 'orders', 'webhook-deliveries.test.ts'),
]
const isSlow = (f: string) => SLOW.some((prefix) => f.startsWith(prefix))
// The console in Chromium runs on the embedded database only, unless named: it drives the console,
// a client of the HTTP API, whose behaviour on PostgreSQL the rest of the suite checks; run twice it
// was 90 s of a CI run that must stay well under 30 minutes (decision 0019, amended 2026-11-27).
const EMBEDDED_ONLY = [join('test', 'console', 'browser.test.ts')]
const chosen = testFiles('test')
  .filter((f) => process.env.TEST_DATABASE_URL || !POSTGRES_ONLY.some((dir) => f.startsWith(dir)))
  .filter((f) => !process.env.TEST_DATABASE_URL || !EMBEDDED_ONLY.includes(f) || filter.some((part) => f.includes(part)))
  .filter((f) => (filter.length === 0 ? allRun || isSlow(f) === slowRun : filter.some((part) => f.includes(part))))
  .sort()
// Files start in this order, two (TEST_CONCURRENCY) at a time. In a run of both suites the longest
// files start first (the fault rows, then the property, delivery and fuzz rows), so that none of
// them starts last and runs alone on an idle core at the end (longest first: the classic bound on
// the finishing time of a list schedule).
const LONGEST_FIRST = [POSTGRES_ONLY[1]!, ...SLOW.slice(POSTGRES_ONLY.length).reverse(), POSTGRES_ONLY[0]!]
const rank = (f: string) => {
  const i = LONGEST_FIRST.findIndex((prefix) => f.startsWith(prefix))
  return i === -1 ? LONGEST_FIRST.length : i
}
const files = allRun ? [...chosen].sort((x, y) => rank(x) - rank(y) || x.localeCompare(y)) : chosen

let templateFile: string | null = null
let postgresTemplate: { name: string; drop(): Promise<void> } | null = null
const runStart = Date.now()
const templateStart = runStart
if (!process.env.TEST_DATABASE_URL) {
  const database = await openDatabase({ databaseUrl: null, pgliteDir: null, poolSize: 1 })
  await migrateDatabase(database)
  const dump = await database.pglite!.dumpDataDir('none')
  await database.close()
  templateFile = join(tmpdir(), `commerce-pglite-template-${process.pid}.tar`)
  writeFileSync(templateFile, Buffer.from(await dump.arrayBuffer()))
  process.env.TEST_PGLITE_TEMPLATE = templateFile
} else {
  postgresTemplate = await migratedPostgresTemplate(process.env.TEST_DATABASE_URL)
  process.env.TEST_POSTGRES_TEMPLATE = postgresTemplate.name
}
// The OpenAPI document of the default configuration, which every test app checks its answers
// against when its file ends (test/helpers/answer-conformance.ts), built here once.
const openapiFile = join(tmpdir(), `commerce-openapi-${process.pid}.json`)
{
  const documented = await createTestApp()
  try {
    writeFileSync(openapiFile, JSON.stringify((documented.app as unknown as { swagger(): unknown }).swagger()))
  } finally {
    await documented.close()
  }
  process.env.TEST_OPENAPI_FILE = openapiFile
}
const templateMs = Date.now() - templateStart

const keepLogs = Boolean(process.env.TEST_LOG_DIR)
const logDir = process.env.TEST_LOG_DIR || mkdtempSync(join(tmpdir(), 'commerce-test-logs-'))
mkdirSync(logDir, { recursive: true })
process.env.TEST_LOG_DIR = logDir

console.log(
  `Running ${files.length} ${allRun ? 'fast and slow' : slowRun ? 'slow' : filter.length ? 'matching' : 'fast'} test files on ` +
    `${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}${process.env.TEST_REDIS_URL ? ' + Redis' : ''}` +
    ` (migrated template ready in ${(templateMs / 1000).toFixed(1)} s)`,
)
if (slowRun && !process.env.TEST_DATABASE_URL) {
  console.log('test/load and test/faults need PostgreSQL: set TEST_DATABASE_URL (README, "Tests") to run them too.')
}

/**
 * Every chosen file bundled into plain JavaScript (decision 0037): a test process then starts in
 * about 1 s instead of 2.4 s under tsx, whose loader resolves and transforms each of the ~600
 * modules a file imports (some 260 processes a CI run). Bundles go to dist/tests-<pid>/ (inside
 * the project, so that packages resolve from node_modules) and are removed after the run. Each
 * source file keeps its own `import.meta.url`, `dirname` and `filename`, so paths built from them
 * (fixtures, the project root, the search index's worker) are what they are from source. A file
 * that imports modules by a computed path names them with a template literal (a lint test), a
 * pattern the bundler follows; a process a test starts from TypeScript runs `--import tsx` itself.
 */
async function bundleTestFiles(entryPoints: string[]): Promise<string> {
  const outdir = join(process.cwd(), 'dist', `tests-${process.pid}`)
  const ownImportMeta: Plugin = {
    name: 'own-import-meta',
    setup(bundler) {
      bundler.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined
        const source = await readFile(args.path, 'utf8')
        const contents = source
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path))
        return { contents, loader: 'ts' }
      })
    },
  }
  await build({
    entryPoints,
    outdir,
    outbase: process.cwd(),
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [packagesExternalExceptBundled, ownImportMeta],
  })
  return outdir
}
const bundleStart = Date.now()
const bundleDir = await bundleTestFiles(files)
const bundleOf = (file: string) => join(bundleDir, file.replace(/\.ts$/, '.js'))
/** The test file a bundle was built from, for reports. */
const sourceOf = (file: string) => (file.startsWith(bundleDir) ? relative(bundleDir, file).replace(/\.js$/, '.ts') : relative(process.cwd(), file))
console.log(`Bundled in ${((Date.now() - bundleStart) / 1000).toFixed(1)} s`)
// The bundles need no TypeScript loader: test processes start without this runner's `--import tsx`
// (node:test passes the runner's execArgv on to them); stack traces map back to the sources.
for (let i = process.execArgv.length - 1; i >= 0; i--) {
  if (process.execArgv[i] === 'tsx' && process.execArgv[i - 1] === '--import') process.execArgv.splice(i - 1, 2)
  else if (process.execArgv[i] === '--import=tsx') process.execArgv.splice(i, 1)
}
process.execArgv.push('--enable-source-maps')

let passed = 0
let failed = 0
const failures: string[] = []
// A skipped test (Chromium not installed) is reported, not counted as passed.
const skipped: string[] = []
const fileMs = new Map<string, number>()
const stream = run({
  files: files.map(bundleOf),
  // TEST_CONCURRENCY: files at a time (.ci/run runs two suites side by side, one file each).
  concurrency: Number(process.env.TEST_CONCURRENCY) || Math.max(2, Math.min(4, availableParallelism())),
  // A whole file may take this long: a guard against a hung file, not a speed check. The CLI test
  // starts a dozen processes, and a fuzz shard (24+ routes × 1,000 requests) took over 240 s on a
  // box loaded by other test runs (2026-11-26).
  timeout: 480_000,
})
stream.on('test:pass', (event) => {
  const file = event.file ? sourceOf(event.file) : ''
  // A file's top-level tests and suites run one after another: their sum is the file's time, less
  // its imports (the `before` hooks that build the app count in the first test).
  if (event.nesting === 0) fileMs.set(file, (fileMs.get(file) ?? 0) + event.details.duration_ms)
  // A skipped suite (Chromium not installed) is reported once, as a suite with the reason.
  if (event.skip !== undefined && event.skip !== false) {
    skipped.push(`${file} > ${event.name}${typeof event.skip === 'string' ? ` (${event.skip})` : ''}`)
    return
  }
  if (event.details.type !== 'suite') passed++
})
stream.on('test:fail', (event) => {
  const file = event.file ? sourceOf(event.file) : ''
  if (event.nesting === 0) fileMs.set(file, (fileMs.get(file) ?? 0) + event.details.duration_ms)
  // A suite fails when one of its tests did (already counted) or when its own hook did (an
  // `after` that closes the app and finds a broken invariant): count the second kind.
  const failureType = (event.details.error as { failureType?: string } | undefined)?.failureType
  if (event.details.type === 'suite' && failureType === 'subtestsFailed') return
  failed++
  failures.push(`${file} > ${event.name}`)
})
const reporter = stream.compose(new spec())
reporter.pipe(process.stdout, { end: false })
await finished(reporter)
rmSync(bundleDir, { recursive: true, force: true })
rmSync(openapiFile, { force: true })
if (templateFile) rmSync(templateFile, { force: true })
await postgresTemplate?.drop()

// SE-11: the run's own secrets (the tests' AUTH_SECRET and the keys derived from it) and every
// format of credential the service issues must appear in no captured line.
const derived = (purpose: string) => createHmac('sha256', TEST_AUTH_SECRET).update(purpose).digest('hex')
const scan = await scanLogDirectory(logDir, [TEST_AUTH_SECRET, derived('sandbox-webhook'), derived('local-uploads'), derived('sandbox-carrier')])
const mb = (scan.bytes / 1024 / 1024).toFixed(1)
console.log(`\nLog scan (SE-11): ${scan.lines} lines (${mb} MB) in ${scan.files} files, ${scan.findings.length} secrets found`)
for (const f of scan.findings.slice(0, 50)) console.log(`  ${f.file}:${f.line} ${f.pattern}\n    ${f.text}`)
if (scan.findings.length > 50) console.log(`  ... and ${scan.findings.length - 50} more`)
// A filtered run of files that build no app captures nothing, legitimately; a whole run must.
const capturedNothing = scan.lines === 0 && (filter.length === 0 || scan.files > 0)
if (scan.findings.length > 0 || capturedNothing) {
  failed++
  failures.push(capturedNothing ? 'log scan (SE-11) > no log line was captured' : `log scan (SE-11) > ${scan.findings.length} secrets in the logs`)
}
if (keepLogs) console.log(`Captured logs kept in ${logDir}`)
else rmSync(logDir, { recursive: true, force: true })
const byTime = [...fileMs].sort((a, b) => b[1] - a[1])
// TEST_TIMES_FILE: every file's time, as JSON, for finding what to speed up.
if (process.env.TEST_TIMES_FILE) writeFileSync(process.env.TEST_TIMES_FILE, JSON.stringify(Object.fromEntries(byTime), null, 1))
const slowest = byTime.slice(0, 10)
if (slowest.length) console.log(`\nSlowest files (time in their tests):\n  ${slowest.map(([f, ms]) => `${(ms / 1000).toFixed(1).padStart(6)} s  ${f}`).join('\n  ')}`)
if (skipped.length) console.log(`\nSkipped (${skipped.length}):\n  ${skipped.join('\n  ')}`)
if (failures.length) console.log(`\nFailed:\n  ${failures.join('\n  ')}`)
// The run's own time: what it took on this machine today (the README quotes no figure to go stale).
const runSeconds = Math.round((Date.now() - runStart) / 1000)
console.log(`\n${files.length} files in ${Math.floor(runSeconds / 60)} min ${runSeconds % 60} s on ${availableParallelism()} cores`)
console.log(`\n${passed} passed, ${failed} failed`)
process.exitCode = failed > 0 || (passed === 0 && skipped.length === 0) ? 1 : 0
