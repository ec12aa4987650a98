// Catalog reads for API-key callers: categories, product list and detail, search. Answers are
// cached per catalog (see cache.ts) and every search is recorded for analytics.
import type { Db } from '../../db/client.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { formatPaise } from '../../lib/money.ts'
import { type PageMeta, pageMeta } from '../../lib/pagination.ts'
import { type CatalogCache, createCatalogCache } from './cache.ts'
import { onStockMoved } from './stock.ts'
import { type CategoryRow, catalogRepo, type OptionFilter, type ProductSummary, type SortBy, type VariantRow } from './repo.ts'
import { priceRangeOf, variantsOf } from './variants.ts'
import type { searchQueries } from './schema.sql.ts'
import { currentIndex, type IndexBuilds, queryTokens, searchCatalog, sinceLastSync, syncedIndex } from './search.ts'

const DEGRADED_SYNC_INTERVAL_MS = 1000
/** Values one option filter may list (`size=S,M,L,…`). */
const MAX_OPTION_VALUES = 50

export interface ProductQuery {
  page: number
  limit: number
  search?: string
  categoryId?: string
  brand?: string
  /** Option filters by name as given (`size=M,L`, or repeated: a list): see optionFiltersOf. */
  options?: Record<string, string | string[]>
  sortBy: SortBy
  sortOrder: 'asc' | 'desc'
}

/** A facet of a category's products: an option, its values and how many products each would find. */
export interface OptionFacet {
  name: string
  values: { value: string; count: number }[]
}

/**
 * One order of an option's values over the products that have it: the longest list first (the
 * merchant's fullest size chart), then each other list's new values placed after the value before
 * them in it, or before the one after them (XS before S), else at the end. Lower-cased.
 */
export function mergedOrder(lists: { values: string[]; products: number }[]): string[] {
  const order: string[] = []
  const sorted = [...lists].sort((a, b) => b.values.length - a.values.length || b.products - a.products || (a.values.join() < b.values.join() ? -1 : 1))
  for (const { values } of sorted) {
    const list = values.map((v) => v.toLowerCase())
    list.forEach((value, i) => {
      if (order.includes(value)) return
      const before = i > 0 ? order.indexOf(list[i - 1]!) : -1
      const after = list.slice(i + 1).map((v) => order.indexOf(v)).find((at) => at >= 0)
      if (before >= 0) order.splice(before + 1, 0, value)
      else if (after !== undefined) order.splice(after, 0, value)
      else order.push(value)
    })
  }
  return order
}

/** An option's name as most of its products write it (Size over size), ties alphabetically. */
function spellingOf(lists: { name: string; products: number }[]): string {
  const n = new Map<string, number>()
  for (const l of lists) n.set(l.name, (n.get(l.name) ?? 0) + l.products)
  return [...n].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0]
}

/** A product as the API shows it; `stored`: its variants when it has options (none read otherwise). */
export function toProduct(row: ProductSummary, stored: VariantRow[] = []) {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    brand: row.brand,
    sku: row.sku,
    categoryId: row.categoryId,
    sellingPrice: formatPaise(row.sellingPrice),
    mrp: formatPaise(row.mrp),
    stock: row.stock,
    images: row.images,
    isActive: row.isActive,
    options: row.options,
    priceRange: priceRangeOf(row, stored),
  }
}

/** The category and all its descendants, any depth (the tree is small and cached). */
export function descendantIds(all: CategoryRow[], rootId: string): string[] {
  const children = new Map<string, string[]>()
  for (const c of all) {
    if (!c.parentId) continue
    children.set(c.parentId, [...(children.get(c.parentId) ?? []), c.id])
  }
  const out: string[] = []
  const stack = [rootId]
  while (stack.length) {
    const id = stack.pop()!
    if (out.includes(id)) continue
    out.push(id)
    stack.push(...(children.get(id) ?? []))
  }
  return out
}

/**
 * Searches are recorded in batches (one multi-row insert at most every half second) so analytics
 * never add a write, and its commit, to every search. A failed write is logged, never an error.
 */
