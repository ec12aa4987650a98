import assert from 'node:assert/strict'
import { test } from 'node:test'
import { newId } from '../../src/lib/ids.ts'

test('ids made in the same millisecond sort in the order they were made', () => {
  const ms = Date.UTC(2026, 10, 23)
  const ids = Array.from({ length: 1000 }, () => newId('msg', ms))
  assert.deepEqual([...ids].sort(), ids)
  assert.equal(new Set(ids).size, 1000)
  for (const id of ids) assert.match(id, /^msg_[0-9A-HJKMNP-TV-Z]{26}$/)
})

test('a later millisecond sorts after, whatever the random part', () => {
  for (let i = 0; i < 100; i++) {
    const a = newId('ord', 1_000_000 + i * 2)
    const b = newId('ord', 1_000_001 + i * 2)
    assert.ok(a < b)
  }
})
