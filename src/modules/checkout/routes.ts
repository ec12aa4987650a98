// /checkout: serviceability, delivery quote and COD eligibility (customer token and x-partner-id).
// The /wallet routes are in wallet-routes.ts; this plugin registers both files' routes, in order.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { customerOf, type Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { AppError } from '../../lib/errors.ts'
import { parseRupees } from '../../lib/money.ts'
import { parseItemsParam, type CheckoutService } from './service.ts'
import { Money, Pincode, security } from '../../http/schemas.ts'
import { checkoutTags as tags } from './route-shared.ts'
import { CartLines, DateOnly, Days, Method, Serviceability } from './schemas.ts'
import { walletRoutes } from './wallet-routes.ts'

export const checkoutRoutes: FastifyPluginAsyncTypebox<{ checkout: CheckoutService; guards: Guards }> = async (app, { checkout, guards }) => {
  checkoutPincodeRoutes(app, { checkout, guards })
  walletRoutes(app, { checkout, guards })
}

/** /checkout/serviceability, /checkout/delivery-quote and /checkout/cod-eligibility: what checkout offers at a pincode. */
export function checkoutPincodeRoutes(app: RouteApp, { checkout, guards }: { checkout: CheckoutService; guards: Guards }): void {
  const common = { preValidation: guards.customerOfPartner }

  app.post(
    '/checkout/serviceability',
    {
      ...common,
      schema: {
        operationId: 'checkServiceability',
        tags,
        summary: 'Can this cart be delivered to this pincode: delivery methods and payment options',
        security: security.customer,
        body: Type.Object({
          pincode: Pincode,
          items: CartLines,
        }),
        response: { 200: Envelope(Serviceability), ...errorResponses(400, 401) },
      },
    },
    async (request) => ok(await checkout.serviceability(customerOf(request), request.body), 'Serviceability checked'),
  )

  app.get(
    '/checkout/delivery-quote',
    {
      ...common,
      schema: {
        operationId: 'getDeliveryQuote',
        tags,
        summary: 'Delivery charge and date for a cart, pincode and method',
        security: security.customer,
        querystring: Type.Object({
          pincode: Pincode,
          deliveryMethod: Type.Enum(['STANDARD', 'EXPRESS'], { default: 'STANDARD' }),
          items: Type.String({ minLength: 1, maxLength: 5000, description: 'productId:quantity pairs, or productId:variantId:quantity for a product with several variants, for example prd_a:2,prd_b:var_c:1' }),
        }),
        response: {
          200: Envelope(Type.Object({ pincode: Type.String(), deliveryMethod: Method, charge: Money(), estimatedDays: Days, estimatedDeliveryDate: DateOnly })),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const items = parseItemsParam(request.query.items)
      if (!items) throw new AppError('BAD_REQUEST', 'items must be productId:quantity pairs with quantities from 1 to 9999, for example prd_a:2,prd_b:1')
      const { pincode, deliveryMethod } = request.query
      return ok(await checkout.deliveryQuote(customerOf(request).partnerId, { pincode, deliveryMethod, items }), 'Delivery quote')
    },
  )

  app.get(
    '/checkout/cod-eligibility',
    {
      ...common,
      schema: {
        operationId: 'getCodEligibility',
        tags,
        summary: 'Whether cash on delivery can collect this amount (the remainingPayable of a wallet quote) at this pincode',
        description:
          'codFee is the fee cash on delivery adds to this amount. With nothing to collect (collectableAmount 0: Wallet Cash and Reward Points cover the order) there is no fee: ' +
          'eligible wherever COD is available, codFee 0.00, as the wallet quote and the order price it. ' +
          "The partner's risk rules for this customer (open COD orders, COD value outstanding, recent returns to origin, a cap until the first delivery, blocked pincodes) " +
          'add their reasons, in plain words, and lower maxCodAmount; order creation refuses a COD order with the same first reason.',
        security: security.customer,
        querystring: Type.Object({
          pincode: Pincode,
          collectableAmount: Type.String({ pattern: '^\\d{1,13}(\\.\\d{1,2})?$', 'x-message': 'must be a non-negative amount with at most two decimals' }),
        }),
        response: {
          200: Envelope(Type.Object({ eligible: Type.Boolean(), collectableAmount: Money(), codFee: Money(), maxCodAmount: Money(), reasons: Type.Array(Type.String()) })),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) =>
      ok(await checkout.codEligibility(customerOf(request), { pincode: request.query.pincode, collectableAmount: parseRupees(request.query.collectableAmount)! }), 'COD eligibility'),
  )
}
