// What the back office may do with a return now, and why not: one refusal function per action. The
// routes throw a refusal as 409 (refuse), and the back-office answers list the actions that have none
// (allowedActions), so the buttons the console offers are exactly the calls the API accepts.
//
//   a status move   the machine (machine.ts), less the moves that only the system makes
//   bookPickup      units come back (approved, not kept by the customer), no pickup on its way,
//                   not yet checked
//   qualityCheck    units come back, not yet checked, and the pickup (if any) received
//
// Refusals that depend on the request's body (a lowered amount without a note, a carrier that is
// not configured) or on other modules at the time of the call (stock for a replacement order, a
// carrier's answer) are not listed here: they stay 400/409/503 of the call itself.
import { AppError } from '../../lib/errors.ts'
import type { ShipmentRow } from '../shipping/index.ts'
import { RETURN_MOVES } from './machine.ts'
import type { ReturnRow } from './repo.ts'
import type { ReturnStatus } from './schema.sql.ts'

type ReturnState = Pick<ReturnRow, 'status' | 'requestedResolution' | 'qcResult'>
/** The return's reverse parcel that was not cancelled nor brought back to the customer (pickup.ts activePickup). */
type ActivePickup = Pick<ShipmentRow, 'awb' | 'status'> | null

/** Returns whose units are coming back: approved, whatever the refund has done since. */
const COMING_BACK: ReturnStatus[] = ['APPROVED', 'REFUND_PENDING', 'REFUND_FAILED', 'REFUNDED', 'RESOLVED']

/** 409 with the reason, when there is one. */
export function refuse(reason: string | null) {
  if (reason !== null) throw new AppError('CONFLICT', reason)
}

/** Why POST /admin/returns/{id}/status may not move the return to `to` now; null: it may. */
export function statusMoveRefusal(row: ReturnState, to: ReturnStatus): string | null {
  if (!RETURN_MOVES[row.status].includes(to)) return `Return request cannot move from ${row.status} to ${to}`
  if (to === 'REFUND_PENDING' && row.requestedResolution === 'REPLACEMENT') return 'A replacement return is not refunded'
  // REFUNDED and REFUND_FAILED are the provider's answers (the return-settlement flow's settleProviderRefund).
  if (row.status === 'REFUND_PENDING') return 'The result of a pending refund comes from the payment provider'
  if (to === 'RESOLVED' && row.status === 'APPROVED') return 'An approved refund return is resolved once it is REFUNDED'
  return null
}

/** Why the return's units are not to come back to the warehouse; null: they are. */
export function unitsComeBackRefusal(row: ReturnState): string | null {
  if (row.requestedResolution === 'KEEP_ITEM_WALLET_CREDIT') return 'The customer keeps the item: nothing comes back'
  if (!COMING_BACK.includes(row.status)) return `Return request is ${row.status}: units come back once it is approved`
  return null
}

/** Why a reverse pickup may not be booked now (one at a time: a cancelled or RTO one no longer counts); null: it may. */
export function pickupRefusal(row: ReturnState, pickup: ActivePickup): string | null {
  const comeBack = unitsComeBackRefusal(row)
  if (comeBack) return comeBack
  if (pickup) return `Return request already has pickup ${pickup.awb} (${pickup.status})`
  if (row.qcResult !== null) return `The quality check was recorded (${row.qcResult}): the units are back`
  return null
}

/**
 * Why a quality check may not be recorded now; null: it may. A check already recorded refuses a new
 * one (recordQualityCheck answers the same result again as a retry that changes nothing).
 */
export function qualityCheckRefusal(row: ReturnState, pickup: ActivePickup): string | null {
  const comeBack = unitsComeBackRefusal(row)
  if (comeBack) return comeBack
  if (row.qcResult !== null) return `Quality check already recorded as ${row.qcResult}`
  // The check is made on what arrived.
  if (pickup && pickup.status !== 'DELIVERED') return `Pickup ${pickup.awb} is ${pickup.status}: record the check when the parcel is received`
  return null
}

export interface AllowedActions {
  nextStatuses: ReturnStatus[]
  actions: { startRefund: boolean; bookPickup: boolean; qualityCheck: boolean }
}

/** What the back office may do now: the status moves and actions whose refusal is null. */
export function allowedActions(row: ReturnState, pickup: ActivePickup): AllowedActions {
  const nextStatuses = RETURN_MOVES[row.status].filter((to) => statusMoveRefusal(row, to) === null)
  return {
    nextStatuses,
    actions: {
      startRefund: nextStatuses.includes('REFUND_PENDING'),
      bookPickup: pickupRefusal(row, pickup) === null,
      qualityCheck: qualityCheckRefusal(row, pickup) === null,
    },
  }
}
