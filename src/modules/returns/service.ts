// Returns: the customer's request (request.ts), what the back office may do now, and why not
// (allowed.ts), the reverse pickup and the quality check (pickup.ts). The back office's moves of a
// return (approval, with a replacement order; the refund that follows) are the return-settlement
// flow's (src/flows/return-settlement/).
//
//   REQUESTED -> UNDER_REVIEW -> NEEDS_INFO <-> UNDER_REVIEW -> APPROVED | REJECTED
//   APPROVED -> REFUND_PENDING -> REFUNDED | REFUND_FAILED;  REFUND_FAILED -> REFUND_PENDING (retry)
//   REFUNDED -> RESOLVED;  an approved REPLACEMENT -> RESOLVED with a zero-value replacement order
//
// Every write runs with the order row locked, so two returns or two refunds of one order are
// serialised; a database trigger refuses refunds above what was paid in any case.
import type { Database, Executor } from '../../db/client.ts'
import type { ServiceDeps } from '../../deps.ts'
import type { Clock } from '../../lib/clock.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { pageMeta } from '../../lib/pagination.ts'
import { backOfficeScope, inScope, type ListScope } from '../../lib/scope.ts'
import { findOrderById, findOwnOrder, lockOrder, orderItemsOf, type PayoutAccountRow, recordShipment, soldAs } from '../orders/index.ts'
import { type PayoutAccountInput, payoutToOf } from '../payments/index.ts'
import { type HeldAt, locationOf } from '../inventory/index.ts'
import { type CourierRule, type ShippingService, shippedUnitsByLocation } from '../shipping/index.ts'
import { checkImageUrls } from '../uploads/index.ts'
import type { Storage } from '../uploads/index.ts'
import { moveReturn } from './machine.ts'
import { type ReturnFilter, returnRepo } from './repo.ts'
import { checkDistinctItems, checkReturnable, type CreateReturnInput, type CustomerRef, insertReturn, refundToInput, type RefundToInput, returnItemsFor } from './request.ts'
import type { ReturnStatus } from './schema.sql.ts'
import { checkPickupAllowed, recordQualityCheck } from './pickup.ts'
import { adminReturnSummaries, adminReturnView } from './admin-views.ts'
import { returnSummaryView, returnView } from './views.ts'

export { RETURN_MOVES } from './machine.ts'

const REFUND_TO_CHANGEABLE: ReturnStatus[] = ['REQUESTED', 'UNDER_REVIEW', 'NEEDS_INFO', 'APPROVED', 'REFUND_FAILED']
export type { CreateReturnInput, CustomerRef } from './request.ts'

/**
 * What returns need of the payments flow, as returns say it (app.ts hands the flow's service in; a
 * module does not import a flow): open the customer's payout account.
 */
export interface ReturnPayments {
  readonly payouts: { openAccount(tx: Executor, owner: { userId: string; partnerId: string }, input: PayoutAccountInput, at: Date): Promise<PayoutAccountRow> }
}

export class ReturnService {
  readonly #db: Database['db']
  readonly #clock: Clock
  readonly #storage: Storage
  readonly #payments: ReturnPayments

  readonly #shipping: ShippingService

  constructor({ database, clock }: ServiceDeps, storage: Storage, payments: ReturnPayments, shipping: ShippingService) {
    this.#db = database.db
    this.#clock = clock
    this.#storage = storage
    this.#payments = payments
    this.#shipping = shipping
  }

