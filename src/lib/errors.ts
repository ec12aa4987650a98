// Errors are types: services throw AppError with a code; src/http/error-handler.ts alone maps codes
// to HTTP statuses and writes the error body. Services never know about HTTP.
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'BUSINESS_RULE'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'

export class AppError extends Error {
  readonly code: ErrorCode
  /** One line per problem (a bulk import's bad rows): sent as the error body's message array. */
  readonly details?: string[]

  constructor(code: ErrorCode, message: string, details?: string[]) {
    super(message)
    this.code = code
    this.details = details
    this.name = 'AppError'
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`)

/** The SQLSTATE and constraint of a database error; Drizzle wraps driver errors, so they sit on the error or on its cause. */
export function databaseErrorOf(error: unknown): { code?: string; constraint?: string } {
  for (let e = error as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined, i = 0; e && i < 3; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return { code: e.code, constraint: typeof e.constraint === 'string' ? e.constraint : undefined }
  }
  return {}
}

/** A unique violation of the named constraint (or index). */
export const isUniqueViolation = (error: unknown, constraint: string) => {
  const e = databaseErrorOf(error)
  return e.code === '23505' && e.constraint === constraint
}

/**
 * The database is unreachable, restarting or out of connections: a request answers 503 at
 * once rather than 500, so clients retry; a background job leaves the work for its next run. 53300 (too_many_connections) is PostgreSQL refusing a new pooled connection
 * because max_connections is used up, by this pool, other instances or anyone else (FT-10).
 */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '53300', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006'])

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown; message?: unknown } | undefined, i = 0; e && i < 3; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true
    if (typeof e.message === 'string' && /Connection terminated|timeout exceeded when trying to connect|is not queryable/.test(e.message)) return true
  }
  return false
}
