// The Delhivery carrier against a local stand-in of Delhivery's B2C API (the static token, the
// form-encoded create.json, Delhivery-shaped answers and errors), and its push parsing against
// bodies built here as Delhivery posts them (our token in `Authorization: Bearer …`).
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, beforeEach, describe, test } from 'node:test'
import { createDelhiveryCarrier, DELHIVERY_STATUSES, type DelhiveryOptions, parseDelhiveryTime, pickupSlot } from '../../src/modules/shipping/carriers/delhivery.ts'
import { type BookingRequest, type Carrier, CarrierError, CarrierPayloadError, CarrierSignatureError, CarrierUnsupportedError, type RateRequest } from '../../src/modules/shipping/carriers/types.ts'
import { createDelhiveryStandIn, DEFAULT_WAREHOUSE, delhiveryScan, delhiveryShipment, delhiveryWebhook, WAREHOUSE_PINCODE } from '../helpers/delhivery-standin.ts'

const API_TOKEN = 'dlv-api-token-that-must-not-leak-0123456789'
const WEBHOOK_TOKEN = 'dlv-webhook-token-abcdef0123456789'
const PREVIOUS_WEBHOOK_TOKEN = 'dlv-webhook-token-previous-424242'
const AWB = '14908120000001'

const standIn = createDelhiveryStandIn({ token: API_TOKEN })
let apiBase: string

before(async () => {
  apiBase = await standIn.listen()
})
after(() => standIn.close())
beforeEach(() => standIn.reset())

const carrier = (options: Partial<DelhiveryOptions> = {}): Carrier =>
  createDelhiveryCarrier({ apiToken: API_TOKEN, webhookToken: WEBHOOK_TOKEN, apiBase, pickupLocation: DEFAULT_WAREHOUSE, pickupPincode: WAREHOUSE_PINCODE, ...options })

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
    email: null,
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

/** A CarrierError that says what failed and carries no secret. */
function isSafeCarrierError(expected: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof CarrierError, `expected a CarrierError, got ${String(error)}`)
    assert.match(error.message, expected)
    for (const secret of [API_TOKEN, WEBHOOK_TOKEN, PREVIOUS_WEBHOOK_TOKEN]) assert.ok(!error.message.includes(secret), `the message carries a secret: ${error.message}`)
    return true
  }
}

const created = () => standIn.sent('POST', '/api/cmu/create.json')

// ---- Booking --------------------------------------------------------------------------------------

