// Back office for checkout (admin bearer): delivery zones and pincodes, partner pricing settings
// and coupons (role ADMIN), Wallet Cash / Reward Points adjustments with a reason (SUPPORT or ADMIN).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { desc, eq } from 'drizzle-orm'
import { Type } from 'typebox'
import type { Deps } from '../../deps.ts'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { adminOf, type Guards } from '../../http/guards.ts'
import { security } from '../../http/schemas.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { formatPaise, parseRupees } from '../../lib/money.ts'
import { findCustomer } from '../customers/index.ts'
import { createCoupon } from './coupons.ts'
import { creditLedger, debitLedger, ledgerBalances } from './ledger.ts'
import { coupons, deliveryZones, partnerPricing, zonePincodes } from './schema.sql.ts'

const Money = Type.Union([Type.String({ pattern: '^\\d{1,13}(\\.\\d{1,2})?$' }), Type.Number({ minimum: 0, maximum: 1e13 })], {
  'x-message': 'must be an amount with at most two decimals',
})
const SignedMoney = Type.Union([Type.String({ pattern: '^-?\\d{1,13}(\\.\\d{1,2})?$' }), Type.Number({ minimum: -1e13, maximum: 1e13 })], {
  'x-message': 'must be an amount with at most two decimals',
})
const Slabs = Type.Array(Type.Object({ upToGrams: Type.Integer({ minimum: 1, maximum: 1_000_000 }), charge: Money }), { maxItems: 20 })
const Prefix = Type.Object({
  prefix: Type.String({ pattern: '^[1-9][0-9]{0,5}$', 'x-message': 'must be 1 to 6 digits of a PIN code' }),
  city: Type.String({ minLength: 1, maxLength: 100 }),
  state: Type.String({ minLength: 1, maxLength: 100 }),
})
const ZoneFields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  serviceable: Type.Boolean(),
  standardSlabs: Slabs,
  standardMinDays: Type.Integer({ minimum: 0, maximum: 60 }),
  standardMaxDays: Type.Integer({ minimum: 0, maximum: 60 }),
  expressAvailable: Type.Boolean(),
  expressSlabs: Slabs,
  expressMinDays: Type.Integer({ minimum: 0, maximum: 60 }),
  expressMaxDays: Type.Integer({ minimum: 0, maximum: 60 }),
  freeShippingThreshold: Type.Union([Money, Type.Null()]),
  cutoffHour: Type.Integer({ minimum: 0, maximum: 23 }),
  codAvailable: Type.Boolean(),
  codLimit: Money,
  codFee: Money,
}

type SlabInput = { upToGrams: number; charge: string | number }
const paise = (v: string | number) => parseRupees(v)!
const slabs = (list: SlabInput[] | undefined) => list?.map((s) => ({ upToGrams: s.upToGrams, charge: Number(paise(s.charge)) }))

function zoneOut(zone: typeof deliveryZones.$inferSelect, pincodes: (typeof zonePincodes.$inferSelect)[]) {
  return {
    ...zone,
    standardSlabs: zone.standardSlabs.map((s) => ({ upToGrams: s.upToGrams, charge: formatPaise(BigInt(s.charge)) })),
    expressSlabs: zone.expressSlabs.map((s) => ({ upToGrams: s.upToGrams, charge: formatPaise(BigInt(s.charge)) })),
    freeShippingThreshold: zone.freeShippingThreshold === null ? null : formatPaise(zone.freeShippingThreshold),
    codLimit: formatPaise(zone.codLimit),
    codFee: formatPaise(zone.codFee),
    updatedAt: zone.updatedAt.toISOString(),
    pincodes: pincodes.filter((p) => p.zoneId === zone.id).map(({ prefix, city, state }) => ({ prefix, city, state })),
  }
}

function couponOut(c: typeof coupons.$inferSelect) {
  return {
    id: c.id,
    partnerId: c.partnerId,
    code: c.code,
    kind: c.kind,
    value: c.kind === 'PERCENT' ? c.value.toString() : formatPaise(c.value),
    maxDiscount: c.maxDiscount === null ? null : formatPaise(c.maxDiscount),
    minOrderValue: formatPaise(c.minOrderValue),
    validFrom: c.validFrom?.toISOString() ?? null,
    validUntil: c.validUntil?.toISOString() ?? null,
    totalUsageLimit: c.totalUsageLimit,
    perCustomerLimit: c.perCustomerLimit,
    usedCount: c.usedCount,
    categoryIds: c.categoryIds ?? null,
    isActive: c.isActive,
  }
}

