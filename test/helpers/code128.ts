// A Code 128 reader for tests: what a scanner would read from a row of an image's pixels. It is
// written from the standard (ISO/IEC 15417), not from the encoder under test, and checks the
// symbol check character, so a barcode that encodes other text, or that is damaged, fails.

// The bar and space widths (in modules) of the symbol values 0..105; 106 is the stop.
const PATTERNS = [
  '212222', '222122', '222221', '121223', '121322', '131222', '122213', '122312', '132212', '221213',
  '221312', '231212', '112232', '122132', '122231', '113222', '123122', '123221', '223211', '221132',
  '221231', '213212', '223112', '312131', '311222', '321122', '321221', '312212', '322112', '322211',
  '212123', '212321', '232121', '111323', '131123', '131321', '112313', '132113', '132311', '211313',
  '231113', '231311', '112133', '112331', '132131', '113123', '113321', '133121', '313121', '211331',
  '231131', '213113', '213311', '213131', '311123', '311321', '331121', '312113', '312311', '332111',
  '314111', '221411', '431111', '111224', '111422', '121124', '121421', '141122', '141221', '112214',
  '112412', '122114', '122411', '142112', '142211', '241211', '221114', '413111', '241112', '134111',
  '111242', '121142', '121241', '114212', '124112', '124211', '411212', '421112', '421211', '212141',
  '214121', '412121', '111143', '111341', '131141', '114113', '114311', '411113', '411311', '113141',
  '114131', '311141', '411131', '211412', '211214', '211232', '2331112',
]
const START = { A: 103, B: 104, C: 105 } as const
const STOP = 106

export interface Code128Reading {
  text: string
  /** The narrow bar's width in pixels. */
  modulePixels: number
  /** Whether every bar and space is a whole number of modules wide, to the pixel. */
  exact: boolean
}

/**
 * Reads the bars of one pixel row (true: dark). Throws when the row is not a valid Code 128 symbol:
 * unknown patterns, no start or stop, or a wrong check character.
 */
export function readCode128(row: boolean[]): Code128Reading {
  const first = row.indexOf(true)
  const last = row.lastIndexOf(true)
  if (first < 0) throw new Error('no bars')
  const runs: number[] = []
  for (let x = first, length = 0; x <= last + 1; x++, length++) {
    if (x === last + 1 || (x > first && row[x] !== row[x - 1])) {
      runs.push(length)
      length = 0
    }
  }
  if ((runs.length - 7) % 6 !== 0 || runs.length < 19) throw new Error(`${runs.length} bars and spaces: not Code 128`)
  // The start symbol is 11 modules wide.
  const modulePixels = runs.slice(0, 6).reduce((a, b) => a + b, 0) / 11
  const modules = runs.map((r) => Math.round(r / modulePixels))
  const exact = runs.every((r, i) => r === modules[i]! * modulePixels)
  const values: number[] = []
  for (let i = 0; i + 6 <= modules.length; i += 6) {
    const width = i + 7 === modules.length ? 7 : 6
    const value = PATTERNS.indexOf(modules.slice(i, i + width).join(''))
    if (value < 0) throw new Error(`unknown pattern ${modules.slice(i, i + width).join('')} at symbol ${i / 6}`)
    values.push(value)
    if (width === 7) break
  }
  if (values.pop() !== STOP) throw new Error('no stop symbol')
  const check = values.pop()!
  const sum = values.reduce((acc, v, i) => acc + (i === 0 ? v : v * i), 0)
  if (sum % 103 !== check) throw new Error(`check character ${check}, expected ${sum % 103}`)
  return { text: decodeValues(values), modulePixels, exact }
}

/** The text of the data symbols after a start symbol (code sets A, B, C and their switches). */
function decodeValues([start, ...data]: number[]): string {
  let set = start === START.A ? 'A' : start === START.B ? 'B' : start === START.C ? 'C' : null
  if (!set) throw new Error(`no start symbol: ${start}`)
  let text = ''
  let shift = false
  for (const v of data) {
    const current = shift ? (set === 'A' ? 'B' : 'A') : set
    shift = false
    if (current === 'C') {
      if (v < 100) text += String(v).padStart(2, '0')
      else if (v === 100) set = 'B'
      else if (v === 101) set = 'A'
      // 102: FNC1, nothing printable
    } else if (v < 96) {
      text += current === 'B' || v < 64 ? String.fromCharCode(v + 32) : String.fromCharCode(v - 64)
    } else if (v === 98) shift = true
    else if (v === 99) set = 'C'
    else if (v === 100 && current === 'A') set = 'B'
    else if (v === 101 && current === 'B') set = 'A'
    // 96, 97 (FNC3, FNC2), FNC4: nothing printable here
  }
  return text
}
