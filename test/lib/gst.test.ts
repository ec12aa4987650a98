// GST arithmetic of src/lib/gst.ts, by example and by property (fast-check over random amounts and
// rates): a tax-inclusive amount splits into taxable + tax exactly, CGST + SGST is the tax, a coupon
// spreads over lines to the paisa and in proportion, and totals are the exact sums of the lines.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { allocateDiscount, splitInclusive, splitTax, sumTaxLines, taxLines } from '../../src/lib/gst.ts'
import { lineTotal, sumPaise } from '../../src/lib/money.ts'

const amount = fc.bigInt({ min: 0n, max: 10_000_000_00n }) // up to ₹1 crore
const rateBps = fc.constantFrom(0, 25, 300, 500, 1200, 1800, 2800, 4000).chain((r) => fc.oneof(fc.constant(r), fc.integer({ min: 0, max: 10_000 })))
const tax = fc.bigInt({ min: 0n, max: 10_000_000_00n })
const abs = (x: bigint) => (x < 0n ? -x : x)
const runs = { numRuns: 1000 }

describe('splitInclusive: a tax-inclusive amount into taxable value and tax', () => {
  test('3 x ₹99.99 at 18 %: tax on the line total ₹45.76 (4575.66 paise rounded half-up), taxable ₹254.21', () => {
    const line = lineTotal(9_999n, 3)
    assert.deepEqual(splitInclusive(line, 1800), { taxable: 25_421n, tax: 4_576n })
    // Per unit it would be 3 x 15.25 = 45.75: the rule is on the line total, not per unit.
    assert.equal(splitInclusive(9_999n, 1800).tax * 3n, 4_575n)
  })

  test('a half paisa of tax rounds up, less than half rounds down', () => {
    assert.deepEqual(splitInclusive(59n, 1800), { taxable: 50n, tax: 9n }, '59 x 18 / 118 = 9 exactly')
    assert.equal(splitInclusive(3n, 2000).tax, 1n, '3 x 20 / 120 = 0.5: half rounds up')
    assert.equal(splitInclusive(3n, 1800).tax, 0n, '3 x 18 / 118 = 0.46: down')
    assert.equal(splitInclusive(4n, 1800).tax, 1n, '4 x 18 / 118 = 0.61: up')
  })

  test('nil rate: everything is taxable value', () => {
    assert.deepEqual(splitInclusive(12_345n, 0), { taxable: 12_345n, tax: 0n })
  })

  test('taxable + tax == amount, neither negative, tax within half a paisa of the exact tax', () => {
    fc.assert(
      fc.property(amount, rateBps, (a, r) => {
        const { taxable, tax: t } = splitInclusive(a, r)
        assert.equal(taxable + t, a)
        assert.ok(taxable >= 0n && t >= 0n)
        // |t - a r / (10000 + r)| <= 1/2  <=>  |2 t (10000 + r) - 2 a r| <= 10000 + r
        const d = 10_000n + BigInt(r)
        assert.ok(abs(2n * t * d - 2n * a * BigInt(r)) <= d, 'within half a paisa')
        // half-up: exactly half rounds up
        if (2n * a * BigInt(r) % (2n * d) === d) assert.equal(t * d > a * BigInt(r), true)
        return true
      }),
      runs,
    )
  })

  test('refuses a negative amount or a fractional rate', () => {
    assert.throws(() => splitInclusive(-1n, 1800), RangeError)
    assert.throws(() => splitInclusive(100n, 18.5), RangeError)
    assert.throws(() => splitInclusive(100n, -5), RangeError)
  })
})

describe('splitTax: CGST + SGST or IGST', () => {
  test('intra-state halves, the odd paisa to CGST; inter-state all IGST', () => {
    assert.deepEqual(splitTax(4_576n, 'INTRA_STATE'), { cgst: 2_288n, sgst: 2_288n, igst: 0n })
    assert.deepEqual(splitTax(7_191n, 'INTRA_STATE'), { cgst: 3_596n, sgst: 3_595n, igst: 0n })
    assert.deepEqual(splitTax(7_191n, 'INTER_STATE'), { cgst: 0n, sgst: 0n, igst: 7_191n })
  })

  test('the components add up to the tax, none negative, CGST and SGST differ by at most the odd paisa', () => {
    fc.assert(
      fc.property(tax, fc.constantFrom('INTRA_STATE' as const, 'INTER_STATE' as const), (t, kind) => {
        const { cgst, sgst, igst } = splitTax(t, kind)
        assert.equal(cgst + sgst + igst, t)
        assert.ok(cgst >= 0n && sgst >= 0n && igst >= 0n)
        if (kind === 'INTRA_STATE') {
          assert.equal(igst, 0n)
          assert.equal(cgst - sgst, t % 2n)
        } else assert.equal(cgst + sgst, 0n)
        return true
      }),
      runs,
    )
  })
})

