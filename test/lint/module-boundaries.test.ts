// The module-boundary lint rule (decision 0016) runs through ESLint's Node API on small sources
// placed at real paths, so a broken rule or config cannot silently let reach-ins back in.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ESLint } from 'eslint'

const eslint = new ESLint({ cwd: new URL('../../', import.meta.url).pathname })
const boundaryErrors = async (filePath: string, code: string) =>
  (await eslint.lintText(code, { filePath }))[0]!.messages.filter((m) => m.ruleId === 'boundaries/module-boundaries').map((m) => m.messageId)

test('when a module imports a file of another module other than its index.ts, then the linter reports it', async () => {
  assert.deepEqual(await boundaryErrors('src/modules/returns/fixture.ts', "export { orderRepo } from '../orders/repo.ts'\n"), ['internal'])
  assert.deepEqual(await boundaryErrors('src/app.ts', "export { orderRoutes } from './modules/orders/routes.ts'\n"), ['internal'])
})

test('when a module imports another module through its index.ts or its own files, then the linter accepts it', async () => {
  assert.deepEqual(await boundaryErrors('src/modules/returns/fixture.ts', "export { findOwnOrder } from '../orders/index.ts'\nexport { returnRepo } from './repo.ts'\n"), [])
})

test('when the platform (http, db, lib) imports a module, even its index.ts, then the linter reports it', async () => {
  assert.deepEqual(await boundaryErrors('src/http/fixture.ts', "export { findPartner } from '../modules/partners/index.ts'\n"), ['platform'])
  assert.deepEqual(await boundaryErrors('src/lib/fixture.ts', "export type { Customer } from '../modules/customers/index.ts'\n"), ['platform'])
})

test("when a schema.sql.ts imports another module's schema.sql.ts (foreign keys), then the linter accepts it; any other file may not", async () => {
  assert.deepEqual(await boundaryErrors('src/modules/auth/schema.sql.ts', "export { users } from '../customers/schema.sql.ts'\n"), [])
  assert.deepEqual(await boundaryErrors('src/modules/auth/repo.ts', "export { users } from '../customers/schema.sql.ts'\n"), ['internal'])
})

test('when a module or the platform imports what stands above them (a flow, the table aggregate, the app), then the linter reports it (issue #40)', async () => {
  assert.deepEqual(await boundaryErrors('src/modules/orders/fixture.ts', "export { adminSearch } from '../../flows/admin-search.ts'\n"), ['upward'])
  assert.deepEqual(await boundaryErrors('src/db/fixture.ts', "import * as schema from '../schema.ts'\nexport { schema }\n"), ['upward'])
  assert.deepEqual(await boundaryErrors('src/http/fixture.ts', "export { buildApp } from '../app.ts'\n"), ['upward'])
  assert.deepEqual(await boundaryErrors('src/flows/fixture.ts', "export { orderHits } from '../modules/orders/index.ts'\n"), [], 'a flow uses modules through their index')
})

test("when a module's file imports its own index.ts, then the linter reports it; index.ts handing on its files' names is fine", async () => {
  assert.deepEqual(await boundaryErrors('src/modules/catalog/service.ts', "export { onStockMoved } from './index.ts'\n"), ['ownIndex'])
  assert.deepEqual(await boundaryErrors('src/modules/catalog/index.ts', "export { onStockMoved } from './stock.ts'\n"), [])
})

test('when a module imports a module of its own layer or of a higher one, then the linter reports it; a lower layer is fine (issue #40)', async () => {
  assert.deepEqual(await boundaryErrors('src/modules/customers/fixture.ts', "export { stateMismatch } from '../checkout/index.ts'\n"), ['layer'], 'checkout stands above customers')
  assert.deepEqual(await boundaryErrors('src/modules/ledgers/fixture.ts', "export type { GstSeller } from '../tax/index.ts'\n"), ['layer'], 'a type import counts, and one layer does not import its neighbour')
  assert.deepEqual(await boundaryErrors('src/modules/checkout/fixture.ts', "export { lockCustomer } from '../customers/index.ts'\n"), [])
  assert.deepEqual(await boundaryErrors('src/modules/newcomer/fixture.ts', "export { lockCustomer } from '../customers/index.ts'\n"), ['layer'], 'a module not in LAYERS has no place yet')
})
