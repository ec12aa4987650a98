// Back-office adjustments of Wallet Cash and Reward Points: an amount in rupees (string or number),
// positive to credit and negative to debit, written as one ledger entry with its reason.
import type { Db } from '../../db/client.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { AppError } from '../../lib/errors.ts'
import { formatPaise, parseRupees } from '../../lib/money.ts'
import { findCustomer } from '../customers/index.ts'
import { creditLedger, debitLedger, ledgerBalances } from './ledger.ts'
import type { LedgerKind } from './schema.sql.ts'

type Amount = string | number

export class LedgerAdminService {
  readonly #db: Db
  readonly #clock: Deps['clock']

  constructor({ database, clock }: ServiceDeps) {
    this.#db = database.db
    this.#clock = clock
  }

  /** Positive amounts credit, negative debit (never below zero). Points are whole. */
  async adjustLedger(userId: string, input: { kind: LedgerKind; amount: Amount; reason: string; reference: string }) {
    const customer = await findCustomer(this.#db, userId)
    if (!customer) throw new AppError('NOT_FOUND', 'Customer not found')
    const parsed = parseRupees(input.amount)
    if (parsed === null || parsed === 0n) throw new AppError('BAD_REQUEST', 'amount must be a non-zero amount')
    // The parser reads rupees (paise = x100): for points, "40" must come back as 40.
    if (input.kind === 'REWARD_POINTS' && parsed % 100n !== 0n) throw new AppError('BAD_REQUEST', 'amount must be a whole number of points')
    const units = input.kind === 'REWARD_POINTS' ? parsed / 100n : parsed
    const entry = {
      userId: customer.id,
      partnerId: customer.partnerId,
      kind: input.kind,
      amount: units < 0n ? -units : units,
      reason: `ADJUSTMENT: ${input.reason}`,
      reference: input.reference,
      at: this.#clock.now(),
    }
    await this.#db.transaction((tx) => (units < 0n ? debitLedger(tx, entry) : creditLedger(tx, entry)))
    const balances = await ledgerBalances(this.#db, customer.id)
    return { walletCash: formatPaise(balances.walletCash), rewardPoints: Number(balances.rewardPoints) }
  }
}

