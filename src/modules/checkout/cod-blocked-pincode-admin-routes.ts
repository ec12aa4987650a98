// /admin/partners/:partnerId/cod-blocked-pincodes (role ADMIN): pincodes where a partner does not
// offer cash on delivery (a cash-on-delivery risk rule, issue #25).
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import type { Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { Nullable, OptionalPageQuery, Pincode } from '../../http/schemas.ts'
import type { CheckoutAdminService } from './admin-service.ts'
import { codTags, PartnerParams, sec } from './route-shared.ts'

export function codBlockedPincodeAdminRoutes(app: RouteApp, { admin, guards }: { admin: CheckoutAdminService; guards: Guards }): void {
  const adminOnly = { preValidation: guards.admin() }
  const Blocked = Type.Object({ pincode: Type.String(), reason: Nullable(Type.String()), createdAt: Type.String({ format: 'date-time' }) })

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
