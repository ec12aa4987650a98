// Building blocks of the schema-driven fuzzer (test/security/fuzz.test.ts): JSON Schema -> fast-check
// arbitraries for valid values, schema-aware mutations of a valid value (drop a required field, add
// an unknown one, wrong types, coercion traps, huge and nasty strings, boundaries), raw bodies that
// no serializer would write (deep nesting, prototype poisoning, broken JSON), and a checker of
// responses against the OpenAPI response schemas with Ajv.
import fc from 'fast-check'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

/** The subset of JSON Schema (as @fastify/swagger writes it into OpenAPI 3.1) the converter reads. */
export interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  items?: JsonSchema
  minItems?: number
  maxItems?: number
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  pattern?: string
  format?: string
  nullable?: boolean
  default?: unknown
  [keyword: string]: unknown
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Path = (string | number)[]

// ---------------------------------------------------------------------------------------------
// Interesting values
// ---------------------------------------------------------------------------------------------

/** Strings that break naive code: NUL (PostgreSQL refuses it in text), lone surrogates, LIKE and regex metacharacters, SQL, markup, control and bidi characters. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '   padded   ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\u202egnp.exe',
  '\uFEFFbom',
  '😀👍🏽👨‍👩‍👧',
  'ﷺ Ǆ ß İ',
  "' OR '1'='1' --",
  '"; drop table orders; --',
  '%',
  '%%',
  '_',
  '\\',
  '\\%_',
  '(?:a+)+$',
  '[',
  '*',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '..%2f..%2fetc',
  'null',
  'undefined',
  'NaN',
  'true',
  '0',
  '-1',
  '1e309',
  '9007199254740993',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'a'.repeat(201),
  '\r\n\t',
  'line1\nline2',
  'ＡＢＣ１２３',
  '२०२६',
  '٣٤٥',
  'javascript:alert(1)',
  'http://127.0.0.1:5432/',
  'file:///etc/passwd',
]

/** Values that lenient validators coerce into numbers or booleans. */
export const COERCION_TRAPS: readonly Json[] = [
  true, false, '', '1', '5', ' 5 ', '1e3', '0x10', '1.5', '-1', 'NaN', 'Infinity', 'null', 'true',
  1.5, -1, 0, -0, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e308, 1e-7, 0.1 + 0.2, 99999999999999.98,
  null, [1], [], {}, { valueOf: 1 } as unknown as Json,
]

const WRONG_TYPE_VALUES: readonly Json[] = [null, true, 0, -1, 1.5, 'text', '', [], [1, 2], {}, { a: 1 }, [[[]]]]

/** Property names a mass-assignment or prototype-pollution attempt would send. */
export const EXTRA_KEYS: readonly string[] = [
  'isAdmin', 'role', 'status', 'paymentStatus', 'totalAmount', 'unitPrice', 'discount', 'partnerId', 'userId',
  'tenantId', 'customerId', 'walletBalance', 'points', 'deletedAt', 'id', 'createdAt', '__proto__', 'constructor',
  'prototype', '', ' ', 'x'.repeat(300), '$where', 'a.b', 'a[b]',
]

// ---------------------------------------------------------------------------------------------
// Schema -> arbitrary
// ---------------------------------------------------------------------------------------------

export interface ArbitraryContext {
  /** A generator for a named property or parameter (known ids, semantic strings), else undefined. */
  hint?(name: string, schema: JsonSchema): fc.Arbitrary<unknown> | undefined
}

const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 })

function regexOf(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, 'u')
  } catch {
    return null
  }
}

