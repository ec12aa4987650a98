// GSTIN checks of src/lib/gstin.ts: real-shaped GSTINs accepted (their check characters computed by
// the Luhn mod 36 rule), and each rule refused on its own.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { checkGstin, GST_STATE_CODES, gstinCheckCharacter } from '../../src/lib/gstin.ts'

const problem = (gstin: string) => {
  const r = checkGstin(gstin)
  assert.equal(r.valid, false, `${gstin} should be refused`)
  return r.valid ? '' : r.problem
}

describe('GSTIN', () => {
  test('published example GSTINs are accepted with their state and PAN', () => {
    const r = checkGstin('27AAPFU0939F1ZV')
    assert.deepEqual(r, { valid: true, gstin: '27AAPFU0939F1ZV', stateCode: '27', stateName: 'Maharashtra', pan: 'AAPFU0939F' })
    assert.equal(checkGstin('24AAACC1206D1ZM').valid, true)
  })

  test('the check character by hand: 29ABCDE1234F1Z -> sum of reduced products', () => {
    // values 2,9,10,11,12,13,14,1,2,3,4,15,1,35 x factors 1,2,1,2,… ; 9x2=18, 11x2=22, 13x2=26, 1x2=2,
    // 3x2=6, 15x2=30, 35x2=70 -> 1+34 = 35. Sum 2+18+10+22+12+26+14+2+2+6+4+30+1+35 = 184; 184 mod 36 = 4; check 32 = W
    assert.equal(gstinCheckCharacter('29ABCDE1234F1Z'), 'W')
    assert.equal(checkGstin('29ABCDE1234F1ZW').valid, true)
  })

  test('lower case and surrounding spaces are read as the GSTIN', () => {
    const r = checkGstin(' 27aapfu0939f1zv ')
    assert.ok(r.valid && r.gstin === '27AAPFU0939F1ZV')
  })

  test('each rule is refused on its own', () => {
    assert.match(problem('27AAPFU0939F1Z'), /15 characters/)
    assert.match(problem('27AAPFU0939F1ZVX'), /15 characters/)
    assert.match(problem('27AAPFU0939F1Z-'), /letters and digits/)
    assert.match(problem('00AAPFU0939F1ZV'), /state code/)
    assert.match(problem('39AAPFU0939F1ZV'), /state code.*39/)
    assert.match(problem('27AAPF10939F1ZV'), /PAN/)
    assert.match(problem('27AAPFU093XF1ZV'), /PAN/)
    assert.match(problem('27AAPFU093911ZV'), /PAN/)
    assert.match(problem('27AAPFU0939F0ZV'), /entity/)
    assert.match(problem('27AAPFU0939F1YV'), /character 14 must be Z/)
    assert.match(problem('27AAPFU0939F1ZW'), /check character/)
    assert.match(problem('27AAPFU0939F2ZV'), /check character/, 'a changed entity digit breaks the check')
  })

  test('any valid shape with its computed check character is accepted; any other 15th character is refused', () => {
    const upper = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ')
    const digit = fc.constantFrom(...'0123456789')
    const shape = fc.tuple(
      fc.constantFrom(...Object.keys(GST_STATE_CODES)),
      fc.array(upper, { minLength: 5, maxLength: 5 }),
      fc.array(digit, { minLength: 4, maxLength: 4 }),
      upper,
      fc.constantFrom(...'123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
      fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
    )
    fc.assert(
      fc.property(shape, ([state, letters, digits, last, entity, other]) => {
        const first14 = `${state}${letters.join('')}${digits.join('')}${last}${entity}Z`
        const check = gstinCheckCharacter(first14)!
        assert.equal(checkGstin(first14 + check).valid, true)
        if (other !== check) assert.equal(checkGstin(first14 + other).valid, false)
        return true
      }),
      { numRuns: 500 },
    )
  })
})
