// Coupons in the back office (role ADMIN): issue and list a partner's coupons, change one.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import type { Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { MoneyInput, OptionalPageQuery } from '../../http/schemas.ts'
import type { CheckoutAdminService } from './admin-service.ts'
import { adminTags as tags, PartnerParams, sec } from './route-shared.ts'
import { CouponView } from './schemas.ts'

export function couponAdminRoutes(app: RouteApp, { admin, guards }: { admin: CheckoutAdminService; guards: Guards }): void {
  const adminOnly = { preValidation: guards.admin() }
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
}
