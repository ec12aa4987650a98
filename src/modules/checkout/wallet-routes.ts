// /wallet (customer token and x-partner-id): price a cart as the order will be priced, and the
// customer's Wallet Cash and Reward Points with their ledger.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedObjectEnvelope } from '../../http/envelope.ts'
import { customerOf, type Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { Money, Nullable, PageQuery, Pincode, security, TaxAmountsFields, TaxBlockFields } from '../../http/schemas.ts'
import { checkoutTags as tags } from './route-shared.ts'
import { CartLines, Method } from './schemas.ts'
import type { CheckoutService } from './service.ts'

export function walletRoutes(app: RouteApp, { checkout, guards }: { checkout: CheckoutService; guards: Guards }): void {
  const common = { preValidation: guards.customerOfPartner }
  const Items = CartLines
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
