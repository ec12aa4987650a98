// The money arithmetic of src/lib/money.ts, by example and by property (fast-check over random
// amounts): splits add up exactly, no part is negative or more than a paisa off its exact share,
// percentages and caps never exceed what they limit, and the stated rounding direction holds.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import {
  allocate,
  cappedDiscount,
  formatPaise,
  lineTotal,
  paisePerPointOf,
  parseRupees,
  percentOf,
  pointsEarned,
  pointsFor,
  pointsForSlice,
  pointsValue,
  shareOfSlice,
  spendable,
  splitRefund,
  sumPaise,
} from '../../src/lib/money.ts'

const paise = (max: bigint) => fc.bigInt({ min: 0n, max })
const amount = paise(10_000_000_00n) // up to ₹1 crore
const percent = fc.bigInt({ min: 0n, max: 100n })
const abs = (x: bigint) => (x < 0n ? -x : x)
const runs = { numRuns: 1000 }

describe('formatting and parsing', () => {
  test('formatPaise writes two decimals, with the sign in front', () => {
    assert.equal(formatPaise(129_950n), '1299.50')
    assert.equal(formatPaise(5n), '0.05')
    assert.equal(formatPaise(0n), '0.00', 'zero has no sign')
    assert.equal(formatPaise(-105n), '-1.05')
  })

  test('parseRupees reads back what formatPaise wrote, for any amount', () => {
    fc.assert(fc.property(fc.bigInt({ min: -(10n ** 15n) + 1n, max: 10n ** 15n - 1n }), (p) => parseRupees(formatPaise(p)) === p), runs)
  })

  test('parseRupees refuses three decimals and words', () => {
    assert.equal(parseRupees('1.005'), null)
    assert.equal(parseRupees('ten'), null)
    assert.equal(parseRupees(12.5), 1250n)
  })
})

describe('sums, lines and percentages', () => {
  test('sumPaise is the exact total, 0 for nothing', () => {
    assert.equal(sumPaise([]), 0n)
    fc.assert(fc.property(fc.array(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n })), (xs) => sumPaise(xs) === xs.reduce((s, x) => s + x, 0n)), runs)
  })

  test('lineTotal is units times the unit price', () => {
    assert.equal(lineTotal(129_900n, 3), 389_700n)
    fc.assert(fc.property(amount, fc.integer({ min: 0, max: 9999 }), (price, q) => lineTotal(price, q) === sumPaise(Array.from({ length: q }, () => price))), { numRuns: 100 })
  })

  test('percentOf rounds down: never above the exact value, less than a paisa below it', () => {
    assert.equal(percentOf(999n, 10n), 99n, '10% of 9.99 is 0.999, rounded down')
    assert.equal(percentOf(1000n, 10), 100n)
    fc.assert(
      fc.property(amount, percent, (a, p) => {
        const x = percentOf(a, p)
        assert.ok(x * 100n <= a * p, 'not above the exact value')
        assert.ok(a * p - x * 100n < 100n, 'less than a paisa below it')
        assert.ok(x >= 0n && x <= a, 'between nothing and all of it')
      }),
      runs,
    )
  })

  test('cappedDiscount never exceeds the cap nor the base, and is never negative', () => {
    assert.equal(cappedDiscount(6000n, 5000n, 60_000n), 5000n)
    assert.equal(cappedDiscount(6000n, null, 4000n), 4000n)
    assert.equal(cappedDiscount(-1n, null, 4000n), 0n)
    fc.assert(
      fc.property(fc.bigInt({ min: -1000n, max: 10n ** 9n }), fc.option(amount, { nil: null }), amount, (d, cap, base) => {
        const x = cappedDiscount(d, cap, base)
        assert.ok(x >= 0n && x <= base)
        if (cap !== null) assert.ok(x <= cap)
        if (d >= 0n && d <= base && (cap === null || d <= cap)) assert.equal(x, d, 'a discount inside every limit is kept whole')
      }),
      runs,
    )
  })

  test('spendable is never negative nor above the limit, and all of a balance that fits', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 6n), max: 10n ** 9n }), amount, (balance, limit) => {
        const x = spendable(balance, limit)
        assert.ok(x >= 0n && x <= limit)
        assert.ok(x <= (balance > 0n ? balance : 0n))
        if (balance >= 0n && balance <= limit) assert.equal(x, balance)
      }),
      runs,
    )
  })
})

