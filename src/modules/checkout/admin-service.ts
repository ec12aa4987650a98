// Back-office operations of the checkout module: delivery zones and their pincodes, partner
// pricing settings and coupons (Wallet Cash / Reward Points adjustments are the ledgers module's).
// Each write is one transaction; amounts arrive in rupees (string or number) and are stored in paise.
import { and, asc, count, desc, eq, exists, ilike, inArray, like, or, sql } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client.ts'
import { containing, startingWith } from '../../db/like.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { findPartner } from '../partners/index.ts'
import { AppError, isUniqueViolation } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { type OptionalPage, wholeOrPage } from '../../lib/pagination.ts'
import { formatPaise, parseRupees } from '../../lib/money.ts'
import { type CouponInput, createCoupon } from './coupons.ts'
import type { VersionedCache } from '../../lib/versioned-cache.ts'
import { codBlockedScope, codRulesScope, pricingScope, ZONES_SCOPE } from './service.ts'
import { codBlockedPincodes, coupons, deliveryZones, partnerCodRules, partnerPricing, zonePincodes } from './schema.sql.ts'

type Amount = string | number
export interface SlabInput {
  upToGrams: number
  charge: Amount
}
export interface ZoneInput {
  name: string
  serviceable?: boolean
  standardSlabs: SlabInput[]
  standardMinDays: number
  standardMaxDays: number
  expressAvailable: boolean
  expressSlabs?: SlabInput[]
  expressMinDays: number
  expressMaxDays: number
  freeShippingThreshold: Amount | null
  cutoffHour: number
  codAvailable: boolean
  codLimit: Amount
  codFee: Amount
}
export interface PrefixInput {
  prefix: string
  city: string
  state: string
}

const paise = (v: Amount) => {
  const parsed = parseRupees(v)
  if (parsed === null) throw new AppError('BAD_REQUEST', 'amount must have at most two decimals')
  return parsed
}
const slabs = (list: SlabInput[]) => list.map((s) => ({ upToGrams: s.upToGrams, charge: Number(paise(s.charge)) }))
const slabsOut = (list: { upToGrams: number; charge: number }[]) => list.map((s) => ({ upToGrams: s.upToGrams, charge: formatPaise(BigInt(s.charge)) }))

function zoneOut(zone: typeof deliveryZones.$inferSelect, pincodes: (typeof zonePincodes.$inferSelect)[]) {
  return {
    ...zone,
    standardSlabs: slabsOut(zone.standardSlabs),
    expressSlabs: slabsOut(zone.expressSlabs),
    freeShippingThreshold: zone.freeShippingThreshold === null ? null : formatPaise(zone.freeShippingThreshold),
    codLimit: formatPaise(zone.codLimit),
    codFee: formatPaise(zone.codFee),
    updatedAt: zone.updatedAt.toISOString(),
    pincodes: pincodes.filter((p) => p.zoneId === zone.id).map(({ prefix, city, state }) => ({ prefix, city, state })),
  }
}

