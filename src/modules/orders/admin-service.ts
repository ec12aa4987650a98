// Back office for orders: every partner's orders, one order with all its payments, and moves along
// the order machine. Cancelling here does what a customer's cancellation does (release, refund);
// delivering collects COD and earns Reward Points.
import type { Deps } from '../../deps.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { pageMeta } from '../../lib/pagination.ts'
import type { BackOfficeScope } from '../../lib/scope.ts'
import { cancelOrder, deliverOrder, transition } from './lifecycle.ts'
import type { PaymentService } from './payments.ts'
import { type OrderFilter, orderRepo } from './repo.ts'
import type { OrderStatus } from './schema.sql.ts'
import { currentPayment, orderSummaryView, orderView, paymentView } from './views.ts'

export function createOrderAdminService({ database, clock }: Deps, payments: PaymentService) {
  const db = database.db

  async function view(orderId: string) {
    const order = await orderRepo.findOrder(db, orderId)
    if (!order) throw notFound('Order')
    const [items, history, paymentRows, refunds, returnedQuantities] = await Promise.all([
      orderRepo.items(db, order.id),
      orderRepo.history(db, order.id),
      orderRepo.paymentsOf(db, order.id),
      orderRepo.refundsOf(db, order.id),
      orderRepo.returnedQuantities(db, order.id),
    ])
    return { ...orderView({ order, items, history, payment: currentPayment(paymentRows), refunds, returnedQuantities }), payments: paymentRows.map(paymentView) }
  }

  return {
    view,

    async list(scope: BackOfficeScope, filter: OrderFilter, query: { page: number; limit: number }) {
      const result = await orderRepo.page(db, scope, filter, query.page, query.limit)
      const counts = await orderRepo.itemCounts(db, result.rows.map((o) => o.id))
      return { data: result.rows.map((o) => orderSummaryView(o, counts.get(o.id) ?? 0)), meta: pageMeta(result.total, query) }
    },

    async setStatus(adminId: string, orderId: string, to: OrderStatus, note: string | undefined) {
      const actor = { name: `ADMIN:${adminId}`, note: note ?? null }
      const refunds = await db.transaction(async (tx) => {
        const now = clock.now()
        const order = await orderRepo.lockOrder(tx, orderId)
        if (!order) throw notFound('Order')
        if (order.status === 'PENDING_PAYMENT' && to === 'CONFIRMED') {
          throw new AppError('CONFLICT', `Order ${order.orderNumber} is confirmed by its payment, not by hand`)
        }
        if (to === 'CANCELLED') return (await cancelOrder(tx, order, { ...actor, reason: note ?? 'Cancelled by the merchant' }, now)).refunds
        if (to === 'DELIVERED' && order.status === 'OUT_FOR_DELIVERY') await deliverOrder(tx, order, actor, now)
        else await transition(tx, order, to, actor, now)
        return []
      })
      await payments.sendRefunds(refunds)
      return view(orderId)
    },
  }
}

export type OrderAdminService = ReturnType<typeof createOrderAdminService>
