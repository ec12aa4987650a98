// Relevance search over one catalog, answered from the catalog's in-process index
// (search-index.ts; decision 0011): PostgreSQL's weighted full-text lexemes (name > brand >
// category path > description), every query word a prefix ("iph" finds iPhone), misspelt words
// corrected against the catalog's own words ("samsng" -> samsung), and pg_trgm-style trigram
// similarity to order the best candidates.
//
// score = 0.6 * rank / (rank + 0.1) + 0.4 * trigram, in [0, 1):
//   rank    = mean over the query's words of the best field weight a product matches it with
//             (name 1.0, brand 0.6, category path 0.3, description 0.1)
//   trigram = the best trigram similarity (|shared| / |union|) between the query and the name or
//             any run of consecutive words of name + brand + category path
// Results are sorted by score, then id.
import { Worker } from 'node:worker_threads'
import { sql } from 'drizzle-orm'
import { connectionStringOf, type Db, queryRows } from '../../db/client.ts'
import { buildIndex, type CatalogIndex, FIELD_WEIGHT, levelsOf, type PackedIndex, type Posting, stemVocabulary, syncIndex, trigramsOfWord, unpackIndex } from './search-index.ts'
import { corrections } from './spelling.ts'

const TRIGRAM_THRESHOLD = 0.35
const MAX_TOKENS = 12

/** A product found: its id, score, and its JSON up to the score (see productJson in search-index.ts). */
export interface ProductHit {
  id: string
  score: number
  json: Uint8Array
}

/** A hit as the answer's item: its JSON completed with the score (for scripts and tests; the route writes the bytes). */
export const hitProduct = (hit: ProductHit) =>
  JSON.parse(`${Buffer.from(hit.json.buffer, hit.json.byteOffset, hit.json.byteLength).toString()}${hit.score}}`) as { id: string; slug: string; name: string; brand: string; sellingPrice: string; images: string[]; categoryId: string; score: number }

export interface CategoryHit {
  id: string
  slug: string
  name: string
  image: string | null
  score: number
}

/** Lower-cased words of the query: letters and digits only. */
export function queryTokens(q: string): string[] {
  return (q.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TOKENS)
}

const round = (n: number) => Math.round(n * 10_000) / 10_000
/** How many of the best-ranked matches are scored with trigram similarity. */
const CANDIDATES = 30

/** A word as a prefix, except numbers and single letters, which must match whole. */
const isWhole = (token: string) => token.length < 2 || /^\d+$/.test(token)

// Per-document scratch space, reused by every search (a search's scoring runs without awaiting).
let stamp = new Int32Array(0)
let hits = new Uint8Array(0)
let rankSum = new Float32Array(0)
let best = new Float32Array(0)
/** Docs taken in by the current scan, in the order first seen: `touched[0..touchedCount)`. */
let touched = new Int32Array(0)
let touchedCount = 0
let query = 0
function scratch(size: number) {
  if (stamp.length >= size) return
  const n = Math.max(size, stamp.length * 2, 1024)
  stamp = new Int32Array(n)
  hits = new Uint8Array(n)
  rankSum = new Float32Array(n)
  best = new Float32Array(n)
  touched = new Int32Array(n)
  query = 0
}

/** The best weight with which a doc matches one of a group's postings, or 0 (binary search in each). */
function weightIn(postings: Posting[], d: number): number {
  let found = 0
  for (const posting of postings) {
    const docs = posting.docs.data
    let lo = 0
    let hi = posting.docs.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (docs[mid]! < d) lo = mid + 1
      else hi = mid
    }
    if (lo < posting.docs.length && docs[lo] === d) found = Math.max(found, FIELD_WEIGHT[posting.weights.data[lo]!]!)
  }
  return found
}

/**
 * Scans a group's postings into the scratch arrays: a doc whose hit count is `group` gets the
 * group's best weight added to its rank and one more hit. With `takeIn`, docs not yet seen in this
 * query are taken in (and listed there); without, only docs already seen count.
 */
