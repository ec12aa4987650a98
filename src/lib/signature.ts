// Timestamped HMAC signatures of a raw body: `t=<unix seconds>,v1=<hex HMAC-SHA256>` over
// `<t>.<raw body>`, one `v1` per secret while a secret is rotated. Partner events are signed this way
// (docs/webhooks.md), and so are the sandbox carrier's tracking callbacks.
import { createHmac } from 'node:crypto'
import { safeEqual } from './hashing.ts'

const hmac = (secret: string, timestamp: number, body: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')

/** The header for one body: one `v1` per secret, the current one first. */
export function signPayload(secrets: string | string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...[secrets].flat().map((s) => `v1=${hmac(s, timestamp, body)}`)].join(',')
}

/** True when one `v1` of the header signs this exact body and it is at most `toleranceSeconds` old. */
export function verifySignature(secret: string, header: string, body: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const match = /^t=(\d+)((?:,v1=[0-9a-f]{64}){1,4})$/.exec(header)
  if (!match) return false
  const timestamp = Number(match[1])
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false
  const expected = hmac(secret, timestamp, body)
  return match[2]!.split(',v1=').slice(1).some((v) => safeEqual(v, expected))
}
