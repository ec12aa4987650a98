// The sandbox carrier: served by the service itself, like the payment sandbox. It books an AWB at
// once; a person (the tracking page's buttons) or a test moves the parcel through its states, and
// each move reaches the shipment as a tracking callback signed exactly as the webhook route checks
// it. Nothing leaves the machine.
import { randomBytes, randomInt } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { signPayload, verifySignature } from '../../../lib/signature.ts'
import { type Carrier, CarrierPayloadError, CarrierSignatureError, isRefusal, type TrackingEvent, type TrackingStatus } from './types.ts'
import { jsonObject } from '../../../lib/json.ts'

export const SANDBOX_CARRIER_SIGNATURE_HEADER = 'x-sandbox-carrier-signature'
export const TRACKING_STATUSES: TrackingStatus[] = ['IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERY_FAILED', 'DELIVERED', 'RTO_INITIATED', 'RTO_DELIVERED', 'CANCELLED', 'LOST', 'DAMAGED']
/** The sandbox's couriers: the first is its default and its recommendation. Paise; days to deliver. */
export const SANDBOX_COURIERS = [
  { id: 'sbx-express', name: 'Sandbox Express', base: 5_000n, perSlab: 3_000n, days: 3 },
  { id: 'sbx-surface', name: 'Sandbox Surface', base: 3_500n, perSlab: 1_800n, days: 6 },
] as const
const DAY_MS = 86_400_000
/** India is UTC+5:30 all year: dates a carrier reports are Indian dates. */
const IST_OFFSET_MS = 330 * 60_000

export interface SandboxTrackingBody {
  id: string
  awb: string
  status: TrackingStatus
  /** ISO 8601: when the scan happened. */
  occurredAt: string
  location?: string | null
  note?: string | null
}

export function createSandboxCarrier(options: { secret: string; publicBaseUrl: string; now?: () => number }) {
  const now = options.now ?? Date.now
  const carrier: Carrier & {
    signedEvent(body: SandboxTrackingBody): { rawBody: Buffer; headers: IncomingHttpHeaders }
    eventFor(awb: string, status: TrackingStatus, occurredAt?: Date, note?: string | null): SandboxTrackingBody
  } = {
    name: 'sandbox',

    async book(request) {
      // 13 digits, like a courier's; `SBX` says where it came from.
      const awb = `SBX${randomInt(10 ** 9, 10 ** 10)}${randomInt(100, 1000)}`
      const courier = SANDBOX_COURIERS.find((c) => c.id === request.courierId) ?? SANDBOX_COURIERS[0]!
      const due = new Date(request.bookedAt.getTime() + IST_OFFSET_MS + courier.days * DAY_MS).toISOString().slice(0, 10)
      return {
        awb,
        carrierShipmentId: null,
        courierName: request.direction === 'REVERSE' ? 'Sandbox Reverse' : courier.name,
        trackingUrl: `${options.publicBaseUrl}/api/v1/sandbox/shipments/${awb}`,
        labelUrl: null,
        expectedDeliveryDate: request.direction === 'REVERSE' ? null : due,
      }
    },

    /**
     * Two couriers with a rate card on the chargeable weight (the larger of dead and volumetric,
     * L x B x H / 5000, in started 500 g slabs): a fast one it recommends and a cheaper slow one;
     * COD costs ₹35 more. Pincodes starting with 9 (the army post) are served by neither.
     */
    async rates(request) {
      if (request.customerPincode.startsWith('9')) return []
      const { length, breadth, height } = request.dimensionsCm
      const chargeable = Math.max(request.weightGrams, Math.ceil((length * breadth * height) / 5))
      const slabs = BigInt(Math.ceil(chargeable / 500))
      return SANDBOX_COURIERS.map((c) => ({
        courierId: c.id,
        courierName: c.name,
        charge: c.base + c.perSlab * slabs + (request.collectAmount > 0n ? 3_500n : 0n),
        estimatedDays: c.days,
        recommended: c.id === SANDBOX_COURIERS[0]!.id,
      }))
    },

    /** The sandbox's courier takes the instruction; the parcel moves with the tracking page's buttons. */
    async ndrAction() {},

    /** A courier comes the next day in India at 10:00. */
    async requestPickup(_shipment, at) {
      const tomorrow = new Date(at.getTime() + IST_OFFSET_MS + DAY_MS).toISOString().slice(0, 10)
      return { scheduledAt: new Date(`${tomorrow}T10:00:00+05:30`), reference: `SBXPU${randomInt(10 ** 8, 10 ** 9)}` }
    },

    async cancel() {},

    parseWebhook(rawBody, headers): TrackingEvent[] {
      const header = headers[SANDBOX_CARRIER_SIGNATURE_HEADER]
      if (typeof header !== 'string' || !verifySignature(options.secret, header, rawBody.toString('utf8'), now() / 1000)) {
        throw new CarrierSignatureError('Missing, stale or wrong signature')
      }
      const body = jsonObject(rawBody.toString('utf8')) as Partial<SandboxTrackingBody> | null
      if (!body) throw new CarrierPayloadError('Body is not a JSON object')
      // Only strings are read: String() of any other JSON (an array nested 10,000 deep) may throw.
      const occurredAt = new Date(typeof body.occurredAt === 'string' ? body.occurredAt : Number.NaN)
      if (typeof body.id !== 'string' || typeof body.awb !== 'string' || !TRACKING_STATUSES.includes(body.status as TrackingStatus) || Number.isNaN(occurredAt.getTime())) {
        throw new CarrierPayloadError('A tracking event needs id, awb, status and occurredAt')
      }
      // The event id is unique per carrier through an index, whose entries PostgreSQL caps at about 2.7 kB.
      if (body.id.length > 100 || body.awb.length > 40) throw new CarrierPayloadError('A tracking event id is at most 100 characters, an AWB at most 40')
      const text = (v: unknown) => v === undefined || v === null || typeof v === 'string'
      if (!text(body.location) || !text(body.note)) throw new CarrierPayloadError('A tracking event has a location and a note that are text, when it has them')
      const note = body.note ?? null
      return [{ eventId: body.id, awb: body.awb, status: body.status as TrackingStatus, occurredAt, location: body.location ?? null, note, expectedDeliveryDate: null, refused: body.status === 'DELIVERY_FAILED' && isRefusal(note) }]
    },

    /** The sandbox reports only through its callbacks. */
    async track() {
      return []
    },

    eventFor(awb, status, occurredAt = new Date(now()), note = null) {
      return { id: `sbxtrk_${randomBytes(12).toString('base64url')}`, awb, status, occurredAt: occurredAt.toISOString(), location: 'Sandbox hub', note }
    },

    signedEvent(body) {
      const raw = JSON.stringify(body)
      const header = signPayload(options.secret, Math.floor(now() / 1000), raw)
      return { rawBody: Buffer.from(raw), headers: { 'content-type': 'application/json', [SANDBOX_CARRIER_SIGNATURE_HEADER]: header } }
    },
  }
  return carrier
}

export type SandboxCarrier = ReturnType<typeof createSandboxCarrier>
