// GSTIN (GST identification number) checks and the GST state codes.
//
// A GSTIN is 15 characters: 1-2 the state code, 3-12 the holder's PAN (5 letters, 4 digits, 1
// letter), 13 the entity number for that PAN in that state (1-9, then A-Z), 14 `Z` by default,
// 15 a check character: Luhn mod 36 over the first 14 (0-9 then A-Z = 10-35; factors 1, 2, 1, 2…
// from the left; each product reduced to quotient + remainder by 36; check = (36 - sum mod 36) mod
// 36). Source: /work/shared/INDIA-NOTES.md and the public GSTIN validators it names.

/**
 * GST state codes -> the state or union territory (names as lib/pincode-states.ts writes them, so
 * `sameState` compares them). 25 (Daman and Diu) and 26 (Dadra and Nagar Haveli) merged in 2020 into
 * one union territory; GSTINs with 25 remain valid. 28 is Andhra Pradesh before its division (37
 * after). 97 (Other Territory) and 99 (Centre Jurisdiction) are valid codes with no state.
 */
export const GST_STATE_CODES: Readonly<Record<string, string>> = {
  '01': 'Jammu and Kashmir',
  '02': 'Himachal Pradesh',
  '03': 'Punjab',
  '04': 'Chandigarh',
  '05': 'Uttarakhand',
  '06': 'Haryana',
  '07': 'Delhi',
  '08': 'Rajasthan',
  '09': 'Uttar Pradesh',
  '10': 'Bihar',
  '11': 'Sikkim',
  '12': 'Arunachal Pradesh',
  '13': 'Nagaland',
  '14': 'Manipur',
  '15': 'Mizoram',
  '16': 'Tripura',
  '17': 'Meghalaya',
  '18': 'Assam',
  '19': 'West Bengal',
  '20': 'Jharkhand',
  '21': 'Odisha',
  '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh',
  '24': 'Gujarat',
  '25': 'Dadra and Nagar Haveli and Daman and Diu',
  '26': 'Dadra and Nagar Haveli and Daman and Diu',
  '27': 'Maharashtra',
  '28': 'Andhra Pradesh',
  '29': 'Karnataka',
  '30': 'Goa',
  '31': 'Lakshadweep',
  '32': 'Kerala',
  '33': 'Tamil Nadu',
  '34': 'Puducherry',
  '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana',
  '37': 'Andhra Pradesh',
  '38': 'Ladakh',
  '97': 'Other Territory',
  '99': 'Centre Jurisdiction',
}

/** Codes that name no state or union territory (a supply cannot be placed there by address). */
export const GST_CODES_WITHOUT_STATE: ReadonlySet<string> = new Set(['97', '99'])

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'

/** The check character (15th) of a GSTIN's first 14 characters (upper case, 0-9 A-Z); null if one is not. */
export function gstinCheckCharacter(first14: string): string | null {
  if (first14.length !== 14) return null
  let sum = 0
  for (let i = 0; i < 14; i++) {
    const value = ALPHABET.indexOf(first14[i]!)
    if (value < 0) return null
    const product = value * (i % 2 === 0 ? 1 : 2)
    sum += Math.floor(product / 36) + (product % 36)
  }
  return ALPHABET[(36 - (sum % 36)) % 36]!
}

export type GstinCheck =
  | { valid: true; gstin: string; stateCode: string; stateName: string; pan: string }
  | { valid: false; problem: string }

/**
 * Checks a GSTIN rule by rule (spaces around it ignored, letters read in any case) and says which
 * rule failed, worded to follow the field's name: `gstin ${problem}`. `collector`: the GSTIN of a tax
 * collector at source (an e-commerce operator), whose 14th character is C.
 */
export function checkGstin(input: string, { collector = false }: { collector?: boolean } = {}): GstinCheck {
  const gstin = input.trim().toUpperCase()
  if (gstin.length !== 15) return { valid: false, problem: 'must be 15 characters' }
  if (!/^[0-9A-Z]{15}$/.test(gstin)) return { valid: false, problem: 'must contain only letters and digits' }
  const stateCode = gstin.slice(0, 2)
  const stateName = GST_STATE_CODES[stateCode]
  if (stateName === undefined) return { valid: false, problem: `must start with a GST state code (01-38, 97 or 99), not ${stateCode}` }
  const pan = gstin.slice(2, 12)
  if (!/^[A-Z]{5}[0-9]{4}[A-Z]$/.test(pan)) return { valid: false, problem: 'characters 3-12 must be a PAN (5 letters, 4 digits, 1 letter)' }
  if (!/^[1-9A-Z]$/.test(gstin[12]!)) return { valid: false, problem: 'character 13 (entity number) must be 1-9 or A-Z' }
  // A tax collector's registration (an e-commerce operator collecting TCS) carries C instead of Z.
  if (gstin[13] !== 'Z' && !(collector && gstin[13] === 'C')) return { valid: false, problem: collector ? 'character 14 must be C (a TCS registration) or Z' : 'character 14 must be Z' }
  if (gstinCheckCharacter(gstin.slice(0, 14)) !== gstin[14]) return { valid: false, problem: 'has a wrong check character (15th): check for a typing mistake' }
  return { valid: true, gstin, stateCode, stateName, pan }
}
