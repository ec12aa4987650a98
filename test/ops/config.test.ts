import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config.ts'

const base = { AUTH_SECRET: 'x'.repeat(32) }

describe('configuration', () => {
  test('defaults: port 3000, embedded database, Redis disabled', () => {
    const config = loadConfig({ ...base })
    assert.equal(config.port, 3000)
    assert.equal(config.databaseUrl, null)
    assert.equal(config.redisUrl, null)
    assert.equal(config.storageDriver, 'local')
    assert.equal(config.paymentProvider, 'sandbox')
  })

  test('when a variable is invalid, then the error names it', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: 'eighty' }, /PORT/],
      [{ PORT: '70000' }, /PORT/],
      [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
      [{ REDIS_URL: 'not a url' }, /REDIS_URL/],
      [{ STORAGE_DRIVER: 'ftp' }, /STORAGE_DRIVER/],
      [{ PAYMENT_PROVIDER: 'cash' }, /PAYMENT_PROVIDER/],
      [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
      [{ AUTH_SECRET: 'short' }, /AUTH_SECRET/],
      [{ RATE_LIMIT_MAX: '0' }, /RATE_LIMIT_MAX/],
      [{ PAYMENT_PROVIDER: 'razorpay' }, /RAZORPAY_KEY_ID is required when PAYMENT_PROVIDER=razorpay/],
      [{ PAYMENT_PROVIDER: 'razorpay', RAZORPAY_KEY_ID: 'rzp_test', RAZORPAY_KEY_SECRET: 's' }, /RAZORPAY_WEBHOOK_SECRET is required/],
      [{ STORAGE_DRIVER: 's3' }, /S3_BUCKET is required when STORAGE_DRIVER=s3/],
      [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_ENDPOINT: 'ftp://x' }, /S3_ENDPOINT/],
      [{ ORDER_RESERVATION_MINUTES: '0' }, /ORDER_RESERVATION_MINUTES/],
      [{ WEBHOOK_ALLOW_HTTP: 'maybe' }, /WEBHOOK_ALLOW_HTTP/],
      [{ DATABASE_READ_URL: 'postgres://replica/db' }, /DATABASE_READ_URL needs DATABASE_URL: the embedded database has no replicas/],
      [{ DATABASE_URL: 'postgres://primary/db', DATABASE_READ_URL: 'mysql://replica/db' }, /DATABASE_READ_URL/],
    ]
    for (const [env, pattern] of cases) {
      assert.throws(() => loadConfig({ ...base, ...env }), (err: Error) => err instanceof ConfigError && pattern.test(err.message))
    }
  })

  test('when NODE_ENV=production and AUTH_SECRET is missing, then start is refused', () => {
    assert.throws(() => loadConfig({ NODE_ENV: 'production' }), /AUTH_SECRET is required/)
  })

  test('in production the sandbox payment provider must be chosen explicitly', () => {
    const production = { NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(40) }
    assert.throws(() => loadConfig(production), /PAYMENT_PROVIDER must name a real provider when NODE_ENV=production/)
    assert.equal(loadConfig({ ...production, PAYMENT_SANDBOX_IN_PRODUCTION: 'true' }).paymentProvider, 'sandbox')
    const razorpay = { PAYMENT_PROVIDER: 'razorpay', RAZORPAY_KEY_ID: 'rzp_live_x', RAZORPAY_KEY_SECRET: 's', RAZORPAY_WEBHOOK_SECRET: 'w' }
    assert.equal(loadConfig({ ...production, ...razorpay }).paymentProvider, 'razorpay')
    // Razorpay calls are bounded at 5 s unless RAZORPAY_TIMEOUT_MS says otherwise (100 ms to 60 s).
    assert.equal(loadConfig({ ...production, ...razorpay }).razorpay?.timeoutMs, 5000)
    assert.equal(loadConfig({ ...production, ...razorpay, RAZORPAY_TIMEOUT_MS: '2500' }).razorpay?.timeoutMs, 2500)
    for (const bad of ['0', '60001', 'soon']) assert.throws(() => loadConfig({ ...production, ...razorpay, RAZORPAY_TIMEOUT_MS: bad }), /RAZORPAY_TIMEOUT_MS/)
  })

  test('in development the secret is generated once and kept in DATA_DIR', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'))
    try {
      const first = loadConfig({ DATA_DIR: dir }).authSecret
      const second = loadConfig({ DATA_DIR: dir }).authSecret
      assert.equal(first, second)
      assert.ok(first.length >= 32)
      assert.equal(readFileSync(join(dir, 'auth-secret'), 'utf8').trim(), first)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
