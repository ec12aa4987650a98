// What in a new OpenAPI document breaks a client written (or generated) against an older one
// (decision 0042). `breakingChanges(base, head)` compares every operation and webhook of `base`
// with `head`'s, in the direction data flows:
//
//   what the client sends (parameters, request bodies): head must accept everything base accepted.
//     Errors: an operation or a query parameter removed, a parameter or body property newly
//     required or removed (the server refuses unknown fields), a type narrowed, an enum value
//     removed, a limit tightened (length, range, item count), a pattern or format added or changed.
//   what the client reads (responses, webhook payloads): head may send only what base promised.
//     Errors: a success status or media type removed, a required property removed or made optional,
//     a type widened (null included). Warnings: an optional property removed, an enum value added.
//
// Annotations (descriptions, summaries, examples, tags) never break a client and are not compared.
export interface Finding {
  level: 'error' | 'warning'
  /** Where: `POST /api/v1/orders request body .items[].quantity`. */
  where: string
  message: string
}

type Json = Record<string, unknown>
type Direction = 'request' | 'response'

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const

export function breakingChanges(base: Json, head: Json): Finding[] {
  const out: Finding[] = []
  const b = new Doc(base)
  const h = new Doc(head)
  const headOps = new Map<string, { path: string; method: string; op: Json }>()
  for (const o of h.operations()) headOps.set(`${o.method} ${templateOf(o.path)}`, o)
  for (const o of b.operations()) {
    const where = `${o.method.toUpperCase()} ${o.path}`
    const other = headOps.get(`${o.method} ${templateOf(o.path)}`)
    if (!other) {
      out.push({ level: 'error', where, message: 'the operation was removed' })
      continue
    }
    compareOperation(b, h, o.op, other.op, where, out)
  }
  const headHooks = (head.webhooks ?? {}) as Record<string, Json>
  for (const [name, item] of Object.entries((base.webhooks ?? {}) as Record<string, Json>)) {
    const where = `webhook ${name}`
    const other = headHooks[name]
    const op = item.post as Json | undefined
    if (!op) continue
    if (!other?.post) {
      out.push({ level: 'error', where, message: 'the webhook was removed' })
      continue
    }
    compareContent(b, h, bodyContent(op), bodyContent(other.post as Json), `${where} payload`, 'response', out)
  }
  return out
}

/** `/orders/{orderId}/items/{id}` -> `/orders/{}/items/{}`: renaming a path parameter breaks nothing. */
const templateOf = (path: string) => path.replace(/\{[^}]*\}/g, '{}')

function compareOperation(b: Doc, h: Doc, base: Json, head: Json, where: string, out: Finding[]) {
  if (base.operationId !== undefined && head.operationId !== base.operationId) {
    out.push({ level: 'error', where, message: `operationId changed from ${String(base.operationId)} to ${String(head.operationId)} (a generated client's method name)` })
  }
  // Dropping authentication breaks no client; adding it to an open operation does.
  if (isEmpty(base.security) && !isEmpty(head.security)) out.push({ level: 'error', where, message: 'the operation now requires authentication' })
  compareParameters(b, h, base, head, where, out)
  compareRequestBody(b, h, base, head, where, out)
  const baseResponses = (base.responses ?? {}) as Record<string, Json>
  const headResponses = (head.responses ?? {}) as Record<string, Json>
  for (const [status, response] of Object.entries(baseResponses)) {
    const other = headResponses[status]
    const at = `${where} ${status}`
    if (!other) {
      out.push({ level: status.startsWith('2') ? 'error' : 'warning', where: at, message: 'the response status was removed' })
      continue
    }
    compareContent(b, h, (b.resolve(response).content ?? {}) as Record<string, Json>, (h.resolve(other).content ?? {}) as Record<string, Json>, at, 'response', out)
  }
  for (const status of Object.keys(headResponses)) {
    if (status.startsWith('2') && !baseResponses[status]) out.push({ level: 'warning', where: `${where} ${status}`, message: 'a new success status' })
  }
}

