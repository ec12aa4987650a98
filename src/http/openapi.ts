// What the OpenAPI document says that @fastify/swagger would not say by itself from the routes'
// schemas, and why (decisions 0023 and 0026). Only the document changes: the routes match, validate
// and answer as before (the route schemas are never modified; the document is a copy).
import { STATUS_CODES } from 'node:http'
import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger'
import type { FastifySchema } from 'fastify'
import { CONDITIONAL_GET } from './conditional-get.ts'
import { ErrorBody } from './envelope.ts'

/** The document's name for a route's trailing wildcard (`/uploads/*`): `{*}` is no valid path parameter. */
export const WILDCARD_PARAM = 'path'

/** The name of the error body in `components.schemas`: every error answer of every operation refers to it. */
export const ERROR_BODY_COMPONENT = 'ErrorBody'

const wildcardParams = {
  type: 'object',
  properties: { [WILDCARD_PARAM]: { type: 'string', description: 'The rest of the path, slashes included' } },
  required: [WILDCARD_PARAM],
}

type Security = Record<string, string[]>[]
type Credential = 'public' | 'apiKey' | 'customer' | 'partner' | 'admin'

/** Which guard a route's `security` stands for (src/http/schemas.ts `security`). */
function credentialOf(security: Security | undefined): Credential {
  const schemes = new Set((security ?? []).flatMap((requirement) => Object.keys(requirement)))
  if (schemes.size === 0) return 'public'
  if (schemes.has('apiKey')) return 'apiKey'
  if (schemes.has('partnerSecret')) return 'partner'
  if (schemes.has('partnerId')) return 'customer'
  return 'admin'
}

const BODY_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE']

/**
 * The error statuses a route can answer whatever its service does, from what every request passes
 * through before its handler (error-handler.ts maps each to the error body):
 * - 400: its params, query, headers or body fail their schema, the JSON is malformed, or (customer
 *   and partner routes) the x-partner-id header is missing;
 * - 401: a route with a credential, when it is missing or wrong; 403: a back-office route, for a role
 *   it does not allow, and a customer's route, for a customer the merchant blocked;
 * - 404: a route with path parameters, when the thing named does not exist (or is not the caller's);
 * - 413 and 415: a route with a body, or of a method that may carry one, too large or not of a type it takes;
 * - 429: every route but the load balancer's probes (`config.rateLimit: false`);
 * - 500 (an unexpected failure) and 503 (the database unreachable or busy, or the server shutting
 *   down; with Retry-After): every route.
 * The statuses that come from a service's own rules (409, a BUSINESS_RULE 400) stay declared by the
 * route itself, next to its schema.
 */
export function guardErrorStatuses(schema: FastifySchema, credential: Credential, rateLimited: boolean, methods: string[] = []): number[] {
  const hasInput = Boolean(schema.body || schema.querystring || schema.params || schema.headers)
  const statuses = new Set<number>([500, 503])
  if (hasInput || credential === 'customer' || credential === 'partner') statuses.add(400)
  if (credential !== 'public') statuses.add(401)
  if (credential === 'admin' || credential === 'customer') statuses.add(403)
  if (schema.params) statuses.add(404)
  // Fastify reads a body sent with any method that may carry one, before the route's own rules:
  // a bodiless POST or DELETE still answers 413 or 415 to a body that is too large or not JSON.
  if (schema.body || methods.some((m) => BODY_METHODS.includes(m))) for (const status of [413, 415]) statuses.add(status)
  if (rateLimited) statuses.add(429)
  return [...statuses]
}

/**
 * Per route:
 * - a trailing `*` is documented as the path parameter `{path}`: @fastify/swagger would write `{*}`
 *   with a parameter named `*`, which OpenAPI tools refuse or turn into unusable names;
 * - the error statuses of its guard and inputs (guardErrorStatuses) are added to the ones it
 *   declares, each with the error body. Only the document gets them: a status added to the route's
 *   own response schema would change how Fastify serializes that route's answers.
 */
