// /admin/orders (admin bearer, role SUPPORT or ADMIN): list and search every partner's orders,
// view one with all its payments and its GST documents. Moving it along the order machine and
// cancelling some of its units are the order-moves flow's routes (src/flows/order-moves/admin-routes.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import type { Guards } from '../../http/guards.ts'
import { backOfficeScope } from '../../lib/scope.ts'
import type { OrderAdminService } from './admin-service.ts'
import { invoiceResponses, invoiceRouteSchema, sendDocuments } from './invoices.ts'
import { PageQuery, security } from '../../http/schemas.ts'
import { AdminOrder, OrderStatusSchema, OrderSummary } from './schemas.ts'

export const orderAdminRoutes: FastifyPluginAsyncTypebox<{ admin: OrderAdminService; guards: Guards }> = async (app, { admin, guards }) => {
  const common = { preValidation: guards.admin('SUPPORT') }
  const tags = ['Admin: orders']
  const Params = Type.Object({ orderId: Type.String({ maxLength: 100 }) })

  app.get(
    '/admin/orders',
    {
      ...common,
      schema: {
        operationId: 'adminListOrders',
        tags,
        security: security.admin,
        summary: "Every partner's orders, newest first; search by order number, order id or phone",
        querystring: Type.Object({
          ...PageQuery,
          partnerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          status: Type.Optional(OrderStatusSchema),
          search: Type.Optional(
            Type.String({ minLength: 1, maxLength: 100, description: 'A mobile (as written: `+91 98765 43210`, `09876543210`), an order id (`ord_…`) or part of an order number' }),
          ),
        }),
        response: { 200: PagedEnvelope(OrderSummary), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, limit, partnerId, status, search } = request.query
      const result = await admin.list(backOfficeScope(partnerId), { status, search }, { page, limit })
      return paged(result.data, result.meta, 'Orders retrieved')
    },
  )

  app.get(
    '/admin/orders/stats',
    {
      ...common,
      schema: {
        operationId: 'adminGetOrderStats',
        tags,
        security: security.admin,
        summary: "The dashboard's order figures: orders and GMV per day (India's calendar) and orders by status",
        description:
          'GMV of a day: the total (totalAmount) of the orders placed that day that are neither CANCELLED nor PENDING_PAYMENT. Every day of the range is listed, oldest first, today last; a day without orders has zeros.',
        querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 90, default: 14 }) }),
        response: {
          200: Envelope(
            Type.Object({
              days: Type.Array(Type.Object({ date: Type.String({ format: 'date' }), orders: Type.Integer(), gmv: Type.String({ description: 'Rupees, "1299.00"' }) })),
              byStatus: Type.Array(Type.Object({ status: OrderStatusSchema, count: Type.Integer() })),
            }),
          ),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => ok(await admin.stats(request.query.days), 'Order statistics retrieved'),
  )

  app.get(
    '/admin/orders/:orderId',
    {
      ...common,
      schema: { operationId: 'adminGetOrder', tags, security: security.admin, summary: 'One order with its history, every payment and refunds', params: Params, response: { 200: Envelope(AdminOrder), ...errorResponses(401, 403, 404) } },
    },
    async (request) => ok(await admin.view(request.params.orderId), 'Order retrieved'),
  )

  app.get(
    '/admin/orders/:orderId/invoice',
    { ...common, schema: { operationId: 'adminGetOrderInvoice', tags, security: security.admin, summary: "The order's tax invoice and credit notes, as JSON or PDF", params: Params, ...invoiceRouteSchema, response: invoiceResponses(400, 401, 403, 404) } },
    async (request, reply) => {
      const { order, documents } = await admin.documents(request.params.orderId)
      return sendDocuments(request, reply, order, documents)
    },
  )
}