  /** The customer's request: the order checked and locked, the units priced, the request written (request.ts). */
  async create(customer: CustomerRef, input: CreateReturnInput) {
    const now = this.#clock.now()
    const order = await findOwnOrder(this.#db, customer, input.orderId)
    if (!order) throw notFound('Order')
    const imageUrls = await checkImageUrls(this.#db, this.#storage, customer, 'returns', input.imageUrls ?? [], now)
    checkDistinctItems(input)

    const row = await this.#db.transaction(async (tx) => {
      // The order row lock serialises returns of one order: two can never share the same units.
      const locked = (await lockOrder(tx, order.id))!
      await checkReturnable(tx, locked, now)
      const id = newId('ret', now.getTime())
      const items = await returnItemsFor(tx, locked, id, input.items, now)
      const account = input.refundTo ? await this.#payments.payouts.openAccount(tx, customer, refundToInput(locked, input.requestedResolution, input.refundTo), now) : null
      return insertReturn(tx, customer, order, id, input, imageUrls, items, account, now)
    })
    return returnView(this.#db, row)
  }

  /**
   * The customer changes where the cash refund is paid out (a payout refused for a wrong account,
   * say): before the refund starts, or after it failed (the back office then retries it).
   */
  async setRefundTo(customer: CustomerRef, id: string, refundTo: RefundToInput) {
    const found = await this.#ownReturn(customer, id)
    const now = this.#clock.now()
    const row = await this.#db.transaction(async (tx) => {
      const order = (await lockOrder(tx, found.orderId))!
      const current = (await returnRepo.lock(tx, id))!
      if (!REFUND_TO_CHANGEABLE.includes(current.status)) {
        throw new AppError('CONFLICT', `Return request is ${current.status}: where its refund goes can only change before the refund starts or after it failed`)
      }
      const account = await this.#payments.payouts.openAccount(tx, customer, refundToInput(order, current.requestedResolution, refundTo), now)
      return returnRepo.update(tx, id, { payoutAccountId: account.id, refundTo: payoutToOf(account), updatedAt: now })
    })
    return returnView(this.#db, row)
  }

