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

function encodeRandom(): string {
  const bytes = randomBytes(16)
  let out = ''
  for (let i = 0; i < 16; i++) out += CROCKFORD[bytes[i]! % 32]
  return out
}

export type IdPrefix =
  | 'prt' | 'cat' | 'key' | 'usr' | 'ses' | 'rtk' | 'adm' | 'ctg' | 'prd' | 'adr'
  | 'req' | 'srq' | 'osh' | 'whd' | 'zon' | 'red' | 'ord' | 'itm' | 'pay' | 'ref' | 'ret' | 'rti' | 'tkt' | 'msg' | 'evt' | 'cpn' | 'led' | 'upl'

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${encodeTime(now)}${encodeRandom()}`
}

/** A random URL-safe secret of `bytes` bytes of entropy, with a readable prefix. */
export function newSecret(prefix: string, bytes = 32): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`
}
