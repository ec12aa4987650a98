// What the Razorpay adapters share (payments, providers/razorpay.ts; payouts through RazorpayX,
// payouts/razorpayx.ts): one REST call with HTTP Basic auth and a timeout, whose every failure
// becomes a ProviderError that never carries the key secret (4xx answers keep their status: a
// refusal, not an outage), and the webhook signature (HMAC-SHA256 of the raw body, hex, with the
// previous secret accepted during a rotation).
import { createHmac } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { safeEqual } from '../../../lib/hashing.ts'
import { ProviderError, WebhookSignatureError } from './types.ts'

export const RAZORPAY_SIGNATURE_HEADER = 'x-razorpay-signature'
export const RAZORPAY_EVENT_ID_HEADER = 'x-razorpay-event-id'
/** The bound of every Razorpay call (`RAZORPAY_TIMEOUT_MS`; the reliability plan's API10 asks for at most 5 s). */
const DEFAULT_TIMEOUT_MS = 5_000
/** Razorpay error descriptions are quoted in our errors, cut to this length. */
const MAX_DESCRIPTION = 200

export interface RazorpayHttpOptions {
  keyId: string
  keySecret: string
  /** Without a trailing slash, e.g. https://api.razorpay.com */
  apiBase: string
  timeoutMs?: number
  fetch?: typeof fetch
}

export type RazorpayCall = <T>(method: 'GET' | 'POST', path: string, body?: object, extraHeaders?: Record<string, string>) => Promise<T>

/** `label` names the API in errors ("Razorpay", "RazorpayX"). */
export function razorpayHttp(label: string, options: RazorpayHttpOptions): RazorpayCall {
  const fetchImpl = options.fetch ?? fetch
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const basicToken = Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')

  /** Whatever Razorpay or the network said, without our credentials in it. */
  const redact = (text: string) =>
    [options.keySecret, basicToken].reduce((out, secret) => (secret ? out.replaceAll(secret, '[redacted]') : out), text)

  return async function call<T>(method: 'GET' | 'POST', path: string, body?: object, extraHeaders: Record<string, string> = {}): Promise<T> {
    const what = `${label} ${method} ${path.split('?')[0]}`
    let status: number
    let text: string
    try {
      const response = await fetchImpl(`${options.apiBase}${path}`, {
        method,
        headers: {
          authorization: `Basic ${basicToken}`,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...extraHeaders,
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      })
      status = response.status
      text = await response.text()
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError'
      const detail = timedOut ? `timed out after ${timeoutMs} ms` : `could not be reached (${errorText(error)})`
      throw new ProviderError(redact(`${what} ${detail}`))
    }
    if (status < 200 || status > 299) {
      throw new ProviderError(redact(`${what} answered ${status}: ${describeError(text)}`), { status, description: redact(describeError(text, false)) })
    }
    try {
      return JSON.parse(text) as T
    } catch {
      throw new ProviderError(`${what} answered ${status} with a body that is not JSON`)
    }
  }
}

/** Throws WebhookSignatureError unless the body is signed with one of the secrets. */
export function verifyRazorpaySignature(rawBody: Buffer, headers: IncomingHttpHeaders, secrets: (string | null | undefined)[]) {
  const signature = header(headers, RAZORPAY_SIGNATURE_HEADER)
  if (signature === undefined) throw new WebhookSignatureError('Missing signature')
  const matches = secrets.filter((s): s is string => !!s).map((secret) => safeEqual(createHmac('sha256', secret).update(rawBody).digest('hex'), signature))
  if (!matches.includes(true)) throw new WebhookSignatureError('Signature does not match')
}

/** Razorpay takes amounts as JSON numbers. */
export function paise(amount: bigint): number {
  const value = Number(amount)
  if (!Number.isSafeInteger(value) || value <= 0) throw new ProviderError(`Amount ${amount} cannot be sent to Razorpay`)
  return value
}

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** Razorpay answers errors as {error: {code, description}}; `withCode` puts the code in front. */
function describeError(text: string, withCode = true): string {
  let description = text
  try {
    const parsed = JSON.parse(text) as { error?: { code?: string; description?: string } }
    if (parsed?.error?.description) description = [withCode ? parsed.error.code : undefined, parsed.error.description].filter(Boolean).join(': ')
  } catch {
    // Not JSON: quote the start of the text.
  }
  description = description.replace(/\s+/g, ' ').trim()
  if (description === '') return 'no details'
  return description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION)}…` : description
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return `${error.message}${cause}`
}