function patternArbitrary(pattern: string): fc.Arbitrary<string> | null {
  const re = regexOf(pattern)
  if (!re) return null
  try {
    return fc.stringMatching(re)
  } catch {
    // fast-check does not do lookarounds: generate without them and keep what the full pattern accepts.
    const relaxed = regexOf(pattern.replace(/\(\?<?[!=][^)]*\)/g, ''))
    if (!relaxed) return null
    try {
      return fc.stringMatching(relaxed).filter((s) => re.test(s))
    } catch {
      return null
    }
  }
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0
  const max = schema.maxLength ?? 5000
  const re = schema.pattern ? regexOf(schema.pattern) : null
  const fits = (s: string) => s.length >= min && s.length <= max && (!re || re.test(s))
  const cap = Math.max(min, Math.min(max, 40))
  const nasty = NASTY_STRINGS.filter(fits)
  const withNasty = (main: fc.Arbitrary<string>, weight = 8) =>
    nasty.length ? fc.oneof({ arbitrary: main, weight }, { arbitrary: fc.constantFrom(...nasty), weight: 1 }) : main

  switch (schema.format) {
    case 'date-time':
      return fc
        .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString())
    case 'email':
      return fc.emailAddress().filter((s) => s.length <= max)
    case 'uri':
    case 'url':
      return fc.webUrl({ withQueryParameters: true, withFragments: true }).filter(fits)
  }
  if (schema.pattern) {
    const matching = patternArbitrary(schema.pattern)
    if (matching) return withNasty(matching.filter(fits), 20)
  }
  return withNasty(plainStrings(min, cap))
}

/**
 * Built once per length range: building fc.string with the grapheme and binary units maps every
 * code point (about 30 ms each time), which the per-route arbitraries used to do hundreds of times.
 */
const plainStringCache = new Map<string, fc.Arbitrary<string>>()
function plainStrings(min: number, max: number): fc.Arbitrary<string> {
  const key = `${min}:${max}`
  let arbitrary = plainStringCache.get(key)
  if (!arbitrary) {
    arbitrary = fc.oneof(
      { arbitrary: fc.string({ minLength: min, maxLength: max }), weight: 6 },
      { arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: max }), weight: 2 },
      { arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength: max }), weight: 1 },
    )
    plainStringCache.set(key, arbitrary)
  }
  return arbitrary
}

function integerArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  let min = schema.minimum ?? -1_000_000_000
  let max = schema.maximum ?? 1_000_000_000
  if (typeof schema.exclusiveMinimum === 'number') min = Math.floor(schema.exclusiveMinimum) + 1
  if (typeof schema.exclusiveMaximum === 'number') max = Math.ceil(schema.exclusiveMaximum) - 1
  const any =
    min >= -(2 ** 31) && max <= 2 ** 31 - 1
      ? fc.integer({ min, max })
      : fc.bigInt({ min: BigInt(Math.ceil(min)), max: BigInt(Math.floor(max)) }).map(Number)
  const small = fc.integer({ min: Math.max(min, -3), max: Math.min(max, Math.max(min, -3) + 10) })
  return fc.oneof({ arbitrary: any, weight: 4 }, { arbitrary: small, weight: 3 }, { arbitrary: fc.constantFrom(min, max), weight: 1 })
}

function numberArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1e9
  const max = schema.maximum ?? 1e9
  const cents = fc.integer({ min: Math.max(Math.ceil(min * 100), -(2 ** 31)), max: Math.min(Math.floor(max * 100), 2 ** 31 - 1) }).map((c) => c / 100)
  return fc.oneof(
    { arbitrary: integerArbitrary({ minimum: Math.ceil(min), maximum: Math.floor(max) }), weight: 3 },
    { arbitrary: cents, weight: 3 },
    { arbitrary: fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), weight: 1 },
  )
}

function branchesOf(schema: JsonSchema): JsonSchema[] | undefined {
  return schema.anyOf ?? schema.oneOf
}

/** Valid values for the schema (almost always; unions and formats are approximated). */
export function arbitraryOf(schema: JsonSchema, ctx: ArbitraryContext = {}, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const hinted = name !== undefined ? ctx.hint?.(name, schema) : undefined
  if (hinted) return hinted
  if (depth > 12) return fc.constant(null)
  const base = baseArbitrary(schema, ctx, name, depth)
  return schema.nullable && schema.enum === undefined ? fc.oneof({ arbitrary: base, weight: 4 }, { arbitrary: fc.constant(null), weight: 1 }) : base
}

