// The payments module (decision 0035): payments, refunds, payout accounts and provider callbacks
// already applied (their tables and data access, below orders: an order is written with its first
// payment in one statement, newPaymentCte), the payment providers (sandbox, Razorpay) and payout
// providers (sandbox, RazorpayX) chosen by config, and the shape of a payout account. The work that
// moves orders on a payment's news (sessions, callbacks, refunds, the reservation sweeper, payouts)
// is the payments flow (src/flows/payments).
import { paymentRepo } from './repo.ts'

export const { insertPayment, updatePayment, findPayment, lockPaymentBySession, findPaymentBySession, paymentsOf, expireActivePayments, recordWebhook, insertRefund, refundsOf, claimRefund, updateRefund, lockRefund, lockRefundForCallback, lockPayoutForCallback, insertPayoutAccount, findPayoutAccount, unsentRefunds } = paymentRepo
export { currentPayment, maskAccountNumber, NO_CLIENT_ACTION, paymentView, payoutDestinationView, refundView } from './views.ts'
export { newPaymentCte, type PaymentRow, type PayoutAccountRow, type RefundRow } from './repo.ts'
export type { ClientAction, PaymentStatus, PayoutTo, RefundMethod, RefundStatus } from './schema.sql.ts'
export { createPaymentProvider } from './providers/index.ts'
export { type PaymentProvider, type ProviderEvent, ProviderError, WebhookSignatureError } from './providers/types.ts'
export type { SandboxAction, SandboxProvider } from './providers/sandbox.ts'
export { createPayoutProvider } from './payouts/index.ts'
export type { PayoutAccount, PayoutEvent, PayoutProvider } from './payouts/types.ts'
export { type PayoutAccountInput, payoutToOf } from './payouts/accounts.ts'