const SEARCH_LOG_FLUSH_MS = 500
function createSearchLog(db: Db, logger: Deps['logger']) {
  let buffer: (typeof searchQueries.$inferInsert)[] = []
  let timer: NodeJS.Timeout | null = null
  // Writes run one after another; a flush waits for the writes before it (a timer's flush may still
  // be writing when the back office asks for analytics).
  let writing: Promise<void> = Promise.resolve()
  async function flush() {
    if (timer) clearTimeout(timer)
    timer = null
    if (buffer.length > 0) {
      const rows = buffer
      buffer = []
      writing = writing.then(() => catalogRepo.recordSearches(db, rows).catch((err) => logger.warn({ err, rows: rows.length }, 'could not record searches')))
    }
    await writing
  }
  return {
    add(row: typeof searchQueries.$inferInsert) {
      buffer.push(row)
      if (buffer.length >= 500) void flush()
      else if (!timer) {
        timer = setTimeout(() => void flush(), SEARCH_LOG_FLUSH_MS)
        timer.unref()
      }
    },
    flush,
  }
}

/** Catalog reads for API-key callers; `cache` and `searchLog` are shared with the back office. */
export class CatalogService {
  readonly cache: CatalogCache
  readonly searchLog: ReturnType<typeof createSearchLog>
  readonly #redis: Deps['redis']
  readonly #clock: Deps['clock']
  // Partners' catalog reads go to the read replica when there is one; search analytics are written to `db`.
  readonly #reads: Db
  readonly #builds: IndexBuilds

  constructor(
    { database, redis, config, clock, logger }: ServiceDeps<'catalogCache' | 'redisPrefix' | 'searchWorkerMinProducts'>,
    cache: CatalogCache = createCatalogCache(redis, config.redisPrefix, config.catalogCache, database.readDb !== database.db),
  ) {
    const db = database.db
    this.cache = cache
    this.#redis = redis
    this.#clock = clock
    this.#reads = database.readDb
    // Orders move stock in their own transactions; product answers show it, so they go once those commit.
    onStockMoved(db, (catalogIds) => cache.stockChanged(catalogIds))
    this.searchLog = createSearchLog(db, logger)
    this.#builds = { workerMinProducts: config.searchWorkerMinProducts, log: logger }
  }

