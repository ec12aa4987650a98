// The bare address is not a dead end: a newcomer who opens it finds the reference.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
before(async () => {
  t = await createTestApp()
})
after(() => t.close())

test('GET / from a browser redirects to the interactive reference at /docs', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html,application/xhtml+xml' } })
  assert.equal(res.statusCode, 302)
  assert.equal(res.headers.location, '/docs')
})

test('GET / from a client answers the addresses of the reference, the OpenAPI document and health', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'application/json' } })
  assert.equal(res.statusCode, 200)
  const links = res.json() as Record<string, string>
  assert.deepEqual(links, { name: 'commerce-api', docs: '/docs', openapi: '/api/v1/openapi.json', health: '/api/v1/health' })
  for (const path of [links.openapi!, links.health!]) {
    assert.equal((await t.app.inject({ method: 'GET', url: path })).statusCode, 200, path)
  }
})
