// Back office for checkout (admin bearer): delivery zones and pincodes, partner pricing settings
// and coupons (role ADMIN). Wallet Cash / Reward Points adjustments are the ledgers module's.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import type { Guards } from '../../http/guards.ts'
import type { CheckoutAdminService } from './admin-service.ts'
import { MoneyInput, security } from '../../http/schemas.ts'
import { Prefix, Slabs, ZoneFields } from './schemas.ts'

export const checkoutAdminRoutes: FastifyPluginAsyncTypebox<{ admin: CheckoutAdminService; guards: Guards }> = async (app, { admin, guards }) => {
  const adminOnly = { preValidation: guards.admin() }
  const tags = ['Admin: checkout']
  const sec = security.admin
  const ZoneParams = Type.Object({ zoneId: Type.String({ maxLength: 100 }) })
  const PartnerParams = Type.Object({ partnerId: Type.String({ maxLength: 100 }) })
  const Any = Type.Any()

  app.get('/admin/delivery-zones', { ...adminOnly, schema: { operationId: 'adminListDeliveryZones', tags, security: sec, summary: 'Delivery zones with their pincode prefixes', response: { 200: Envelope(Type.Array(Any)), ...errorResponses(401, 403) } } }, async () =>
    ok(await admin.zones(), 'Delivery zones retrieved'),
  )

  app.post(
    '/admin/delivery-zones',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminCreateDeliveryZone',
        tags,
        security: sec,
        summary: 'Create a delivery zone and map pincode prefixes to it (a prefix moves from its old zone)',
        body: Type.Object({ ...ZoneFields, serviceable: Type.Optional(ZoneFields.serviceable), expressSlabs: Type.Optional(Slabs), pincodes: Type.Array(Prefix, { maxItems: 1000 }) }),
        response: { 201: Envelope(Any), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      reply.status(201)
      return ok(await admin.createZone(request.body), 'Delivery zone created', 201)
    },
  )

  app.patch(
    '/admin/delivery-zones/:zoneId',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminUpdateDeliveryZone',
        tags,
        security: sec,
        summary: 'Change a zone: charges, days, cut-off, COD rules; `pincodes` adds or moves prefixes to it',
        params: ZoneParams,
        body: Type.Partial(Type.Object({ ...ZoneFields, pincodes: Type.Array(Prefix, { maxItems: 1000 }) })),
        response: { 200: Envelope(Any), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ok(await admin.updateZone(request.params.zoneId, request.body), 'Delivery zone updated'),
  )

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

  app.post(
    '/admin/partners/:partnerId/coupons',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminCreateCoupon',
        tags,
        security: sec,
        summary: 'Issue a coupon for a partner',
        params: PartnerParams,
        body: Type.Object({
          code: Type.String({ pattern: '^[A-Za-z0-9_-]{3,40}$', 'x-message': 'must be 3 to 40 letters, digits, - or _' }),
          kind: Type.Enum(['PERCENT', 'FLAT']),
          value: MoneyInput(),
          maxDiscount: Type.Optional(Type.Union([MoneyInput(), Type.Null()])),
          minOrderValue: Type.Optional(MoneyInput()),
          validFrom: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
          validUntil: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
          totalUsageLimit: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
          perCustomerLimit: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
          categoryIds: Type.Optional(Type.Union([Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 }), Type.Null()])),
        }),
        response: { 201: Envelope(Any), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { code, kind, value, maxDiscount, minOrderValue, validFrom, validUntil, totalUsageLimit, perCustomerLimit, categoryIds } = request.body
      const coupon = await admin.createCoupon(request.params.partnerId, {
        code,
        kind,
        value,
        maxDiscount,
        minOrderValue,
        totalUsageLimit,
        perCustomerLimit,
        categoryIds,
        validFrom: validFrom ? new Date(validFrom) : null,
        validUntil: validUntil ? new Date(validUntil) : null,
      })
      reply.status(201)
      return ok(coupon, 'Coupon created', 201)
    },
  )

  app.get(
    '/admin/partners/:partnerId/coupons',
    { ...adminOnly, schema: { operationId: 'adminListCoupons', tags, security: sec, summary: "A partner's coupons with their usage", params: PartnerParams, response: { 200: Envelope(Type.Array(Any)), ...errorResponses(401, 403) } } },
    async (request) => ok(await admin.coupons(request.params.partnerId), 'Coupons retrieved'),
  )

  app.patch(
    '/admin/coupons/:couponId',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminUpdateCoupon',
        tags,
        security: sec,
        summary: 'Deactivate or reactivate a coupon, or change its end date',
        params: Type.Object({ couponId: Type.String({ maxLength: 100 }) }),
        body: Type.Object({ isActive: Type.Optional(Type.Boolean()), validUntil: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])) }),
        response: { 200: Envelope(Any), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { isActive, validUntil } = request.body
      const changes = { ...(isActive !== undefined ? { isActive } : {}), ...(validUntil !== undefined ? { validUntil: validUntil ? new Date(validUntil) : null } : {}) }
      return ok(await admin.updateCoupon(request.params.couponId, changes), 'Coupon updated')
    },
  )
}
