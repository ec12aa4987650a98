// Wallet Cash and Reward Points: the append-only ledger's table (moved out of checkout, same SQL).
import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

export type LedgerKind = 'WALLET_CASH' | 'REWARD_POINTS'

/**
 * Wallet Cash (paise) and Reward Points (whole points): append-only ledgers. A balance is the sum of
 * its entries and never negative: debits lock the customer row and check the balance first.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    partnerId: text('partner_id').notNull(),
    kind: text('kind').$type<LedgerKind>().notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    reason: text('reason').notNull(),
    reference: text('reference'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ledger_entries_user_kind_idx').on(t.userId, t.kind, t.createdAt)],
)
