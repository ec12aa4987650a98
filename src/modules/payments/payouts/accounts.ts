// A customer's payout account as given and as shown: what a UPI ID or bank account input is, and
// where a payout went as kept on its refund row (no more of the account number than its last four).
import type { PayoutAccountRow } from '../repo.ts'
import type { PayoutTo } from '../schema.sql.ts'

/** What a customer gives: a UPI ID, or a bank account (validated by the route's schema). */
export type PayoutAccountInput =
  | { method: 'UPI'; vpa: string }
  | { method: 'BANK'; accountHolderName: string; ifsc: string; accountNumber: string }

/** Where a payout goes, as kept on its refund row: no more of the account number than its last four digits. */
export function payoutToOf(account: PayoutAccountRow): PayoutTo {
  return account.method === 'UPI'
    ? { method: 'UPI', vpa: account.vpa! }
    : { method: 'BANK', accountHolderName: account.accountHolderName!, ifsc: account.ifsc!, accountNumberLast4: account.accountNumberLast4! }
}
