// Relevance search over one catalog: PostgreSQL full-text search (weighted name > brand > category
// path > description, prefix-matched so "iph" finds "iPhone") combined with pg_trgm word
// similarity (so "samsng" and "headphnes" still find their products).
//
// score = 0.6 * fts + 0.4 * trigram, both in [0, 1]:
//   fts     = rank / (rank + 0.1), rank = ts_rank with weights {D 0.1, C 0.3, B 0.6, A 1.0}
//   trigram = greatest(word_similarity(q, name + brand + category path), similarity(q, name))
// So scores lie in [0, 1), higher is better; results are sorted by score, then id.
import { sql } from 'drizzle-orm'
import { type Db, queryRows } from '../../db/client.ts'
import { corrections, type Vocabulary } from './spelling.ts'

export const TRIGRAM_THRESHOLD = 0.35
const MAX_TOKENS = 12

export interface ProductHit {
  id: string
  slug: string
  name: string
  brand: string
  sellingPrice: bigint
  images: string[]
  categoryId: string
  score: number
}
export interface CategoryHit {
  id: string
  slug: string
  name: string
  image: string | null
  score: number
}

/** Lower-cased words of the query: letters and digits only, so no input can be a tsquery operator. */
export function queryTokens(q: string): string[] {
  return (q.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TOKENS)
}

/** Every word as a prefix, any of them may match; ranking rewards documents that match more. */
export function toPrefixQuery(tokens: string[]): string {
  return tokens.map(term).join(' | ')
}

const round = (n: number) => Math.round(n * 10_000) / 10_000
/** How many candidates each stage hands to the final scoring. */
const CANDIDATES = 100

/**
 * One query: the best `k` full-text matches by ts_rank (GIN index on the weighted tsvector), how
 * many match in all, and the final score of those candidates, best first.
 */
async function rankedProducts(db: Db, catalogId: string, tsq: string, rankTsq: string, text: string, k: number, limit: number) {
  const rows = await queryRows<{
    id: string; slug: string; name: string; brand: string; selling_price: string; images: string[]; category_id: string; score: number; total: string
  }>(db, sql`
    with candidates as (
      select id, count(*) over () as total from products
      where catalog_id = ${catalogId} and is_active and search_vector @@ to_tsquery('english', ${tsq})
      order by ts_rank('{0.1, 0.3, 0.6, 1.0}', search_vector, to_tsquery('english', ${tsq})) desc, id
      limit ${k}
    )
    select p.id, p.slug, p.name, p.brand, p.selling_price, p.images, p.category_id, c.total,
      (0.6 * (r.rank / (r.rank + 0.1)) +
       0.4 * greatest(word_similarity(${text}, p.search_text), similarity(${text}, lower(p.name))))::float8 as score
    from candidates c
    join products p on p.id = c.id
    cross join lateral (select ts_rank('{0.1, 0.3, 0.6, 1.0}', p.search_vector, to_tsquery('english', ${rankTsq})) as rank) r
    order by score desc, p.id
    limit ${limit}`)
  const hits: ProductHit[] = rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    name: r.name,
    brand: r.brand,
    sellingPrice: BigInt(r.selling_price),
    images: r.images,
    categoryId: r.category_id,
    score: round(Number(r.score)),
  }))
  return { hits, total: Number(rows[0]?.total ?? 0) }
}

async function searchProducts(db: Db, catalogId: string, tokens: string[], limit: number) {
  const expanded = await expandedQuery(db, catalogId, tokens)
  const text = tokens.join(' ')
  const k = Math.max(CANDIDATES, limit * 4)
  // Products with every word first; only when they are too few, products with any word.
  const all = await rankedProducts(db, catalogId, expanded.all, expanded.any, text, k, limit)
  if (all.total >= limit || expanded.all === expanded.any) return all
  return rankedProducts(db, catalogId, expanded.any, expanded.any, text, k, limit)
}

