// /orders: list, retrieve; payments of an order (customer token and x-partner-id). The routes are in
// read-routes.ts and payment-routes.ts; this plugin registers them, in order. Placing an order is the
// placement flow's (src/flows/placement/routes.ts), cancelling the order-moves flow's.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Guards } from '../../http/guards.ts'
import { orderPaymentRoutes } from './payment-routes.ts'
import { orderReadRoutes } from './read-routes.ts'
import type { OrderService } from './service.ts'

export const orderRoutes: FastifyPluginAsyncTypebox<{ orders: OrderService; guards: Guards }> = async (app, { orders, guards }) => {
  orderReadRoutes(app, { orders, guards })
  orderPaymentRoutes(app, { orders, guards })
}
