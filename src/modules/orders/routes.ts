// /orders: create (idempotent), list, retrieve, cancel; payments of an order (customer token and x-partner-id).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import { customerOf, type Guards } from '../../http/guards.ts'
import { idempotencyKeyOf } from './idempotency.ts'
import { invoiceResponses, invoiceRouteSchema, sendDocuments } from './invoices.ts'
import type { OrderService, StoredAnswer } from './service.ts'
import { PageQuery, security } from '../../http/schemas.ts'
import {
  CancelItemsBody,
  ClientAction,
  CreateOrderBody,
  CreatedOrder,
  IdempotencyHeaders,
  Order,
  OrderParams,
  OrderStatusSchema,
  OrderSummary,
  Payment,
  PrepaidConversionQuote,
  PrepaidConversionStarted,
} from './schemas.ts'

/** A keyed request's answer (x-idempotency-key): a replay says so in `idempotent-replayed`. */
export function answer(reply: FastifyReply, stored: StoredAnswer, message: string) {
  if (stored.replayed) reply.header('idempotent-replayed', 'true')
  reply.status(stored.status)
  // The stored body was built from the same view as a fresh answer; the response schema still serialises it.
  return ok(stored.body as never, message, stored.status)
}

export const orderRoutes: FastifyPluginAsyncTypebox<{ orders: OrderService; guards: Guards }> = async (app, { orders, guards }) => {
  const common = { preValidation: guards.customerOfPartner }
  const tags = ['Orders']

  app.post(
    '/orders',
    {
      ...common,
      schema: {
        operationId: 'createOrder',
        tags,
        summary: 'Create an order (idempotent with x-idempotency-key); reserves stock, coupon, Wallet Cash and Reward Points',
        description:
          '409 when a product is short, the key was used with another payload or is still in progress, or the customer already holds MAX_UNPAID_ORDERS_PER_CUSTOMER (default 5) prepaid orders waiting for payment (docs/orders.md).',
        security: security.customer,
        headers: IdempotencyHeaders,
        body: CreateOrderBody,
        response: { 201: Envelope(CreatedOrder), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const key = idempotencyKeyOf(request.raw.rawHeaders)
      return answer(reply, await orders.createOrder(customerOf(request), request.body, key), 'Order created')
    },
  )

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

  app.post(
    '/orders/:orderId/cancel',
    {
      ...common,
      schema: {
        operationId: 'cancelOrder',
        tags,
        summary: 'Cancel before shipment: stock, coupon, Wallet Cash and Reward Points go back; a captured payment is refunded',
        security: security.customer,
        params: OrderParams,
        body: Type.Object({ reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) }),
        response: { 200: Envelope(Order), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) =>
      ok(await orders.cancel(customerOf(request), request.params.orderId, request.body?.reason ?? 'Cancelled by the customer'), 'Order cancelled'),
  )

  app.post(
    '/orders/:orderId/cancel-items',
    {
      ...common,
      schema: {
        operationId: 'cancelOrderItems',
        tags,
        summary: 'Cancel some units before shipment: their stock, Wallet Cash, Reward Points and payment share go back; all that is left: the whole order',
        description:
          'CONFIRMED or PACKED orders only (409 otherwise; PENDING_PAYMENT: cancel the whole order). 400 for a line of another order or a line listed twice; 409 for more units than remain (ordered - cancelled - in shipments). Shipping, the COD fee and the coupon are kept (docs/orders.md, "Partial cancellation").',
        security: security.customer,
        params: OrderParams,
        body: CancelItemsBody,
        response: { 200: Envelope(Order), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => ok(await orders.cancelItems(customerOf(request), request.params.orderId, request.body), 'Order items cancelled'),
  )

  app.post(
    '/orders/:orderId/payments',
    {
      ...common,
      schema: {
        operationId: 'initiatePayment',
        tags,
        summary: 'Retry or refresh the payment of a PENDING_PAYMENT order inside its reservation period (idempotent)',
        security: security.customer,
        headers: IdempotencyHeaders,
        params: OrderParams,
        response: { 201: Envelope(Type.Object({ payment: Payment, clientAction: ClientAction })), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const key = idempotencyKeyOf(request.raw.rawHeaders)
      return answer(reply, await orders.initiatePayment(customerOf(request), request.params.orderId, key), 'Payment initiated')
    },
  )

  app.get(
    '/orders/:orderId/convert-to-prepaid',
    {
      ...common,
      schema: {
        operationId: 'getPrepaidConversionQuote',
        tags,
        summary: 'Whether a COD order may be paid online instead, and what that saves (the COD fee and any prepaid discount); creates nothing',
        description: 'A CONFIRMED or PACKED cash-on-delivery order with no parcel handed to a carrier and something left to pay is eligible; otherwise `reasons` says why not (docs/orders.md, "COD to prepaid").',
        security: security.customer,
        params: OrderParams,
        response: { 200: Envelope(PrepaidConversionQuote), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ok(await orders.prepaidConversionQuote(customerOf(request), request.params.orderId), 'Prepaid conversion quote'),
  )

  app.post(
    '/orders/:orderId/convert-to-prepaid',
    {
      ...common,
      schema: {
        operationId: 'convertOrderToPrepaid',
        tags,
        summary: 'Pay a COD order online instead (idempotent): a provider session for amountPayable - codFee - prepaid discount',
        description:
          'The order stays cash on delivery until the payment succeeds; then it becomes PREPAID and PAID, its COD fee 0.00 and its prepaidDiscount recorded (event order.converted_to_prepaid). Abandon the payment like any other; calling again opens a new session. ' +
          'A payment that succeeds after the order was shipped, cancelled or converted is refunded. 409 for an order that is not a confirmed, unshipped COD order with something to pay (docs/orders.md, "COD to prepaid").',
        security: security.customer,
        headers: IdempotencyHeaders,
        params: OrderParams,
        response: { 201: Envelope(PrepaidConversionStarted), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const key = idempotencyKeyOf(request.raw.rawHeaders)
      return answer(reply, await orders.convertToPrepaid(customerOf(request), request.params.orderId, key), 'Prepaid payment initiated')
    },
  )

  app.post(
    '/orders/:orderId/payments/:paymentId/abandon',
    {
      ...common,
      schema: {
        operationId: 'abandonPayment',
        tags,
        summary: 'The customer closed the provider checkout: the payment becomes USER_DROPPED; stock stays reserved',
        security: security.customer,
        params: Type.Object({ orderId: Type.String({ maxLength: 100 }), paymentId: Type.String({ maxLength: 100 }) }),
        response: { 200: Envelope(Payment), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) =>
      ok(await orders.abandonPayment(customerOf(request), request.params.orderId, request.params.paymentId), 'Payment abandoned'),
  )
}
