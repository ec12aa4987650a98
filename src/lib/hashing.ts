// Hashes for high-entropy secrets (API keys, partner secrets, refresh tokens). They are 256-bit
// random values, so a fast keyed-free SHA-256 is enough and keeps lookups indexable; passwords,
// which are low-entropy, use argon2id instead (see admins module).
import { createHash, timingSafeEqual } from 'node:crypto'

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a)
  const bb = Buffer.from(b)
  return ab.length === bb.length && timingSafeEqual(ab, bb)
}

const memo = new Map<string, string>()
/** sha256 of credentials presented on every request (API keys): memoised, bounded. */
export function sha256Memo(value: string): string {
  let hash = memo.get(value)
  if (hash === undefined) {
    if (memo.size >= 10_000) memo.clear()
    hash = sha256(value)
    memo.set(value, hash)
  }
  return hash
}
