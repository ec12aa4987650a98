// amountInWords: the Indian numbering system at every unit's boundary (hundred, thousand, lakh,
// crore), paise, crores counted past 99, and no negative amounts.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { amountInWords } from '../../src/lib/amount-in-words.ts'

const rupees = (r: bigint) => r * 100n

describe('amountInWords: rupees and paise in the Indian numbering system', () => {
  test('the examples of the invoice: ₹1,299.50, zero, one rupee', () => {
    assert.equal(amountInWords(129_950n), 'Rupees One Thousand Two Hundred Ninety-Nine and Fifty Paise Only')
    assert.equal(amountInWords(0n), 'Rupees Zero Only')
    assert.equal(amountInWords(100n), 'Rupees One Only')
  })

  test('below a hundred: teens, round tens and hyphenated tens', () => {
    assert.equal(amountInWords(rupees(13n)), 'Rupees Thirteen Only')
    assert.equal(amountInWords(rupees(20n)), 'Rupees Twenty Only')
    assert.equal(amountInWords(rupees(21n)), 'Rupees Twenty-One Only')
    assert.equal(amountInWords(rupees(99n)), 'Rupees Ninety-Nine Only')
  })

  test('each unit boundary: hundred, thousand, lakh, crore', () => {
    const cases: Array<[bigint, string]> = [
      [100n, 'One Hundred'],
      [101n, 'One Hundred One'],
      [999n, 'Nine Hundred Ninety-Nine'],
      [1_000n, 'One Thousand'],
      [1_001n, 'One Thousand One'],
      [99_999n, 'Ninety-Nine Thousand Nine Hundred Ninety-Nine'],
      [1_00_000n, 'One Lakh'],
      [1_00_010n, 'One Lakh Ten'],
      [99_99_999n, 'Ninety-Nine Lakh Ninety-Nine Thousand Nine Hundred Ninety-Nine'],
      [1_00_00_000n, 'One Crore'],
      [1_00_00_001n, 'One Crore One'],
      [99_99_99_999n, 'Ninety-Nine Crore Ninety-Nine Lakh Ninety-Nine Thousand Nine Hundred Ninety-Nine'],
    ]
    for (const [amount, words] of cases) assert.equal(amountInWords(rupees(amount)), `Rupees ${words} Only`, `₹${amount}`)
  })

  test('crores counted past 99 in the same system', () => {
    assert.equal(amountInWords(1_00_00_000_00n), 'Rupees One Crore Only')
    assert.equal(amountInWords(12_34_56_789_05n), 'Rupees Twelve Crore Thirty-Four Lakh Fifty-Six Thousand Seven Hundred Eighty-Nine and Five Paise Only')
    assert.equal(
      amountInWords(1_23_45_67_890_12n),
      'Rupees One Hundred Twenty-Three Crore Forty-Five Lakh Sixty-Seven Thousand Eight Hundred Ninety and Twelve Paise Only',
    )
    assert.equal(amountInWords(rupees(100n * 1_00_00_000n)), 'Rupees One Hundred Crore Only')
    assert.equal(amountInWords(rupees(1_00_000n * 1_00_00_000n)), 'Rupees One Lakh Crore Only')
  })

  test('paise alone, one paisa, and 99 paise', () => {
    assert.equal(amountInWords(50n), 'Rupees Zero and Fifty Paise Only')
    assert.equal(amountInWords(1n), 'Rupees Zero and One Paise Only')
    assert.equal(amountInWords(199n), 'Rupees One and Ninety-Nine Paise Only')
  })

  test('a negative amount throws a RangeError', () => {
    assert.throws(() => amountInWords(-1n), RangeError)
  })
})