export const checkoutAdminRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; guards: Guards }> = async (app, { deps, guards }) => {
  const db = deps.database.db
  const adminOnly = { preValidation: guards.admin() }
  const tags = ['Admin: checkout']
  const sec = security.admin
  const ZoneParams = Type.Object({ zoneId: Type.String({ maxLength: 100 }) })
  const PartnerParams = Type.Object({ partnerId: Type.String({ maxLength: 100 }) })
  const Any = Type.Any()

  async function zonesWithPincodes(zoneId?: string) {
    const zones = zoneId ? await db.select().from(deliveryZones).where(eq(deliveryZones.id, zoneId)) : await db.select().from(deliveryZones)
    const pins = await db.select().from(zonePincodes)
    return zones.map((z) => zoneOut(z, pins))
  }

  app.get('/admin/delivery-zones', { ...adminOnly, schema: { tags, security: sec, summary: 'Delivery zones with their pincode prefixes', response: { 200: Envelope(Type.Array(Any)), ...errorResponses(401, 403) } } }, async () =>
    ok(await zonesWithPincodes(), 'Delivery zones retrieved'),
  )

  app.post(
    '/admin/delivery-zones',
    {
      ...adminOnly,
      schema: {
        tags,
        security: sec,
        summary: 'Create a delivery zone and map pincode prefixes to it (a prefix moves from its old zone)',
        body: Type.Object({ ...ZoneFields, serviceable: Type.Optional(ZoneFields.serviceable), expressSlabs: Type.Optional(Slabs), pincodes: Type.Array(Prefix, { maxItems: 1000 }) }),
        response: { 201: Envelope(Any), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const b = request.body
      const id = newId('zon')
      await db.transaction(async (tx) => {
        await tx.insert(deliveryZones).values({
          id,
          name: b.name,
          serviceable: b.serviceable ?? true,
          standardSlabs: slabs(b.standardSlabs)!,
          standardMinDays: b.standardMinDays,
          standardMaxDays: b.standardMaxDays,
          expressAvailable: b.expressAvailable,
          expressSlabs: slabs(b.expressSlabs) ?? [],
          expressMinDays: b.expressMinDays,
          expressMaxDays: b.expressMaxDays,
          freeShippingThreshold: b.freeShippingThreshold === null ? null : paise(b.freeShippingThreshold),
          cutoffHour: b.cutoffHour,
          codAvailable: b.codAvailable,
          codLimit: paise(b.codLimit),
          codFee: paise(b.codFee),
          updatedAt: deps.clock.now(),
        })
        for (const p of b.pincodes) {
          await tx.insert(zonePincodes).values({ ...p, zoneId: id }).onConflictDoUpdate({ target: zonePincodes.prefix, set: { zoneId: id, city: p.city, state: p.state } })
        }
      })
      reply.status(201)
      return ok((await zonesWithPincodes(id))[0], 'Delivery zone created', 201)
    },
  )

  app.patch(
    '/admin/delivery-zones/:zoneId',
    {
      ...adminOnly,
      schema: {
        tags,
        security: sec,
        summary: 'Change a zone: charges, days, cut-off, COD rules; `pincodes` adds or moves prefixes to it',
        params: ZoneParams,
        body: Type.Partial(Type.Object({ ...ZoneFields, pincodes: Type.Array(Prefix, { maxItems: 1000 }) })),
        response: { 200: Envelope(Any), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { pincodes, standardSlabs, expressSlabs, freeShippingThreshold, codLimit, codFee, ...rest } = request.body
      const updated = await db.transaction(async (tx) => {
        const rows = await tx
          .update(deliveryZones)
          .set({
            ...rest,
            ...(standardSlabs ? { standardSlabs: slabs(standardSlabs) } : {}),
            ...(expressSlabs ? { expressSlabs: slabs(expressSlabs) } : {}),
            ...(freeShippingThreshold !== undefined ? { freeShippingThreshold: freeShippingThreshold === null ? null : paise(freeShippingThreshold) } : {}),
            ...(codLimit !== undefined ? { codLimit: paise(codLimit) } : {}),
            ...(codFee !== undefined ? { codFee: paise(codFee) } : {}),
            updatedAt: deps.clock.now(),
          })
          .where(eq(deliveryZones.id, request.params.zoneId))
          .returning({ id: deliveryZones.id })
        if (rows.length === 0) return false
        for (const p of pincodes ?? []) {
          await tx.insert(zonePincodes).values({ ...p, zoneId: request.params.zoneId }).onConflictDoUpdate({ target: zonePincodes.prefix, set: { zoneId: request.params.zoneId, city: p.city, state: p.state } })
        }
        return true
      })
      if (!updated) throw new AppError('NOT_FOUND', 'Delivery zone not found')
      return ok((await zonesWithPincodes(request.params.zoneId))[0], 'Delivery zone updated')
    },
  )

  const PricingSettings = Type.Object({
    rewardEarnPercent: Type.Integer({ minimum: 0, maximum: 100 }),
    rewardRedeemCapPercent: Type.Integer({ minimum: 0, maximum: 100 }),
    paisePerPoint: Type.Integer({ minimum: 1, maximum: 100_000 }),
  })
  app.put(
    '/admin/partners/:partnerId/pricing',
    {
      ...adminOnly,
      schema: { tags, security: sec, summary: "A partner's Reward Points earn rate, redeem cap and point value", params: PartnerParams, body: PricingSettings, response: { 200: Envelope(PricingSettings), ...errorResponses(400, 401, 403) } },
    },
    async (request) => {
      const values = { ...request.body, updatedAt: deps.clock.now() }
      await db.insert(partnerPricing).values({ partnerId: request.params.partnerId, ...values }).onConflictDoUpdate({ target: partnerPricing.partnerId, set: values })
      return ok(request.body, 'Pricing settings saved')
    },
  )

  app.post(
    '/admin/partners/:partnerId/coupons',
    {
      ...adminOnly,
      schema: {
        tags,
        security: sec,
        summary: 'Issue a coupon for a partner',
        params: PartnerParams,
        body: Type.Object({
          code: Type.String({ pattern: '^[A-Za-z0-9_-]{3,40}$', 'x-message': 'must be 3 to 40 letters, digits, - or _' }),
          kind: Type.Enum(['PERCENT', 'FLAT']),
          value: Money,
          maxDiscount: Type.Optional(Type.Union([Money, Type.Null()])),
          minOrderValue: Type.Optional(Money),
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
      const b = request.body
      const value = b.kind === 'PERCENT' ? (typeof b.value === 'number' || /^\d+$/.test(b.value) ? BigInt(b.value) : -1n) : paise(b.value)
      const row = await createCoupon(
        db,
        request.params.partnerId,
        {
          code: b.code,
          kind: b.kind,
          value,
          maxDiscount: b.maxDiscount == null ? null : paise(b.maxDiscount),
          minOrderValue: b.minOrderValue === undefined ? 0n : paise(b.minOrderValue),
          validFrom: b.validFrom ? new Date(b.validFrom) : null,
          validUntil: b.validUntil ? new Date(b.validUntil) : null,
          totalUsageLimit: b.totalUsageLimit ?? null,
          perCustomerLimit: b.perCustomerLimit ?? null,
          categoryIds: b.categoryIds ?? null,
        },
        deps.clock.now(),
      )
      reply.status(201)
      return ok(couponOut(row), 'Coupon created', 201)
    },
  )

  app.get(
    '/admin/partners/:partnerId/coupons',
    { ...adminOnly, schema: { tags, security: sec, summary: "A partner's coupons with their usage", params: PartnerParams, response: { 200: Envelope(Type.Array(Any)), ...errorResponses(401, 403) } } },
    async (request) => ok((await db.select().from(coupons).where(eq(coupons.partnerId, request.params.partnerId)).orderBy(desc(coupons.createdAt))).map(couponOut), 'Coupons retrieved'),
  )

  app.patch(
    '/admin/coupons/:couponId',
    {
      ...adminOnly,
      schema: {
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
      const [row] = await db
        .update(coupons)
        .set({ ...(isActive !== undefined ? { isActive } : {}), ...(validUntil !== undefined ? { validUntil: validUntil ? new Date(validUntil) : null } : {}) })
        .where(eq(coupons.id, request.params.couponId))
        .returning()
      if (!row) throw new AppError('NOT_FOUND', 'Coupon not found')
      return ok(couponOut(row), 'Coupon updated')
    },
  )

  app.post(
    '/admin/customers/:userId/ledger',
    {
      preValidation: guards.admin('SUPPORT'),
      schema: {
        tags,
        security: sec,
        summary: 'Adjust Wallet Cash (rupees) or Reward Points (whole points): positive credits, negative debits; never below zero',
        params: Type.Object({ userId: Type.String({ maxLength: 100 }) }),
        body: Type.Object({
          kind: Type.Enum(['WALLET_CASH', 'REWARD_POINTS']),
          amount: SignedMoney,
          reason: Type.String({ minLength: 3, maxLength: 200 }),
          reference: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: { 200: Envelope(Type.Object({ walletCash: Type.String(), rewardPoints: Type.Integer() })), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { kind, amount, reason, reference } = request.body
      const customer = await findCustomer(db, request.params.userId)
      if (!customer) throw new AppError('NOT_FOUND', 'Customer not found')
      const parsed = parseRupees(amount)
      if (parsed === null || parsed === 0n) throw new AppError('BAD_REQUEST', 'amount must be a non-zero amount')
      // Points are whole: "40" means 40 points (the parser reads rupees, so divide back).
      if (kind === 'REWARD_POINTS' && parsed % 100n !== 0n) throw new AppError('BAD_REQUEST', 'amount must be a whole number of points')
      const units = kind === 'REWARD_POINTS' ? parsed / 100n : parsed
      const entry = {
        userId: customer.id,
        partnerId: customer.partnerId,
        kind,
        amount: units < 0n ? -units : units,
        reason: `ADJUSTMENT: ${reason}`,
        reference: reference ?? `admin:${adminOf(request).adminId}`,
        at: deps.clock.now(),
      }
      await db.transaction((tx) => (units < 0n ? debitLedger(tx, entry) : creditLedger(tx, entry)))
      const balances = await ledgerBalances(db, customer.id)
      return ok({ walletCash: formatPaise(balances.walletCash), rewardPoints: Number(balances.rewardPoints) }, 'Balance adjusted')
    },
  )
}
