// Money is integer paise (bigint) inside the service and a two-decimal rupee string at the edge.
export type Paise = bigint

export function formatPaise(paise: Paise): string {
  const negative = paise < 0n
  const abs = negative ? -paise : paise
  const rupees = abs / 100n
  const rest = (abs % 100n).toString().padStart(2, '0')
  return `${negative ? '-' : ''}${rupees}.${rest}`
}

/** Parses "1299", "1299.5", "1299.50" or a number with at most two decimals; null if invalid. */
export function parseRupees(input: string | number): Paise | null {
  const text = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : '') : input.trim()
  const match = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text)
  if (!match) return null
  const paise = BigInt(match[2]!) * 100n + BigInt((match[3] ?? '').padEnd(2, '0') || '0')
  return match[1] === '-' ? -paise : paise
}
