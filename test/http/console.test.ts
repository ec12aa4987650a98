// How the service serves the back-office console (src/http/console.ts, decision 0028): the page and
// its script under /admin, compressed and cached by content, with the console's own CSP and the
// usual security headers; the API under /api/v1/admin untouched; a 503 that says how to build it
// when it was not built. And the build's skip: unchanged sources are not built again.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import Fastify from 'fastify'
import { consoleCsp, consoleRoutes } from '../../src/http/console.ts'
import { registerErrorHandling } from '../../src/http/error-handler.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

const BUILD = join(import.meta.dirname, '../../scripts/build-console.mjs')
const buildConsole = () => JSON.parse(execFileSync(process.execPath, [BUILD], { encoding: 'utf8' }).trim().split('\n').at(-1)!)

let t: TestApp
before(async () => {
  buildConsole()
  t = await createTestApp()
})
after(() => t.close())

describe('the console at /admin', () => {
  test('/admin and /admin/ answer the page, not cached, with the console CSP (images from, and uploads to, the public address) and the security headers', async () => {
    for (const url of ['/admin', '/admin/']) {
      const res = await t.app.inject({ url })
      assert.equal(res.statusCode, 200, url)
      assert.match(String(res.headers['content-type']), /^text\/html/)
      assert.equal(res.headers['cache-control'], 'no-cache')
      assert.equal(res.headers['content-security-policy'], consoleCsp(t.deps.config.publicBaseUrl, 'http://localhost:3000'))
      assert.match(String(res.headers['content-security-policy']), /img-src 'self' data: blob: https: http:\/\/localhost:3000;/)
      // An agent's reply images are PUT to the local driver's upload address, the public one.
      assert.match(String(res.headers['content-security-policy']), /connect-src 'self' http:\/\/localhost:3000;/)
      assert.equal(res.headers['x-content-type-options'], 'nosniff')
      assert.match(res.body, /<script type="module" src="\/admin\/assets\/app-[A-Z0-9]+\.js"><\/script>/)
    }
  })

  test('its script is sent brotli- or gzip-compressed as the browser accepts, under 1 MB, and cached for a year', async () => {
    const page = (await t.app.inject({ url: '/admin' })).body
    const script = /src="(\/admin\/assets\/[^"]+)"/.exec(page)![1]!
    for (const [accept, encoding] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip']] as const) {
      const res = await t.app.inject({ url: script, headers: { 'accept-encoding': accept } })
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['content-encoding'], encoding)
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable')
      assert.ok(res.rawPayload.length < 1024 * 1024, `${encoding}: ${res.rawPayload.length} bytes`)
    }
  })

  test('the API keeps its /api/v1/admin routes, and /admin serves nothing but the build (no build.json, no API)', async () => {
    assert.equal((await t.app.inject({ url: '/api/v1/admin/orders' })).statusCode, 401)
    assert.equal((await t.app.inject({ url: '/admin/orders' })).statusCode, 404)
    assert.equal((await t.app.inject({ url: '/admin/build.json' })).statusCode, 404)
    assert.equal((await t.app.inject({ url: '/admin/../package.json' })).statusCode, 404)
  })

  test('a service without a built console answers /admin with 503 and how to build it', async () => {
    const app = Fastify()
    registerErrorHandling(app)
    await app.register(consoleRoutes, { root: mkdtempSync(join(tmpdir(), 'no-console-')) })
    const res = await app.inject({ url: '/admin' })
    assert.equal(res.statusCode, 503)
    assert.match(res.body, /npm run build/)
    await app.close()
  })
})

test('the build is skipped while the console sources are unchanged', () => {
  const again = buildConsole()
  assert.equal(again.built, false)
  assert.equal(again.reason, 'unchanged')
  assert.ok(again.jsBrotliBytes < 1024 * 1024)
})

test('the sign-in page loads only its own script (React and the form), under 150 KB brotli; the console is a chunk loaded once signed in', async () => {
  const build = buildConsole()
  assert.ok(build.signInBrotliBytes < 150 * 1024, `${build.signInBrotliBytes} bytes`)
  assert.ok(build.scripts >= 2 && build.jsBrotliBytes > 2 * build.signInBrotliBytes, JSON.stringify(build))
  const page = (await t.app.inject({ url: '/admin' })).body
  assert.match(page, /<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,/)
  const script = /src="(\/admin\/assets\/[^"]+)"/.exec(page)![1]!
  const entry = (await t.app.inject({ url: script })).body
  assert.doesNotMatch(entry, /react-admin|MuiButton/, 'neither react-admin nor MUI in the first script')
  const chunk = /from"\.\/(chunk-[A-Z0-9]+\.js)"|import\("\.\/(chunk-[A-Z0-9]+\.js)"\)/.exec(entry)
  assert.ok(chunk, 'the entry imports the console chunk')
  assert.equal((await t.app.inject({ url: `/admin/assets/${chunk[1] ?? chunk[2]}`, headers: { 'accept-encoding': 'br' } })).headers['content-encoding'], 'br')
})
