// Every back-office write runs with its actor in scope (db/audit-scope.ts): the transactions its
// handler begins tell the audit trigger who is writing (issue #39, decision 0033).
import type { FastifyInstance, RouteHandlerMethod } from 'fastify'
import { runAudited } from '../db/audit-scope.ts'
import type { Clock } from '../lib/clock.ts'

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function auditBackOfficeWrites(app: FastifyInstance, clock: Clock): void {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat()
    if (methods.every((m) => READS.has(m)) || !route.url.includes('/admin/')) return
    const handler = route.handler
    const action = (route.schema as { operationId?: string } | undefined)?.operationId ?? `${methods.join(',')} ${route.url}`
    route.handler = function audited(request, reply) {
      const admin = request.adminIdentity
      if (!admin) return handler.call(this, request, reply)
      const actor = { actorId: admin.adminId, actorEmail: admin.email, action, requestId: request.id, at: clock.now().toISOString() }
      return runAudited(actor, async () => handler.call(this, request, reply))
    } as RouteHandlerMethod
  })
}
