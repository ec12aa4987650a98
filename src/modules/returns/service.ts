// Returns: the customer's request, the back office's review, and the refund that follows.
//
//   REQUESTED -> UNDER_REVIEW -> NEEDS_INFO <-> UNDER_REVIEW -> APPROVED | REJECTED
//   APPROVED -> REFUND_PENDING -> REFUNDED | REFUND_FAILED;  REFUND_FAILED -> REFUND_PENDING (retry)
//   REFUNDED -> RESOLVED;  an approved REPLACEMENT -> RESOLVED with a zero-value replacement order
//
// The requested amount is what the customer paid for the units (the order lines' paidAmount, which
// already has the coupon and Reward Points spread over them), split over the units so that all the
// units of a line add up to the line exactly. Moving to REFUND_PENDING gives the money back by the
// requested resolution, gives back the Reward Points spent on the units, and takes back the points
// earned on them. Every write runs with the order row locked, so two returns or two refunds of one
// order are serialised; a database trigger refuses refunds above what was paid in any case.
import { eq } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import type { Deps } from '../../deps.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { formatPaise as rupees, paisePerPointOf, pointsForSlice, shareOfSlice, splitRefund, sumPaise } from '../../lib/money.ts'
import { pageMeta } from '../../lib/pagination.ts'
import { backOfficeScope, inScope, type ListScope } from '../../lib/scope.ts'
import { creditLedger, debitLedger, ledgerBalances } from '../checkout/ledger.ts'
import { partnerPricing } from '../checkout/schema.sql.ts'
import { recordEvent } from '../events/index.ts'
import {
  createReplacementOrder,
  findOwnOrder,
  insertRefund,
  lockOrder,
  type OrderRow,
  orderItemsOf,
  paymentsOfOrder,
  refreshRefundStatus,
  type RefundRow,
  refundsOfOrder,
  refundView,
} from '../orders/index.ts'
import type { PaymentService } from '../orders/payments.ts'
import { checkImageUrls } from '../uploads/index.ts'
import type { Storage } from '../uploads/storage.ts'
import { type ReturnFilter, type ReturnItemRow, returnRepo, type ReturnRow } from './repo.ts'
import type { Resolution, ReturnStatus } from './schema.sql.ts'

export const RETURN_MOVES: Record<ReturnStatus, ReturnStatus[]> = {
  REQUESTED: ['UNDER_REVIEW'],
  UNDER_REVIEW: ['NEEDS_INFO', 'APPROVED', 'REJECTED'],
  NEEDS_INFO: ['UNDER_REVIEW'],
  APPROVED: ['REFUND_PENDING', 'RESOLVED'],
  REJECTED: [],
  REFUND_PENDING: ['REFUNDED', 'REFUND_FAILED'],
  REFUNDED: ['RESOLVED'],
  REFUND_FAILED: ['REFUND_PENDING'],
  RESOLVED: [],
}

export interface CustomerRef {
  userId: string
  partnerId: string
}

export interface CreateReturnInput {
  orderId: string
  reason: string
  detail: string
  requestedResolution: Resolution
  items: { orderItemId: string; quantity: number; reason: string }[]
  imageUrls?: string[]
}

