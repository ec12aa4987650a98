// The SDK's generated files (packages/sdk/src/openapi.ts, operations.ts) are what the current
// routes generate: a route whose schema changed without `npm run sdk:generate` fails here. And
// the package builds (`npm run sdk:build`: tsc with the DOM's types and no Node types) into an
// entry point that exports the client and the webhook check.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'
import { SDK_SRC, sdkFiles } from '../../scripts/sdk-types.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
before(async () => {
  t = await createTestApp()
})
after(() => t?.close())

test('the checked-in generated types and operations are what the current OpenAPI document generates (else run npm run sdk:generate)', async (ctx) => {
  const document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json()
  const started = Date.now()
  const files = await sdkFiles(document)
  ctx.diagnostic(`generated in ${Date.now() - started} ms`)
  for (const [name, text] of Object.entries(files)) {
    const checkedIn = readFileSync(new URL(name, SDK_SRC), 'utf8')
    // Not deepEqual on 1.7 MB of text: its diff would drown the message.
    assert.ok(checkedIn === text, `packages/sdk/src/${name} is stale: run npm run sdk:generate and commit it`)
  }
})

test('the package builds with no Node types, and its built entry exports the client and verifyWebhook', async () => {
  // Inside the package, so the built files find its dependencies (openapi-fetch) as a user's would.
  const outDir = mkdtempSync(new URL('../../packages/sdk/.test-build-', import.meta.url).pathname)
  try {
    const tsc = new URL('../../node_modules/typescript/bin/tsc', import.meta.url).pathname
    const config = new URL('../../packages/sdk/tsconfig.build.json', import.meta.url).pathname
    await promisify(execFile)(process.execPath, [tsc, '-p', config, '--outDir', outDir])
    const built = await import(pathToFileURL(join(outDir, 'index.js')).href)
    assert.equal(typeof built.createCommerceClient, 'function')
    assert.equal(typeof built.verifyWebhook, 'function')
    assert.ok(built.IDEMPOTENT_OPERATIONS.has('POST /api/v1/orders'))
  } finally {
    rmSync(outDir, { recursive: true, force: true })
  }
})
