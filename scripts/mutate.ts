// DI-21 (reliability plan 7.1, nightly): the mutation score of the money and stock code. Each
// mutant changes one operator or condition of a source file; the test files that guard that file run
// against it; a mutant is killed when they fail (or time out), and survives when they pass. The plan
// asks for 80% or more killed. Survivors are printed with their place, so each can be read: a test
// that is missing, or an equivalent change.
//
// Stryker would be the usual tool, but its current major needs Node 22 and it has no node:test
// runner; this is the part of it we need, on the TypeScript compiler's syntax tree (every mutant is
// valid code): comparison boundaries (< <=, > >=), equality (=== !==), arithmetic (+ -), logic
// (&& ||), negation removed (!x -> x), conditions of if/while/?: and of `return a op b` negated,
// true <-> false. Mutants run in a copy of the project (node_modules linked), never in this tree.
//
//   npm run mutate -- --file src/modules/orders/idempotency.ts --test test/orders/idempotency-plan.test.ts [--file ... --test ...] [--max N] [--timeout S] [--list]
//
// Without --file: the plan's modules (ledger, inventory, refunds, idempotency, and the money arithmetic) with their tests.
// Tests run on the embedded database (`node --import tsx scripts/test.ts <files>`).
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import ts from 'typescript'

const root = resolve(import.meta.dirname, '..')
const { values } = parseArgs({
  options: {
    file: { type: 'string', multiple: true },
    test: { type: 'string', multiple: true },
    max: { type: 'string' },
    timeout: { type: 'string', default: '300' },
    list: { type: 'boolean', default: false },
  },
})

/** The plan's targets: ledger, inventory, refunds (their arithmetic is in lib/money.ts), idempotency, each with the tests that guard it. */
const DEFAULT_TARGETS = {
  files: ['src/modules/ledgers/ledger.ts', 'src/modules/orders/idempotency.ts', 'src/modules/orders/lifecycle.ts', 'src/flows/order-moves/reverse-sale.ts', 'src/lib/money.ts'],
  tests: [
    'test/lib/money.test.ts',
    'test/orders/idempotency-plan.test.ts',
    'test/orders/concurrency.test.ts',
    'test/orders/create.test.ts',
    'test/orders/payments.test.ts',
    'test/checkout/admin.test.ts',
    'test/returns/returns.test.ts',
    'test/returns/split-tender.test.ts',
  ],
}
const files = values.file ?? DEFAULT_TARGETS.files
const tests = values.test ?? DEFAULT_TARGETS.tests

interface Mutant {
  file: string
  start: number
  end: number
  replacement: string
  line: number
  original: string
}

const SWAPS: Partial<Record<ts.SyntaxKind, string>> = {
  [ts.SyntaxKind.LessThanToken]: '<=',
  [ts.SyntaxKind.LessThanEqualsToken]: '<',
  [ts.SyntaxKind.GreaterThanToken]: '>=',
  [ts.SyntaxKind.GreaterThanEqualsToken]: '>',
  [ts.SyntaxKind.EqualsEqualsEqualsToken]: '!==',
  [ts.SyntaxKind.ExclamationEqualsEqualsToken]: '===',
  [ts.SyntaxKind.PlusToken]: '-',
  [ts.SyntaxKind.MinusToken]: '+',
  [ts.SyntaxKind.AmpersandAmpersandToken]: '||',
  [ts.SyntaxKind.BarBarToken]: '&&',
}

