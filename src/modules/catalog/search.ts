// Relevance search over one catalog, answered from the catalog's in-process index
// (search-index.ts; decision 0011): each query word reaches PostgreSQL's stemmed lexemes and the
// surface words of name, brand and category path, as a prefix ("iph" finds iPhone, "titl" titli);
// model numbers are never stemmed; misspelt words are corrected against the catalog's own words
// ("samsng" -> samsung) and Hinglish words reach their meaning ("ladies" -> women).
//
// score = 0.5 * bm25 + 0.3 * phrase + 0.2 * trigram, in (0, 1) (decision 0020):
//   bm25    field-weighted BM25 (idf from the index, name 1 > brand 0.6 > category 0.3 >
//           description 0.1, length-normalised on the name), over its most for these words
//   phrase  1 for the exact name; else in-order runs, a name starting with the query, coverage
//   trigram pg_trgm's similarity of the query with the name or a run of its words
// Every match is ranked by BM25 (a one-word, one-posting query from the posting's cached BM25 order); the best 40 and every exact name get the full score. Ties: the
// shorter name, then the id.
import { Worker } from 'node:worker_threads'
import { sql } from 'drizzle-orm'
import { connectionStringOf, type Db, queryRows } from '../../db/client.ts'
import { buildIndex, type CatalogIndex, FIELD_WEIGHT, type IndexedVariant, type PackedIndex, type Posting, rankedDocs, stemVocabulary, syncIndex, trigramsOfWord, unpackIndex, variantJson } from './search-index.ts'
import { HINGLISH_MEANINGS, HINGLISH_STOP_WORDS } from './hinglish.ts'
import { corrections } from './spelling.ts'

const TRIGRAM_THRESHOLD = 0.35
// A pasted full product name runs to 30-odd words.
const MAX_TOKENS = 40

/** A product found: its id, score, and its JSON up to the score (see productJson in search-index.ts). */
export interface ProductHit {
  id: string
  score: number
  json: Uint8Array
  /** A product with options whose option values the query names: `,"variant":{…}`, written after the score. */
  variant?: string
}

/** A hit as the answer's item: its JSON completed with the score (for scripts and tests; the route writes the bytes). */
export const hitProduct = (hit: ProductHit) =>
  JSON.parse(`${Buffer.from(hit.json.buffer, hit.json.byteOffset, hit.json.byteLength).toString()}${hit.score}${hit.variant ?? ''}}`) as {
    id: string
    slug: string
    name: string
    brand: string
    sellingPrice: string
    images: string[]
    categoryId: string
    score: number
    variant?: { id: string; title: string; options: { name: string; value: string }[]; sellingPrice: string }
  }

export interface CategoryHit {
  id: string
  slug: string
  name: string
  image: string | null
  score: number
}

