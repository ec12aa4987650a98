// Indian mobile numbers: stored as the bare 10 digits, first digit 6-9.
export const INDIAN_MOBILE_INPUT = '^(\\+91|91|0)?[ -]?[6-9](?:[ -]?[0-9]){9}$'

export function normalizeIndianMobile(input: string): string | null {
  const compact = input.replace(/[\s-]/g, '')
  const match = /^(?:\+91|91|0)?([6-9]\d{9})$/.exec(compact)
  return match ? match[1]! : null
}
