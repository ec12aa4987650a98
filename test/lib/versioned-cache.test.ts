// The versioned read cache (src/lib/versioned-cache.ts): requests that miss the same entry at once
// share one load, so a version bump under load costs one query per key, not one per request.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { setTimeout as delay } from 'node:timers/promises'
import { createVersionedCache } from '../../src/lib/versioned-cache.ts'

const options = { name: 'test', ttlMs: 60_000, maxEntries: 100, maxBytes: 1_000_000 }

test('fifty concurrent misses of one entry run its load once; after a bump, once more', async () => {
  const cache = createVersionedCache(null, 'test:', options)
  let loads = 0
  const load = async () => {
    loads++
    await delay(20)
    return `answer ${loads}`
  }
  const first = await Promise.all(Array.from({ length: 50 }, () => cache.get('catalog-1', 'products', load)))
  assert.equal(loads, 1)
  assert.deepEqual(new Set(first), new Set(['answer 1']))
  await cache.invalidate('catalog-1')
  const second = await Promise.all(Array.from({ length: 50 }, () => cache.get('catalog-1', 'products', load)))
  assert.equal(loads, 2)
  assert.deepEqual(new Set(second), new Set(['answer 2']))
})

test('a failed load fails every request waiting on it, and the next request loads again', async () => {
  const cache = createVersionedCache(null, 'test:', options)
  let calls = 0
  const failing = async () => {
    calls++
    await delay(10)
    throw new Error('database down')
  }
  const results = await Promise.allSettled(Array.from({ length: 5 }, () => cache.get('s', 'k', failing)))
  assert.equal(calls, 1)
  assert.ok(results.every((r) => r.status === 'rejected'))
  assert.equal(await cache.get('s', 'k', async () => 'back'), 'back')
})
