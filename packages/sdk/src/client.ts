// A small client for commerce-api on fetch (openapi-fetch over the generated types): credentials on
// every call, the customer's access token refreshed when it expires, an idempotency key per order
// attempt reused across its retries, retries with backoff for idempotent calls, typed errors, and
// pages as async iterators. No Node-only import: it runs in Node 20+, browsers and edge runtimes.
import createClient, { type Client, type Middleware } from 'openapi-fetch'
import { CommerceApiError, CommerceNetworkError, retryAfterSeconds, type ErrorBody } from './errors.ts'
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_OPERATIONS } from './operations.ts'
import type { paths } from './openapi.ts'

export const API_PREFIX = '/api/v1'

/** A customer's token pair (POST /auth/customer-token or /auth/refresh). */
export interface CustomerTokens {
  accessToken: string
  refreshToken: string
}

export interface RetryOptions {
  /** Retries after the first attempt. Default 3. */
  retries?: number
  /** The first backoff, doubled each retry, with jitter. Default 200 ms. */
  baseDelayMs?: number
  /** The longest backoff, and the longest Retry-After honoured (longer: the answer is returned). Default 10 s. */
  maxDelayMs?: number
}

export interface CommerceClientOptions {
  /** The API's address: the document's server, PUBLIC_BASE_URL (no /api/v1). */
  baseUrl: string
  /** The partner's API key (catalog, search, checkout calls): `x-api-key`. */
  apiKey?: string
  /** The partner id: sent with customer calls (`x-partner-id`). */
  partnerId?: string
  /** The partner's secret: server side only, for the token exchange and /partner/ calls. Never ship it to a browser. */
  partnerSecret?: string
  /** A customer's tokens, when the client acts for a customer. */
  tokens?: CustomerTokens
  /** Called with every new token pair (exchange or refresh): persist them. */
  onTokens?: (tokens: CustomerTokens) => void | Promise<void>
  retry?: RetryOptions
  /** The fetch to use; default globalThis.fetch. */
  fetch?: typeof fetch
  /** How to wait between retries; default setTimeout (tests pass their own). */
  sleep?: (ms: number) => Promise<void>
}

/** The methods whose repetition changes nothing: retried on network errors, 429 and 5xx. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'])

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Paths of GET operations that answer a page: `{data: [...], meta: {page, totalPages...}}`. */
export type PagedPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: { content: { 'application/json': { data: unknown[]; meta: { totalPages: number } } } } } } } ? P : never
}[keyof paths]
type PageItem<P extends PagedPath> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': { data: (infer I)[] } } } } } } ? I : never
type PageInit<P extends PagedPath> = paths[P] extends { get: { parameters: infer Params } } ? { params?: Params } : never

export interface CommerceClient extends Client<paths> {
  /** The current customer tokens, as last issued or refreshed. */
  readonly tokens: CustomerTokens | undefined
  setTokens(tokens: CustomerTokens | undefined): void
  /**
   * The partner's server exchanges its credentials and a customer's verified phone for the
   * customer's tokens (POST /auth/customer-token); the client keeps them for the next calls.
   */
  exchangeCustomerToken(body: { phone: string; name?: string; email?: string }): Promise<CustomerTokens & { userId: string }>
  /** Every item of a paged list, page after page. */
  paginate<P extends PagedPath>(path: P, init?: PageInit<P>): AsyncIterableIterator<PageItem<P>>
}

