// Each service receives only the settings it reads (issue #40): a module's or a flow's file takes
// `ServiceDeps<'reservationMinutes' | ...>` (src/deps.ts), whose config has those keys and no
// other, so reading another setting is a type error. This scan keeps the whole `Deps` (every
// setting) out of them: `Deps` bare, `Deps['config']`, or a `Pick<Deps, ...>` that keeps config.
// Indexed handles (`Deps['clock']`) and picks without config are fine.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { test } from 'node:test'

const SRC = new URL('../../src', import.meta.url).pathname

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : []
  })
}

const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1')

/** Each use of the whole configuration in `text`, as written. */
export function wholeConfigUses(text: string): string[] {
  const code = withoutComments(text)
    .split('\n')
    .filter((line) => !/^\s*import\b/.test(line))
    .join('\n')
  const found: string[] = []
  for (const match of code.matchAll(/\bDeps\b(\s*\[\s*'config'\s*\])?(?!\s*\[)/g)) {
    const before = code.slice(Math.max(0, match.index - 5), match.index)
    if (before.endsWith('Pick<')) continue
    found.push(match[0])
  }
  for (const match of code.matchAll(/Pick<\s*Deps\s*,([^>]*)>/g)) if (match[1]!.includes("'config'")) found.push(match[0])
  return found
}

test('the scan finds the whole configuration taken, and passes a slice or a handle', () => {
  assert.deepEqual(wholeConfigUses("constructor({ database, config }: Deps) {}"), ['Deps'])
  assert.deepEqual(wholeConfigUses("private readonly config: Deps['config']"), ["Deps['config']"])
  assert.deepEqual(wholeConfigUses("constructor(deps: Pick<Deps, 'database' | 'config'>) {}"), ["Pick<Deps, 'database' | 'config'>"])
  assert.deepEqual(wholeConfigUses("constructor(deps: ServiceDeps<'authSecret'>, clock: Deps['clock'], d: Pick<Deps, 'database'>) {}"), [])
  assert.deepEqual(wholeConfigUses("import type { Deps } from '../../deps.ts'\n// takes Deps whole"), [])
})

test('no module or flow takes every setting: each names the ones it reads (ServiceDeps)', () => {
  const files = [...sourceFiles(join(SRC, 'modules')), ...sourceFiles(join(SRC, 'flows'))]
  const found = files.flatMap((file) => wholeConfigUses(readFileSync(file, 'utf8')).map((use) => `${relative(SRC, file)}: ${use}`))
  assert.deepEqual(found, [])
})