function baseArbitrary(schema: JsonSchema, ctx: ArbitraryContext, name: string | undefined, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (schema.enum) return fc.constantFrom(...schema.enum)
  const branches = branchesOf(schema)
  if (branches?.length) return fc.oneof(...branches.map((b) => arbitraryOf(b, ctx, name, depth + 1)))
  if (schema.allOf?.length) return arbitraryOf(Object.assign({}, ...schema.allOf) as JsonSchema, ctx, name, depth + 1)
  const type = Array.isArray(schema.type) ? schema.type : [schema.type ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined)]
  if (type.length > 1) return fc.oneof(...type.map((t) => arbitraryOf({ ...schema, type: t }, ctx, name, depth)))
  switch (type[0]) {
    case 'string':
      return stringArbitrary(schema)
    case 'integer':
      return integerArbitrary(schema)
    case 'number':
      return numberArbitrary(schema)
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array': {
      const minLength = schema.minItems ?? 0
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 4, 4))
      return fc.array(schema.items ? arbitraryOf(schema.items, ctx, name ? `${name}[]` : undefined, depth + 1) : anyJson, { minLength, maxLength })
    }
    case 'object': {
      const properties = schema.properties ?? {}
      const keys = Object.keys(properties)
      if (keys.length === 0) return schema.additionalProperties === false ? fc.constant({}) : fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 })
      const model = Object.fromEntries(keys.map((k) => [k, arbitraryOf(properties[k]!, ctx, k, depth + 1)]))
      const required = (schema.required ?? []).filter((k) => k in properties)
      const full = fc.record(model, { requiredKeys: required })
      if (required.length === keys.length) return full
      // Each optional field is another chance to be rejected: also send the required ones alone.
      const minimal = fc.record(Object.fromEntries(required.map((k) => [k, model[k]!])))
      return fc.oneof({ arbitrary: full, weight: 2 }, { arbitrary: minimal, weight: 1 })
    }
    default:
      return anyJson
  }
}

// ---------------------------------------------------------------------------------------------
// Mutations of a valid value
// ---------------------------------------------------------------------------------------------

export const VALUE_MUTATIONS = [
  'drop-required',
  'unknown-field',
  'wrong-type',
  'coercion-trap',
  'null-value',
  'huge-string',
  'nasty-string',
  'insert-char',
  'boundary',
  'array-size',
] as const
export type ValueMutation = (typeof VALUE_MUTATIONS)[number]

interface Site {
  path: Path
  schema: JsonSchema
  value: unknown
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

function jsonType(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  return typeof v
}

/** The branch of a union that describes the value (by JSON type), or the schema itself. */
function resolve(schema: JsonSchema, value: unknown): JsonSchema {
  const branches = branchesOf(schema)
  if (!branches?.length) return schema
  const t = jsonType(value)
  const found = branches.find((b) => {
    const r = resolve(b, value)
    const types = Array.isArray(r.type) ? r.type : [r.type]
    return types.includes(t) || (t === 'integer' && types.includes('number')) || (r.enum?.includes(value as never) ?? false)
  })
  return found ? resolve(found, value) : branches[0]!
}

function schemaType(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type[0]
  return schema.type ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined)
}

function sitesOf(schema: JsonSchema, value: unknown, path: Path = [], out: Site[] = []): Site[] {
  const s = resolve(schema, value)
  out.push({ path, schema: s, value })
  if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) sitesOf(s.properties?.[k] ?? {}, v, [...path, k], out)
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => sitesOf(s.items ?? {}, v, [...path, i], out))
  }
  return out
}

/** Sets an own property even when it is called __proto__. */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value
  let node = root as Record<string | number, unknown>
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>
  const last = path[path.length - 1]!
  if (Array.isArray(node)) node[last as number] = value
  else defineOwn(node as Record<string, unknown>, String(last), value)
  return root
}

function getAt(root: unknown, path: Path): unknown {
  let node = root
  for (const key of path) node = (node as Record<string | number, unknown>)[key]
  return node
}

const pickOf = <T>(items: readonly T[], pick: number): T => items[pick % items.length]!

