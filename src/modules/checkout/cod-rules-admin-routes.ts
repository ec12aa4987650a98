// /admin/partners/:partnerId/cod-rules (role ADMIN): a partner's cash-on-delivery risk rules.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import type { Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { Money, MoneyInput, Nullable } from '../../http/schemas.ts'
import type { CheckoutAdminService } from './admin-service.ts'
import { codTags, PartnerParams, sec } from './route-shared.ts'

export function codRulesAdminRoutes(app: RouteApp, { admin, guards }: { admin: CheckoutAdminService; guards: Guards }): void {
  const adminOnly = { preValidation: guards.admin() }
  // Cash-on-delivery risk rules (issue #25): data the merchant chooses, no law behind the values.
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
}
