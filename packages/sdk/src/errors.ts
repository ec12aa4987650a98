// The errors the client throws: the API's answer with its error body, or no answer at all.
import type { components } from './openapi.ts'

/** The API's error body (commerce-api.md): the same shape for every error of every operation. */
export type ErrorBody = components['schemas']['ErrorBody']

/** The API answered an error status: `status` and the error `body` it sent. */
export class CommerceApiError extends Error {
  readonly status: number
  readonly body: ErrorBody
  /** Seconds the server asked to wait (429, 503), when it said. */
  readonly retryAfter: number | null
  readonly requestId: string | null

  constructor(status: number, body: ErrorBody, headers?: Headers) {
    super(`${status} ${body.error}: ${[body.message].flat().join('; ')}`)
    this.name = 'CommerceApiError'
    this.status = status
    this.body = body
    this.retryAfter = headers ? retryAfterSeconds(headers) : null
    this.requestId = headers?.get('x-request-id') ?? null
  }

  /** The message(s) of the body, always as a list (a validation failure has one per field). */
  get messages(): string[] {
    return [this.body.message].flat()
  }
}

/** No answer: the connection failed or was cut, after the retries the call was allowed. */
export class CommerceNetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'CommerceNetworkError'
  }
}

/** Retry-After in seconds (a number of seconds or an HTTP date), or null. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | null {
  const value = headers.get('retry-after')
  if (!value) return null
  if (/^\d+$/.test(value.trim())) return Number(value)
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, (at - now) / 1000)
}