export const documentRoute: SwaggerTransform = ({ schema, url, route }) => {
  if (!schema || (schema as { hide?: boolean }).hide) return { schema, url }
  // Parameters a querystring schema cannot name (an open set: the product list's option filters),
  // declared by the route as `documentedParameters` and added to its operation by finishDocument.
  const extra = (schema as { documentedParameters?: Operation['parameters'] }).documentedParameters
  const operationId = (schema as { operationId?: string }).operationId
  if (extra && operationId) extraParameters.set(operationId, extra)
  const wildcard = url.endsWith('*')
  const documented: FastifySchema = wildcard ? { ...schema, params: wildcardParams } : { ...schema }
  // A body that no JSON schema validates (the bytes of an upload, a CSV), declared by the route as
  // `documentedBody` (content type -> schema) for the document only.
  const documentedBody = (schema as { documentedBody?: Record<string, unknown> }).documentedBody
  if (documentedBody && !documented.body) documented.body = { content: Object.fromEntries(Object.entries(documentedBody).map(([type, body]) => [type, { schema: body }])) }
  const declared = (schema.response ?? {}) as Record<string, unknown>
  const rateLimited = (route.config as { rateLimit?: unknown } | undefined)?.rateLimit !== false
  const methods = [route.method].flat().map(String)
  const added = guardErrorStatuses(documented, credentialOf((schema as { security?: Security }).security), rateLimited, methods).filter((s) => !(String(s) in declared))
  // A route that declares no answer at all (an HTML page, a stored file) keeps the 200 that
  // @fastify/swagger writes for it, now that its error statuses are listed.
  // Its content types are the route's `documentedAnswer` (an HTML page, an image), its body a string.
  const answerTypes = (schema as { documentedAnswer?: string[] }).documentedAnswer
  const page = answerTypes ? { content: Object.fromEntries(answerTypes.map((type) => [type, { schema: { type: 'string', ...(type.startsWith('text/') ? {} : { format: 'binary' }) } }])) } : { type: 'null' }
  const success = Object.keys(declared).some((status) => /^[23]/.test(status)) ? {} : { 200: { ...page, description: 'Success: the page or file itself, not JSON' } }
  // A conditional GET (conditional-get.ts) answers 304 with no body while the If-None-Match tag matches.
  const notModified = route.config && (route.config as Record<string, unknown>)[CONDITIONAL_GET] ? { 304: { type: 'null', description: 'Not Modified: the If-None-Match tag is still current; no body' } } : {}
  documented.response = { ...success, ...notModified, ...declared, ...Object.fromEntries(added.map((s) => [s, ErrorBody])) }

  return { url: wildcard ? `${url.slice(0, -1)}:${WILDCARD_PARAM}` : url, schema: documented }
}

const extraParameters = new Map<string, NonNullable<Operation['parameters']>>()

type Json = Record<string, unknown>
interface MediaType {
  schema?: Json
  example?: unknown
}
interface Operation {
  operationId?: string
  security?: Security
  parameters?: { in: string; name?: string; required?: boolean; schema?: Json; description?: string; style?: string; explode?: boolean }[]
  requestBody?: { content?: Record<string, MediaType> }
  responses?: Record<string, { description?: string; content?: Record<string, MediaType>; headers?: Record<string, unknown> }>
}

/**
 * The response headers the server sends, in `components.headers`, and which answers carry them:
 * - the rate limit's three (@fastify/rate-limit, rate-limit.ts) on every answer of a rate-limited
 *   operation (one that lists 429), and Retry-After on its 429;
 * - Retry-After on every 503 (error-handler.ts);
 * - ETag on the 200 of a conditional GET (one that lists 304), with If-None-Match as a parameter;
 * - idempotent-replayed on the success of an operation keyed by x-idempotency-key (a replay).
 */
