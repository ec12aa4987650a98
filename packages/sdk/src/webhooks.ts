// Verifying a partner event (docs/webhooks.md): `x-commerce-signature: t=<unix seconds>,v1=<hex>`,
// the HMAC-SHA256 of `<t>.<raw body>` with the webhook secret; during a secret rotation a second
// `v1` signed with the previous secret. Web Crypto only, so it runs in Node 20+, browsers and edge
// runtimes; `crypto.subtle.verify` compares in constant time.
import type { webhooks } from './openapi.ts'

export const SIGNATURE_HEADER = 'x-commerce-signature'
export const EVENT_ID_HEADER = 'x-commerce-event-id'
export const EVENT_TYPE_HEADER = 'x-commerce-event-type'

/** The type of every partner event (and the ping), as the OpenAPI document's webhooks name them. */
export type WebhookEventType = keyof webhooks & string
/** The body of one event type: `{id, type, createdAt, data}`. */
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = T extends WebhookEventType
  ? NonNullable<webhooks[T]['post']['requestBody']>['content']['application/json']
  : never

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>

export interface VerifyOptions {
  /** How far the signature's timestamp may be from now, in seconds. Default 300, as the server's own check. */
  toleranceSeconds?: number
  /** The current time in milliseconds (tests); default Date.now(). */
  now?: number
}

/** Why an event was refused: answer it 400 (the server retries it) and do not act on it. */
export class WebhookVerificationError extends Error {
  constructor(
    message: string,
    readonly reason: 'missing-signature' | 'malformed-signature' | 'timestamp-out-of-tolerance' | 'signature-mismatch' | 'malformed-body',
  ) {
    super(message)
    this.name = 'WebhookVerificationError'
  }
}

const SIGNATURE = /^t=(\d{1,12})((?:,v1=[0-9a-f]{64}){1,4})$/
const encoder = new TextEncoder()

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined
  const record = headers as Record<string, string | string[] | undefined>
  const key = Object.keys(record).find((k) => k.toLowerCase() === name)
  const value = key === undefined ? undefined : record[key]
  return Array.isArray(value) ? value[0] : value
}

const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16))

/**
 * Checks a delivery and answers its parsed event. `rawBody` is the exact bytes received (never a
 * re-serialized parse); `secret` is the webhook secret, or several (yours during your own rotation).
 * Throws WebhookVerificationError when the signature is missing, malformed, too old or too new, or
 * matches none of the secrets.
 */
export async function verifyWebhook<T extends WebhookEventType = WebhookEventType>(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string | string[],
  options: VerifyOptions = {},
): Promise<WebhookEvent<T>> {
  const header = headerOf(headers, SIGNATURE_HEADER)
  if (!header) throw new WebhookVerificationError(`The ${SIGNATURE_HEADER} header is missing`, 'missing-signature')
  const match = SIGNATURE.exec(header.trim())
  if (!match) throw new WebhookVerificationError(`The ${SIGNATURE_HEADER} header is not t=<seconds>,v1=<hex>`, 'malformed-signature')
  const timestamp = Number(match[1])
  const nowSeconds = (options.now ?? Date.now()) / 1000
  if (Math.abs(nowSeconds - timestamp) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('The signature is outside the timestamp tolerance (replayed, or a clock is off)', 'timestamp-out-of-tolerance')
  }
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody instanceof Uint8Array ? rawBody : new Uint8Array(rawBody)
  const prefix = encoder.encode(`${timestamp}.`)
  const signed = new Uint8Array(prefix.length + body.length)
  signed.set(prefix)
  signed.set(body, prefix.length)
  const signatures = match[2]!.split(',v1=').slice(1).map(hexBytes)
  let verified = false
  for (const s of [secret].flat()) {
    const key = await crypto.subtle.importKey('raw', encoder.encode(s), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])
    for (const signature of signatures) if (await crypto.subtle.verify('HMAC', key, signature, signed)) verified = true
  }
  if (!verified) throw new WebhookVerificationError('No v1 signature matches the secret', 'signature-mismatch')
  try {
    return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent<T>
  } catch {
    throw new WebhookVerificationError('The body is not JSON', 'malformed-body')
  }
}