function compareParameters(b: Doc, h: Doc, base: Json, head: Json, where: string, out: Finding[]) {
  const key = (p: Json) => `${String(p.in)} ${String(p.in === 'header' ? String(p.name).toLowerCase() : p.name)}`
  const baseParams = new Map(((base.parameters ?? []) as Json[]).map((p) => b.resolve(p)).map((p) => [key(p), p]))
  const headParams = new Map(((head.parameters ?? []) as Json[]).map((p) => h.resolve(p)).map((p) => [key(p), p]))
  for (const [k, p] of baseParams) {
    const other = headParams.get(k)
    const at = `${where} ${k}`
    if (!other) {
      // Path parameters are matched by position (templateOf); an unknown query parameter is a 400.
      if (p.in === 'query') out.push({ level: 'error', where: at, message: 'the query parameter was removed (the server refuses unknown ones)' })
      continue
    }
    if (p.required !== true && other.required === true) out.push({ level: 'error', where: at, message: 'the parameter became required' })
    compareSchema(b, h, p.schema as Json | undefined, other.schema as Json | undefined, at, 'request', out)
  }
  for (const [k, p] of headParams) {
    if (!baseParams.has(k) && p.required === true && p.in !== 'path') out.push({ level: 'error', where: `${where} ${k}`, message: 'a new required parameter' })
  }
}

function compareRequestBody(b: Doc, h: Doc, base: Json, head: Json, where: string, out: Finding[]) {
  const baseBody = base.requestBody ? b.resolve(base.requestBody as Json) : undefined
  const headBody = head.requestBody ? h.resolve(head.requestBody as Json) : undefined
  const at = `${where} request body`
  if (!baseBody) {
    if (headBody?.required === true) out.push({ level: 'error', where: at, message: 'a request body is now required' })
    return
  }
  if (!headBody) {
    out.push({ level: 'error', where: at, message: 'the request body is no longer accepted' })
    return
  }
  if (baseBody.required !== true && headBody.required === true) out.push({ level: 'error', where: at, message: 'the request body became required' })
  const baseContent = (baseBody.content ?? {}) as Record<string, Json>
  const headContent = (headBody.content ?? {}) as Record<string, Json>
  for (const [type, media] of Object.entries(baseContent)) {
    const other = headContent[type]
    if (!other) out.push({ level: 'error', where: `${at} ${type}`, message: 'the media type is no longer accepted' })
    else compareSchema(b, h, media.schema as Json | undefined, other.schema as Json | undefined, at, 'request', out)
  }
}