describe('allocate (largest remainder)', () => {
  test('examples: remainders to the largest, ties to the earlier part', () => {
    assert.deepEqual(allocate(100n, [1n, 1n, 1n]), [34n, 33n, 33n])
    assert.deepEqual(allocate(10n, [3n, 7n]), [3n, 7n])
    assert.deepEqual(allocate(5n, [1n, 2n]), [2n, 3n], '5/3 and 10/3: the paisa left over goes to the larger remainder (2/3, the first)')
    assert.deepEqual(allocate(0n, [5n, 5n]), [0n, 0n])
    assert.deepEqual(allocate(10n, [0n, 0n]), [0n, 0n])
    assert.deepEqual(allocate(10n, []), [])
  })

  test('the parts add up to the whole, none is negative, each within a paisa of its exact share', () => {
    fc.assert(
      fc.property(amount, fc.array(amount, { minLength: 1, maxLength: 12 }), (whole, weights) => {
        const parts = allocate(whole, weights)
        const total = sumPaise(weights)
        assert.equal(parts.length, weights.length)
        if (total === 0n) return parts.every((p) => p === 0n)
        assert.equal(sumPaise(parts), whole)
        for (const [i, p] of parts.entries()) {
          assert.ok(p >= 0n)
          // |p - whole x w / total| < 1  <=>  |p x total - whole x w| < total
          assert.ok(abs(p * total - whole * weights[i]!) < total, `part ${i} within a paisa`)
          if (weights[i] === 0n) assert.equal(p, 0n, 'nothing to a part of no weight')
        }
        return true
      }),
      runs,
    )
  })

  test('ties go to the earlier part: of equal weights, an earlier part never gets less', () => {
    assert.deepEqual(allocate(2n, [1n, 1n, 1n]), [1n, 1n, 0n])
    fc.assert(
      fc.property(amount, fc.array(fc.bigInt({ min: 0n, max: 5n }), { minLength: 2, maxLength: 12 }), (whole, weights) => {
        const parts = allocate(whole, weights)
        for (let i = 0; i < weights.length; i++) for (let j = i + 1; j < weights.length; j++) if (weights[i] === weights[j]) assert.ok(parts[i]! >= parts[j]!)
      }),
      runs,
    )
  })

  test('a heavier part never gets less than a lighter one', () => {
    fc.assert(
      fc.property(amount, fc.array(amount, { minLength: 2, maxLength: 8 }), (whole, weights) => {
        const parts = allocate(whole, weights)
        for (let i = 0; i < weights.length; i++) for (let j = 0; j < weights.length; j++) if (weights[i]! > weights[j]!) assert.ok(parts[i]! >= parts[j]!)
      }),
      runs,
    )
  })
})

describe('shareOfSlice (cumulative rounding down)', () => {
  test('examples: the units of a line add up to the line', () => {
    assert.deepEqual([0, 1, 2].map((from) => shareOfSlice(100n, 3, from, 1)), [33n, 33n, 34n])
    assert.equal(shareOfSlice(100n, 3, 0, 3), 100n)
    assert.equal(shareOfSlice(100n, 0, 0, 1), 0n, 'nothing of an empty whole')
  })

  test('any cut of the whole into consecutive slices adds up to the total exactly, each within a paisa', () => {
    fc.assert(
      fc.property(amount, fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 10 }), (total, counts) => {
        const whole = counts.reduce((s, c) => s + c, 0)
        if (whole === 0) return true
        let from = 0
        const shares = counts.map((count) => {
          const share = shareOfSlice(total, whole, from, count)
          from += count
          assert.ok(share >= 0n)
          assert.ok(abs(share * BigInt(whole) - total * BigInt(count)) < BigInt(whole), 'within a paisa of its exact share')
          return share
        })
        assert.equal(sumPaise(shares), total)
        return true
      }),
      runs,
    )
  })
})