describe('book, forward', () => {
  test('prepaid: one form-encoded create.json with the token, the customer, the parcel and its papers; then the packing slip', async () => {
    const booked = await carrier().book(bookingRequest())

    assert.deepEqual(
      standIn.requests.map((r) => `${r.method} ${r.path}`),
      ['POST /api/cmu/create.json', `GET /api/p/packing_slip?wbns=${booked.awb}&pdf=true`],
    )
    const [create] = created()
    assert.equal(create!.headers.authorization, `Token ${API_TOKEN}`)
    assert.match(String(create!.headers['content-type']), /^application\/x-www-form-urlencoded/)
    assert.equal(create!.form!.format, 'json')
    assert.deepEqual(create!.body, {
      shipments: [
        {
          name: 'Asha Rao',
          add: '12, 3rd Cross, Indiranagar, Flat 4B, Near CMH Hospital',
          pin: '560038',
          city: 'Bengaluru',
          state: 'Karnataka',
          country: 'India',
          phone: '9876543210',
          order: 'shp_01JABCDEFGHJKMNPQRSTVWXYZ0',
          payment_mode: 'Prepaid',
          products_desc: 'Red tee, M x 2, Mug x 1',
          hsn_code: '6109',
          cod_amount: 0,
          order_date: '2026-11-26',
          total_amount: 2250.48,
          quantity: 3,
          seller_inv: 'IN/26-27/0000123',
          waybill: '',
          weight: 1250,
          shipment_length: 30,
          shipment_width: 20,
          shipment_height: 8,
          shipping_mode: 'Surface',
        },
      ],
      pickup_location: { name: 'Bengaluru WH' },
    })
    assert.deepEqual(booked, {
      awb: standIn.waybills[0],
      carrierShipmentId: null,
      courierName: 'Delhivery Surface',
      trackingUrl: `https://www.delhivery.com/track/package/${booked.awb}`,
      labelUrl: `https://delhivery-label.s3.amazonaws.com/packing_slips/${booked.awb}.pdf`,
      expectedDeliveryDate: null,
    })
  })

  test('COD: payment mode COD and the cash to collect as cod_amount, the declared value as total_amount; Express when its courier is chosen', async () => {
    const booked = await carrier().book(bookingRequest({ collectAmount: 230_048n, courierId: 'E' }))
    const sent = created()[0]!.body!.shipments as Record<string, unknown>[]
    assert.deepEqual([sent[0]!.payment_mode, sent[0]!.cod_amount, sent[0]!.total_amount, sent[0]!.shipping_mode], ['COD', 2300.48, 2250.48, 'Express'])
    assert.equal(booked.courierName, 'Delhivery Express')
  })

  test('paise become rupee numbers exactly: 99999 paise is 999.99 on the wire', async () => {
    await carrier().book(bookingRequest({ collectAmount: 99_999n, declaredValue: 10n }))
    const data = created()[0]!.form!.data!
    assert.match(data, /"cod_amount":999\.99,/)
    assert.match(data, /"total_amount":0\.1,/)
  })

  test('a customer without an e-mail books as is (Delhivery asks for none); a long city is sent whole (no published limit)', async () => {
    const city = 'Sri Ganganagar Cantonment Area North Block'
    await carrier().book(bookingRequest({ customer: { ...bookingRequest().customer, city, email: null } }))
    const [shipment] = created()[0]!.body!.shipments as Record<string, unknown>[]
    assert.equal(shipment!.city, city)
    assert.equal('email' in shipment!, false)
  })

  test('the e-way bill goes as ewbn; no seller_inv without a GST document; the stand-in refuses a consignment over ₹50,000 without one, as Delhivery does', async () => {
    await carrier().book(bookingRequest({ declaredValue: 6_000_000n, ewayBillNo: '331000123456', invoiceNumber: null }))
    const [shipment] = created()[0]!.body!.shipments as Record<string, unknown>[]
    assert.equal(shipment!.ewbn, '331000123456')
    assert.equal('seller_inv' in shipment!, false)

    await assert.rejects(
      carrier().book(bookingRequest({ shipmentId: 'shp_01JABCDEFGHJKMNPQRSTVWXYZ9', declaredValue: 6_000_000n })),
      isSafeCarrierError(/create\.json created no shipment: ewbn is mandatory for shipments above 50000/),
    )
  })

  test('several HSN codes go comma-separated, each once', async () => {
    const items = [
      { sku: 'A', name: 'A', quantity: 1, unitPrice: 100n, hsnCode: '6109', gstRateBps: 500 },
      { sku: 'B', name: 'B', quantity: 1, unitPrice: 100n, hsnCode: '8518', gstRateBps: 1800 },
      { sku: 'C', name: 'C', quantity: 1, unitPrice: 100n, hsnCode: '6109', gstRateBps: 500 },
    ]
    await carrier().book(bookingRequest({ items }))
    assert.equal((created()[0]!.body!.shipments as Record<string, unknown>[])[0]!.hsn_code, '6109,8518')
  })

  test("a refused shipment is a CarrierError quoting Delhivery's remarks: a duplicate order id, an unknown pickup location", async () => {
    await carrier().book(bookingRequest())
    await assert.rejects(carrier().book(bookingRequest()), isSafeCarrierError(/Duplicate order id shp_01JABCDEFGHJKMNPQRSTVWXYZ0/))
    await assert.rejects(carrier({ pickupLocation: 'Nowhere' }).book(bookingRequest({ shipmentId: 'shp_other' })), isSafeCarrierError(/ClientWarehouse matching query does not exist/))
  })

  test('a packing slip Delhivery cannot give leaves the booking standing, with no label URL', async () => {
    standIn.override = (request) => (request.path.startsWith('/api/p/packing_slip') ? { status: 500, body: 'Internal Server Error' } : null)
    const booked = await carrier().book(bookingRequest())
    assert.equal(booked.labelUrl, null)
    assert.match(booked.awb, /^\d+$/)
  })

  test('an unknown courier id is refused before anything is sent', async () => {
    await assert.rejects(carrier().book(bookingRequest({ courierId: '142' })), isSafeCarrierError(/no courier "142"/))
    assert.equal(standIn.requests.length, 0)
  })
})

describe('book, reverse', () => {
  test('a pickup from the customer: payment mode Pickup, the customer as name/add/pin, to the registered warehouse; no label', async () => {
    const booked = await carrier().book(bookingRequest({ direction: 'REVERSE', shipmentId: 'shp_01JREVERSE00000000000000', declaredValue: 99_999n, collectAmount: 0n }))
    assert.deepEqual(standIn.requests.map((r) => r.path), ['/api/cmu/create.json'])
    const body = created()[0]!.body!
    const [shipment] = body.shipments as Record<string, unknown>[]
    assert.deepEqual(
      [shipment!.payment_mode, shipment!.name, shipment!.pin, shipment!.phone, shipment!.cod_amount, shipment!.total_amount, body.pickup_location],
      ['Pickup', 'Asha Rao', '560038', '9876543210', 0, 999.99, { name: 'Bengaluru WH' }],
    )
    assert.equal(booked.labelUrl, null)
  })
})