function mutantsOf(file: string): Mutant[] {
  const text = readFileSync(join(root, file), 'utf8')
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const out: Mutant[] = []
  const add = (node: ts.Node, start: number, end: number, replacement: string) =>
    out.push({ file, start, end, replacement, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, original: text.slice(start, end) })
  const negate = (expr: ts.Expression) => add(expr, expr.getStart(), expr.getEnd(), `!(${expr.getText()})`)
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return
    if (ts.isBinaryExpression(node)) {
      const swap = SWAPS[node.operatorToken.kind]
      // A string concatenation's + is not arithmetic.
      const concatenation = node.operatorToken.kind === ts.SyntaxKind.PlusToken && [node.left, node.right].some((side) => ts.isStringLiteralLike(side) || ts.isTemplateExpression(side))
      if (swap && !concatenation) add(node, node.operatorToken.getStart(), node.operatorToken.getEnd(), swap)
    }
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken) add(node, node.getStart(), node.operand.getStart(), '')
    if (node.kind === ts.SyntaxKind.TrueKeyword) add(node, node.getStart(), node.getEnd(), 'false')
    if (node.kind === ts.SyntaxKind.FalseKeyword) add(node, node.getStart(), node.getEnd(), 'true')
    if (ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isConditionalExpression(node)) negate(ts.isConditionalExpression(node) ? node.condition : node.expression)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return out
}

/** A copy of the project to mutate in: sources copied, node_modules linked. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'commerce-mutate-'))
  for (const entry of ['src', 'test', 'scripts', 'drizzle', 'bin', 'package.json', 'tsconfig.json']) cpSync(join(root, entry), join(dir, entry), { recursive: true })
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  return dir
}

function runTests(dir: string): { passed: boolean; timedOut: boolean; seconds: number } {
  const started = Date.now()
  const env = { ...process.env, TEST_DATABASE_URL: '', TEST_REDIS_URL: '' }
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/test.ts', ...tests], { cwd: dir, env, stdio: 'ignore', timeout: Number(values.timeout) * 1000 })
  return { passed: res.status === 0, timedOut: res.error !== undefined || res.signal !== null, seconds: Math.round((Date.now() - started) / 1000) }
}

if (values.list) {
  for (const m of files.flatMap(mutantsOf)) console.log(`${m.file}:${m.line} ${JSON.stringify(m.original)} -> ${JSON.stringify(m.replacement)}`)
  process.exit(0)
}

const dir = workspace()
const cleanup = () => rmSync(dir, { recursive: true, force: true })
process.on('SIGINT', () => {
  cleanup()
  process.exit(130)
})
try {
  const baseline = runTests(dir)
  if (!baseline.passed) throw new Error(`the tests fail without any mutant (${tests.join(', ')}): nothing to measure`)
  console.log(`mutate: tests pass unmutated in ${baseline.seconds} s (${tests.join(', ')})`)
  let mutants = files.flatMap(mutantsOf)
  if (values.max) mutants = mutants.slice(0, Number(values.max))
  console.log(`mutate: ${mutants.length} mutants in ${files.join(', ')}`)
  const survivors: Mutant[] = []
  let killed = 0
  for (const [n, m] of mutants.entries()) {
    const path = join(dir, m.file)
    const original = readFileSync(path, 'utf8')
    writeFileSync(path, original.slice(0, m.start) + m.replacement + original.slice(m.end))
    try {
      const result = runTests(dir)
      if (result.passed) survivors.push(m)
      else killed++
      console.log(`mutate: ${n + 1}/${mutants.length} ${m.file}:${m.line} ${JSON.stringify(m.original)} -> ${JSON.stringify(m.replacement)}: ${result.passed ? 'SURVIVED' : result.timedOut ? 'killed (timeout)' : 'killed'} (${result.seconds} s)`)
    } finally {
      writeFileSync(path, original)
    }
  }
  const score = mutants.length ? (100 * killed) / mutants.length : 100
  for (const m of survivors) console.log(`mutate: survived ${m.file}:${m.line} ${JSON.stringify(m.original)} -> ${JSON.stringify(m.replacement)}`)
  console.log(`mutate: ${killed} of ${mutants.length} killed, score ${score.toFixed(1)}% (plan: >= 80%) -> ${score >= 80 ? 'PASS' : 'FAIL'}`)
  process.exitCode = score >= 80 ? 0 : 1
} finally {
  cleanup()
}
