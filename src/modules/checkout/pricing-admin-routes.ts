// /admin/partners/:partnerId/pricing (role ADMIN): a partner's Reward Points, return window and
// prepaid discount settings.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import type { Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { MoneyInput } from '../../http/schemas.ts'
import type { CheckoutAdminService } from './admin-service.ts'
import { adminTags as tags, PartnerParams, sec } from './route-shared.ts'

export function pricingAdminRoutes(app: RouteApp, { admin, guards }: { admin: CheckoutAdminService; guards: Guards }): void {
  const adminOnly = { preValidation: guards.admin() }
  const PricingSettings = Type.Object({
    rewardEarnPercent: Type.Integer({ minimum: 0, maximum: 100 }),
    rewardRedeemCapPercent: Type.Integer({ minimum: 0, maximum: 100 }),
    paisePerPoint: Type.Integer({ minimum: 1, maximum: 100_000 }),
    returnWindowDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 365, description: 'Days after delivery a return may be requested (default 7)' })),
    prepaidDiscountPercent: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 50, description: "Discount for paying a COD order online, percent of the items' paid value (default 0: none); left out: unchanged" }),
    ),
    prepaidDiscountCap: Type.Optional(Type.Union([MoneyInput('The most the prepaid discount may be, rupees'), Type.Null()], { description: 'Rupees; null: no cap (default); left out: unchanged' })),
  })
  const PricingSettingsView = Type.Object({
    rewardEarnPercent: Type.Integer(),
    rewardRedeemCapPercent: Type.Integer(),
    paisePerPoint: Type.Integer(),
    returnWindowDays: Type.Integer(),
    prepaidDiscountPercent: Type.Integer(),
    prepaidDiscountCap: Type.Union([Type.String({ description: 'Rupees with two decimals' }), Type.Null()]),
  })
  app.get(
    '/admin/partners/:partnerId/pricing',
    {
      ...adminOnly,
      schema: { operationId: 'adminGetPartnerPricing', tags, security: sec, summary: "A partner's pricing settings (the defaults when it never set any)", params: PartnerParams, response: { 200: Envelope(PricingSettingsView), ...errorResponses(401, 403) } },
    },
    async (request) => ok(await admin.pricing(request.params.partnerId), 'Pricing settings retrieved'),
  )
  app.put(
    '/admin/partners/:partnerId/pricing',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminSetPartnerPricing',
        tags,
        security: sec,
        summary: "A partner's Reward Points earn rate, redeem cap and point value, return window, and prepaid discount (COD orders paid online)",
        params: PartnerParams,
        body: PricingSettings,
        response: { 200: Envelope(PricingSettingsView), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ok(await admin.savePricing(request.params.partnerId, request.body), 'Pricing settings saved'),
  )
}
