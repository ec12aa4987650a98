// POST /orders (customer token and x-partner-id), once per x-idempotency-key: the placement flow's
// route, in the Orders tag.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Envelope, errorResponses } from '../../http/envelope.ts'
import { customerOf, type Guards } from '../../http/guards.ts'
import { security } from '../../http/schemas.ts'
import { CreatedOrder, CreateOrderBody, IdempotencyHeaders, idempotencyKeyOf, keyedAnswer, orderTags as tags } from '../../modules/orders/index.ts'
import type { OrderPlacement } from './placement.ts'

export const orderPlacementRoutes: FastifyPluginAsyncTypebox<{ placement: OrderPlacement; guards: Guards }> = async (app, { placement, guards }) => {
  app.post(
    '/orders',
    {
      preValidation: guards.customerOfPartner,
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
      return keyedAnswer(reply, await placement.createOrder(customerOf(request), request.body, key), 'Order created')
    },
  )
}
