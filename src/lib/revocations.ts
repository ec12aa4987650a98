// Credentials and principals whose cached view every node must drop now: a revoked API key, a
// revoked customer session, a blocked customer, a deactivated partner. Authenticators cache what
// the database said for a few seconds (the hottest paths: every catalog read, every customer
// request); a change here is applied in this process at once and announced to the other nodes
// through Redis pub/sub (milliseconds). Without Redis, or while it is down, other nodes drop it
// when their cache entry expires (seconds), and the database read that follows refuses it.
import { EventEmitter, once } from 'node:events'
import { setTimeout as delay } from 'node:timers/promises'
import type { Redis } from 'ioredis'

export type RevokedKind = 'api-key' | 'session' | 'customer' | 'partner'
const KINDS: readonly RevokedKind[] = ['api-key', 'session', 'customer', 'partner']

const local = new EventEmitter()
local.setMaxListeners(0)

/** Calls `forget` with the ids of `kind` revoked from now on, in this process or announced by another. */
export function onRevoked(kind: RevokedKind, forget: (id: string) => void): void {
  local.on(kind, forget)
}

/** This process forgets these ids at once (the other nodes are told by `announceRevoked`). */
export function forgetRevoked(kind: RevokedKind, ids: string[]): void {
  for (const id of ids) local.emit(kind, id)
}

const CHANNEL = 'revocations'

/** Every node forgets these ids now: this process at once, the others through Redis pub/sub. */
export async function announceRevoked(redis: Redis | null, prefix: string, kind: RevokedKind, ids: string[]): Promise<void> {
  forgetRevoked(kind, ids)
  if (!redis || ids.length === 0) return
  if (redis.status === 'connecting' || redis.status === 'connect' || redis.status === 'wait') {
    // A command-line process has just opened its connection.
    await Promise.race([once(redis, 'ready'), delay(2000)]).catch(() => undefined)
  }
  if (redis.status !== 'ready') return
  await redis.publish(`${prefix}${CHANNEL}`, JSON.stringify({ kind, ids })).catch(() => undefined)
}

/** Subscribes this process to the revocations other nodes announce; answers the unsubscribe. */
export function listenForRevocations(redis: Redis | null, prefix: string): () => Promise<void> {
  if (!redis) return async () => {}
  const channel = `${prefix}${CHANNEL}`
  // A connection of its own: a subscribed connection can run no other command.
  const subscriber = redis.duplicate({ enableAutoPipelining: false, commandTimeout: undefined })
  subscriber.on('error', () => undefined) // the main connection reports outages
  subscriber.on('ready', () => void subscriber.subscribe(channel).catch(() => undefined))
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return
    try {
      const { kind, ids } = JSON.parse(message) as { kind?: unknown; ids?: unknown }
      if (KINDS.includes(kind as RevokedKind) && Array.isArray(ids)) forgetRevoked(kind as RevokedKind, ids.filter((id): id is string => typeof id === 'string'))
    } catch {
      // not ours: ignore
    }
  })
  return () => subscriber.quit().then(() => undefined, () => subscriber.disconnect())
}
