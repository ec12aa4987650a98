// The access-token signer (src/modules/auth/tokens.ts) against jose, an independent implementation:
// what one signs the other reads, and every claim check refuses what jose's would.
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { describe, test } from 'node:test'
import { decodeJwt, jwtVerify, SignJWT } from 'jose'
import { createTokenSigner } from '../../src/modules/auth/tokens.ts'

const SECRET = 'a-test-secret-of-at-least-32-bytes-long!'
const key = new TextEncoder().encode(SECRET)
const signer = createTokenSigner(SECRET)
const NOW = new Date('2026-11-25T12:00:00Z')
const SECONDS = NOW.getTime() / 1000

/** A token signed by jose with our claims, changed by `edit`. */
async function joseToken(edit: (jwt: SignJWT) => SignJWT = (jwt) => jwt, header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' }) {
  const jwt = new SignJWT({ pid: 'prt_1', sid: 'ses_1' })
    .setProtectedHeader(header as { alg: string })
    .setSubject('usr_1')
    .setAudience('customer')
    .setIssuer('commerce-api')
    .setIssuedAt(SECONDS)
    .setExpirationTime(SECONDS + 900)
  return edit(jwt).sign(key)
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

describe('access tokens', () => {
  test('a token we sign is read by jose with the same claims, and one jose signs is read by us', async () => {
    const ours = await signer.sign({ pid: 'prt_1', sid: 'ses_1' }, 'usr_1', 'customer', 900, NOW)
    const { payload, protectedHeader } = await jwtVerify(ours, key, { algorithms: ['HS256'], audience: 'customer', issuer: 'commerce-api', currentDate: NOW })
    assert.deepEqual(protectedHeader, { alg: 'HS256', typ: 'JWT' })
    assert.deepEqual(payload, { pid: 'prt_1', sid: 'ses_1', sub: 'usr_1', aud: 'customer', iss: 'commerce-api', iat: SECONDS, exp: SECONDS + 900 })
    assert.deepEqual(await signer.verify(ours, 'customer', NOW), payload)
    assert.deepEqual(await signer.verify(await joseToken(), 'customer', NOW), decodeJwt(await joseToken()))
  })

  test('the subject and the registered claims cannot be overridden by the claims passed in', async () => {
    const token = await signer.sign({ sub: 'usr_other', aud: 'admin', iss: 'elsewhere', exp: '9999999999' }, 'usr_1', 'customer', 60, NOW)
    const claims = await signer.verify(token, 'customer', NOW)
    assert.equal(claims?.sub, 'usr_1')
    assert.equal(claims?.exp, SECONDS + 60)
    assert.equal(await signer.verify(token, 'admin', NOW), null)
  })

  test('the audience asked for must be the token\'s: a customer token is no admin token, and the reverse', async () => {
    const customer = await signer.sign({}, 'usr_1', 'customer', 900, NOW)
    const admin = await signer.sign({ role: 'SUPPORT' }, 'adm_1', 'admin', 900, NOW)
    assert.equal(await signer.verify(customer, 'admin', NOW), null)
    assert.equal(await signer.verify(admin, 'customer', NOW), null)
    assert.equal((await signer.verify(admin, 'admin', NOW))?.role, 'SUPPORT')
    assert.notEqual(await signer.verify(await joseToken((j) => j.setAudience(['other', 'customer'])), 'customer', NOW), null, 'an audience list that holds it')
    assert.equal(await signer.verify(await joseToken((j) => j.setAudience(['other'])), 'customer', NOW), null)
  })

  test('expiry: valid up to the second before exp, refused from exp on; nbf in the future is refused', async () => {
    const token = await signer.sign({}, 'usr_1', 'customer', 60, NOW)
    assert.notEqual(await signer.verify(token, 'customer', new Date(NOW.getTime() + 59_999)), null)
    assert.equal(await signer.verify(token, 'customer', new Date(NOW.getTime() + 60_000)), null)
    assert.equal(await signer.verify(await joseToken((j) => j.setNotBefore(SECONDS + 10)), 'customer', NOW), null)
    assert.notEqual(await signer.verify(await joseToken((j) => j.setNotBefore(SECONDS)), 'customer', NOW), null)
  })

  test('another issuer, another secret, another algorithm, a crit header, no exp: refused', async () => {
    assert.equal(await signer.verify(await joseToken((j) => j.setIssuer('someone')), 'customer', NOW), null)
    assert.equal(await signer.verify(await createTokenSigner(`${SECRET}x`).sign({}, 'usr_1', 'customer', 900, NOW), 'customer', NOW), null)
    assert.equal(await signer.verify(await joseToken(undefined, { alg: 'HS512' }), 'customer', NOW), null)
    const claims = decodeJwt(await joseToken())
    const withHeader = (header: unknown) => {
      const input = `${b64(header)}.${b64(claims)}`
      return `${input}.${createHmac('sha256', SECRET).update(input).digest('base64url')}`
    }
    assert.notEqual(await signer.verify(withHeader({ alg: 'HS256' }), 'customer', NOW), null, 'the helper signs as we do')
    assert.equal(await signer.verify(withHeader({ alg: 'HS256', crit: ['x'], x: 1 }), 'customer', NOW), null)
    assert.equal(await signer.verify(withHeader({ alg: 'hs256' }), 'customer', NOW), null)
    assert.equal(await signer.verify(withHeader(['HS256']), 'customer', NOW), null)
    const noExp = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('usr_1').setAudience('customer').setIssuer('commerce-api').sign(key)
    assert.equal(await signer.verify(noExp, 'customer', NOW), null)
  })

  test('malformed tokens are refused, never thrown: parts, encoding, alg none, payload that is no object, a tampered claim', async () => {
    const [h, p, s] = (await signer.sign({}, 'usr_1', 'customer', 900, NOW)).split('.') as [string, string, string]
    const malformed = [
      '',
      'abc',
      `${h}.${p}`,
      `${h}.${p}.${s}.x`,
      `${h}.${p}.${s}=`,
      `${h}.${p}.${s.slice(0, -1)}+`,
      `${h}.${p}.`,
      `${b64({ alg: 'none' })}.${p}.`,
      `${h}.${b64({ ...decodeJwt(`${h}.${p}.${s}`), sub: 'usr_2' })}.${s}`,
    ]
    for (const token of malformed) assert.equal(await signer.verify(token, 'customer', NOW), null, token)
    // Correctly signed, but the payload is not a JSON object (or not JSON).
    const signed = (payloadPart: string) => `${h}.${payloadPart}.${createHmac('sha256', SECRET).update(`${h}.${payloadPart}`).digest('base64url')}`
    assert.notEqual(await signer.verify(signed(p), 'customer', NOW), null, 'the helper signs as we do')
    for (const payloadPart of [b64(['x']), b64('text'), b64(42), b64(null), Buffer.from('not json').toString('base64url')]) {
      assert.equal(await signer.verify(signed(payloadPart), 'customer', NOW), null, payloadPart)
    }
  })
})
