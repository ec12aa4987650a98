// Amounts and times as people in India read them: rupees with Indian digit grouping (₹1,86,900.00)
// and times in India's time zone, whatever the browser's.

/**
 * An amount of the API ("186900.00", paise as two decimals) as ₹1,86,900.00: the last three digits,
 * then groups of two. Grouped from the text, never through a float. Empty for null; text that is
 * not an amount is shown as it is.
 */
export function formatRupees(amount: string | number | null | undefined): string {
  if (amount === null || amount === undefined || amount === '') return ''
  const text = typeof amount === 'number' ? amount.toFixed(2) : amount.trim()
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text)
  if (!match) return text
  const [, sign, whole, fraction = ''] = match
  const digits = whole!.replace(/^0+(?=\d)/, '')
  const lastThree = digits.slice(-3)
  const rest = digits.slice(0, -3)
  const grouped = rest ? `${rest.replace(/\B(?=(\d{2})+$)/g, ',')},${lastThree}` : lastThree
  return `${sign}₹${grouped}.${fraction.padEnd(2, '0')}`
}

const IN_INDIA = new Intl.DateTimeFormat('en-IN', { timeZone: 'Asia/Kolkata', day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', hour12: true })

/** A time of the API (ISO 8601) in India's time zone: "23 Nov 2026, 10:00 am IST". Empty for null. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return ''
  const at = new Date(iso)
  return Number.isNaN(at.getTime()) ? iso : `${IN_INDIA.format(at)} IST`
}
