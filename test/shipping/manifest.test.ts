// The carrier's manifest (issue #38): the parcels booked on a day for its courier to collect and
// sign for, as JSON and as an A4 PDF; a cancelled parcel is not on it, nor another day's; the cash
// to collect is on the COD order's parcel only.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenAdminToken, givenCustomer } from '../helpers/factories.ts'
import { pdfText } from '../helpers/pdf.ts'
import { ADDRESS, givenShop, placeOrder, sandboxAction, type Shop } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let shop: Shop
let support: string

before(async () => {
  t = await createTestApp({ clock })
  shop = await givenShop(t)
  support = await givenAdminToken(t.app, t.deps, 'support@manifest.test', 'SUPPORT')
})
after(() => t?.close())

const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${support}` }, ...(payload ? { payload } : {}) })
const item = (slug: string, quantity = 1) => ({ productId: shop.ids[slug]!, quantity })

test("a day's manifest lists that day's parcels in booking order with units, weight, cash to collect and e-way bill; totals add up; the PDF carries them and the signatures", async () => {
  const buyer = await givenCustomer(t.app, shop.partner)
  const cod = (await placeOrder(t, buyer, { items: [item('earbuds', 2)], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
  const prepaid = (await placeOrder(t, buyer, { items: [item('atta', 2), item('hot')], shippingAddress: ADDRESS })).json().data
  assert.equal((await sandboxAction(t, prepaid.paymentClientAction, 'pay')).statusCode, 200)

  // A minute between bookings: the manifest lists them in booking order.
  const book = async (orderId: string, body: object) => {
    clock.advance(60_000)
    return (await admin('POST', `/orders/${orderId}/shipments`, body)).json().data
  }
  const codParcel = await book(cod.id, { weightGrams: 450 })
  const cancelled = await book(prepaid.id, { weightGrams: 10_000, items: [{ orderItemId: prepaid.items[0].id, quantity: 2 }] })
  assert.equal((await admin('POST', `/shipments/${cancelled.id}/cancel`)).statusCode, 200)
  const first = await book(prepaid.id, { weightGrams: 10_050, items: [{ orderItemId: prepaid.items[0].id, quantity: 2 }] })
  const second = await book(prepaid.id, { weightGrams: 210 })
  // The next day: tokens of the day before have expired.
  clock.advance(24 * 3_600_000)
  support = await givenAdminToken(t.app, t.deps, 'support-next-day@manifest.test', 'SUPPORT')
  const nextDayBuyer = await givenCustomer(t.app, shop.partner)
  const tomorrow = (await placeOrder(t, nextDayBuyer, { items: [item('earbuds')], shippingAddress: ADDRESS, paymentMode: 'COD' })).json().data
  assert.equal((await admin('POST', `/orders/${tomorrow.id}/shipments`, { weightGrams: 220 })).statusCode, 201)

  const res = await admin('GET', '/fulfilment/manifest?carrier=sandbox&date=2026-11-23')
  assert.equal(res.statusCode, 200, res.body)
  assert.deepEqual(res.json().data, {
    carrier: 'sandbox',
    date: '2026-11-23',
    parcels: [
      { awb: codParcel.awb, orderNumber: cod.orderNumber, courierName: 'Sandbox Express', units: 2, weightGrams: 450, codAmount: cod.amountPayable, ewayBillNo: null },
      { awb: first.awb, orderNumber: prepaid.orderNumber, courierName: 'Sandbox Express', units: 2, weightGrams: 10_050, codAmount: '0.00', ewayBillNo: null },
      { awb: second.awb, orderNumber: prepaid.orderNumber, courierName: 'Sandbox Express', units: 1, weightGrams: 210, codAmount: '0.00', ewayBillNo: null },
    ],
    totals: { parcels: 3, units: 5, weightGrams: 10_710, codAmount: cod.amountPayable },
  })
  assert.equal((await admin('GET', '/fulfilment/manifest?carrier=sandbox')).json().data.parcels.length, 1, "today (India) is the next day: its one parcel")

  const pdf = await admin('GET', '/fulfilment/manifest?carrier=sandbox&date=2026-11-23&format=pdf')
  assert.equal(pdf.statusCode, 200)
  assert.equal(pdf.headers['content-type'], 'application/pdf')
  assert.match(String(pdf.headers['content-disposition']), /manifest-sandbox-2026-11-23\.pdf/)
  const text = await pdfText(pdf.rawPayload)
  for (const expected of ['Manifest: sandbox, 23 Nov 2026', codParcel.awb, first.awb, second.awb, cod.orderNumber, '10.050', 'Parcels: 3', 'Received by the courier']) {
    assert.ok(text.includes(expected), `the PDF lacks ${expected}`)
  }
  assert.ok(!text.includes(cancelled.awb), 'a cancelled parcel is not handed over')
})

test('a manifest for an unknown carrier or a malformed day is a 400; a day without parcels is an empty manifest', async () => {
  const unknown = await admin('GET', '/fulfilment/manifest?carrier=bluedart')
  assert.equal(unknown.statusCode, 400)
  assert.equal(unknown.json().message, 'Unknown carrier bluedart: this service ships with sandbox')
  assert.equal((await admin('GET', '/fulfilment/manifest?carrier=sandbox&date=23-11-2026')).statusCode, 400)
  assert.equal((await admin('GET', '/fulfilment/manifest')).statusCode, 400)
  const empty = await admin('GET', '/fulfilment/manifest?carrier=sandbox&date=2026-11-01')
  assert.deepEqual(empty.json().data, { carrier: 'sandbox', date: '2026-11-01', parcels: [], totals: { parcels: 0, units: 0, weightGrams: 0, codAmount: '0.00' } })
  const emptyPdf = await admin('GET', '/fulfilment/manifest?carrier=sandbox&date=2026-11-01&format=pdf')
  assert.ok((await pdfText(emptyPdf.rawPayload)).includes('No parcels booked with this carrier that day.'))
})