const HEADERS: Record<string, { description: string; schema: Json }> = {
  RateLimitLimit: { description: 'Requests allowed in the current window', schema: { type: 'integer' } },
  RateLimitRemaining: { description: 'Requests left in the current window', schema: { type: 'integer' } },
  RateLimitReset: { description: 'Seconds until the window starts again', schema: { type: 'integer' } },
  RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  ETag: { description: 'A weak tag of this exact answer: send it as If-None-Match to get 304 while nothing changed', schema: { type: 'string' } },
  IdempotentReplayed: { description: '"true" when this is the stored answer to an earlier request with the same x-idempotency-key (a retry)', schema: { type: 'string', enum: ['true'] } },
}
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` })
const RATE_LIMIT_HEADERS = { 'x-ratelimit-limit': headerRef('RateLimitLimit'), 'x-ratelimit-remaining': headerRef('RateLimitRemaining'), 'x-ratelimit-reset': headerRef('RateLimitReset') }

function documentHeaders(operation: Operation): void {
  const responses = operation.responses ?? {}
  const limited = '429' in responses
  const conditional = '304' in responses
  const keyed = (operation.parameters ?? []).some((p) => p.in === 'header' && p.name === 'x-idempotency-key')
  if (conditional) {
    operation.parameters = [
      ...(operation.parameters ?? []),
      { in: 'header', name: 'if-none-match', required: false, schema: { type: 'string' }, description: 'The ETag of an earlier answer: 304 with no body while it is still current' },
    ]
  }
  for (const [status, response] of Object.entries(responses)) {
    const headers: Record<string, unknown> = { ...(limited ? RATE_LIMIT_HEADERS : {}) }
    if (status === '429' || status === '503') headers['retry-after'] = headerRef('RetryAfter')
    if (conditional && (status === '200' || status === '304')) headers.etag = headerRef('ETag')
    if (keyed && /^2/.test(status)) headers['idempotent-replayed'] = headerRef('IdempotentReplayed')
    if (Object.keys(headers).length > 0) response.headers = { ...response.headers, ...headers }
  }
}

/** An example message per status, as the error handler words it (the guards', Ajv's, PostgreSQL's). */
const ERROR_MESSAGES: Record<string, (credential: Credential, hasBody: boolean) => string | string[]> = {
  400: (c, hasBody) =>
    hasBody ? ['property unknownField should not exist'] : c === 'customer' || c === 'partner' ? 'x-partner-id header is required' : 'Invalid identifier or value',
  401: (c) => (c === 'apiKey' ? 'Missing x-api-key header' : c === 'partner' ? 'Missing x-partner-secret header' : 'Missing bearer token'),
  403: (c) => (c === 'admin' ? 'Your role does not allow this action' : CUSTOMER_BLOCKED),
  404: () => 'Not found',
  409: () => 'Concurrent update, please retry',
  413: () => 'Request body is too large',
  429: () => 'Too many requests, retry in 1 minute',
  500: () => 'Internal server error',
  503: () => 'Service temporarily unavailable, please retry',
}

/** The customer guard's and the token routes' answer to a customer the merchant blocked (auth module). */
const CUSTOMER_BLOCKED = 'This customer is blocked: contact the merchant'
/** A customer's operations, and the routes that issue a customer's tokens, refuse a blocked customer with 403. */
const refusesBlockedCustomer = (credential: Credential, path: string) => credential === 'customer' || path.startsWith('/api/v1/auth/')

const ERROR_DESCRIPTIONS: Record<string, string> = {
  400: 'The request is not valid: a field, a parameter, the JSON, a required header, or a business rule (message says which)',
  401: 'The credential is missing, wrong or expired',
  403: 'The back-office role does not allow this',
  404: 'Not found, or not the caller’s',
  409: 'Conflicts with the current state (stock, a state move, an idempotency key in use): read again and decide',
  413: 'The request body is too large',
  415: 'The body is not of a content type the operation takes (the message names them)',
  422: 'The request cannot be processed',
  429: 'Rate limited: wait for Retry-After seconds',
  500: 'An unexpected failure',
  503: 'The service is briefly unavailable: retry after Retry-After seconds',
}

/** Same shape, the title that marks it: @fastify/swagger inlines the route schemas it is given. */
const isErrorBody = (schema: Json | undefined) => schema?.title === (ErrorBody as { title?: string }).title

/**
 * The whole document, once built (OpenAPI 3.1, whose schemas are JSON Schema 2020-12, so the
 * routes' `examples` annotations are valid as they are):
 * - the partner events (`webhooks`, from the events module, passed in by app.ts);
 * - the error body is one component, `ErrorBody`, referred to by every error answer, each with a
 *   description of its status and an example of the body;
 * - every JSON request body and answer carries an `example`: the schema's own top-level `examples`
 *   when it has one, otherwise one built from its fields' annotations (exampleOf).
 */
export const finishDocument =
  (extra: { webhooks?: Record<string, unknown> } = {}): SwaggerTransformObject =>
  (documentObject) => {
    if (!('openapiObject' in documentObject)) return documentObject.swaggerObject
    const document = structuredClone(documentObject.openapiObject) as Json & { paths?: Record<string, Record<string, Operation>>; components?: Json }
    const components = (document.components ??= {}) as { schemas?: Json; headers?: Json }
    components.schemas = { ...components.schemas, [ERROR_BODY_COMPONENT]: JSON.parse(JSON.stringify(ErrorBody)) }
    components.headers = structuredClone(HEADERS)
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const operation of Object.values(item)) {
        if (typeof operation !== 'object' || !operation || !('responses' in operation)) continue
        documentOperation(operation, path)
      }
    }
    if (extra.webhooks) {
      document.webhooks = structuredClone(extra.webhooks)
      for (const item of Object.values(document.webhooks as Record<string, Record<string, Operation>>)) {
        for (const operation of Object.values(item)) documentOperation(operation, '')
      }
    }
    return document as never
  }

function documentOperation(operation: Operation, path: string): void {
  const credential = credentialOf(operation.security)
  const extra = operation.operationId ? extraParameters.get(operation.operationId) : undefined
  if (extra) operation.parameters = [...(operation.parameters ?? []), ...structuredClone(extra)]
  documentHeaders(operation)
  // What the caller may leave out: Fastify's Ajv fills a field or parameter that has a `default`
  // (useDefaults) before the required check, so a generated client must not demand it.
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== 'path' && parameter.required && parameter.schema && 'default' in parameter.schema) parameter.required = false
  }
  for (const media of Object.values(operation.requestBody?.content ?? {})) {
    if (media.schema) defaultsNotRequired(media.schema)
    if (media.schema && media.example === undefined) media.example = exampleOf(media.schema)
  }
  for (const response of Object.values(operation.responses ?? {})) {
    // A route that `produces` a PDF or a CSV as well as JSON: @fastify/swagger lists every type, with
    // the JSON schema, under every status. Errors are always the JSON error body; a PDF or CSV is bytes.
    for (const [type, media] of Object.entries(response.content ?? {})) {
      if (type.includes('json')) continue
      if (isErrorBody(media.schema)) delete response.content![type]
      else if (media.schema?.type !== 'string') response.content![type] = { schema: { type: 'string', ...(type.startsWith('text/') ? {} : { format: 'binary' }) } }
    }
  }
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    for (const [type, media] of Object.entries(response.content ?? {})) {
      if (isErrorBody(media.schema)) {
        const statusCode = Number(status)
        response.content![type] = {
          schema: { $ref: `#/components/schemas/${ERROR_BODY_COMPONENT}` },
          example: {
            statusCode,
            message:
              status === '403' && refusesBlockedCustomer(credential, path)
                ? CUSTOMER_BLOCKED
                : status === '415'
                ? `Unsupported content type: send ${Object.keys(operation.requestBody?.content ?? { 'application/json': 1 }).join(', ')}`
                : (ERROR_MESSAGES[status] ?? (() => STATUS_CODES[statusCode] ?? 'Error'))(credential, operation.requestBody !== undefined),
            error: STATUS_CODES[statusCode] ?? 'Error',
            timestamp: EXAMPLE_TIME,
            path,
          },
        }
        if (!response.description || response.description === 'Default Response') {
          response.description = (status === '403' && refusesBlockedCustomer(credential, path) ? 'The merchant blocked this customer' : ERROR_DESCRIPTIONS[status]) ?? STATUS_CODES[statusCode] ?? 'Error'
        }
      } else if (media.schema && media.example === undefined && type.includes('json')) {
        media.example = exampleOf(media.schema)
        // The envelope repeats the status: {statusCode: 201, message, data}.
        const example = media.example as Json | null
        if (example && typeof example === 'object' && typeof example.statusCode === 'number') example.statusCode = Number(status)
      }
    }
  }
}

