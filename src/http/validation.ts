// Request validation, set up once for every route. Bodies are validated strictly: no type coercion
// (so `true` or "" never become numbers), unknown properties rejected at every depth, every failed
// rule reported. Query strings and path params are coerced, since they arrive as text; a query
// string is closed too (an unknown parameter is a 400, `property foo should not exist`), so no
// parameter a route did not declare can ever reach a handler (a spread filter once let
// `?userId=&partnerId=` widen a customer's list to every partner's).
// Ajv's errors are then worded as class-validator words them, because partners already parse that.
import type { ErrorObject } from 'ajv'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

/** Strings and arrays without an explicit bound get one, so huge inputs fail fast and cheaply. */
const DEFAULT_MAX_STRING = 5000
const DEFAULT_MAX_ITEMS = 200

function newAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    verbose: true,
    strict: false,
  })
  addFormats(ajv)
  refuseYearZero(ajv)
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' })
  return ajv
}

/**
 * ISO 8601 has a year 0000; PostgreSQL's dates and timestamps do not (a query with one failed with
 * a 500). `date` and `date-time` also refuse it, so such a value is a 400 on every route.
 */
function refuseYearZero(ajv: Ajv) {
  for (const name of ['date', 'date-time']) {
    const base = ajv.formats[name] as ((s: string) => boolean) | { validate: (s: string) => boolean; compare?: (a: string, b: string) => number | undefined }
    const check = typeof base === 'function' ? base : base.validate
    const compare = typeof base === 'function' ? undefined : base.compare
    ajv.addFormat(name, { type: 'string', validate: (value: string) => !value.startsWith('0000') && check(value), ...(compare ? { compare } : {}) })
  }
}

const bodyAjv = newAjv(false)
const paramAjv = newAjv('array')

type JsonSchema = Record<string, unknown>

/** Closes every object schema (additionalProperties: false) and bounds every string and array. */
function hardenBodySchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(hardenBodySchema)
  if (schema === null || typeof schema !== 'object') return schema
  const out: JsonSchema = {}
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    out[key] = key === 'properties' || key === '$defs' || key === 'definitions'
      ? Object.fromEntries(Object.entries(value as JsonSchema).map(([k, v]) => [k, hardenBodySchema(v)]))
      : hardenBodySchema(value)
  }
  if (out.type === 'object' && out.additionalProperties === undefined) out.additionalProperties = false
  if (out.type === 'string' && out.maxLength === undefined && out.enum === undefined && out.const === undefined) {
    out.maxLength = DEFAULT_MAX_STRING
  }
  if (out.type === 'array' && out.maxItems === undefined) out.maxItems = DEFAULT_MAX_ITEMS
  return out
}

/** A query string or path params schema, closed at its top level (their values are scalars or arrays). */
function closeTopLevel(schema: unknown): JsonSchema {
  const s = schema as JsonSchema
  return s.type === 'object' && s.additionalProperties === undefined ? { ...s, additionalProperties: false } : s
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (httpPart === 'body') return bodyAjv.compile(hardenBodySchema(schema) as JsonSchema)
  if (httpPart === 'querystring') return paramAjv.compile(closeTopLevel(schema))
  return paramAjv.compile(schema as JsonSchema)
}

/** The query string of a route that declares none: no parameter at all. */
export const NO_QUERY = { type: 'object', properties: {}, additionalProperties: false } as const

const TYPE_WORDS: Record<string, string> = {
  string: 'must be a string',
  integer: 'must be an integer number',
  number: 'must be a number conforming to the specified constraints',
  boolean: 'must be a boolean value',
  array: 'must be an array',
  object: 'must be an object',
  null: 'must be null',
}

const FORMAT_WORDS: Record<string, string> = {
  email: 'must be an email',
  uri: 'must be a URL address',
  url: 'must be a URL address',
  'date-time': 'must be a valid ISO 8601 date string',
  date: 'must be a valid ISO 8601 date string',
  uuid: 'must be a UUID',
}

function propertyPath(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').filter(Boolean).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (child !== undefined) parts.push(child)
  return parts.join('.')
}

function describe(error: ErrorObject, subject: string): string | null {
  const params = error.params as Record<string, unknown>
  const custom = (error.parentSchema as JsonSchema | undefined)?.['x-message']
  switch (error.keyword) {
    case 'required':
      return `${propertyPath(error.instancePath, String(params.missingProperty))} should not be empty`
    case 'additionalProperties': {
      // class-validator's wording for nested objects: "items.0.property foo should not exist".
      const parent = propertyPath(error.instancePath)
      return `${parent ? `${parent}.` : ''}property ${String(params.additionalProperty)} should not exist`
    }
    case 'type': {
      const type = Array.isArray(params.type) ? String(params.type[0]) : String(params.type)
      return `${subject} ${TYPE_WORDS[type] ?? `must be ${type}`}`
    }
    case 'minLength':
      return params.limit === 1
        ? `${subject} should not be empty`
        : `${subject} must be longer than or equal to ${params.limit} characters`
    case 'maxLength':
      return `${subject} must be shorter than or equal to ${params.limit} characters`
    case 'minimum':
    case 'exclusiveMinimum':
      return `${subject} must not be less than ${params.limit}`
    case 'maximum':
    case 'exclusiveMaximum':
      return `${subject} must not be greater than ${params.limit}`
    case 'minItems':
      return `${subject} must contain at least ${params.limit} elements`
    case 'maxItems':
      return `${subject} must contain no more than ${params.limit} elements`
    case 'uniqueItems':
      return `All ${subject}'s elements must be unique`
    case 'enum':
      return `${subject} must be one of the following values: ${(params.allowedValues as unknown[]).join(', ')}`
    case 'const':
      return `${subject} must be equal to ${String(params.allowedValue)}`
    case 'format':
      return `${subject} ${typeof custom === 'string' ? custom : (FORMAT_WORDS[String(params.format)] ?? `must be a valid ${params.format}`)}`
    case 'pattern':
      return `${subject} ${typeof custom === 'string' ? custom : `must match ${params.pattern} regular expression`}`
    case 'anyOf':
    case 'oneOf':
      return typeof custom === 'string' ? `${subject} ${custom}` : `${subject} has an invalid value`
    default:
      return `${subject} is invalid`
  }
}

/**
 * One message per failed rule. Errors inside an anyOf/oneOf branch are noise (each branch reports
 * its own failure); the union's own error, worded by its `x-message`, stands for them.
 */
/** A body with thousands of broken fields gets the first ones: enough to fix, and linear time. */
export const MAX_VALIDATION_MESSAGES = 20

export function validationMessages(errors: ErrorObject[], part: string): string[] {
  const unionPaths = [...new Set(errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.schemaPath))]
  const messages = new Set<string>()
  for (const error of errors) {
    if (messages.size >= MAX_VALIDATION_MESSAGES) break
    const insideUnion = unionPaths.some((p) => error.schemaPath !== p && error.schemaPath.startsWith(`${p}/`))
    if (insideUnion) continue
    const subject = propertyPath(error.instancePath) || part
    const missingHeader = part === 'headers' && error.keyword === 'required'
    const message = missingHeader ? `${String((error.params as { missingProperty?: unknown }).missingProperty)} header is required` : describe(error, subject)
    if (message) messages.add(message)
  }
  return [...messages]
}
