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
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** One line per problem (a bulk import's bad rows): sent as the error body's message array. */
    readonly details?: string[],
  ) {
    super(message)
    this.name = 'AppError'
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`)
