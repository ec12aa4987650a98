// The GST calendar: days in India, financial years. Rates, documents and returns all count in it.

/** Indian Standard Time is UTC+05:30 all year; a rate changes at midnight in India. */
const IST_OFFSET_MS = 330 * 60_000

/** The calendar day in India (YYYY-MM-DD) at `instant`: the day whose rates apply. */
export function indiaDay(instant: Date): string {
  return new Date(instant.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10)
}

/** The financial year (April to March) of a day in India: `2026-27`. */
export function financialYearOf(day: string): string {
  const year = Number(day.slice(0, 4))
  const start = Number(day.slice(5, 7)) >= 4 ? year : year - 1
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`
}

/** GST began on 1 July 2017. */
export const GST_BEGAN = '2017-07-01'
