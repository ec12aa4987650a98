// Paying an order (customer token and x-partner-id): retry or refresh its payment, abandon a provider
// checkout (a COD order paid online instead is the cod-conversion flow's).
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { customerOf, type Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { security } from '../../http/schemas.ts'
import { idempotencyKeyOf } from './idempotency.ts'
import { answer, tags } from './route-shared.ts'
import { ClientAction, IdempotencyHeaders, OrderParams, Payment } from './schemas.ts'
import type { OrderService } from './service.ts'

export function orderPaymentRoutes(app: RouteApp, { orders, guards }: { orders: OrderService; guards: Guards }): void {
  const common = { preValidation: guards.customerOfPartner }

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
