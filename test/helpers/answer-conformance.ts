// Every answer a test app gives is one its OpenAPI document declares (issue #42): the status, the
// content type and the API's own headers (rate limit, Retry-After, ETag, idempotent-replayed). The
// suite drives every operation through its happy path and its errors, so recording what each test
// file's app answered and checking it against the document when the file ends catches a status, a
// content type or a header the document leaves out, wherever a test meets it.
// The document is the one the runner wrote (TEST_OPENAPI_FILE, scripts/test.ts), or, for a file run
// by hand, the app's own. HEAD and routes hidden from the document on purpose (`schema.hide`: the
// local upload and sandbox pages' own routes) are not checked; any other /api/v1 route the document
// does not list is a problem.
import { readFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'

/** The headers of the API's own contract; the rest (security headers, x-request-id) are the same on every answer. */
const CHECKED_HEADERS = ['etag', 'retry-after', 'idempotent-replayed', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']

interface DocumentedResponse {
  content?: Record<string, unknown>
  headers?: Record<string, unknown>
}
type Document = { paths: Record<string, Record<string, { responses: Record<string, DocumentedResponse> }>> }

export interface AnswerRecorder {
  /** "METHOD /route|status|content type|header,header" of each distinct answer. */
  seen: Set<string>
}

export function recordAnswers(app: FastifyInstance): AnswerRecorder {
  const seen = new Set<string>()
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url
    if (!route || !route.startsWith('/api/v1/') || request.method === 'HEAD') return
    if ((request.routeOptions.schema as { hide?: boolean } | undefined)?.hide) return
    const raw = reply.raw.getHeaders()
    const type = String(raw['content-type'] ?? '').split(';')[0]!.trim()
    const headers = CHECKED_HEADERS.filter((name) => raw[name] !== undefined)
    seen.add(`${request.method} ${route}|${reply.statusCode}|${type}|${headers.join(',')}`)
  })
  return { seen }
}

/** The document's path of a Fastify route: `:param` as `{param}`, a trailing `*` as `{path}` (openapi.ts). */
const documentPath = (route: string) => route.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{path}')

const typeMatches = (declared: string, answered: string) => declared === answered || (declared.endsWith('/*') && answered.startsWith(declared.slice(0, -1)))

let runnerDocument: Document | undefined
function documentOf(app: FastifyInstance): Document {
  const file = process.env.TEST_OPENAPI_FILE
  if (file) return (runnerDocument ??= JSON.parse(readFileSync(file, 'utf8')) as Document)
  return (app as unknown as { swagger(): Document }).swagger()
}

/** The answers the document does not declare, one sentence each. Call before the app closes. */
export function undeclaredAnswers(app: FastifyInstance, recorder: AnswerRecorder): string[] {
  if (recorder.seen.size === 0) return []
  const document = documentOf(app)
  const problems: string[] = []
  for (const answer of recorder.seen) {
    const [operation, statusText, type, headerList] = answer.split('|') as [string, string, string, string]
    const [method, route] = operation.split(' ') as [string, string]
    const documented = document.paths[documentPath(route)]?.[method.toLowerCase()]
    if (!documented) {
      problems.push(`OpenAPI document: ${operation} answered ${statusText}, and the document does not list the operation`)
      continue
    }
    const response = documented.responses[statusText] ?? documented.responses.default
    if (!response) {
      problems.push(`OpenAPI document: ${operation} answered ${statusText}, which it does not declare`)
      continue
    }
    const bodiless = statusText === '204' || statusText === '304' || method === 'HEAD'
    if (!bodiless && type && !Object.keys(response.content ?? {}).some((declared) => typeMatches(declared, type))) {
      problems.push(`OpenAPI document: ${operation} answered ${statusText} as ${type}; it declares ${Object.keys(response.content ?? {}).join(', ') || 'no body'}`)
    }
    for (const header of headerList ? headerList.split(',') : []) {
      if (!(header in (response.headers ?? {}))) problems.push(`OpenAPI document: ${operation} answered ${statusText} with the header ${header}, which it does not declare`)
    }
  }
  return problems
}
