// Reading the customer's orders: the list, one order, its invoice (customer token and x-partner-id).
// Placing one (POST /orders) is the placement flow's.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import { customerOf, type Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { PageQuery, security } from '../../http/schemas.ts'
import { invoiceResponses, invoiceRouteSchema, sendDocuments } from './invoices.ts'
import { tags } from './route-shared.ts'
import { Order, OrderParams, OrderStatusSchema, OrderSummary } from './schemas.ts'
import type { OrderService } from './service.ts'

export function orderReadRoutes(app: RouteApp, { orders, guards }: { orders: OrderService; guards: Guards }): void {
  const common = { preValidation: guards.customerOfPartner }

  app.get(
    '/orders',
    {
      ...common,
      schema: {
        operationId: 'listOrders',
        tags,
        summary: "The customer's orders, newest first",
        security: security.customer,
        querystring: Type.Object({
          ...PageQuery,
          status: Type.Optional(OrderStatusSchema),
        }),
        response: { 200: PagedEnvelope(OrderSummary), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { page, limit, status } = request.query
      const result = await orders.listOrders(customerOf(request), { page, limit, status })
      return paged(result.data, result.meta, 'Orders retrieved')
    },
  )

  app.get(
    '/orders/:orderId',
    {
      ...common,
      schema: {
        operationId: 'getOrder',
        tags,
        summary: 'One order with its items, amounts, status history, current payment and refunds',
        security: security.customer,
        params: OrderParams,
        response: { 200: Envelope(Order), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ok(await orders.getOrder(customerOf(request), request.params.orderId), 'Order retrieved'),
  )

  app.get(
    '/orders/:orderId/invoice',
    {
      ...common,
      schema: { operationId: 'getOrderInvoice', tags, summary: "The order's tax invoice and credit notes, as JSON or PDF", security: security.customer, params: OrderParams, ...invoiceRouteSchema, response: invoiceResponses(400, 401, 404) },
    },
    async (request, reply) => {
      const { order, documents } = await orders.documents(customerOf(request), request.params.orderId)
      return sendDocuments(request, reply, order, documents)
    },
  )
}
