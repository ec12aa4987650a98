// GET /admin/audit-log: who changed what in the back office, with the values before and after.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Executor } from '../../db/client.ts'
import { errorResponses, PagedEnvelope, paged } from '../../http/envelope.ts'
import type { Guards } from '../../http/guards.ts'
import { Nullable, PageQuery, security, Time } from '../../http/schemas.ts'
import { AppError } from '../../lib/errors.ts'
import { listAuditEntries } from './audit-log.ts'
import { OBJECT_TYPES } from './schema.sql.ts'


const Values = Nullable(
  Type.Record(Type.String(), Type.Unknown(), {
    description:
      'Field name (as the API spells it) to value, as stored: amounts in paise, times in ISO 8601. On a change only the fields that changed; secrets, hashes and search indexes never appear',
    examples: [{ status: 'CONFIRMED' }],
  }),
)

export const AuditEntry = Type.Object(
  {
    id: Type.Integer({ description: 'The entry, in the order entries were written' }),
    at: Time,
    actorId: Type.String({ description: 'The back-office account that made the change', examples: ['adm_01j9...'] }),
    actorEmail: Type.String({ description: "Its e-mail at the time" }),
    action: Type.String({ description: 'The operation of the request that made it (its operationId)', examples: ['adminUpdateOrderStatus'] }),
    requestId: Type.String({ description: "The request's x-request-id: every entry of one request has the same" }),
    objectType: Type.Enum([...OBJECT_TYPES], { description: 'The kind of record changed' }),
    objectId: Type.String({ description: 'Its id (a COD-blocked pincode: the pincode; pricing, COD rules: the partner; a zone rule: the zone; a GST seller: the catalog)' }),
    relatedId: Nullable(Type.String({ description: "The record it belongs to: an order line's, parcel's, return's, refund's or ticket's order; a ledger entry's customer; a product's or category's catalog; a ticket message's ticket" })),
    operation: Type.Enum(['INSERT', 'UPDATE', 'DELETE']),
    before: Values,
    after: Values,
  },
  { description: 'One record changed by one back-office request' },
)

export const auditRoutes: FastifyPluginAsyncTypebox<{ db: Executor; guards: Guards }> = async (app, { db, guards }) => {
  app.get(
    '/admin/audit-log',
    {
      preValidation: guards.admin('SUPPORT'),
      schema: {
        operationId: 'adminListAuditLog',
        tags: ['Admin: audit log'],
        security: security.admin,
        summary: 'Who changed what in the back office, newest first',
        description:
          'Every back-office write (a price, a stock count, an order moved, a refund approved, a customer blocked, a coupon, a zone, an account...) records each record it changed, ' +
          'with the fields before and after, in the transaction that made the change: a change is never kept without its entry. ' +
          "`object` gives a record's history: its own entries and those of the records under it (an order's lines, parcels, returns, refunds and tickets; a customer's ledger entries). ADMIN and SUPPORT.",
        querystring: Type.Object({
          object: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "A record's id: its entries and those of the records under it", examples: ['ord_01j9...'] })),
          objectType: Type.Optional(Type.Enum([...OBJECT_TYPES])),
          actorId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Changes made by this back-office account' })),
          action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z]+$', description: 'Changes made by this operation', examples: ['adminUpdateProduct'] })),
          from: Type.Optional(Type.String({ format: 'date-time', description: 'Entries at or after this time' })),
          to: Type.Optional(Type.String({ format: 'date-time', description: 'Entries before this time' })),
          ...PageQuery,
        }),
        response: { 200: PagedEnvelope(AuditEntry), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, limit, from, to, object, objectType, actorId, action } = request.query
      const fromDate = from ? new Date(from) : undefined
      const toDate = to ? new Date(to) : undefined
      if (fromDate && toDate && fromDate >= toDate) throw new AppError('BAD_REQUEST', 'from must be before to')
      const result = await listAuditEntries(db, { object, objectType, actorId, action, from: fromDate, to: toDate }, { page, limit })
      return paged(result.data, result.meta, 'Audit log retrieved')
    },
  )
}