// ---- Pickups, cancellation, NDR ---------------------------------------------------------------------

describe('requestPickup', () => {
  const forward = { awb: AWB, carrierShipmentId: null, direction: 'FORWARD' as const }

  test('asks for a pickup at the warehouse: this afternoon when booked in the morning, the id as reference and the slot as its time', async () => {
    // 10:30 in India.
    const requested = await carrier().requestPickup(forward, new Date('2026-11-26T05:00:00Z'))
    const [sent] = standIn.sent('POST', '/fm/request/new/')
    assert.deepEqual(sent!.body, { pickup_time: '16:00:00', pickup_date: '2026-11-26', pickup_location: 'Bengaluru WH', expected_package_count: 1 })
    assert.equal(sent!.headers.authorization, `Token ${API_TOKEN}`)
    assert.match(requested.reference!, /^\d+$/)
    assert.equal(requested.scheduledAt?.toISOString(), '2026-11-26T10:30:00.000Z')
  })

  test("a parcel from a stock location is booked, quoted and collected at that location's warehouse and pincode (decision 0043)", async () => {
    standIn.warehouses = [...standIn.warehouses, 'Bhiwandi WH']
    await carrier().book(bookingRequest({ origin: { pickupName: 'Bhiwandi WH', pincode: '421302' } }))
    assert.deepEqual(created().at(-1)!.body!.pickup_location, { name: 'Bhiwandi WH' })
    await carrier().rates({ direction: 'FORWARD', originPincode: '421302', customerPincode: '560038', weightGrams: 400, dimensionsCm: { length: 10, breadth: 10, height: 10 }, collectAmount: 0n, declaredValue: 50_000n })
    const origins = standIn.sent('GET', '/api/kinko/v1/invoice/charges/.json').map((r) => new URLSearchParams(r.path.split('?')[1]).get('o_pin'))
    assert.deepEqual([...new Set(origins)], ['421302'])
    await carrier().rates({ direction: 'REVERSE', originPincode: '421302', customerPincode: '560038', weightGrams: 400, dimensionsCm: { length: 10, breadth: 10, height: 10 }, collectAmount: 0n, declaredValue: 50_000n })
    const back = standIn.sent('GET', '/api/kinko/v1/invoice/charges/.json').at(-1)!
    assert.equal(new URLSearchParams(back.path.split('?')[1]).get('d_pin'), '421302', 'a return is quoted to the location it goes back to')
    await carrier().requestPickup({ ...forward, pickupName: 'Bhiwandi WH' }, new Date('2026-11-26T05:00:00Z'))
    assert.equal(standIn.sent('POST', '/fm/request/new/').at(-1)!.body!.pickup_location, 'Bhiwandi WH')
  })

  test('a pickup already asked for that day and warehouse counts as accepted', async () => {
    const first = await carrier().requestPickup(forward, new Date('2026-11-26T05:00:00Z'))
    const again = await carrier().requestPickup({ ...forward, awb: '14908120000002' }, new Date('2026-11-26T06:00:00Z'))
    assert.deepEqual(again, { scheduledAt: null, reference: first.reference })
  })

  test('booked after 14:00 in India: tomorrow at 11:00', () => {
    assert.deepEqual(pickupSlot(new Date('2026-11-26T08:29:59Z')), { date: '2026-11-26', time: '16:00:00' })
    assert.deepEqual(pickupSlot(new Date('2026-11-26T08:30:00Z')), { date: '2026-11-27', time: '11:00:00' })
    assert.deepEqual(pickupSlot(new Date('2026-12-31T18:00:00Z')), { date: '2027-01-01', time: '11:00:00' })
  })

  test('a reverse pickup is Delhivery\'s to schedule when it is manifested: nothing is sent', async () => {
    assert.deepEqual(await carrier().requestPickup({ ...forward, direction: 'REVERSE' }, new Date()), { scheduledAt: null, reference: null })
    assert.equal(standIn.requests.length, 0)
  })

  test('a warehouse Delhivery does not know is a CarrierError', async () => {
    await assert.rejects(carrier({ pickupLocation: 'Nowhere' }).requestPickup(forward, new Date('2026-11-26T05:00:00Z')), isSafeCarrierError(/scheduled no pickup \(400\): ClientWarehouse matching query does not exist/))
  })
})

describe('cancel', () => {
  test('cancels by waybill with cancellation "true"', async () => {
    const booked = await carrier().book(bookingRequest())
    await carrier().cancel({ awb: booked.awb, carrierShipmentId: null })
    assert.deepEqual(standIn.sent('POST', '/api/p/edit')[0]!.body, { waybill: booked.awb, cancellation: 'true' })
  })

  test('a refused cancellation (picked up already) is a CarrierError with its remark', async () => {
    const booked = await carrier().book(bookingRequest())
    standIn.pickedUp.add(booked.awb)
    await assert.rejects(carrier().cancel({ awb: booked.awb, carrierShipmentId: null }), isSafeCarrierError(/did not cancel .*can not be cancelled in its current status/))
  })
})