/** Which of the query's words are the "s" of a possessive ("men's", "women’s"). */
function possessiveOf(q: string, tokens: string[]): Set<number> {
  const out = new Set<number>()
  let i = 0
  for (const m of q.toLowerCase().normalize('NFKC').matchAll(/[\p{L}\p{N}]+/gu)) {
    if (i >= tokens.length) break
    if (m[0] === 's' && /['’]$/.test(q.normalize('NFKC').slice(0, m.index))) out.add(i)
    i++
  }
  return out
}

/** Lower-cased words of the query: letters and digits only. */
export function queryTokens(q: string): string[] {
  return (q.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TOKENS)
}

const round = (n: number) => Math.round(n * 10_000) / 10_000

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

/** A posting of a query word and how well it matches the word: 1 the word or its stem, less for a longer word it starts, a correction or a Hinglish word. */
interface Reach {
  posting: Posting
  quality: number
  /** A posting of surface words (else of stemmed lexemes). */
  surface: boolean
}
/** What one query word asks of the products. */
interface Group {
  /** Stemmed lexemes (for categories). */
  lexemes: string[]
  reaches: Reach[]
  /** BM25's inverse document frequency of the word, from the products its postings reach. */
  idf: number
  /** Catalog word ids that are this word in a name (itself, its corrections, its Hinglish meaning, a word with its stem). */
  accepts: Set<number>
  /** The word itself when a longer name word it starts also counts as it (not numbers or single letters). */
  prefix: string | null
}

const K1 = 1.2
const B = 0.75
/** BM25's term weight of a field match of weight w (1 name .. 0.1 description) in a doc of normalised length `norm`. */
const termWeight = (idf: number, w: number, norm: number) => (idf * w * (K1 + 1)) / (w + norm)

/** The best weight with which a doc matches one of a group's postings, or 0 (binary search in each). */
function weightIn(reaches: Reach[], d: number): number {
  let found = 0
  for (const { posting, quality } of reaches) {
    const docs = posting.docs.data
    let lo = 0
    let hi = posting.docs.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (docs[mid]! < d) lo = mid + 1
      else hi = mid
    }
    if (lo < posting.docs.length && docs[lo] === d) found = Math.max(found, FIELD_WEIGHT[posting.weights.data[lo]!]! * quality)
  }
  return found
}

/** Per doc, BM25's length normalisation K1 * (1 - B + B * length / mean length), length being the name's words. */
const normOf = (lengths: Int32Array, d: number, mean: number) => K1 * (1 - B + (B * lengths[d]!) / mean)

/**
 * Scans a group's postings into the scratch arrays: a doc whose hit count is `group` gets the
 * group's BM25 term weight (of its best field weight) added to its rank and one more hit. With
 * `takeIn`, docs not yet seen in this query are taken in (and listed there); without, only docs
 * already seen count.
 */
function scanGroup(index: CatalogIndex, g: Group, q: number, group: number, takeIn: boolean, mean: number) {
  const dead = index.dead.data
  const lengths = index.nameWords.data
  const idf = g.idf
  for (const { posting, quality } of g.reaches) {
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
      const w = FIELD_WEIGHT[weights[i]!]! * quality
      if (hits[d] === group) {
        hits[d] = group + 1
        rankSum[d]! += termWeight(idf, w, normOf(lengths, d, mean))
        best[d] = w
      } else if (hits[d] === group + 1 && w > best[d]!) {
        // Another posting of the same word: only its best weight counts.
        const norm = normOf(lengths, d, mean)
        rankSum[d]! += termWeight(idf, w, norm) - termWeight(idf, best[d]!, norm)
        best[d] = w
      }
    }
  }
}

/**
 * What each query word stands for: its stem as a prefix (or whole), the surface words it starts
 * (or itself, for numbers, single letters and model numbers such as `05712lmly`, which are never
 * stemmed), its corrections when no catalog word starts with it, and its meaning when it is a
 * Hinglish word. Hinglish and English stop words ask nothing of the products.
 */