const bodyContent = (op: Json) => ((op.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>

function compareContent(b: Doc, h: Doc, base: Record<string, Json>, head: Record<string, Json>, where: string, dir: Direction, out: Finding[]) {
  for (const [type, media] of Object.entries(base)) {
    const other = head[type]
    if (!other) out.push({ level: 'error', where: `${where} ${type}`, message: 'the media type is no longer sent' })
    else compareSchema(b, h, media.schema as Json | undefined, other.schema as Json | undefined, where, dir, out)
  }
}

/** The JSON types a schema admits (null included); undefined: anything. */
function typesOf(doc: Doc, schema: Json): Set<string> | undefined {
  const s = doc.resolve(schema)
  if (Array.isArray(s.type)) return new Set(s.type as string[])
  if (typeof s.type === 'string') return new Set(s.nullable === true ? [s.type, 'null'] : [s.type])
  const values = s.enum ?? ('const' in s ? [s.const] : undefined)
  if (Array.isArray(values)) return new Set(values.map(jsonType))
  const alternatives = (s.anyOf ?? s.oneOf) as Json[] | undefined
  if (alternatives) {
    const all = new Set<string>()
    for (const a of alternatives) {
      const t = typesOf(doc, a)
      if (!t) return undefined
      for (const x of t) all.add(x)
    }
    return all
  }
  return undefined
}

const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v)

/** `integer` is a `number`: a request that accepts numbers accepts integers. */
const admits = (types: Set<string>, t: string) => types.has(t) || (t === 'integer' && types.has('number'))

/** The one non-null alternative of `anyOf: [X, {type: null}]` (how TypeBox writes a nullable X), or the schema itself. */
function unwrapNullable(doc: Doc, schema: Json): Json {
  const s = doc.resolve(schema)
  const alternatives = (s.anyOf ?? s.oneOf) as Json[] | undefined
  if (!alternatives) return s
  const rest = alternatives.filter((a) => doc.resolve(a).type !== 'null')
  return rest.length === 1 ? doc.resolve(rest[0]!) : s
}

function compareSchema(b: Doc, h: Doc, baseSchema: Json | undefined, headSchema: Json | undefined, where: string, dir: Direction, out: Finding[]) {
  if (!baseSchema || !headSchema) return
  const baseTypes = typesOf(b, baseSchema)
  const headTypes = typesOf(h, headSchema)
  if (baseTypes && !headTypes && dir === 'response') out.push({ level: 'error', where, message: 'the type is no longer stated' })
  if (baseTypes && headTypes) {
    const [from, to] = dir === 'request' ? [baseTypes, headTypes] : [headTypes, baseTypes]
    const lost = [...from].filter((t) => !admits(to, t))
    if (lost.length > 0) {
      out.push({ level: 'error', where, message: dir === 'request' ? `no longer accepts ${lost.join(', ')}` : `may now be ${lost.join(', ')}` })
      return
    }
  }
  const base = unwrapNullable(b, baseSchema)
  const head = unwrapNullable(h, headSchema)
  compareEnum(base, head, where, dir, out)
  if (dir === 'request') compareLimits(base, head, where, out)
  const baseProps = base.properties as Record<string, Json> | undefined
  const headProps = head.properties as Record<string, Json> | undefined
  if (baseProps && headProps) compareObject(b, h, base, head, where, dir, out)
  else if (baseProps && !headProps && (typesOf(h, head)?.has('object') ?? false) && dir === 'response') {
    out.push({ level: 'error', where, message: 'the object no longer lists its properties' })
  }
  if (base.items && head.items) compareSchema(b, h, base.items as Json, head.items as Json, `${where}[]`, dir, out)
  const baseExtra = base.additionalProperties
  const headExtra = head.additionalProperties
  if (isObject(baseExtra) && isObject(headExtra)) compareSchema(b, h, baseExtra, headExtra, `${where}{}`, dir, out)
  if (dir === 'request' && baseExtra !== false && baseExtra !== undefined && headExtra === false) {
    out.push({ level: 'error', where, message: 'no longer accepts properties it did not name' })
  }
}

function compareEnum(base: Json, head: Json, where: string, dir: Direction, out: Finding[]) {
  const values = (s: Json) => (Array.isArray(s.enum) ? (s.enum as unknown[]) : 'const' in s ? [s.const] : undefined)
  const from = values(base)
  const to = values(head)
  if (dir === 'request') {
    if (!from) {
      if (to) out.push({ level: 'error', where, message: `now accepts only ${to.map(String).join(', ')}` })
      return
    }
    if (!to) return
    const removed = from.filter((v) => !to.includes(v))
    if (removed.length > 0) out.push({ level: 'error', where, message: `no longer accepts ${removed.map(String).join(', ')}` })
  } else if (from && to) {
    const added = to.filter((v) => !from.includes(v))
    if (added.length > 0) out.push({ level: 'warning', where, message: `may now be ${added.map(String).join(', ')} (a new value a client may not know)` })
  } else if (from && !to) {
    out.push({ level: 'warning', where, message: 'no longer limited to its listed values' })
  }
}

/** Request limits: each may stay or loosen, never tighten. */
function compareLimits(base: Json, head: Json, where: string, out: Finding[]) {
  const lower = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'] as const
  const upper = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'] as const
  for (const k of lower) {
    const from = base[k] as number | undefined
    const to = head[k] as number | undefined
    if (to !== undefined && (from === undefined || to > from)) out.push({ level: 'error', where, message: `${k} raised from ${from ?? 'none'} to ${to}` })
  }
  for (const k of upper) {
    const from = base[k] as number | undefined
    const to = head[k] as number | undefined
    if (to !== undefined && (from === undefined || to < from)) out.push({ level: 'error', where, message: `${k} lowered from ${from ?? 'none'} to ${to}` })
  }
  for (const k of ['pattern', 'format'] as const) {
    if (head[k] !== undefined && head[k] !== base[k]) out.push({ level: 'error', where, message: `${k} ${base[k] === undefined ? 'added' : 'changed'}: ${String(head[k])}` })
  }
  if (base.uniqueItems !== true && head.uniqueItems === true) out.push({ level: 'error', where, message: 'items must now be unique' })
}

function compareObject(b: Doc, h: Doc, base: Json, head: Json, where: string, dir: Direction, out: Finding[]) {
  const baseProps = base.properties as Record<string, Json>
  const headProps = head.properties as Record<string, Json>
  const baseRequired = new Set((base.required ?? []) as string[])
  const headRequired = new Set((head.required ?? []) as string[])
  for (const [name, schema] of Object.entries(baseProps)) {
    const at = `${where}.${name}`
    const other = headProps[name]
    if (dir === 'request') {
      if (!other) {
        if (head.additionalProperties === false || head.additionalProperties === undefined) out.push({ level: 'error', where: at, message: 'the property is no longer accepted' })
        continue
      }
      if (!baseRequired.has(name) && headRequired.has(name)) out.push({ level: 'error', where: at, message: 'the property became required' })
    } else {
      if (!other) {
        out.push({ level: baseRequired.has(name) ? 'error' : 'warning', where: at, message: 'the property is no longer sent' })
        continue
      }
      if (baseRequired.has(name) && !headRequired.has(name)) out.push({ level: 'error', where: at, message: 'the property is no longer always sent' })
    }
    compareSchema(b, h, schema, other, at, dir, out)
  }
  if (dir === 'request') {
    for (const name of headRequired) if (!baseProps[name]) out.push({ level: 'error', where: `${where}.${name}`, message: 'a new required property' })
  }
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const isEmpty = (v: unknown) => v === undefined || (Array.isArray(v) && v.length === 0)

class Doc {
  readonly #doc: Json
  constructor(doc: Json) {
    this.#doc = doc
  }

  *operations(): Generator<{ path: string; method: string; op: Json }> {
    for (const [path, item] of Object.entries((this.#doc.paths ?? {}) as Record<string, Json>)) {
      for (const method of METHODS) if (item[method]) yield { path, method, op: item[method] as Json }
    }
  }

  /** Follows local `$ref`s (`#/components/...`). */
  resolve(node: Json): Json {
    let current = node
    for (let hops = 0; typeof current.$ref === 'string' && hops < 20; hops++) {
      const ref = current.$ref as string
      if (!ref.startsWith('#/')) return current
      let target: unknown = this.#doc
      for (const part of ref.slice(2).split('/')) target = (target as Json | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')]
      if (!isObject(target)) return current
      current = target
    }
    return current
  }
}

/**
 * The document as the repository keeps it (openapi/v1.json): what a client depends on, without the
 * annotations that change with every wording fix (descriptions, summaries, examples, tags, the
 * servers of the machine that built it). A property *named* like an annotation is kept.
 */
export function contractOf(document: Json): Json {
  const ANNOTATIONS = new Set(['description', 'summary', 'examples', 'example', 'x-message', 'tags', 'servers', 'externalDocs'])
  const strip = (node: unknown, namesAreData: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => strip(n, false))
    if (!isObject(node)) return node
    const out: Json = {}
    for (const key of Object.keys(node).sort()) {
      if (!namesAreData && ANNOTATIONS.has(key)) continue
      // Under these keys the names are a document's own (properties, paths, statuses, webhooks...).
      out[key] = strip(node[key], key === 'properties' || key === 'paths' || key === 'webhooks' || key === 'responses' || key === 'content' || key === 'schemas' || key === 'headers' || key === 'securitySchemes')
    }
    return out
  }
  return strip(document, false) as Json
}

/** Where the repository keeps the published contract (written by `npm run sdk:generate`). */
export const CONTRACT_FILE = new URL('../openapi/v1.json', import.meta.url)
export const CONTRACT_PATH = 'openapi/v1.json'

/** The contract file's text for a document: sorted keys, one space of indent (1.9 MB, diffable). */
export const contractText = (document: Json) => `${JSON.stringify(contractOf(document), null, 1)}\n`
