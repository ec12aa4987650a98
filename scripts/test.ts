// `npm test`: runs every test file (each in its own process, each on its own fresh database) and
// ends with one plain line, "N passed, N failed". On the embedded database it first migrates one
// PGlite and dumps it, so each file loads a ready database in about a second instead of four.
// TEST_DATABASE_URL / TEST_REDIS_URL switch the same suite to PostgreSQL and Redis.
// Every run also captures the logs of every test app and server process (TEST_LOG_DIR, one file per
// process, test/helpers/log-capture.ts) and scans each line for secrets (reliability row SE-11,
// test/helpers/secret-scan.ts): a match, or nothing captured, counts as one more failed test.
// TEST_LOG_DIR set by the caller keeps the captured logs there after the run.
import { createHmac } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { run } from 'node:test'
import { spec } from 'node:test/reporters'
import { finished } from 'node:stream/promises'
import { openDatabase } from '../src/db/client.ts'
import { migrateDatabase } from '../src/db/migrate.ts'
import { TEST_AUTH_SECRET } from '../test/helpers/app.ts'
import { scanLogDirectory } from '../test/helpers/secret-scan.ts'

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'helpers' ? [] : testFiles(path)
    return name.endsWith('.test.ts') ? [path] : []
  })
}

const filter = process.argv.slice(2)
// Folders that measure PostgreSQL itself (concurrent connections, several server processes): the
// embedded database serves one connection, so they run only with TEST_DATABASE_URL. test/faults
// starts throwaway PostgreSQL clusters and Redis servers of its own, in the PostgreSQL run only.
const POSTGRES_ONLY = [join('test', 'load'), join('test', 'faults')]
const files = testFiles('test')
  .filter((f) => process.env.TEST_DATABASE_URL || !POSTGRES_ONLY.some((dir) => f.startsWith(dir + '/')))
  .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
  .sort()

let templateFile: string | null = null
if (!process.env.TEST_DATABASE_URL) {
  const database = await openDatabase({ databaseUrl: null, pgliteDir: null, poolSize: 1 })
  await migrateDatabase(database)
  const dump = await database.pglite!.dumpDataDir('none')
  await database.close()
  templateFile = join(tmpdir(), `commerce-pglite-template-${process.pid}.tar`)
  writeFileSync(templateFile, Buffer.from(await dump.arrayBuffer()))
  process.env.TEST_PGLITE_TEMPLATE = templateFile
}

const keepLogs = Boolean(process.env.TEST_LOG_DIR)
const logDir = process.env.TEST_LOG_DIR || mkdtempSync(join(tmpdir(), 'commerce-test-logs-'))
mkdirSync(logDir, { recursive: true })
process.env.TEST_LOG_DIR = logDir

console.log(
  `Running ${files.length} test files on ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}` +
    `${process.env.TEST_REDIS_URL ? ' + Redis' : ''}`,
)

let passed = 0
let failed = 0
const failures: string[] = []
const stream = run({
  files: files.map((f) => relative(process.cwd(), f)),
  concurrency: Math.max(2, Math.min(4, availableParallelism())),
  // A whole file may take this long (the CLI test starts a dozen processes; a loaded CI box is slow).
  timeout: 240_000,
})
stream.on('test:pass', (event) => {
  if (event.details.type !== 'suite') passed++
})
stream.on('test:fail', (event) => {
  // A suite fails when one of its tests did (already counted) or when its own hook did (an
  // `after` that closes the app and finds a broken invariant): count the second kind.
  const failureType = (event.details.error as { failureType?: string } | undefined)?.failureType
  if (event.details.type === 'suite' && failureType === 'subtestsFailed') return
  failed++
  failures.push(`${event.file ?? ''} > ${event.name}`)
})
const reporter = stream.compose(new spec())
reporter.pipe(process.stdout, { end: false })
await finished(reporter)
if (templateFile) rmSync(templateFile, { force: true })

// SE-11: the run's own secrets (the tests' AUTH_SECRET and the keys derived from it) and every
// format of credential the service issues must appear in no captured line.
const derived = (purpose: string) => createHmac('sha256', TEST_AUTH_SECRET).update(purpose).digest('hex')
const scan = await scanLogDirectory(logDir, [TEST_AUTH_SECRET, derived('sandbox-webhook'), derived('local-uploads')])
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
if (failures.length) console.log(`\nFailed:\n  ${failures.join('\n  ')}`)
console.log(`\n${passed} passed, ${failed} failed`)
process.exitCode = failed > 0 || passed === 0 ? 1 : 0
