// The signature partners verify: `x-commerce-signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over
// `<t>.<raw body>` with the partner's webhook secret. docs/webhooks.md shows the check in full.
import { createHmac } from 'node:crypto'
import { safeEqual } from '../../lib/hashing.ts'

export const SIGNATURE_HEADER = 'x-commerce-signature'
export const EVENT_ID_HEADER = 'x-commerce-event-id'
export const EVENT_TYPE_HEADER = 'x-commerce-event-type'

export function signPayload(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`
}

/** What a receiver does: true when the header signs this exact body and is at most `toleranceSeconds` old. */
export function verifySignature(secret: string, header: string, body: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header)
  if (!match) return false
  const timestamp = Number(match[1])
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false
  return safeEqual(signPayload(secret, timestamp, body), header)
}