describe('ndrAction', () => {
  const ndr = (overrides: Partial<{ deferredDate: string | null; addressLine: string | null; phone: string | null }> = {}) => ({ action: 'REATTEMPT' as const, deferredDate: null, addressLine: null, phone: null, note: null, ...overrides })

  test('a re-attempt is forwarded as RE-ATTEMPT', async () => {
    await carrier().ndrAction({ awb: AWB, carrierShipmentId: null }, ndr())
    assert.deepEqual(standIn.sent('POST', '/api/p/update')[0]!.body, { data: [{ waybill: AWB, act: 'RE-ATTEMPT' }] })
  })

  test('a date and corrected details: EDIT_DETAILS then DEFER_DLV, in one request', async () => {
    await carrier().ndrAction({ awb: AWB, carrierShipmentId: null }, ndr({ deferredDate: '2026-11-28', addressLine: '14, 3rd Cross', phone: '9876500000' }))
    assert.deepEqual(standIn.sent('POST', '/api/p/update')[0]!.body, {
      data: [
        { waybill: AWB, act: 'EDIT_DETAILS', action_data: { add: '14, 3rd Cross', phone: '9876500000' } },
        { waybill: AWB, act: 'DEFER_DLV', action_data: { deferred_date: '2026-11-28' } },
      ],
    })
  })

  test("a return to origin is a CarrierUnsupportedError (the service's 409, not a 503 to retry): Delhivery's API has no such action, its panel does", async () => {
    await assert.rejects(carrier().ndrAction({ awb: AWB, carrierShipmentId: null }, { ...ndr(), action: 'RTO' }), (error: unknown) => {
      assert.ok(error instanceof CarrierUnsupportedError, String(error))
      assert.match(error.message, /no return-to-origin request.*Delhivery One panel/)
      return true
    })
    assert.equal(standIn.requests.length, 0)
  })
})

// ---- Rates --------------------------------------------------------------------------------------

describe('rates', () => {
  const rateRequest = (overrides: Partial<RateRequest> = {}): RateRequest => ({
    direction: 'FORWARD',
    customerPincode: '560038',
    weightGrams: 400,
    dimensionsCm: { length: 20, breadth: 15, height: 10 },
    collectAmount: 0n,
    declaredValue: 99_900n,
    ...overrides,
  })

  test("one rate per mode, from the warehouse to the customer, the cheaper recommended, each with its expected-TAT days (so FASTEST can pick Express)", async () => {
    const rates = await carrier().rates(rateRequest())
    // 400 g, but 20 x 15 x 10 / 5 = 600 g volumetric: two slabs. Surface 2 x 45 = 90 + 18 % GST.
    assert.deepEqual(rates, [
      { courierId: 'S', courierName: 'Delhivery Surface', charge: 10_620n, estimatedDays: 5, recommended: true },
      { courierId: 'E', courierName: 'Delhivery Express', charge: 21_240n, estimatedDays: 2, recommended: false },
    ])
    const tat = standIn.sent('GET', '/api/dc/expected_tat').map((r) => Object.fromEntries(new URLSearchParams(r.path.split('?')[1])))
    assert.deepEqual(tat.sort((a, b) => (a.mot! < b.mot! ? -1 : 1)), [
      { origin_pin: WAREHOUSE_PINCODE, destination_pin: '560038', mot: 'E', pdt: 'B2C' },
      { origin_pin: WAREHOUSE_PINCODE, destination_pin: '560038', mot: 'S', pdt: 'B2C' },
    ])
    assert.deepEqual(standIn.sent('GET', '/c/api/pin-codes/json/').map((r) => r.path), ['/c/api/pin-codes/json/?filter_codes=560038'])
    const queries = standIn.sent('GET', '/api/kinko/v1/invoice/charges/.json').map((r) => Object.fromEntries(new URLSearchParams(r.path.split('?')[1])))
    assert.deepEqual(queries.map((q) => q.md).sort(), ['E', 'S'])
    assert.deepEqual({ ...queries[0], md: '' }, { md: '', ss: 'Delivered', o_pin: WAREHOUSE_PINCODE, d_pin: '560038', cgm: '600', pt: 'Pre-paid' })
  })

  test('the expected-TAT API down or answering no days leaves the rates without days, never without rates', async () => {
    standIn.override = (r) => (r.path.startsWith('/api/dc/expected_tat') ? { status: 500, body: 'Internal Server Error' } : null)
    const down = await carrier().rates(rateRequest())
    assert.deepEqual(down.map((r) => [r.courierId, r.estimatedDays]), [['S', null], ['E', null]])
    standIn.override = (r) => (r.path.startsWith('/api/dc/expected_tat') ? { status: 200, body: { success: false, msg: 'No TAT', data: '' } } : null)
    assert.deepEqual((await carrier().rates(rateRequest())).map((r) => r.estimatedDays), [null, null])
  })

  test('COD: pt COD with the amount in rupees, its charge included', async () => {
    const [surface] = await carrier().rates(rateRequest({ collectAmount: 99_900n }))
    const query = new URLSearchParams(standIn.sent('GET', '/api/kinko/v1/invoice/charges/.json')[0]!.path.split('?')[1])
    assert.deepEqual([query.get('pt'), query.get('cod')], ['COD', '999'])
    // (90 + 30) x 1.18
    assert.equal(surface!.charge, 14_160n)
  })

  test('reverse: from the customer to the warehouse, as a DTO', async () => {
    await carrier().rates(rateRequest({ direction: 'REVERSE' }))
    const query = new URLSearchParams(standIn.sent('GET', '/api/kinko/v1/invoice/charges/.json')[0]!.path.split('?')[1])
    assert.deepEqual([query.get('ss'), query.get('o_pin'), query.get('d_pin')], ['DTO', '560038', WAREHOUSE_PINCODE])
  })

  test('a pincode Delhivery does not serve, does not serve for COD, or has under embargo has no rates, and no charge is asked', async () => {
    standIn.postalCodes.set('560001', { pre_paid: 'Y', cod: 'N', pickup: 'Y', remarks: '' })
    standIn.postalCodes.set('560002', { pre_paid: 'Y', cod: 'Y', pickup: 'Y', remarks: 'Embargo' })
    assert.deepEqual(await carrier().rates(rateRequest({ customerPincode: '999999' })), [])
    assert.deepEqual(await carrier().rates(rateRequest({ customerPincode: '560001', collectAmount: 100n })), [])
    assert.deepEqual(await carrier().rates(rateRequest({ customerPincode: '560002' })), [])
    assert.equal(standIn.sent('GET', '/api/kinko/v1/invoice/charges/.json').length, 0)
    assert.equal((await carrier().rates(rateRequest({ customerPincode: '560001' }))).length, 2, 'prepaid is served there')
  })
})

