// The environment, read once and validated into a typed object. Nothing else reads process.env.
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'

export interface RateLimitConfig {
  /** Requests per window for one API key, one customer, or one anonymous client address. */
  max: number
  /** Requests per window for one client address on /auth and /admin/auth routes. */
  authMax: number
  /** Reads of uploaded files (the local driver's public GET) per window for one client address. */
  uploadReadMax: number
  windowMs: number
}

export interface Config {
  env: 'development' | 'production' | 'test'
  port: number
  host: string
  dataDir: string
  databaseUrl: string | null
  /** A PostgreSQL read replica for catalog reads (docs/scaling.md). */
  databaseReadUrl: string | null
  dbPoolSize: number
  /** Catalogs with at least this many active products build their search index in a worker thread (PostgreSQL only). */
  searchWorkerMinProducts: number
  /** Bounds of each process's catalog answer cache (decision 0006). */
  catalogCache: { maxEntries: number; maxBytes: number }
  redisUrl: string | null
  redisPrefix: string
  publicBaseUrl: string
  authSecret: string
  accessTokenTtlSeconds: number
  refreshTokenTtlSeconds: number
  adminTokenTtlSeconds: number
  /** How long a partner's previous secret stays valid after a rotation (0: not at all). */
  partnerSecretOverlapSeconds: number
  storageDriver: 'local' | 's3'
  /** Required when storageDriver is s3. */
  s3: S3Config | null
  paymentProvider: 'sandbox' | 'razorpay'
  /** Required when paymentProvider is razorpay. */
  razorpay: { keyId: string; keySecret: string; webhookSecret: string; previousWebhookSecret: string | null; apiBase: string; timeoutMs: number } | null
  /** The Shiprocket carrier, configured when SHIPROCKET_EMAIL is set. */
  shiprocket: ShiprocketConfig | null
  /** The Delhivery carrier (B2C express API), configured when DELHIVERY_API_TOKEN is set. */
  delhivery: DelhiveryConfig | null
  /** How long a PENDING_PAYMENT order holds its stock before the sweeper cancels it. */
  reservationMinutes: number
  /** How many PENDING_PAYMENT orders one customer may hold at once (each holds stock): the next prepaid order is 409. */
  maxUnpaidOrdersPerCustomer: number
  /** How often background jobs (reservation sweeper, refund retries, key expiry) run. */
  jobIntervalMs: number
  /**
   * The sandbox carrier: its tracking page lets whoever holds an AWB move the parcel (deliver a COD
   * order, say), so it is off in production unless SHIPPING_SANDBOX=true (a demo).
   */
  shippingSandbox: boolean
  /** How a parcel's courier is chosen when the back office names none (decision 0030). */
  courierRule: 'RECOMMENDED' | 'CHEAPEST' | 'FASTEST'
  /** RazorpayX payouts (refunds of cash collected on delivery to a UPI ID or bank account), configured when RAZORPAYX_KEY_ID is set. */
  razorpayx: RazorpayXConfig | null
  /**
   * Without RazorpayX, the sandbox payout provider pays at once and pays nothing real: on outside
   * production, off in production unless PAYOUT_SANDBOX=true (a demo), where UPI and bank refunds are then refused.
   */
  payoutSandbox: boolean
  /** Sends of one payout that could not reach the provider before it is given up as FAILED (each waits twice as long as the one before, from one job interval). */
  payoutMaxAttempts: number
  webhooks: {
    /** How long one delivery may take before it is cut off and retried. */
    timeoutMs: number
    /** Private, loopback and link-local targets: refused unless allowed (allowed outside production). */
    allowPrivateNetworks: boolean
    /** Plain http targets: refused in production unless allowed. */
    allowHttp: boolean
    /** How often each node looks for events to deliver. */
    pollIntervalMs: number
  }
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  corsOrigins: string[] | '*' | null
  rateLimit: RateLimitConfig
  bodyLimitBytes: number
  /**
   * Slow clients: how long one may take to send a request's headers, and its whole request (a
   * client that trickles them a byte at a time would otherwise hold its connection for good).
   */
  timeouts: { headersMs: number; requestMs: number }
  workers: number
  trustProxy: boolean
}

export interface ShiprocketConfig {
  /** The API user (Settings > API in the Shiprocket panel), not the account owner's login. */
  email: string
  password: string
  /** The token configured with the tracking webhook in the panel; Shiprocket sends it in x-api-key. */
  webhookToken: string
  /** While the webhook token is rotated: the old one, accepted as well. */
  previousWebhookToken: string | null
  /** The pickup location's nickname in the panel (the warehouse parcels leave from and returns go to). */
  pickupLocation: string
  /** The Shiprocket channel orders are created in; unset: the account's custom channel. */
  channelId: string | null
  apiBase: string
  timeoutMs: number
}