/** Applies one mutation to a copy of a valid value; `pick` chooses the site and the replacement. */
export function mutateValue(schema: JsonSchema, valid: unknown, kind: ValueMutation, pick: number): { value: unknown; note: string } {
  const root = valid === undefined ? undefined : JSON.parse(JSON.stringify(valid))
  const sites = root === undefined ? [] : sitesOf(schema, root)
  const where = (site: Site) => (site.path.length ? site.path.join('.') : '(root)')
  const objects = sites.filter((s) => isPlainObject(s.value))
  const leaves = sites.filter((s) => s.path.length > 0)
  const typed = (...types: string[]) => sites.filter((s) => types.includes(schemaType(s.schema) ?? jsonType(s.value)))
  const choose = (candidates: Site[]) => (candidates.length ? pickOf(candidates, pick) : null)
  const second = Math.floor(pick / 7919)

  switch (kind) {
    case 'drop-required': {
      const site = choose(objects.filter((s) => (s.schema.required ?? []).some((k) => k in (s.value as object))))
      if (!site) break
      const key = pickOf((site.schema.required ?? []).filter((k) => k in (site.value as object)), second)
      delete (getAt(root, site.path) as Record<string, unknown>)[key]
      return { value: root, note: `drop required ${[...site.path, key].join('.')}` }
    }
    case 'unknown-field': {
      const site = choose(objects)
      if (!site) break
      const key = pickOf(EXTRA_KEYS, second)
      const value = pickOf(WRONG_TYPE_VALUES, pick)
      defineOwn(getAt(root, site.path) as Record<string, unknown>, key, key === '__proto__' || key === 'constructor' ? { isAdmin: true, prototype: { x: 1 } } : value)
      return { value: root, note: `unknown field ${[...site.path, key].join('.')}` }
    }
    case 'wrong-type': {
      const site = choose(leaves.length ? leaves : sites)
      if (!site) break
      const current = jsonType(site.value)
      const options = WRONG_TYPE_VALUES.filter((v) => jsonType(v) !== current && !(current === 'integer' && jsonType(v) === 'number'))
      const value = pickOf(options, second)
      return { value: setAt(root, site.path, value), note: `wrong type at ${where(site)}: ${JSON.stringify(value)}` }
    }
    case 'coercion-trap': {
      const site = choose(typed('integer', 'number', 'boolean')) ?? choose(leaves)
      if (!site) break
      const value = pickOf(COERCION_TRAPS, second)
      return { value: setAt(root, site.path, value), note: `coercion trap at ${where(site)}: ${JSON.stringify(value)}` }
    }
    case 'null-value': {
      const site = choose(leaves)
      if (!site) break
      return { value: setAt(root, site.path, null), note: `null at ${where(site)}` }
    }
    case 'huge-string': {
      const site = choose(typed('string')) ?? choose(leaves)
      if (!site) break
      const sizes = [5001, 20_000, 200_000]
      const unit = pickOf(['a', 'é', '😀', '\u0000', '%'], second)
      const value = unit.repeat(Math.ceil(pickOf(sizes, second) / unit.length))
      return { value: setAt(root, site.path, value), note: `huge string (${value.length} x ${JSON.stringify(unit)}) at ${where(site)}` }
    }
    case 'nasty-string': {
      const site = choose(typed('string')) ?? choose(leaves)
      if (!site) break
      const value = pickOf(NASTY_STRINGS, second)
      return { value: setAt(root, site.path, value), note: `nasty string at ${where(site)}: ${JSON.stringify(value)}` }
    }
    case 'insert-char': {
      // One odd character inside an otherwise valid string: lengths and most patterns still hold.
      const site = choose(typed('string').filter((s) => typeof s.value === 'string' && s.value.length > 0)) ?? choose(typed('string'))
      if (!site) break
      const text = String(site.value ?? '')
      const char = pickOf(['\u0000', '\u0000', '\ud800', '\u202e', '\u0007', '\uffff', '\u2028', '\\', '"', "'", '%', '\n'], second)
      const at = text.length ? second % (text.length + 1) : 0
      const value = text.slice(0, at) + char + text.slice(at)
      return { value: setAt(root, site.path, value), note: `${JSON.stringify(char)} inserted at ${where(site)}: ${JSON.stringify(value).slice(0, 60)}` }
    }
    case 'boundary': {
      const site = choose(sites.filter((s) => ['integer', 'number', 'string'].includes(schemaType(s.schema) ?? '')))
      if (!site) break
      const s = site.schema
      let options: Json[]
      if (schemaType(s) === 'string') {
        options = [
          ...(s.maxLength !== undefined ? ['a'.repeat(s.maxLength), 'a'.repeat(s.maxLength + 1), '😀'.repeat(s.maxLength)] : []),
          ...(s.minLength !== undefined && s.minLength > 0 ? ['a'.repeat(s.minLength - 1), ' '.repeat(s.minLength)] : ['']),
        ]
      } else {
        const min = s.minimum ?? -(2 ** 31)
        const max = s.maximum ?? 2 ** 31
        options = [min - 1, min, max, max + 1, min - 0.5, max + 0.5, -0, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e21]
      }
      const value = pickOf(options, second)
      return { value: setAt(root, site.path, value), note: `boundary at ${where(site)}: ${JSON.stringify(value)?.slice(0, 40)}` }
    }
    case 'array-size': {
      const site = choose(sites.filter((s) => Array.isArray(s.value) || schemaType(s.schema) === 'array'))
      if (!site) break
      const items = Array.isArray(site.value) ? site.value : []
      const filler = items[0] ?? 'x'
      const options = [[], Array.from({ length: (site.schema.maxItems ?? 200) + 1 }, () => filler), Array.from({ length: 10_000 }, (_, i) => i), [...items, ...items]]
      const value = pickOf(options, second)
      return { value: setAt(root, site.path, value), note: `array of ${value.length} at ${where(site)}` }
    }
  }
  // Nothing of that kind in this value: add an unknown property, or replace the root.
  if (isPlainObject(root)) {
    defineOwn(root, 'unexpected', pickOf(WRONG_TYPE_VALUES, pick))
    return { value: root, note: `${kind} n/a: unknown field unexpected` }
  }
  return { value: pickOf(WRONG_TYPE_VALUES, pick), note: `${kind} n/a: root replaced` }
}

