// The signature partners verify: `x-commerce-signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over
// `<t>.<raw body>` with the partner's webhook secret. docs/webhooks.md shows the check in full.
import { createHmac } from 'node:crypto'
import { safeEqual } from '../../lib/hashing.ts'

export const SIGNATURE_HEADER = 'x-commerce-signature'
export const EVENT_ID_HEADER = 'x-commerce-event-id'
export const EVENT_TYPE_HEADER = 'x-commerce-event-type'

const hmac = (secret: string, timestamp: number, body: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')

/**
 * The header for one delivery: one `v1` per secret, the current one first. While a rotation's
 * overlap lasts there are two (the new and the previous secret), so a receiver that still holds
 * the previous secret keeps accepting events until it deploys the new one.
 */
export function signPayload(secrets: string | string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...[secrets].flat().map((s) => `v1=${hmac(s, timestamp, body)}`)].join(',')
}

/** What a receiver does: true when one `v1` of the header signs this exact body and it is at most `toleranceSeconds` old. */
export function verifySignature(secret: string, header: string, body: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const match = /^t=(\d+)((?:,v1=[0-9a-f]{64}){1,4})$/.exec(header)
  if (!match) return false
  const timestamp = Number(match[1])
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false
  const expected = hmac(secret, timestamp, body)
  return match[2]!.split(',v1=').slice(1).some((v) => safeEqual(v, expected))
}
