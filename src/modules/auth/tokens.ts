// Signed access tokens (JWT, HS256). The audience separates customer tokens from admin tokens, so
// one can never be used as the other.
import { errors, jwtVerify, SignJWT } from 'jose'

export type Audience = 'customer' | 'admin'

export interface TokenSigner {
  sign(claims: Record<string, string>, subject: string, audience: Audience, ttlSeconds: number, now: Date): Promise<string>
  verify(token: string, audience: Audience, now: Date): Promise<Record<string, unknown> | null>
}

export function createTokenSigner(secret: string): TokenSigner {
  const key = new TextEncoder().encode(secret)
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
        .sign(key)
    },
    async verify(token, audience, now) {
      try {
        const { payload } = await jwtVerify(token, key, {
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