// ---------------------------------------------------------------------------------------------
// Raw bodies
// ---------------------------------------------------------------------------------------------

export interface RawBody {
  note: string
  payload: string | Buffer
  contentType: string | null
}

const deepArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
const deepObjects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)

export const RAW_BODY_KINDS = [
  'deep-array-10k',
  'deep-object-10k',
  'deep-array-100k',
  'deep-in-valid',
  'proto-root',
  'proto-in-valid',
  'proto-nested-deep',
  'constructor-prototype-root',
  'constructor-prototype-in-valid',
  'empty-json',
  'whitespace-json',
  'invalid-json',
  'non-object-json',
  'duplicate-keys',
  'bom',
  'utf16',
  'wrong-content-type',
  'no-content-type',
  'too-large',
  'many-keys',
] as const
export type RawBodyKind = (typeof RAW_BODY_KINDS)[number]

const INVALID_JSON = ['{', '}', '{"a":}', '{"a":1,}', "{'a':1}", '{"a":NaN}', '{"a":Infinity}', '{"a":01}', 'nul', '[1,2', '{"a":"\\x41"}', '{"a":"\\ud800"}', '\u0000', '{"a":1}{"b":2}', '// c\n{}', '{"a":1e99999}', '"\\u0000"', '{"a" 1}']
const NON_OBJECT_JSON = ['[]', '[{}]', '"text"', '1', '-0', 'null', 'true', '1e309', '""', '[null]']
const CONTENT_TYPES = [
  'text/plain',
  'text/csv',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'application/json;charset=latin1',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'application/vnd.api+json',
  'application/jsonx',
  'json',
  'image/png',
]

