// Tables live with their owner (issue #40): no file names another module's table in SQL. Drizzle's
// table objects cannot leave their module (the boundary rule refuses imports of another module's
// schema.sql.ts outside schema files, and this file checks no index.ts hands one out); raw SQL is
// text, so every source file is scanned for a table name after FROM, JOIN, INTO, UPDATE or TABLE.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { test } from 'node:test'
import { getTableName, is } from 'drizzle-orm'
import { PgTable } from 'drizzle-orm/pg-core'

const SRC = new URL('../../src', import.meta.url).pathname
const MODULES = readdirSync(join(SRC, 'modules'))

/** SQL table name -> the module whose schema.sql.ts defines it. */
async function tableOwners(): Promise<Map<string, string>> {
  const owners = new Map<string, string>()
  for (const module of MODULES) {
    const path = join(SRC, 'modules', module, 'schema.sql.ts')
    if (!statSync(path, { throwIfNoEntry: false })) continue
    for (const value of Object.values(await import(`../../src/modules/${module}/schema.sql.ts`))) {
      if (is(value, PgTable)) owners.set(getTableName(value), module)
    }
  }
  return owners
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : []
  })
}

/** `module` for a file of src/modules/<module>/, otherwise null (the platform, flows, the app: they own no table). */
const moduleOf = (file: string) => {
  const parts = relative(SRC, file).split(sep)
  return parts[0] === 'modules' ? parts[1]! : null
}

const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1')

/** Each `file: FROM table (owner)` where a file names in SQL a table that its module does not own. */
export function foreignTableReferences(files: string[], owners: Map<string, string>, read = (f: string) => readFileSync(f, 'utf8')): string[] {
  const names = [...owners.keys()].sort((a, b) => b.length - a.length).join('|')
  const sqlName = new RegExp(`\\b(from|join|into|update|table)\\s+"?(${names})"?(?![\\w-])`, 'gi')
  const found: string[] = []
  for (const file of files) {
    if (relative(SRC, file) === 'schema.ts') continue
    const mine = moduleOf(file)
    for (const match of withoutComments(read(file)).matchAll(sqlName)) {
      const owner = owners.get(match[2]!.toLowerCase())
      if (owner !== mine) found.push(`${relative(SRC, file)}: ${match[0]} (${owner}'s)`)
    }
  }
  return found
}

test("no file names in SQL a table another module owns; the platform, flows and the app name none", async () => {
  const owners = await tableOwners()
  assert.ok(owners.size > 40 && owners.get('orders') === 'orders' && owners.get('partners') === 'partners', 'the tables and their owners were read')
  assert.deepEqual(foreignTableReferences(sourceFiles(SRC), owners), [])
})

test('when a module, the platform or a flow names a table it does not own in SQL, then the scan reports it', async () => {
  const owners = await tableOwners()
  const files: Record<string, string> = {
    [join(SRC, 'modules/events/fixture.ts')]: 'sql`select e.id from outbox_events e join partners p on p.id = e.partner_id`',
    [join(SRC, 'db/fixture.ts')]: 'sql`select not exists (select 1 from "admin_users")`',
    [join(SRC, 'flows/fixture.ts')]: "sql`update orders set status = 'X'`",
    [join(SRC, 'modules/orders/fixture.ts')]: "sql`update orders set status = 'X'` // a comment naming from return_items is no SQL",
  }
  assert.deepEqual(
    foreignTableReferences(Object.keys(files), owners, (f) => files[f]!),
    ["modules/events/fixture.ts: join partners (partners's)", 'db/fixture.ts: from "admin_users" (admins\'s)', "flows/fixture.ts: update orders (orders's)"],
  )
})

test("no module's index.ts hands out a table object", async () => {
  for (const module of MODULES) {
    // A literal pattern, which the test runner's bundler follows (scripts/test.ts).
    const tables = Object.entries(await import(`../../src/modules/${module}/index.ts`)).filter(([, value]) => is(value, PgTable)).map(([name]) => name)
    assert.deepEqual(tables, [], `modules/${module}/index.ts`)
  }
})