async function searchCategories(db: Db, catalogId: string, tokens: string[], limit: number) {
  const text = tokens.join(' ')
  const tsq = toPrefixQuery(tokens)
  const rows = await queryRows<{ id: string; slug: string; name: string; image: string | null; score: number; total: string }>(db, sql`
    select id, slug, name, image, score, count(*) over () as total
    from (
      select c.id, c.slug, c.name, c.image,
        (0.6 * (r.rank / (r.rank + 0.1)) + 0.4 * word_similarity(${text}, lower(c.name)))::float8 as score
      from categories c
      cross join lateral (select ts_rank(setweight(to_tsvector('english', c.name), 'A'), to_tsquery('english', ${tsq})) as rank) r
      where c.catalog_id = ${catalogId} and c.is_active
        and (to_tsvector('english', c.name) @@ to_tsquery('english', ${tsq}) or word_similarity(${text}, lower(c.name)) >= ${TRIGRAM_THRESHOLD})
    ) matches
    order by score desc, id
    limit ${limit}`)
  const hits: CategoryHit[] = rows.map((r) => ({ id: r.id, slug: r.slug, name: r.name, image: r.image, score: round(Number(r.score)) }))
  return { hits, total: Number(rows[0]?.total ?? 0) }
}

const VOCABULARY_MAX_AGE_MS = 60_000
const vocabularies = new Map<string, { vocabulary: Promise<Vocabulary>; builtAt: number }>()

/**
 * The catalog's words, rebuilt at most once a minute (a slightly stale vocabulary only makes a
 * correction less likely; results always come from the live products).
 */
function vocabularyOf(db: Db, catalogId: string): Promise<Vocabulary> {
  const cached = vocabularies.get(catalogId)
  const now = Date.now()
  if (cached && now - cached.builtAt < VOCABULARY_MAX_AGE_MS) return cached.vocabulary
  const fresh = queryRows<{ word: string; n: number }>(db, sql`
    select word, count(*)::int as n
    from (select regexp_split_to_table(search_text, '[^[:alnum:]]+') as word from products where catalog_id = ${catalogId} and is_active) w
    where length(word) >= 2
    group by word`).then((rows) => ({ words: rows.map((r) => r.word), frequency: new Map(rows.map((r) => [r.word, r.n])) }))
  fresh.catch(() => vocabularies.delete(catalogId))
  vocabularies.set(catalogId, { vocabulary: fresh, builtAt: now })
  // While a rebuild runs, keep answering from the previous vocabulary.
  return cached ? cached.vocabulary : fresh
}

/** A word as a tsquery term: a prefix, except numbers and single letters, which must match whole. */
const term = (token: string) => (token.length < 2 || /^\d+$/.test(token) ? token : `${token}:*`)

/**
 * The full-text queries: one group per word (the word, plus close catalog words when it looks
 * misspelt); `all` requires every group, `any` at least one.
 */
async function expandedQuery(db: Db, catalogId: string, tokens: string[]): Promise<{ all: string; any: string }> {
  const vocabulary = await vocabularyOf(db, catalogId)
  const groups = [...new Set(tokens)].map((t) => [term(t), ...corrections(t, vocabulary)].join(' | '))
  return { all: groups.map((g) => `(${g})`).join(' & '), any: groups.join(' | ') }
}

export async function searchCatalog(
  db: Db,
  input: { catalogId: string; q: string; limit: number; products: boolean; categories: boolean },
): Promise<{ products: ProductHit[]; categories: CategoryHit[]; totalProducts: number; totalCategories: number }> {
  const tokens = queryTokens(input.q)
  if (tokens.length === 0) return { products: [], categories: [], totalProducts: 0, totalCategories: 0 }
  const none = { hits: [], total: 0 }
  const [products, categories] = await Promise.all([
    input.products ? searchProducts(db, input.catalogId, tokens, input.limit) : none,
    input.categories ? searchCategories(db, input.catalogId, tokens, input.limit) : none,
  ])
  return { products: products.hits, categories: categories.hits, totalProducts: products.total, totalCategories: categories.total }
}
