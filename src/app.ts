// Builds the Fastify app from its dependencies without listening: used by the server, the CLI and
// the tests. Everything under /api/v1; the interactive reference at /docs.
import type { FastifyInstance } from 'fastify'
import type { Deps } from './deps.ts'
import { createGuards } from './http/guards.ts'
import { createAttemptLimiter } from './http/attempt-limit.ts'
import { authRateLimit, registerRateLimit, uploadReadRateLimit } from './http/rate-limit.ts'
import { consoleRoutes } from './http/console.ts'
import { NO_QUERY } from './http/validation.ts'
import { createServer } from './http/server.ts'
import { registerDocumentation } from './http/documentation.ts'
import { adminAuthRoutes, adminPeopleRoutes, AdminService, failedLoginsPerAccount } from './modules/admins/index.ts'
import { AuthService, authRoutes } from './modules/auth/index.ts'
import { AddressBook, addressBookRoutes } from './flows/address-book.ts'
import { adminSearchRoutes } from './flows/admin-search.ts'
import { auditRoutes } from './modules/audit/index.ts'
import { type CatalogCache, catalogAdminRoutes, catalogRoutes, CatalogAdminService, CatalogService } from './modules/catalog/index.ts'
import { CheckoutAdminService, checkoutAdminRoutes, checkoutRoutes, CheckoutService } from './modules/checkout/index.ts'
import { CustomerAdminService, customerAdminRoutes, ProfileService, profileRoutes } from './modules/customers/index.ts'
import { Dispatcher, EventAdminService, eventAdminRoutes, eventWebhooks } from './modules/events/index.ts'
import { healthRoutes } from './modules/health/index.ts'
import { InventoryAdminService, inventoryAdminRoutes, plannedSupplierStates } from './modules/inventory/index.ts'
import { LedgerAdminService, ledgerAdminRoutes } from './modules/ledgers/index.ts'
import { createApiKeyAuthenticator, PartnerAdminService, partnerAdminRoutes, verifyPartnerSecret } from './modules/partners/index.ts'
import { listenForRevocations } from './lib/revocations.ts'
import { ReturnService, returnRoutes } from './modules/returns/index.ts'
import { SupportService, supportRoutes } from './modules/support/index.ts'
import { TaxService, taxAdminRoutes } from './modules/tax/index.ts'
import { createCarriers, ShippingService } from './modules/shipping/index.ts'
import { Fulfilment, shippingAdminRoutes, shippingRoutes } from './flows/fulfilment/index.ts'
import { createStorage, createUploadNames, type Storage, UploadService, uploadRoutes } from './modules/uploads/index.ts'
import { codHistoryOf, OrderAdminService, OrderService, orderAdminRoutes, orderPartnerRoutes, orderRoutes } from './modules/orders/index.ts'
import { createPaymentProvider, createPayoutProvider } from './modules/payments/index.ts'
import { PaymentService, paymentRoutes } from './flows/payments/index.ts'
import { orderCancellationRoutes, OrderMoves, orderMoveAdminRoutes } from './flows/order-moves/index.ts'
import { returnMoveAdminRoutes, ReturnMoves } from './flows/return-settlement/index.ts'
import { CodConversion, codConversionRoutes, partnerCodConversionRoutes } from './flows/cod-conversion/index.ts'
import { OrderPlacement, orderPlacementRoutes } from './flows/placement/index.ts'

export const API_PREFIX = '/api/v1'

export async function buildApp(deps: Deps): Promise<FastifyInstance> {
  const { config } = deps
  const app = await createServer(deps)
  await registerDocumentation(app, { publicBaseUrl: config.publicBaseUrl, webhooks: eventWebhooks() })
  const storage = createStorage(config)
  await app.register(consoleRoutes, { publicBaseUrl: config.publicBaseUrl, uploadOrigin: storage.uploadOrigin })
  const services = createServices(app, deps, storage)
  await registerRateLimit(app, config.rateLimit, deps.redis, config.redisPrefix, services.guards.callerKey)
  // Limited like any anonymous call (per client address): only the load balancer's probes are exempt.
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger())
  // The bare address says where things are: a browser goes to the reference, a client gets the links.
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    if ((request.headers.accept ?? '').includes('text/html')) return reply.redirect('/docs', 302)
    return { name: 'commerce-api', docs: '/docs', openapi: `${API_PREFIX}/openapi.json`, health: `${API_PREFIX}/health` }
  })
  await app.register((api) => registerApiRoutes(api, deps, services), { prefix: API_PREFIX })
  return app
}

