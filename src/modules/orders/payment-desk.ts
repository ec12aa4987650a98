// What orders need of the payments module, as orders say it: which provider new payments go to, open
// a provider session for an order's payment, and send refunds to their provider. The payments module's service has these methods;
// app.ts hands it in. Orders name no payments type, so the two modules import in one direction only
// (payments reads orders' payment records), not in a circle (issue #40).
import type { OrderRow, PaymentRow, RefundRow } from './repo.ts'

export interface PaymentDesk {
  /** The provider new payments are opened with (sandbox, razorpay). */
  readonly providerName: string
  /** Opens the provider's checkout for a CREATED payment: the payment, with its session. */
  startSession(payment: PaymentRow, order: OrderRow): Promise<PaymentRow>
  /** Sends queued refunds to their provider (after the transaction that queued them committed). */
  sendRefunds(refunds: RefundRow[]): Promise<unknown>
}
