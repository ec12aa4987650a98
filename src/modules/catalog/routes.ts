// Catalog endpoints for partners' apps (x-api-key): each answers from the key's catalog only.
import { createHash } from 'node:crypto'
import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import { conditionalGets } from '../../http/conditional-get.ts'
import { apiKeyOf, type Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import type { CatalogService, ProductQuery } from './service.ts'
import { Limit, security } from '../../http/schemas.ts'
import { OptionFacet, Page, Product, ProductDetail, SearchResult, TopCategory } from './schemas.ts'

const JSON_TYPE = 'application/json; charset=utf-8'

const etagHash = (payload: string | Buffer) => createHash('sha1').update(payload).digest('base64url')

/**
 * The hottest reads answer from the cache as ready bytes with their ETag: no serialising, no UTF-8
 * encoding and no hashing per request (together about a third of a cached read's CPU).
 */
interface CachedAnswer {
  bytes: Buffer
  etag: string
}
function cachedAnswer(json: string): CachedAnswer {
  const bytes = Buffer.from(json)
  return { bytes, etag: `W/"${etagHash(bytes)}"` }
}
const answerBytes = (answer: CachedAnswer) => answer.bytes.length + answer.etag.length * 2

/**
 * The cache key of a product list: its known parameters only, defaults filled in (by the schema),
 * in a fixed order, text trimmed as the service trims it. Anything else in the query string
 * (tracking parameters, junk) never reaches the key, so it cannot add entries (issue #20), and two
 * requests that differ only in parameter order or spelt-out defaults share one entry.
 */
const LIST_PARAMS = new Set(['page', 'limit', 'search', 'categoryId', 'brand', 'sortBy', 'sortOrder'])
/**
 * The list's parameters it does not declare: option filters, each a string or, repeated
 * (`size=M&size=L`), a list of them, checked by the service against the catalog's options.
 */
const optionParamsOf = (query: object): Record<string, string | string[]> =>
  Object.fromEntries(Object.entries(query).filter((e): e is [string, string | string[]] => !LIST_PARAMS.has(e[0])))

export function productListKey(query: ProductQuery): string {
  // Numbers and enum words cannot hold "|"; text is JSON-quoted (or empty), so keys never collide.
  const options = Object.entries(query.options ?? {})
    .map(([name, value]) => [name.toLowerCase(), [value].flat().join(',').toLowerCase()])
    .sort()
  return `products|${query.page}|${query.limit}|${query.sortBy}|${query.sortOrder}|${keyText(query.categoryId)}|${keyText(query.brand)}|${keyText(query.search)}${options.length ? `|${JSON.stringify(options)}` : ''}`
}
function keyText(value: string | undefined): string {
  if (value === undefined) return ''
  const trimmed = value.trim()
  return trimmed ? JSON.stringify(trimmed) : ''
}
/** The cache key of a product page: the slug is its only parameter. */
export const productKey = (slug: string) => `product:${slug}`
const EMPTY_PRODUCTS = '"products":[]'

function sendCached(reply: FastifyReply, answer: CachedAnswer) {
  return reply.type(JSON_TYPE).header('etag', answer.etag).send(answer.bytes as never)
}

interface CatalogRouteDeps {
  catalog: CatalogService
  guards: Guards
}
const tags = ['Catalog']

export const catalogRoutes: FastifyPluginAsyncTypebox<{ catalog: CatalogService; guards: Guards }> = async (app, { catalog, guards }) => {
  // Partners that poll send If-None-Match and get 304 with no body while nothing changed. The tag is
  // a hash of the exact answer, so any change to what a key would see changes it; it applies to the
  // catalog routes only. Cached answers keep their tag beside their bytes (see `cached`).
  conditionalGets(app, etagHash)

  categoryRoutes(app, { catalog, guards })
  productRoutes(app, { catalog, guards })
  searchRoutes(app, { catalog, guards })
}

/** GET /categories: the category tree. */
export function categoryRoutes(app: RouteApp, { catalog, guards }: CatalogRouteDeps): void {
  const common = { preValidation: guards.apiKey }

  app.get(
    '/categories',
    {
      ...common,
      schema: {
        operationId: 'listCategories',
        tags,
        summary: 'Top-level categories with their children',
        security: security.apiKey,
        response: { 200: Envelope(Type.Array(TopCategory)), ...errorResponses(401, 429) },
      },
    },
    async (request, reply) => {
      const { catalogId } = apiKeyOf(request)
      const answer = await catalog.cache.get(catalogId, 'categories:answer', async () =>
        cachedAnswer(reply.serialize(ok(await catalog.categoryTree(catalogId), 'Categories retrieved')) as string),
        answerBytes,
      )
      return sendCached(reply, answer)
    },
  )
}

/** GET /products and /products/{slug}: product lists and one product. */
export function productRoutes(app: RouteApp, { catalog, guards }: CatalogRouteDeps): void {
  const common = { preValidation: guards.apiKey }

  app.get(
    '/products',
    {
      ...common,
      schema: {
        operationId: 'listProducts',
        tags,
        summary: 'Active products, filtered, sorted and paginated',
        description:
          'Option filters: any other parameter naming an option of the catalog\'s products (case-insensitive) filters by its values, comma-separated, any one matching: `size=M`, `size=M,L&colour=Red` (the products with an active variant that is M or L, and Red). A parameter naming no option is refused (400 `property x should not exist`). ' +
          'With `categoryId`, the answer has `facets`: each option of the category\'s products with its values, each with how many products choosing it would find beside the other filters.',
        security: security.apiKey,
        documentedParameters: [
          {
            in: 'query',
            name: 'options',
            style: 'form',
            explode: true,
            required: false,
            description: 'Option filters, one parameter per option, named as the option (case-insensitive): size=M,L&colour=Red. Not a parameter named `options`.',
            schema: { type: 'object', additionalProperties: { type: 'string', maxLength: 200 }, example: { size: 'M,L', colour: 'Red' } },
          },
        ],
        querystring: Type.Object({
          page: Page,
          limit: Limit(100, 20),
          search: Type.Optional(Type.String({ maxLength: 200, description: 'Matches product name or brand (case-insensitive, partial)' })),
          categoryId: Type.Optional(Type.String({ maxLength: 100, description: 'Includes products of descendant categories' })),
          brand: Type.Optional(Type.String({ maxLength: 100, description: 'Case-insensitive' })),
          sortBy: Type.Enum(['createdAt', 'updatedAt', 'name', 'brand', 'sku'], { default: 'createdAt' }),
          sortOrder: Type.Enum(['asc', 'desc'], { default: 'desc' }),
        }, { additionalProperties: Type.Unknown({ description: 'An option filter: size=M,L (checked by the service: see optionFiltersOf)' }), maxProperties: 30 }),
        response: {
          200: Type.Object({
            ...PagedEnvelope(Product).properties,
            facets: Type.Optional(Type.Array(OptionFacet, { description: "With categoryId: the options of the category's products (none: no product there has options)" })),
          }),
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (request, reply) => {
      const { catalogId } = apiKeyOf(request)
      // The hottest read: the serialized answer itself is cached, per catalog version.
      const { page, limit, search, categoryId, brand, sortBy, sortOrder } = request.query
      // The parameters the list does not declare are its option filters (an open set: size, colour, …):
      // optionParamsOf takes only those, as strings, and the service refuses any that names no option.
      // eslint-disable-next-line no-restricted-syntax
      const filter = { page, limit, search, categoryId, brand, sortBy, sortOrder, options: optionParamsOf(request.query) }
      const answer = await catalog.cache.getWithStock(
        catalogId,
        productListKey(filter),
        async () => {
          const result = await catalog.listProducts(catalogId, filter)
          const answer = paged(result.data, result.meta, 'Products retrieved')
          return cachedAnswer(reply.serialize(result.facets ? { ...answer, facets: result.facets } : answer) as string)
        },
        answerBytes,
      )
      return sendCached(reply, answer)
    },
  )

  app.get(
    '/products/:slug',
    {
      ...common,
      schema: {
        operationId: 'getProduct',
        tags,
        summary: 'One product by its slug (inactive products too, with isActive false), with its variants',
        security: security.apiKey,
        params: Type.Object({ slug: Type.String({ maxLength: 200 }) }),
        response: { 200: Envelope(ProductDetail), ...errorResponses(401, 404, 429) },
      },
    },
    async (request, reply) => {
      const { catalogId } = apiKeyOf(request)
      const answer = await catalog.cache.getWithStock(
        catalogId,
        productKey(request.params.slug),
        async () => cachedAnswer(reply.serialize(ok(await catalog.productBySlug(catalogId, request.params.slug), 'Product retrieved')) as string),
        answerBytes,
      )
      return sendCached(reply, answer)
    },
  )
}

/** GET /search: relevance search over products and categories. */
export function searchRoutes(app: RouteApp, { catalog, guards }: CatalogRouteDeps): void {
  const common = { preValidation: guards.apiKey }

  app.get(
    '/search',
    {
      ...common,
      schema: {
        operationId: 'searchProducts',
        tags,
        summary: 'Relevance search over products and categories (typo- and prefix-tolerant)',
        security: security.apiKey,
        querystring: Type.Object({
          q: Type.String({ minLength: 1, maxLength: 200, description: 'Search term' }),
          type: Type.Enum(['products', 'categories', 'all'], { default: 'all' }),
          limit: Limit(50, 20),
          source: Type.Optional(Type.String({ maxLength: 50, description: 'Analytics source label, for example web, app, docs' })),
        }),
        response: { 200: Envelope(SearchResult), ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const { partnerId, catalogId } = apiKeyOf(request)
      const { q, type, limit, source } = request.query
      const found = await catalog.search({ partnerId, catalogId }, { q, type, limit, source })
      // The envelope is serialized by the route's schema with no products; the products, kept as
      // their JSON by the search index (declared fields only), are written into its array.
      const envelope = reply.serialize(ok({ ...found, products: [] }, 'Search results')) as string
      const at = envelope.indexOf(EMPTY_PRODUCTS) + EMPTY_PRODUCTS.length - 1
      // One buffer, written in place: the envelope around the items, each item's bytes and score.
      const scores = found.products.map((hit, i) => `${hit.score}${hit.variant ?? ''}}${i === found.products.length - 1 ? '' : ','}`)
      let size = Buffer.byteLength(envelope)
      for (const [i, hit] of found.products.entries()) size += hit.json.length + Buffer.byteLength(scores[i]!)
      const body = Buffer.allocUnsafe(size)
      let offset = body.write(envelope.slice(0, at))
      for (const [i, hit] of found.products.entries()) {
        body.set(hit.json, offset)
        offset += hit.json.length
        offset += body.write(scores[i]!, offset)
      }
      body.write(envelope.slice(at), offset)
      return reply.type(JSON_TYPE).send(body as never)
    },
  )
}
