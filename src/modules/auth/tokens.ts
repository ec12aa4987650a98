// Signed access tokens (JWT, HS256). The audience separates customer tokens from admin tokens, so
// one can never be used as the other.
import { webcrypto } from 'node:crypto'
import { errors, jwtVerify, SignJWT } from 'jose'

export type Audience = 'customer' | 'admin'

export interface TokenSigner {
  sign(claims: Record<string, string>, subject: string, audience: Audience, ttlSeconds: number, now: Date): Promise<string>
  verify(token: string, audience: Audience, now: Date): Promise<Record<string, unknown> | null>
}

export function createTokenSigner(secret: string): TokenSigner {
  // Imported once: given raw bytes, jose would import the key again on every sign and verify.
  let imported: Promise<webcrypto.CryptoKey> | undefined
  const cryptoKey = () =>
    (imported ??= webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']))
  return {
    async sign(claims, subject, audience, ttlSeconds, now) {
      const iat = Math.floor(now.getTime() / 1000)
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(subject)
        .setAudience(audience)
        .setIssuer('commerce-api')
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSeconds)
        .sign(await cryptoKey())
    },
    async verify(token, audience, now) {
      try {
        const { payload } = await jwtVerify(token, await cryptoKey(), {
          algorithms: ['HS256'],
          audience,
          issuer: 'commerce-api',
          currentDate: now,
        })
        return payload as Record<string, unknown>
      } catch (err) {
        if (err instanceof errors.JOSEError || err instanceof TypeError) return null
        throw err
      }
    },
  }
}