export interface S3Config {
  bucket: string
  region: string
  /** An S3-compatible endpoint (MinIO, R2, …); unset: AWS. */
  endpoint: string | null
  accessKeyId: string
  secretAccessKey: string
  /** Where uploaded objects are read from (bucket website, CDN); unset: the bucket's own URL. */
  publicBaseUrl: string | null
  forcePathStyle: boolean
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`)
  }
}

type Env = Record<string, string | undefined>

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim()
  return value === '' ? undefined : value
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name)
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`)
  const value = Number(raw)
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`)
  return value
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = text(env, name) ?? fallback
  if (!(values as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${values.join(', ')}, got "${raw}"`)
  }
  return raw as T
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = text(env, name)
  if (raw === undefined) return undefined
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    throw new ConfigError(name, 'must be a URL')
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${parsed.protocol}"`)
  }
  return raw
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name)
  if (raw === undefined) return fallback
  if (['1', 'true', 'yes'].includes(raw)) return true
  if (['0', 'false', 'no'].includes(raw)) return false
  throw new ConfigError(name, `must be true or false, got "${raw}"`)
}

/** In development the signing secret is generated once and kept in DATA_DIR, so restarts keep sessions. */
function developmentSecret(dataDir: string): string {
  const file = join(dataDir, 'auth-secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(dataDir, { recursive: true })
  const secret = randomBytes(48).toString('base64url')
  writeFileSync(file, secret, { mode: 0o600 })
  return secret
}

function required(env: Env, name: string, why: string): string {
  const value = text(env, name)
  if (value === undefined) throw new ConfigError(name, `is required ${why}`)
  return value
}

function razorpayConfig(env: Env) {
  const why = 'when PAYMENT_PROVIDER=razorpay'
  return {
    keyId: required(env, 'RAZORPAY_KEY_ID', why),
    keySecret: required(env, 'RAZORPAY_KEY_SECRET', why),
    webhookSecret: required(env, 'RAZORPAY_WEBHOOK_SECRET', why),
    previousWebhookSecret: text(env, 'RAZORPAY_WEBHOOK_SECRET_PREVIOUS') ?? null,
    apiBase: (url(env, 'RAZORPAY_API_BASE', ['https:', 'http:']) ?? 'https://api.razorpay.com').replace(/\/+$/, ''),
    timeoutMs: integer(env, 'RAZORPAY_TIMEOUT_MS', 5000, 100, 60_000),
  }
}

export interface RazorpayXConfig {
  keyId: string
  keySecret: string
  accountNumber: string
  webhookSecret: string
  previousWebhookSecret: string | null
  apiBase: string
  timeoutMs: number
}

function razorpayxConfig(env: Env): RazorpayXConfig | null {
  const keyId = text(env, 'RAZORPAYX_KEY_ID')
  if (keyId === undefined) return null
  const why = 'when RAZORPAYX_KEY_ID is set'
  const accountNumber = required(env, 'RAZORPAYX_ACCOUNT_NUMBER', why)
  if (!/^\d{8,20}$/.test(accountNumber)) throw new ConfigError('RAZORPAYX_ACCOUNT_NUMBER', 'must be the RazorpayX account number (digits)')
  return {
    keyId,
    keySecret: required(env, 'RAZORPAYX_KEY_SECRET', why),
    accountNumber,
    webhookSecret: required(env, 'RAZORPAYX_WEBHOOK_SECRET', why),
    previousWebhookSecret: text(env, 'RAZORPAYX_WEBHOOK_SECRET_PREVIOUS') ?? null,
    apiBase: (url(env, 'RAZORPAYX_API_BASE', ['https:', 'http:']) ?? 'https://api.razorpay.com').replace(/\/+$/, ''),
    timeoutMs: integer(env, 'RAZORPAYX_TIMEOUT_MS', 5000, 100, 60_000),
  }
}

export interface DelhiveryConfig {
  /** The account's API token (Delhivery One panel > Settings > API setup), sent as `Authorization: Token …`. */
  apiToken: string
  /** The registered warehouse's name, exactly as in the panel: parcels leave from it and returns go to it. */
  pickupLocation: string
  /** That warehouse's pincode: the origin of rate quotes (Delhivery has no API to read a warehouse back). */
  pickupPincode: string
  /** The token Delhivery is asked to send with tracking pushes, as `Authorization: Bearer …`. */
  webhookToken: string
  /** While the webhook token is rotated: the old one, accepted as well. */
  previousWebhookToken: string | null
  apiBase: string
  timeoutMs: number
}

function delhiveryConfig(env: Env): DelhiveryConfig | null {
  const apiToken = text(env, 'DELHIVERY_API_TOKEN')
  if (apiToken === undefined) return null
  const why = 'when DELHIVERY_API_TOKEN is set'
  const pickupPincode = required(env, 'DELHIVERY_PICKUP_PINCODE', why)
  if (!/^[1-9]\d{5}$/.test(pickupPincode)) throw new ConfigError('DELHIVERY_PICKUP_PINCODE', `must be a 6-digit pincode, got "${pickupPincode}"`)
  return {
    apiToken,
    pickupLocation: required(env, 'DELHIVERY_PICKUP_LOCATION', why),
    pickupPincode,
    webhookToken: required(env, 'DELHIVERY_WEBHOOK_TOKEN', why),
    previousWebhookToken: text(env, 'DELHIVERY_WEBHOOK_TOKEN_PREVIOUS') ?? null,
    apiBase: (url(env, 'DELHIVERY_API_BASE', ['https:', 'http:']) ?? 'https://track.delhivery.com').replace(/\/+$/, ''),
    timeoutMs: integer(env, 'DELHIVERY_TIMEOUT_MS', 5000, 100, 60_000),
  }
}

function shiprocketConfig(env: Env): ShiprocketConfig | null {
  const email = text(env, 'SHIPROCKET_EMAIL')
  if (email === undefined) return null
  const why = 'when SHIPROCKET_EMAIL is set'
  const channelId = text(env, 'SHIPROCKET_CHANNEL_ID') ?? null
  if (channelId !== null && !/^\d{1,20}$/.test(channelId)) throw new ConfigError('SHIPROCKET_CHANNEL_ID', `must be a Shiprocket channel id (digits), got "${channelId}"`)
  return {
    email,
    password: required(env, 'SHIPROCKET_PASSWORD', why),
    webhookToken: required(env, 'SHIPROCKET_WEBHOOK_TOKEN', why),
    previousWebhookToken: text(env, 'SHIPROCKET_WEBHOOK_TOKEN_PREVIOUS') ?? null,
    pickupLocation: required(env, 'SHIPROCKET_PICKUP_LOCATION', why),
    channelId,
    apiBase: (url(env, 'SHIPROCKET_API_BASE', ['https:', 'http:']) ?? 'https://apiv2.shiprocket.in').replace(/\/+$/, ''),
    timeoutMs: integer(env, 'SHIPROCKET_TIMEOUT_MS', 5000, 100, 60_000),
  }
}

function s3Config(env: Env): S3Config {
  const why = 'when STORAGE_DRIVER=s3'
  return {
    bucket: required(env, 'S3_BUCKET', why),
    region: text(env, 'S3_REGION') ?? 'ap-south-1',
    endpoint: url(env, 'S3_ENDPOINT', ['https:', 'http:']) ?? null,
    accessKeyId: required(env, 'S3_ACCESS_KEY_ID', why),
    secretAccessKey: required(env, 'S3_SECRET_ACCESS_KEY', why),
    publicBaseUrl: (url(env, 'S3_PUBLIC_BASE_URL', ['https:', 'http:']) ?? null)?.replace(/\/+$/, '') ?? null,
    forcePathStyle: boolean(env, 'S3_FORCE_PATH_STYLE', false),
  }
}

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = oneOf(env, 'NODE_ENV', ['development', 'production', 'test'], 'development')
  const port = integer(env, 'PORT', 3000, 0, 65535)
  const dataDir = resolve(text(env, 'DATA_DIR') ?? './data')

  const authSecretRaw = text(env, 'AUTH_SECRET')
  if (authSecretRaw !== undefined && authSecretRaw.length < 32) {
    throw new ConfigError('AUTH_SECRET', 'must be at least 32 characters long')
  }
  if (authSecretRaw === undefined && nodeEnv === 'production') {
    throw new ConfigError('AUTH_SECRET', 'is required when NODE_ENV=production')
  }

  const publicBaseUrl = (url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(
    /\/+$/,
    '',
  )

  const cors = text(env, 'CORS_ORIGINS')
  const corsOrigins = cors === undefined ? null : cors === '*' ? '*' : cors.split(',').map((o) => o.trim())

  const workersRaw = text(env, 'WORKERS')
  const workers =
    workersRaw === 'auto'
      ? availableParallelism()
      : integer(env, 'WORKERS', nodeEnv === 'production' ? availableParallelism() : 1, 1, 256)

  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']) ?? null
  const databaseReadUrl = url(env, 'DATABASE_READ_URL', ['postgres:', 'postgresql:']) ?? null
  if (databaseReadUrl && !databaseUrl) throw new ConfigError('DATABASE_READ_URL', 'needs DATABASE_URL: the embedded database has no replicas')

  const storageDriver = oneOf(env, 'STORAGE_DRIVER', ['local', 's3'], 'local')
  const paymentProvider = oneOf(env, 'PAYMENT_PROVIDER', ['sandbox', 'razorpay'], 'sandbox')
  // The sandbox's checkout page lets whoever holds a session id mark the order paid: never by default
  // in production; a demo or a benchmark must say so explicitly.
  if (nodeEnv === 'production' && paymentProvider === 'sandbox' && !boolean(env, 'PAYMENT_SANDBOX_IN_PRODUCTION', false)) {
    throw new ConfigError(
      'PAYMENT_PROVIDER',
      'must name a real provider when NODE_ENV=production (the sandbox lets customers mark their own orders paid); set PAYMENT_SANDBOX_IN_PRODUCTION=true only for a demo',
    )
  }

  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 500, 300_000)
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 300_000, 1000, 3_600_000)
  if (headersTimeoutMs > requestTimeoutMs) throw new ConfigError('HEADERS_TIMEOUT_MS', `must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`)

  return {
    env: nodeEnv,
    port,
    host: text(env, 'HOST') ?? '0.0.0.0',
    dataDir,
    databaseUrl,
    databaseReadUrl,
    dbPoolSize: integer(env, 'DB_POOL_SIZE', 10, 1, 500),
    searchWorkerMinProducts: integer(env, 'SEARCH_WORKER_MIN_PRODUCTS', 10_000, 1, 100_000_000),
    catalogCache: {
      maxEntries: integer(env, 'CATALOG_CACHE_MAX_ENTRIES', 10_000, 1, 10_000_000),
      maxBytes: integer(env, 'CATALOG_CACHE_MAX_MB', 32, 1, 65_536) * 1024 * 1024,
    },
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']) ?? null,
    redisPrefix: text(env, 'REDIS_PREFIX') ?? 'commerce:',
    publicBaseUrl,
    authSecret: authSecretRaw ?? developmentSecret(dataDir),
    accessTokenTtlSeconds: integer(env, 'ACCESS_TOKEN_TTL_SECONDS', 900, 60, 86_400),
    refreshTokenTtlSeconds: integer(env, 'REFRESH_TOKEN_TTL_SECONDS', 30 * 86_400, 300, 365 * 86_400),
    adminTokenTtlSeconds: integer(env, 'ADMIN_TOKEN_TTL_SECONDS', 8 * 3600, 60, 86_400),
    partnerSecretOverlapSeconds: integer(env, 'PARTNER_SECRET_OVERLAP_SECONDS', 86_400, 0, 30 * 86_400),
    storageDriver,
    s3: storageDriver === 's3' ? s3Config(env) : null,
    paymentProvider,
    razorpay: paymentProvider === 'razorpay' ? razorpayConfig(env) : null,
    shiprocket: shiprocketConfig(env),
    delhivery: delhiveryConfig(env),
    reservationMinutes: integer(env, 'ORDER_RESERVATION_MINUTES', 30, 1, 7 * 24 * 60),
    maxUnpaidOrdersPerCustomer: integer(env, 'MAX_UNPAID_ORDERS_PER_CUSTOMER', 5, 1, 1000),
    jobIntervalMs: integer(env, 'JOB_INTERVAL_MS', 15_000, 100, 3_600_000),
    shippingSandbox: boolean(env, 'SHIPPING_SANDBOX', nodeEnv !== 'production'),
    courierRule: oneOf(env, 'SHIPPING_COURIER_RULE', ['RECOMMENDED', 'CHEAPEST', 'FASTEST'], 'RECOMMENDED'),
    razorpayx: razorpayxConfig(env),
    payoutSandbox: boolean(env, 'PAYOUT_SANDBOX', nodeEnv !== 'production'),
    payoutMaxAttempts: integer(env, 'PAYOUT_MAX_ATTEMPTS', 6, 1, 100),
    webhooks: {
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 5000, 100, 60_000),
      allowPrivateNetworks: boolean(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', nodeEnv !== 'production'),
      allowHttp: boolean(env, 'WEBHOOK_ALLOW_HTTP', nodeEnv !== 'production'),
      pollIntervalMs: integer(env, 'WEBHOOK_POLL_INTERVAL_MS', 1000, 50, 60_000),
    },
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    corsOrigins,
    rateLimit: {
      max: integer(env, 'RATE_LIMIT_MAX', 600, 1, 1_000_000),
      authMax: integer(env, 'RATE_LIMIT_AUTH_MAX', 30, 1, 1_000_000),
      uploadReadMax: integer(env, 'UPLOAD_READ_RATE_LIMIT_MAX', 600, 1, 1_000_000),
      windowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 1000, 86_400_000),
    },
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024, 16 * 1_048_576),
    timeouts: { headersMs: headersTimeoutMs, requestMs: requestTimeoutMs },
    workers,
    trustProxy: boolean(env, 'TRUST_PROXY', false),
  }
}
