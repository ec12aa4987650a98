// What the /orders route files share: their OpenAPI tag and the answer to a keyed request (routes.ts
// re-exports `answer`; it lives here so that the route files need not import routes.ts, which imports them).
import type { FastifyReply } from 'fastify'
import { ok } from '../../http/envelope.ts'
import type { StoredAnswer } from './answer-once.ts'

export const tags = ['Orders']

/** A keyed request's answer (x-idempotency-key): a replay says so in `idempotent-replayed`. */
export function answer(reply: FastifyReply, stored: StoredAnswer, message: string) {
  if (stored.replayed) reply.header('idempotent-replayed', 'true')
  reply.status(stored.status)
  // The stored body was built from the same view as a fresh answer; the response schema still serialises it.
  return ok(stored.body as never, message, stored.status)
}