/** Every service, built once from the dependencies and each other; what the server's timers and the tests need is decorated on the app. */
function createServices(app: FastifyInstance, deps: Deps, storage: Storage) {
  const { config } = deps
  const auth = new AuthService(deps)
  const admins = new AdminService(deps, auth.signer)
  const guards = createGuards(deps.clock, {
    apiKey: createApiKeyAuthenticator(deps.database.db, deps.clock),
    customer: (token) => auth.authenticateCustomer(token),
    admin: (token) => admins.authenticateAdmin(token),
    verifyToken: (token, audience, now) => auth.signer.verify(token, audience, now),
    partnerSecret: (partnerId, secret, now) => verifyPartnerSecret(deps.database.db, partnerId, secret, now),
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
  const checkout = new CheckoutService(deps, { codHistoryOf, supplierStatesOf: plannedSupplierStates })
  const { provider, sandbox } = createPaymentProvider(config)
  const payments = new PaymentService(deps, provider, createPayoutProvider(config))
  const placement = new OrderPlacement(deps, checkout, payments)
  const orders = new OrderService(deps, payments)
  const codConversion = new CodConversion(deps, payments)
  app.decorate('payments', payments)
  app.decorate('catalogCache', catalog.cache)
  app.decorate('dispatcher', new Dispatcher(deps))
  const uploads = new UploadService(deps.database.db, deps.clock, storage, createUploadNames(config))

  const orderAdmin = new OrderAdminService(deps)
  const orderMoves = new OrderMoves(deps, payments, orderAdmin)
  const { carriers, sandbox: sandboxCarrier } = createCarriers(config)
  const shipping = new ShippingService(deps, carriers)
  const fulfilment = new Fulfilment(deps, shipping, payments)
  app.decorate('shipping', shipping)
  const tax = new TaxService(deps, () => checkout.gstSellersChanged())
  app.decorate('tax', tax)
  const support = new SupportService(deps, storage, (owner, purpose, files) => uploads.issueSlots(owner, purpose, files))
  const returns = new ReturnService(deps, storage, payments, shipping)
  const returnMoves = new ReturnMoves(deps, payments, returns)
  const profiles = new ProfileService(deps)
  const customerAdmin = new CustomerAdminService(deps, {
    orders: (scope, paging) => orderAdmin.list(scope, {}, paging),
    returns: (scope, paging) => returns.list(scope, {}, paging),
    tickets: (scope, paging) => support.list(scope, {}, paging),
    balances: async (userId) => (await checkout.wallet(userId, 1, 1)).data.balances,
  })
  return { auth, admins, guards, authLimit, failedLogins, catalog, checkout, provider, sandbox, payments, placement, orders, codConversion, orderMoves, uploads, orderAdmin, sandboxCarrier, shipping, fulfilment, tax, support, returns, returnMoves, profiles, customerAdmin }
}

type Services = ReturnType<typeof createServices>

/** The routes under /api/v1, in the order the OpenAPI document lists them. */
async function registerApiRoutes(api: FastifyInstance, deps: Deps, services: Services) {
  const { config } = deps
  const { auth, admins, guards, authLimit, failedLogins, catalog, checkout, provider, sandbox, payments, placement, orders, codConversion, orderMoves, uploads, orderAdmin, sandboxCarrier, shipping, fulfilment, tax, support, returns, returnMoves, profiles, customerAdmin } = services
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
  await api.register(orderPlacementRoutes, { placement, guards })
  await api.register(orderRoutes, { orders, guards })
  await api.register(codConversionRoutes, { conversion: codConversion, guards })
  await api.register(orderCancellationRoutes, { moves: orderMoves, guards })
  await api.register(paymentRoutes, { payments, provider, sandbox, database: deps.database })
  await api.register(orderAdminRoutes, { admin: orderAdmin, guards })
  await api.register(orderMoveAdminRoutes, { moves: orderMoves, guards })
  await api.register(customerAdminRoutes, { admin: customerAdmin, guards })
  await api.register(adminSearchRoutes, { db: deps.database.db, guards })
  await api.register(auditRoutes, { db: deps.database.db, guards })
  await api.register(orderPartnerRoutes, { admin: orderAdmin, guards })
  await api.register(partnerCodConversionRoutes, { conversion: codConversion, guards })
  await api.register(partnerAdminRoutes, { admin: new PartnerAdminService(deps), guards })
  await api.register(eventAdminRoutes, { admin: new EventAdminService(deps), guards })
  await api.register(uploadRoutes, { uploads, guards, readLimit: uploadReadRateLimit(config.rateLimit) })
  await api.register(supportRoutes, { support, guards })
  await api.register(returnRoutes, { returns, guards })
  await api.register(returnMoveAdminRoutes, { moves: returnMoves, guards })
  await api.register(checkoutAdminRoutes, { admin: new CheckoutAdminService(deps, checkout.settingsCache), guards })
  await api.register(ledgerAdminRoutes, { admin: new LedgerAdminService(deps), guards })
  await api.register(catalogAdminRoutes, { admin: new CatalogAdminService(deps, catalog.cache, catalog.searchLog.flush, tax), guards })
  await api.register(inventoryAdminRoutes, { admin: new InventoryAdminService(deps), guards })
  await api.register(taxAdminRoutes, { tax, guards })
  await api.register(shippingRoutes, { shipping, fulfilment, sandbox: sandboxCarrier })
  await api.register(shippingAdminRoutes, { shipping, fulfilment, guards })
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
    /** GST; the server's timer numbers documents still waiting for their number. */
    tax: TaxService
  }
}
