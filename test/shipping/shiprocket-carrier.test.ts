// The Shiprocket carrier against a local stand-in of Shiprocket's REST API (login and bearer tokens,
// Shiprocket-shaped answers and errors), and its webhook parsing against callbacks built here as
// Shiprocket sends them (the panel's token in x-api-key).
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, beforeEach, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createShiprocketCarrier, parseShiprocketTime, SHIPROCKET_STATUSES, type ShiprocketOptions } from '../../src/modules/shipping/carriers/shiprocket.ts'
import { type BookingRequest, type Carrier, CarrierError, CarrierPayloadError, CarrierSignatureError } from '../../src/modules/shipping/carriers/types.ts'
import { createShiprocketStandIn, DEFAULT_PICKUP_LOCATION, shiprocketWebhook, trackingActivity } from '../helpers/shiprocket-standin.ts'

const EMAIL = 'api-user@acme.example'
const PASSWORD = 'sr-Password-That-Must-Not-Leak-9'
const WEBHOOK_TOKEN = 'sr-webhook-token-0123456789abcdef'
const PREVIOUS_WEBHOOK_TOKEN = 'sr-webhook-token-previous-424242'
const PICKUP = DEFAULT_PICKUP_LOCATION.pickup_location
const DAY_MS = 24 * 60 * 60 * 1000
const NOW = new Date('2026-11-26T05:00:00Z')

const standIn = createShiprocketStandIn({ email: EMAIL, password: PASSWORD })
const { requests } = standIn
let apiBase: string

before(async () => {
  apiBase = await standIn.listen()
})
after(() => standIn.close())
beforeEach(() => standIn.reset())

const carrier = (options: Partial<ShiprocketOptions> = {}): Carrier =>
  createShiprocketCarrier({ email: EMAIL, password: PASSWORD, webhookToken: WEBHOOK_TOKEN, apiBase, pickupLocation: PICKUP, ...options })

const bookingRequest = (overrides: Partial<BookingRequest> = {}): BookingRequest => ({
  shipmentId: 'shp_01JABCDEFGHJKMNPQRSTVWXYZ0',
  orderNumber: 'CA-2611-000123',
  // 00:15 on 26 November in India.
  orderDate: new Date('2026-11-25T18:45:00Z'),
  bookedAt: new Date('2026-11-26T05:00:00Z'),
  direction: 'FORWARD',
  customer: {
    name: 'Asha Rao',
    phone: '+919876543210',
    email: 'asha@example.com',
    line1: '12, 3rd Cross, Indiranagar',
    line2: 'Flat 4B',
    landmark: 'Near CMH Hospital',
    city: 'Bengaluru',
    state: 'Karnataka',
    pincode: '560038',
  },
  items: [
    { sku: 'TEE-RED-M', name: 'Red tee, M', quantity: 2, unitPrice: 99_999n, hsnCode: '6109', gstRateBps: 500 },
    { sku: 'MUG-01', name: 'Mug', quantity: 1, unitPrice: 25_050n, hsnCode: null, gstRateBps: null },
  ],
  collectAmount: 0n,
  declaredValue: 225_048n,
  weightGrams: 1250,
  dimensionsCm: { length: 30, breadth: 20, height: 8 },
  invoiceNumber: 'IN/26-27/0000123',
  ewayBillNo: null,
  courierId: null,
  ...overrides,
})

/** Every secret the carrier holds or was given: none may appear in an error. */
const secrets = () => [PASSWORD, WEBHOOK_TOKEN, PREVIOUS_WEBHOOK_TOKEN, ...standIn.tokens]

/** A CarrierError that says what failed and carries no secret. */
function isSafeCarrierError(expected: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof CarrierError, `expected a CarrierError, got ${String(error)}`)
    assert.match(error.message, expected)
    for (const secret of secrets()) assert.ok(!error.message.includes(secret), `the message carries a secret: ${error.message}`)
    return true
  }
}

const bearerOf = (request: { headers: { authorization?: string | undefined } }) => request.headers.authorization

// ---- Booking --------------------------------------------------------------------------------------

