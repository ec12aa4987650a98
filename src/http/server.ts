// The Fastify server every answer goes through, before any route: its options (request ids, body
// limit, timeouts, proxies, router, strict validation), JSON only, bodiless POSTs, the request id
// and no-store on every answer, the back office's audit scope, the one error handler, helmet's
// headers, 503 while draining, CORS. buildApp (src/app.ts) adds the documentation and the routes.
import { randomBytes } from 'node:crypto'
import cors from '@fastify/cors'
import helmet from '@fastify/helmet'
import Fastify, { type FastifyInstance, type preValidationHookHandler } from 'fastify'
import type { Deps } from '../deps.ts'
import { AppError } from '../lib/errors.ts'
import { auditBackOfficeWrites } from './audit.ts'
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './error-handler.ts'
import { HELMET_OPTIONS } from './security-headers.ts'
import { validatorCompiler } from './validation.ts'
import { lazySerializerFactory, lazyValidatorCompiler } from './lazy-compilers.ts'

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/
// Request ids: a random prefix per process and a counter; unique across nodes, and far cheaper
// than a random id per request on the hot path.
const REQUEST_ID_PREFIX = `req_${randomBytes(4).toString('hex')}`
let requestCounter = 0

export async function createServer(deps: Deps): Promise<FastifyInstance> {
  const { config } = deps
  const app = Fastify({
    loggerInstance: deps.logger,
    requestIdHeader: 'x-request-id',
    genReqId: (req) => {
      const incoming = req.headers['x-request-id']
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : `${REQUEST_ID_PREFIX}-${(++requestCounter).toString(36)}`
    },
    bodyLimit: config.bodyLimitBytes,
    // Fastify turns Node's 5-minute request timeout off; a client trickling its headers or body a
    // byte at a time would hold a connection for ever. Node checks the timeouts every
    // connectionsCheckingInterval (30 s by default, which would let them run 30 s late).
    requestTimeout: config.timeouts.requestMs,
    http: { headersTimeout: config.timeouts.headersMs, connectionsCheckingInterval: 1000 },
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    ajv: { customOptions: { removeAdditional: false, allErrors: true, coerceTypes: false } },
    // Each route's serializers compile on its first answer, its validators on its first request (lazy-compilers.ts).
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory() } },
    frameworkErrors,
    clientErrorHandler: clientErrorHandler(deps.logger),
    // Fastify's own 503 while closing has neither the error body nor the security headers: the
    // onRequest hook below answers it instead.
    return503OnClosing: false,
  })
  app.setValidatorCompiler(lazyValidatorCompiler(validatorCompiler))
  // Only JSON bodies: a text/plain body would otherwise reach the validators as a string.
  app.removeContentTypeParser('text/plain')
  // A POST with no body bytes is bodiless whatever its content type: SDKs send `content-type:
  // application/json` on every request, and Fastify's parser refused an empty JSON body with 400
  // (issue #20). Nothing to parse means no body; the route's schema then decides, for every route
  // alike: a route that takes no body or an optional one runs, one that requires a body answers
  // its usual validation 400. Anything else goes through Fastify's own parser (prototype-poisoning
  // protection included).
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8')
    if (text.length === 0) return done(null, undefined)
    return parseJson(request, text, done)
  })
  // A route whose body schema requires no field takes an optional body: a bodiless POST to it runs
  // as if `{}` had been sent (with or without a content type), instead of "body must be an object".
  app.addHook('onRoute', (route) => {
    const body = route.schema?.body as { type?: unknown; required?: unknown[] } | undefined
    if (!body || body.type !== 'object' || (body.required?.length ?? 0) > 0) return
    const emptyBody: preValidationHookHandler = (request, _reply, done) => {
      if (request.body === undefined) request.body = {}
      done()
    }
    const existing = route.preValidation === undefined ? [] : Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation]
    route.preValidation = [emptyBody, ...existing]
  })
  auditBackOfficeWrites(app, deps.clock)
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id)
    // Answers to a bearer token or a partner secret (tokens, profiles, orders, back office) are
    // never kept by a browser or a shared cache.
    if ((request.headers.authorization || request.headers['x-partner-secret']) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store')
  })
  registerErrorHandling(app)

  await app.register(helmet, HELMET_OPTIONS)
  // Requests that arrive while the server drains (a pipelined or keep-alive request after SIGTERM):
  // 503 through the error handler, after helmet's hook so it carries the same headers as any answer.
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return
    reply.header('connection', 'close')
    throw new AppError('UNAVAILABLE', 'Service is shutting down, please retry')
  })
  if (config.corsOrigins) {
    await app.register(cors, {
      origin: config.corsOrigins === '*' ? true : config.corsOrigins,
      exposedHeaders: ['x-request-id', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
    })
  }
  return app
}
