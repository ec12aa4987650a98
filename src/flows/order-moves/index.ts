// The order-moves flow (decision 0035 step 3): what moves an order and settles its money across
// catalog, checkout, ledgers, payments, shipping and tax. Reversing a sale (reverse-sale.ts:
// cancellation), cancelling some units (partial-cancel.ts), a parcel's move followed by its order
// (parcel-moves.ts: carrier scans, delivery, return to origin, lost parcels), the requests that ask
// for them (desk.ts) and their routes (routes.ts for customers, admin-routes.ts for the back office).
export { OrderMoves, type RefundSender } from './desk.ts'
export { orderCancellationRoutes } from './routes.ts'
export { orderMoveAdminRoutes } from './admin-routes.ts'
export { cancelOrder, queueProviderRefund } from './reverse-sale.ts'
export { applyTrackingEvent, type LossResolution, recordUnappliedTrackingEvent, resolveLostParcel } from './parcel-moves.ts'