describe('book, forward', () => {
  test('prepaid: logs in, creates an adhoc order with our shipment id, assigns an AWB, generates the label', async () => {
    const booked = await carrier().book(bookingRequest())

    assert.deepEqual(
      requests.map((r) => `${r.method} ${r.path}`),
      ['POST /v1/external/auth/login', 'POST /v1/external/orders/create/adhoc', 'POST /v1/external/courier/assign/awb', 'POST /v1/external/courier/generate/label'],
    )
    const [login, create, assign, label] = requests
    assert.deepEqual(login!.body, { email: EMAIL, password: PASSWORD })
    assert.equal(login!.headers.authorization, undefined)
    for (const call of [create, assign, label]) assert.equal(bearerOf(call!), `Bearer ${standIn.tokens[0]}`)
    assert.match(String(create!.headers['content-type']), /^application\/json/)
    assert.deepEqual(create!.body, {
      order_id: 'shp_01JABCDEFGHJKMNPQRSTVWXYZ0',
      order_date: '2026-11-26 00:15',
      pickup_location: 'Bengaluru WH',
      comment: 'Order CA-2611-000123',
      billing_customer_name: 'Asha Rao',
      billing_last_name: '',
      billing_address: '12, 3rd Cross, Indiranagar',
      billing_address_2: 'Flat 4B, Near CMH Hospital',
      billing_city: 'Bengaluru',
      billing_pincode: '560038',
      billing_state: 'Karnataka',
      billing_country: 'India',
      billing_email: 'asha@example.com',
      billing_phone: '9876543210',
      shipping_is_billing: true,
      order_items: [
        { name: 'Red tee, M', sku: 'TEE-RED-M', units: 2, selling_price: 999.99, hsn: '6109', tax: 5 },
        { name: 'Mug', sku: 'MUG-01', units: 1, selling_price: 250.5 },
      ],
      payment_method: 'Prepaid',
      sub_total: 2250.48,
      shipping_charges: 0,
      total_discount: 0,
      length: 30,
      breadth: 20,
      height: 8,
      weight: 1.25,
      invoice_number: 'IN/26-27/0000123',
    })
    const shipmentId = assign!.body!.shipment_id
    assert.match(String(shipmentId), /^2\d{8}$/)
    assert.deepEqual(assign!.body, { shipment_id: shipmentId })
    assert.deepEqual(label!.body, { shipment_id: [shipmentId] })

    assert.match(booked.awb, /^14112322\d{7}$/)
    assert.deepEqual(booked, {
      awb: booked.awb,
      carrierShipmentId: shipmentId,
      courierName: 'Delhivery Surface',
      trackingUrl: `https://shiprocket.co/tracking/${booked.awb}`,
      labelUrl: `https://kr-shipmultichannel-mum.s3.ap-south-1.amazonaws.com/25149/labels/${String(shipmentId)}.pdf`,
      expectedDeliveryDate: null,
    })
  })

  test('COD: payment method COD, and the order total is what the courier collects (a COD fee as a charge, a part paid as a discount)', async () => {
    await carrier().book(bookingRequest({ collectAmount: 230_048n }))
    const withFee = standIn.sent('POST', '/v1/external/orders/create/adhoc')[0]!.body!
    assert.equal(withFee.payment_method, 'COD')
    assert.deepEqual([withFee.sub_total, withFee.shipping_charges, withFee.total_discount], [2250.48, 50, 0])

    standIn.reset()
    await carrier().book(bookingRequest({ collectAmount: 200_000n }))
    const partPaid = standIn.sent('POST', '/v1/external/orders/create/adhoc')[0]!.body!
    assert.equal(partPaid.payment_method, 'COD')
    assert.deepEqual([partPaid.sub_total, partPaid.shipping_charges, partPaid.total_discount], [2250.48, 0, 250.48])
  })

  test('prepaid with a coupon: the order total is the declared value', async () => {
    await carrier().book(bookingRequest({ declaredValue: 200_000n }))
    const body = standIn.sent('POST', '/v1/external/orders/create/adhoc')[0]!.body!
    assert.equal(body.payment_method, 'Prepaid')
    assert.deepEqual([body.sub_total, body.shipping_charges, body.total_discount], [2250.48, 0, 250.48])
  })

  test('paise become rupee numbers exactly, with no float error: 99999 paise is 999.99 in the JSON sent', async () => {
    const cases: [bigint, string, string][] = [
      [99_999n, '999.99', '2999.97'],
      [1n, '0.01', '0.03'],
      [10n, '0.1', '0.3'],
      [29n, '0.29', '0.87'],
      [1_999_999_999_999n, '19999999999.99', '59999999999.97'],
    ]
    for (const [paise, unit, total] of cases) {
      standIn.reset()
      await carrier().book(bookingRequest({ items: [{ sku: 'X', name: 'X', quantity: 3, unitPrice: paise, hsnCode: null, gstRateBps: null }], declaredValue: paise * 3n, collectAmount: paise * 3n }))
      const body = standIn.sent('POST', '/v1/external/orders/create/adhoc')[0]!.body!
      // JSON numbers are written in their shortest exact form: these are the digits on the wire.
      const wire = [(body.order_items as { selling_price: number }[])[0]!.selling_price, body.sub_total, body.shipping_charges, body.total_discount].map((n) => JSON.stringify(n))
      assert.deepEqual(wire, [unit, total, '0', '0'], `${paise} paise`)
    }
  })

  test('a customer without an e-mail is billed under the pickup location\'s (Shiprocket requires one), read once', async () => {
    const shiprocket = carrier()
    await shiprocket.book(bookingRequest({ customer: { ...bookingRequest().customer, email: null } }))
    await shiprocket.book(bookingRequest({ shipmentId: 'shp_01JABCDEFGHJKMNPQRSTVWXYZ1', customer: { ...bookingRequest().customer, email: null } }))
    const bodies = standIn.sent('POST', '/v1/external/orders/create/adhoc').map((r) => r.body!)
    assert.deepEqual(bodies.map((b) => b.billing_email), ['warehouse@acme.example', 'warehouse@acme.example'])
    assert.equal(standIn.sent('GET', '/v1/external/settings/company/pickup').length, 1)
  })

  test('a customer without an e-mail and a pickup location without one: a CarrierError saying so, nothing created', async () => {
    standIn.pickupLocations = [{ ...DEFAULT_PICKUP_LOCATION, email: '' }]
    await assert.rejects(carrier().book(bookingRequest({ customer: { ...bookingRequest().customer, email: null } })), isSafeCarrierError(/requires an e-mail/))
    assert.equal(standIn.sent('POST', '/v1/external/orders/create/adhoc').length, 0)
  })

  test('a city longer than Shiprocket\'s 30 characters is cut at a word; the stand-in refuses 31 as Shiprocket does', async () => {
    const city = 'Sri Ganganagar Cantonment Area North Block'
    await carrier().book(bookingRequest({ customer: { ...bookingRequest().customer, city } }))
    const sent = standIn.sent('POST', '/v1/external/orders/create/adhoc')[0]!.body!.billing_city as string
    assert.equal(sent, 'Sri Ganganagar Cantonment Area')
    assert.ok(sent.length <= 30)
    const refused = await fetch(`${apiBase}/v1/external/orders/create/adhoc`, {
      method: 'POST',
      headers: { authorization: `Bearer ${standIn.tokens[0]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...standIn.sent('POST', '/v1/external/orders/create/adhoc')[0]!.body, billing_city: 'x'.repeat(31) }),
    })
    assert.equal(refused.status, 422)
    assert.deepEqual(((await refused.json()) as { errors: Record<string, string[]> }).errors, { billing_city: ['The billing city may not be greater than 30 characters.'] })
  })

  test('the e-way bill number goes with the order when the parcel has one; no invoice number when the sale had no GST document', async () => {
    await carrier().book(bookingRequest({ ewayBillNo: '331000123456', invoiceNumber: null }))
    const body = standIn.sent('POST', '/v1/external/orders/create/adhoc')[0]!.body!
    assert.equal(body.ewaybill_no, '331000123456')
    assert.equal('invoice_number' in body, false)
  })

  test("the AWB answer's etd is the expected delivery date, as a date in India", async () => {
    standIn.awbEtd = '2023-05-25 23:30:00'
    assert.equal((await carrier().book(bookingRequest())).expectedDeliveryDate, '2023-05-25')
  })

  test("no AWB assigned (no courier for the pincode) is a CarrierError quoting Shiprocket's reason", async () => {
    standIn.awbAssignError = 'Selected courier is not serviceable for this pincode'
    await assert.rejects(carrier().book(bookingRequest()), isSafeCarrierError(/assign\/awb.*not serviceable/))
    assert.equal(standIn.sent('POST', '/v1/external/courier/generate/label').length, 0)
  })

  test('a label Shiprocket cannot make leaves the booking standing, with no label URL', async () => {
    standIn.override = (request) => (request.path === '/v1/external/courier/generate/label' ? { status: 500, body: { message: 'Server Error', status_code: 500 } } : null)
    const booked = await carrier().book(bookingRequest())
    assert.equal(booked.labelUrl, null)
    assert.match(booked.awb, /^\d+$/)
  })

  test("a parcel from a stock location is created at its pickup location and quoted from its pincode (decision 0043)", async () => {
    standIn.pickupLocations = [...standIn.pickupLocations, { ...standIn.pickupLocations[0]!, id: 4_100_002, pickup_location: 'Bhiwandi WH', city: 'Bhiwandi', state: 'Maharashtra', pin_code: '421302' }]
    await carrier().book(bookingRequest({ origin: { pickupName: 'Bhiwandi WH', pincode: '421302' } }))
    assert.equal(standIn.sent('POST', '/v1/external/orders/create/adhoc').at(-1)!.body!.pickup_location, 'Bhiwandi WH')
    await carrier().rates({ direction: 'FORWARD', originPincode: '421302', customerPincode: '560038', weightGrams: 500, dimensionsCm: { length: 10, breadth: 10, height: 10 }, collectAmount: 0n, declaredValue: 50_000n })
    const asked = standIn.sent('GET', '/v1/external/courier/serviceability/').at(-1)!
    assert.equal(new URLSearchParams(asked.path.split('?')[1]).get('pickup_postcode'), '421302')
  })

  test('a pickup location Shiprocket does not know is a CarrierError with its message', async () => {
    await assert.rejects(carrier({ pickupLocation: 'Nowhere' }).book(bookingRequest()), isSafeCarrierError(/create\/adhoc answered 422: Wrong Pickup location entered/))
  })
})

describe('book, reverse', () => {
  const reverse = () => bookingRequest({ direction: 'REVERSE', shipmentId: 'shp_01JREVERSE00000000000000', collectAmount: 0n, declaredValue: 99_999n, items: [{ sku: 'TEE-RED-M', name: 'Red tee, M', quantity: 1, unitPrice: 99_999n, hsnCode: '6109', gstRateBps: 500 }] })

  test("a return of units that left a stock location goes to that location's address, and is quoted to its pincode (decision 0043)", async () => {
    standIn.pickupLocations = [...standIn.pickupLocations, { ...standIn.pickupLocations[0]!, id: 4_100_003, pickup_location: 'Bhiwandi WH', address: 'Plot 7, Vadpe', city: 'Bhiwandi', state: 'Maharashtra', pin_code: '421302' }]
    await carrier().book({ ...reverse(), origin: { pickupName: 'Bhiwandi WH', pincode: '421302' } })
    const body = standIn.sent('POST', '/v1/external/orders/create/return').at(-1)!.body!
    assert.deepEqual([body.shipping_address, body.shipping_city, body.shipping_pincode], ['Plot 7, Vadpe', 'Bhiwandi', '421302'])
    await carrier().rates({ direction: 'REVERSE', originPincode: '421302', customerPincode: '560038', weightGrams: 500, dimensionsCm: { length: 10, breadth: 10, height: 10 }, collectAmount: 0n, declaredValue: 50_000n })
    const asked = new URLSearchParams(standIn.sent('GET', '/v1/external/courier/serviceability/').at(-1)!.path.split('?')[1])
    assert.deepEqual([asked.get('pickup_postcode'), asked.get('delivery_postcode')], ['560038', '421302'])
  })

  test("creates a return order picked up from the customer and shipped to the pickup location's address, then an AWB with is_return 1", async () => {
    const booked = await carrier().book(reverse())

    assert.deepEqual(
      requests.map((r) => `${r.method} ${r.path}`),
      ['POST /v1/external/auth/login', 'GET /v1/external/settings/company/pickup', 'POST /v1/external/orders/create/return', 'POST /v1/external/courier/assign/awb'],
    )
    assert.deepEqual(standIn.sent('POST', '/v1/external/orders/create/return')[0]!.body, {
      order_id: 'shp_01JREVERSE00000000000000',
      order_date: '2026-11-26',
      pickup_customer_name: 'Asha Rao',
      pickup_last_name: '',
      pickup_address: '12, 3rd Cross, Indiranagar',
      pickup_address_2: 'Flat 4B, Near CMH Hospital',
      pickup_city: 'Bengaluru',
      pickup_state: 'Karnataka',
      pickup_country: 'India',
      pickup_pincode: '560038',
      pickup_email: 'asha@example.com',
      pickup_phone: '9876543210',
      pickup_isd_code: '91',
      shipping_customer_name: 'Acme Fulfilment',
      shipping_last_name: '',
      shipping_address: 'Plot 12, KIADB Industrial Area',
      shipping_address_2: 'Bommasandra',
      shipping_city: 'Bengaluru',
      shipping_state: 'Karnataka',
      shipping_country: 'India',
      shipping_pincode: '560099',
      shipping_email: 'warehouse@acme.example',
      shipping_phone: '9000000001',
      shipping_isd_code: '91',
      order_items: [{ name: 'Red tee, M', sku: 'TEE-RED-M', units: 1, selling_price: 999.99, hsn: '6109', tax: 5 }],
      payment_method: 'Prepaid',
      sub_total: 999.99,
      shipping_charges: 0,
      total_discount: 0,
      length: 30,
      breadth: 20,
      height: 8,
      weight: 1.25,
      invoice_number: 'IN/26-27/0000123',
    })
    const assign = standIn.sent('POST', '/v1/external/courier/assign/awb')[0]!
    assert.equal(assign.body!.is_return, 1)
    assert.equal(booked.labelUrl, null, 'the courier brings the return label')
    assert.equal(booked.trackingUrl, `https://shiprocket.co/tracking/${booked.awb}`)
  })

  test("a pickup location without an e-mail sends the return to it with the customer's; with neither, a CarrierError naming what to set, and nothing is created", async () => {
    standIn.pickupLocations = [{ ...DEFAULT_PICKUP_LOCATION, email: '' }]
    await carrier().book(reverse())
    assert.equal(standIn.sent('POST', '/v1/external/orders/create/return')[0]!.body!.shipping_email, 'asha@example.com')
    const anonymous = reverse()
    await assert.rejects(carrier().book({ ...anonymous, customer: { ...anonymous.customer, email: null } }), (err: Error) => {
      assert.ok(err instanceof CarrierError, String(err))
      assert.match(err.message, /^Shiprocket requires an e-mail/)
      return true
    })
    assert.equal(standIn.sent('POST', '/v1/external/orders/create/return').length, 1)
  })

  test('the pickup location is read once for later returns', async () => {
    const shiprocket = carrier()
    await shiprocket.book(reverse())
    await shiprocket.book({ ...reverse(), shipmentId: 'shp_01JREVERSE00000000000001' })
    assert.equal(standIn.sent('GET', '/v1/external/settings/company/pickup').length, 1)
  })

  test('a pickup location missing from the account is a CarrierError naming it, and nothing is created', async () => {
    standIn.pickupLocations = [{ ...DEFAULT_PICKUP_LOCATION, pickup_location: 'Other WH' }]
    await assert.rejects(carrier().book(reverse()), isSafeCarrierError(/no pickup location named "Bengaluru WH"/))
    assert.equal(standIn.sent('POST', '/v1/external/orders/create/return').length, 0)
  })
})

// ---- Rates ---------------------------------------------------------------------------------------

describe('rates', () => {
  const parcel = { direction: 'FORWARD' as const, customerPincode: '560038', weightGrams: 1250, dimensionsCm: { length: 30, breadth: 20, height: 8 }, collectAmount: 230_048n, declaredValue: 225_048n }

  test('asks courier/serviceability from the pickup location to the customer, COD, weight, box and value; answers each courier in paise, blocked ones left out', async () => {
    const rates = await carrier().rates(parcel)
    const asked = standIn.sent('GET', '/v1/external/courier/serviceability/')
    assert.equal(asked.length, 1)
    assert.deepEqual(Object.fromEntries(new URLSearchParams(asked[0]!.path.split('?')[1])), {
      pickup_postcode: '560099',
      delivery_postcode: '560038',
      cod: '1',
      weight: '1.25',
      length: '30',
      breadth: '20',
      height: '8',
      declared_value: '2250.48',
    })
    assert.deepEqual(rates, [
      { courierId: '142', courierName: 'Delhivery Surface', charge: 12_250n, estimatedDays: 5, recommended: true },
      { courierId: '24', courierName: 'Xpressbees Surface', charge: 11_400n, estimatedDays: 6, recommended: false },
      { courierId: '33', courierName: 'Blue Dart Air', charge: 19_730n, estimatedDays: 2, recommended: false },
    ])
  })

  test('a reverse parcel is asked from the customer to the pickup location, as a return; a pincode no courier serves is no rate, not an error', async () => {
    await carrier().rates({ ...parcel, direction: 'REVERSE', collectAmount: 0n })
    const query = new URLSearchParams(standIn.sent('GET', '/v1/external/courier/serviceability/')[0]!.path.split('?')[1])
    assert.deepEqual([query.get('pickup_postcode'), query.get('delivery_postcode'), query.get('is_return'), query.get('cod')], ['560038', '560099', '1', '0'])
    assert.deepEqual(await carrier().rates({ ...parcel, customerPincode: '900001' }), [])
  })

  test('booking with a courier sends its id to assign/awb and answers its name', async () => {
    const booked = await carrier().book(bookingRequest({ courierId: '33' }))
    assert.equal(standIn.sent('POST', '/v1/external/courier/assign/awb')[0]!.body!.courier_id, 33)
    assert.equal(booked.courierName, 'Blue Dart Air')
  })
})

// ---- Pickups ------------------------------------------------------------------------------------

describe('requestPickup', () => {
  test('asks courier/generate/pickup for the booked shipment; the date is Shiprocket\'s time in India, the token its reference', async () => {
    const shiprocket = carrier()
    const booked = await shiprocket.book(bookingRequest())
    standIn.pickupScheduledDate = '2026-11-27 14:00:00'
    const pickup = await shiprocket.requestPickup({ awb: booked.awb, carrierShipmentId: booked.carrierShipmentId, direction: 'FORWARD' }, NOW)
    const sent = standIn.sent('POST', '/v1/external/courier/generate/pickup')
    assert.equal(sent.length, 1)
    assert.deepEqual(sent[0]!.body, { shipment_id: [Number(booked.carrierShipmentId)] })
    assert.equal(pickup.scheduledAt?.toISOString(), '2026-11-27T08:30:00.000Z')
    assert.match(pickup.reference ?? '', /^Reference No: \d+$/)
  })

  test('a reverse parcel\'s pickup is asked for the same way', async () => {
    const shiprocket = carrier()
    const booked = await shiprocket.book(bookingRequest({ direction: 'REVERSE', shipmentId: 'shp_01JREVERSE00000000000009' }))
    const pickup = await shiprocket.requestPickup({ awb: booked.awb, carrierShipmentId: booked.carrierShipmentId, direction: 'REVERSE' }, NOW)
    assert.ok(pickup.scheduledAt instanceof Date)
    assert.ok(standIn.pickupsRequested.has(String(booked.carrierShipmentId)))
  })

  test('asked again ("Already in Pickup Queue", a retry after a lost answer or another node): the pickup stands, no error', async () => {
    const shiprocket = carrier()
    const booked = await shiprocket.book(bookingRequest())
    const parcel = { awb: booked.awb, carrierShipmentId: booked.carrierShipmentId, direction: 'FORWARD' as const }
    await shiprocket.requestPickup(parcel, NOW)
    assert.deepEqual(await shiprocket.requestPickup(parcel, NOW), { scheduledAt: null, reference: null })
    assert.equal(standIn.sent('POST', '/v1/external/courier/generate/pickup').length, 2)
  })

  test('Shiprocket down, or no AWB yet: a CarrierError with its reason and no secret', async () => {
    const shiprocket = carrier()
    const booked = await shiprocket.book(bookingRequest())
    standIn.override = (request) => (request.path === '/v1/external/courier/generate/pickup' ? { status: 500, body: { message: 'Server Error', status_code: 500 } } : null)
    await assert.rejects(shiprocket.requestPickup({ awb: booked.awb, carrierShipmentId: booked.carrierShipmentId, direction: 'FORWARD' }, NOW), isSafeCarrierError(/generate\/pickup answered 500/))
    standIn.override = null
    await assert.rejects(shiprocket.requestPickup({ awb: 'X', carrierShipmentId: '999', direction: 'FORWARD' }, NOW), isSafeCarrierError(/assign AWB before generating pickup/))
    await assert.rejects(shiprocket.requestPickup({ awb: 'X', carrierShipmentId: null, direction: 'FORWARD' }, NOW), isSafeCarrierError(/no Shiprocket shipment_id/))
  })
})

// ---- Non-delivery actions ------------------------------------------------------------------------

describe('ndrAction', () => {
  test("a re-attempt is Shiprocket's NDR action re-attempt with the date, address line, phone and comments; RTO is return", async () => {
    const shiprocket = carrier()
    await shiprocket.ndrAction({ awb: '19041424751540', carrierShipmentId: '200000001' }, { action: 'REATTEMPT', deferredDate: '2026-11-28', addressLine: 'Flat 4B, 12 MG Road', phone: '9876543210', note: 'Call first' })
    await shiprocket.ndrAction({ awb: '19041424751540', carrierShipmentId: '200000001' }, { action: 'RTO', deferredDate: null, addressLine: null, phone: null, note: null })
    const sent = standIn.sent('POST', '/v1/external/ndr/19041424751540/action').map((r) => r.body)
    assert.deepEqual(sent, [
      { action: 're-attempt', comments: 'Call first', deferred_date: '2026-11-28', address1: 'Flat 4B, 12 MG Road', phone: '9876543210' },
      { action: 'return', comments: 'Return to origin' },
    ])
  })

  test('Shiprocket refusing or down: a CarrierError without secrets', async () => {
    standIn.override = (request) => (request.path.startsWith('/v1/external/ndr/') ? { status: 500, body: { message: 'Server Error', status_code: 500 } } : null)
    await assert.rejects(carrier().ndrAction({ awb: 'X1', carrierShipmentId: null }, { action: 'RTO', deferredDate: null, addressLine: null, phone: null, note: null }), isSafeCarrierError(/ndr\/X1\/action answered 500/))
  })
})

// ---- The token ----------------------------------------------------------------------------------

describe('login and the bearer token', () => {
  test('logs in once and reuses the token', async () => {
    const shiprocket = carrier()
    await shiprocket.book(bookingRequest())
    await shiprocket.cancel({ awb: '141123221084922', carrierShipmentId: null })
    await shiprocket.track('141123221084922')
    assert.equal(standIn.sent('POST', '/v1/external/auth/login').length, 1)
    for (const request of requests.slice(1)) assert.equal(bearerOf(request), `Bearer ${standIn.tokens[0]}`)
  })

  test('calls made at once before any token share one login', async () => {
    const shiprocket = carrier()
    await Promise.all([shiprocket.track('A1'), shiprocket.track('A2'), shiprocket.cancel({ awb: 'A3', carrierShipmentId: null })])
    assert.equal(standIn.sent('POST', '/v1/external/auth/login').length, 1)
  })

  test('on a 401 (token expired early) it logs in again and retries the call once, with the new token', async () => {
    const shiprocket = carrier()
    await shiprocket.track('A1')
    standIn.expireTokens()
    requests.length = 0

    await shiprocket.cancel({ awb: '141123221084922', carrierShipmentId: '200000001' })
    assert.deepEqual(
      requests.map((r) => `${r.method} ${r.path}`),
      ['POST /v1/external/orders/cancel/shipment/awbs', 'POST /v1/external/auth/login', 'POST /v1/external/orders/cancel/shipment/awbs'],
    )
    assert.equal(bearerOf(requests[0]!), `Bearer ${standIn.tokens[0]}`)
    assert.equal(bearerOf(requests[2]!), `Bearer ${standIn.tokens[1]}`)
    // The new token is kept.
    await shiprocket.track('A1')
    assert.equal(standIn.sent('POST', '/v1/external/auth/login').length, 1)
  })

  test('a second 401 after the new login is a CarrierError, not a loop', async () => {
    standIn.override = (request) => (request.path.startsWith('/v1/external/courier/track/') ? { status: 401, body: { message: 'Unauthenticated.', status_code: 401 } } : null)
    await assert.rejects(carrier().track('A1'), isSafeCarrierError(/track\/awb\/A1 answered 401: Unauthenticated/))
    assert.equal(standIn.sent('GET', '/v1/external/courier/track/awb/A1').length, 2)
    assert.equal(standIn.sent('POST', '/v1/external/auth/login').length, 2)
  })

  test('a token 9 days old is replaced before it is used; a younger one is kept', async () => {
    const clock = new ManualClock(new Date('2026-11-01T00:00:00Z'))
    const shiprocket = carrier({ clock })
    await shiprocket.track('A1')
    clock.advance(9 * DAY_MS - 60_000)
    await shiprocket.track('A1')
    assert.equal(standIn.sent('POST', '/v1/external/auth/login').length, 1)
    clock.advance(60_000)
    await shiprocket.track('A1')
    assert.equal(standIn.sent('POST', '/v1/external/auth/login').length, 2)
    assert.equal(bearerOf(requests.at(-1)!), `Bearer ${standIn.tokens[1]}`)
    assert.equal(standIn.sent('GET', '/v1/external/courier/track/awb/A1').filter((r) => bearerOf(r) === `Bearer ${standIn.tokens[0]}`).length, 2)
  })

  test('a refused login is a CarrierError with its message and without the password', async () => {
    const wrong = 'Wrong-Password-That-Must-Not-Leak-7'
    await assert.rejects(carrier({ password: wrong }).track('A1'), (error: unknown) => {
      assert.ok(error instanceof CarrierError)
      assert.match(error.message, /auth\/login answered 400: Invalid email and password combination/)
      assert.ok(!error.message.includes(wrong), error.message)
      return true
    })
    assert.equal(standIn.sent('GET', /^\/v1\/external\/courier\/track/).length, 0)
  })
})

// ---- Failures -----------------------------------------------------------------------------------

describe('failures', () => {
  test('a stand-in that never answers is cut off by timeoutMs, as a CarrierError', async () => {
    standIn.override = (request) => (request.path === '/v1/external/orders/create/adhoc' ? 'hang' : null)
    const started = performance.now()
    await assert.rejects(carrier({ timeoutMs: 200 }).book(bookingRequest()), isSafeCarrierError(/POST \/v1\/external\/orders\/create\/adhoc timed out after 200 ms/))
    const elapsed = performance.now() - started
    assert.ok(elapsed >= 150 && elapsed < 2000, `gave up after ${Math.round(elapsed)} ms`)
  })

  test('a hanging login is cut off too', async () => {
    standIn.override = (request) => (request.path === '/v1/external/auth/login' ? 'hang' : null)
    await assert.rejects(carrier({ timeoutMs: 200 }).track('A1'), isSafeCarrierError(/auth\/login timed out after 200 ms/))
  })

  test('a 5xx is a CarrierError naming the call, even when the answer echoes the password and the token', async () => {
    standIn.override = (request) =>
      request.path === '/v1/external/orders/cancel/shipment/awbs'
        ? { status: 502, body: { message: `Upstream failed for ${String(request.headers.authorization)} (${EMAIL}/${PASSWORD}), webhook ${WEBHOOK_TOKEN}`, status_code: 502 } }
        : null
    await assert.rejects(carrier().cancel({ awb: 'A1', carrierShipmentId: null }), isSafeCarrierError(/POST \/v1\/external\/orders\/cancel\/shipment\/awbs answered 502: Upstream failed for Bearer \[redacted\]/))
  })

  test('a 2xx that is not JSON is a CarrierError', async () => {
    standIn.override = (request) => (request.path.startsWith('/v1/external/courier/track/') ? { status: 200, body: '<html>Service Unavailable</html>' } : null)
    await assert.rejects(carrier().track('A1'), isSafeCarrierError(/GET \/v1\/external\/courier\/track\/awb\/A1 answered 200 with a body that is not JSON/))
  })

  test('an error body under a 200 is a CarrierError', async () => {
    standIn.override = (request) => (request.path === '/v1/external/orders/cancel/shipment/awbs' ? { status: 200, body: { message: 'AWB not found', status_code: 400 } } : null)
    await assert.rejects(carrier().cancel({ awb: 'A1', carrierShipmentId: null }), isSafeCarrierError(/status_code 400: AWB not found/))
  })

  test("Shiprocket's validation errors are quoted with their fields, cut to 200 characters", async () => {
    standIn.override = (request) =>
      request.path === '/v1/external/orders/create/adhoc'
        ? { status: 422, body: { message: 'The given data was invalid.', errors: { billing_phone: ['The billing phone must be 10 digits.'], billing_pincode: ['x'.repeat(400)] }, status_code: 422 } }
        : null
    await assert.rejects(carrier().book(bookingRequest()), (error: unknown) => {
      assert.ok(error instanceof CarrierError)
      assert.match(error.message, /answered 422: The given data was invalid\.; billing_phone: The billing phone must be 10 digits\./)
      const quoted = error.message.slice(error.message.indexOf('answered 422: ') + 'answered 422: '.length)
      assert.ok(quoted.length <= 201, `quoted ${quoted.length} characters`)
      return true
    })
  })

  test('an unreachable host is a CarrierError', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    await assert.rejects(carrier({ apiBase: `http://127.0.0.1:${port}` }).track('A1'), isSafeCarrierError(/could not be reached/))
  })
})

// ---- Cancel and track ---------------------------------------------------------------------------

describe('cancel', () => {
  test('cancels the shipment by its AWB', async () => {
    await carrier().cancel({ awb: '141123221084922', carrierShipmentId: '200000001' })
    const [sent] = standIn.sent('POST', '/v1/external/orders/cancel/shipment/awbs')
    assert.deepEqual(sent!.body, { awbs: ['141123221084922'] })
    assert.equal(bearerOf(sent!), `Bearer ${standIn.tokens[0]}`)
  })

  test('a refused cancellation is a CarrierError', async () => {
    standIn.override = (request) =>
      request.path === '/v1/external/orders/cancel/shipment/awbs' ? { status: 400, body: { message: 'Cancellation is not allowed for shipments already picked up.', status_code: 400 } } : null
    await assert.rejects(carrier().cancel({ awb: 'A1', carrierShipmentId: null }), isSafeCarrierError(/answered 400: Cancellation is not allowed/))
  })
})

describe('track', () => {
  const AWB = '141123221084922'

  test("translates the scans that carry a status of ours, oldest first, in India's time, with the etd", async () => {
    standIn.trackingByAwb.set(AWB, {
      track_status: 1,
      shipment_status: 21,
      shipment_track: [{ id: 1, awb_code: AWB, current_status: 'Undelivered', delivered_date: null, edd: null, destination: 'Bengaluru' }],
      // Shiprocket lists them newest first.
      shipment_track_activities: [
        trackingActivity('2023-05-24 19:05:00', 21, 'Consignee unavailable - Undelivered', 'Bengaluru_Indiranagar (Karnataka)'),
        trackingActivity('2023-05-24 09:10:00', 17, 'Out for delivery', 'Bengaluru_Indiranagar (Karnataka)'),
        trackingActivity('2023-05-23 22:00:00', 'NA', 'Bag received at facility', 'Bengaluru_Hub (Karnataka)'),
        trackingActivity('2023-05-20 11:43:52', 18, 'In transit', 'Jaipur_Hub (Rajasthan)'),
        trackingActivity('2023-05-19 18:00:00', 42, 'Shipment picked up', 'Chomu_SamodRd_D (Rajasthan)'),
        trackingActivity('2023-05-19 11:59:16', 5, 'Manifest uploaded', 'Chomu_SamodRd_D (Rajasthan)'),
      ],
      track_url: `https://shiprocket.co//tracking/${AWB}`,
      etd: '2023-05-25 19:28:00',
    })
    const events = await carrier().track(AWB)
    assert.equal(standIn.sent('GET', `/v1/external/courier/track/awb/${AWB}`).length, 1)
    assert.deepEqual(
      events.map((e) => [e.status, e.occurredAt.toISOString(), e.location, e.note, e.expectedDeliveryDate]),
      [
        ['IN_TRANSIT', '2023-05-19T12:30:00.000Z', 'Chomu_SamodRd_D (Rajasthan)', 'Shipment picked up', '2023-05-25'],
        ['IN_TRANSIT', '2023-05-20T06:13:52.000Z', 'Jaipur_Hub (Rajasthan)', 'In transit', '2023-05-25'],
        ['OUT_FOR_DELIVERY', '2023-05-24T03:40:00.000Z', 'Bengaluru_Indiranagar (Karnataka)', 'Out for delivery', '2023-05-25'],
        ['DELIVERY_FAILED', '2023-05-24T13:35:00.000Z', 'Bengaluru_Indiranagar (Karnataka)', 'Consignee unavailable - Undelivered', '2023-05-25'],
      ],
    )
    assert.ok(events.every((e) => e.awb === AWB && /^[0-9a-f]{64}$/.test(e.eventId)))
    assert.equal(new Set(events.map((e) => e.eventId)).size, events.length)
  })

  test('no activity yet: no events', async () => {
    assert.deepEqual(await carrier().track(AWB), [])
  })

  test('a current status no scan carries (DELIVERED with plain courier scans) is an event dated by its delivery', async () => {
    standIn.trackingByAwb.set(AWB, {
      track_status: 1,
      shipment_status: 7,
      shipment_track: [{ id: 1, awb_code: AWB, current_status: 'Delivered', delivered_date: '2023-05-24 14:02:00', edd: '2023-05-25 00:00:00', destination: 'Bengaluru' }],
      shipment_track_activities: [trackingActivity('2023-05-24 14:02:00', 'NA', 'Delivered to consignee', 'Bengaluru_Indiranagar (Karnataka)')],
    })
    const events = await carrier().track(AWB)
    assert.deepEqual(
      events.map((e) => [e.status, e.occurredAt.toISOString(), e.location, e.note, e.expectedDeliveryDate]),
      [['DELIVERED', '2023-05-24T08:32:00.000Z', 'Bengaluru', 'Delivered', '2023-05-25']],
    )
  })

  test('an update read by tracking has the eventId of the same update received by webhook', async () => {
    standIn.trackingByAwb.set(AWB, { track_status: 1, shipment_status: 17, shipment_track: [], shipment_track_activities: [trackingActivity('2023-05-23 11:43:52', 17, 'Out for delivery', 'Bengaluru')] })
    const [tracked] = await carrier().track(AWB)
    const { rawBody, headers } = shiprocketWebhook(AWB, 17, { token: WEBHOOK_TOKEN, timestamp: '23 05 2023 11:43:52' })
    const [hooked] = carrier().parseWebhook(rawBody, headers)
    assert.equal(tracked!.eventId, hooked!.eventId)
  })
})

// ---- Webhooks -----------------------------------------------------------------------------------

describe('parseWebhook', () => {
  const AWB = '19041424751540'

  test('the right token: the update, translated (IST time, latest scan, etd as a date)', () => {
    const { rawBody, headers } = shiprocketWebhook(AWB, 18, { token: WEBHOOK_TOKEN })
    const events = carrier().parseWebhook(rawBody, headers)
    assert.equal(events.length, 1)
    assert.deepEqual({ ...events[0]!, eventId: '' }, {
      eventId: '',
      awb: AWB,
      status: 'IN_TRANSIT',
      occurredAt: new Date('2023-05-23T06:13:52.000Z'),
      location: 'Bengaluru_Hub (Karnataka)',
      note: 'IN TRANSIT - scanned',
      expectedDeliveryDate: '2023-05-23',
      refused: false,
    })
    assert.match(events[0]!.eventId, /^[0-9a-f]{64}$/)
    assert.equal(requests.length, 0, 'a webhook needs no call to Shiprocket')
  })

  test("an undelivered parcel's reason says whether the recipient refused it (counted by the COD rules) or was not reached", () => {
    const scan = (activity: string) => [{ date: '2023-05-23 11:43:52', status: 'X-NDR', activity, location: 'Bengaluru_Hub (Karnataka)', 'sr-status': '21', 'sr-status-label': 'UNDELIVERED' }]
    const cases: [string, boolean][] = [
      ['Consignee Refused to Accept', true],
      ['Customer refused delivery - COD amount not ready', true],
      ['Shipment rejected by consignee', true],
      ['Consignee not available', false],
      ['Address incomplete / incorrect', false],
    ]
    for (const [activity, refused] of cases) {
      const { rawBody, headers } = shiprocketWebhook(AWB, 21, { token: WEBHOOK_TOKEN, scans: scan(activity) })
      const [event] = carrier().parseWebhook(rawBody, headers)
      assert.deepEqual([event!.status, event!.note, event!.refused], ['DELIVERY_FAILED', activity, refused], activity)
    }
    // A refusal word in another status's scan is not a refused delivery.
    const { rawBody, headers } = shiprocketWebhook(AWB, 9, { token: WEBHOOK_TOKEN, scans: scan('RTO initiated: consignee refused') })
    assert.equal(carrier().parseWebhook(rawBody, headers)[0]!.refused, false)
  })

  test('the previous token is accepted while a rotation is under way, and only then', () => {
    const { rawBody, headers } = shiprocketWebhook(AWB, 7, { token: PREVIOUS_WEBHOOK_TOKEN })
    assert.equal(carrier({ previousWebhookToken: PREVIOUS_WEBHOOK_TOKEN }).parseWebhook(rawBody, headers)[0]!.status, 'DELIVERED')
    assert.throws(() => carrier().parseWebhook(rawBody, headers), CarrierSignatureError)
    // The new token keeps working during the rotation.
    const current = shiprocketWebhook(AWB, 7, { token: WEBHOOK_TOKEN })
    assert.equal(carrier({ previousWebhookToken: PREVIOUS_WEBHOOK_TOKEN }).parseWebhook(current.rawBody, current.headers)[0]!.status, 'DELIVERED')
  })

  test('a wrong, truncated, empty, repeated or missing token is refused', () => {
    const shiprocket = carrier({ previousWebhookToken: PREVIOUS_WEBHOOK_TOKEN })
    const { rawBody, headers } = shiprocketWebhook(AWB, 7, { token: WEBHOOK_TOKEN })
    for (const token of ['someone-elses-token', WEBHOOK_TOKEN.slice(0, -1), `${WEBHOOK_TOKEN} `, WEBHOOK_TOKEN.toUpperCase(), '']) {
      assert.throws(() => shiprocket.parseWebhook(rawBody, { ...headers, 'x-api-key': token }), CarrierSignatureError, JSON.stringify(token))
    }
    const without = shiprocketWebhook(AWB, 7, { token: null })
    assert.throws(() => shiprocket.parseWebhook(without.rawBody, without.headers), CarrierSignatureError)
    // Someone else's header name does not count.
    assert.throws(() => shiprocket.parseWebhook(rawBody, { 'content-type': 'application/json', authorization: WEBHOOK_TOKEN }), CarrierSignatureError)
    assert.equal(shiprocket.parseWebhook(rawBody, headers).length, 1, 'the untouched headers pass, so the refusals are about the token alone')
  })

  test("an unverified body is refused for its token before it is read (even when it is not JSON)", () => {
    assert.throws(() => carrier().parseWebhook(Buffer.from('not json'), { 'x-api-key': 'wrong' }), CarrierSignatureError)
  })

  test('status ids map to our statuses: shipped, picked up, in transit, out for delivery, undelivered, delivered, cancelled, RTO, lost, damaged', () => {
    const expected: [number, string][] = [
      [6, 'IN_TRANSIT'],
      [42, 'IN_TRANSIT'],
      [18, 'IN_TRANSIT'],
      [38, 'IN_TRANSIT'],
      [22, 'IN_TRANSIT'],
      [17, 'OUT_FOR_DELIVERY'],
      [21, 'DELIVERY_FAILED'],
      [77, 'DELIVERY_FAILED'],
      [7, 'DELIVERED'],
      [8, 'CANCELLED'],
      [45, 'CANCELLED'],
      [9, 'RTO_INITIATED'],
      [14, 'RTO_INITIATED'],
      [40, 'RTO_INITIATED'],
      [41, 'RTO_INITIATED'],
      [46, 'RTO_INITIATED'],
      [10, 'RTO_DELIVERED'],
      [12, 'LOST'],
      [76, 'LOST'],
      [24, 'DAMAGED'],
      [25, 'DAMAGED'],
      [44, 'DAMAGED'],
    ]
    const shiprocket = carrier()
    for (const [statusId, status] of expected) {
      const { rawBody, headers } = shiprocketWebhook(AWB, statusId, { token: WEBHOOK_TOKEN })
      assert.deepEqual(shiprocket.parseWebhook(rawBody, headers).map((e) => e.status), [status], `status id ${statusId}`)
      assert.equal(SHIPROCKET_STATUSES[statusId]!.status, status)
    }
  })

  test('statuses the shipment has no status for (pickup scheduled, manifest generated, out for pickup, cancellation requested, partial delivery) give no event', () => {
    const shiprocket = carrier()
    for (const statusId of [3, 5, 19, 16, 23, 999]) {
      const { rawBody, headers } = shiprocketWebhook(AWB, statusId, { token: WEBHOOK_TOKEN })
      assert.deepEqual(shiprocket.parseWebhook(rawBody, headers), [], `status id ${statusId}`)
    }
  })

  test('a return (is_return 1) moves through the same statuses', () => {
    const { rawBody, headers } = shiprocketWebhook(AWB, 42, { token: WEBHOOK_TOKEN, isReturn: true })
    assert.equal(carrier().parseWebhook(rawBody, headers)[0]!.status, 'IN_TRANSIT')
  })

  test("current_timestamp is India's time: 00:30 on 1 January in India is 19:00 on 31 December UTC", () => {
    const { rawBody, headers } = shiprocketWebhook(AWB, 7, { token: WEBHOOK_TOKEN, timestamp: '01 01 2024 00:30:00' })
    assert.equal(carrier().parseWebhook(rawBody, headers)[0]!.occurredAt.toISOString(), '2023-12-31T19:00:00.000Z')
  })

  test('the same update sent twice has the same eventId; another time or another status, another one', () => {
    const shiprocket = carrier()
    const id = (statusId: number, timestamp: string) => {
      const { rawBody, headers } = shiprocketWebhook(AWB, statusId, { token: WEBHOOK_TOKEN, timestamp })
      return shiprocket.parseWebhook(rawBody, headers)[0]!.eventId
    }
    assert.equal(id(17, '23 05 2023 11:43:52'), id(17, '23 05 2023 11:43:52'))
    // Another carrier instance (another process) gives the same id.
    const { rawBody, headers } = shiprocketWebhook(AWB, 17, { token: WEBHOOK_TOKEN, timestamp: '23 05 2023 11:43:52' })
    assert.equal(carrier({ previousWebhookToken: PREVIOUS_WEBHOOK_TOKEN }).parseWebhook(rawBody, headers)[0]!.eventId, id(17, '23 05 2023 11:43:52'))
    assert.notEqual(id(17, '23 05 2023 11:43:52'), id(17, '23 05 2023 11:43:53'))
    assert.notEqual(id(17, '23 05 2023 11:43:52'), id(21, '23 05 2023 11:43:52'))
  })

  test('a numeric AWB and a status given only by its label are read', () => {
    const { body } = shiprocketWebhook(AWB, 17, { token: WEBHOOK_TOKEN })
    const raw = Buffer.from(JSON.stringify({ ...body, awb: 19041424751540, shipment_status_id: undefined, shipment_status: 'OUT FOR DELIVERY' }))
    const [event] = carrier().parseWebhook(raw, { 'x-api-key': WEBHOOK_TOKEN })
    assert.equal(event!.awb, '19041424751540')
    assert.equal(event!.status, 'OUT_FOR_DELIVERY')
  })

  test('a verified body that cannot be read is a CarrierPayloadError: not JSON, no AWB, no status, no readable time', () => {
    const shiprocket = carrier()
    const headers = { 'x-api-key': WEBHOOK_TOKEN }
    const { body } = shiprocketWebhook(AWB, 7, { token: WEBHOOK_TOKEN })
    const bodies = [
      '{"awb": "1904',
      'null',
      '[1,2]',
      JSON.stringify({ ...body, awb: '' }),
      JSON.stringify({ ...body, awb: undefined }),
      JSON.stringify({ ...body, shipment_status_id: undefined, shipment_status: undefined }),
      JSON.stringify({ ...body, current_timestamp: '31 02 2023 10:00:00' }),
      JSON.stringify({ ...body, current_timestamp: 'yesterday' }),
      JSON.stringify({ ...body, current_timestamp: undefined }),
    ]
    for (const raw of bodies) {
      assert.throws(() => shiprocket.parseWebhook(Buffer.from(raw), headers), (error: unknown) => error instanceof CarrierPayloadError && !(error instanceof CarrierSignatureError), raw.slice(0, 80))
    }
  })
})

describe('parseShiprocketTime', () => {
  test("reads Shiprocket's formats as India Standard Time, and offsets as given", () => {
    const cases: [string, string][] = [
      ['23 05 2023 11:43:52', '2023-05-23T06:13:52.000Z'],
      ['2023-05-23 11:43:52', '2023-05-23T06:13:52.000Z'],
      ['2023-05-23 11:43', '2023-05-23T06:13:00.000Z'],
      ['23-05-2023 11:43:52', '2023-05-23T06:13:52.000Z'],
      ['2023-05-23', '2023-05-22T18:30:00.000Z'],
      ['2023-05-23T11:43:52+05:30', '2023-05-23T06:13:52.000Z'],
      ['2023-05-23T06:13:52Z', '2023-05-23T06:13:52.000Z'],
      ['29 02 2024 05:29:59', '2024-02-28T23:59:59.000Z'],
    ]
    for (const [text, iso] of cases) assert.equal(parseShiprocketTime(text)?.toISOString(), iso, text)
  })

  test('impossible or foreign times are null', () => {
    for (const text of ['29 02 2023 10:00:00', '31 04 2023 10:00:00', '23 13 2023 10:00:00', '23 05 2023 24:00:00', '23/05/23', 'May 23 2023', '', '0000-00-00 00:00:00']) {
      assert.equal(parseShiprocketTime(text), null, text)
    }
    assert.equal(parseShiprocketTime(1_684_822_432), null)
    assert.equal(parseShiprocketTime(null), null)
  })
})
