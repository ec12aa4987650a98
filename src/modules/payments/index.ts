// The payments module: the payment service (provider sessions, callbacks, refunds, the reservation
// sweeper), its routes (provider webhooks, the sandbox checkout page) and the providers (sandbox,
// razorpay) chosen by config. What other modules and app.ts use of it is exported here.
export { PaymentService } from './service.ts'
export { paymentRoutes } from './routes.ts'
export { createPaymentProvider } from './providers/index.ts'
export type { PaymentProvider, ProviderEvent } from './providers/types.ts'
export type { SandboxProvider } from './providers/sandbox.ts'
export { createPayoutProvider } from './payouts/index.ts'
export { type PayoutAccountInput, payoutToOf } from './payouts/desk.ts'
export type { PayoutProvider } from './payouts/types.ts'
