// /checkout: serviceability, delivery quote and COD eligibility (customer token and x-partner-id).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedObjectEnvelope } from '../../http/envelope.ts'
import { customerOf, type Guards } from '../../http/guards.ts'
import { AppError } from '../../lib/errors.ts'
import { parseRupees } from '../../lib/money.ts'
import { parseItemsParam, type CheckoutService } from './service.ts'
import { Money, Nullable, PageQuery, Pincode, security, TaxAmountsFields, TaxBlockFields } from '../../http/schemas.ts'
import { DateOnly, Days, Method, Serviceability } from './schemas.ts'

export const checkoutRoutes: FastifyPluginAsyncTypebox<{ checkout: CheckoutService; guards: Guards }> = async (app, { checkout, guards }) => {
  const common = { preValidation: guards.customerOfPartner }
  const tags = ['Checkout']

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
          items: Type.Array(
            Type.Object({ productId: Type.String({ minLength: 1, maxLength: 100 }), quantity: Type.Integer({ minimum: 1, maximum: 9999 }) }),
            { minItems: 1, maxItems: 100 },
          ),
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
          items: Type.String({ minLength: 1, maxLength: 5000, description: 'productId:quantity pairs, for example prd_a:2,prd_b:1' }),
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

  const Items = Type.Array(
    Type.Object({ productId: Type.String({ minLength: 1, maxLength: 100 }), quantity: Type.Integer({ minimum: 1, maximum: 9999 }) }),
    { minItems: 1, maxItems: 100 },
  )
  const Balances = Type.Object({ walletCash: Money(), rewardPoints: Type.Integer() })

  app.post(
    '/wallet/quote',
    {
      ...common,
      schema: {
        operationId: 'quoteCart',
        tags,
        summary: 'Price a cart exactly as the order will be priced: coupon, shipping, COD fee, Reward Points, Wallet Cash',
        security: security.customer,
        body: Type.Object({
          items: Items,
          pincode: Type.Optional(Pincode),
          deliveryMethod: Type.Optional(Method),
          paymentMode: Type.Optional(Type.Enum(['PREPAID', 'COD'])),
          couponCode: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
          useRewardPoints: Type.Optional(Type.Boolean()),
          useWalletCash: Type.Optional(Type.Boolean()),
        }, { examples: [{ items: [{ productId: 'prd_01JD3Q8Z4K7M2X9R6T1V0B8C5N', quantity: 2 }], pincode: '560001', paymentMode: 'PREPAID', useWalletCash: true }] }),
        response: {
          200: Envelope(
            Type.Object({
              itemsTotal: Money(),
              mrpTotal: Money(),
              couponDiscount: Money(),
              shippingCharge: Money(),
              codFee: Money(),
              totalAmount: Money(),
              rewardPointsUsed: Type.Integer(),
              rewardPointsValue: Money(),
              walletCashUsed: Money(),
              remainingPayable: Money(),
              balances: Balances,
              tax: Nullable(
                Type.Object(
                  {
                    ...TaxBlockFields,
                    lines: Type.Array(Type.Object({ productId: Type.String(), hsnCode: Type.String(), gstRateBps: Type.Integer(), ...TaxAmountsFields }), {
                      description: 'The taxed lines, in the order of items: each on its line total less its coupon share',
                    }),
                  },
                  {
                    description:
                      "GST included in the prices (decision 0021). Null when the catalog has no registered GST seller, or without a pincode (the place of supply is the shipping address's state)",
                  },
                ),
              ),
            }),
          ),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => ok(await checkout.quote(customerOf(request), request.body), 'Quote computed'),
  )

  app.get(
    '/wallet',
    {
      ...common,
      schema: {
        operationId: 'getWallet',
        tags,
        summary: 'Wallet Cash and Reward Points balances, with a page of ledger entries (newest first)',
        security: security.customer,
        querystring: Type.Object({ ...PageQuery }),
        response: {
          200: PagedObjectEnvelope(
            Type.Object({
              balances: Balances,
              entries: Type.Array(
                Type.Object({
                  id: Type.String(),
                  kind: Type.Enum(['WALLET_CASH', 'REWARD_POINTS']),
                  amount: Type.String({ description: 'Rupees for Wallet Cash, points for Reward Points; negative for debits' }),
                  reason: Type.String(),
                  reference: Type.Union([Type.String(), Type.Null()]),
                  createdAt: Type.String({ format: 'date-time' }),
                }),
              ),
            }),
          ),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const result = await checkout.wallet(customerOf(request).userId, request.query.page, request.query.limit)
      return { statusCode: 200, message: 'Wallet retrieved', ...result }
    },
  )
}