export function couponOut(c: typeof coupons.$inferSelect) {
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

/** A partner's COD risk rules as sent: null or absent is "no limit"; amounts in rupees. */
export interface CodRulesInput {
  maxOpenCodOrders?: number | null
  maxCodValue?: Amount | null
  rtoLimit?: number | null
  rtoWindowDays?: number | null
  maxRefusedDeliveries?: number | null
  refusedWindowDays?: number | null
  firstOrderCap?: Amount | null
}

function codRulesOut(rules: typeof partnerCodRules.$inferSelect | undefined) {
  const money = (v: bigint | null | undefined) => (v == null ? null : formatPaise(v))
  return {
    maxOpenCodOrders: rules?.maxOpenCodOrders ?? null,
    maxCodValue: money(rules?.maxCodValue),
    rtoLimit: rules?.rtoLimit ?? null,
    rtoWindowDays: rules?.rtoWindowDays ?? null,
    maxRefusedDeliveries: rules?.maxRefusedDeliveries ?? null,
    refusedWindowDays: rules?.refusedWindowDays ?? null,
    firstOrderCap: money(rules?.firstOrderCap),
  }
}

const blockedOut = (row: typeof codBlockedPincodes.$inferSelect) => ({ pincode: row.pincode, reason: row.reason, createdAt: row.createdAt.toISOString() })

/** `settingsCache` is the checkout service's: zone and pricing writes drop what it holds. */
export class CheckoutAdminService {
  readonly #db: Db
  readonly #clock: Deps['clock']

  readonly #settingsCache: VersionedCache
  constructor(
    { database, clock }: ServiceDeps,
    settingsCache: VersionedCache,
  ) {
    this.#settingsCache = settingsCache
    this.#db = database.db
    this.#clock = clock
  }

  /** The zones (or the one zone) with their pincode prefixes, as answered. */
  async #zoneViews(rows: (typeof deliveryZones.$inferSelect)[]) {
    if (rows.length === 0) return []
    const pins = await this.#db
      .select()
      .from(zonePincodes)
      .where(inArray(zonePincodes.zoneId, rows.map((z) => z.id)))
      .orderBy(asc(zonePincodes.prefix))
    return rows.map((z) => zoneOut(z, pins))
  }

  async #zoneView(zoneId: string) {
    return (await this.#zoneViews(await this.#db.select().from(deliveryZones).where(eq(deliveryZones.id, zoneId))))[0]!
  }

  /** Maps prefixes to a zone; a prefix already mapped elsewhere moves. */
  async #mapPrefixes(tx: Executor, zoneId: string, prefixes: PrefixInput[]) {
    for (const p of prefixes) {
      await tx.insert(zonePincodes).values({ ...p, zoneId }).onConflictDoUpdate({ target: zonePincodes.prefix, set: { zoneId, city: p.city, state: p.state } })
    }
  }

  /**
   * Delivery zones by name, whole or one page (lib/pagination.ts wholeOrPage). `search`: part of a
   * zone's name, or digits: the zones with a prefix of them (the zone that serves a pincode) or
   * starting with them.
   */
  async zones(query: OptionalPage & { search?: string | undefined }) {
    const search = query.search?.trim()
    const where = !search
      ? undefined
      : /^[0-9]+$/.test(search)
        ? exists(
            this.#db
              .select({ one: sql`1` })
              .from(zonePincodes)
              .where(and(eq(zonePincodes.zoneId, deliveryZones.id), or(like(zonePincodes.prefix, startingWith(search)), sql`${search} like ${zonePincodes.prefix} || '%'`))),
          )
        : ilike(deliveryZones.name, containing(search))
    const page = await wholeOrPage(
      query,
      (w) => this.#db.select().from(deliveryZones).where(where).orderBy(asc(deliveryZones.name), asc(deliveryZones.id)).limit(w.limit).offset(w.offset),
      async () => (await this.#db.select({ n: count() }).from(deliveryZones).where(where))[0]!.n,
    )
    return { data: await this.#zoneViews(page.data), meta: page.meta }
  }

  async createZone(input: ZoneInput & { pincodes: PrefixInput[] }) {
    const id = newId('zon')
    await this.#db.transaction(async (tx) => {
      await tx.insert(deliveryZones).values({
        id,
        name: input.name,
        serviceable: input.serviceable ?? true,
        standardSlabs: slabs(input.standardSlabs),
        standardMinDays: input.standardMinDays,
        standardMaxDays: input.standardMaxDays,
        expressAvailable: input.expressAvailable,
        expressSlabs: slabs(input.expressSlabs ?? []),
        expressMinDays: input.expressMinDays,
        expressMaxDays: input.expressMaxDays,
        freeShippingThreshold: input.freeShippingThreshold === null ? null : paise(input.freeShippingThreshold),
        cutoffHour: input.cutoffHour,
        codAvailable: input.codAvailable,
        codLimit: paise(input.codLimit),
        codFee: paise(input.codFee),
        updatedAt: this.#clock.now(),
      })
      await this.#mapPrefixes(tx, id, input.pincodes)
    })
    await this.#settingsCache.invalidate(ZONES_SCOPE)
    return this.#zoneView(id)
  }

  async updateZone(zoneId: string, input: Partial<ZoneInput> & { pincodes?: PrefixInput[] }) {
    const { pincodes, standardSlabs, expressSlabs, freeShippingThreshold, codLimit, codFee, ...rest } = input
    const found = await this.#db.transaction(async (tx) => {
      const rows = await tx
        .update(deliveryZones)
        .set({
          ...rest,
          ...(standardSlabs ? { standardSlabs: slabs(standardSlabs) } : {}),
          ...(expressSlabs ? { expressSlabs: slabs(expressSlabs) } : {}),
          ...(freeShippingThreshold !== undefined ? { freeShippingThreshold: freeShippingThreshold === null ? null : paise(freeShippingThreshold) } : {}),
          ...(codLimit !== undefined ? { codLimit: paise(codLimit) } : {}),
          ...(codFee !== undefined ? { codFee: paise(codFee) } : {}),
          updatedAt: this.#clock.now(),
        })
        .where(eq(deliveryZones.id, zoneId))
        .returning({ id: deliveryZones.id })
      if (rows.length === 0) return false
      await this.#mapPrefixes(tx, zoneId, pincodes ?? [])
      return true
    })
    if (!found) throw new AppError('NOT_FOUND', 'Delivery zone not found')
    await this.#settingsCache.invalidate(ZONES_SCOPE)
    return this.#zoneView(zoneId)
  }

  async savePricing(
    partnerId: string,
    settings: { rewardEarnPercent: number; rewardRedeemCapPercent: number; paisePerPoint: number; returnWindowDays?: number; prepaidDiscountPercent?: number; prepaidDiscountCap?: Amount | null },
  ) {
    const { prepaidDiscountCap, ...rest } = settings
    const values = { ...rest, ...(prepaidDiscountCap !== undefined ? { prepaidDiscountCap: prepaidDiscountCap === null ? null : paise(prepaidDiscountCap) } : {}), updatedAt: this.#clock.now() }
    await this.#db.insert(partnerPricing).values({ partnerId, ...values }).onConflictDoUpdate({ target: partnerPricing.partnerId, set: values })
    await this.#settingsCache.invalidate(pricingScope(partnerId))
    return this.pricing(partnerId)
  }

  /** The partner's pricing settings, the defaults filled in when it has none. */
  async pricing(partnerId: string) {
    const [row] = await this.#db.select().from(partnerPricing).where(eq(partnerPricing.partnerId, partnerId)).limit(1)
    return {
      rewardEarnPercent: row?.rewardEarnPercent ?? 1,
      rewardRedeemCapPercent: row?.rewardRedeemCapPercent ?? 10,
      paisePerPoint: row?.paisePerPoint ?? 100,
      returnWindowDays: row?.returnWindowDays ?? 7,
      prepaidDiscountPercent: row?.prepaidDiscountPercent ?? 0,
      prepaidDiscountCap: row?.prepaidDiscountCap == null ? null : formatPaise(row.prepaidDiscountCap),
    }
  }

  async createCoupon(partnerId: string, input: Omit<CouponInput, 'value' | 'maxDiscount' | 'minOrderValue'> & { value: Amount; maxDiscount?: Amount | null; minOrderValue?: Amount }) {
    if (!(await findPartner(this.#db, partnerId))) throw new AppError('NOT_FOUND', 'Partner not found')
    const value = input.kind === 'PERCENT' ? (/^\d+$/.test(String(input.value)) ? BigInt(input.value) : -1n) : paise(input.value)
    const row = await createCoupon(
      this.#db,
      partnerId,
      { ...input, value, maxDiscount: input.maxDiscount == null ? null : paise(input.maxDiscount), minOrderValue: input.minOrderValue === undefined ? 0n : paise(input.minOrderValue) },
      this.#clock.now(),
    )
    return couponOut(row)
  }

  /** A partner's coupons, newest first, whole or one page; `search`: part of the code. */
  async coupons(partnerId: string, query: OptionalPage & { search?: string | undefined }) {
    const search = query.search?.trim()
    const where = and(eq(coupons.partnerId, partnerId), search ? ilike(coupons.code, containing(search)) : undefined)
    const page = await wholeOrPage(
      query,
      (w) => this.#db.select().from(coupons).where(where).orderBy(desc(coupons.createdAt), desc(coupons.id)).limit(w.limit).offset(w.offset),
      async () => (await this.#db.select({ n: count() }).from(coupons).where(where))[0]!.n,
    )
    return { data: page.data.map(couponOut), meta: page.meta }
  }

  async updateCoupon(couponId: string, changes: { isActive?: boolean; validUntil?: Date | null }) {
    if (Object.values(changes).every((v) => v === undefined)) throw new AppError('BAD_REQUEST', 'Send at least one of isActive, validUntil')
    const [row] = await this.#db.update(coupons).set(changes).where(eq(coupons.id, couponId)).returning()
    if (!row) throw new AppError('NOT_FOUND', 'Coupon not found')
    return couponOut(row)
  }

  async #requirePartner(partnerId: string) {
    if (!(await findPartner(this.#db, partnerId))) throw new AppError('NOT_FOUND', 'Partner not found')
  }

  /** The partner's COD risk rules; every limit null when none were set. */
  async codRules(partnerId: string) {
    await this.#requirePartner(partnerId)
    const [row] = await this.#db.select().from(partnerCodRules).where(eq(partnerCodRules.partnerId, partnerId)).limit(1)
    return codRulesOut(row)
  }

  /** Replaces the partner's COD risk rules (an absent field is null: no limit). */
  async saveCodRules(partnerId: string, input: CodRulesInput) {
    if ((input.rtoLimit == null) !== (input.rtoWindowDays == null)) throw new AppError('BAD_REQUEST', 'rtoLimit and rtoWindowDays must be set together, or both left out')
    if ((input.maxRefusedDeliveries == null) !== (input.refusedWindowDays == null)) {
      throw new AppError('BAD_REQUEST', 'maxRefusedDeliveries and refusedWindowDays must be set together, or both left out')
    }
    await this.#requirePartner(partnerId)
    const values = {
      maxOpenCodOrders: input.maxOpenCodOrders ?? null,
      maxCodValue: input.maxCodValue == null ? null : paise(input.maxCodValue),
      rtoLimit: input.rtoLimit ?? null,
      rtoWindowDays: input.rtoWindowDays ?? null,
      maxRefusedDeliveries: input.maxRefusedDeliveries ?? null,
      refusedWindowDays: input.refusedWindowDays ?? null,
      firstOrderCap: input.firstOrderCap == null ? null : paise(input.firstOrderCap),
      updatedAt: this.#clock.now(),
    }
    const [row] = await this.#db.insert(partnerCodRules).values({ partnerId, ...values }).onConflictDoUpdate({ target: partnerCodRules.partnerId, set: values }).returning()
    await this.#settingsCache.invalidate(codRulesScope(partnerId))
    return codRulesOut(row)
  }

  /** The partner's COD-blocked pincodes in order, whole or one page; `search`: the first digits. */
  async codBlockedPincodes(partnerId: string, query: OptionalPage & { search?: string | undefined }) {
    await this.#requirePartner(partnerId)
    const where = and(eq(codBlockedPincodes.partnerId, partnerId), query.search ? like(codBlockedPincodes.pincode, startingWith(query.search)) : undefined)
    const page = await wholeOrPage(
      query,
      (w) => this.#db.select().from(codBlockedPincodes).where(where).orderBy(asc(codBlockedPincodes.pincode)).limit(w.limit).offset(w.offset),
      async () => (await this.#db.select({ n: count() }).from(codBlockedPincodes).where(where))[0]!.n,
    )
    return { data: page.data.map(blockedOut), meta: page.meta }
  }

  async blockCodPincode(partnerId: string, input: { pincode: string; reason?: string }) {
    await this.#requirePartner(partnerId)
    try {
      const [row] = await this.#db
        .insert(codBlockedPincodes)
        .values({ partnerId, pincode: input.pincode, reason: input.reason?.trim() || null, createdAt: this.#clock.now() })
        .returning()
      await this.#settingsCache.invalidate(codBlockedScope(partnerId))
      return blockedOut(row!)
    } catch (error) {
      if (isUniqueViolation(error, 'cod_blocked_pincodes_partner_id_pincode_pk')) throw new AppError('CONFLICT', `Pincode ${input.pincode} is already blocked for cash on delivery`)
      throw error
    }
  }

  async unblockCodPincode(partnerId: string, pincode: string) {
    await this.#requirePartner(partnerId)
    const [row] = await this.#db.delete(codBlockedPincodes).where(and(eq(codBlockedPincodes.partnerId, partnerId), eq(codBlockedPincodes.pincode, pincode))).returning()
    if (!row) throw new AppError('NOT_FOUND', `Pincode ${pincode} is not blocked for cash on delivery`)
    await this.#settingsCache.invalidate(codBlockedScope(partnerId))
    return blockedOut(row)
  }
}
