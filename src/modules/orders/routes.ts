// /orders: create (idempotent), list, retrieve, cancel; payments of an order (customer token and x-partner-id).
// The routes are in placement-routes.ts, cancellation-routes.ts and payment-routes.ts; this plugin registers them, in order.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Guards } from '../../http/guards.ts'
import { orderCancellationRoutes } from './cancellation-routes.ts'
import { orderPaymentRoutes } from './payment-routes.ts'
import { orderPlacementRoutes } from './placement-routes.ts'
import type { OrderService } from './service.ts'

export const orderRoutes: FastifyPluginAsyncTypebox<{ orders: OrderService; guards: Guards }> = async (app, { orders, guards }) => {
  orderPlacementRoutes(app, { orders, guards })
  orderCancellationRoutes(app, { orders, guards })
  orderPaymentRoutes(app, { orders, guards })
}
