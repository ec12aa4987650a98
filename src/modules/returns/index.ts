// The returns module: return requests, their machine, pickups and quality checks (tables of
// returns/schema.sql.ts). app.ts builds it; the return-settlement flow moves a return with the
// refunds that settle it through the names below.
import type { Executor } from '../../db/client.ts'
import { returnRepo } from './repo.ts'

export { ReturnService } from './service.ts'
export { returnRoutes } from './routes.ts'
export { moveReturn } from './machine.ts'
export { refuse, statusMoveRefusal } from './allowed.ts'
export type { ReturnRow } from './repo.ts'
export type { ReturnStatus } from './schema.sql.ts'
export { AdminReturn, Params as ReturnParams, Status as ReturnStatusSchema } from './schemas.ts'
export const findReturn = (db: Executor, id: string) => returnRepo.find(db, id)
/** The return's row, locked (its order's row is locked first, by the caller). */
export const lockReturn = (tx: Executor, id: string) => returnRepo.lock(tx, id)
export const returnItemsOf = (db: Executor, returnId: string) => returnRepo.items(db, [returnId])
/** What the order's other returns refunded so far (the base of the Reward Points earned taken back). */
export const refundedBeforeReturn = (tx: Executor, orderId: string, exceptId: string) => returnRepo.refundedBefore(tx, orderId, exceptId)
