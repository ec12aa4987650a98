// Cash on delivery with nothing to collect (issue #20): when Wallet Cash and Reward Points cover the
// order, COD has no fee; the eligibility answer, the wallet quote and the order agree.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, credit, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop

before(async () => {
  t = await createTestApp({ clock })
  shop = await givenShop(t)
})
after(() => t.close())

const get = (customer: CustomerFixture, url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: customerHeaders(customer) })

describe('COD with nothing to collect', () => {
  test('when collectableAmount is 0, then COD is eligible with a fee of 0.00', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const res = await get(customer, '/checkout/cod-eligibility?pincode=560001&collectableAmount=0')
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(res.json().data, { eligible: true, collectableAmount: '0.00', codFee: '0.00', maxCodAmount: '50000.00', reasons: [] })
    assert.equal((await get(customer, '/checkout/cod-eligibility?pincode=560001&collectableAmount=0.00')).json().data.codFee, '0.00')
    // Anything to collect is still quoted the zone's fee.
    assert.equal((await get(customer, '/checkout/cod-eligibility?pincode=560001&collectableAmount=0.01')).json().data.codFee, '49.00')
  })

  test('when Wallet Cash covers a COD order, then the quote, the eligibility answer and the order all carry no COD fee', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    await credit(t, clock, customer, 'WALLET_CASH', 500_000n)
    const cart = { items: [{ productId: shop.ids.earbuds!, quantity: 1 }], paymentMode: 'COD', useWalletCash: true }
    const quote = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(customer), payload: { ...cart, pincode: ADDRESS.pincode } })
    assert.equal(quote.statusCode, 200, quote.body)
    const quoted = quote.json().data
    assert.equal(quoted.remainingPayable, '0.00')
    assert.equal(quoted.codFee, '0.00')
    const eligibility = (await get(customer, `/checkout/cod-eligibility?pincode=${ADDRESS.pincode}&collectableAmount=${quoted.remainingPayable}`)).json().data
    assert.deepEqual([eligibility.eligible, eligibility.codFee], [true, '0.00'])
    const placed = await placeOrder(t, customer, { ...cart, shippingAddress: ADDRESS })
    assert.equal(placed.statusCode, 201, placed.body)
    const order = placed.json().data
    assert.equal(order.codFee, '0.00')
    assert.equal(order.totalAmount, quoted.totalAmount)
    assert.equal(order.amountPayable, '0.00')
    assert.deepEqual([order.status, order.paymentStatus], ['CONFIRMED', 'PAID'])
  })
})
