// What the fulfilment back-office route files share: their dependencies, guard (role SUPPORT or
// ADMIN), OpenAPI tag, and the parcel as the back office sees it.
import { Type } from 'typebox'
import type { Guards } from '../../http/guards.ts'
import { Nullable, Time } from '../../http/schemas.ts'
import { Shipment } from '../../modules/shipping/index.ts'
import type { ShippingService } from '../../modules/shipping/index.ts'
import type { Fulfilment } from './desk.ts'

export interface ShippingAdminDeps {
  shipping: ShippingService
  fulfilment: Fulfilment
  guards: Guards
}

/** The options most fulfilment routes spread in first: their guard. */
export const fulfilmentCommon = (guards: Guards) => ({ preValidation: guards.admin('SUPPORT') })
export const tags = ['Admin: fulfilment']

export const NdrActions = Type.Array(
  Type.Object({
    action: Type.Enum(['REATTEMPT', 'RTO']),
    deferredDate: Nullable(Type.String({ format: 'date' })),
    addressLine: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    note: Nullable(Type.String()),
    requestedBy: Type.String({ description: 'ADMIN:<id> or PARTNER:<id>' }),
    at: Time,
  }),
  { description: 'Non-delivery actions forwarded to the carrier, oldest first' },
)

/** A parcel as the back office sees it: the order's view of it, with what only fulfilment needs. */
export const AdminShipment = Type.Object({
  ...Shipment.properties,
  ndrActions: NdrActions,
  orderId: Type.String(),
  labelUrl: Nullable(Type.String({ description: "The carrier's own label, when it gave one" })),
  dimensionsCm: Type.Object({ length: Type.Integer(), breadth: Type.Integer(), height: Type.Integer() }, { description: 'The box declared to the carrier, whole centimetres' }),
  ewayBillNo: Nullable(Type.String({ description: 'The e-way bill the parcel travels under' })),
  origin: Nullable(
    Type.Object(
      {
        locationId: Type.String(),
        pickupName: Nullable(Type.String({ description: "The location's name at the carrier it was booked with; null: the carrier's configured pickup location" })),
      },
      { description: "The stock location a parcel leaves from, or a return pickup goes back to (decision 0043); null: the carrier's configured pickup location (a catalog without locations)" },
    ),
  ),
  resolution: Nullable(
    Type.Object(
      {
        action: Type.Enum(['RESHIP', 'REFUND']),
        at: Time,
        note: Nullable(Type.String()),
        resolvedBy: Type.String({ description: 'ADMIN:<id>' }),
      },
      { description: 'How the back office resolved a LOST or DAMAGED parcel; null until it did' },
    ),
  ),
  pickup: Nullable(
    Type.Object(
      {
        requestedAt: Time,
        scheduledAt: Nullable(Type.String({ format: 'date-time', description: 'When the carrier says its courier comes, when it says' })),
        reference: Nullable(Type.String({ description: "The carrier's reference of the pickup" })),
      },
      { description: 'The carrier accepted to collect the parcel; null: not yet (asked again every minute, or by the retry route)' },
    ),
  ),
})
