// /admin/orders (admin bearer, role SUPPORT or ADMIN): list and search every partner's orders,
// view one with all its payments, move it along the order machine (409 for a move it does not allow).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import { adminOf, type Guards } from '../../http/guards.ts'
import { backOfficeScope } from '../../lib/scope.ts'
import type { OrderAdminService } from './admin-service.ts'
import { invoiceResponses, invoiceRouteSchema, sendDocuments } from './invoices.ts'
import { PageQuery, security } from '../../http/schemas.ts'
import { CancelItemsBody, Order, OrderStatusSchema, OrderSummary, Payment } from './schemas.ts'

export const orderAdminRoutes: FastifyPluginAsyncTypebox<{ admin: OrderAdminService; guards: Guards }> = async (app, { admin, guards }) => {
  const common = { preValidation: guards.admin('SUPPORT') }
  const tags = ['Admin: orders']
  const AdminOrder = Type.Object({
    ...Order.properties,
    payments: Type.Array(Payment),
    nextStatuses: Type.Array(OrderStatusSchema, {
      description:
        'The statuses the order machine allows from this one, less SHIPPED, OUT_FOR_DELIVERY and DELIVERED while units are in no parcel (POST /admin/orders/{id}/status may still refuse one with 409, e.g. while a parcel is booked)',
      examples: [['PACKED', 'CANCELLED']],
    }),
    unparcelled: Type.Array(Type.Object({ orderItemId: Type.String(), quantity: Type.Integer({ minimum: 1 }) }), {
      description: 'Units of each line neither cancelled nor in a forward parcel: what a parcel may still be booked for (lines with none left out)',
    }),
  })
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

  app.post(
    '/admin/orders/:orderId/cancel-items',
    {
      ...common,
      schema: {
        operationId: 'adminCancelOrderItems',
        tags,
        security: security.admin,
        summary: 'Cancel some units of a CONFIRMED or PACKED order: stock, Wallet Cash, Reward Points and payment share go back; all that is left: the whole order',
        description: 'The rules of POST /orders/{orderId}/cancel-items (docs/orders.md, "Partial cancellation").',
        params: Params,
        body: CancelItemsBody,
        response: { 200: Envelope(AdminOrder), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ok(await admin.cancelItems(adminOf(request).adminId, request.params.orderId, request.body), 'Order items cancelled'),
  )

  app.post(
    '/admin/orders/:orderId/status',
    {
      ...common,
      schema: {
        operationId: 'adminUpdateOrderStatus',
        tags,
        security: security.admin,
        summary: 'Move an order along the machine; CANCELLED releases and refunds, DELIVERED collects COD and earns Reward Points, RTO (returned to origin) gives back what a cancellation does',
        params: Params,
        body: Type.Object({ status: OrderStatusSchema, note: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) }),
        response: { 200: Envelope(AdminOrder), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ok(await admin.setStatus(adminOf(request).adminId, request.params.orderId, request.body.status, request.body.note), 'Order status changed'),
  )
}
