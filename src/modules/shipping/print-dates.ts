// Dates as printed on labels and pick lists: Indian time, the month in letters ("04 May 2026"), so
// that nobody on the packing floor reads 04/05 as April or May.
const IST_OFFSET_MS = 330 * 60_000
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** "2026-05-04" -> "04 May 2026". */
export function printedDay(date: string): string {
  const [y, m, d] = date.split('-')
  return `${d} ${MONTHS[Number(m) - 1] ?? m} ${y}`
}

/** The instant's calendar day in India, "04 May 2026". */
export function istDay(at: Date): string {
  return printedDay(new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10))
}

/** The instant in India to the minute, "04 May 2026, 18:05 IST". */
export function istDateTime(at: Date): string {
  const shifted = new Date(at.getTime() + IST_OFFSET_MS).toISOString()
  return `${printedDay(shifted.slice(0, 10))}, ${shifted.slice(11, 16)} IST`
}