// ---- Webhooks -----------------------------------------------------------------------------------

describe('parseWebhook', () => {
  test('the right token: the update, translated (IST time, location, instructions as the note)', () => {
    const { rawBody, headers } = delhiveryWebhook(AWB, 'UD', 'Dispatched', { token: WEBHOOK_TOKEN, at: '2026-11-24T09:10:00.5', code: 'X-DDD3FD', instructions: 'Out for delivery' })
    const events = carrier().parseWebhook(rawBody, headers)
    assert.equal(events.length, 1)
    assert.deepEqual({ ...events[0]!, eventId: '' }, {
      eventId: '',
      awb: AWB,
      status: 'OUT_FOR_DELIVERY',
      occurredAt: new Date('2026-11-24T03:40:00.500Z'),
      location: 'Bengaluru_Indrngr_D (Karnataka)',
      note: 'Out for delivery',
      expectedDeliveryDate: null,
      refused: false,
    })
    assert.match(events[0]!.eventId, /^[0-9a-f]{64}$/)
    assert.equal(standIn.requests.length, 0, 'a push needs no call to Delhivery')
  })

  test('the previous token is accepted while a rotation is under way, and only then; the new one keeps working', () => {
    const old = delhiveryWebhook(AWB, 'DL', 'Delivered', { token: PREVIOUS_WEBHOOK_TOKEN })
    assert.equal(carrier({ previousWebhookToken: PREVIOUS_WEBHOOK_TOKEN }).parseWebhook(old.rawBody, old.headers)[0]!.status, 'DELIVERED')
    assert.throws(() => carrier().parseWebhook(old.rawBody, old.headers), CarrierSignatureError)
    const current = delhiveryWebhook(AWB, 'DL', 'Delivered', { token: WEBHOOK_TOKEN })
    assert.equal(carrier({ previousWebhookToken: PREVIOUS_WEBHOOK_TOKEN }).parseWebhook(current.rawBody, current.headers)[0]!.status, 'DELIVERED')
  })

  test('a wrong, truncated, unprefixed, empty or missing token is refused, before the body is read', () => {
    const delhivery = carrier({ previousWebhookToken: PREVIOUS_WEBHOOK_TOKEN })
    const { rawBody, headers } = delhiveryWebhook(AWB, 'DL', 'Delivered', { token: WEBHOOK_TOKEN })
    for (const value of ['Bearer someone-elses-token', `Bearer ${WEBHOOK_TOKEN.slice(0, -1)}`, WEBHOOK_TOKEN, `Token ${WEBHOOK_TOKEN}`, `Bearer ${WEBHOOK_TOKEN} `, '']) {
      assert.throws(() => delhivery.parseWebhook(rawBody, { ...headers, authorization: value }), CarrierSignatureError, JSON.stringify(value))
    }
    const without = delhiveryWebhook(AWB, 'DL', 'Delivered', { token: null })
    assert.throws(() => delhivery.parseWebhook(without.rawBody, without.headers), CarrierSignatureError)
    assert.throws(() => delhivery.parseWebhook(Buffer.from('not json'), { authorization: 'Bearer wrong' }), CarrierSignatureError)
    assert.equal(delhivery.parseWebhook(rawBody, headers).length, 1, 'the untouched headers pass, so the refusals are about the token alone')
  })

  test('the published status table maps to our statuses; a failed attempt is an undelivered parcel with an end-of-day code; lost and damaged end the journey', () => {
    const expected: [string, string, string, string][] = [
      ['UD', 'In Transit', 'X-PPOM', 'IN_TRANSIT'],
      ['UD', 'Pending', 'X-IBD3F', 'IN_TRANSIT'],
      ['UD', 'Dispatched', 'X-DDD3FD', 'OUT_FOR_DELIVERY'],
      ['UD', 'Pending', 'EOD-11', 'DELIVERY_FAILED'],
      ['UD', 'Pending', 'EOD-6', 'DELIVERY_FAILED'],
      ['UD', 'Pending', 'ST-108', 'DELIVERY_FAILED'],
      ['UD', 'Dispatched', 'EOD-999', 'DELIVERY_FAILED'],
      ['DL', 'Delivered', 'EOD-38', 'DELIVERED'],
      ['RT', 'In Transit', 'RT-101', 'RTO_INITIATED'],
      ['RT', 'Pending', 'EOD-11', 'RTO_INITIATED'],
      ['RT', 'Dispatched', 'X-DDD3FD', 'RTO_INITIATED'],
      ['DL', 'RTO', 'RD-AC', 'RTO_DELIVERED'],
      ['PU', 'In Transit', 'X-PPOM', 'IN_TRANSIT'],
      ['PU', 'Dispatched', 'X-DDD3FD', 'OUT_FOR_DELIVERY'],
      ['DL', 'DTO', 'RD-AC', 'DELIVERED'],
      ['CN', 'Canceled', 'X-CAN', 'CANCELLED'],
      ['CN', 'Closed', 'X-CAN', 'CANCELLED'],
      ['LT', 'LOST', 'LT-100', 'LOST'],
      ['UD', 'Lost', 'LT-100', 'LOST'],
      ['UD', 'Damaged', 'DMG-1', 'DAMAGED'],
      ['RT', 'Destroyed', 'DMG-2', 'DAMAGED'],
    ]
    const delhivery = carrier()
    for (const [type, status, code, ours] of expected) {
      const { rawBody, headers } = delhiveryWebhook(AWB, type, status, { token: WEBHOOK_TOKEN, code })
      assert.deepEqual(delhivery.parseWebhook(rawBody, headers).map((e) => e.status), [ours], `${type} ${status} ${code}`)
    }
    assert.equal(DELHIVERY_STATUSES['DL RTO']!.status, 'RTO_DELIVERED')
  })

  test('statuses the shipment has none for (manifested, not picked, reverse pickup pending) and unknown ones give no event', () => {
    const delhivery = carrier()
    for (const [type, status] of [['UD', 'Manifested'], ['UD', 'Not Picked'], ['PP', 'Open'], ['PP', 'Scheduled'], ['PP', 'Dispatched'], ['XX', 'Teleported'], ['DL', 'Collected']]) {
      const { rawBody, headers } = delhiveryWebhook(AWB, type!, status!, { token: WEBHOOK_TOKEN })
      assert.deepEqual(delhivery.parseWebhook(rawBody, headers), [], `${type} ${status}`)
    }
  })

  test("a failed attempt's instructions say whether the recipient refused the parcel; a refusal word elsewhere is no refused delivery", () => {
    const cases: [string, boolean][] = [
      ['Consignee refused to accept', true],
      ['Customer refused delivery - COD amount not ready', true],
      ['Consignee Unavailable', false],
      ['Bad / Incomplete Address', false],
    ]
    for (const [instructions, refused] of cases) {
      const { rawBody, headers } = delhiveryWebhook(AWB, 'UD', 'Pending', { token: WEBHOOK_TOKEN, code: 'EOD-6', instructions })
      const [event] = carrier().parseWebhook(rawBody, headers)
      assert.deepEqual([event!.status, event!.note, event!.refused], ['DELIVERY_FAILED', instructions, refused], instructions)
    }
    const { rawBody, headers } = delhiveryWebhook(AWB, 'RT', 'In Transit', { token: WEBHOOK_TOKEN, instructions: 'Returned as consignee refused' })
    assert.equal(carrier().parseWebhook(rawBody, headers)[0]!.refused, false)
  })

  test('a verified body that cannot be read is a CarrierPayloadError: not JSON, no Shipment, no AWB, no status, no readable time', () => {
    const delhivery = carrier()
    const headers = { authorization: `Bearer ${WEBHOOK_TOKEN}` }
    const { body } = delhiveryWebhook(AWB, 'DL', 'Delivered', { token: WEBHOOK_TOKEN })
    const shipment = body.Shipment as Record<string, unknown>
    const status = shipment.Status as Record<string, unknown>
    const bodies = [
      '{"Shipment": {',
      'null',
      '[1,2]',
      JSON.stringify({ shipment }),
      JSON.stringify({ Shipment: { ...shipment, AWB: '' } }),
      JSON.stringify({ Shipment: { ...shipment, Status: { ...status, StatusType: undefined } } }),
      JSON.stringify({ Shipment: { ...shipment, Status: { ...status, StatusDateTime: '2026-02-30T10:00:00' } } }),
      JSON.stringify({ Shipment: { ...shipment, Status: { ...status, StatusDateTime: 'yesterday' } } }),
    ]
    for (const raw of bodies) {
      assert.throws(() => delhivery.parseWebhook(Buffer.from(raw), headers), (error: unknown) => error instanceof CarrierPayloadError, raw.slice(0, 80))
    }
  })

  test('the same push sent twice has the same eventId, from any instance; another time or another status, another one', () => {
    const id = (status: string, at: string, delhivery = carrier()) => {
      const { rawBody, headers } = delhiveryWebhook(AWB, 'UD', status, { token: WEBHOOK_TOKEN, at })
      return delhivery.parseWebhook(rawBody, headers)[0]!.eventId
    }
    assert.equal(id('Dispatched', '2026-11-24T09:10:00'), id('Dispatched', '2026-11-24T09:10:00', carrier({ previousWebhookToken: PREVIOUS_WEBHOOK_TOKEN })))
    assert.notEqual(id('Dispatched', '2026-11-24T09:10:00'), id('Dispatched', '2026-11-24T09:10:01'))
    assert.notEqual(id('Dispatched', '2026-11-24T09:10:00'), id('In Transit', '2026-11-24T09:10:00'))
  })
})