function scanGroup(index: CatalogIndex, postings: Posting[], q: number, group: number, takeIn: boolean) {
  const dead = index.dead.data
  for (const posting of postings) {
    const docs = posting.docs.data
    const weights = posting.weights.data
    for (let i = 0, n = posting.docs.length; i < n; i++) {
      const d = docs[i]!
      if (dead[d] === 1) continue
      if (stamp[d] !== q) {
        if (!takeIn) continue
        stamp[d] = q
        hits[d] = group
        rankSum[d] = 0
        touched[touchedCount++] = d
      }
      const w = FIELD_WEIGHT[weights[i]!]!
      if (hits[d] === group) {
        hits[d] = group + 1
        rankSum[d]! += w
        best[d] = w
      } else if (hits[d] === group + 1 && w > best[d]!) {
        // Another lexeme of the same group: only its best weight counts.
        rankSum[d]! += w - best[d]!
        best[d] = w
      }
    }
  }
}

/** The lexemes each query word stands for: its stem as a prefix (or whole), and its corrections' stems. */
async function queryGroups(db: Db, index: CatalogIndex, tokens: string[]): Promise<string[][]> {
  const words = [...new Set(tokens)]
  const fixes = new Map(words.map((t) => [t, index.correctionsOf(t, corrections)]))
  const stems = await stemVocabulary(db, index, [...words, ...[...fixes.values()].flat()])
  const groups: string[][] = []
  for (const t of words) {
    const stem = stems.get(t)
    const lexemes = new Set<string>()
    if (stem) for (const l of isWhole(t) ? (index.postings.has(stem) ? [stem] : []) : index.lexemesWithPrefix(stem)) lexemes.add(l)
    for (const fix of fixes.get(t)!) {
      const l = stems.get(fix)
      if (l && index.postings.has(l)) lexemes.add(l)
    }
    // A stop word ("for", "under") asks nothing of the products; PostgreSQL drops it likewise.
    if (stem || lexemes.size > 0) groups.push([...lexemes])
  }
  return groups
}

/**
 * One query's trigram view of the catalog's words: for each word, how many of its trigrams the
 * query shares and how many it has; a word that starts with a one-word query's word counts as
 * that word's start only (pg_trgm's best extent).
 */
class QueryTrigrams {
  readonly size: number
  private readonly trigrams = new Set<number>()
  private readonly prefix: { word: string; trigrams: number } | null
  private readonly q = ++memoQuery

  constructor(private readonly index: CatalogIndex, readonly tokens: string[]) {
    let unknown = -1
    for (const word of tokens) for (const t of trigramsOfWord(word)) this.trigrams.add(index.trigramId.get(t) ?? unknown--)
    this.size = this.trigrams.size
    this.prefix = tokens.length === 1 && !isWhole(tokens[0]!) ? { word: tokens[0]!, trigrams: trigramsOfWord(tokens[0]!).length - 1 } : null
    if (memoStamp.length < index.words.length) {
      memoStamp = new Int32Array(index.words.length * 2)
      memoValue = new Int32Array(index.words.length * 2)
    }
  }

  /** Shared trigrams in the low 16 bits, the word's trigram count above. */
  of(w: number): number {
    if (memoStamp[w] === this.q) return memoValue[w]!
    const word = this.index.words[w]!
    let packed: number
    if (this.prefix && word !== this.prefix.word && word.startsWith(this.prefix.word)) packed = this.prefix.trigrams * 65_537
    else {
      let shared = 0
      const own = this.index.wordTrigrams[w]!
      for (const t of own) if (this.trigrams.has(t)) shared++
      packed = own.length * 65_536 + shared
    }
    memoStamp[w] = this.q
    memoValue[w] = packed
    return packed
  }

  /** The best |shared| / |union| of the query with the name or any run of consecutive words. */
  score(words: ArrayLike<number>, from: number, count: number, nameWords: number): number {
    if (this.size === 0) return 0
    if (sharedSums.length <= count) {
      sharedSums = new Int32Array(count * 2 + 1)
      totalSums = new Int32Array(count * 2 + 1)
    }
    for (let i = 0; i < count; i++) {
      const packed = this.of(words[from + i]!)
      sharedSums[i + 1] = sharedSums[i]! + (packed & 0xffff)
      totalSums[i + 1] = totalSums[i]! + (packed >>> 16)
    }
    let best = nameWords > 0 ? this.jaccard(0, nameWords) : 0
    const span = this.tokens.length + 1
    for (let a = 0; a < count; a++) {
      if (sharedSums[a + 1] === sharedSums[a]) continue
      for (let b = a + 1; b <= Math.min(count, a + span); b++) best = Math.max(best, this.jaccard(a, b))
    }
    return best
  }

