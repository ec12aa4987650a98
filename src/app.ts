// Builds the Fastify app from its dependencies without listening: used by the server, the CLI and
// the tests. Everything under /api/v1; the interactive reference at /docs.
import { randomBytes } from 'node:crypto'
import cors from '@fastify/cors'
import helmet from '@fastify/helmet'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { type FastifyInstance, type preValidationHookHandler } from 'fastify'
import type { Deps } from './deps.ts'
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './http/error-handler.ts'
import { createGuards } from './http/guards.ts'
import { createAttemptLimiter } from './http/attempt-limit.ts'
import { authRateLimit, registerRateLimit, uploadReadRateLimit } from './http/rate-limit.ts'
import { HELMET_OPTIONS } from './http/security-headers.ts'
import { consoleRoutes } from './http/console.ts'
import { documentRoute, finishDocument } from './http/openapi.ts'
import { AppError } from './lib/errors.ts'
import { NO_QUERY, validatorCompiler } from './http/validation.ts'
import { adminAuthRoutes, adminPeopleRoutes, AdminService, failedLoginsPerAccount } from './modules/admins/index.ts'
import { AuthService, authRoutes } from './modules/auth/index.ts'
import { AddressBook, addressBookRoutes } from './flows/address-book.ts'
import { adminSearchRoutes } from './flows/admin-search.ts'
import { auditBackOfficeWrites } from './http/audit.ts'
import { auditRoutes } from './modules/audit/index.ts'
import { type CatalogCache, catalogAdminRoutes, catalogRoutes, CatalogAdminService, CatalogService } from './modules/catalog/index.ts'
import { CheckoutAdminService, checkoutAdminRoutes, checkoutRoutes, CheckoutService } from './modules/checkout/index.ts'
import { CustomerAdminService, customerAdminRoutes, ProfileService, profileRoutes } from './modules/customers/index.ts'
import { Dispatcher, EventAdminService, eventAdminRoutes, eventWebhooks } from './modules/events/index.ts'
import { healthRoutes } from './modules/health/index.ts'
import { LedgerAdminService, ledgerAdminRoutes } from './modules/ledgers/index.ts'
import { createApiKeyAuthenticator, PartnerAdminService, listenForRevocations, partnerAdminRoutes, verifyPartnerSecret } from './modules/partners/index.ts'
import { ReturnService, returnRoutes } from './modules/returns/index.ts'
import { SupportService, supportRoutes } from './modules/support/index.ts'
import { TaxService, taxAdminRoutes } from './modules/tax/index.ts'
import { createCarriers, ShippingService, shippingAdminRoutes, shippingRoutes } from './modules/shipping/index.ts'
import { createStorage, createUploadNames, UploadService, uploadRoutes } from './modules/uploads/index.ts'
import { codHistoryOf, OrderAdminService, OrderService, orderAdminRoutes, orderPartnerRoutes, orderRoutes } from './modules/orders/index.ts'
import { createPaymentProvider, createPayoutProvider, PaymentService, paymentRoutes } from './modules/payments/index.ts'

export const API_PREFIX = '/api/v1'

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/
// Request ids: a random prefix per process and a counter; unique across nodes, and far cheaper
// than a random id per request on the hot path.
const REQUEST_ID_PREFIX = `req_${randomBytes(4).toString('hex')}`
let requestCounter = 0

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-partner-secret"]',
  'req.headers.cookie',
  '*.password',
  '*.secret',
  '*.accessToken',
  '*.refreshToken',
  '*.apiKey',
  // A customer's bank account (refunds of COD orders): never logged whole, wherever it appears.
  'accountNumber',
  'account_number',
  '*.accountNumber',
  '*.account_number',
  '*.*.accountNumber',
  '*.*.account_number',
]

