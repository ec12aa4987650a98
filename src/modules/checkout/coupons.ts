// Coupon rules: a coupon applies when it belongs to the customer's partner, is active, inside its
// validity window, not exhausted overall or by this customer, and the order reaches its minimum.
// Each refusal says which rule failed.
import { and, count, eq, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { formatPaise } from '../../lib/money.ts'
import type { PricingCoupon } from './pricing.ts'
import { couponRedemptions, coupons } from './schema.sql.ts'

export const normalizeCouponCode = (code: string) => code.trim().toUpperCase()

export async function applicableCoupon(
  db: Executor,
  input: { partnerId: string; userId: string; code: string; itemsTotal: bigint; now: Date },
): Promise<PricingCoupon & { id: string }> {
  const code = normalizeCouponCode(input.code)
  const [coupon] = await db.select().from(coupons).where(and(eq(coupons.partnerId, input.partnerId), eq(coupons.code, code))).limit(1)
  const refuse = (why: string) => new AppError('BAD_REQUEST', `Coupon ${code} ${why}`)
  if (!coupon) throw refuse('does not exist')
  if (!coupon.isActive) throw refuse('is not active')
  if (coupon.validFrom && input.now < coupon.validFrom) throw refuse('is not valid yet')
  if (coupon.validUntil && input.now > coupon.validUntil) throw refuse('has expired')
  if (coupon.totalUsageLimit !== null && coupon.usedCount >= coupon.totalUsageLimit) throw refuse('has been fully used')
  if (coupon.perCustomerLimit !== null) {
    const [used] = await db
      .select({ n: count() })
      .from(couponRedemptions)
      .where(and(eq(couponRedemptions.couponId, coupon.id), eq(couponRedemptions.userId, input.userId)))
    if ((used?.n ?? 0) >= coupon.perCustomerLimit) throw refuse('has already been used the most times allowed for this customer')
  }
  if (input.itemsTotal < coupon.minOrderValue) throw refuse(`needs a minimum order value of ₹${formatPaise(coupon.minOrderValue)}`)
  return { id: coupon.id, code, kind: coupon.kind, value: coupon.value, maxDiscount: coupon.maxDiscount, categoryIds: coupon.categoryIds ?? null }
}

export interface CouponInput {
  code: string
  kind: 'PERCENT' | 'FLAT'
  /** PERCENT: whole percent 1-100; FLAT: paise. */
  value: bigint
  maxDiscount?: bigint | null
  minOrderValue?: bigint
  validFrom?: Date | null
  validUntil?: Date | null
  totalUsageLimit?: number | null
  perCustomerLimit?: number | null
  categoryIds?: string[] | null
}

export async function createCoupon(db: Executor, partnerId: string, input: CouponInput, now: Date) {
  if (input.kind === 'PERCENT' && (input.value < 1n || input.value > 100n)) throw new AppError('BAD_REQUEST', 'value must be a whole percent from 1 to 100')
  if (input.kind === 'FLAT' && input.value < 1n) throw new AppError('BAD_REQUEST', 'value must be a positive amount')
  if (input.validFrom && input.validUntil && input.validUntil <= input.validFrom) throw new AppError('BAD_REQUEST', 'validUntil must be after validFrom')
  const [row] = await db
    .insert(coupons)
    .values({
      id: newId('cpn'),
      partnerId,
      code: normalizeCouponCode(input.code),
      kind: input.kind,
      value: input.value,
      maxDiscount: input.maxDiscount ?? null,
      minOrderValue: input.minOrderValue ?? 0n,
      validFrom: input.validFrom ?? null,
      validUntil: input.validUntil ?? null,
      totalUsageLimit: input.totalUsageLimit ?? null,
      perCustomerLimit: input.perCustomerLimit ?? null,
      categoryIds: input.categoryIds ?? null,
      createdAt: now,
    })
    .returning()
  return row!
}

/** Records one use (order creation calls this in its transaction); refuses past the total limit. */
export async function redeemCoupon(tx: Executor, input: { couponId: string; userId: string; orderId: string | null; at: Date }) {
  const updated = await tx
    .update(coupons)
    .set({ usedCount: sql`${coupons.usedCount} + 1` })
    .where(and(eq(coupons.id, input.couponId), sql`(${coupons.totalUsageLimit} is null or ${coupons.usedCount} < ${coupons.totalUsageLimit})`))
    .returning({ id: coupons.id })
  if (updated.length === 0) throw new AppError('BAD_REQUEST', 'Coupon has been fully used')
  await tx.insert(couponRedemptions).values({ id: newId('red'), couponId: input.couponId, userId: input.userId, orderId: input.orderId, createdAt: input.at })
}

/** Undoes the use an order made of a coupon (cancellation, expiry). Inside the caller's transaction. */
export async function releaseCoupon(tx: Executor, input: { couponId: string; orderId: string }) {
  const removed = await tx
    .delete(couponRedemptions)
    .where(and(eq(couponRedemptions.couponId, input.couponId), eq(couponRedemptions.orderId, input.orderId)))
    .returning({ id: couponRedemptions.id })
  if (removed.length > 0) {
    await tx.update(coupons).set({ usedCount: sql`greatest(${coupons.usedCount} - ${removed.length}, 0)` }).where(eq(coupons.id, input.couponId))
  }
}
