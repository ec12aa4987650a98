// Wallet Cash and Reward Points ledgers. Entries are only ever appended; a balance is their sum.
// Debits lock the customer row, read the balance and refuse to overdraw, so two concurrent spends
// of the same balance cannot both succeed.
import { and, count, desc, eq, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { lockCustomer } from '../customers/index.ts'
import { type LedgerKind, ledgerEntries } from './schema.sql.ts'

export interface LedgerWrite {
  userId: string
  partnerId: string
  kind: LedgerKind
  amount: bigint
  reason: string
  reference?: string | null
  at: Date
}

const NAMES: Record<LedgerKind, string> = { WALLET_CASH: 'Wallet Cash', REWARD_POINTS: 'Reward Points' }

export async function ledgerBalances(db: Executor, userId: string): Promise<{ walletCash: bigint; rewardPoints: bigint }> {
  const rows = await db
    .select({ kind: ledgerEntries.kind, total: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userId, userId))
    .groupBy(ledgerEntries.kind)
  const of = (kind: LedgerKind) => BigInt(rows.find((r) => r.kind === kind)?.total ?? 0)
  return { walletCash: of('WALLET_CASH'), rewardPoints: of('REWARD_POINTS') }
}

async function append(db: Executor, entry: LedgerWrite) {
  const [row] = await db
    .insert(ledgerEntries)
    .values({ id: newId('led'), userId: entry.userId, partnerId: entry.partnerId, kind: entry.kind, amount: entry.amount, reason: entry.reason, reference: entry.reference ?? null, createdAt: entry.at })
    .returning()
  return row!
}

/** Adds to a balance (refunds, promotions, adjustments). Must run inside the caller's transaction. */
export async function creditLedger(tx: Executor, entry: LedgerWrite) {
  if (entry.amount <= 0n) throw new AppError('BAD_REQUEST', 'amount must be positive')
  return append(tx, entry)
}

/** Takes from a balance, never below zero. Must run inside the caller's transaction. */
export async function debitLedger(tx: Executor, entry: LedgerWrite) {
  if (entry.amount <= 0n) throw new AppError('BAD_REQUEST', 'amount must be positive')
  await lockCustomer(tx, entry.userId)
  const balances = await ledgerBalances(tx, entry.userId)
  const balance = entry.kind === 'WALLET_CASH' ? balances.walletCash : balances.rewardPoints
  if (balance < entry.amount) throw new AppError('CONFLICT', `Insufficient ${NAMES[entry.kind]} balance`)
  return append(tx, { ...entry, amount: -entry.amount })
}

export async function ledgerPage(db: Executor, userId: string, page: number, limit: number) {
  const where = and(eq(ledgerEntries.userId, userId))
  const [rows, totals] = await Promise.all([
    db.select().from(ledgerEntries).where(where).orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id)).limit(limit).offset((page - 1) * limit),
    db.select({ n: count() }).from(ledgerEntries).where(where),
  ])
  return { rows, total: totals[0]?.n ?? 0 }
}
