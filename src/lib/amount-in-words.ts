// An amount in words as printed on an Indian invoice (rule 46 of the CGST Rules asks for the value
// in words as well as in figures): the Indian numbering system (thousand, lakh, crore), English
// words, "Rupees ... and ... Paise Only". Counts of crores above 99 are written in the same system
// ("One Hundred Twenty-Three Crore", "One Lakh Crore"), as Indian banks and invoices do.
import type { Paise } from './money.ts'

const ONES = ['Zero', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Eleven', 'Twelve', 'Thirteen', 'Fourteen', 'Fifteen', 'Sixteen', 'Seventeen', 'Eighteen', 'Nineteen']
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety']

/** 1..99: "Seven", "Nineteen", "Forty", "Ninety-Nine". */
function belowHundred(n: number): string {
  if (n < 20) return ONES[n]!
  const unit = n % 10
  return unit === 0 ? TENS[n / 10]! : `${TENS[Math.floor(n / 10)]!}-${ONES[unit]!}`
}

// Each unit with its size, largest first; what is left below a unit is written after it.
const UNITS: Array<[bigint, string]> = [
  [10_000_000n, 'Crore'],
  [100_000n, 'Lakh'],
  [1_000n, 'Thousand'],
  [100n, 'Hundred'],
]

/** A whole number >= 1 in words, Indian system. */
function wholeInWords(n: bigint): string {
  const parts: string[] = []
  let rest = n
  for (const [size, name] of UNITS) {
    if (rest < size) continue
    const count = rest / size
    // Only crores can count past 99: write that count in the same system.
    parts.push(`${size === 10_000_000n ? wholeInWords(count) : belowHundred(Number(count))} ${name}`)
    rest %= size
  }
  if (rest > 0n) parts.push(belowHundred(Number(rest)))
  return parts.join(' ')
}

/**
 * `paise` in words: 129950n is "Rupees One Thousand Two Hundred Ninety-Nine and Fifty Paise Only",
 * 0n "Rupees Zero Only", 50n "Rupees Zero and Fifty Paise Only". Throws a RangeError for a
 * negative amount (a credit note's amount is positive too: it is a document of its own kind).
 */
export function amountInWords(paise: Paise): string {
  if (paise < 0n) throw new RangeError(`amountInWords: negative amount ${paise}`)
  const rupees = paise / 100n
  const rest = paise % 100n
  const words = rupees === 0n ? 'Zero' : wholeInWords(rupees)
  return rest === 0n ? `Rupees ${words} Only` : `Rupees ${words} and ${belowHundred(Number(rest))} Paise Only`
}