  #allCategories(catalogId: string) {
    return this.cache.get(catalogId, 'categories', () => catalogRepo.categories(this.#reads, catalogId))
  }

  async categoryTree(catalogId: string) {
    const all = (await this.#allCategories(catalogId)).filter((c) => c.isActive)
    const active = new Set(all.map((c) => c.id))
    return all
      .filter((c) => c.parentId === null)
      .map((top) => ({
        id: top.id,
        name: top.name,
        slug: top.slug,
        parentId: null,
        children: all
          .filter((c) => c.parentId === top.id && active.has(c.id))
          .map((c) => ({ id: c.id, name: c.name, slug: c.slug, parentId: top.id })),
      }))
  }

  /**
   * The list's option filters: a parameter the list does not declare is an option filter when some
   * active product of the catalog has an option of that name (case-insensitive); any other is
   * refused as an unknown parameter always was. Values are comma-separated, any one matching.
   */
  async #optionFiltersOf(catalogId: string, given: Record<string, string | string[]> | undefined): Promise<OptionFilter[]> {
    const entries = Object.entries(given ?? {})
    if (entries.length === 0) return []
    const known = new Set(await this.cache.get(catalogId, 'option-names', () => catalogRepo.optionNames(this.#reads, catalogId)))
    const unknown = entries.filter(([name]) => !known.has(name.toLowerCase()))
    if (unknown.length > 0) throw new AppError('BAD_REQUEST', 'Bad request', unknown.map(([name]) => `property ${name} should not exist`))
    return entries.map(([name, value]) => {
      const values = [value].flat().flatMap((v) => v.split(',')).map((v) => v.trim().toLowerCase()).filter(Boolean)
      if (values.length === 0) throw new AppError('BAD_REQUEST', 'Bad request', [`${name} should not be empty`])
      if (values.length > MAX_OPTION_VALUES) throw new AppError('BAD_REQUEST', 'Bad request', [`${name} must contain no more than ${MAX_OPTION_VALUES} elements`])
      if (values.some((v) => v.length > 200)) throw new AppError('BAD_REQUEST', 'Bad request', [`${name} must be shorter than or equal to 200 characters`])
      return { name: name.toLowerCase(), values }
    })
  }

  async listProducts(catalogId: string, query: ProductQuery): Promise<{ data: ReturnType<typeof toProduct>[]; meta: PageMeta; facets?: OptionFacet[] }> {
    let categoryIds: string[] | undefined
    if (query.categoryId) {
      const all = await this.#allCategories(catalogId)
      categoryIds = all.some((c) => c.id === query.categoryId) ? descendantIds(all, query.categoryId) : []
    }
    const filter = {
      catalogId,
      search: query.search?.trim() || undefined,
      categoryIds,
      brand: query.brand?.trim() || undefined,
      options: await this.#optionFiltersOf(catalogId, query.options),
    }
    const [{ rows, total }, facets] = await Promise.all([
      catalogRepo.listProducts(this.#reads, {
        ...filter,
        sortBy: query.sortBy,
        sortOrder: query.sortOrder,
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      }),
      query.categoryId ? this.#facets(filter) : undefined,
    ])
    const variants = await catalogRepo.variantsOf(this.#reads, rows.filter((r) => r.options.length > 0).map((r) => r.id))
    const data = rows.map((r) => toProduct(r, variants.get(r.id)))
    return facets ? { data, meta: pageMeta(total, query), facets } : { data, meta: pageMeta(total, query) }
  }

  /**
   * The facets of a category's list: its products' options (by their mean place in those products),
   * each value with what choosing it would find, in the merchant's order (mergedOrder).
   */
  async #facets(filter: Parameters<typeof catalogRepo.optionFacets>[1]): Promise<OptionFacet[]> {
    const { counts, lists } = await catalogRepo.optionFacets(this.#reads, filter)
    // Options by their mean place in their products (Size before Colour where most put it first).
    const meanPlace = new Map<string, { sum: number; n: number }>()
    for (const l of lists) {
      const m = meanPlace.get(l.key) ?? { sum: 0, n: 0 }
      meanPlace.set(l.key, { sum: m.sum + l.place * l.products, n: m.n + l.products })
    }
    const mean = (key: string) => meanPlace.get(key)!.sum / meanPlace.get(key)!.n
    const keys = [...meanPlace.keys()].sort((a, b) => mean(a) - mean(b) || (a < b ? -1 : 1))
    return keys.flatMap((key) => {
      const rows = counts.filter((c) => c.key === key)
      if (rows.length === 0) return []
      const order = mergedOrder(lists.filter((l) => l.key === key))
      const place = (value: string) => order.indexOf(value.toLowerCase())
      rows.sort((a, b) => place(a.value) - place(b.value))
      return [{ name: spellingOf(lists.filter((l) => l.key === key)), values: rows.map((r) => ({ value: r.value, count: r.products })) }]
    })
  }


  async productBySlug(catalogId: string, slug: string) {
    const row = await catalogRepo.findProductBySlug(this.#reads, catalogId, slug)
    if (!row) throw new AppError('NOT_FOUND', 'Product not found')
    const stored = row.options.length > 0 ? ((await catalogRepo.variantsOf(this.#reads, [row.id])).get(row.id) ?? []) : []
    return { ...toProduct(row, stored), variants: variantsOf(row, stored) }
  }

  async search(
    caller: { partnerId: string; catalogId: string },
    input: { q: string; type: 'products' | 'categories' | 'all'; limit: number; source?: string },
  ) {
    const q = input.q.trim()
    if (!q) throw new AppError('BAD_REQUEST', 'q should not be empty')
    const [reads, builds, redis, cache] = [this.#reads, this.#builds, this.#redis, this.cache]
    const found = await searchCatalog(
      reads,
      { catalogId: caller.catalogId, q, limit: input.limit, products: input.type !== 'categories', categories: input.type !== 'products' },
      // The index syncs when the catalog's version changes (a back-office write) or its entry
      // expires. While Redis cannot be asked there is no version: then at most once a second
      // (each sync scans the catalog's rows), so a write shows within a second.
      async (catalogId) => {
        if (redis && redis.status !== 'ready' && sinceLastSync(reads, catalogId) < DEGRADED_SYNC_INTERVAL_MS) return currentIndex(reads, catalogId, builds)
        await cache.get(catalogId, 'search-index', async () => (await syncedIndex(reads, catalogId, builds), true))
        return currentIndex(reads, catalogId, builds)
      },
    )
    // Products stay as their indexed JSON (ProductHit): the route writes them into the answer.
    const products = found.products
    const categories = found.categories
    const topScore = Math.max(0, products[0]?.score ?? 0, categories[0]?.score ?? 0)
    const totalResults = found.totalProducts + found.totalCategories
    this.searchLog.add({
      id: newId('srq'),
      partnerId: caller.partnerId,
      catalogId: caller.catalogId,
      // PostgreSQL text cannot hold NUL; one bad row must not sink the whole batch.
      query: q.replaceAll('\u0000', '').slice(0, 500),
      normalizedQuery: queryTokens(q).join(' ').slice(0, 200),
      type: input.type,
      source: input.source?.replaceAll('\u0000', '') ?? null,
      resultCount: totalResults,
      topScore,
      createdAt: this.#clock.now(),
    })
    return { products, categories, totalResults, topScore }
  }
}
