// The return-settlement flow (decision 0035): a return's refund settled across payments, ledgers,
// tax and orders (settlement.ts), the back office's moves of a return (desk.ts) and their route
// (admin-routes.ts). The payments flow calls settleProviderRefund when a provider answers one of a
// return's refunds, in the transaction that settles it.
export { ReturnMoves } from './desk.ts'
export { returnMoveAdminRoutes } from './admin-routes.ts'
export { settleProviderRefund } from './settlement.ts'