describe('allocateDiscount: a coupon over the lines', () => {
  test('largest remainder, ties to the earlier line', () => {
    assert.deepEqual(allocateDiscount(10_000n, [100_000n, 50_000n, 25_000n]), [5_714n, 2_857n, 1_429n])
    assert.deepEqual(allocateDiscount(100n, [1_000n, 1_000n, 1_000n]), [34n, 33n, 33n])
    assert.deepEqual(allocateDiscount(0n, [1_000n]), [0n])
  })

  test('refuses a discount above the lines or below zero', () => {
    assert.throws(() => allocateDiscount(3_001n, [1_000n, 2_000n]), RangeError)
    assert.throws(() => allocateDiscount(-1n, [1_000n]), RangeError)
  })

  const linesAndDiscount = fc.array(amount, { minLength: 1, maxLength: 10 }).chain((lines) =>
    fc.tuple(fc.constant(lines), fc.bigInt({ min: 0n, max: sumPaise(lines) })),
  )

  test('shares add up to the discount, none negative or above its line, each within a paisa of proportional', () => {
    fc.assert(
      fc.property(linesAndDiscount, ([lines, discount]) => {
        const shares = allocateDiscount(discount, lines)
        const total = sumPaise(lines)
        assert.equal(sumPaise(shares), discount)
        for (const [i, s] of shares.entries()) {
          assert.ok(s >= 0n && s <= lines[i]!)
          if (total > 0n) assert.ok(abs(s * total - discount * lines[i]!) < total, `share ${i} within a paisa of proportional`)
        }
        return true
      }),
      runs,
    )
  })
})

describe('taxLines and sumTaxLines', () => {
  test('a ₹100 coupon over three lines at 5, 18 and 40 %, intra-state', () => {
    const lines = taxLines(
      [
        { amount: 100_000n, rateBps: 500 },
        { amount: 50_000n, rateBps: 1800 },
        { amount: 25_000n, rateBps: 4000 },
      ],
      10_000n,
      'INTRA_STATE',
    )
    // discount shares 5714.29, 2857.14, 1428.57 -> 5714, 2857, 1429 (the largest remainder, .57, gets the paisa left)
    assert.deepEqual(lines.map((l) => l.discount), [5_714n, 2_857n, 1_429n])
    // net 94286 x 5/105 = 4489.81 -> 4490; 47143 x 18/118 = 7191.25 -> 7191; 23571 x 40/140 = 6734.57 -> 6735
    assert.deepEqual(lines.map((l) => l.tax), [4_490n, 7_191n, 6_735n])
    assert.deepEqual(lines.map((l) => l.taxable), [89_796n, 39_952n, 16_836n])
    assert.deepEqual(lines.map((l) => [l.cgst, l.sgst]), [[2_245n, 2_245n], [3_596n, 3_595n], [3_368n, 3_367n]])
    const totals = sumTaxLines(lines)
    assert.deepEqual(totals, { amount: 175_000n, discount: 10_000n, net: 165_000n, taxable: 146_584n, tax: 18_416n, cgst: 9_209n, sgst: 9_207n, igst: 0n })
  })

  test('the same lines inter-state: all IGST, same taxable value', () => {
    const lines = taxLines([{ amount: 29_997n, rateBps: 1800 }], 0n, 'INTER_STATE')
    assert.deepEqual(sumTaxLines(lines), { amount: 29_997n, discount: 0n, net: 29_997n, taxable: 25_421n, tax: 4_576n, cgst: 0n, sgst: 0n, igst: 4_576n })
  })

  const order = fc
    .array(fc.record({ amount, rateBps }), { minLength: 1, maxLength: 8 })
    .chain((lines) => fc.tuple(fc.constant(lines), fc.bigInt({ min: 0n, max: sumPaise(lines.map((l) => l.amount)) }), fc.constantFrom('INTRA_STATE' as const, 'INTER_STATE' as const)))

  test('every line and the totals add up exactly; nothing is negative', () => {
    fc.assert(
      fc.property(order, ([input, discount, kind]) => {
        const lines = taxLines(input, discount, kind)
        for (const l of lines) {
          assert.equal(l.net, l.amount - l.discount)
          assert.equal(l.taxable + l.tax, l.net)
          assert.equal(l.cgst + l.sgst + l.igst, l.tax)
          for (const v of [l.discount, l.net, l.taxable, l.tax, l.cgst, l.sgst, l.igst]) assert.ok(v >= 0n)
        }
        const totals = sumTaxLines(lines)
        assert.equal(totals.discount, discount)
        assert.equal(totals.amount, sumPaise(input.map((l) => l.amount)))
        assert.equal(totals.taxable + totals.tax, totals.net)
        assert.equal(totals.net, totals.amount - discount)
        assert.equal(totals.cgst + totals.sgst + totals.igst, totals.tax)
        return true
      }),
      runs,
    )
  })
})
