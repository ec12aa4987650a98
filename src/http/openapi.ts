// What the OpenAPI document says that @fastify/swagger would not say by itself from the routes'
// schemas, and why (decision 0023). Only the document changes: the routes match and answer as before.
import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger'

/** The document's name for a route's trailing wildcard (`/uploads/*`): `{*}` is no valid path parameter. */
export const WILDCARD_PARAM = 'path'

const wildcardParams = {
  type: 'object',
  properties: { [WILDCARD_PARAM]: { type: 'string', description: 'The rest of the path, slashes included' } },
  required: [WILDCARD_PARAM],
}

/**
 * Per route: a trailing `*` is documented as the path parameter `{path}`. @fastify/swagger would
 * write `{*}` with a parameter named `*`, which OpenAPI tools refuse or turn into unusable names.
 */
export const documentRoute: SwaggerTransform = ({ schema, url }) => {
  if (!url.endsWith('*')) return { schema, url }
  return { url: `${url.slice(0, -1)}:${WILDCARD_PARAM}`, schema: { ...schema, params: wildcardParams } }
}

/**
 * The whole document, once built. OpenAPI 3.0 schemas take one `example`, not JSON Schema's
 * `examples` array; @fastify/swagger turns one into the other only along `properties` and `items`,
 * so `examples` inside an anyOf (the invoice answers, JSON or PDF) reach the document and make it
 * invalid. The first example of each is kept as `example`. The route schemas themselves are left
 * alone (they are shared with validation and serialization): the document is a copy.
 */
export const finishDocument: SwaggerTransformObject = (documentObject) => {
  if (!('openapiObject' in documentObject)) return documentObject.swaggerObject
  const document = structuredClone(documentObject.openapiObject)
  if (String(document.openapi).startsWith('3.0')) schemaExamplesToExample(document)
  return document
}

/** Values that are data, not schemas: never rewritten. */
const DATA_KEYWORDS = new Set(['example', 'default', 'enum', 'const'])

function schemaExamplesToExample(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) schemaExamplesToExample(item)
    return
  }
  if (node === null || typeof node !== 'object') return
  const object = node as Record<string, unknown>
  // A Media Type or Parameter Object's `examples` is a map, which OpenAPI 3.0 allows; only a
  // schema's is an array.
  if (Array.isArray(object.examples)) {
    if (object.example === undefined && object.examples.length > 0) object.example = object.examples[0]
    delete object.examples
  }
  for (const [key, value] of Object.entries(object)) if (!DATA_KEYWORDS.has(key)) schemaExamplesToExample(value)
}