  private jaccard(a: number, b: number): number {
    const total = totalSums[b]! - totalSums[a]!
    const shared = Math.min(sharedSums[b]! - sharedSums[a]!, this.size, total)
    return shared / (this.size + total - shared)
  }
}
let memoQuery = 0
let memoStamp = new Int32Array(0)
let memoValue = new Int32Array(0)
let sharedSums = new Int32Array(64)
let totalSums = new Int32Array(64)

const postingsSize = (group: Posting[]) => group.reduce((n, p) => n + p.docs.length, 0)

/** Docs matching every group, their ranks summed in `rankSum`: driven by the rarest group, probing the others. */
function matchAll(index: CatalogIndex, postings: Posting[][]): Int32Array {
  const order = postings.map((g) => [postingsSize(g), g] as const).sort((a, b) => a[0] - b[0])
  const q = ++query
  touchedCount = 0
  scanGroup(index, order[0]![1], q, 0, true)
  let matches = touched.slice(0, touchedCount)
  for (let g = 1; g < order.length && matches.length > 0; g++) {
    const [size, group] = order[g]!
    if (matches.length * 20 < size) {
      for (const d of matches) {
        const w = weightIn(group, d)
        if (w > 0) {
          hits[d] = g + 1
          rankSum[d]! += w
        }
      }
    } else scanGroup(index, group, q, g, false)
    let kept = 0
    for (const d of matches) if (hits[d] === g + 1) matches[kept++] = d
    matches = matches.subarray(0, kept)
  }
  return matches
}

/** Docs matching any group, their ranks summed in `rankSum`. */
function matchAny(index: CatalogIndex, postings: Posting[][]): Int32Array {
  const q = ++query
  touchedCount = 0
  for (let g = 0; g < postings.length; g++) {
    for (let i = 0; i < touchedCount; i++) hits[touched[i]!] = g
    scanGroup(index, postings[g]!, q, g, true)
  }
  return touched.slice(0, touchedCount)
}

/** The k best of `matches` (in doc order) by rank, then id. */
function bestCandidates(index: CatalogIndex, matches: Int32Array, k: number): number[] {
  const candidates: number[] = []
  if (matches.length <= k) {
    for (const d of matches) candidates.push(d)
    return candidates
  }
  // All above the k-th rank, and the first of those tied with it. Ranks are sums of a few field
  // weights, so they take few values: count each (a short list beats a Map of float keys), then
  // walk them down.
  const levels: number[] = []
  const counts: number[] = []
  for (const d of matches) {
    const r = rankSum[d]!
    let i = 0
    while (i < levels.length && levels[i] !== r) i++
    if (i === levels.length) {
      levels.push(r)
      counts.push(0)
    }
    counts[i]!++
  }
  const order = levels.map((_, i) => i).sort((a, b) => levels[b]! - levels[a]!)
  let threshold = levels[order[0]!]!
  for (let i = 0, seen = 0; i < order.length && seen < k; i++) {
    threshold = levels[order[i]!]!
    seen += counts[order[i]!]!
  }
  const ties: number[] = []
  for (const d of matches) {
    if (rankSum[d]! > threshold) candidates.push(d)
    else if (rankSum[d] === threshold) ties.push(d)
  }
  // Doc order is id order until an existing product is re-added at the end.
  if (!index.idOrdered) ties.sort((a, b) => compareIds(index, a, b))
  for (let i = 0; candidates.length < k; i++) candidates.push(ties[i]!)
  return candidates
}

function searchProducts(index: CatalogIndex, groups: string[][], trigrams: QueryTrigrams, limit: number) {
  if (groups.length === 0) return { hits: [], total: 0 }
  scratch(index.ids.length)
  const postings = groups.map((lexemes) => lexemes.map((l) => index.postings.get(l)!))
  const k = Math.max(CANDIDATES, limit + 10)
  const single = postings.length === 1 && postings[0]!.length === 1 && index.idOrdered ? oneLexeme(index, postings[0]![0]!, k) : null
  if (single) return scoreCandidates(index, single.candidates, single.total, 1, trigrams, limit)
  // Products with every word first; only when they are too few, products with any word.
  let matches = matchAll(index, postings)
  if (matches.length < limit && groups.length > 1) matches = matchAny(index, postings)
  const total = matches.length
  return scoreCandidates(index, bestCandidates(index, matches.slice().sort(), k), total, groups.length, trigrams, limit)
}

/**
 * A one-lexeme query (most searches): its best k candidates are the front of the posting's weight
 * levels (doc order is id order), and its total is the posting's length less removed docs.
 */
