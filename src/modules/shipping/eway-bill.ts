// The e-way bill rule (CGST rule 138; decision 0030): goods whose consignment value, tax included,
// exceeds the threshold need an e-way bill before they move. The threshold is dated data, as the
// GST rates are: a change is a new row from its day. Several states set ₹1,00,000 for movement
// inside the state; the national ₹50,000 is applied to every parcel (asking for an e-way bill a
// state would not have required is lawful; moving goods without one that was required is not).
import { AppError } from '../../lib/errors.ts'
import { formatPaise, type Paise } from '../../lib/money.ts'
import { indiaDay } from '../tax/index.ts'

export const EWAY_BILL_THRESHOLDS: readonly { from: string; paise: Paise }[] = [{ from: '2018-04-01', paise: 5_000_000n }]

/** An e-way bill number: 12 digits. */
export const EWAY_BILL_NO_PATTERN = '^[0-9]{12}$'

/** The threshold in force on a day in India; null before e-way bills began. */
export function ewayBillThreshold(at: Date): Paise | null {
  const day = indiaDay(at)
  return [...EWAY_BILL_THRESHOLDS].reverse().find((t) => t.from <= day)?.paise ?? null
}

/** Refuses (400 naming ewayBillNo) a consignment over the threshold that has no e-way bill. */
export function checkEwayBill(value: Paise, ewayBillNo: string | null, at: Date) {
  const threshold = ewayBillThreshold(at)
  if (threshold === null || value <= threshold || ewayBillNo !== null) return
  throw new AppError('BAD_REQUEST', 'Validation failed', [
    `ewayBillNo: the consignment's value with tax, ₹${formatPaise(value)}, exceeds ₹${formatPaise(threshold)}: the parcel needs an e-way bill number (12 digits) before it is booked`,
  ])
}