/** A raw body built around a valid value (or on its own); the caller's valid value is JSON-able. */
export function rawBody(kind: RawBodyKind, valid: unknown, pick: number, bodyLimit: number): RawBody {
  const json = JSON.stringify(valid ?? {})
  const isObject = isPlainObject(valid)
  const withKey = (key: string, valueText: string) => (isObject && json !== '{}' ? `{"${key}":${valueText},${json.slice(1)}` : `{"${key}":${valueText}}`)
  const ct = 'application/json'
  switch (kind) {
    case 'deep-array-10k':
      return { note: 'arrays nested 10,000 deep', payload: deepArrays(10_000), contentType: ct }
    case 'deep-object-10k':
      return { note: 'objects nested 10,000 deep', payload: deepObjects(10_000), contentType: ct }
    case 'deep-array-100k':
      return { note: 'arrays nested 100,000 deep', payload: deepArrays(100_000), contentType: ct }
    case 'deep-in-valid': {
      const key = isObject ? pickOf([...Object.keys(valid as object), 'extra'], pick) : 'extra'
      const nested = pick % 2 ? deepArrays(10_000) : deepObjects(10_000)
      const rest = isObject ? Object.fromEntries(Object.entries(valid as object).filter(([k]) => k !== key)) : {}
      const restJson = JSON.stringify(rest)
      return { note: `${key} nested 10,000 deep inside a valid body`, payload: restJson === '{}' ? `{"${key}":${nested}}` : `{"${key}":${nested},${restJson.slice(1)}`, contentType: ct }
    }
    case 'proto-root':
      return { note: '{"__proto__":…}', payload: pickOf(['{"__proto__":{"x":1}}', '{"__proto__":{"isAdmin":true}}', '{"__proto__":null}', '{"\\u005f_proto__":{"x":1}}'], pick), contentType: ct }
    case 'proto-in-valid':
      return { note: '__proto__ beside valid fields', payload: withKey('__proto__', '{"isAdmin":true,"status":"PAID"}'), contentType: ct }
    case 'proto-nested-deep':
      return { note: '__proto__ 500 levels deep', payload: '{"a":'.repeat(500) + '{"__proto__":{"x":1}}' + '}'.repeat(500), contentType: ct }
    case 'constructor-prototype-root':
      return { note: '{"constructor":{"prototype":…}}', payload: '{"constructor":{"prototype":{"isAdmin":true}}}', contentType: ct }
    case 'constructor-prototype-in-valid':
      return { note: 'constructor.prototype beside valid fields', payload: withKey('constructor', '{"prototype":{"isAdmin":true}}'), contentType: ct }
    case 'empty-json':
      return { note: 'empty body, JSON content type', payload: '', contentType: ct }
    case 'whitespace-json':
      return { note: 'whitespace body, JSON content type', payload: pickOf([' ', '\n', '\t\r\n '], pick), contentType: ct }
    case 'invalid-json':
      return { note: 'invalid JSON', payload: pickOf(INVALID_JSON, pick), contentType: ct }
    case 'non-object-json':
      return { note: 'JSON that is not an object', payload: pickOf(NON_OBJECT_JSON, pick), contentType: ct }
    case 'duplicate-keys': {
      const key = isObject ? pickOf([...Object.keys(valid as object), 'x'], pick) : 'x'
      return { note: `duplicate key ${key}`, payload: withKey(key, pickOf(['null', '"x"', '{}', '[1]', '-1'], pick)), contentType: ct }
    }
    case 'bom':
      return { note: 'UTF-8 BOM before valid JSON', payload: `\uFEFF${json}`, contentType: ct }
    case 'utf16':
      return { note: 'valid JSON in UTF-16LE', payload: Buffer.from(json, 'utf16le'), contentType: pickOf(['application/json', 'application/json; charset=utf-16le'], pick) }
    case 'wrong-content-type':
      return { note: 'valid JSON under another content type', payload: json, contentType: pickOf(CONTENT_TYPES, pick) }
    case 'no-content-type':
      return { note: 'valid JSON with no content type', payload: json, contentType: null }
    case 'many-keys': {
      const n = pickOf([1000, 10_000], pick)
      const keys = Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')
      return { note: `${n} unknown keys beside valid fields`, payload: isObject && json !== '{}' ? `{${keys},${json.slice(1)}` : `{${keys}}`, contentType: ct }
    }
    case 'too-large':
      return { note: `body of ${bodyLimit + 1000} bytes`, payload: withKey('padding', JSON.stringify('a'.repeat(bodyLimit + 1000))), contentType: ct }
  }
}

