// Cancelling an order before shipment: the whole order, or some of its units (customer token and
// x-partner-id). The order-moves flow's customer routes, in the Orders tag.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { customerOf, type Guards } from '../../http/guards.ts'
import { security } from '../../http/schemas.ts'
import { CancelItemsBody, Order, OrderParams, orderTags as tags } from '../../modules/orders/index.ts'
import type { OrderMoves } from './desk.ts'

export const orderCancellationRoutes: FastifyPluginAsyncTypebox<{ moves: OrderMoves; guards: Guards }> = async (app, { moves, guards }) => {
  const common = { preValidation: guards.customerOfPartner }

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
      ok(await moves.cancel(customerOf(request), request.params.orderId, request.body?.reason ?? 'Cancelled by the customer'), 'Order cancelled'),
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
    async (request) => ok(await moves.cancelItems(customerOf(request), request.params.orderId, request.body), 'Order items cancelled'),
  )
}
