// Back office for checkout (admin bearer): delivery zones and pincodes, partner pricing settings
// and coupons (role ADMIN). Wallet Cash / Reward Points adjustments are the ledgers module's.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import type { Guards } from '../../http/guards.ts'
import type { CheckoutAdminService } from './admin-service.ts'
import { Money, MoneyInput, Nullable, OptionalPageQuery, Pincode, security } from '../../http/schemas.ts'
import { CouponView, Prefix, Slabs, ZoneFields, ZoneView } from './schemas.ts'

export const checkoutAdminRoutes: FastifyPluginAsyncTypebox<{ admin: CheckoutAdminService; guards: Guards }> = async (app, { admin, guards }) => {
  const adminOnly = { preValidation: guards.admin() }
  const tags = ['Admin: checkout']
  const sec = security.admin
  const ZoneParams = Type.Object({ zoneId: Type.String({ maxLength: 100 }) })
  const PartnerParams = Type.Object({ partnerId: Type.String({ maxLength: 100 }) })

  app.get(
    '/admin/delivery-zones',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminListDeliveryZones',
        tags,
        security: sec,
        summary: 'Delivery zones with their pincode prefixes, by name; whole, or a page when page or limit is given',
        querystring: Type.Object({
          ...OptionalPageQuery,
          search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "Part of a zone's name; or digits: the zone serving that pincode, and zones with prefixes starting with them" })),
        }),
        response: { 200: PagedEnvelope(ZoneView), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, limit, search } = request.query
      const { data, meta } = await admin.zones({ page, limit, search })
      return paged(data, meta, 'Delivery zones retrieved')
    },
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
        response: { 201: Envelope(ZoneView), ...errorResponses(400, 401, 403) },
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
        response: { 200: Envelope(ZoneView), ...errorResponses(400, 401, 403, 404) },
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
        response: { 201: Envelope(CouponView), ...errorResponses(400, 401, 403, 409) },
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
    {
      ...adminOnly,
      schema: {
        operationId: 'adminListCoupons',
        tags,
        security: sec,
        summary: "A partner's coupons with their usage, newest first; whole, or a page when page or limit is given",
        params: PartnerParams,
        querystring: Type.Object({ ...OptionalPageQuery, search: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Part of the code' })) }),
        response: { 200: PagedEnvelope(CouponView), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, limit, search } = request.query
      const { data, meta } = await admin.coupons(request.params.partnerId, { page, limit, search })
      return paged(data, meta, 'Coupons retrieved')
    },
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
        response: { 200: Envelope(CouponView), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { isActive, validUntil } = request.body
      const changes = { ...(isActive !== undefined ? { isActive } : {}), ...(validUntil !== undefined ? { validUntil: validUntil ? new Date(validUntil) : null } : {}) }
      return ok(await admin.updateCoupon(request.params.couponId, changes), 'Coupon updated')
    },
  )

  // Cash-on-delivery risk rules (issue #25): data the merchant chooses, no law behind the values.
  const codTags = ['Admin: cash on delivery']
  const Count = (description: string) => Type.Integer({ minimum: 1, maximum: 100_000, description })
  const NullableCount = (description: string) => Type.Union([Count(description), Type.Null()], { 'x-message': 'must be a whole number from 1 to 100000, or null' })
  const NullableMoneyInput = (description: string) => Type.Union([MoneyInput(description), Type.Null()], { 'x-message': 'must be an amount with at most two decimals, or null' })
  const CodRules = Type.Object({
    maxOpenCodOrders: Nullable(Count("At most this many of a customer's COD orders not yet DELIVERED, CANCELLED or RTO, the new one included")),
    maxCodValue: Nullable(Money("At most this much to collect across a customer's open COD orders and the new one")),
    rtoLimit: Nullable(Count("COD is refused once this many of the customer's orders ended RTO within rtoWindowDays")),
    rtoWindowDays: Nullable(Type.Integer({ minimum: 1, maximum: 3650, description: 'The RTO window, in days back from now' })),
    maxRefusedDeliveries: Nullable(Count("COD is refused once this many of the customer's parcels were refused at the door within refusedWindowDays (counted apart from RTOs)")),
    refusedWindowDays: Nullable(Type.Integer({ minimum: 1, maximum: 3650, description: 'The refusals window, in days back from now' })),
    firstOrderCap: Nullable(Money('A customer with no delivered order may collect at most this much by COD')),
  })
  const CodRulesInput = Type.Object({
    maxOpenCodOrders: Type.Optional(NullableCount('At most this many open COD orders per customer, the new one included; null: no limit')),
    maxCodValue: Type.Optional(NullableMoneyInput('At most this much (rupees) to collect across open COD orders and the new one; null: no limit')),
    rtoLimit: Type.Optional(NullableCount('COD refused after this many RTO orders within rtoWindowDays; set both or neither')),
    rtoWindowDays: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 3650, description: 'Days back from now in which RTOs count; set with rtoLimit' }), Type.Null()], { 'x-message': 'must be a whole number of days from 1 to 3650, or null' }),
    ),
    maxRefusedDeliveries: Type.Optional(NullableCount('COD refused after this many parcels refused at the door within refusedWindowDays; set both or neither')),
    refusedWindowDays: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 3650, description: 'Days back from now in which refusals count; set with maxRefusedDeliveries' }), Type.Null()], {
        'x-message': 'must be a whole number of days from 1 to 3650, or null',
      }),
    ),
    firstOrderCap: Type.Optional(NullableMoneyInput('At most this much (rupees) by COD until a first order is delivered; null: no cap')),
  })
  const Blocked = Type.Object({ pincode: Type.String(), reason: Nullable(Type.String()), createdAt: Type.String({ format: 'date-time' }) })

  app.get(
    '/admin/partners/:partnerId/cod-rules',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminGetCodRules',
        tags: codTags,
        security: sec,
        summary: "A partner's cash-on-delivery risk rules (null: no limit)",
        params: PartnerParams,
        response: { 200: Envelope(CodRules), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ok(await admin.codRules(request.params.partnerId), 'COD rules retrieved'),
  )

  app.put(
    '/admin/partners/:partnerId/cod-rules',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminSetCodRules',
        tags: codTags,
        security: sec,
        summary: "Replace a partner's cash-on-delivery risk rules; a field left out or null is no limit",
        description:
          'Checked by GET /checkout/cod-eligibility, POST /checkout/serviceability and POST /orders (in the order\'s transaction, under the customer\'s lock). ' +
          'Open COD orders are those not yet DELIVERED, CANCELLED or RTO; rtoLimit and rtoWindowDays go together, as do maxRefusedDeliveries and refusedWindowDays (a parcel refused at the door, as the carrier reports it, counted apart from RTOs).',
        params: PartnerParams,
        body: CodRulesInput,
        response: { 200: Envelope(CodRules), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { maxOpenCodOrders, maxCodValue, rtoLimit, rtoWindowDays, maxRefusedDeliveries, refusedWindowDays, firstOrderCap } = request.body
      return ok(await admin.saveCodRules(request.params.partnerId, { maxOpenCodOrders, maxCodValue, rtoLimit, rtoWindowDays, maxRefusedDeliveries, refusedWindowDays, firstOrderCap }), 'COD rules saved')
    },
  )

  app.get(
    '/admin/partners/:partnerId/cod-blocked-pincodes',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminListCodBlockedPincodes',
        tags: codTags,
        security: sec,
        summary: 'Pincodes where the partner does not offer cash on delivery, by pincode; whole, or a page when page or limit is given',
        params: PartnerParams,
        querystring: Type.Object({ ...OptionalPageQuery, search: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$', 'x-message': 'must be 1 to 6 digits of a PIN code', description: 'The first digits of the pincode' })) }),
        response: { 200: PagedEnvelope(Blocked), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { page, limit, search } = request.query
      const { data, meta } = await admin.codBlockedPincodes(request.params.partnerId, { page, limit, search })
      return paged(data, meta, 'COD blocked pincodes retrieved')
    },
  )

  app.post(
    '/admin/partners/:partnerId/cod-blocked-pincodes',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminBlockCodPincode',
        tags: codTags,
        security: sec,
        summary: 'Stop offering cash on delivery at a pincode (whatever its delivery zone allows)',
        params: PartnerParams,
        body: Type.Object({ pincode: Pincode, reason: Type.Optional(Type.String({ maxLength: 200, description: 'For the back office; customers are told only that COD is not available there' })) }),
        response: { 201: Envelope(Blocked), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { pincode, reason } = request.body
      const blocked = await admin.blockCodPincode(request.params.partnerId, { pincode, reason })
      reply.status(201)
      return ok(blocked, 'COD blocked at pincode', 201)
    },
  )

  app.delete(
    '/admin/partners/:partnerId/cod-blocked-pincodes/:pincode',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminUnblockCodPincode',
        tags: codTags,
        security: sec,
        summary: 'Offer cash on delivery at a blocked pincode again',
        params: Type.Object({ partnerId: Type.String({ maxLength: 100 }), pincode: Pincode }),
        response: { 200: Envelope(Blocked), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ok(await admin.unblockCodPincode(request.params.partnerId, request.params.pincode), 'COD unblocked at pincode'),
  )
}
