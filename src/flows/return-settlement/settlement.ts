// Settling a return's refund (the move to REFUND_PENDING), as named steps, read top to bottom in
// startRefund: a flow (decision 0035), as it moves the return (returns), writes refunds and payouts
// (payments), credits and debits balances (ledgers), credits the units (tax) and sets the order's
// payment status (orders). All of it runs in the caller's transaction with the order row locked, so two refunds
// of one order are serialised; a database trigger refuses refunds above what was paid in any case.
//
//   moveReturn(REFUND_PENDING)
//   a retry (from REFUND_FAILED): resendFailedRefund, and nothing else (the wallet credit and the
//     points were settled the first time)
//   otherwise:
//     splitOverTenders     the amount (approved, else requested) over the card and Wallet Cash:
//                          the card's share rounds up, capped at what is left of its payment
//                          (lib/money.ts splitRefund); everything else goes to Wallet Cash
//     refundToProvider     a PENDING provider refund, sent after commit (payments.sendRefunds)
//     refundToPayout       cash collected on delivery: a PENDING payout to the customer's UPI ID or
//                          bank account when one was given, sent after commit (payments/payouts)
//     refundToWallet       a SUCCEEDED wallet refund, the ledger credit and refund.succeeded
//     givePointsBack       the Reward Points spent on the returned units
//     takeEarnedPointsBack the points earned on the order, in proportion to what is refunded
//     creditReturnedUnits  a credit note for the returned units of an invoiced order
//     refreshRefundStatus  the order's paymentStatus (PARTIALLY_REFUNDED or REFUNDED)
//     nothing sent to a provider: REFUNDED at once
//
// A provider refund settles later (settleProviderRefund): all the return's refunds through ->
// REFUNDED; one refused -> REFUND_FAILED, from which the back office retries with REFUND_PENDING.
import type { Executor } from '../../db/client.ts'
import { newId } from '../../lib/ids.ts'
import { formatPaise as rupees, minPaise, shareOfSlice, splitRefund, sumPaise } from '../../lib/money.ts'
import { recordEvent } from '../../modules/events/index.ts'
import { creditLedger, debitLedger, ledgerBalances } from '../../modules/ledgers/index.ts'
import { capturedWithBalance, lockOrder, orderItemsOf, type OrderRow, paidForUncancelledUnits, refreshRefundStatus } from '../../modules/orders/index.ts'
import { findPayoutAccount, insertRefund, paymentsOf, payoutToOf, type RefundRow, refundsOf, refundView } from '../../modules/payments/index.ts'
import { lockReturn, moveReturn, refundedBeforeReturn, returnItemsOf, type ReturnRow } from '../../modules/returns/index.ts'
import { issueCreditNotes } from '../../modules/tax/index.ts'

type Payment = Awaited<ReturnType<typeof paymentsOf>>[number]

/** REFUND_PENDING: money, points given back and points earned taken back. Returns provider refunds to send. */
export async function startRefund(tx: Executor, row: ReturnRow, order: OrderRow, actor: string, note: string | null, at: Date): Promise<RefundRow[]> {
  const retry = row.status === 'REFUND_FAILED'
  const pending = await moveReturn(tx, row, 'REFUND_PENDING', actor, note, at)
  const amount = row.approvedAmount ?? row.requestedAmount
  const refunds = await refundsOf(tx, order.id)
  if (retry) return resendFailedRefund(tx, row, refunds, at)

  const { paid, providerPart, payoutPart, walletPart } = await splitOverTenders(tx, row, order, amount, refunds)
  const sent: RefundRow[] = []
  if (providerPart > 0n) sent.push(await refundToProvider(tx, row, paid!, providerPart, at))
  if (payoutPart > 0n) sent.push(await refundToPayout(tx, row, payoutPart, null, at))
  if (walletPart > 0n) await refundToWallet(tx, row, walletPart, at)
  await givePointsBack(tx, row, at)
  await takeEarnedPointsBack(tx, row, order, at)
  await creditReturnedUnits(tx, row, order, at)
  await refreshRefundStatus(tx, (await lockOrder(tx, order.id))!, at)
  if (sent.length === 0) await moveReturn(tx, pending, 'REFUNDED', 'SYSTEM', null, at)
  return sent
}

/**
 * A retry: only what failed goes again (the latest refused provider refund or payout of this
 * return). A payout goes to the return's account as it is now (the customer may have corrected
 * it), under the same payout key when the first one's outcome is unknown (the provider could not be
 * reached: it may have paid, and then answers that payout instead of paying again), else a new one.
 */
