// Signed access tokens (JWT, HS256 only). The audience separates customer tokens from admin tokens,
// so one can never be used as the other.
//
// Signed and checked with node:crypto's HMAC, synchronously (decision 0012): every authenticated
// request verifies one, and jose's WebCrypto verify cost about 50 us a token alone and a tenth of
// the server's CPU in the flash sale (LD-03); node:crypto takes about 4 us. The checks are jose's for
// this one algorithm: exactly three base64url parts, a header that names HS256 and no `crit`, the
// HMAC compared in constant time, a JSON object payload with our issuer, the audience asked for, a
// numeric `exp` after now, `nbf` (when present) not after now, `iat` (when present) a number. The
// tests sign and read tokens with jose as well, so the two stay interchangeable.
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto'

export type Audience = 'customer' | 'admin'

export interface TokenSigner {
  sign(claims: Record<string, string>, subject: string, audience: Audience, ttlSeconds: number, now: Date): Promise<string>
  verify(token: string, audience: Audience, now: Date): Promise<Record<string, unknown> | null>
}

const ISSUER = 'commerce-api'
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')
const BASE64URL = /^[A-Za-z0-9_-]+$/

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

export function createTokenSigner(secret: string): TokenSigner {
  const key = createSecretKey(Buffer.from(secret, 'utf8'))
  const mac = (signingInput: string) => createHmac('sha256', key).update(signingInput).digest()

  function verifySync(token: string, audience: Audience, now: Date): Record<string, unknown> | null {
    const parts = token.split('.')
    if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return null
    const [headerPart, payloadPart, signaturePart] = parts as [string, string, string]
    const header = decodeJson(headerPart)
    if (!header || header.alg !== 'HS256' || 'crit' in header) return null
    const signature = Buffer.from(signaturePart, 'base64url')
    const expected = mac(`${headerPart}.${payloadPart}`)
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return null

    const claims = decodeJson(payloadPart)
    if (!claims || claims.iss !== ISSUER) return null
    const aud = claims.aud
    if (!(aud === audience || (Array.isArray(aud) && aud.includes(audience)))) return null
    const seconds = Math.floor(now.getTime() / 1000)
    if (typeof claims.exp !== 'number' || claims.exp <= seconds) return null
    if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > seconds)) return null
    if (claims.iat !== undefined && typeof claims.iat !== 'number') return null
    return claims
  }

  return {
    async sign(claims, subject, audience, ttlSeconds, now) {
      const iat = Math.floor(now.getTime() / 1000)
      const payload = Buffer.from(JSON.stringify({ ...claims, sub: subject, aud: audience, iss: ISSUER, iat, exp: iat + ttlSeconds })).toString('base64url')
      const signingInput = `${HEADER}.${payload}`
      return `${signingInput}.${mac(signingInput).toString('base64url')}`
    },
    async verify(token, audience, now) {
      return verifySync(token, audience, now)
    },
  }
}