function oneLexeme(index: CatalogIndex, posting: Posting, k: number) {
  const dead = index.dead.data
  const candidates: number[] = []
  for (const level of levelsOf(posting)) {
    for (const d of level.docs) {
      if (candidates.length === k) break
      if (dead[d] === 1) continue
      rankSum[d] = level.weight
      candidates.push(d)
    }
  }
  let total = posting.docs.length
  if (index.live < index.ids.length) for (let i = 0; i < posting.docs.length; i++) total -= dead[posting.docs.data[i]!]!
  return { candidates, total }
}

function scoreCandidates(index: CatalogIndex, candidates: number[], total: number, groups: number, trigrams: QueryTrigrams, limit: number) {
  const pool = index.wordPool.data
  const scored = candidates.map((d) => {
    const rank = rankSum[d]! / groups
    const trigram = trigrams.score(pool, index.wordStart.data[d]!, index.wordCount.data[d]!, index.nameWords.data[d]!)
    return { d, id: index.ids[d]!, score: round(0.6 * (rank / (rank + 0.1)) + 0.4 * trigram) }
  })
  scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const found: ProductHit[] = scored.slice(0, limit).map(({ d, id, score }) => ({
    id,
    score,
    json: index.jsonOf(d),
  }))
  return { hits: found, total }
}

function compareIds(index: CatalogIndex, a: number, b: number) {
  const x = index.ids[a]!
  const y = index.ids[b]!
  return x < y ? -1 : x > y ? 1 : 0
}

function searchCategories(index: CatalogIndex, groups: string[][], trigrams: QueryTrigrams, limit: number) {
  const found: CategoryHit[] = []
  const groupSets = groups.map((lexemes) => new Set(lexemes))
  for (const c of index.categories) {
    let matched = 0
    for (const set of groupSets) {
      for (const l of c.lexemes) {
        if (set.has(l)) {
          matched++
          break
        }
      }
    }
    const trigram = trigrams.score(c.words, 0, c.words.length, c.words.length)
    if (matched === 0 && trigram < TRIGRAM_THRESHOLD) continue
    const rank = groups.length > 0 ? matched / groups.length : 0
    found.push({ id: c.id, slug: c.slug, name: c.name, image: c.image, score: round(0.6 * (rank / (rank + 0.1)) + 0.4 * trigram) })
  }
  found.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return { hits: found.slice(0, limit), total: found.length }
}

/**
 * Catalogs with at least this many active products are built in a worker thread on PostgreSQL
 * (index-worker.ts): at 100,000 products the build reads ~100 MB of rows, and built in the serving
 * thread that garbage grew the worker's heap to 350-380 MiB for a while under load (docs/benchmarks.md).
 * Smaller catalogs build in a fraction of a second here; the embedded database is in this thread only.
 */
export const WORKER_BUILD_MIN_PRODUCTS = 10_000

/**
 * The worker's module: index-worker.js beside the bundle (`npm start`); index-worker.ts when this
 * runs from source under tsx (development, tests), whose loader a worker thread registers itself.
 */
const fromSource = import.meta.url.endsWith('.ts')
const workerUrl = new URL(fromSource ? './index-worker.ts' : './index-worker.js', import.meta.url)
const startWorker = (workerData: object) =>
  fromSource
    ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl.href)}) })`, { eval: true, workerData })
    : new Worker(workerUrl, { workerData })

/** A whole index built in a worker thread on a connection of its own. */
export function buildIndexInWorker(connectionString: string, catalogId: string): Promise<CatalogIndex> {
  return new Promise((resolve, reject) => {
    const worker = startWorker({ connectionString, catalogId })
    worker.once('message', (packed: PackedIndex) => resolve(unpackIndex(packed)))
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`the index worker exited with code ${code} before answering`)))
  })
}

/** How whole indexes are built: where (the threshold below which the serving thread builds), and what is logged. */
export interface IndexBuilds {
  /** Catalogs with at least this many active products build in a worker thread on PostgreSQL (`SEARCH_WORKER_MIN_PRODUCTS`). */
  workerMinProducts: number
  log?: { info(details: object, message: string): void; warn(details: object, message: string): void }
}
const DEFAULT_BUILDS: IndexBuilds = { workerMinProducts: WORKER_BUILD_MIN_PRODUCTS }

/**
 * A whole index: in a worker thread for a large catalog on PostgreSQL, else here. If the worker
 * fails (it cannot start, or its connection fails), the build runs here, so errors are the usual
 * ones; the failure is logged, since the serving heap then takes the build's garbage again.
 */
async function build(db: Db, catalogId: string, builds: IndexBuilds): Promise<CatalogIndex> {
  const connectionString = connectionStringOf(db)
  if (connectionString) {
    const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from products where catalog_id = ${catalogId} and is_active`)
    const products = row!.n
    if (products >= builds.workerMinProducts) {
      const started = performance.now()
      try {
        const index = await buildIndexInWorker(connectionString, catalogId)
        builds.log?.info({ catalogId, products, ms: Math.round(performance.now() - started) }, 'search index built in a worker thread')
        return index
      } catch (err) {
        builds.log?.warn({ catalogId, products, err }, 'search index worker failed: building in the serving thread')
      }
    }
  }
  return buildIndex(db, catalogId)
}