export async function resendFailedRefund(tx: Executor, row: ReturnRow, refunds: RefundRow[], at: Date): Promise<RefundRow[]> {
  const failed = refunds.filter((r) => r.returnRequestId === row.id && r.status === 'FAILED' && r.method !== 'WALLET_CREDIT').at(-1)
  if (!failed) return []
  if (failed.method !== 'ORIGINAL_PAYMENT') return [await refundToPayout(tx, row, failed.amount, failed.outcomeUnknown ? failed.payoutKey : null, at)]
  return [await insertRefund(tx, { ...refundBase(row, at), id: newId('ref', at.getTime()), paymentId: failed.paymentId, amount: failed.amount, method: 'ORIGINAL_PAYMENT', status: 'PENDING', reason: `Return ${row.id} (retry)` })]
}

/**
 * The refund over the tenders. To the card only for ORIGINAL_PAYMENT_REFUND of an order with a
 * captured provider payment, its proportional share rounded up and capped at what is left of that
 * payment; for ORIGINAL_PAYMENT_REFUND of cash collected on delivery with a UPI ID or bank account
 * given, the cash's share goes there the same way (capped at the cash not yet paid out); Wallet
 * Cash takes the rest: the resolution asked for it, or the wallet part of the payment, or cash
 * collected on delivery when no account was given.
 */
export async function splitOverTenders(
  tx: Executor,
  row: ReturnRow,
  order: OrderRow,
  amount: bigint,
  refunds: RefundRow[],
): Promise<{ paid: Payment | undefined; providerPart: bigint; payoutPart: bigint; walletPart: bigint }> {
  // The capture with something left to refund (a second capture was refunded in full when it arrived).
  const captured = await capturedWithBalance(tx, order.id)
  const paid = captured?.payment
  const none = { paid, providerPart: 0n, payoutPart: 0n, walletPart: amount }
  if (row.requestedResolution !== 'ORIGINAL_PAYMENT_REFUND') return none
  if (captured) {
    const split = splitRefund(amount, { providerPaid: captured.payment.amount, walletPaid: order.walletCashUsed, providerLeft: captured.left })
    return { paid, providerPart: split.provider, payoutPart: 0n, walletPart: split.wallet }
  }
  if (order.paymentMode !== 'COD' || row.payoutAccountId === null) return none
  const paidOut = sumPaise(refunds.filter((r) => (r.method === 'UPI_PAYOUT' || r.method === 'BANK_PAYOUT') && r.status !== 'FAILED').map((r) => r.amount))
  const split = splitRefund(amount, { providerPaid: order.amountPayable, walletPaid: order.walletCashUsed, providerLeft: order.amountPayable - paidOut })
  return { paid, providerPart: 0n, payoutPart: split.provider, walletPart: split.wallet }
}

/** A PENDING payout of cash collected on delivery to the return's UPI ID or bank account, sent once the transaction commits. */
export async function refundToPayout(tx: Executor, row: ReturnRow, amount: bigint, payoutKey: string | null, at: Date): Promise<RefundRow> {
  const account = (await findPayoutAccount(tx, row.payoutAccountId!))!
  const id = newId('ref', at.getTime())
  return insertRefund(tx, {
    ...refundBase(row, at),
    id,
    paymentId: null,
    amount,
    method: account.method === 'UPI' ? 'UPI_PAYOUT' : 'BANK_PAYOUT',
    status: 'PENDING',
    reason: payoutKey ? `Return ${row.id} (retry)` : `Return ${row.id}`,
    payoutAccountId: account.id,
    payoutTo: payoutToOf(account),
    payoutKey: payoutKey ?? id,
  })
}

/** A PENDING refund to the provider payment, sent once the transaction commits. */
export function refundToProvider(tx: Executor, row: ReturnRow, paid: Payment, amount: bigint, at: Date): Promise<RefundRow> {
  return insertRefund(tx, { ...refundBase(row, at), id: newId('ref', at.getTime()), paymentId: paid.id, amount, method: 'ORIGINAL_PAYMENT', status: 'PENDING', reason: `Return ${row.id}` })
}

