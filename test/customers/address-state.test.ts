// An address's state must match its pincode (issue #20): the serviceability data's state where it
// knows the pincode, the postal circle of the first digits otherwise; names compared loosely.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { normalizeStateName, PINCODE_PREFIX_STATES, statesForPincodePrefix } from '../../src/lib/pincode-states.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'

let t: TestApp
let shop: Shop

before(async () => {
  t = await createTestApp()
  // Delivery zones (560 Bengaluru Karnataka, 600 Chennai Tamil Nadu, 682 Kochi Kerala, …) and a catalog.
  shop = await givenShop(t)
})
after(() => t.close())

const call = (customer: CustomerFixture, method: 'POST' | 'PATCH', url: string, payload: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: customerHeaders(customer), payload })
const address = (state: string, pincode: string, city = 'City') => ({ label: 'Home', line1: '12 MG Road', city, state, pincode })

describe('address state and pincode', () => {
  test('when the state does not match the pincode, then 400 naming both', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const res = await call(customer, 'POST', '/users/me/addresses', address('Tamil Nadu', '560001', 'Bengaluru'))
    assert.equal(res.statusCode, 400, res.body)
    assert.deepEqual(res.json().message, ['state Tamil Nadu does not match pincode 560001 (Karnataka)'])
    // A pincode the serviceability data does not know: the postal circle (57 = Karnataka) decides.
    const mysuru = await call(customer, 'POST', '/users/me/addresses', address('Kerala', '570001', 'Mysuru'))
    assert.equal(mysuru.statusCode, 400, mysuru.body)
    assert.deepEqual(mysuru.json().message, ['state Kerala does not match pincode 570001 (Karnataka)'])
  })

  test('when the state matches the pincode, then the address is saved', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    for (const [state, pincode] of [
      ['Karnataka', '560001'],
      ['Karnataka', '570001'],
      ['Goa', '403001'],
      ['Tripura', '799001'],
      ['Andaman and Nicobar Islands', '744101'],
      // 682 is Kochi in the zone data; its circle also covers Lakshadweep.
      ['Lakshadweep', '682551'],
      ['Puducherry', '605001'],
    ] as const) {
      const res = await call(customer, 'POST', '/users/me/addresses', address(state, pincode))
      assert.equal(res.statusCode, 201, `${state} ${pincode}: ${res.body}`)
      await t.app.inject({ method: 'DELETE', url: `/api/v1/users/me/addresses/${res.json().data.id}`, headers: customerHeaders(customer) })
    }
  })

  test('case, spacing, "&" for "and" and old names are accepted', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    for (const [state, pincode] of [
      ['karnataka', '560001'],
      ['  KARNATAKA ', '560001'],
      ['TAMIL  NADU', '600001'],
      ['Tamilnadu', '600001'],
      ['Orissa', '751001'],
      ['odisha', '751001'],
      ['Pondicherry', '605001'],
      ['Jammu & Kashmir', '190001'],
      ['Andaman & Nicobar Islands', '744101'],
      ['Uttaranchal', '248001'],
    ] as const) {
      const res = await call(customer, 'POST', '/users/me/addresses', address(state, pincode))
      assert.equal(res.statusCode, 201, `${state} ${pincode}: ${res.body}`)
      await t.app.inject({ method: 'DELETE', url: `/api/v1/users/me/addresses/${res.json().data.id}`, headers: customerHeaders(customer) })
    }
  })

  test('when an update makes the state and pincode disagree, then 400; changing both together is accepted', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const created = (await call(customer, 'POST', '/users/me/addresses', address('Karnataka', '560001', 'Bengaluru'))).json().data
    const moved = await call(customer, 'PATCH', `/users/me/addresses/${created.id}`, { pincode: '600001' })
    assert.equal(moved.statusCode, 400, moved.body)
    assert.deepEqual(moved.json().message, ['state Karnataka does not match pincode 600001 (Tamil Nadu)'])
    const renamed = await call(customer, 'PATCH', `/users/me/addresses/${created.id}`, { state: 'Kerala' })
    assert.equal(renamed.statusCode, 400, renamed.body)
    const both = await call(customer, 'PATCH', `/users/me/addresses/${created.id}`, { city: 'Chennai', state: 'Tamil Nadu', pincode: '600001' })
    assert.equal(both.statusCode, 200, both.body)
    assert.equal(both.json().data.state, 'Tamil Nadu')
    assert.equal((await call(customer, 'PATCH', `/users/me/addresses/${created.id}`, { label: 'Office' })).statusCode, 200)
  })

  test("when an order's shipping address has a state that does not match its pincode, then 400 and no order", async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const res = await placeOrder(t, customer, { items: [{ productId: shop.ids.atta!, quantity: 1 }], shippingAddress: { ...ADDRESS, state: 'Tamil Nadu' }, paymentMode: 'COD' })
    assert.equal(res.statusCode, 400, res.body)
    assert.deepEqual(res.json().message, ['shippingAddress.state Tamil Nadu does not match pincode 560001 (Karnataka)'])
    const ok = await placeOrder(t, customer, { items: [{ productId: shop.ids.atta!, quantity: 1 }], shippingAddress: { ...ADDRESS, state: 'karnataka' }, paymentMode: 'COD' })
    assert.equal(ok.statusCode, 201, ok.body)
  })

  test('the prefix table names only states it can compare and covers the first two digits 11-85', () => {
    const known = new Set(['andhrapradesh', 'arunachalpradesh', 'assam', 'bihar', 'chhattisgarh', 'goa', 'gujarat', 'haryana', 'himachalpradesh', 'jharkhand', 'karnataka', 'kerala', 'madhyapradesh', 'maharashtra', 'manipur', 'meghalaya', 'mizoram', 'nagaland', 'odisha', 'punjab', 'rajasthan', 'sikkim', 'tamilnadu', 'telangana', 'tripura', 'uttarpradesh', 'uttarakhand', 'westbengal', 'andamanandnicobarislands', 'chandigarh', 'dadraandnagarhavelianddamananddiu', 'delhi', 'jammuandkashmir', 'ladakh', 'lakshadweep', 'puducherry'])
    for (const [prefix, states] of Object.entries(PINCODE_PREFIX_STATES)) {
      assert.ok(states.length > 0, prefix)
      for (const s of states) assert.ok(known.has(normalizeStateName(s)), `${prefix}: ${s}`)
    }
    for (const pincode of ['110001', '400001', '560001', '600001', '700001', '751001', '781001', '800001', '302001']) assert.ok(statesForPincodePrefix(pincode).length > 0, pincode)
    assert.deepEqual(statesForPincodePrefix('999001'), [])
  })
})
