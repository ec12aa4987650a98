// creditedPart (src/modules/tax/documents.ts): the part of an invoice line that a credit note
// reverses, by cumulative proportion of its units. By property over random lines (as taxed at the
// time of sale: tax split out of the line's amount less its coupon share, intra- or inter-state) and
// random ways of returning them: every part adds up, none is negative, and the parts of a line
// returned in any pieces are the line to the paisa.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { splitInclusive, splitTax } from '../../src/lib/gst.ts'
import { creditedPart } from '../../src/modules/tax/documents.ts'

/** A line as issued on an invoice: quantity, amount, coupon share, and the tax split out of the rest. */
const invoiceLine = fc
  .record({
    quantity: fc.integer({ min: 1, max: 60 }),
    unitPrice: fc.bigInt({ min: 1n, max: 5_00_000_00n }),
    discountShare: fc.double({ min: 0, max: 1, noNaN: true }),
    rateBps: fc.constantFrom(0, 25, 300, 500, 1800, 4000),
    intraState: fc.boolean(),
  })
  .map(({ quantity, unitPrice, discountShare, rateBps, intraState }) => {
    const amount = unitPrice * BigInt(quantity)
    const discount = (amount * BigInt(Math.floor(discountShare * 1000))) / 1000n
    const { taxable, tax } = splitInclusive(amount - discount, rateBps)
    const { cgst, sgst, igst } = splitTax(tax, intraState ? 'INTRA_STATE' : 'INTER_STATE')
    return { quantity, amount, discount, taxableValue: taxable, cgst, sgst, igst }
  })

/** The line's units split into returns of random sizes, in order. */
const pieces = (quantity: number) =>
  fc.array(fc.integer({ min: 1, max: quantity }), { minLength: 1, maxLength: quantity }).map((sizes) => {
    const out: number[] = []
    let left = quantity
    for (const size of sizes) {
      if (left === 0) break
      const take = Math.min(size, left)
      out.push(take)
      left -= take
    }
    if (left > 0) out.push(left)
    return out
  })

const FIELDS = ['amount', 'discount', 'taxableValue', 'cgst', 'sgst', 'igst'] as const

describe('creditedPart: a credit note\'s share of an invoice line', () => {
  test('3 soaps at ₹99.99, 18 % inter-state, returned 1 then 2: ₹99.99 then ₹199.98, tax ₹15.25 then ₹30.51', () => {
    const line = { quantity: 3, amount: 29_997n, discount: 0n, taxableValue: 25_421n, cgst: 0n, sgst: 0n, igst: 4_576n }
    assert.deepEqual(creditedPart(line, 0, 1), { amount: 9_999n, discount: 0n, taxableValue: 8_474n, cgst: 0n, sgst: 0n, igst: 1_525n })
    assert.deepEqual(creditedPart(line, 1, 3), { amount: 19_998n, discount: 0n, taxableValue: 16_947n, cgst: 0n, sgst: 0n, igst: 3_051n })
  })

  test('every part adds up (taxable + taxes = amount - discount), no figure is negative, CGST and SGST within a paisa of each other', () => {
    fc.assert(
      fc.property(
        invoiceLine.chain((line) => fc.tuple(fc.constant(line), pieces(line.quantity))),
        ([line, sizes]) => {
          let from = 0
          for (const size of sizes) {
            const part = creditedPart(line, from, from + size)
            for (const field of FIELDS) assert.ok(part[field] >= 0n, `${field} ${part[field]} of units ${from}..${from + size}`)
            assert.equal(part.taxableValue + part.cgst + part.sgst + part.igst, part.amount - part.discount)
            if (line.igst === 0n && line.cgst > 0n) assert.ok(part.cgst - part.sgst >= -1n && part.cgst - part.sgst <= 1n, 'halves')
            from += size
          }
        },
      ),
      { numRuns: 2000 },
    )
  })

  test('the parts of a line returned in any pieces are the line, to the paisa, field by field', () => {
    fc.assert(
      fc.property(
        invoiceLine.chain((line) => fc.tuple(fc.constant(line), pieces(line.quantity))),
        ([line, sizes]) => {
          const sums = Object.fromEntries(FIELDS.map((f) => [f, 0n])) as Record<(typeof FIELDS)[number], bigint>
          let from = 0
          for (const size of sizes) {
            const part = creditedPart(line, from, from + size)
            for (const field of FIELDS) sums[field] += part[field]
            from += size
          }
          for (const field of FIELDS) assert.equal(sums[field], line[field], field)
        },
      ),
      { numRuns: 2000 },
    )
  })
})
