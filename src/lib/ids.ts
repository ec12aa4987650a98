// Opaque, prefixed identifiers that sort by creation time: `<prefix>_<ULID>`.
import { randomBytes } from 'node:crypto'

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

function encodeTime(ms: number): string {
  let out = ''
  let t = ms
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[t % 32] + out
    t = Math.floor(t / 32)
  }
  return out
}

// Monotonic within a millisecond: a second id in the same millisecond is the previous random part
// plus one, so ids made one after another in a process sort in the order they were made.
let lastMs = -1
let lastRandom: number[] = []

function encodeRandom(ms: number): string {
  if (ms === lastMs) {
    let i = lastRandom.length - 1
    while (i >= 0 && lastRandom[i] === 31) lastRandom[i--] = 0
    if (i >= 0) lastRandom[i]! += 1
  } else {
    const bytes = randomBytes(16)
    // The top digit stays below 16, so increments can never wrap around in practice.
    lastRandom = Array.from(bytes, (b, i) => (i === 0 ? b % 16 : b % 32))
    lastMs = ms
  }
  return lastRandom.map((d) => CROCKFORD[d]).join('')
}

export type IdPrefix =
  | 'prt' | 'cat' | 'key' | 'usr' | 'ses' | 'rtk' | 'adm' | 'ctg' | 'prd' | 'adr'
  | 'req' | 'srq' | 'osh' | 'whd' | 'rth' | 'zon' | 'red' | 'ord' | 'itm' | 'pay' | 'ref' | 'ret' | 'rti' | 'tkt' | 'msg' | 'evt' | 'cpn' | 'led' | 'upl' | 'doc' | 'shp' | 'sev' | 'pya' | 'gsr' | 'ndr' | 'var' | 'ccb' | 'loc' | 'imv' | 'trf'

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${encodeTime(now)}${encodeRandom(now)}`
}

/** A random URL-safe secret of `bytes` bytes of entropy, with a readable prefix. */
export function newSecret(prefix: string, bytes = 32): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`
}