// ---- Tracking -----------------------------------------------------------------------------------

describe('track', () => {
  test("translates the scans that carry a status of ours, oldest first, in India's time, with the expected delivery date", async () => {
    standIn.trackingByAwb.set(
      AWB,
      delhiveryShipment(
        AWB,
        [
          delhiveryScan('UD', 'Manifested', '2026-11-23T14:31:48.752', 'X-UCI', 'Manifest uploaded'),
          delhiveryScan('UD', 'In Transit', '2026-11-23T18:10:52', 'X-PPOM', 'Shipment picked up', 'Bengaluru_Bomsndra_PC (Karnataka)'),
          delhiveryScan('UD', 'Pending', '2026-11-24T07:02:11.31', 'X-IBD3F', 'Shipment Received at Facility'),
          delhiveryScan('UD', 'Dispatched', '2026-11-24T09:10:00', 'X-DDD3FD', 'Out for delivery'),
          delhiveryScan('UD', 'Pending', '2026-11-24T19:05:00', 'EOD-6', 'Consignee refused to accept'),
        ],
        '2026-11-25T23:59:59',
      ),
    )
    const events = await carrier().track(AWB)
    assert.deepEqual(standIn.sent('GET', '/api/v1/packages/json/').map((r) => r.path), [`/api/v1/packages/json/?waybill=${AWB}`])
    assert.deepEqual(
      events.map((e) => [e.status, e.occurredAt.toISOString(), e.note, e.refused, e.expectedDeliveryDate]),
      [
        ['IN_TRANSIT', '2026-11-23T12:40:52.000Z', 'Shipment picked up', false, '2026-11-25'],
        ['IN_TRANSIT', '2026-11-24T01:32:11.310Z', 'Shipment Received at Facility', false, '2026-11-25'],
        ['OUT_FOR_DELIVERY', '2026-11-24T03:40:00.000Z', 'Out for delivery', false, '2026-11-25'],
        ['DELIVERY_FAILED', '2026-11-24T13:35:00.000Z', 'Consignee refused to accept', true, '2026-11-25'],
      ],
    )
    assert.equal(new Set(events.map((e) => e.eventId)).size, events.length)
  })

  test('an update read by tracking has the eventId of the same update pushed', async () => {
    standIn.trackingByAwb.set(AWB, delhiveryShipment(AWB, [delhiveryScan('UD', 'Dispatched', '2026-11-24T09:10:00.5', 'X-DDD3FD', 'Out for delivery')]))
    const [tracked] = await carrier().track(AWB)
    const { rawBody, headers } = delhiveryWebhook(AWB, 'UD', 'Dispatched', { token: WEBHOOK_TOKEN, at: '2026-11-24T09:10:00.500', code: 'X-DDD3FD', instructions: 'Out for delivery' })
    const [pushed] = carrier().parseWebhook(rawBody, headers)
    assert.equal(tracked!.eventId, pushed!.eventId)
  })

  test('a current status no scan carries is an event of its own; a waybill Delhivery has nothing for has no events', async () => {
    const shipment = delhiveryShipment(AWB, [delhiveryScan('UD', 'In Transit', '2026-11-23T18:10:52', 'X-PPOM', 'Shipment picked up')])
    standIn.trackingByAwb.set(AWB, { ...shipment, Status: { Status: 'Delivered', StatusType: 'DL', StatusDateTime: '2026-11-24T14:02:00', StatusLocation: 'Bengaluru', Instructions: 'Delivered to consignee', StatusCode: 'EOD-38' } })
    assert.deepEqual((await carrier().track(AWB)).map((e) => e.status), ['IN_TRANSIT', 'DELIVERED'])
    assert.deepEqual(await carrier().track('14908129999999'), [])
  })
})

