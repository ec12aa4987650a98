// A COD order paid online instead (docs/orders.md, "COD to prepaid"): the customer's quote and
// conversion (customer token and x-partner-id, in the Orders tag), and the partner server's
// conversion (x-partner-id + x-partner-secret).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { customerOf, type Guards, partnerOf } from '../../http/guards.ts'
import { security } from '../../http/schemas.ts'
import { IdempotencyHeaders, idempotencyKeyOf, keyedAnswer, OrderParams, orderTags as tags, PrepaidConversionQuote, PrepaidConversionStarted } from '../../modules/orders/index.ts'
import type { CodConversion } from './desk.ts'

export const codConversionRoutes: FastifyPluginAsyncTypebox<{ conversion: CodConversion; guards: Guards }> = async (app, { conversion, guards }) => {
  const common = { preValidation: guards.customerOfPartner }

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
    async (request) => ok(await conversion.quote(customerOf(request), request.params.orderId), 'Prepaid conversion quote'),
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
      return keyedAnswer(reply, await conversion.convert(customerOf(request), request.params.orderId, key), 'Prepaid payment initiated')
    },
  )
}

export const partnerCodConversionRoutes: FastifyPluginAsyncTypebox<{ conversion: CodConversion; guards: Guards }> = async (app, { conversion, guards }) => {
  app.post(
    '/partner/orders/:orderId/convert-to-prepaid',
    {
      preValidation: guards.partner,
      schema: {
        operationId: 'partnerConvertOrderToPrepaid',
        tags: ['Partner server: orders'],
        security: security.partner,
        summary: "Pay one of the partner's COD orders online instead (idempotent): as POST /orders/{orderId}/convert-to-prepaid, for the partner's server",
        description: 'Same rules and answer as the customer route (docs/orders.md, "COD to prepaid"); another partner\'s order: 404.',
        headers: IdempotencyHeaders,
        params: Type.Object({ orderId: Type.String({ maxLength: 100 }) }),
        response: { 201: Envelope(PrepaidConversionStarted), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const key = idempotencyKeyOf(request.raw.rawHeaders)
      return keyedAnswer(reply, await conversion.partnerConvert(partnerOf(request), request.params.orderId, key), 'Prepaid payment initiated')
    },
  )
}
