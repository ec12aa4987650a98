// The s3 storage driver: presigned PUT addresses to any S3-compatible store (AWS, MinIO, R2, …).
// AWS Signature Version 4, written out with node:crypto (no SDK):
// - uploads: a query-presigned PUT; content-type and content-length are signed headers, so the
//   store refuses any other type or size; the payload itself is UNSIGNED-PAYLOAD;
// - stat: a HEAD signed in the Authorization header.
// The signing helpers are pure (the clock is an argument) and reproduce AWS's published examples.
import { createHash, createHmac } from 'node:crypto'
import type { S3Config } from '../../config.ts'
import type { Storage } from './storage.ts'

export const ALGORITHM = 'AWS4-HMAC-SHA256'
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD'
/** SHA-256 of the empty string: the payload hash of a GET or HEAD. */
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
/** The longest validity SigV4 allows a presigned URL: 7 days. */
export const MAX_EXPIRES_SECONDS = 604_800
const STAT_TIMEOUT_MS = 5_000

export interface SigningCredentials {
  accessKeyId: string
  secretAccessKey: string
  region: string
  /** 's3' unless told. */
  service?: string
}

export interface SignableRequest {
  method: string
  /** 'https:' or 'http:'. */
  protocol: string
  /** Exactly as the client sends it in the Host header: the port only when not the default. */
  host: string
  /** The canonical (already URI-encoded) path, starting with '/'. */
  path: string
  /** Query parameters besides the X-Amz-* ones, unencoded. */
  query?: Record<string, string>
  /** Headers to sign besides host; the client must send exactly these values. */
  headers?: Record<string, string>
}

/** AWS's URI encoding: every byte but A-Z a-z 0-9 - . _ ~ as %XY (upper-case hex); '/' too unless keepSlash. */
export function uriEncode(value: string, keepSlash = false): string {
  let out = ''
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte)
    if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) out += c
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

/** 20130524T000000Z */
export const amzDate = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '')

const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex')
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest()

function canonicalQuery(query: Record<string, string>): string {
  return Object.entries(query)
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&')
}