interface Holder {
  index: CatalogIndex | null
  /** When the last sync that succeeded started (ms). */
  syncedAt: number
  running: Promise<CatalogIndex> | null
  queued: Promise<CatalogIndex> | null
}
const holders = new WeakMap<Db, Map<string, Holder>>()

function holderOf(db: Db, catalogId: string): Holder {
  let byCatalog = holders.get(db)
  if (!byCatalog) holders.set(db, (byCatalog = new Map()))
  let holder = byCatalog.get(catalogId)
  if (!holder) byCatalog.set(catalogId, (holder = { index: null, syncedAt: 0, running: null, queued: null }))
  return holder
}

/**
 * The catalog's index after a sync that started after this call: a sync already running may have
 * read the database before the caller's write, so callers arriving meanwhile share the next one.
 */
export function syncedIndex(db: Db, catalogId: string, builds: IndexBuilds = DEFAULT_BUILDS): Promise<CatalogIndex> {
  const holder = holderOf(db, catalogId)
  const rebuild = (from: Db, id: string) => build(from, id, builds)
  const run = (): Promise<CatalogIndex> => {
    holder.queued = null
    const startedAt = Date.now()
    const sync = (holder.index ? syncIndex(db, holder.index, rebuild) : rebuild(db, catalogId)).then((index) => {
      holder.index = index
      holder.syncedAt = startedAt
      return index
    })
    holder.running = sync
    void sync.then(
      () => undefined,
      () => undefined,
    ).finally(() => {
      if (holder.running === sync) holder.running = null
    })
    return sync
  }
  if (!holder.running) return run()
  if (!holder.queued) {
    holder.queued = holder.running.then(run, run)
  }
  return holder.queued
}

/** How long ago (ms) the catalog's index last synced; Infinity if it never did. */
export function sinceLastSync(db: Db, catalogId: string): number {
  const holder = holderOf(db, catalogId)
  return holder.index ? Date.now() - holder.syncedAt : Number.POSITIVE_INFINITY
}

/**
 * The index as of its last sync, for callers that know no write happened since (the catalog
 * cache's version is unchanged); synced first when there is none yet.
 */
export function currentIndex(db: Db, catalogId: string, builds: IndexBuilds = DEFAULT_BUILDS): Promise<CatalogIndex> {
  const index = holderOf(db, catalogId).index
  return index ? Promise.resolve(index) : syncedIndex(db, catalogId, builds)
}

/**
 * Searches a catalog. `indexOf` answers the catalog's index in step with the database; by default
 * it syncs first (the service syncs only when the catalog's version changed: see service.ts).
 */
export async function searchCatalog(
  db: Db,
  input: { catalogId: string; q: string; limit: number; products: boolean; categories: boolean },
  indexOf: (catalogId: string) => Promise<CatalogIndex> = (id) => syncedIndex(db, id),
): Promise<{ products: ProductHit[]; categories: CategoryHit[]; totalProducts: number; totalCategories: number }> {
  const tokens = queryTokens(input.q)
  if (tokens.length === 0) return { products: [], categories: [], totalProducts: 0, totalCategories: 0 }
  const index = await indexOf(input.catalogId)
  const groups = await queryGroups(db, index, tokens)
  // From here on nothing awaits: the scoring uses shared scratch space.
  const none = { hits: [], total: 0 }
  const trigrams = new QueryTrigrams(index, tokens)
  const products = input.products ? searchProducts(index, groups, trigrams, input.limit) : none
  const categories = input.categories ? searchCategories(index, groups, trigrams, input.limit) : none
  return { products: products.hits, categories: categories.hits, totalProducts: products.total, totalCategories: categories.total }
}
