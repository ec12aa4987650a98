import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenPartner } from '../helpers/factories.ts'

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379'
const refresh = (t: TestApp, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: 'rt_none' }, remoteAddress: ip })

function assert429(res: Awaited<ReturnType<typeof refresh>>, limit: number) {
  assert.equal(res.statusCode, 429)
  const body = res.json()
  assert.equal(body.statusCode, 429)
  assert.equal(body.error, 'Too Many Requests')
  assert.match(body.message, /Too many requests/)
  assert.equal(res.headers['x-ratelimit-limit'], String(limit))
  assert.equal(res.headers['x-ratelimit-remaining'], '0')
  assert.ok(Number(res.headers['retry-after']) > 0)
  assert.ok(Number(res.headers['x-ratelimit-reset']) > 0)
}

describe('rate limits with the in-process store', () => {
  let t: TestApp
  before(async () => {
    t = await createTestApp({
      redisUrl: null,
      env: { RATE_LIMIT_AUTH_MAX: '3', RATE_LIMIT_MAX: '5' },
      extraRoutes: (app) => app.get('/probe/api-key', { preValidation: app.guards.apiKey }, async () => ({ ok: true })),
    })
  })
  after(() => t.close())

  test('when a client address exceeds the auth limit, then 429 with retry-after and x-ratelimit headers', async () => {
    for (let i = 0; i < 3; i++) {
      const ok = await refresh(t)
      assert.equal(ok.statusCode, 401)
      assert.equal(ok.headers['x-ratelimit-remaining'], String(2 - i))
    }
    assert429(await refresh(t), 3)
  })

  test('when another client address calls, then it has its own budget', async () => {
    assert.equal((await refresh(t, '10.0.0.2')).statusCode, 401)
  })

  test('when an API key exceeds the general limit, then 429 for that key only', async () => {
    const a = await givenPartner(t.deps, 'Busy')
    const b = await givenPartner(t.deps, 'Quiet')
    const call = (key: string) => t.app.inject({ method: 'GET', url: '/probe/api-key', headers: { 'x-api-key': key } })
    for (let i = 0; i < 5; i++) assert.equal((await call(a.apiKey)).statusCode, 200)
    const limited = await call(a.apiKey)
    assert.equal(limited.statusCode, 429)
    assert.equal(limited.headers['x-ratelimit-limit'], '5')
    assert.equal((await call(b.apiKey)).statusCode, 200)
  })

  test('junk API keys do not open new buckets: they count against the client address', async () => {
    const call = (i: number) => t.app.inject({ method: 'GET', url: '/probe/api-key', headers: { 'x-api-key': `junk-${i}` }, remoteAddress: '10.7.7.7' })
    for (let i = 0; i < 5; i++) assert.equal((await call(i)).statusCode, 401)
    assert.equal((await call(99)).statusCode, 429)
  })

  test('health and docs are never limited', async () => {
    for (let i = 0; i < 8; i++) {
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/health/live' })).statusCode, 200)
    }
  })
})

describe('rate limits with the Redis store', () => {
  const prefix = `rl-test-${randomBytes(4).toString('hex')}:`
  let first: TestApp
  let second: TestApp
  before(async () => {
    const env = { RATE_LIMIT_AUTH_MAX: '4', REDIS_PREFIX: prefix }
    first = await createTestApp({ redisUrl: REDIS_URL, env })
    second = await createTestApp({ redisUrl: REDIS_URL, env })
  })
  after(async () => {
    await first.close()
    await second.close()
  })

  test('when two nodes share Redis, then they share one counter and the fifth call is 429', async () => {
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await refresh(i % 2 === 0 ? first : second, '10.9.9.9')).statusCode)
    assert.deepEqual(statuses, [401, 401, 401, 401])
    const fifth = await refresh(first, '10.9.9.9')
    assert.equal(fifth.statusCode, 429, `after ${statuses}: ${fifth.statusCode} ${JSON.stringify(fifth.headers)}`)
    assert429(fifth, 4)
    assert429(await refresh(second, '10.9.9.9'), 4)
    const keys = await first.deps.redis!.keys(`${prefix}rl:*`)
    assert.ok(keys.length > 0, 'counters live in Redis')
    await first.deps.redis!.del(...keys)
  })
})
