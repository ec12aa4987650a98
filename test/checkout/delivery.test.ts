import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { dispatchDate, estimatedDeliveryDate, shippingCharge, slabCharge } from '../../src/modules/checkout/delivery.ts'

const slabs = [
  { upToGrams: 500, charge: 4000 },
  { upToGrams: 2000, charge: 6900 },
  { upToGrams: 5000, charge: 9900 },
]
// 2026-11-21 is a Saturday, 2026-11-22 a Sunday. Times are UTC; India is UTC+5:30.
const ist = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00+05:30`)

describe('shipping charge', () => {
  test('slab boundaries are inclusive; heavier than the last slab pays the last slab', () => {
    assert.equal(slabCharge(slabs, 500), 4000n)
    assert.equal(slabCharge(slabs, 501), 6900n)
    assert.equal(slabCharge(slabs, 2000), 6900n)
    assert.equal(slabCharge(slabs, 5000), 9900n)
    assert.equal(slabCharge(slabs, 50_000), 9900n)
    assert.equal(slabCharge([], 100), 0n)
  })

  test('free at and above the threshold, charged just below it', () => {
    const base = { slabs, weightGrams: 400, freeShippingThreshold: 49_900n }
    assert.equal(shippingCharge({ ...base, itemsTotal: 49_900n }), 0n)
    assert.equal(shippingCharge({ ...base, itemsTotal: 49_899n }), 4000n)
    assert.equal(shippingCharge({ ...base, itemsTotal: 10_000_000n, freeShippingThreshold: null }), 4000n)
  })
})

describe('delivery dates in Indian time', () => {
  test('before the cut-off an order leaves today; after it, the next working day', () => {
    assert.equal(dispatchDate(ist('2026-11-23', '13:59'), 14).toISOString().slice(0, 10), '2026-11-23')
    assert.equal(dispatchDate(ist('2026-11-23', '14:00'), 14).toISOString().slice(0, 10), '2026-11-24')
  })

  test('a Saturday order after the cut-off skips Sunday for dispatch and for delivery', () => {
    assert.equal(dispatchDate(ist('2026-11-21', '15:00'), 14).toISOString().slice(0, 10), '2026-11-23')
    assert.equal(estimatedDeliveryDate(ist('2026-11-21', '15:00'), 14, 1), '2026-11-24')
    // Before the cut-off on Saturday: leaves Saturday, one working day later is Monday.
    assert.equal(estimatedDeliveryDate(ist('2026-11-21', '10:00'), 14, 1), '2026-11-23')
  })

  test('an order on Sunday leaves on Monday; the UTC date is not the Indian date', () => {
    assert.equal(dispatchDate(ist('2026-11-22', '09:00'), 14).toISOString().slice(0, 10), '2026-11-23')
    // 20:00 UTC on Sunday is 01:30 on Monday in India: before Monday's cut-off.
    assert.equal(dispatchDate(new Date('2026-11-22T20:00:00Z'), 14).toISOString().slice(0, 10), '2026-11-23')
    assert.equal(estimatedDeliveryDate(ist('2026-11-23', '10:00'), 14, 6), '2026-11-30')
  })
})