/** A Wallet Cash refund: done at once (SUCCEEDED), credited to the ledger, with its refund.succeeded event. */
export async function refundToWallet(tx: Executor, row: ReturnRow, amount: bigint, at: Date) {
  const refund = await insertRefund(tx, { ...refundBase(row, at), id: newId('ref', at.getTime()), paymentId: null, amount, method: 'WALLET_CREDIT', status: 'SUCCEEDED', reason: `Return ${row.id}` })
  await creditLedger(tx, { userId: row.userId, partnerId: row.partnerId, kind: 'WALLET_CASH', amount, reason: 'RETURN_REFUND', reference: row.id, at })
  await recordEvent(tx, { partnerId: row.partnerId, type: 'refund.succeeded', subjectId: row.orderId, data: { orderId: row.orderId, refundId: refund.id, returnId: row.id, amount: rupees(amount), method: 'WALLET_CREDIT', refund: refundView(refund) }, at })
}

/** The Reward Points spent on the returned units (counted when the return was requested) go back. */
export async function givePointsBack(tx: Executor, row: ReturnRow, at: Date) {
  const items = await returnItemsOf(tx, row.id)
  const pointsBack = sumPaise(items.map((i) => i.rewardPoints))
  if (pointsBack > 0n) await creditLedger(tx, { userId: row.userId, partnerId: row.partnerId, kind: 'REWARD_POINTS', amount: pointsBack, reason: 'RETURN_POINTS_BACK', reference: row.id, at })
}

/**
 * Points earned on the order go back in proportion to what is refunded, counted over every refunded
 * return of the order so far: rounded down per return, an order returned a unit at a time kept up to
 * a point a return (points farming). Never more than the customer still holds.
 */
export async function takeEarnedPointsBack(tx: Executor, row: ReturnRow, order: OrderRow, at: Date) {
  const itemsPaid = paidForUncancelledUnits(await orderItemsOf(tx, order.id))
  const before = await refundedBeforeReturn(tx, order.id, row.id)
  const earnedBack = shareOfSlice(order.rewardPointsEarned, itemsPaid, before, row.requestedAmount)
  if (earnedBack > 0n) {
    const take = minPaise(earnedBack, (await ledgerBalances(tx, row.userId)).rewardPoints)
    if (take > 0n) await debitLedger(tx, { userId: row.userId, partnerId: row.partnerId, kind: 'REWARD_POINTS', amount: take, reason: 'RETURN_POINTS_REVERSED', reference: row.id, at })
  }
}

/**
 * A credit note for the returned units, when the order was invoiced (decision 0022). A refund approved
 * for less than was asked credits only what is refunded: the merchant kept the rest of the units'
 * price, so the supply's value is reduced by less (decision 0029).
 */
export async function creditReturnedUnits(tx: Executor, row: ReturnRow, order: OrderRow, at: Date) {
  if (order.taxableValue === null) return
  const items = await returnItemsOf(tx, row.id)
  const kept = row.approvedAmount === null ? 0n : row.requestedAmount - row.approvedAmount
  const reason = kept > 0n ? `Return ${row.id}: refunded ₹${rupees(row.approvedAmount!)} of ₹${rupees(row.requestedAmount)}` : `Return ${row.id}`
  await issueCreditNotes(tx, order, { reason, returned: { returnId: row.id, items: items.map((i) => ({ orderItemId: i.orderItemId, quantity: i.quantity })), kept } }, at)
}

/** Provider results move the return on: all its refunds through -> REFUNDED; one failed -> REFUND_FAILED. */
export async function settleProviderRefund(tx: Executor, refund: RefundRow, at: Date) {
  if (!refund.returnRequestId) return
  let row = await lockReturn(tx, refund.returnRequestId)
  if (!row) return
  // A payout given up on (its provider could not be reached) that went through after all.
  const late = row.status === 'REFUND_FAILED' && refund.status === 'SUCCEEDED'
  if (row.status !== 'REFUND_PENDING' && !late) return
  if (late) row = await moveReturn(tx, row, 'REFUND_PENDING', 'SYSTEM', 'The payout went through after all', at)
  if (refund.status === 'FAILED') {
    await moveReturn(tx, row, 'REFUND_FAILED', 'SYSTEM', `${refund.failureReason ?? 'The provider refused the refund'}; retry with REFUND_PENDING`, at)
    return
  }
  const mine = (await refundsOf(tx, row.orderId)).filter((r) => r.returnRequestId === row.id && r.status !== 'FAILED')
  if (mine.every((r) => r.status === 'SUCCEEDED')) await moveReturn(tx, row, 'REFUNDED', 'SYSTEM', null, at)
}

const refundBase = (row: ReturnRow, at: Date) => ({ orderId: row.orderId, returnRequestId: row.id, createdAt: at, updatedAt: at })