export function createReturnService({ database, clock }: Deps, storage: Storage, payments: PaymentService) {
  const db = database.db

  /** The return as the API answers it; read through `ex` (a transaction's, for its events). */
  async function detail(row: ReturnRow, ex: Executor = db) {
    const [items, refunds] = await Promise.all([returnRepo.items(ex, [row.id]), refundsOfOrder(ex, row.orderId)])
    return {
      id: row.id,
      partnerId: row.partnerId,
      orderId: row.orderId,
      status: row.status,
      reason: row.reason,
      detail: row.detail,
      requestedResolution: row.requestedResolution,
      requestedAmount: rupees(row.requestedAmount),
      approvedAmount: row.approvedAmount === null ? null : rupees(row.approvedAmount),
      imageUrls: row.imageUrls,
      items: items.map((i) => ({ id: i.id, orderItemId: i.orderItemId, quantity: i.quantity, reason: i.reason, requestedAmount: rupees(i.requestedAmount) })),
      refunds: refunds.filter((r) => r.returnRequestId === row.id).map(refundView),
      replacementOrderId: row.replacementOrderId,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }
  }

  async function ownReturn(customer: CustomerRef, id: string) {
    const row = await returnRepo.find(db, id)
    if (!row || row.userId !== customer.userId || row.partnerId !== customer.partnerId) throw notFound('Return request')
    return row
  }

  async function move(tx: Executor, row: ReturnRow, to: ReturnStatus, actor: string, note: string | null, at: Date, changes: Partial<ReturnRow> = {}) {
    if (!RETURN_MOVES[row.status].includes(to)) throw new AppError('CONFLICT', `Return request cannot move from ${row.status} to ${to}`)
    const updated = await returnRepo.update(tx, row.id, { ...changes, status: to, updatedAt: at })
    await returnRepo.addHistory(tx, { returnRequestId: row.id, fromStatus: row.status, toStatus: to, actor, note, createdAt: at })
    await recordEvent(tx, { partnerId: row.partnerId, type: 'return.status_changed', subjectId: row.id, data: { returnId: row.id, orderId: row.orderId, from: row.status, status: to, return: await detail(updated, tx) }, at })
    return updated
  }

  /** REFUND_PENDING: money, points given back and points earned taken back. Returns provider refunds to send. */
  async function startRefund(tx: Executor, row: ReturnRow, order: OrderRow, actor: string, note: string | null, at: Date): Promise<RefundRow[]> {
    const retry = row.status === 'REFUND_FAILED'
    const pending = await move(tx, row, 'REFUND_PENDING', actor, note, at)
    const amount = row.approvedAmount ?? row.requestedAmount
    const refunds = await refundsOfOrder(tx, order.id)
    const base = { orderId: order.id, returnRequestId: row.id, createdAt: at, updatedAt: at }
    const sent: RefundRow[] = []

    if (retry) {
      // Only what failed goes again; wallet credits and points were settled the first time.
      const failed = refunds.filter((r) => r.returnRequestId === row.id && r.status === 'FAILED' && r.method === 'ORIGINAL_PAYMENT').at(-1)
      if (failed) {
        sent.push(await insertRefund(tx, { ...base, id: newId('ref', at.getTime()), paymentId: failed.paymentId, amount: failed.amount, method: 'ORIGINAL_PAYMENT', status: 'PENDING', reason: `Return ${row.id} (retry)` }))
      }
      return sent
    }

    const paid = (await paymentsOfOrder(tx, order.id)).find((p) => p.status === 'SUCCEEDED' && p.providerPaymentId)
    let providerPart = 0n
    if (row.requestedResolution === 'ORIGINAL_PAYMENT_REFUND' && paid) {
      const providerRefunded = sumPaise(refunds.filter((r) => r.paymentId === paid.id && r.status !== 'FAILED').map((r) => r.amount))
      // The card's share rounds up and the wallet's down (splitRefund says why), capped at what is left of the card's payment.
      providerPart = splitRefund(amount, { providerPaid: paid.amount, walletPaid: order.walletCashUsed, providerLeft: paid.amount - providerRefunded }).provider
    }
    // Wallet Cash: the resolution asked for it, or the wallet part of the payment, or cash collected on delivery.
    const walletPart = amount - providerPart
    if (providerPart > 0n) {
      sent.push(await insertRefund(tx, { ...base, id: newId('ref', at.getTime()), paymentId: paid!.id, amount: providerPart, method: 'ORIGINAL_PAYMENT', status: 'PENDING', reason: `Return ${row.id}` }))
    }
    if (walletPart > 0n) {
      const refund = await insertRefund(tx, { ...base, id: newId('ref', at.getTime()), paymentId: null, amount: walletPart, method: 'WALLET_CREDIT', status: 'SUCCEEDED', reason: `Return ${row.id}` })
      await creditLedger(tx, { userId: row.userId, partnerId: row.partnerId, kind: 'WALLET_CASH', amount: walletPart, reason: 'RETURN_REFUND', reference: row.id, at })
      await recordEvent(tx, { partnerId: row.partnerId, type: 'refund.succeeded', subjectId: order.id, data: { orderId: order.id, refundId: refund.id, returnId: row.id, amount: rupees(walletPart), method: 'WALLET_CREDIT', refund: refundView(refund) }, at })
    }

    const items = await returnRepo.items(tx, [row.id])
    const pointsBack = sumPaise(items.map((i) => i.rewardPoints))
    if (pointsBack > 0n) await creditLedger(tx, { userId: row.userId, partnerId: row.partnerId, kind: 'REWARD_POINTS', amount: pointsBack, reason: 'RETURN_POINTS_BACK', reference: row.id, at })
    // Points earned on the order go back in proportion to what is refunded, counted over every
    // refunded return of the order so far: rounded down per return, an order returned a unit at a
    // time kept up to a point a return (points farming).
    const itemsPaid = order.itemsTotal - order.couponDiscount - order.rewardPointsValue
    const before = await returnRepo.refundedBefore(tx, order.id, row.id)
    const earnedBack = shareOfSlice(order.rewardPointsEarned, itemsPaid, before, row.requestedAmount)
    if (earnedBack > 0n) {
      const balance = (await ledgerBalances(tx, row.userId)).rewardPoints
      const take = earnedBack < balance ? earnedBack : balance
      if (take > 0n) await debitLedger(tx, { userId: row.userId, partnerId: row.partnerId, kind: 'REWARD_POINTS', amount: take, reason: 'RETURN_POINTS_REVERSED', reference: row.id, at })
    }
    await refreshRefundStatus(tx, (await lockOrder(tx, order.id))!, at)
    if (sent.length === 0) await move(tx, pending, 'REFUNDED', 'SYSTEM', null, at)
    return sent
  }

  // Provider results move the return on: all its refunds through -> REFUNDED; one failed -> REFUND_FAILED.
  payments.onRefundSettled(async (tx, refund, at) => {
    if (!refund.returnRequestId) return
    const row = await returnRepo.lock(tx, refund.returnRequestId)
    if (!row || row.status !== 'REFUND_PENDING') return
    if (refund.status === 'FAILED') {
      await move(tx, row, 'REFUND_FAILED', 'SYSTEM', 'The provider refused the refund; retry with REFUND_PENDING', at)
      return
    }
    const mine = (await refundsOfOrder(tx, row.orderId)).filter((r) => r.returnRequestId === row.id && r.status !== 'FAILED')
    if (mine.every((r) => r.status === 'SUCCEEDED')) await move(tx, row, 'REFUNDED', 'SYSTEM', null, at)
  })

  return {
    async create(customer: CustomerRef, input: CreateReturnInput) {
      const now = clock.now()
      const order = await findOwnOrder(db, customer, input.orderId)
      if (!order) throw notFound('Order')
      const imageUrls = await checkImageUrls(db, storage, customer, 'returns', input.imageUrls ?? [], now)
      const ids = input.items.map((i) => i.orderItemId)
      const repeated = ids.find((id, i) => ids.indexOf(id) !== i)
      if (repeated) throw new AppError('BAD_REQUEST', `items must not list order item ${repeated} twice`)

      const row = await db.transaction(async (tx) => {
        // The order row lock serialises returns of one order: two can never share the same units.
        const locked = (await lockOrder(tx, order.id))!
        if (locked.status !== 'DELIVERED') throw new AppError('BAD_REQUEST', `Order ${locked.orderNumber} has not been delivered`)
        if (!['PAID', 'PARTIALLY_REFUNDED'].includes(locked.paymentStatus)) throw new AppError('BAD_REQUEST', `Order ${locked.orderNumber} has not been paid`)
        const [settings] = await tx.select().from(partnerPricing).where(eq(partnerPricing.partnerId, locked.partnerId)).limit(1)
        const windowDays = settings?.returnWindowDays ?? 7
        const closes = new Date(locked.deliveredAt!.getTime() + windowDays * 86_400_000)
        if (now > closes) throw new AppError('BAD_REQUEST', `The return window of order ${locked.orderNumber} closed on ${closes.toISOString()}`)

        const orderItems = new Map((await orderItemsOf(tx, order.id)).map((i) => [i.id, i]))
        const returned = await returnRepo.returnedQuantities(tx, order.id)
        const pointValue = paisePerPointOf(locked.rewardPointsValue, locked.rewardPointsUsed)
        // Points come back whole, counted over the value of all the units returned so far (every
        // line, earlier returns included): rounded per line or per return, returning every unit
        // would give back fewer points than were spent.
        let pointsValueBack = sumPaise([...orderItems.values()].map((i) => shareOfSlice(i.rewardPointsDiscount, i.quantity, 0, returned.get(i.id) ?? 0)))
        const id = newId('ret', now.getTime())
        const items: (ReturnItemRow & { returnRequestId: string })[] = []
        for (const wanted of input.items) {
          const item = orderItems.get(wanted.orderItemId)
          if (!item) throw new AppError('BAD_REQUEST', `Order item ${wanted.orderItemId} is not part of order ${locked.orderNumber}`)
          const already = returned.get(item.id) ?? 0
          const remaining = item.quantity - already
          if (wanted.quantity > remaining) {
            throw new AppError('BAD_REQUEST', `Order item ${item.id}: quantity ${wanted.quantity} is more than the ${remaining} that can still be returned`)
          }
          const pointsValue = shareOfSlice(item.rewardPointsDiscount, item.quantity, already, wanted.quantity)
          items.push({
            id: newId('rti', now.getTime()),
            returnRequestId: id,
            orderItemId: item.id,
            quantity: wanted.quantity,
            reason: wanted.reason.trim(),
            requestedAmount: shareOfSlice(item.paidAmount, item.quantity, already, wanted.quantity),
            rewardPoints: pointsForSlice(pointsValueBack, pointsValue, pointValue),
          })
          pointsValueBack += pointsValue
        }
        const created = await returnRepo.insert(
          tx,
          {
            id,
            partnerId: customer.partnerId,
            userId: customer.userId,
            orderId: order.id,
            status: 'REQUESTED',
            reason: input.reason.trim(),
            detail: input.detail.trim(),
            requestedResolution: input.requestedResolution,
            requestedAmount: sumPaise(items.map((i) => i.requestedAmount)),
            imageUrls,
            createdAt: now,
            updatedAt: now,
          },
          items,
        )
        await returnRepo.addHistory(tx, { returnRequestId: id, fromStatus: null, toStatus: 'REQUESTED', actor: 'CUSTOMER', note: null, createdAt: now })
        await recordEvent(tx, { partnerId: customer.partnerId, type: 'return.created', subjectId: id, data: { returnId: id, orderId: order.id, status: 'REQUESTED', requestedResolution: input.requestedResolution, return: await detail(created, tx) }, at: now })
        return created
      })
      return detail(row)
    },

    async list(scope: ListScope, filter: ReturnFilter, query: { page: number; limit: number }) {
      const result = await returnRepo.page(db, scope, filter, query.page, query.limit)
      return {
        data: result.rows.map((r) => ({ id: r.id, orderId: r.orderId, status: r.status, reason: r.reason, requestedResolution: r.requestedResolution, requestedAmount: rupees(r.requestedAmount) })),
        meta: pageMeta(result.total, query),
      }
    },

    async get(customer: CustomerRef, id: string) {
      return detail(await ownReturn(customer, id))
    },

    /** The customer's answer to NEEDS_INFO: back to UNDER_REVIEW, with the new detail and images. */
    async respond(customer: CustomerRef, id: string, input: { detail: string; imageUrls?: string[] }) {
      await ownReturn(customer, id)
      const now = clock.now()
      const imageUrls = await checkImageUrls(db, storage, customer, 'returns', input.imageUrls ?? [], now)
      const row = await db.transaction(async (tx) => {
        const current = (await returnRepo.lock(tx, id))!
        if (current.status !== 'NEEDS_INFO') throw new AppError('CONFLICT', `Return request is ${current.status}, not waiting for information`)
        return move(tx, current, 'UNDER_REVIEW', 'CUSTOMER', input.detail.trim(), now, { imageUrls: [...new Set([...current.imageUrls, ...imageUrls])] })
      })
      return detail(row)
    },

    /** One return with its history, for the back office or the partner's own server (its scope). */
    async adminView(id: string, scope: ListScope = backOfficeScope(undefined)) {
      const row = await returnRepo.find(db, id)
      if (!row || !inScope(scope, row)) throw notFound('Return request')
      const history = await returnRepo.history(db, id)
      return {
        ...(await detail(row)),
        userId: row.userId,
        history: history.map((h) => ({ fromStatus: h.fromStatus, status: h.toStatus, actor: h.actor.split(':')[0]!, note: h.note, at: h.createdAt.toISOString() })),
      }
    },

    async setStatus(adminId: string, id: string, input: { status: ReturnStatus; note?: string; approvedAmount?: bigint }) {
      const actor = `ADMIN:${adminId}`
      const now = clock.now()
      const note = input.note ?? null
      const toSend = await db.transaction(async (tx) => {
        const found = await returnRepo.find(tx, id)
        if (!found) throw notFound('Return request')
        const order = (await lockOrder(tx, found.orderId))!
        const row = (await returnRepo.lock(tx, id))!
        if (!RETURN_MOVES[row.status].includes(input.status)) throw new AppError('CONFLICT', `Return request cannot move from ${row.status} to ${input.status}`)
        if (input.approvedAmount !== undefined && input.status !== 'APPROVED') throw new AppError('BAD_REQUEST', 'approvedAmount is only taken with status APPROVED')
        if (input.status === 'APPROVED') {
          const approved = input.approvedAmount ?? row.requestedAmount
          if (approved > row.requestedAmount) throw new AppError('BAD_REQUEST', `approvedAmount must not be more than the requested ${rupees(row.requestedAmount)}`)
          if (approved < row.requestedAmount && !note) throw new AppError('BAD_REQUEST', 'A note is required when the approved amount is lowered')
          const approvedRow = await move(tx, row, 'APPROVED', actor, note, now, { approvedAmount: approved })
          if (row.requestedResolution === 'REPLACEMENT') {
            const items = await returnRepo.items(tx, [row.id])
            const orderItems = new Map((await orderItemsOf(tx, order.id)).map((i) => [i.id, i]))
            const replacement = await createReplacementOrder(tx, order, items.map((i) => ({ item: orderItems.get(i.orderItemId)!, quantity: i.quantity })), now)
            await move(tx, approvedRow, 'RESOLVED', 'SYSTEM', `Replacement order ${replacement.orderNumber}`, now, { replacementOrderId: replacement.id })
          }
          return []
        }
        if (input.status === 'REFUND_PENDING') {
          if (row.requestedResolution === 'REPLACEMENT') throw new AppError('CONFLICT', 'A replacement return is not refunded')
          return startRefund(tx, row, order, actor, note, now)
        }
        if (row.status === 'REFUND_PENDING') throw new AppError('CONFLICT', 'The result of a pending refund comes from the payment provider')
        if (input.status === 'RESOLVED' && row.status === 'APPROVED') throw new AppError('CONFLICT', 'An approved refund return is resolved once it is REFUNDED')
        await move(tx, row, input.status, actor, note, now)
        return []
      })
      await payments.sendRefunds(toSend)
      return this.adminView(id)
    },
  }
}

export type ReturnService = ReturnType<typeof createReturnService>
