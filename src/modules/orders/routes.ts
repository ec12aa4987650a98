// /orders: create (idempotent), list, retrieve; payments of an order (customer token and x-partner-id).
// The routes are in placement-routes.ts and payment-routes.ts; this plugin registers them, in order.
// Cancelling is the order-moves flow's (src/flows/order-moves/routes.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Guards } from '../../http/guards.ts'
import { orderPaymentRoutes } from './payment-routes.ts'
import { orderPlacementRoutes } from './placement-routes.ts'
import type { OrderService } from './service.ts'

export const orderRoutes: FastifyPluginAsyncTypebox<{ orders: OrderService; guards: Guards }> = async (app, { orders, guards }) => {
  orderPlacementRoutes(app, { orders, guards })
  orderPaymentRoutes(app, { orders, guards })
}