// ---- Failures -----------------------------------------------------------------------------------

describe('failures', () => {
  test('an outage, a body that is not JSON, a wrong token: CarrierErrors that name the call and never the token', async () => {
    standIn.override = () => ({ status: 502, body: '<html>Bad gateway</html>' })
    await assert.rejects(carrier().book(bookingRequest()), isSafeCarrierError(/POST \/api\/cmu\/create\.json answered 502/))
    standIn.override = () => ({ status: 200, body: '<html>maintenance</html>' })
    await assert.rejects(carrier().track(AWB), isSafeCarrierError(/GET \/api\/v1\/packages\/json\/ answered 200 with a body that is not JSON/))
    standIn.override = null
    await assert.rejects(createDelhiveryCarrier({ apiToken: 'wrong-token', webhookToken: WEBHOOK_TOKEN, apiBase, pickupLocation: DEFAULT_WAREHOUSE, pickupPincode: WAREHOUSE_PINCODE }).cancel({ awb: AWB, carrierShipmentId: null }), isSafeCarrierError(/answered 401: Invalid token/))
  })

  test('an error that echoes the token is redacted', async () => {
    standIn.override = () => ({ status: 400, body: { rmk: `Token ${API_TOKEN} is not allowed here` } })
    await assert.rejects(carrier().book(bookingRequest()), isSafeCarrierError(/Token \[redacted\] is not allowed/))
  })

  test('a call that never answers times out as a CarrierError', async () => {
    standIn.override = () => 'hang'
    await assert.rejects(carrier({ timeoutMs: 150 }).rates({ direction: 'FORWARD', customerPincode: '560038', weightGrams: 500, dimensionsCm: { length: 10, breadth: 10, height: 10 }, collectAmount: 0n, declaredValue: 100n }), isSafeCarrierError(/GET \/c\/api\/pin-codes\/json\/ timed out after 150 ms/))
  })

  test('Delhivery unreachable is a CarrierError', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    await assert.rejects(carrier({ apiBase: `http://127.0.0.1:${port}` }).track(AWB), isSafeCarrierError(/could not be reached/))
  })
})

describe('parseDelhiveryTime', () => {
  test("reads Delhivery's times as India Standard Time, and offsets as given; impossible ones are null", () => {
    const cases: [string, string][] = [
      ['2019-01-09T17:10:42.767', '2019-01-09T11:40:42.767Z'],
      ['2024-09-21T18:20:25.57', '2024-09-21T12:50:25.570Z'],
      ['2026-11-27 14:00:00', '2026-11-27T08:30:00.000Z'],
      ['2026-11-27', '2026-11-26T18:30:00.000Z'],
      ['2026-11-27T14:00:00+05:30', '2026-11-27T08:30:00.000Z'],
      ['2026-11-27T08:30:00Z', '2026-11-27T08:30:00.000Z'],
    ]
    for (const [text, iso] of cases) assert.equal(parseDelhiveryTime(text)?.toISOString(), iso, text)
    for (const text of ['2026-02-29T10:00:00', '2026-11-27T24:00:00', '27-11-2026', '', 'soon']) assert.equal(parseDelhiveryTime(text), null, text)
    assert.equal(parseDelhiveryTime(1_700_000_000), null)
  })
})
