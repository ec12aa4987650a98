// The SE-11 log scanner (test/helpers/secret-scan.ts) can fail: every kind of secret the service
// issues, in the shapes a log line would carry it, is found; the ids, keys and numbers a log line
// legitimately carries are not. And the logger censors what the scan found leaking (signed URLs).
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { test } from 'node:test'
import { createLogger, redactUrl } from '../../src/bootstrap.ts'
import { loadConfig } from '../../src/config.ts'
import { createTokenSigner } from '../../src/modules/auth/tokens.ts'
import { signPayload } from '../../src/modules/events/signing.ts'
import { createLocalStorage } from '../../src/modules/uploads/local-storage.ts'
import { newId, newSecret } from '../../src/lib/ids.ts'
import { TEST_AUTH_SECRET } from '../helpers/app.ts'
import { findSecrets, luhn, maskedLine, scanLogDirectory } from '../helpers/secret-scan.ts'

const requestLine = (url: string) =>
  JSON.stringify({ level: 30, time: Date.now(), pid: 1, hostname: 'vm', reqId: 'req_4f2a9c1e-1b', req: { method: 'GET', url, remoteAddress: '127.0.0.1' }, msg: 'incoming request' })
const errorLine = (message: string) => JSON.stringify({ level: 50, time: Date.now(), err: { type: 'Error', message, stack: `Error: ${message}\n    at x (/app/src/x.ts:1:1)` }, msg: 'unhandled error' })

async function secretsOfEveryKind(): Promise<Record<string, string>> {
  const signer = createTokenSigner(TEST_AUTH_SECRET)
  const accessToken = await signer.sign({ partnerId: newId('prt') }, newId('usr'), 'customer', 900, new Date())
  const adminToken = await signer.sign({ role: 'ADMIN' }, newId('adm'), 'admin', 3600, new Date())
  const storage = createLocalStorage({ dir: tmpdir(), secret: 'upload-secret', publicBaseUrl: 'http://localhost:3000' })
  const { uploadUrl } = await storage.signUpload({ objectName: `support/${newId('upl')}.png`, contentType: 'image/png', sizeBytes: 300, expiresAt: new Date() })
  const hex = randomBytes(32).toString('hex')
  return {
    apiKey: errorLine(`no partner for key ${newSecret('ck')}`),
    partnerSecret: errorLine(`secret ${newSecret('psk')} did not match`),
    refreshToken: errorLine(`refresh rt_${randomBytes(32).toString('base64url')} reused`),
    webhookSecret: JSON.stringify({ level: 30, msg: 'webhook set', detail: `with ${newSecret('whsec')}` }),
    accessToken: errorLine(`token ${accessToken} expired`),
    adminToken: requestLine(`/api/v1/admin/orders?session=${adminToken}`),
    bearer: JSON.stringify({ level: 30, req: { headers: { authorization: 'Bearer opaque-token-value-123' } } }),
    bearerInText: errorLine('upstream said: Authorization: Bearer abcdefgh12345678'),
    commerceSignature: errorLine(`delivery signed ${signPayload('whsec_x', 1_700_000_000, '{}')}`),
    razorpaySignature: JSON.stringify({ level: 30, headers: { 'x-razorpay-signature': hex } }),
    sandboxSignature: errorLine(`bad x-sandbox-signature: t=1700000000,v1=${hex}`),
    uploadUrl: requestLine(new URL(uploadUrl).pathname + new URL(uploadUrl).search),
    s3Url: errorLine(`PUT https://bucket.s3.amazonaws.com/a.png?X-Amz-Date=20250101T000000Z&X-Amz-Signature=${hex}`),
    awsKeyId: errorLine('credentials AKIAIOSFODNN7EXAMPLE refused'),
    password: JSON.stringify({ level: 40, admin: { email: 'a@b.test' }, password: 'long-enough-password' }),
    nestedSecret: JSON.stringify({ level: 40, body: { partner: { secret: 'not-censored-here' } } }),
    bankAccount: JSON.stringify({ level: 40, refundTo: { method: 'BANK', ifsc: 'HDFC0001234', accountNumber: '50100123454321' } }),
    bankAccountRazorpayX: JSON.stringify({ level: 40, bank_account: { ifsc: 'HDFC0001234', account_number: '50100123454321' } }),
    visa: errorLine('card 4111111111111111 declined'),
    visaGrouped: requestLine('/api/v1/pay?card=4111-1111-1111-1111'),
    mastercard: JSON.stringify({ level: 30, pan: 5555555555554444 }),
    amex: errorLine('card 3782 822463 10005 declined'),
    rupay: errorLine('card 6521 1111 1111 1110 declined'),
  }
}

test('each kind of secret in a log line is found, and printed masked', async () => {
  for (const [kind, line] of Object.entries(await secretsOfEveryKind())) {
    const found = findSecrets(line)
    assert.ok(found.length > 0, `${kind} not found in: ${line}`)
    const printed = maskedLine(line, [], Infinity)
    assert.match(printed, /…\[masked \d+ chars\]/, kind)
    assert.deepEqual(findSecrets(printed), [], `${kind} is masked when printed: ${printed}`)
  }
  assert.ok(!maskedLine(errorLine('card 4111111111111111 declined')).includes('4111111111111111'))
  const long = maskedLine(errorLine(`${'x'.repeat(600)} key ${newSecret('ck')} ${'y'.repeat(600)}`))
  assert.ok(long.length < 260 && long.includes('…[masked 46 chars]'), `the printed part shows the masked secret: ${long}`)
  assert.deepEqual(findSecrets(errorLine(`config ${TEST_AUTH_SECRET}`), [TEST_AUTH_SECRET]).map((m) => m.pattern), ['known secret of this run'])
})