export function createCommerceClient(options: CommerceClientOptions): CommerceClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const sleep = options.sleep ?? defaultSleep
  const retries = options.retry?.retries ?? 3
  const baseDelayMs = options.retry?.baseDelayMs ?? 200
  const maxDelayMs = options.retry?.maxDelayMs ?? 10_000
  let tokens = options.tokens
  let refreshing: Promise<boolean> | null = null

  async function useTokens(next: CustomerTokens) {
    tokens = { accessToken: next.accessToken, refreshToken: next.refreshToken }
    await options.onTokens?.(tokens)
  }

  /** One refresh at a time: concurrent 401s wait for the same one (a refresh token is used once). */
  function refresh(): Promise<boolean> {
    refreshing ??= (async () => {
      const refreshToken = tokens?.refreshToken
      if (!refreshToken) return false
      try {
        const res = await fetchImpl(`${baseUrl}${API_PREFIX}/auth/refresh`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ refreshToken }),
        })
        if (!res.ok) return false
        const body = (await res.json()) as { data: CustomerTokens }
        await useTokens(body.data)
        return true
      } catch {
        return false
      }
    })().finally(() => {
      refreshing = null
    })
    return refreshing
  }

  /** The credentials of a call, from its path: the partner's secret only where it is the credential. */
  function credentialHeaders(pathname: string): Record<string, string> {
    const headers: Record<string, string> = {}
    if (options.apiKey) headers['x-api-key'] = options.apiKey
    if (options.partnerId) headers['x-partner-id'] = options.partnerId
    const partnerServer = pathname.startsWith(`${API_PREFIX}/partner/`) || pathname === `${API_PREFIX}/auth/customer-token`
    if (partnerServer && options.partnerSecret) headers['x-partner-secret'] = options.partnerSecret
    else if (tokens && !pathname.startsWith(`${API_PREFIX}/auth/`)) headers.authorization = `Bearer ${tokens.accessToken}`
    return headers
  }

  const backoff = (attempt: number) => Math.min(maxDelayMs, baseDelayMs * 2 ** attempt) * (0.5 + Math.random() / 2)

  /**
   * Sends one call: its credentials (read again on every attempt, so a refreshed token is used),
   * one refresh and resend on a 401 of a customer call, and retries with backoff. Only idempotent
   * calls are retried (a safe method, or a POST that carries an idempotency key, which the server
   * answers once whatever the number of times it arrives): a network error, 429 (after Retry-After)
   * and 5xx (after Retry-After when given).
   */
  async function send(request: Request): Promise<Response> {
    const body = request.body ? await request.arrayBuffer() : undefined
    const pathname = new URL(request.url).pathname
    const idempotent = IDEMPOTENT_METHODS.has(request.method) || request.headers.has(IDEMPOTENCY_KEY_HEADER)
    let refreshed = false
    for (let attempt = 0; ; attempt++) {
      const headers = new Headers(request.headers)
      for (const [name, value] of Object.entries(credentialHeaders(pathname))) if (!headers.has(name)) headers.set(name, value)
      let response: Response
      try {
        response = await fetchImpl(request.url, { method: request.method, headers, body, signal: request.signal })
      } catch (error) {
        if (request.signal?.aborted || !idempotent || attempt >= retries) {
          throw new CommerceNetworkError(`${request.method} ${pathname}: no answer${idempotent ? ` after ${attempt + 1} attempts` : ''}`, { cause: error })
        }
        await sleep(backoff(attempt))
        continue
      }
      // A customer call refused for its access token: once, resend it with a fresh one (another call
      // may have refreshed it meanwhile; otherwise refresh now). A 401 is answered before any work.
      const sentToken = headers.get('authorization')
      if (response.status === 401 && !refreshed && tokens && sentToken?.startsWith('Bearer ')) {
        refreshed = true
        if (sentToken !== `Bearer ${tokens.accessToken}` || (await refresh())) {
          await response.body?.cancel()
          attempt--
          continue
        }
        return response
      }
      const retryable = response.status === 429 || response.status >= 500
      if (!retryable || !idempotent || attempt >= retries) return response
      const after = retryAfterSeconds(response.headers)
      const delay = after !== null ? after * 1000 : backoff(attempt)
      if (delay > maxDelayMs) return response
      await response.body?.cancel()
      await sleep(delay)
    }
  }

  const client = createClient<paths>({ baseUrl, fetch: send })

  // An idempotency key per call of an operation that takes one (createOrder, initiatePayment…),
  // unless the caller gives its own: made here, above the retries, so every retry of this call
  // sends the same key and a new call (a new attempt to order) a new one.
  const idempotency: Middleware = {
    onRequest({ request, schemaPath }) {
      if (IDEMPOTENT_OPERATIONS.has(`${request.method} ${schemaPath}`) && !request.headers.has(IDEMPOTENCY_KEY_HEADER)) {
        request.headers.set(IDEMPOTENCY_KEY_HEADER, crypto.randomUUID())
      }
      return request
    },
  }
  // Every error status becomes a CommerceApiError with the error body: callers read `data` and
  // catch errors, instead of checking `error` after each call.
  const errors: Middleware = {
    async onResponse({ response }) {
      if (response.ok) return response
      const text = await response.clone().text()
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = null
      }
      const body: ErrorBody =
        parsed && typeof parsed === 'object' && 'statusCode' in parsed
          ? (parsed as ErrorBody)
          : { statusCode: response.status, message: text.slice(0, 500) || response.statusText, error: response.statusText, timestamp: new Date().toISOString(), path: new URL(response.url || baseUrl).pathname }
      throw new CommerceApiError(response.status, body, response.headers)
    },
  }
  client.use(idempotency, errors)

  const extra = {
    get tokens() {
      return tokens
    },
    setTokens(next: CustomerTokens | undefined) {
      tokens = next
    },
    async exchangeCustomerToken(body: { phone: string; name?: string; email?: string }) {
      const { data } = await client.POST('/api/v1/auth/customer-token', { body })
      const pair = data!.data
      await useTokens(pair)
      return { accessToken: pair.accessToken, refreshToken: pair.refreshToken, userId: pair.user.id }
    },
    async *paginate<P extends PagedPath>(path: P, init?: PageInit<P>): AsyncIterableIterator<PageItem<P>> {
      const params = (init?.params ?? {}) as { query?: Record<string, unknown> }
      let page = Number(params.query?.page ?? 1)
      for (;;) {
        const get = client.GET as unknown as (path: string, init: object) => Promise<{ data?: { data: PageItem<P>[]; meta: { totalPages: number } } }>
        const { data } = await get(path, { ...init, params: { ...params, query: { ...params.query, page } } })
        for (const item of data!.data) yield item
        if (data!.data.length === 0 || page >= data!.meta.totalPages) return
        page++
      }
    },
  }
  // defineProperties, not Object.assign: the `tokens` getter must stay a getter.
  return Object.defineProperties(client, Object.getOwnPropertyDescriptors(extra)) as CommerceClient
}