async function queryGroups(db: Db, index: CatalogIndex, tokens: string[]): Promise<Group[]> {
  const words = [...new Set(tokens)].filter((t) => !HINGLISH_STOP_WORDS.has(t) || tokens.length === 1)
  const meanings = new Map(words.map((t) => [t, HINGLISH_MEANINGS.get(t) ?? []]))
  const fixes = new Map(words.map((t) => [t, index.correctionsOf(t, corrections)]))
  const stems = await stemVocabulary(db, index, [...words, ...[...meanings.values()].flat(), ...[...fixes.values()].flat()])
  const groups: Group[] = []
  const live = Math.max(1, index.live)
  for (const t of words) {
    // A stop word ("for", "under") asks nothing of the products; PostgreSQL drops it likewise.
    if (stems.get(t) === '') continue
    const reach = new Map<Posting, Reach>()
    const lexemes = new Set<string>()
    const accepts = new Set<number>()
    const add = (posting: Posting | undefined, quality: number, surface: boolean) => {
      if (posting && (reach.get(posting)?.quality ?? 0) < quality) reach.set(posting, { posting, quality, surface })
    }
    const addForm = (form: string, quality: number, prefix: boolean) => {
      const mixed = /\d/.test(form) && /\p{L}/u.test(form)
      const stem = mixed ? form : stems.get(form)
      if (stem) {
        for (const l of prefix ? index.lexemesWithPrefix(stem) : index.postings.has(stem) ? [stem] : []) {
          lexemes.add(l)
          add(index.postings.get(l), l === stem ? quality : quality * 0.8, false)
        }
      }
      for (const w of prefix ? index.surfaceWithPrefix(form) : index.surface.has(form) ? [form] : []) {
        // A word of letters whose stem is a lexeme already taken at the same quality adds no product
        // (PostgreSQL's parser reads such a word as we do, so the lexeme's posting holds every doc
        // with it, in the same fields): skip its scan. Numbers and model numbers are read otherwise
        // ("1.5 kg" is the lexeme 1.5, the words 1 and 5): those are always scanned.
        const q = w === form ? quality : quality * 0.8
        const covering = index.stems.get(w)
        if (covering && lexemes.has(covering) && (covering === stem ? quality : quality * 0.8) >= q && /^\p{L}+$/u.test(w)) continue
        add(index.surface.get(w), q, true)
      }
      const id = index.wordId.get(form)
      if (id !== undefined) accepts.add(id)
    }
    addForm(t, 1, !isWhole(t))
    for (const meaning of meanings.get(t)!) addForm(meaning, 0.9, false)
    for (const fix of fixes.get(t)!) addForm(fix, 0.7, false)
    const reaches = [...reach.values()]
    // The products the word reaches: its surface and its stemmed postings mostly hold the same docs.
    const docsOf = (surface: boolean) => reaches.reduce((n, r) => (r.surface === surface ? n + r.posting.docs.length : n), 0)
    const surfaceDocs = docsOf(true)
    const stemDocs = docsOf(false)
    const n = Math.min(live, Math.max(surfaceDocs, stemDocs, 1))
    groups.push({ lexemes: [...lexemes], reaches, idf: Math.log(1 + (live - n + 0.5) / (n + 0.5)), accepts, prefix: isWhole(t) ? null : t })
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
  readonly #trigrams = new Set<number>()
  readonly #prefix: { word: string; trigrams: number } | null
  readonly #q = ++memoQuery
  readonly #index: CatalogIndex
  readonly tokens: string[]

  constructor(index: CatalogIndex, tokens: string[]) {
    this.#index = index
    this.tokens = tokens
    let unknown = -1
    for (const word of tokens) for (const t of trigramsOfWord(word)) this.#trigrams.add(index.trigramId.get(t) ?? unknown--)
    this.size = this.#trigrams.size
    this.#prefix = tokens.length === 1 && !isWhole(tokens[0]!) ? { word: tokens[0]!, trigrams: trigramsOfWord(tokens[0]!).length - 1 } : null
    if (memoStamp.length < index.words.length) {
      memoStamp = new Int32Array(index.words.length * 2)
      memoValue = new Int32Array(index.words.length * 2)
    }
  }

  /** Shared trigrams in the low 16 bits, the word's trigram count above. */
  of(w: number): number {
    if (memoStamp[w] === this.#q) return memoValue[w]!
    const word = this.#index.words[w]!
    let packed: number
    if (this.#prefix && word !== this.#prefix.word && word.startsWith(this.#prefix.word)) packed = this.#prefix.trigrams * 65_537
    else {
      let shared = 0
      const own = this.#index.wordTrigrams[w]!
      for (const t of own) if (this.#trigrams.has(t)) shared++
      packed = own.length * 65_536 + shared
    }
    memoStamp[w] = this.#q
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
    let best = nameWords > 0 ? this.#jaccard(0, nameWords) : 0
    const span = this.tokens.length + 1
    for (let a = 0; a < count; a++) {
      if (sharedSums[a + 1] === sharedSums[a]) continue
      for (let b = a + 1; b <= Math.min(count, a + span); b++) best = Math.max(best, this.#jaccard(a, b))
    }
    return best
  }

  #jaccard(a: number, b: number): number {
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

const postingsSize = (group: Group) => group.reaches.reduce((n, r) => n + r.posting.docs.length, 0)

/** Docs matching every group, their ranks summed in `rankSum`: driven by the rarest group, probing the others. */
function matchAll(index: CatalogIndex, groups: Group[], mean: number): Int32Array {
  const order = groups.map((g) => [postingsSize(g), g] as const).sort((a, b) => a[0] - b[0])
  const q = ++query
  touchedCount = 0
  scanGroup(index, order[0]![1], q, 0, true, mean)
  let matches = touched.slice(0, touchedCount)
  for (let g = 1; g < order.length && matches.length > 0; g++) {
    const [size, group] = order[g]!
    if (matches.length * 20 < size) {
      for (const d of matches) {
        const w = weightIn(group.reaches, d)
        if (w > 0) {
          hits[d] = g + 1
          rankSum[d]! += termWeight(group.idf, w, normOf(index.nameWords.data, d, mean))
        }
      }
    } else scanGroup(index, group, q, g, false, mean)
    let kept = 0
    for (const d of matches) if (hits[d] === g + 1) matches[kept++] = d
    matches = matches.subarray(0, kept)
  }
  return matches
}

/** Docs matching any group, their ranks summed in `rankSum`. */
function matchAny(index: CatalogIndex, groups: Group[], mean: number): Int32Array {
  const q = ++query
  touchedCount = 0
  for (let g = 0; g < groups.length; g++) {
    for (let i = 0; i < touchedCount; i++) hits[touched[i]!] = g
    scanGroup(index, groups[g]!, q, g, true, mean)
  }
  return touched.slice(0, touchedCount)
}

/** The k docs of `matches` that rank best on BM25 (a bounded heap whose root is the worst kept): higher rank, then shorter name, then id. */
function topByRank(index: CatalogIndex, matches: Int32Array, k: number): number[] {
  if (matches.length <= k) return [...matches]
  const lengths = index.nameWords.data
  const ids = index.ids
  // Doc order is id order until an existing product is re-added at the end.
  const ordered = index.idOrdered
  const ranksBefore = (a: number, b: number) =>
    rankSum[a]! !== rankSum[b]! ? rankSum[a]! > rankSum[b]! : lengths[a]! !== lengths[b]! ? lengths[a]! < lengths[b]! : ordered ? a < b : ids[a]! < ids[b]!
  const heap: number[] = []
  const worse = (a: number, b: number) => ranksBefore(b, a)
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l
      if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r
      if (m === i) return
      ;[heap[i], heap[m]] = [heap[m]!, heap[i]!]
      i = m
    }
  }
  for (const d of matches) {
    if (heap.length < k) {
      heap.push(d)
      for (let i = heap.length - 1; i > 0; ) {
        const p = (i - 1) >> 1
        if (!worse(heap[i]!, heap[p]!)) break
        ;[heap[i], heap[p]] = [heap[p]!, heap[i]!]
        i = p
      }
    } else if (rankSum[d]! >= rankSum[heap[0]!]! && ranksBefore(d, heap[0]!)) {
      heap[0] = d
      down(0)
    }
  }
  return heap
}

/** How many of the best BM25 matches get the full score (phrase and trigram); exact names always do. */
const CANDIDATES = 40

function searchProducts(index: CatalogIndex, groups: Group[], tokens: string[], trigrams: QueryTrigrams, limit: number, possessive: Set<number>) {
  if (groups.length === 0) return { hits: [], total: 0 }
  scratch(index.ids.length)
  const mean = index.meanNameWords()
  const k = Math.max(CANDIDATES, limit + 10)
  if (groups.length === 1 && groups[0]!.reaches.length === 1) return oneWord(index, groups[0]!, tokens, trigrams, limit, k, mean, possessive)
  // Products with every word first; only when they are too few, products with any word.
  let matches = matchAll(index, groups, mean)
  if (matches.length < limit && groups.length > 1) matches = matchAny(index, groups, mean)
  const total = matches.length
  const candidates = topByRank(index, matches, k)
  // A product whose name is the query (it matches every word, so it is among the matches) is
  // scored whatever its BM25 rank among equals.
  const chosen = new Set(candidates)
  for (const d of matches) if (isNamed(index, d, tokens) && !chosen.has(d)) candidates.push(d)
  return scoreCandidates(index, candidates, total, groups, tokens, trigrams, limit, possessive)
}

/**
 * A query of one word reaching one posting (most searches): BM25 orders its docs by field weight,
 * then shorter name, so the best k are the front of the posting's ranked order (an exact one-word
 * name is among them: name weight, the shortest length), and the total is the posting's length
 * less removed docs.
 */
function oneWord(index: CatalogIndex, group: Group, tokens: string[], trigrams: QueryTrigrams, limit: number, k: number, mean: number, possessive: Set<number>) {
  const { posting, quality } = group.reaches[0]!
  const dead = index.dead.data
  const lengths = index.nameWords.data
  const ranked = rankedDocs(index, posting)
  const candidates: number[] = []
  for (let i = 0; i < ranked.docs.length && candidates.length < k; i++) {
    const d = ranked.docs[i]!
    if (dead[d] === 1) continue
    rankSum[d] = termWeight(group.idf, FIELD_WEIGHT[ranked.weights[i]!]! * quality, normOf(lengths, d, mean))
    candidates.push(d)
  }
  let total = posting.docs.length
  if (index.live < index.ids.length) for (let i = 0; i < posting.docs.length; i++) total -= dead[posting.docs.data[i]!]!
  return scoreCandidates(index, candidates, total, [group], tokens, trigrams, limit, possessive)
}

/** Whether the doc's name is exactly these words. */
function isNamed(index: CatalogIndex, d: number, tokens: string[]): boolean {
  if (index.nameWords.data[d] !== tokens.length) return false
  const start = index.wordStart.data[d]!
  for (let i = 0; i < tokens.length; i++) if (index.words[index.wordPool.data[start + i]!] !== tokens[i]) return false
  return true
}

/** Per query word: the group that stands for it (none for a stop word: then only the word itself matches). */
const groupsByToken = (index: CatalogIndex, groups: Group[], tokens: string[]) =>
  tokens.map((t) => groups.find((g) => g.prefix === t || [...g.accepts].some((w) => index.words[w] === t)) ?? null)

let runs = new Uint8Array(0)
/**
 * How the query's words sit in a product's name, in [0, 1]: 1 when the name is the query; else
 * the longest run of query words found in order and next to each other in the name (as a share of
 * the query), whether the name starts with the query, and how much of the name the query covers.
 */
function phraseOf(index: CatalogIndex, byToken: (Group | null)[], tokens: string[], d: number): number {
  const start = index.wordStart.data[d]!
  const n = index.nameWords.data[d]!
  const m = tokens.length
  const pool = index.wordPool.data
  /** 2: the name word is the query word (or its stem, correction, meaning); 1: it starts with it; 0: neither. */
  const matches = (ti: number, w: number) => {
    const t = tokens[ti]!
    const id = pool[start + w]!
    const word = index.words[id]!
    if (word === t) return 2
    const g = byToken[ti]
    if (!g) return 0
    const stem = index.stems.get(t)
    if (g.accepts.has(id) || (stem && index.stems.get(word) === stem)) return 2
    return g.prefix !== null && word.startsWith(g.prefix) ? 1 : 0
  }
  // runs[w * (m + 1) + ti + 1]: how many query words end at (w, ti) in order, next to each other
  // (whole words only: a word that merely starts with the query word counts for coverage).
  if (runs.length < (n + 1) * (m + 1)) runs = new Uint8Array((n + 1) * (m + 1) * 2)
  runs.fill(0, 0, (n + 1) * (m + 1))
  let run = 0
  let covered = 0
  let starts = 0
  for (let w = 0; w < n; w++) {
    let any = false
    for (let ti = 0; ti < m; ti++) {
      const at = (w + 1) * (m + 1) + ti + 1
      const match = matches(ti, w)
      if (match > 0) any = true
      if (match === 2) {
        runs[at] = Math.min(255, runs[w * (m + 1) + ti]! + 1)
        if (runs[at]! > run) run = runs[at]!
        if (w === ti && starts === w) starts++
      } else runs[at] = 0
    }
    if (any) covered++
  }
  if (starts === m && m === n) return 1
  return 0.55 * (run / m) + 0.25 * (starts === m ? 1 : 0) + 0.2 * (n > 0 ? covered / n : 0)
}

/**
 * score = 0.5 * bm25 + 0.3 * phrase + 0.2 * trigram, in (0, 1):
 *   bm25    the doc's BM25 (field-weighted term weights, length-normalised on the name) over the
 *           most any product could get for these words;
 *   phrase  phraseOf: 1 for the exact name;
 *   trigram the best trigram similarity between the query and the name or a run of its words.
 * Ties: the shorter name, then the id.
 */
function scoreCandidates(index: CatalogIndex, candidates: number[], total: number, groups: Group[], tokens: string[], trigrams: QueryTrigrams, limit: number, possessive: Set<number>) {
  const pool = index.wordPool.data
  const most = groups.reduce((n, g) => n + termWeight(g.idf, 1, K1 * (1 - B)), 0)
  const byToken = groupsByToken(index, groups, tokens)
  const optionQuery = new OptionQuery(index, tokens, possessive)
  const scored = candidates.map((d) => {
    const bm25 = most > 0 ? Math.min(1, rankSum[d]! / most) : 0
    const trigram = trigrams.score(pool, index.wordStart.data[d]!, index.wordCount.data[d]!, index.nameWords.data[d]!)
    const fit = variantFit(index, d, optionQuery)
    const phrase = phraseOf(index, byToken, tokens, d)
    // A product with options none of whose variants holds the query's option values (an XL that is
    // Black and no Red, for "red kurta xl", whatever its name says) does not sell what was asked;
    // unless the query is its name (pasted whole).
    const unsold = fit && fit.held < fit.named && phrase < 1 ? UNSOLD : 1
    const score = Math.min(0.9999, Math.max(0.0001, round(unsold * (0.5 * bm25 + 0.3 * phrase + 0.2 * trigram))))
    return { d, id: index.ids[d]!, score, length: index.nameWords.data[d]!, variant: fit?.best }
  })
  scored.sort((a, b) => b.score - a.score || a.length - b.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  // The variant's answer JSON for the hits answered only (candidates are twice as many).
  const found: ProductHit[] = scored
    .slice(0, limit)
    .map(({ d, id, score, variant }) => (variant ? { id, score, json: index.jsonOf(d), variant: variantJson(index.variants.get(d)!, variant) } : { id, score, json: index.jsonOf(d) }))
  return { hits: found, total }
}

/** The share of its score a product keeps when no one variant holds the option values the query names. */
const UNSOLD = 0.6

/**
 * The variant of a product with options that the query names (decision 0043, step 3): the one whose
 * option values hold the most query words, a word counting when it is a value's word, its stem, or
 * (three letters or more) its start ("red kurta xl" -> Red / XL; "kurta m" -> M, a stop word the
 * product's match does not need); ties go to the merchant's first. None when no word is a value's.
 * `held`: how many words it holds; `named`: how many (a possessive's "s" aside) are values of the
 * product's options (Size, Colour) in any product of the catalog: more than `held`, the product does
 * not sell what was asked.
 */
function variantFit(index: CatalogIndex, d: number, query: OptionQuery): { best: IndexedVariant | undefined; held: number; named: number } | null {
  const options = index.variants.get(d)
  if (!options || !query.any) return null
  let best: IndexedVariant | undefined
  let held = 0
  for (const v of options.variants) {
    let mask = 0
    for (const value of v.values) mask |= query.valueMask(value)
    const n = bitCount(mask)
    if (n > held) {
      held = n
      best = v
    }
  }
  let namedMask = 0
  for (const name of options.names) namedMask |= query.nameMask(name)
  return { best, held, named: bitCount(namedMask) }
}

const bitCount = (n: number) => {
  let c = 0
  for (let m = n; m !== 0; m &= m - 1) c++
  return c
}

/**
 * What a query's words reach among option values, as bit masks of its words (the first 31):
 * a word reaches a value's word when it is that word, has its English stem, or (three letters or
 * more) starts it. Remembered per value and option name for the query's scoring only.
 */
class OptionQuery {
  readonly any: boolean
  #index: CatalogIndex
  #tokens: string[]
  #stems: (string | null)[]
  #possessive: Set<number>
  #values = new Map<string, number>()
  #names = new Map<string, number>()

  constructor(index: CatalogIndex, tokens: string[], possessive: Set<number>) {
    this.#index = index
    this.#tokens = tokens.slice(0, 31)
    this.#stems = this.#tokens.map((t) => index.stems.get(t) || null)
    this.#possessive = possessive
    let any = false
    if (index.variants.size > 0) for (const name of index.optionValueWords.keys()) if (this.nameMask(name) !== 0) any = true
    this.any = any
  }

  #wordMask(word: string): number {
    let mask = 0
    const stem = this.#index.stems.get(word) || null
    this.#tokens.forEach((t, ti) => {
      if (word === t || (t.length >= 3 && word.startsWith(t)) || (stem !== null && stem === this.#stems[ti])) mask |= 1 << ti
    })
    return mask
  }

  /** The words reaching one of this value's words. */
  valueMask(value: string): number {
    let mask = this.#values.get(value)
    if (mask === undefined) {
      mask = 0
      for (const w of this.#index.valueWords(value)) mask |= this.#wordMask(w)
      this.#values.set(value, mask)
    }
    return mask
  }

  /** The words (a possessive's "s" aside: "men's" names no size S) reaching a word of a value of this option, in any product. */
  nameMask(name: string): number {
    const key = name.toLowerCase()
    let mask = this.#names.get(key)
    if (mask === undefined) {
      mask = 0
      for (const w of this.#index.optionValueWords.get(key) ?? []) mask |= this.#wordMask(w)
      for (const ti of this.#possessive) if (ti < 31) mask &= ~(1 << ti)
      this.#names.set(key, mask)
    }
    return mask
  }
}

function searchCategories(index: CatalogIndex, groups: Group[], trigrams: QueryTrigrams, limit: number) {
  const found: CategoryHit[] = []
  const groupSets = groups.map((g) => new Set(g.lexemes))
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
  const products = input.products ? searchProducts(index, groups, tokens, trigrams, input.limit, possessiveOf(input.q, tokens)) : none
  const categories = input.categories ? searchCategories(index, groups, trigrams, input.limit) : none
  return { products: products.hits, categories: categories.hits, totalProducts: products.total, totalCategories: categories.total }
}
