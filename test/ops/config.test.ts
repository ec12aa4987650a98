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

  test('Shiprocket is off unless SHIPROCKET_EMAIL is set; then its password, webhook token and pickup location are required', () => {
    assert.equal(loadConfig({ ...base }).shiprocket, null)
    const shiprocket = { SHIPROCKET_EMAIL: 'api@acme.example', SHIPROCKET_PASSWORD: 'p', SHIPROCKET_WEBHOOK_TOKEN: 'w', SHIPROCKET_PICKUP_LOCATION: 'Bengaluru WH' }
    assert.deepEqual(loadConfig({ ...base, ...shiprocket }).shiprocket, {
      email: 'api@acme.example',
      password: 'p',
      webhookToken: 'w',
      previousWebhookToken: null,
      pickupLocation: 'Bengaluru WH',
      channelId: null,
      apiBase: 'https://apiv2.shiprocket.in',
      timeoutMs: 5000,
    })
    for (const missing of ['SHIPROCKET_PASSWORD', 'SHIPROCKET_WEBHOOK_TOKEN', 'SHIPROCKET_PICKUP_LOCATION']) {
      const env: Record<string, string> = { ...base, ...shiprocket, [missing]: '  ' }
      assert.throws(() => loadConfig(env), (err: Error) => err instanceof ConfigError && err.message === `Invalid configuration: ${missing} is required when SHIPROCKET_EMAIL is set`, missing)
    }
    // A variable of the block without SHIPROCKET_EMAIL configures nothing.
    assert.equal(loadConfig({ ...base, SHIPROCKET_PASSWORD: 'p', SHIPROCKET_WEBHOOK_TOKEN: 'w' }).shiprocket, null)
  })

  test('payouts: the sandbox outside production only; RazorpayX when RAZORPAYX_KEY_ID is set, then its secret, account number and webhook secret are required', () => {
    assert.equal(loadConfig({ ...base }).payoutSandbox, true)
    assert.equal(loadConfig({ ...base, NODE_ENV: 'production', PAYMENT_PROVIDER: 'razorpay', RAZORPAY_KEY_ID: 'k', RAZORPAY_KEY_SECRET: 's', RAZORPAY_WEBHOOK_SECRET: 'w' }).payoutSandbox, false)
    assert.equal(loadConfig({ ...base }).razorpayx, null)
    assert.equal(loadConfig({ ...base }).payoutMaxAttempts, 6)
    const razorpayx = { RAZORPAYX_KEY_ID: 'rzp_live_x', RAZORPAYX_KEY_SECRET: 's', RAZORPAYX_ACCOUNT_NUMBER: '2323230041626905', RAZORPAYX_WEBHOOK_SECRET: 'w' }
    assert.deepEqual(loadConfig({ ...base, ...razorpayx, RAZORPAYX_API_BASE: 'http://127.0.0.1:4020/' }).razorpayx, {
      keyId: 'rzp_live_x', keySecret: 's', accountNumber: '2323230041626905', webhookSecret: 'w', previousWebhookSecret: null, apiBase: 'http://127.0.0.1:4020', timeoutMs: 5000,
    })
    for (const missing of ['RAZORPAYX_KEY_SECRET', 'RAZORPAYX_ACCOUNT_NUMBER', 'RAZORPAYX_WEBHOOK_SECRET']) {
      const env: Record<string, string> = { ...base, ...razorpayx }
      delete env[missing]
      assert.throws(() => loadConfig(env), (err: Error) => err instanceof ConfigError && err.message === `Invalid configuration: ${missing} is required when RAZORPAYX_KEY_ID is set`, missing)
    }
    assert.throws(() => loadConfig({ ...base, ...razorpayx, RAZORPAYX_ACCOUNT_NUMBER: 'acc-12' }), /RAZORPAYX_ACCOUNT_NUMBER must be the RazorpayX account number/)
    assert.throws(() => loadConfig({ ...base, PAYOUT_MAX_ATTEMPTS: '0' }), /PAYOUT_MAX_ATTEMPTS/)
  })

  test('Shiprocket options: the previous webhook token, the channel, the API address and the timeout', () => {
    const shiprocket = { SHIPROCKET_EMAIL: 'api@acme.example', SHIPROCKET_PASSWORD: 'p', SHIPROCKET_WEBHOOK_TOKEN: 'w', SHIPROCKET_PICKUP_LOCATION: 'Bengaluru WH' }
    const config = loadConfig({
      ...base,
      ...shiprocket,
      SHIPROCKET_WEBHOOK_TOKEN_PREVIOUS: 'old-w',
      SHIPROCKET_CHANNEL_ID: '3422553',
      SHIPROCKET_API_BASE: 'http://127.0.0.1:4010/',
      SHIPROCKET_TIMEOUT_MS: '2500',
    }).shiprocket
    assert.equal(config?.previousWebhookToken, 'old-w')
    assert.equal(config?.channelId, '3422553')
    assert.equal(config?.apiBase, 'http://127.0.0.1:4010')
    assert.equal(config?.timeoutMs, 2500)
    const refused: [Record<string, string>, RegExp][] = [
      [{ SHIPROCKET_TIMEOUT_MS: '0' }, /SHIPROCKET_TIMEOUT_MS must be between 100 and 60000/],
      [{ SHIPROCKET_TIMEOUT_MS: '60001' }, /SHIPROCKET_TIMEOUT_MS/],
      [{ SHIPROCKET_TIMEOUT_MS: 'soon' }, /SHIPROCKET_TIMEOUT_MS must be a whole number/],
      [{ SHIPROCKET_API_BASE: 'ftp://apiv2.shiprocket.in' }, /SHIPROCKET_API_BASE must use https: or http:/],
      [{ SHIPROCKET_API_BASE: 'apiv2.shiprocket.in' }, /SHIPROCKET_API_BASE must be a URL/],
      [{ SHIPROCKET_CHANNEL_ID: 'web-store' }, /SHIPROCKET_CHANNEL_ID must be a Shiprocket channel id/],
    ]
    for (const [env, pattern] of refused) {
      assert.throws(() => loadConfig({ ...base, ...shiprocket, ...env }), (err: Error) => err instanceof ConfigError && pattern.test(err.message), JSON.stringify(env))
    }
  })

  test('a refused Shiprocket setting never quotes the password or the webhook token', () => {
    const secrets = { SHIPROCKET_PASSWORD: 'sr-secret-password-1', SHIPROCKET_WEBHOOK_TOKEN: 'sr-secret-webhook-2' }
    for (const env of [{ SHIPROCKET_TIMEOUT_MS: 'x' }, { SHIPROCKET_API_BASE: 'nope' }, { SHIPROCKET_PICKUP_LOCATION: '' }]) {
      assert.throws(
        () => loadConfig({ ...base, SHIPROCKET_EMAIL: 'api@acme.example', SHIPROCKET_PICKUP_LOCATION: 'WH', ...secrets, ...env }),
        (err: Error) => err instanceof ConfigError && !err.message.includes(secrets.SHIPROCKET_PASSWORD) && !err.message.includes(secrets.SHIPROCKET_WEBHOOK_TOKEN),
      )
    }
  })

  test('Delhivery is off unless DELHIVERY_API_TOKEN is set; then its pickup location, its pincode and the webhook token are required', () => {
    assert.equal(loadConfig({ ...base }).delhivery, null)
    const delhivery = { DELHIVERY_API_TOKEN: 't', DELHIVERY_PICKUP_LOCATION: 'Bengaluru WH', DELHIVERY_PICKUP_PINCODE: '560099', DELHIVERY_WEBHOOK_TOKEN: 'w' }
    assert.deepEqual(loadConfig({ ...base, ...delhivery }).delhivery, {
      apiToken: 't',
      pickupLocation: 'Bengaluru WH',
      pickupPincode: '560099',
      webhookToken: 'w',
      previousWebhookToken: null,
      apiBase: 'https://track.delhivery.com',
      timeoutMs: 5000,
    })
    for (const missing of ['DELHIVERY_PICKUP_LOCATION', 'DELHIVERY_PICKUP_PINCODE', 'DELHIVERY_WEBHOOK_TOKEN']) {
      const env: Record<string, string> = { ...base, ...delhivery, [missing]: '  ' }
      assert.throws(() => loadConfig(env), (err: Error) => err instanceof ConfigError && err.message === `Invalid configuration: ${missing} is required when DELHIVERY_API_TOKEN is set`, missing)
    }
    // A variable of the block without DELHIVERY_API_TOKEN configures nothing.
    assert.equal(loadConfig({ ...base, DELHIVERY_PICKUP_LOCATION: 'WH', DELHIVERY_WEBHOOK_TOKEN: 'w' }).delhivery, null)
  })

  test('Delhivery options: the previous webhook token, the API address (staging) and the timeout; refusals never quote the tokens', () => {
    const secrets = { DELHIVERY_API_TOKEN: 'dlv-secret-api-1', DELHIVERY_WEBHOOK_TOKEN: 'dlv-secret-webhook-2' }
    const delhivery = { ...secrets, DELHIVERY_PICKUP_LOCATION: 'Bengaluru WH', DELHIVERY_PICKUP_PINCODE: '560099' }
    const config = loadConfig({
      ...base,
      ...delhivery,
      DELHIVERY_WEBHOOK_TOKEN_PREVIOUS: 'old-w',
      DELHIVERY_API_BASE: 'https://staging-express.delhivery.com/',
      DELHIVERY_TIMEOUT_MS: '2500',
    }).delhivery
    assert.equal(config?.previousWebhookToken, 'old-w')
    assert.equal(config?.apiBase, 'https://staging-express.delhivery.com')
    assert.equal(config?.timeoutMs, 2500)
    const refused: [Record<string, string>, RegExp][] = [
      [{ DELHIVERY_TIMEOUT_MS: '0' }, /DELHIVERY_TIMEOUT_MS must be between 100 and 60000/],
      [{ DELHIVERY_TIMEOUT_MS: 'soon' }, /DELHIVERY_TIMEOUT_MS must be a whole number/],
      [{ DELHIVERY_API_BASE: 'ftp://track.delhivery.com' }, /DELHIVERY_API_BASE must use https: or http:/],
      [{ DELHIVERY_API_BASE: 'track.delhivery.com' }, /DELHIVERY_API_BASE must be a URL/],
      [{ DELHIVERY_PICKUP_PINCODE: '56009' }, /DELHIVERY_PICKUP_PINCODE must be a 6-digit pincode/],
      [{ DELHIVERY_PICKUP_LOCATION: '' }, /DELHIVERY_PICKUP_LOCATION is required/],
    ]
    for (const [env, pattern] of refused) {
      assert.throws(
        () => loadConfig({ ...base, ...delhivery, ...env }),
        (err: Error) => err instanceof ConfigError && pattern.test(err.message) && !err.message.includes(secrets.DELHIVERY_API_TOKEN) && !err.message.includes(secrets.DELHIVERY_WEBHOOK_TOKEN),
        JSON.stringify(env),
      )
    }
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
