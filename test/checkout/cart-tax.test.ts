// taxCart, pure (decision 0021): lines taxed after their coupon share, charges at the principal
// supply's rate, totals as sums, and nothing when no line has a registered seller.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { taxCart } from '../../src/modules/checkout/cart-tax.ts'

const line = (productId: string, lineTotal: bigint, rateBps: number | null, couponDiscount = 0n, kind: 'INTRA_STATE' | 'INTER_STATE' = 'INTER_STATE') => ({
  productId,
  lineTotal,
  couponDiscount,
  terms: rateBps === null ? null : { hsnCode: `HSN${rateBps}`, rateBps, kind },
})

describe('taxCart', () => {
  test('a line is taxed on its line total less its coupon share, half-up on the line total', () => {
    const tax = taxCart({ lines: [line('a', 29_997n, 1800), line('b', 10_000n, 1800, 1_000n)], shippingCharge: 0n, codFee: 0n })!
    assert.deepEqual([tax.lines[0]!.taxable, tax.lines[0]!.igst], [25_421n, 4_576n])
    assert.deepEqual([tax.lines[1]!.taxable, tax.lines[1]!.tax], [7_627n, 1_373n], '₹90.00 at 18 %')
    assert.equal(tax.taxable + tax.tax, 29_997n + 9_000n)
  })

  test('the charges take the rate of the line of highest taxable value, not the highest rate; ties to the earlier line', () => {
    const byValue = taxCart({ lines: [line('cola', 15_000n, 4000), line('atta', 30_000n, 500)], shippingCharge: 6_900n, codFee: 4_900n })!
    assert.deepEqual(byValue.charges.map((c) => [c.charge, c.rateBps, c.hsnCode, c.taxable, c.tax]), [
      ['SHIPPING', 500, 'HSN500', 6_571n, 329n],
      ['COD_FEE', 500, 'HSN500', 4_667n, 233n],
    ])
    const tie = (first: number, firstTotal: bigint, second: number, secondTotal: bigint) =>
      taxCart({ lines: [line('x', firstTotal, first), line('y', secondTotal, second)], shippingCharge: 4_000n, codFee: 0n })!.charges.map((c) => c.rateBps)
    assert.deepEqual(tie(1800, 11_800n, 500, 10_500n), [1800])
    assert.deepEqual(tie(500, 10_500n, 1800, 11_800n), [500])
  })

  test('totals are the sums of lines and charges; intra-state halves with the odd paisa to CGST', () => {
    const tax = taxCart({ lines: [line('a', 30_000n, 500, 0n, 'INTRA_STATE'), line('b', 100_000n, 1800, 0n, 'INTRA_STATE')], shippingCharge: 4_000n, codFee: 0n })!
    assert.deepEqual([tax.lines[0]!.cgst, tax.lines[0]!.sgst, tax.lines[0]!.igst], [715n, 714n, 0n])
    const all = [...tax.lines.map((l) => l!), ...tax.charges]
    for (const field of ['taxable', 'cgst', 'sgst', 'igst', 'tax'] as const) assert.equal(tax[field], all.reduce((s, l) => s + l[field], 0n), field)
    assert.equal(tax.intraState, true)
  })

  test('no registered seller for any line: null; a mixed cart taxes only the registered lines', () => {
    assert.equal(taxCart({ lines: [line('a', 10_000n, null)], shippingCharge: 4_000n, codFee: 4_900n }), null)
    const mixed = taxCart({ lines: [line('a', 50_000n, null), line('b', 11_800n, 1800)], shippingCharge: 0n, codFee: 0n })!
    assert.equal(mixed.lines[0], null)
    assert.equal(mixed.tax, 1_800n)
  })
})
