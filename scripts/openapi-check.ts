// `node --import tsx scripts/openapi-check.ts` (in `npm run lint`, so in CI): the published contract,
// openapi/v1.json, breaks no client of any earlier version of it in the repository's history
// (decision 0042). Every version committed before is compared with the one in the working tree by
// breakingChanges (scripts/openapi-compat.ts): errors fail, warnings are printed. That the file is
// what the routes generate is test/http/openapi-compat.test.ts's check (`npm run sdk:generate`
// rewrites it), so comparing the files compares the documents the server answered.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { breakingChanges, CONTRACT_FILE, CONTRACT_PATH, type Finding } from './openapi-compat.ts'

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] })

const current = JSON.parse(readFileSync(CONTRACT_FILE, 'utf8')) as Record<string, unknown>
let commits: string[]
try {
  if (git('rev-parse', '--is-shallow-repository').trim() === 'true') throw new Error('a shallow clone has no history to compare with')
  commits = git('log', '--format=%H', '--', CONTRACT_PATH).split('\n').filter(Boolean)
} catch (err) {
  // Not a git checkout (an npm tarball, an exported tree): there is nothing earlier to compare with.
  console.log(`openapi: no history to compare with (${(err as Error).message.split('\n')[0]})`)
  process.exit(0)
}

const errors: Finding[] = []
const warnings = new Map<string, Finding>()
const seen = new Set<string>()
for (const commit of commits) {
  const text = git('show', `${commit}:${CONTRACT_PATH}`)
  if (seen.has(text)) continue
  seen.add(text)
  for (const f of breakingChanges(JSON.parse(text) as Record<string, unknown>, current)) {
    if (f.level === 'error') errors.push({ ...f, where: `${f.where} (against ${commit.slice(0, 7)})` })
    else warnings.set(`${f.where} ${f.message}`, f)
  }
}
for (const w of warnings.values()) console.log(`openapi: warning: ${w.where}: ${w.message}`)
if (errors.length > 0) {
  for (const e of errors) console.error(`openapi: breaking: ${e.where}: ${e.message}`)
  console.error(`openapi: ${errors.length} breaking change(s) against earlier published versions of ${CONTRACT_PATH} (decision 0042)`)
  process.exit(1)
}
console.log(`openapi: ${CONTRACT_PATH} breaks no client of its ${seen.size} earlier version(s) (${warnings.size} warning(s))`)