// ---------------------------------------------------------------------------------------------
// Response checks
// ---------------------------------------------------------------------------------------------

/** The error body every error leaves as (src/http/error-handler.ts). */
export const ERROR_BODY_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['statusCode', 'message', 'timestamp', 'path'],
  additionalProperties: false,
  properties: {
    statusCode: { type: 'integer', minimum: 400, maximum: 599 },
    message: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    error: { type: 'string' },
    timestamp: { type: 'string', format: 'date-time' },
    path: { type: 'string' },
  },
}

export interface OpenApiResponse {
  description?: string
  content?: Record<string, { schema?: JsonSchema }>
}

const STACK_TRACE = /\n\s+at .+:\d+:\d+|node_modules\/|\/src\/.+\.ts/

export class ResponseChecker {
  private readonly ajv: Ajv
  private readonly compiled = new WeakMap<object, ValidateFunction>()
  private readonly errorBody: ValidateFunction

  constructor() {
    this.ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true })
    addFormats(this.ajv)
    this.errorBody = this.ajv.compile(ERROR_BODY_SCHEMA)
  }

  private validator(schema: JsonSchema): ValidateFunction {
    // Every error answer of the document refers to the one error body component (src/http/openapi.ts).
    if (schema.$ref === '#/components/schemas/ErrorBody') return this.errorBody
    let fn = this.compiled.get(schema)
    if (!fn) {
      fn = this.ajv.compile(schema)
      this.compiled.set(schema, fn)
    }
    return fn
  }

  /**
   * What is wrong with a response, or null. `declared` are the route's OpenAPI responses;
   * a status it declares with a JSON schema must match it, an undeclared error status must be the
   * error body, an undeclared success status is a finding of its own.
   */
  problem(declared: Record<string, OpenApiResponse>, status: number, contentType: string | undefined, text: string, requestPath: string | null): string | null {
    if (status >= 500) return `status ${status}`
    if (STACK_TRACE.test(text)) return 'stack trace or source path in the body'
    const response = declared[String(status)]
    const schema = response?.content?.['application/json']?.schema
    const isJson = /^application\/json\b/.test(contentType ?? '')
    if (!response && status < 400) return `status ${status} is not declared`
    if (response && !schema) return status >= 400 && !isJson ? `error ${status} is not JSON (${contentType})` : null
    // A success the route also declares in another content type (the pick list as a PDF): that one, whole.
    const otherType = !isJson && status < 400 ? Object.keys(response?.content ?? {}).find((type) => type !== 'application/json' && (contentType ?? '').startsWith(type)) : undefined
    if (otherType) return otherType === 'application/pdf' && !text.startsWith('%PDF-') ? 'a PDF answer that does not start with %PDF-' : null
    if (!isJson) return `content-type ${contentType} where JSON is declared`
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return 'body is not valid JSON'
    }
    const validate = schema ? this.validator(schema) : this.errorBody
    if (!validate(body)) {
      const e = validate.errors?.[0]
      return `body does not match the ${schema ? 'declared' : 'error body'} schema for ${status}: ${e?.instancePath || '(root)'} ${e?.message}${e?.params ? ` ${JSON.stringify(e.params)}` : ''}`
    }
    const b = body as { statusCode?: unknown; path?: unknown }
    if (b.statusCode !== undefined && b.statusCode !== status) return `body statusCode ${String(b.statusCode)} but HTTP status ${status}`
    if (status >= 400 && requestPath !== null && typeof b.path === 'string' && b.path !== requestPath) return `error path ${JSON.stringify(b.path)} but request path ${JSON.stringify(requestPath)}`
    return null
  }
}
