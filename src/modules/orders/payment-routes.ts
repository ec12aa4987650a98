// Paying an order (customer token and x-partner-id): retry or refresh its payment, turn a COD order
// into a prepaid one, abandon a provider checkout.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { customerOf, type Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { security } from '../../http/schemas.ts'
import { idempotencyKeyOf } from './idempotency.ts'
import { answer, tags } from './route-shared.ts'
import { ClientAction, IdempotencyHeaders, OrderParams, Payment, PrepaidConversionQuote, PrepaidConversionStarted } from './schemas.ts'
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
