// The OpenAPI document (at /api/v1/openapi.json, routed by buildApp after the rate limiter) and
// the interactive reference at /docs, served offline. Registered before the rate limiter, so the
// reference's assets are never limited.
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { documentRoute, finishDocument } from './openapi.ts'

export async function registerDocumentation(app: FastifyInstance, { publicBaseUrl, webhooks }: { publicBaseUrl: string; webhooks: Record<string, unknown> }) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Commerce API',
        version: '2.0.0',
        description:
          'Catalog, customers, checkout, orders, payments, returns and support for partner integrations. ' +
          'Every success uses the envelope {statusCode, message, data, meta?}; every error the error body.',
        license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
      },
      servers: [{ url: publicBaseUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          partnerId: { type: 'apiKey', in: 'header', name: 'x-partner-id' },
          partnerSecret: { type: 'apiKey', in: 'header', name: 'x-partner-secret' },
        },
      },
    },
    // Wildcard routes get a named path parameter and every route the error statuses of its guard;
    // the built document gets the partner events as webhooks, the error body as one component and
    // an example of every body (src/http/openapi.ts, decisions 0023 and 0026).
    transform: documentRoute,
    transformObject: finishDocument({ webhooks }),
  })
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: false })
}
