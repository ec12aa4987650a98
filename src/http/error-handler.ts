// The one place where errors become HTTP: AppError codes, validation failures, Fastify's own errors
// (bad JSON, wrong content type, body too large), errors the router raises before any hook runs,
// requests Node's HTTP parser rejects (URL or headers too large, malformed) and PostgreSQL errors
// all leave as the error body of commerce-api.md, with the security headers of every answer.
// Anything unexpected is logged and answered 500 without details.
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, databaseErrorOf, type ErrorCode, isDatabaseUnavailable } from '../lib/errors.ts'
import { SECURITY_HEADERS } from './security-headers.ts'
import { validationMessages } from './validation.ts'

const STATUS_OF: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  BUSINESS_RULE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
}

/** PostgreSQL SQLSTATEs that mean the request, not the service, was wrong (or must be retried). */
const PG_ERRORS: Record<string, [number, string]> = {
  '23505': [409, 'Resource already exists'],
  '23503': [400, 'A referenced resource does not exist'],
  '23514': [409, 'The change conflicts with the current state'],
  '40001': [409, 'Concurrent update, please retry'],
  '40P01': [409, 'Concurrent update, please retry'],
  '22P02': [400, 'Invalid identifier or value'],
  '22003': [400, 'Number out of range'],
  '22021': [400, 'Text must not contain NUL characters'],
  '22P05': [400, 'Text must not contain NUL characters'],
  // lock_timeout (src/db/client.ts) or a cancelled statement: the data is busy, not wrong.
  '55P03': [503, 'Service temporarily unavailable, please retry'],
  '57014': [503, 'Service temporarily unavailable, please retry'],
}

export interface ErrorBody {
  statusCode: number
  message: string | string[]
  error: string
  timestamp: string
  path: string
}

export function errorBody(request: FastifyRequest, statusCode: number, message: string | string[]): ErrorBody {
  return errorBodyAt(request.url.split('?')[0]!, statusCode, message)
}

function errorBodyAt(path: string, statusCode: number, message: string | string[]): ErrorBody {
  return { statusCode, message, error: STATUS_CODES[statusCode] ?? 'Error', timestamp: new Date().toISOString(), path }
}


const pgCode = (error: unknown) => databaseErrorOf(error).code

/**
 * What a route takes: JSON, or the content types its schema's `documentedBody` lists (an upload's
 * image, a catalog's CSV), as the OpenAPI document says (openapi.ts).
 */
function acceptedTypes(request: FastifyRequest | undefined): string {
  const documented = (request?.routeOptions.schema as { documentedBody?: Record<string, unknown> } | undefined)?.documentedBody
  return documented ? Object.keys(documented).join(', ') : 'application/json'
}

function classify(error: FastifyError | AppError | Error, request?: FastifyRequest): [number, string | string[]] | null {
  if (error instanceof AppError) return [STATUS_OF[error.code], error.details?.length ? error.details : error.message]
  const fe = error as FastifyError
  if (fe.validation) {
    const part = fe.validationContext ?? 'body'
    const messages = validationMessages(fe.validation as never, part)
    // A request header answers one sentence, as the guards word theirs ("x-partner-id header is required").
    return [400, part === 'headers' ? (messages[0] ?? 'A request header is invalid') : messages]
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return [415, `Unsupported content type: send ${acceptedTypes(request)}`]
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return [413, 'Request body is too large']
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return [400, 'Request body must not be empty when content-type is application/json']
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return [400, 'Request body is not valid JSON']
  }
  if (error instanceof SyntaxError && fe.statusCode === 400) return [400, 'Request body is not valid JSON']
  if (isDatabaseUnavailable(error)) return [503, 'Service temporarily unavailable, please retry']
  const pg = pgCode(error)
  if (pg && PG_ERRORS[pg]) return PG_ERRORS[pg]
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return [fe.statusCode, fe.message]
  }
  return null
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = classify(error, request)
    if (!known) {
      request.log.error({ err: error }, 'unhandled error')
      return reply.status(500).send(errorBody(request, 500, 'Internal server error'))
    }
    const [status, message] = known
    if (status >= 500) request.log.warn({ err: error }, 'service unavailable')
    // The pool's wait (3 s) ran out or the database is restarting: a client may try again shortly.
    if (status === 503) reply.header('retry-after', '1')
    return reply.status(status).send(errorBody(request, status, message))
  })
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(errorBody(request, 404, `Cannot ${request.method} ${request.url.split('?')[0]}`))
  })
}

/**
 * Errors Fastify raises before routing (a malformed percent-encoding in the URL, a path parameter
 * over the length limit): the same error body as everything else. No onRequest hook runs for
 * them, helmet's included, so the security headers are set here.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400
  const message =
    error.code === 'FST_ERR_BAD_URL' ? 'The URL is not valid: check its percent-encoding' : status === 414 ? 'A path segment of the URL is too long' : error.message
  void reply.status(status).headers(SECURITY_HEADERS).send(errorBody(request, status, message))
}

/** The longest request path echoed in a parser error's body: the rest of a 16 kB URL is noise. */
const MAX_ECHOED_PATH = 2048

/**
 * Requests Node's HTTP parser rejects before Fastify sees them: a URL or headers over the 16 kB
 * limit (431), a request that took too long to arrive (408), anything malformed (400). There is no
 * request object, so the answer is written on the socket: the error body, with the path read from
 * the request line when there is one, and the security headers; then the connection is closed.
 */
export const clientErrorHandler = (log: FastifyBaseLogger) => (error: Error & { code?: string }, socket: Socket) => {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request URL or headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive']
        : [400, 'The request is not valid HTTP']
  log.debug({ err: { code: error.code, message: error.message } }, 'client error')
  if (!socket.writable) return void socket.destroy()
  // What the parser had read: a Buffer (Fastify's types describe it as JSON).
  const raw = (error as { rawPacket?: unknown }).rawPacket
  const requestLine = /^[A-Z]+ (\/[^ ?#\r\n]*)/.exec(Buffer.isBuffer(raw) ? raw.subarray(0, MAX_ECHOED_PATH + 64).toString('latin1') : '')
  const body = JSON.stringify(errorBodyAt(requestLine ? requestLine[1]!.slice(0, MAX_ECHOED_PATH) : '', status, message))
  const headers = { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), connection: 'close' }
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`, () => socket.destroy())
}
