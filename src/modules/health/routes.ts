// Liveness, readiness and health. Readiness probes the database and Redis with a short timeout and
// answers 503 when a configured dependency is down, so a load balancer stops sending traffic.
import { readFileSync } from 'node:fs'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope } from '../../http/envelope.ts'
import { security } from '../../http/schemas.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { projectFile } from '../../lib/paths.ts'
import { Health, Readiness } from './schemas.ts'

const PROBE_TIMEOUT_MS = 1000
const version = (JSON.parse(readFileSync(projectFile('package.json'), 'utf8')) as { version: string })
  .version

async function probeRedis(redis: Deps['redis']): Promise<'up' | 'down' | 'disabled'> {
  if (!redis) return 'disabled'
  let timer: NodeJS.Timeout | undefined
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS)
    })
    return (await Promise.race([redis.ping(), timeout])) === 'PONG' ? 'up' : 'down'
  } catch {
    return 'down'
  } finally {
    clearTimeout(timer)
  }
}

export const healthRoutes: FastifyPluginAsyncTypebox<{ deps: ServiceDeps }> = async (app, { deps }) => {
  const uptime = () => Math.round(process.uptime() * 1000) / 1000

  async function readiness() {
    const [db, redis] = await Promise.all([deps.database.ping(PROBE_TIMEOUT_MS), probeRedis(deps.redis)])
    const database = db ? ('up' as const) : ('down' as const)
    const healthy = database === 'up' && redis !== 'down'
    return { status: healthy ? ('ok' as const) : ('error' as const), database, redis, uptime: uptime() }
  }

  app.get(
    '/health/live',
    {
      config: { rateLimit: false },
      schema: {
        operationId: 'getLiveness',
        tags: ['Health'],
        security: security.public,
        summary: 'Liveness: the process is running',
        response: { 200: Envelope(Type.Object({ status: Type.Literal('ok'), uptime: Type.Number() })) },
      },
    },
    async () => ({ statusCode: 200, message: 'Service is alive', data: { status: 'ok' as const, uptime: uptime() } }),
  )

  app.get(
    '/health/ready',
    {
      config: { rateLimit: false },
      schema: {
        operationId: 'getReadiness',
        tags: ['Health'],
        security: security.public,
        summary: 'Readiness: the database and Redis (when configured) answer',
        response: { 200: Envelope(Readiness), 503: Envelope(Readiness) },
      },
    },
    async (_request, reply) => {
      const data = await readiness()
      const statusCode = data.status === 'ok' ? 200 : 503
      reply.status(statusCode)
      return { statusCode, message: statusCode === 200 ? 'Service is ready' : 'Service is not ready', data }
    },
  )

  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        tags: ['Health'],
        security: security.public,
        summary: 'Readiness plus the service version',
        response: {
          200: Envelope(Health),
          503: Envelope(Health),
        },
      },
    },
    async (_request, reply) => {
      const data = { ...(await readiness()), version }
      const statusCode = data.status === 'ok' ? 200 : 503
      reply.status(statusCode)
      return { statusCode, message: statusCode === 200 ? 'Service is healthy' : 'Service is unhealthy', data }
    },
  )
}