function defaultsNotRequired(schema: Json): void {
  const properties = schema.properties as Record<string, Json> | undefined
  if (properties && Array.isArray(schema.required)) {
    schema.required = (schema.required as string[]).filter((name) => !(properties[name] && 'default' in properties[name]))
    if ((schema.required as string[]).length === 0) delete schema.required
  }
  for (const value of [...Object.values(properties ?? {}), schema.items, ...((schema.anyOf ?? []) as Json[]), ...((schema.oneOf ?? []) as Json[])]) {
    if (value && typeof value === 'object') defaultsNotRequired(value as Json)
  }
}

const EXAMPLE_TIME = '2026-11-23T04:30:00.000Z'
const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': EXAMPLE_TIME,
  date: '2026-11-23',
  email: 'asha@example.com',
  uri: 'https://partner.example/orders/return',
  url: 'https://partner.example/orders/return',
  uuid: '3f0c2b9e-8d1a-4e57-9b3c-2a6f4d8e1c07',
}

/**
 * An example value of a schema, from its annotations: its first `examples`, else its `const`,
 * `default` or first `enum` value; an object gets its required fields and those of its optional
 * ones that carry an example; an array one item; a union its first branch that is not null; a bare
 * string a value of its format, or its description's subject, within its length. The test of the
 * document checks that every example it writes is valid against its own schema, so a field whose
 * pattern no placeholder meets needs an `examples` annotation (Pincode, IndianMobile…).
 */
