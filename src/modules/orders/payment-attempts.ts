// A new provider payment for an order, as a keyed request (x-idempotency-key): its retry while the
// order waits for payment (OrderService.initiatePayment) and its conversion from COD to prepaid
// (the cod-conversion flow) open it the same way, in two phases around the commit.
import type { Db, Executor } from '../../db/client.ts'
import { newId } from '../../lib/ids.ts'
import type { Answer, Created } from './answer-once.ts'
import { fingerprintOf, type IdempotencyScope, idempotencyRepo } from './idempotency.ts'
import type { PaymentDesk } from './payment-desk.ts'
import { type OrderRow, orderRepo } from './repo.ts'
import { expireActivePayments, findPayment, insertPayment, NO_CLIENT_ACTION, paymentView } from '../payments/index.ts'

/** In the caller's transaction, the order locked: earlier sessions expire, a new CREATED payment of `amount` with `provider`, and the key's record. */
export async function openPaymentAttempt(tx: Executor, provider: string, order: OrderRow, amount: bigint, scope: IdempotencyScope, now: Date): Promise<Created> {
  await expireActivePayments(tx, order.id, now)
  const payment = await insertPayment(tx, {
    id: newId('pay', now.getTime()),
    orderId: order.id,
    partnerId: order.partnerId,
    provider,
    amount,
    status: 'CREATED',
    createdAt: now,
    updatedAt: now,
  })
  await idempotencyRepo.begin(tx, scope, fingerprintOf({}), payment.id, now)
  return { resourceId: payment.id }
}

/** After commit: the provider session of the new payment (when not open yet), then `{payment, clientAction}`. */
export async function paymentAttemptAnswer(db: Db, payments: PaymentDesk, orderId: string, paymentId: string): Promise<Answer> {
  let payment = (await findPayment(db, paymentId))!
  if (payment.status === 'CREATED') payment = await payments.startSession(payment, (await orderRepo.findOrder(db, orderId))!)
  const clientAction = payment.status === 'PENDING' && payment.clientAction ? payment.clientAction : NO_CLIENT_ACTION
  return { status: 201, body: { payment: paymentView(payment), clientAction } }
}
