/**
 * A deterministic pseudo-random sequence in [0, 1) (mulberry32): the same seed always gives the
 * same numbers, so generated catalogs, judged query sets and shuffled test deliveries repeat.
 * Not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