export async function buildApp(deps: Deps): Promise<FastifyInstance> {
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
    frameworkErrors,
    clientErrorHandler: clientErrorHandler(deps.logger),
    // Fastify's own 503 while closing has neither the error body nor the security headers: the
    // onRequest hook below answers it instead.
    return503OnClosing: false,
  })
  app.setValidatorCompiler(validatorCompiler)
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

  // The reference is registered before the rate limiter so /docs assets are never limited.
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
      servers: [{ url: config.publicBaseUrl }],
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
    transformObject: finishDocument({ webhooks: eventWebhooks() }),
  })
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: false })
  const storage = createStorage(config)
  await app.register(consoleRoutes, { publicBaseUrl: config.publicBaseUrl, uploadOrigin: storage.uploadOrigin })

  const auth = new AuthService(deps)
  const admins = new AdminService(deps, auth.signer)
  const guards = createGuards(deps.clock, {
    apiKey: createApiKeyAuthenticator(deps.database.db, deps.clock),
    customer: (token) => auth.authenticateCustomer(token),
    admin: (token) => admins.authenticateAdmin(token),
    verifyToken: (token, audience, now) => auth.signer.verify(token, audience, now),
    partnerSecret: (partnerId, secret, now) => verifyPartnerSecret(deps.database.db, partnerId, secret, now),
  })
  await registerRateLimit(app, config.rateLimit, deps.redis, config.redisPrefix, guards.callerKey)
  // Limited like any anonymous call (per client address): only the load balancer's probes are exempt.
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger())
  // The bare address says where things are: a browser goes to the reference, a client gets the links.
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    if ((request.headers.accept ?? '').includes('text/html')) return reply.redirect('/docs', 302)
    return { name: 'commerce-api', docs: '/docs', openapi: `${API_PREFIX}/openapi.json`, health: `${API_PREFIX}/health` }
  })

  app.decorate('guards', guards)
  app.addHook('onClose', () => catalog.searchLog.flush())
  app.addHook('onClose', () => guards.flushKeyUsage().catch((err: unknown) => app.log.warn({ err }, 'could not record API key use')))
  // Keys revoked and partners deactivated on another node are forgotten here at once.
  const stopRevocations = listenForRevocations(deps.redis, config.redisPrefix)
  app.addHook('onClose', () => stopRevocations())
  const authLimit = authRateLimit(config.rateLimit)
  const failedLogins = createAttemptLimiter({
    name: 'admin-login',
    max: failedLoginsPerAccount(config.rateLimit.authMax),
    windowMs: config.rateLimit.windowMs,
    redis: deps.redis,
    redisPrefix: config.redisPrefix,
    log: app.log,
  })
  const catalog = new CatalogService(deps)
  const checkout = new CheckoutService(deps, codHistoryOf)
  const { provider, sandbox } = createPaymentProvider(config)
  const payments = new PaymentService(deps, provider, createPayoutProvider(config))
  const orders = new OrderService(deps, checkout, payments)
  app.decorate('payments', payments)
  app.decorate('catalogCache', catalog.cache)
  app.decorate('dispatcher', new Dispatcher(deps))
  const uploads = new UploadService(deps.database.db, deps.clock, storage, createUploadNames(config))

  const orderAdmin = new OrderAdminService(deps, payments)
  const { carriers, sandbox: sandboxCarrier } = createCarriers(config)
  const shipping = new ShippingService(deps, carriers, payments)
  app.decorate('shipping', shipping)
  const tax = new TaxService(deps, () => checkout.gstSellersChanged())
  const support = new SupportService(deps, storage, (owner, purpose, files) => uploads.issueSlots(owner, purpose, files))
  const returns = new ReturnService(deps, storage, payments, shipping)
  const profiles = new ProfileService(deps)
  const customerAdmin = new CustomerAdminService(deps, {
    orders: (scope, paging) => orderAdmin.list(scope, {}, paging),
    returns: (scope, paging) => returns.list(scope, {}, paging),
    tickets: (scope, paging) => support.list(scope, {}, paging),
    balances: async (userId) => (await checkout.wallet(userId, 1, 1)).data.balances,
  })

  await app.register(
    async (api) => {
      // A route that declares no query string takes none: `?anything` is a 400 like an unknown field.
      api.addHook('onRoute', (route) => {
        if (route.schema && !route.schema.querystring) route.schema = { ...route.schema, querystring: NO_QUERY }
      })
      await api.register(healthRoutes, { deps })
      await api.register(authRoutes, { auth, rateLimit: authLimit })
      await api.register(adminAuthRoutes, { admins, rateLimit: authLimit, failedLogins })
      await api.register(adminPeopleRoutes, { admins, guards })
      await api.register(profileRoutes, { profiles, guards })
      await api.register(addressBookRoutes, { book: new AddressBook(deps.database.db, profiles), profiles, guards })
      await api.register(catalogRoutes, { catalog, guards })
      await api.register(checkoutRoutes, { checkout, guards })
      await api.register(orderRoutes, { orders, guards })
      await api.register(paymentRoutes, { payments, provider, sandbox, database: deps.database })
      await api.register(orderAdminRoutes, { admin: orderAdmin, guards })
      await api.register(customerAdminRoutes, { admin: customerAdmin, guards })
      await api.register(adminSearchRoutes, { db: deps.database.db, guards })
      await api.register(auditRoutes, { db: deps.database.db, guards })
      await api.register(orderPartnerRoutes, { admin: orderAdmin, orders, guards })
      await api.register(partnerAdminRoutes, { admin: new PartnerAdminService(deps), guards })
      await api.register(eventAdminRoutes, { admin: new EventAdminService(deps), guards })
      await api.register(uploadRoutes, { uploads, guards, readLimit: uploadReadRateLimit(config.rateLimit) })
      await api.register(supportRoutes, { support, guards })
      await api.register(returnRoutes, { returns, guards })
      await api.register(checkoutAdminRoutes, { admin: new CheckoutAdminService(deps, checkout.settingsCache), guards })
      await api.register(ledgerAdminRoutes, { admin: new LedgerAdminService(deps), guards })
      await api.register(catalogAdminRoutes, { admin: new CatalogAdminService(deps, catalog.cache, catalog.searchLog.flush, tax), guards })
      await api.register(taxAdminRoutes, { tax, guards })
      await api.register(shippingRoutes, { shipping, sandbox: sandboxCarrier })
      await api.register(shippingAdminRoutes, { shipping, guards })
    },
    { prefix: API_PREFIX },
  )
  return app
}

declare module 'fastify' {
  interface FastifyInstance {
    guards: import('./http/guards.ts').Guards
    /** Payment housekeeping the server runs on a timer (reservation sweeper, refund retries). */
    payments: PaymentService
    /** This process's cache of catalog answers; its stats() tell its size (tests, diagnostics). */
    catalogCache: CatalogCache
    /** Fulfilment; the server's timer asks carriers again for pickups they did not accept. */
    shipping: ShippingService
    /** Partner webhook delivery; the server starts it, tests drive dispatchOnce. */
    dispatcher: Dispatcher
  }
}
