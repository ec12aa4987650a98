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

/** Full-text matches, best ts_rank first (GIN index on the weighted tsvector), and how many there are. */
async function productCandidates(tx: Db, catalogId: string, tsq: string, k: number) {
  const rows = await queryRows<{ id: string; total: string }>(tx, sql`
    select id, count(*) over () as total from products
    where catalog_id = ${catalogId} and is_active and search_vector @@ to_tsquery('english', ${tsq})
    order by ts_rank('{0.1, 0.3, 0.6, 1.0}', search_vector, to_tsquery('english', ${tsq})) desc, id
    limit ${k}`)
  return { ids: rows.map((r) => r.id), total: Number(rows[0]?.total ?? 0) }
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
  const text = tokens.join(' ')
  const tsq = toPrefixQuery(tokens)
  const expanded = input.products ? await expandedQuery(db, input.catalogId, tokens) : null

  {
    let productHits: ProductHit[] = []
    let totalProducts = 0
    if (input.products) {
      // Products with every word first; only when they are too few, products with any word.
      const k = Math.max(CANDIDATES, input.limit * 4)
      let found = await productCandidates(db, input.catalogId, expanded!.all, k)
      if (found.total < input.limit && expanded!.all !== expanded!.any) found = await productCandidates(db, input.catalogId, expanded!.any, k)
      totalProducts = found.total
      if (found.ids.length > 0) {
        const ids = sql.join(found.ids.map((id) => sql`${id}`), sql`, `)
        const rows = await queryRows<{
          id: string; slug: string; name: string; brand: string; selling_price: string; images: string[]; category_id: string; score: number
        }>(db, sql`
          select p.id, p.slug, p.name, p.brand, p.selling_price, p.images, p.category_id,
            (0.6 * (r.rank / (r.rank + 0.1)) +
             0.4 * greatest(word_similarity(${text}, p.search_text), similarity(${text}, lower(p.name))))::float8 as score
          from products p
          cross join lateral (select ts_rank('{0.1, 0.3, 0.6, 1.0}', p.search_vector, to_tsquery('english', ${expanded!.any})) as rank) r
          where p.id in (${ids})
          order by score desc, p.id
          limit ${input.limit}`)
        productHits = rows.map((r) => ({
          id: r.id,
          slug: r.slug,
          name: r.name,
          brand: r.brand,
          sellingPrice: BigInt(r.selling_price),
          images: r.images,
          categoryId: r.category_id,
          score: round(Number(r.score)),
        }))
      }
    }
    let categoryHits: CategoryHit[] = []
    let totalCategories = 0
    if (input.categories) {
      const rows = await queryRows<{ id: string; slug: string; name: string; image: string | null; score: number; total: string }>(db, sql`
        select id, slug, name, image, score, count(*) over () as total
        from (
          select c.id, c.slug, c.name, c.image,
            (0.6 * (r.rank / (r.rank + 0.1)) + 0.4 * word_similarity(${text}, lower(c.name)))::float8 as score
          from categories c
          cross join lateral (select ts_rank(setweight(to_tsvector('english', c.name), 'A'), to_tsquery('english', ${tsq})) as rank) r
          where c.catalog_id = ${input.catalogId} and c.is_active
            and (to_tsvector('english', c.name) @@ to_tsquery('english', ${tsq}) or word_similarity(${text}, lower(c.name)) >= ${TRIGRAM_THRESHOLD})
        ) matches
        order by score desc, id
        limit ${input.limit}`)
      categoryHits = rows.map((r) => ({ id: r.id, slug: r.slug, name: r.name, image: r.image, score: round(Number(r.score)) }))
      totalCategories = Number(rows[0]?.total ?? 0)
    }
    return { products: productHits, categories: categoryHits, totalProducts, totalCategories }
  }
}
