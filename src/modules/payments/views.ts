// Payments and refunds as the API answers them, and which payment an order shows.
import { formatPaise as rupees } from '../../lib/money.ts'
import type { PaymentRow, RefundRow } from './repo.ts'
import type { ClientAction, PayoutTo } from './schema.sql.ts'

export const NO_CLIENT_ACTION: ClientAction = { type: 'NONE', payload: null }

const PAYMENT_RANK: Record<PaymentRow['status'], number> = { SUCCEEDED: 0, PENDING: 1, CREATED: 1, USER_DROPPED: 2, FAILED: 3, EXPIRED: 4 }

/**
 * The payment an order shows: the newest, and among payments made in the same instant the one that
 * matters most (a success, then an open session), so a retry is never hidden behind the failure it replaced.
 */
export function currentPayment(rows: PaymentRow[]): PaymentRow | null {
  return (
    [...rows].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || PAYMENT_RANK[a.status] - PAYMENT_RANK[b.status] || (a.id < b.id ? 1 : -1))[0] ?? null
  )
}

export function paymentView(p: PaymentRow) {
  return {
    id: p.id,
    orderId: p.orderId,
    provider: p.provider,
    status: p.status,
    amount: rupees(p.amount),
    currency: p.currency,
    failureReason: p.failureReason,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  }
}

export function refundView(r: RefundRow) {
  return {
    id: r.id,
    returnRequestId: r.returnRequestId,
    orderId: r.orderId,
    amount: rupees(r.amount),
    method: r.method,
    status: r.status,
    providerRefundId: r.providerRefundId?.startsWith('claim:') ? null : r.providerRefundId,
    payoutTo: r.payoutTo ? payoutDestinationView(r.payoutTo) : null,
    failureReason: r.failureReason,
    createdAt: r.createdAt.toISOString(),
  }
}

/** A payout destination as answers show it: never more of an account number than its last four digits. */
export function payoutDestinationView(to: PayoutTo) {
  return to.method === 'UPI'
    ? { method: to.method, vpa: to.vpa, accountHolderName: null, ifsc: null, accountNumber: null }
    : { method: to.method, vpa: null, accountHolderName: to.accountHolderName, ifsc: to.ifsc, accountNumber: maskAccountNumber(to.accountNumberLast4) }
}

/** `XXXXXXXX4321`: the length of a masked number says nothing about the real one. */
export const maskAccountNumber = (last4: string) => `XXXXXXXX${last4}`