export function exampleOf(schema: Json, depth = 0): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
  if ('const' in schema) return schema.const
  if ('default' in schema) return schema.default
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  const union = (schema.anyOf ?? schema.oneOf) as Json[] | undefined
  if (Array.isArray(union) && union.length > 0) {
    const branch = union.find((s) => s.type !== 'null') ?? union[0]!
    return exampleOf(branch, depth + 1)
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : (schema.type as string | undefined)
  if (depth > 12) return null
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Json>
      const required = new Set((schema.required ?? []) as string[])
      const entries = Object.entries(properties).filter(([name, property]) => required.has(name) || hasOwnExample(property))
      return Object.fromEntries(entries.map(([name, property]) => [name, exampleOf(property, depth + 1)]))
    }
    case 'array': {
      const count = Math.max(1, Number(schema.minItems ?? 1))
      const item = schema.items && typeof schema.items === 'object' ? exampleOf(schema.items as Json, depth + 1) : null
      return Array.from({ length: count }, () => item)
    }
    case 'integer':
    case 'number': {
      const minimum = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined
      const maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined
      const value = minimum !== undefined ? Math.max(minimum, 1) : 1
      return maximum !== undefined ? Math.min(value, maximum) : value
    }
    case 'boolean':
      return true
    case 'null':
      return null
    case 'string': {
      const format = typeof schema.format === 'string' ? FORMAT_EXAMPLES[schema.format] : undefined
      if (format) return format
      const min = Number(schema.minLength ?? 0)
      const max = Number(schema.maxLength ?? 40)
      const text = 'string'.padEnd(min, 'x')
      return text.slice(0, Math.max(min, Math.min(max, text.length)))
    }
    default:
      return null
  }
}

const hasOwnExample = (schema: Json) => (Array.isArray(schema.examples) && schema.examples.length > 0) || 'const' in schema
