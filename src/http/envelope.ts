// The success envelope of commerce-api.md: {statusCode, message, data, meta?}, and the error body.
import { type TSchema, Type } from 'typebox'
import type { PageMeta } from '../lib/pagination.ts'

export const ErrorBody = Type.Object(
  {
    statusCode: Type.Integer(),
    message: Type.Union([Type.String(), Type.Array(Type.String())]),
    error: Type.String(),
    timestamp: Type.String({ format: 'date-time' }),
    path: Type.String(),
  },
  { title: 'Error body' },
)

const PageMetaSchema = Type.Object({
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
  totalPages: Type.Integer(),
})

export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({ statusCode: Type.Integer(), message: Type.String(), data })

export const PagedEnvelope = <T extends TSchema>(item: T) =>
  Type.Object({
    statusCode: Type.Integer(),
    message: Type.String(),
    data: Type.Array(item),
    meta: PageMetaSchema,
  })

/** A paginated answer whose data is an object (for example balances plus a page of entries). */
export const PagedObjectEnvelope = <T extends TSchema>(data: T) =>
  Type.Object({ statusCode: Type.Integer(), message: Type.String(), data, meta: PageMetaSchema })

export function ok<T>(data: T, message: string, statusCode = 200) {
  return { statusCode, message, data }
}

export function paged<T>(data: T[], meta: PageMeta, message: string) {
  return { statusCode: 200, message, data, meta }
}

/** The error responses a route can give, referenced by every route's schema for the OpenAPI document. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody]))
}