describe('Reward Points', () => {
  const rate = fc.constantFrom(1n, 25n, 50n, 100n, 250n)

  test('pointsFor rounds down to whole points, never worth more than the value', () => {
    assert.equal(pointsFor(7_099n, 100n), 70n)
    assert.equal(pointsFor(7_099n, 0n), 0n, 'a point of no value buys nothing')
    fc.assert(
      fc.property(amount, rate, (value, ppp) => {
        const points = pointsFor(value, ppp)
        assert.ok(pointsValue(points, ppp) <= value)
        assert.ok(value - pointsValue(points, ppp) < ppp, 'less than a point left over')
      }),
      runs,
    )
  })

  test('pointsForSlice: slices of a value give back, together, the points of the whole value', () => {
    fc.assert(
      fc.property(fc.array(amount, { minLength: 1, maxLength: 10 }), rate, (values, ppp) => {
        let before = 0n
        let points = 0n
        for (const v of values) {
          const slice = pointsForSlice(before, v, ppp)
          assert.ok(slice >= 0n)
          points += slice
          before += v
        }
        assert.equal(points, pointsFor(sumPaise(values), ppp))
      }),
      runs,
    )
  })

  test('paisePerPointOf gives back the rate that priced the points', () => {
    assert.equal(paisePerPointOf(7000n, 0n), 0n)
    fc.assert(fc.property(fc.bigInt({ min: 1n, max: 10n ** 6n }), rate, (points, ppp) => paisePerPointOf(pointsValue(points, ppp), points) === ppp), runs)
  })

  test('pointsEarned: a percentage of what was paid, rounded down twice, none on nothing paid', () => {
    assert.equal(pointsEarned(199_900n, 1n, 100n), 19n, '1% of ₹1999 is ₹19.99: 19 points')
    assert.equal(pointsEarned(0n, 5n, 100n), 0n)
    assert.equal(pointsEarned(-100n, 5n, 100n), 0n)
    assert.equal(pointsEarned(10_000n, 5n, 0n), 0n)
    fc.assert(
      fc.property(amount, percent, rate, (paid, pct, ppp) => {
        const points = pointsEarned(paid, pct, ppp)
        assert.ok(points >= 0n)
        assert.ok(pointsValue(points, ppp) * 100n <= paid * pct, 'never worth more than the percentage')
      }),
      runs,
    )
  })
})

describe('splitRefund over the tenders', () => {
  const tenders = fc
    .record({ providerPaid: amount, walletPaid: amount, refundedBefore: amount })
    .map((t) => ({ ...t, providerLeft: t.providerPaid - (t.refundedBefore > t.providerPaid ? t.providerPaid : t.refundedBefore) }))
    .chain((t) => fc.tuple(fc.constant(t), paise(t.providerPaid + t.walletPaid)))

  test('examples: the card rounds up, the wallet down', () => {
    assert.deepEqual(splitRefund(100n, { providerPaid: 1n, walletPaid: 2n, providerLeft: 1n }), { provider: 1n, wallet: 99n })
    assert.deepEqual(splitRefund(10n, { providerPaid: 200n, walletPaid: 100n, providerLeft: 200n }), { provider: 7n, wallet: 3n }, '6.67 to the card rounds up to 7')
    assert.deepEqual(splitRefund(10n, { providerPaid: 0n, walletPaid: 0n, providerLeft: 0n }), { provider: 0n, wallet: 10n })
    assert.deepEqual(splitRefund(300n, { providerPaid: 200n, walletPaid: 100n, providerLeft: 50n }), { provider: 50n, wallet: 250n }, 'the card capped at what is left of it')
  })

  test('the parts add up to the refund, none negative, the card within its share rounded up and what is left of it', () => {
    fc.assert(
      fc.property(tenders, ([t, refund]) => {
        const both = t.providerPaid + t.walletPaid
        const { provider, wallet } = splitRefund(refund, t)
        assert.equal(provider + wallet, refund)
        assert.ok(provider >= 0n && wallet >= 0n)
        assert.ok(provider <= t.providerLeft)
        if (both > 0n) {
          // provider <= ceil(refund x paid / both), and equal to it unless the cap held it back.
          assert.ok(provider * both < refund * t.providerPaid + both)
          if (provider < t.providerLeft) assert.ok(provider * both >= refund * t.providerPaid, 'rounded up, not down')
        } else assert.equal(provider, 0n)
      }),
      runs,
    )
  })

  test('partial refunds that together give back everything never credit the wallet more than it paid', () => {
    fc.assert(
      fc.property(amount, amount, fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 6 }), (providerPaid, walletPaid, weights) => {
        const parts = allocate(providerPaid + walletPaid, weights.map(BigInt))
        let providerBack = 0n
        let walletBack = 0n
        for (const part of parts) {
          const { provider, wallet } = splitRefund(part, { providerPaid, walletPaid, providerLeft: providerPaid - providerBack })
          providerBack += provider
          walletBack += wallet
        }
        assert.equal(providerBack + walletBack, providerPaid + walletPaid)
        assert.equal(walletBack, walletPaid, 'everything given back: each tender gets back exactly what it paid')
      }),
      runs,
    )
  })
})
