// The back office's moves of a return (decision 0035): approval, which for a replacement places the
// zero-value replacement order (orders) and resolves the return; REFUND_PENDING, which settles the
// refund (settlement.ts: payments, ledgers, tax, orders); any other move the machine allows. One
// transaction each, the order row locked before the return's; provider refunds and payouts are
// sent after commit.
import type { Db, Executor } from '../../db/client.ts'
import type { Deps } from '../../deps.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { formatPaise as rupees } from '../../lib/money.ts'
import { createReplacementOrder, lockOrder, orderItemsOf, type OrderRow, type RefundRow } from '../../modules/orders/index.ts'
import { findReturn, lockReturn, moveReturn, refuse, returnItemsOf, type ReturnRow, type ReturnService, type ReturnStatus, statusMoveRefusal } from '../../modules/returns/index.ts'
import type { RefundSender } from '../order-moves/index.ts'
import { startRefund } from './settlement.ts'

export class ReturnMoves {
  readonly #db: Db
  readonly #clock: Deps['clock']
  readonly #refunds: RefundSender
  readonly #returns: ReturnService

  constructor({ database, clock }: Pick<Deps, 'database' | 'clock'>, refunds: RefundSender, returns: ReturnService) {
    this.#db = database.db
    this.#clock = clock
    this.#refunds = refunds
    this.#returns = returns
  }

  /** POST /admin/returns/{id}/status: APPROVED (a replacement is then sent and RESOLVED), REFUND_PENDING (settlement.ts), or another allowed move. */
  async setStatus(adminId: string, id: string, input: { status: ReturnStatus; note?: string; approvedAmount?: bigint }) {
    const actor = `ADMIN:${adminId}`
    const now = this.#clock.now()
    const note = input.note ?? null
    const toSend = await this.#db.transaction(async (tx): Promise<RefundRow[]> => {
      const found = await findReturn(tx, id)
      if (!found) throw notFound('Return request')
      const order = (await lockOrder(tx, found.orderId))!
      const row = (await lockReturn(tx, id))!
      // The same rule as the answers' nextStatuses (returns' allowed.ts).
      refuse(statusMoveRefusal(row, input.status))
      if (input.approvedAmount !== undefined && input.status !== 'APPROVED') throw new AppError('BAD_REQUEST', 'approvedAmount is only taken with status APPROVED')
      if (input.status === 'APPROVED') {
        await approve(tx, row, order, actor, note, input.approvedAmount, now)
        return []
      }
      if (input.status === 'REFUND_PENDING') return startRefund(tx, row, order, actor, note, now)
      await moveReturn(tx, row, input.status, actor, note, now)
      return []
    })
    await this.#refunds.sendRefunds(toSend)
    return this.#returns.adminView(id)
  }
}

/**
 * APPROVED, for the requested amount or less (a lower amount needs a note). A replacement return is
 * then resolved at once with a zero-value replacement order of the same units.
 */
async function approve(tx: Executor, row: ReturnRow, order: OrderRow, actor: string, note: string | null, approvedAmount: bigint | undefined, now: Date) {
  const approved = approvedAmount ?? row.requestedAmount
  if (approved > row.requestedAmount) throw new AppError('BAD_REQUEST', `approvedAmount must not be more than the requested ${rupees(row.requestedAmount)}`)
  if (approved < row.requestedAmount && !note) throw new AppError('BAD_REQUEST', 'A note is required when the approved amount is lowered')
  const approvedRow = await moveReturn(tx, row, 'APPROVED', actor, note, now, { approvedAmount: approved })
  if (row.requestedResolution === 'REPLACEMENT') {
    const items = await returnItemsOf(tx, row.id)
    const orderItems = new Map((await orderItemsOf(tx, order.id)).map((i) => [i.id, i]))
    const replacement = await createReplacementOrder(tx, order, items.map((i) => ({ item: orderItems.get(i.orderItemId)!, quantity: i.quantity })), now)
    await moveReturn(tx, approvedRow, 'RESOLVED', 'SYSTEM', `Replacement order ${replacement.orderNumber}`, now, { replacementOrderId: replacement.id })
  }
}