test('ids, idempotency keys, mobiles, pincodes, amounts, times and hashes are not secrets', () => {
  const lookAlikes = [
    requestLine(`/api/v1/orders/${newId('ord')}`),
    requestLine(`/api/v1/orders/${newId('ord')}/returns?page=2&limit=20`),
    JSON.stringify({ level: 30, time: 1_795_589_991_954, reqId: 'req_984d8241-r', res: { statusCode: 201 }, responseTime: 12.3456789012345, msg: 'request completed' }),
    JSON.stringify({ level: 40, paymentId: newId('pay'), refundId: newId('ref'), sessionId: `ses_${randomBytes(12).toString('base64url')}`, msg: 'refund could not be sent' }),
    JSON.stringify({ level: 30, idempotencyKey: 'checkout-7f3e2a10-5c1b-4d8e-9a6f-0b1c2d3e4f5a', key: '550e8400-e29b-41d4-a716-446655440000' }),
    JSON.stringify({ level: 30, phone: '9876543210', mobile: '+919876543210', pincode: '560001', amount: '1299.00', paise: 129_900, expected: '99999999999', got: '100000000000' }),
    JSON.stringify({ level: 30, pid: 48213, hostname: 'ip-10-0-0-12', remotePort: 53012, cancelled: 3 }),
    JSON.stringify({ level: 30, apiKeyId: newId('key'), partnerId: newId('prt'), tokenType: 'Bearer', hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', digest: '4719203847561029384756abcdef' }),
    JSON.stringify({ level: 30, password: '[redacted]', secret: '[redacted]', apiKey: '[redacted]', refreshToken: '[redacted]' }),
    requestLine('/api/v1/uploads/support/a.png?expires=1795409100&size=300&type=image%2Fpng&signature=[redacted]'),
    errorLine('Invalid webhook signature'),
    errorLine('Missing x-razorpay-signature header'),
    errorLine('Bearer token required'),
    JSON.stringify({ level: 30, sku: 'ATTA-5KG', stock: 1_000_000, orders: 9_223_372_036_854_775_807n.toString(), startedAt: '2025-01-01T00:00:00.000Z' }),
    JSON.stringify({ level: 30, msg: 'part_of_a_long_word_is_not_a_refresh_token rt_short stock_reserved_for_checkout_quantity' }),
    JSON.stringify({ level: 30, event: 'order.paid', orderNumber: 'ORD-2025-000123', trackingNumber: '1Z999AA10123456784' }),
  ]
  for (const line of lookAlikes) assert.deepEqual(findSecrets(line), [], line)
})

test('the Luhn check', () => {
  for (const pan of ['4111111111111111', '5555555555554444', '378282246310005', '6011111111111117', '4012888888881881']) assert.ok(luhn(pan), pan)
  for (const digits of ['4111111111111112', '1795589991954', '9876543210123']) assert.ok(!luhn(digits), digits)
})

test('a directory scan counts files, lines and bytes and reports each finding with file and line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'secret-scan-'))
  try {
    const lines = Object.values(await secretsOfEveryKind())
    writeFileSync(join(dir, 'a.jsonl'), `${requestLine('/api/v1/products')}\n${lines[0]}\n`)
    writeFileSync(join(dir, 'b.jsonl'), `${requestLine('/api/v1/categories')}\n`)
    const result = await scanLogDirectory(dir)
    assert.equal(result.files, 2)
    assert.equal(result.lines, 3)
    assert.ok(result.bytes > 100)
    assert.deepEqual(result.findings.map((f) => [f.file, f.line, f.pattern]), [['a.jsonl', 2, 'API key (ck_)']])
    assert.ok(!result.findings[0]!.text.includes(lines[0]!.match(/ck_\S+/)![0].slice(8)))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('the service logger censors the credentials a request URL carries (the signed upload URL leaked before)', () => {
  assert.equal(redactUrl('/api/v1/uploads/support/a.png?expires=1&size=2&type=image%2Fpng&signature=abcdef'), '/api/v1/uploads/support/a.png?expires=1&size=2&type=image%2Fpng&signature=[redacted]')
  assert.equal(redactUrl('/x?X-Amz-Signature=ab&X-Amz-Credential=AKIA%2F1&keep=1&Token=t'), '/x?X-Amz-Signature=[redacted]&X-Amz-Credential=[redacted]&keep=1&Token=[redacted]')
  assert.equal(redactUrl('/api/v1/products?q=signature&page=2'), '/api/v1/products?q=signature&page=2')
  assert.equal(redactUrl('/api/v1/products'), '/api/v1/products')

  const lines: string[] = []
  const logger = createLogger(
    loadConfig({ NODE_ENV: 'test', AUTH_SECRET: TEST_AUTH_SECRET, LOG_LEVEL: 'info', DATA_DIR: tmpdir() }),
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString())
        done()
      },
    }),
  )
  const signature = randomBytes(32).toString('hex')
  logger.info({ req: { method: 'PUT', url: `/api/v1/uploads/a.png?expires=1&signature=${signature}`, headers: {}, ip: '127.0.0.1' } }, 'incoming request')
  assert.equal(lines.length, 1)
  assert.ok(!lines[0]!.includes(signature), lines[0])
  assert.match(lines[0]!, /"url":"\/api\/v1\/uploads\/a\.png\?expires=1&signature=\[redacted\]"/)
  assert.deepEqual(findSecrets(lines[0]!), [])

  // A customer's bank account (COD refunds), wherever a log line carries it.
  logger.warn({ refundTo: { method: 'BANK', accountNumber: '50100123454321' }, fund: { bank_account: { account_number: '50100123454321' } } }, 'payout')
  assert.ok(!lines[1]!.includes('50100123454321'), lines[1])
  assert.deepEqual(findSecrets(lines[1]!), [])
})
