// The payments flow (decision 0035): provider sessions, provider callbacks that confirm orders or
// settle refunds, refunds and payouts sent after commit, and the reservation sweeper (service.ts,
// payout-desk.ts), with their routes: provider webhooks and the sandbox checkout page (routes.ts).
export { PaymentService } from './service.ts'
export { paymentRoutes } from './routes.ts'
