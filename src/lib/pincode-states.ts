// Which state or union territory a PIN code belongs to, from its first digits (the postal circle),
// and state names compared the way people write them. Used where the serviceability data does not
// know the pincode (src/modules/checkout/pincode-state.ts).
//
// Source: India Post's allocation of the first two digits to postal circles, as tabulated in public
// summaries of it (getpincode.org/about, "First 2 Digits of PIN | Post Office Circle"; also
// bilimtook.com's "What is PIN Code?"), read 2026-11-25 from stored copies, not from India Post
// itself. Three-digit entries for split circles: 682 Lakshadweep, 744 Andaman and Nicobar and
// 793-799 (Meghalaya, Manipur, Mizoram, Nagaland, Tripura) from the same summaries; 403 Goa,
// 737 Sikkim, 790-792 Arunachal Pradesh, 194 Ladakh and 396 Daman and Silvassa from general
// knowledge of those ranges, to be checked. Union territories inside another circle's range
// (Puducherry's enclaves in 53, 60 and 67, Lakshadweep in 68, Diu in 36) are listed on that
// two-digit prefix. Where a prefix spans more than one state or union territory, every one of them
// is listed and an address in any of them is accepted. Army Postal Service ranges (90-99) and
// unallocated prefixes are absent: their state is unknown. Correct an entry here with its source.

const DNHDD = 'Dadra and Nagar Haveli and Daman and Diu'

/** Prefix (2 or 3 digits) -> the states and union territories its pincodes may be in. */
export const PINCODE_PREFIX_STATES: Readonly<Record<string, readonly string[]>> = {
  '11': ['Delhi'],
  '12': ['Haryana'],
  '13': ['Haryana'],
  '14': ['Punjab'],
  '15': ['Punjab'],
  '16': ['Punjab', 'Chandigarh'],
  '17': ['Himachal Pradesh'],
  '18': ['Jammu and Kashmir'],
  '19': ['Jammu and Kashmir', 'Ladakh'],
  '194': ['Ladakh', 'Jammu and Kashmir'],
  '20': ['Uttar Pradesh'],
  '21': ['Uttar Pradesh'],
  '22': ['Uttar Pradesh'],
  '23': ['Uttar Pradesh'],
  '24': ['Uttar Pradesh', 'Uttarakhand'],
  '25': ['Uttar Pradesh'],
  '26': ['Uttar Pradesh', 'Uttarakhand'],
  '27': ['Uttar Pradesh'],
  '28': ['Uttar Pradesh'],
  '30': ['Rajasthan'],
  '31': ['Rajasthan'],
  '32': ['Rajasthan'],
  '33': ['Rajasthan'],
  '34': ['Rajasthan'],
  '36': ['Gujarat', DNHDD],
  '37': ['Gujarat'],
  '38': ['Gujarat'],
  '39': ['Gujarat', DNHDD],
  '396': [DNHDD, 'Gujarat'],
  '40': ['Maharashtra', 'Goa'],
  '403': ['Goa'],
  '41': ['Maharashtra'],
  '42': ['Maharashtra'],
  '43': ['Maharashtra'],
  '44': ['Maharashtra'],
  '45': ['Madhya Pradesh'],
  '46': ['Madhya Pradesh'],
  '47': ['Madhya Pradesh'],
  '48': ['Madhya Pradesh'],
  '49': ['Chhattisgarh'],
  '50': ['Telangana', 'Andhra Pradesh'],
  '500': ['Telangana'],
  '51': ['Andhra Pradesh'],
  '52': ['Andhra Pradesh'],
  '53': ['Andhra Pradesh', 'Puducherry'],
  '56': ['Karnataka'],
  '57': ['Karnataka'],
  '58': ['Karnataka'],
  '59': ['Karnataka'],
  '60': ['Tamil Nadu', 'Puducherry'],
  '600': ['Tamil Nadu'],
  '61': ['Tamil Nadu'],
  '62': ['Tamil Nadu'],
  '63': ['Tamil Nadu'],
  '64': ['Tamil Nadu'],
  '67': ['Kerala', 'Puducherry'],
  '68': ['Kerala', 'Lakshadweep'],
  '69': ['Kerala'],
  '70': ['West Bengal'],
  '71': ['West Bengal'],
  '72': ['West Bengal'],
  '73': ['West Bengal', 'Sikkim'],
  '737': ['Sikkim'],
  '74': ['West Bengal', 'Andaman and Nicobar Islands'],
  '744': ['Andaman and Nicobar Islands'],
  '75': ['Odisha'],
  '76': ['Odisha'],
  '77': ['Odisha'],
  '78': ['Assam'],
  '79': ['Arunachal Pradesh', 'Meghalaya', 'Manipur', 'Mizoram', 'Nagaland', 'Tripura', 'Assam'],
  '790': ['Arunachal Pradesh'],
  '791': ['Arunachal Pradesh'],
  '792': ['Arunachal Pradesh'],
  '793': ['Meghalaya'],
  '794': ['Meghalaya'],
  '795': ['Manipur'],
  '796': ['Mizoram'],
  '797': ['Nagaland'],
  '798': ['Nagaland'],
  '799': ['Tripura'],
  '80': ['Bihar'],
  '81': ['Bihar', 'Jharkhand'],
  '82': ['Bihar', 'Jharkhand'],
  '83': ['Jharkhand', 'Bihar'],
  '84': ['Bihar'],
  '85': ['Bihar'],
}

/** The states a pincode may be in by its prefix (the longest listed prefix wins); empty when unknown. */
export function statesForPincodePrefix(pincode: string): readonly string[] {
  return PINCODE_PREFIX_STATES[pincode.slice(0, 3)] ?? PINCODE_PREFIX_STATES[pincode.slice(0, 2)] ?? []
}

/** Old and common names of states and union territories, by normalised name -> the current name's. */
const ALIASES: Record<string, string> = {
  orissa: 'odisha',
  pondicherry: 'puducherry',
  pondichery: 'puducherry',
  uttaranchal: 'uttarakhand',
  nctofdelhi: 'delhi',
  newdelhi: 'delhi',
  nationalcapitalterritoryofdelhi: 'delhi',
  jk: 'jammuandkashmir',
  jandk: 'jammuandkashmir',
  andamanandnicobar: 'andamanandnicobarislands',
  andamannicobarislands: 'andamanandnicobarislands',
  dadraandnagarhaveli: 'dadraandnagarhavelianddamananddiu',
  damananddiu: 'dadraandnagarhavelianddamananddiu',
  dnhdd: 'dadraandnagarhavelianddamananddiu',
  chattisgarh: 'chhattisgarh',
  chhatisgarh: 'chhattisgarh',
  telengana: 'telangana',
}

/**
 * A state name reduced to what identifies it: case, spaces, punctuation and `&` versus `and` do not
 * matter ("Tamil Nadu", "TAMIL  NADU", "tamilnadu"; "Jammu & Kashmir"), and old names map to the
 * current one (Orissa -> Odisha, Pondicherry -> Puducherry, Uttaranchal -> Uttarakhand).
 */
export function normalizeStateName(name: string): string {
  const key = name
    .toLowerCase()
    .replaceAll('&', 'and')
    .replace(/[^a-z]/g, '')
  return ALIASES[key] ?? key
}

export const sameState = (a: string, b: string): boolean => normalizeStateName(a) === normalizeStateName(b)
