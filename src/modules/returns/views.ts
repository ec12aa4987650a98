// A return request as the API answers it.
import type { Executor } from '../../db/client.ts'
import { formatPaise as rupees } from '../../lib/money.ts'
import { payoutDestinationView, refundsOf, refundView } from '../payments/index.ts'
import { parcelsOfReturn, shipmentAnswer } from '../shipping/index.ts'
import { returnRepo, type ReturnRow } from './repo.ts'

/** The return as the API answers it; read through `ex` (a transaction's, for its events). */
export async function returnView(ex: Executor, row: ReturnRow) {
  const [items, refunds, parcels] = await Promise.all([returnRepo.items(ex, [row.id]), refundsOf(ex, row.orderId), parcelsOfReturn(ex, row.id)])
  const pickup = parcels.filter((s) => s.status !== 'CANCELLED').at(-1) ?? null
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
    refundTo: row.refundTo ? payoutDestinationView(row.refundTo) : null,
    replacementOrderId: row.replacementOrderId,
    pickup: pickup ? await shipmentAnswer(ex, pickup) : null,
    qualityCheck: row.qcResult === null ? null : { result: row.qcResult, note: row.qcNote, at: row.qcAt!.toISOString(), restocked: row.restockedAt !== null },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** A line of a list of returns. */
export const returnSummaryView = (r: ReturnRow) => ({
  id: r.id,
  orderId: r.orderId,
  status: r.status,
  reason: r.reason,
  requestedResolution: r.requestedResolution,
  requestedAmount: rupees(r.requestedAmount),
})
