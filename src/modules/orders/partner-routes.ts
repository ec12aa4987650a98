// /partner/orders (x-partner-id + x-partner-secret): a partner's own server syncs and reads its
// orders. Another partner's order is 404, as for customers.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { type Guards, partnerOf } from '../../http/guards.ts'
import type { OrderAdminService } from './admin-service.ts'
import { invoiceResponses, invoiceRouteSchema, sendDocuments } from './invoices.ts'
import { Limit, security } from '../../http/schemas.ts'
import { Order, OrderPaymentStatusSchema, OrderStatusSchema, Payment, SyncedOrder } from './schemas.ts'

export const orderPartnerRoutes: FastifyPluginAsyncTypebox<{ admin: OrderAdminService; guards: Guards }> = async (app, { admin, guards }) => {
  const common = { preValidation: guards.partner }
  const tags = ['Partner server: orders']

  app.get(
    '/partner/orders',
    {
      ...common,
      schema: {
        operationId: 'partnerListOrders',
        tags,
        security: security.partner,
        summary: "Sync the partner's orders: in the order they were last written, from a cursor",
        description:
          'Call without `cursor` for the first page, then with `meta.nextCursor` until `meta.hasMore` is false; keep the last cursor and poll with it later: ' +
          'every order written since comes back (again, if it changed). Under concurrent writes no order is skipped: an order appears only once the transactions before it have ended.',
        querystring: Type.Object({
          cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'meta.nextCursor of the previous page' })),
          limit: Limit(200, 50),
          status: Type.Optional(OrderStatusSchema),
          paymentStatus: Type.Optional(OrderPaymentStatusSchema),
          customerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A customer (user) ID' })),
          orderNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
          createdFrom: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after' })),
          createdTo: Type.Optional(Type.String({ format: 'date-time', description: 'Created before' })),
          updatedAfter: Type.Optional(Type.String({ format: 'date-time', description: 'Last written at or after (a first sync that needs only recent orders)' })),
        }),
        response: {
          200: Type.Object({
            statusCode: Type.Integer(),
            message: Type.String(),
            data: Type.Array(SyncedOrder),
            meta: Type.Object({ nextCursor: Type.Union([Type.String(), Type.Null()]), hasMore: Type.Boolean() }),
          }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const { cursor, limit, status, paymentStatus, customerId, orderNumber, createdFrom, createdTo, updatedAfter } = request.query
      const date = (v: string | undefined) => (v === undefined ? undefined : new Date(v))
      const filter = { status, paymentStatus, userId: customerId, orderNumber, createdFrom: date(createdFrom), createdTo: date(createdTo), updatedAfter: date(updatedAfter) }
      const result = await admin.sync(partnerOf(request), filter, cursor, limit)
      return { statusCode: 200, message: 'Orders retrieved', ...result }
    },
  )

  app.get(
    '/partner/orders/:orderId',
    {
      ...common,
      schema: {
        operationId: 'partnerGetOrder',
        tags,
        security: security.partner,
        summary: 'One order of the partner with its history, every payment and refunds',
        params: Type.Object({ orderId: Type.String({ maxLength: 100 }) }),
        response: { 200: Envelope(Type.Object({ ...Order.properties, payments: Type.Array(Payment) })), ...errorResponses(401, 404) },
      },
    },
    async (request) => ok(await admin.viewIn(partnerOf(request), request.params.orderId), 'Order retrieved'),
  )

  app.get(
    '/partner/orders/:orderId/invoice',
    {
      ...common,
      schema: { operationId: 'partnerGetOrderInvoice', tags, security: security.partner, summary: "The tax invoice and credit notes of one of the partner's orders, as JSON or PDF", params: Type.Object({ orderId: Type.String({ maxLength: 100 }) }), ...invoiceRouteSchema, response: invoiceResponses(400, 401, 404) },
    },
    async (request, reply) => {
      const { order, documents } = await admin.documents(request.params.orderId, partnerOf(request))
      return sendDocuments(request, reply, order, documents)
    },
  )
}
