// The back office's moves of an order (admin bearer, role SUPPORT or ADMIN): cancel some of its
// units, or move it along the order machine (409 for a move it does not allow). The order-moves
// flow's routes, in the "Admin: orders" tag beside the orders module's reads.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { adminOf, type Guards } from '../../http/guards.ts'
import { security } from '../../http/schemas.ts'
import { AdminOrder, CancelItemsBody, OrderStatusSchema } from '../../modules/orders/index.ts'
import type { OrderMoves } from './desk.ts'

export const orderMoveAdminRoutes: FastifyPluginAsyncTypebox<{ moves: OrderMoves; guards: Guards }> = async (app, { moves, guards }) => {
  const common = { preValidation: guards.admin('SUPPORT') }
  const tags = ['Admin: orders']
  const Params = Type.Object({ orderId: Type.String({ maxLength: 100 }) })

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
    async (request) => ok(await moves.adminCancelItems(adminOf(request).adminId, request.params.orderId, request.body), 'Order items cancelled'),
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
    async (request) => ok(await moves.setStatus(adminOf(request).adminId, request.params.orderId, request.body.status, request.body.note), 'Order status changed'),
  )
}
