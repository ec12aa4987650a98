import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createTestApp, type TestApp } from '../helpers/app.ts'

describe('health with the database up', () => {
  let t: TestApp
  before(async () => {
    t = await createTestApp()
  })
  after(() => t.close())

  test('GET /health/live answers status ok and uptime', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health/live' })
    assert.equal(res.statusCode, 200)
    const data = res.json().data
    assert.deepEqual(Object.keys(data).sort(), ['status', 'uptime'])
    assert.equal(data.status, 'ok')
    assert.equal(typeof data.uptime, 'number')
  })

  test('GET /health/ready probes the database (and Redis when configured)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health/ready' })
    assert.equal(res.statusCode, 200)
    const data = res.json().data
    assert.deepEqual(Object.keys(data).sort(), ['database', 'redis', 'status', 'uptime'])
    assert.equal(data.status, 'ok')
    assert.equal(data.database, 'up')
    assert.equal(data.redis, process.env.TEST_REDIS_URL ? 'up' : 'disabled')
  })

  test('GET /health adds the version', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' })
    assert.equal(res.statusCode, 200)
    assert.match(res.json().data.version, /^\d+\.\d+\.\d+/)
    assert.equal(res.json().data.database, 'up')
  })
})

describe('health with Redis configured but unreachable', () => {
  let t: TestApp
  before(async () => {
    t = await createTestApp({ redisUrl: 'redis://127.0.0.1:1' })
  })
  after(() => t.close())

  test('ready says redis down and answers 503; live stays 200', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/api/v1/health/ready' })
    assert.equal(ready.statusCode, 503)
    assert.equal(ready.json().statusCode, 503)
    assert.equal(ready.json().data.redis, 'down')
    assert.equal(ready.json().data.database, 'up')
    assert.equal(ready.json().data.status, 'error')
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode, 503)
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/health/live' })).statusCode, 200)
  })

  test('requests keep working, rate-limited in process, while Redis is down', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: 'rt_x' } })
    assert.equal(res.statusCode, 401)
    assert.ok(res.headers['x-ratelimit-limit'])
  })
})

// The database-down case runs against a really unreachable PostgreSQL in test/ops/postgres-resilience.test.ts.
