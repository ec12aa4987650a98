import { sql } from 'drizzle-orm'
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import type { PayoutTo } from '../payments/index.ts'

export type ReturnStatus = 'REQUESTED' | 'UNDER_REVIEW' | 'NEEDS_INFO' | 'APPROVED' | 'REJECTED' | 'REFUND_PENDING' | 'REFUNDED' | 'REFUND_FAILED' | 'RESOLVED'
export type Resolution = 'ORIGINAL_PAYMENT_REFUND' | 'WALLET_CREDIT' | 'REPLACEMENT' | 'KEEP_ITEM_WALLET_CREDIT'

/** Amounts are paise: what the customer paid for the returned units (coupon and points spread over the lines). */
export const returnRequests = pgTable(
  'return_requests',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id').notNull(),
    userId: text('user_id').notNull(),
    orderId: text('order_id').notNull(),
    status: text('status').$type<ReturnStatus>().notNull(),
    reason: text('reason').notNull(),
    detail: text('detail').notNull(),
    requestedResolution: text('requested_resolution').$type<Resolution>().notNull(),
    requestedAmount: bigint('requested_amount', { mode: 'bigint' }).notNull(),
    /** Set by the back office on approval; at most the requested amount. */
    approvedAmount: bigint('approved_amount', { mode: 'bigint' }),
    imageUrls: jsonb('image_urls').$type<string[]>().notNull(),
    replacementOrderId: text('replacement_order_id'),
    /** Where an ORIGINAL_PAYMENT_REFUND of cash collected on delivery is paid out (a UPI ID or bank account); null: Wallet Cash. */
    payoutAccountId: text('payout_account_id'),
    /** That account as answers show it (masked), kept with the request. */
    refundTo: jsonb('refund_to').$type<PayoutTo>(),
    /** The back office's quality check of the units received back (a reverse pickup, or by hand). */
    qcResult: text('qc_result').$type<'PASSED' | 'FAILED'>(),
    qcNote: text('qc_note'),
    qcAt: timestamp('qc_at', { withTimezone: true }),
    /** Set once, when units that passed quality check went back to stock: the guard against restocking twice. */
    restockedAt: timestamp('restocked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('return_requests_user_idx').on(t.userId, t.createdAt),
    index('return_requests_order_idx').on(t.orderId),
    index('return_requests_status_idx').on(t.status, t.createdAt),
    check('return_requests_approved_within_requested', sql`${t.approvedAmount} is null or (${t.approvedAmount} >= 0 and ${t.approvedAmount} <= ${t.requestedAmount})`),
  ],
)

export const returnItems = pgTable(
  'return_items',
  {
    id: text('id').primaryKey(),
    returnRequestId: text('return_request_id')
      .notNull()
      .references(() => returnRequests.id),
    orderItemId: text('order_item_id').notNull(),
    quantity: integer('quantity').notNull(),
    reason: text('reason').notNull(),
    requestedAmount: bigint('requested_amount', { mode: 'bigint' }).notNull(),
    /** The Reward Points that paid for these units (given back with a refund). */
    rewardPoints: bigint('reward_points', { mode: 'bigint' }).notNull(),
  },
  (t) => [index('return_items_return_idx').on(t.returnRequestId), index('return_items_order_item_idx').on(t.orderItemId), check('return_items_quantity_positive', sql`${t.quantity} > 0`)],
)

/** Every move of a return, with who made it and their note (and the customer's answers to NEEDS_INFO). */
export const returnHistory = pgTable(
  'return_history',
  {
    id: text('id').primaryKey(),
    returnRequestId: text('return_request_id')
      .notNull()
      .references(() => returnRequests.id),
    fromStatus: text('from_status').$type<ReturnStatus>(),
    toStatus: text('to_status').$type<ReturnStatus>().notNull(),
    actor: text('actor').notNull(),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('return_history_return_idx').on(t.returnRequestId, t.createdAt)],
)
