// The plan of one run of the interleavings property (test/orders/interleavings.test.ts): a product's
// stock, 1-3 orders (who, how many, how paid, with or without Wallet Cash), the operations that race
// on each (pay, fail, cancel, back-office cancel, new session, fulfilment to a return), and how many
// sweeps run after the reservation and without it. fast-check arbitraries, no app.
import fc from 'fast-check'

export const OPS = ['pay', 'fail', 'cancel', 'adminCancel', 'retry', 'fulfil'] as const
export type Op = (typeof OPS)[number]

export interface OrderPlan {
  customer: number
  quantity: number
  mode: 'PREPAID' | 'COD'
  wallet: boolean
  ops: Op[]
  /** Deliveries of the one success event of op `pay`. */
  payDeliveries: number
  resolution: 'ORIGINAL_PAYMENT_REFUND' | 'WALLET_CREDIT'
  returnUnits: number
}

export interface RunPlan {
  stock: number
  orders: OrderPlan[]
  /** Sweeps after the clock passed the reservation, and sweeps without moving it. */
  expiries: number
  sweeps: number
}

export const orderPlan: fc.Arbitrary<OrderPlan> = fc.record({
  customer: fc.integer({ min: 0, max: 1 }),
  quantity: fc.integer({ min: 1, max: 2 }),
  mode: fc.constantFrom<('PREPAID' | 'COD')[]>('PREPAID', 'PREPAID', 'PREPAID', 'COD'),
  wallet: fc.boolean(),
  ops: fc.subarray([...OPS], { minLength: 1, maxLength: 4 }),
  payDeliveries: fc.integer({ min: 1, max: 2 }),
  resolution: fc.constantFrom<('ORIGINAL_PAYMENT_REFUND' | 'WALLET_CREDIT')[]>('ORIGINAL_PAYMENT_REFUND', 'WALLET_CREDIT'),
  returnUnits: fc.integer({ min: 1, max: 2 }),
})

export const runPlan: fc.Arbitrary<RunPlan> = fc.record({
  stock: fc.integer({ min: 1, max: 4 }),
  orders: fc.array(orderPlan, { minLength: 1, maxLength: 3 }),
  expiries: fc.integer({ min: 0, max: 2 }),
  sweeps: fc.integer({ min: 0, max: 1 }),
})
