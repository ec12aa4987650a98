// The pricing module, by example and by property (fast-check over random carts, coupons and balances).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { allocate, type PricingInput, priceCart } from '../../src/modules/checkout/pricing.ts'

const paise = (max: number) => fc.bigInt({ min: 0n, max: BigInt(max) })
const line = fc.record({
  productId: fc.string({ minLength: 1, maxLength: 5 }),
  quantity: fc.integer({ min: 1, max: 9999 }),
  unitPrice: paise(20_000_000),
  unitMrp: paise(20_000_000),
  categoryId: fc.constantFrom('c1', 'c2', 'c3'),
})
const coupon = fc.option(
  fc.record({
    code: fc.constant('SAVE'),
    kind: fc.constantFrom('PERCENT' as const, 'FLAT' as const),
    value: fc.bigInt({ min: 1n, max: 100n }).chain((pct) => fc.constantFrom(pct, pct * 1000n)),
    maxDiscount: fc.option(paise(500_000), { nil: null }),
    categoryIds: fc.option(fc.subarray(['c1', 'c2', 'c3']), { nil: null }),
  }),
  { nil: null },
)
const input: fc.Arbitrary<PricingInput> = fc.record({
  lines: fc.array(line, { minLength: 1, maxLength: 8 }),
  coupon,
  shippingCharge: paise(50_000),
  codFee: paise(10_000),
  rewardPoints: fc.record({ balance: paise(100_000), use: fc.boolean(), redeemCapPercent: fc.integer({ min: 0, max: 100 }), paisePerPoint: fc.constantFrom(100n, 50n, 25n) }),
  walletCash: fc.record({ balance: paise(10_000_000), use: fc.boolean() }),
})

describe('priceCart examples', () => {
  test('coupon, shipping, COD fee, points up to the cap, then wallet', () => {
    const priced = priceCart({
      lines: [
        { productId: 'a', quantity: 2, unitPrice: 30_000n, unitMrp: 32_000n, categoryId: 'c1' },
        { productId: 'b', quantity: 1, unitPrice: 15_000n, unitMrp: 16_000n, categoryId: 'c2' },
      ],
      coupon: { code: 'TEN', kind: 'PERCENT', value: 10n, maxDiscount: 5000n, categoryIds: ['c1'] },
      shippingCharge: 4000n,
      codFee: 4900n,
      rewardPoints: { balance: 1000n, use: true, redeemCapPercent: 10, paisePerPoint: 100n },
      walletCash: { balance: 10_000n, use: true },
    })
    assert.equal(priced.itemsTotal, 75_000n)
    assert.equal(priced.mrpTotal, 80_000n)
    assert.equal(priced.couponDiscount, 5000n, '10% of ₹600 is ₹60, capped at ₹50')
    assert.equal(priced.totalAmount, 75_000n - 5000n + 4000n + 4900n)
    assert.equal(priced.rewardPointsUsed, 70n, '10% of ₹700 is ₹70 = 70 points')
    assert.equal(priced.rewardPointsValue, 7000n)
    assert.equal(priced.walletCashUsed, 10_000n)
    assert.equal(priced.remainingPayable, 78_900n - 7000n - 10_000n)
    assert.deepEqual(priced.lines.map((l) => l.couponDiscount), [5000n, 0n])
  })

  test('allocate is exact and proportional', () => {
    assert.deepEqual(allocate(100n, [1n, 1n, 1n]), [34n, 33n, 33n])
    assert.deepEqual(allocate(0n, [5n, 5n]), [0n, 0n])
    assert.deepEqual(allocate(10n, [0n, 0n]), [0n, 0n])
  })
})

describe('priceCart properties', () => {
  test('remainingPayable ≥ 0 and totals add up to the paisa', () => {
    fc.assert(
      fc.property(input, (i) => {
        const p = priceCart(i)
        assert.ok(p.remainingPayable >= 0n)
        assert.equal(p.itemsTotal, p.lines.reduce((s, l) => s + l.lineTotal, 0n))
        assert.equal(p.totalAmount, p.itemsTotal - p.couponDiscount + p.shippingCharge + p.codFee)
        assert.equal(p.remainingPayable, p.totalAmount - p.rewardPointsValue - p.walletCashUsed)
      }),
      { numRuns: 500 },
    )
  })

  test('no discount exceeds what it discounts, nor a balance or a cap', () => {
    fc.assert(
      fc.property(input, (i) => {
        const p = priceCart(i)
        assert.ok(p.couponDiscount >= 0n && p.couponDiscount <= p.itemsTotal)
        if (i.coupon?.maxDiscount != null) assert.ok(p.couponDiscount <= i.coupon.maxDiscount)
        if (!i.coupon) assert.equal(p.couponDiscount, 0n)
        assert.ok(p.rewardPointsUsed <= i.rewardPoints.balance)
        assert.ok(p.rewardPointsValue * 100n <= (p.itemsTotal - p.couponDiscount) * BigInt(i.rewardPoints.redeemCapPercent))
        if (!i.rewardPoints.use) assert.equal(p.rewardPointsUsed, 0n)
        assert.ok(p.walletCashUsed <= i.walletCash.balance)
        if (!i.walletCash.use) assert.equal(p.walletCashUsed, 0n)
        for (const l of p.lines) {
          assert.ok(l.couponDiscount >= 0n && l.rewardPointsDiscount >= 0n && l.paidAmount >= 0n)
          if (i.coupon?.categoryIds && !i.coupon.categoryIds.includes(l.categoryId)) assert.equal(l.couponDiscount, 0n)
        }
      }),
      { numRuns: 500 },
    )
  })

  test('line allocations sum to the order discounts', () => {
    fc.assert(
      fc.property(input, (i) => {
        const p = priceCart(i)
        assert.equal(p.lines.reduce((s, l) => s + l.couponDiscount, 0n), p.couponDiscount)
        assert.equal(p.lines.reduce((s, l) => s + l.rewardPointsDiscount, 0n), p.rewardPointsValue)
        assert.equal(p.lines.reduce((s, l) => s + l.paidAmount, 0n), p.itemsTotal - p.couponDiscount - p.rewardPointsValue)
      }),
      { numRuns: 500 },
    )
  })
})
