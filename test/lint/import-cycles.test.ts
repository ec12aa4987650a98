// The import-cycle check (scripts/import-cycles.ts, run by `npm run lint`): type-only imports count,
// a cycle between modules counts, and the service's own tree has none.
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { checkImportCycles, cycles } from '../../scripts/import-cycles.ts'

function tree(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'cycles-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

test("the service's source has no import cycle between files or modules, type-only imports included", () => {
  const report = checkImportCycles(new URL('../../src', import.meta.url).pathname)
  assert.ok(report.files > 200 && report.edges > 800, `the graph was read (${report.files} files, ${report.edges} imports)`)
  assert.deepEqual(report.fileCycles, [])
  assert.deepEqual(report.moduleCycles, [])
})

test('when two files import each other only for types, then it is a cycle', (t) => {
  const root = tree({
    'modules/a/index.ts': "import type { B } from '../b/index.ts'\nexport type A = { b?: B }\n",
    'modules/b/index.ts': "import type { A } from '../a/index.ts'\nexport type B = { a?: A }\n",
  })
  t.after(() => rmSync(root, { recursive: true }))
  const report = checkImportCycles(root)
  assert.deepEqual(report.fileCycles, [['modules/a/index.ts', 'modules/b/index.ts']])
  assert.deepEqual(report.moduleCycles, [['modules/a', 'modules/b']])
})

test('when modules import each other through different files, then the modules form a cycle though no file does', (t) => {
  const root = tree({
    'modules/a/one.ts': "export { two } from '../b/two.ts'\n",
    'modules/a/three.ts': 'export const three = 3\n',
    'modules/b/two.ts': 'export const two = 2\n',
    'modules/b/four.ts': "export { three } from '../a/three.ts'\n",
    'flows/f.ts': "export { two } from '../modules/b/two.ts'\n",
  })
  t.after(() => rmSync(root, { recursive: true }))
  const report = checkImportCycles(root)
  assert.deepEqual(report.fileCycles, [])
  assert.deepEqual(report.moduleCycles, [['modules/a', 'modules/b']])
})

test('when a re-export and a dynamic import close a loop, then it is a cycle; a file importing itself is one too', () => {
  assert.deepEqual(cycles(new Map([['x', ['x']], ['y', []]])), [['x']])
  const root = tree({ 'a.ts': "export * from './b.ts'\n", 'b.ts': "export const load = () => import('./a.ts')\n" })
  try {
    assert.deepEqual(checkImportCycles(root).fileCycles, [['a.ts', 'b.ts']])
  } finally {
    rmSync(root, { recursive: true })
  }
})