/** Lower-case names, trimmed values with inner runs of spaces collapsed, sorted by name. */
function canonicalHeaders(headers: Record<string, string>) {
  const entries = Object.entries(headers)
    .map(([name, value]) => [name.toLowerCase(), value.trim().replace(/\s+/g, ' ')] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return {
    block: entries.map(([name, value]) => `${name}:${value}\n`).join(''),
    signedHeaders: entries.map(([name]) => name).join(';'),
  }
}

function signature(credentials: SigningCredentials, date: Date, canonicalRequest: string) {
  const day = amzDate(date).slice(0, 8)
  const scope = `${day}/${credentials.region}/${credentials.service ?? 's3'}/aws4_request`
  const stringToSign = [ALGORITHM, amzDate(date), scope, sha256Hex(canonicalRequest)].join('\n')
  let key = hmac(`AWS4${credentials.secretAccessKey}`, day)
  key = hmac(key, credentials.region)
  key = hmac(key, credentials.service ?? 's3')
  key = hmac(key, 'aws4_request')
  return createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex')
}

const credentialOf = (credentials: SigningCredentials, date: Date) =>
  `${credentials.accessKeyId}/${amzDate(date).slice(0, 8)}/${credentials.region}/${credentials.service ?? 's3'}/aws4_request`

/**
 * A query-presigned URL (SigV4, UNSIGNED-PAYLOAD), valid `expiresSeconds` from `date`. The client
 * must send `request.headers` with exactly the signed values.
 */
export function presignUrl(request: SignableRequest, credentials: SigningCredentials, date: Date, expiresSeconds: number): string {
  if (!Number.isInteger(expiresSeconds) || expiresSeconds < 1 || expiresSeconds > MAX_EXPIRES_SECONDS) {
    throw new RangeError(`A presigned URL must be valid for 1 to ${MAX_EXPIRES_SECONDS} seconds, got ${expiresSeconds}`)
  }
  const headers = canonicalHeaders({ ...request.headers, host: request.host })
  const query = canonicalQuery({
    ...request.query,
    'X-Amz-Algorithm': ALGORITHM,
    'X-Amz-Credential': credentialOf(credentials, date),
    'X-Amz-Date': amzDate(date),
    'X-Amz-Expires': String(expiresSeconds),
    'X-Amz-SignedHeaders': headers.signedHeaders,
  })
  const canonicalRequest = [request.method, request.path, query, headers.block, headers.signedHeaders, UNSIGNED_PAYLOAD].join('\n')
  const sig = signature(credentials, date, canonicalRequest)
  return `${request.protocol}//${request.host}${request.path}?${query}&X-Amz-Signature=${sig}`
}

/**
 * The headers that sign a request in the Authorization header: authorization, x-amz-date and
 * x-amz-content-sha256 (send them along with `request.headers`; Host comes from the URL).
 */
export function signHeaders(
  request: SignableRequest,
  credentials: SigningCredentials,
  date: Date,
  payloadHash: string = EMPTY_SHA256,
): { authorization: string; 'x-amz-date': string; 'x-amz-content-sha256': string } {
  const amz = { 'x-amz-date': amzDate(date), 'x-amz-content-sha256': payloadHash }
  const headers = canonicalHeaders({ ...request.headers, ...amz, host: request.host })
  const canonicalRequest = [request.method, request.path, canonicalQuery(request.query ?? {}), headers.block, headers.signedHeaders, payloadHash].join('\n')
  const sig = signature(credentials, date, canonicalRequest)
  return {
    authorization: `${ALGORITHM} Credential=${credentialOf(credentials, date)},SignedHeaders=${headers.signedHeaders},Signature=${sig}`,
    ...amz,
  }
}

/** Where an object lives: protocol, Host and canonical path (keys encoded per segment, '/' kept). */
export function objectLocation(config: Pick<S3Config, 'bucket' | 'region' | 'endpoint' | 'forcePathStyle'>, objectName: string) {
  const segments = objectName.split('/')
  // A client would resolve '.' and '..' before sending, and the signature would no longer match.
  if (objectName === '' || segments.some((s) => s === '.' || s === '..')) throw new Error(`Bad object name "${objectName}"`)
  const key = segments.map((s) => uriEncode(s)).join('/')
  const bucket = uriEncode(config.bucket)
  if (!config.endpoint) {
    const regional = `s3.${config.region}.amazonaws.com`
    return config.forcePathStyle
      ? { protocol: 'https:', host: regional, path: `/${bucket}/${key}` }
      : { protocol: 'https:', host: `${config.bucket}.${regional}`, path: `/${key}` }
  }
  const endpoint = new URL(config.endpoint)
  const base = endpoint.pathname.replace(/\/+$/, '')
  return config.forcePathStyle
    ? { protocol: endpoint.protocol, host: endpoint.host, path: `${base}/${bucket}/${key}` }
    : { protocol: endpoint.protocol, host: `${config.bucket}.${endpoint.host}`, path: `${base}/${key}` }
}

export function createS3Storage(config: S3Config, options: { now?: () => Date; timeoutMs?: number } = {}): Storage {
  const now = options.now ?? (() => new Date())
  const timeoutMs = options.timeoutMs ?? STAT_TIMEOUT_MS
  const credentials: SigningCredentials = { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey, region: config.region }
  const urlOf = (location: { protocol: string; host: string; path: string }) => `${location.protocol}//${location.host}${location.path}`
  const publicBase = config.publicBaseUrl?.replace(/\/+$/, '') ?? null

  return {
    driver: 's3',
    uploadOrigin: (({ protocol, host }) => `${protocol}//${host}`)(objectLocation(config, 'origin')),
    async signUpload(target) {
      const date = now()
      const expiresSeconds = Math.floor((target.expiresAt.getTime() - date.getTime()) / 1000)
      const headers = { 'Content-Type': target.contentType, 'Content-Length': String(target.sizeBytes) }
      const uploadUrl = presignUrl({ method: 'PUT', ...objectLocation(config, target.objectName), headers }, credentials, date, expiresSeconds)
      return { uploadUrl, headers }
    },
    publicUrl(objectName) {
      const location = objectLocation(config, objectName)
      if (!publicBase) return urlOf(location)
      return `${publicBase}/${objectName.split('/').map((s) => uriEncode(s)).join('/')}`
    },
    async stat(objectName) {
      const location = objectLocation(config, objectName)
      const what = `S3 HEAD ${config.bucket}/${objectName}`
      let response: Response
      try {
        response = await fetch(urlOf(location), {
          method: 'HEAD',
          headers: signHeaders({ method: 'HEAD', ...location }, credentials, now()),
          signal: AbortSignal.timeout(timeoutMs),
        })
      } catch (error) {
        const timedOut = error instanceof Error && error.name === 'TimeoutError'
        const detail = timedOut ? `timed out after ${timeoutMs} ms` : `failed (${error instanceof Error ? error.message : String(error)})`
        throw new Error(`${what} ${detail}`, { cause: error })
      }
      await response.body?.cancel()
      if (response.status === 404 || response.status === 403) return null
      if (response.status !== 200) throw new Error(`${what} answered ${response.status}`)
      const size = Number(response.headers.get('content-length'))
      if (response.headers.get('content-length') === null || !Number.isSafeInteger(size) || size < 0) {
        throw new Error(`${what} answered without a usable content-length`)
      }
      return { size }
    },
  }
}