  async list(scope: ListScope, filter: ReturnFilter, query: { page: number; limit: number }) {
    const result = await returnRepo.page(this.#db, scope, filter, query.page, query.limit)
    return { data: result.rows.map(returnSummaryView), meta: pageMeta(result.total, query) }
  }

  /** The back office's list: each line with its order's number and what the back office may do now. */
  async adminList(scope: ListScope, filter: ReturnFilter, query: { page: number; limit: number }) {
    const result = await returnRepo.page(this.#db, scope, filter, query.page, query.limit)
    return { data: await adminReturnSummaries(this.#db, result.rows), meta: pageMeta(result.total, query) }
  }

  async get(customer: CustomerRef, id: string) {
    return returnView(this.#db, await this.#ownReturn(customer, id))
  }

  /** The customer's answer to NEEDS_INFO: back to UNDER_REVIEW, with the new detail and images. */
  async respond(customer: CustomerRef, id: string, input: { detail: string; imageUrls?: string[] }) {
    await this.#ownReturn(customer, id)
    const now = this.#clock.now()
    const imageUrls = await checkImageUrls(this.#db, this.#storage, customer, 'returns', input.imageUrls ?? [], now)
    const row = await this.#db.transaction(async (tx) => {
      const current = (await returnRepo.lock(tx, id))!
      if (current.status !== 'NEEDS_INFO') throw new AppError('CONFLICT', `Return request is ${current.status}, not waiting for information`)
      return moveReturn(tx, current, 'UNDER_REVIEW', 'CUSTOMER', input.detail.trim(), now, { imageUrls: [...new Set([...current.imageUrls, ...imageUrls])] })
    })
    return returnView(this.#db, row)
  }

  /** One return with its history and what the back office may do now, for the back office or the partner's own server (its scope). */
  async adminView(id: string, scope: ListScope = backOfficeScope(undefined)) {
    const row = await returnRepo.find(this.#db, id)
    if (!row || !inScope(scope, row)) throw notFound('Return request')
    return adminReturnView(this.#db, row)
  }

  /**
   * Books the reverse pickup of an approved return's units from the customer's address: the carrier
   * is called outside the transaction, the parcel written in one that checks the return again (a
   * booking that lost the race is cancelled at the carrier).
   */
  async bookPickup(
    id: string,
    input: { carrier?: string; weightGrams?: number; dimensionsCm?: { length: number; breadth: number; height: number }; ewayBillNo?: string; courierId?: string; courierRule?: CourierRule },
  ) {
    const row = await returnRepo.find(this.#db, id)
    if (!row) throw notFound('Return request')
    await checkPickupAllowed(this.#db, row)
    const order = (await findOrderById(this.#db, row.orderId))!
    this.#shipping.carrierNamed(input.carrier)
    const lines = new Map((await orderItemsOf(this.#db, order.id)).map((i) => [i.id, i]))
    const items = await returnRepo.items(this.#db, [row.id])
    const declared = await this.#shipping.declare(order.id, items.map((i) => ({ item: lines.get(i.orderItemId)!, quantity: i.quantity })), input)
    const home = await this.#returnsTo(order.id, items)
    const { carrier, courierId } = await this.#shipping.chooseCourier(input, {
      direction: 'REVERSE',
      originPincode: home?.pincode ?? null,
      customerPincode: order.shippingAddress.pincode,
      weightGrams: declared.box.weightGrams,
      dimensionsCm: declared.box.dimensionsCm,
      collectAmount: 0n,
      declaredValue: row.requestedAmount,
    })
    const now = this.#clock.now()
    const shipmentId = newId('shp', now.getTime())
    const booked = await this.#shipping.book(carrier, {
      shipmentId,
      orderNumber: order.orderNumber,
      orderDate: order.createdAt,
      bookedAt: now,
      direction: 'REVERSE',
      customer: { ...order.shippingAddress, email: null },
      items: items.map((i) => {
        const line = lines.get(i.orderItemId)!
        return { sku: line.sku, name: soldAs(line), quantity: i.quantity, unitPrice: line.unitPrice, hsnCode: line.hsnCode, gstRateBps: line.gstRateBps }
      }),
      collectAmount: 0n,
      declaredValue: row.requestedAmount,
      weightGrams: declared.box.weightGrams,
      dimensionsCm: declared.box.dimensionsCm,
      invoiceNumber: declared.invoiceNumber,
      ewayBillNo: declared.ewayBillNo,
      courierId,
      origin: home && { pickupName: home.pickupName, pincode: home.pincode },
    })
    let parcel
    try {
      parcel = await this.#db.transaction(async (tx) => {
        const locked = (await lockOrder(tx, order.id))!
        const current = (await returnRepo.lock(tx, id))!
        await checkPickupAllowed(tx, current)
        const at = this.#clock.now()
        const recorded = await recordShipment(
          tx,
          locked,
          {
            id: shipmentId,
            direction: 'REVERSE',
            returnRequestId: id,
            carrier: carrier.name,
            booked,
            declared,
            lines: items.map((i) => ({ orderItemId: i.orderItemId, quantity: i.quantity })),
            origin: home && { locationId: home.id, pickupName: home.pickupName },
          },
          at,
        )
        await returnRepo.update(tx, id, { updatedAt: at })
        return recorded
      })
    } catch (err) {
      await this.#shipping.unbook(carrier, booked)
      throw err
    }
    await this.#shipping.requestPickup(carrier, parcel)
    return this.adminView(id)
  }

  /**
   * The stock location a return's units go back to (decision 0043): the one their parcels left from
   * (most of the returned lines' units, ties to the first); null when they left from none (a catalog
   * without locations): the carrier's configured pickup location.
   */
  async #returnsTo(orderId: string, items: { orderItemId: string; quantity: number }[]): Promise<HeldAt | null> {
    const shipped = await shippedUnitsByLocation(this.#db, orderId)
    const units = new Map<string, number>()
    for (const { orderItemId } of items) for (const [locationId, n] of shipped.get(orderItemId) ?? []) units.set(locationId, (units.get(locationId) ?? 0) + n)
    const [most] = [...units].sort((a, b) => b[1] - a[1])
    return most ? locationOf(this.#db, most[0]) : null
  }

  /** The back office's quality check of the units received; PASSED restocks them, once (pickup.ts). */
  async qualityCheck(id: string, input: { result: 'PASSED' | 'FAILED'; note?: string }) {
    await this.#db.transaction(async (tx) => {
      const found = await returnRepo.find(tx, id)
      if (!found) throw notFound('Return request')
      const order = (await lockOrder(tx, found.orderId))!
      const row = (await returnRepo.lock(tx, id))!
      await recordQualityCheck(tx, row, order, { result: input.result, note: input.note ?? null }, this.#clock.now())
    })
    return this.adminView(id)
  }

  async #ownReturn(customer: CustomerRef, id: string) {
    const row = await returnRepo.find(this.#db, id)
    if (!row || row.userId !== customer.userId || row.partnerId !== customer.partnerId) throw notFound('Return request')
    return row
  }
}
