// The in-process search index of one catalog (decision 0011). PostgreSQL stays the source of
// truth and does the language work: each product's weighted `search_vector` (English stemming,
// stop words) and `search_text` are read from it, and query words are stemmed by it
// (`ts_lexize('english_stem', …)`). Matching, ranking, trigram similarity and counting run here,
// on postings held in memory, so a search costs no database work once the index is in step.
//
// Keeping in step: `sync` reads the products written by every transaction the last sync could not
// see (their `xmin` is not older than that sync's snapshot xmin, however long they ran) and
// applies those whose `updated_at` moved; a category renamed or moved (which rewrites its
// products' search columns without touching their `updated_at`), or a change touching more than a
// fifth of the index, rebuilds it whole. Callers sync when the catalog's version changes (every
// back-office write bumps it) and at least every few minutes.
import { sql } from 'drizzle-orm'
import { type Db, queryRows } from '../../db/client.ts'
import { formatPaise } from '../../lib/money.ts'
import type { Vocabulary } from './spelling.ts'

/** Field weights of the tsvector's labels: name (A) over brand (B) over category path (C) over description (D). */
const WEIGHT = { A: 1, B: 0.6, C: 0.3, D: 0.1 } as const

/**
 * What a search answers of a product is kept as its JSON, up to the score: `{"id":…,"slug":…,
 * "name":…,"brand":…,"sellingPrice":…,"images":[…],"categoryId":…,"score":` (the search item's
 * declared fields, nothing else), in byte chunks (one per page of products). That keeps 100,000 products' strings off the
 * JS heap (less memory, less GC marking) and lets the answer be written without serializing them.
 */
export function productJson(row: { id: string; slug: string; name: string; brand: string; selling_price: string; images: string[]; category_id: string }): string {
  const item = JSON.stringify({
    id: row.id,
    slug: row.slug,
    name: row.name,
    brand: row.brand,
    sellingPrice: formatPaise(BigInt(row.selling_price)),
    images: row.images,
    categoryId: row.category_id,
  })
  return `${item.slice(0, -1)},"score":`
}

/**
 * An active variant of a product with options, as search reports it when the query names its option
 * values ("red kurta xl": the variant Red / XL): its id, its option values (interned: a catalog's
 * values are few, its variants many) and price in paise. Its answer JSON is made for a hit only
 * (variantJson).
 */
export interface IndexedVariant {
  id: string
  values: string[]
  price: number
}

/** A product with options in the index: its option names (interned, as written) and its active variants. */
export interface IndexedOptions {
  names: string[]
  variants: IndexedVariant[]
}

/** What a search item adds after its score for the variant it names: `,"variant":{…}`. */
export function variantJson(options: IndexedOptions, v: IndexedVariant): string {
  return `,"variant":${JSON.stringify({
    id: v.id,
    title: v.values.join(' / '),
    options: v.values.map((value, i) => ({ name: options.names[i] ?? '', value })),
    sellingPrice: formatPaise(BigInt(v.price)),
  })}`
}

export interface IndexedCategory {
  id: string
  slug: string
  name: string
  image: string | null
  lexemes: string[]
  words: number[]
}

/** A growable typed array: the index's bulk data stays off the JS object heap. */
export class Vec<T extends Int32Array | Float32Array | Float64Array | Uint8Array> {
  length = 0
  data: T

  constructor(data: T) {
    this.data = data
  }
  push(value: number) {
    if (this.length === this.data.length) this.#grow(this.length + 1)
    this.data[this.length++] = value
  }
  /** Drops the spare capacity (after a build). */
  trim() {
    this.data = this.data.slice(0, this.length) as T
  }
  #grow(atLeast: number) {
    const grown = new (this.data.constructor as new (n: number) => T)(Math.max(8, this.data.length * 2, atLeast))
    grown.set(this.data)
    this.data = grown
  }
}
const ints = (n = 4) => new Vec(new Int32Array(n))

/** The products whose field text has a lexeme (ascending doc numbers) and the best field weight. */
/** Postings keep a weight as its code, 1 (D) to 4 (A): one byte each; `FIELD_WEIGHT[code]` is the weight. */
export const FIELD_WEIGHT = Float32Array.of(0, WEIGHT.D, WEIGHT.C, WEIGHT.B, WEIGHT.A)
const codeOf = (weight: number) => FIELD_WEIGHT.indexOf(Math.fround(weight))

export interface Posting {
  docs: Vec<Int32Array>
  weights: Vec<Uint8Array>
  /** The same docs best first for a one-word search: field weight, then shorter name, then id. Made on such a search, dropped on add. */
  ranked?: { docs: Int32Array; weights: Uint8Array }
}

/** A posting's docs in BM25 order for a query of this one posting (see Posting.ranked). */
export function rankedDocs(index: CatalogIndex, posting: Posting): { docs: Int32Array; weights: Uint8Array } {
  if (!posting.ranked) {
    const n = posting.docs.length
    const order = Array.from({ length: n }, (_, i) => i)
    const docs = posting.docs.data
    const weights = posting.weights.data
    const lengths = index.nameWords.data
    order.sort((a, b) => weights[b]! - weights[a]! || lengths[docs[a]!]! - lengths[docs[b]!]! || (index.idOrdered ? docs[a]! - docs[b]! : index.ids[docs[a]!]! < index.ids[docs[b]!]! ? -1 : 1))
    posting.ranked = { docs: Int32Array.from(order, (i) => docs[i]!), weights: Uint8Array.from(order, (i) => weights[i]!) }
  }
  return posting.ranked
}

interface ProductRow {
  id: string
  slug: string
  name: string
  brand: string
  selling_price: string
  images: string[]
  category_id: string
  is_active: boolean
  search_text: string
  vector: string | null
  updated_ms: number
  /** A product with options: its options and its active variants in their order (else null). */
  options: { name: string }[] | null
  variants: { id: string; values: string[]; price: string }[] | null
}
interface CategoryRow {
  id: string
  slug: string
  name: string
  image: string | null
  parent_id: string | null
  is_active: boolean
  vector: string
}

/** Words as pg_trgm sees them: runs of letters and digits, lower-cased. */
export const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

/** pg_trgm's trigrams of one word: padded with two spaces before and one after. */
export function trigramsOfWord(word: string): string[] {
  const chars = [' ', ' ', ...word, ' ']
  const out = new Set<string>()
  for (let i = 0; i + 2 < chars.length; i++) out.add(chars[i]! + chars[i + 1]! + chars[i + 2]!)
  return [...out]
}

/** Parses PostgreSQL's text form of a tsvector: `'lexeme':1A,3 'other':2B`. */
export function parseTsvector(text: string): Map<string, number> {
  const out = new Map<string, number>()
  let i = 0
  while (i < text.length) {
    if (text[i] !== "'") {
      i++
      continue
    }
    let lexeme = ''
    i++
    while (i < text.length) {
      const c = text[i]!
      if (c === '\\') {
        lexeme += text[i + 1] ?? ''
        i += 2
      } else if (c === "'") {
        if (text[i + 1] === "'") {
          lexeme += "'"
          i += 2
        } else {
          i++
          break
        }
      } else {
        lexeme += c
        i++
      }
    }
    let weight: number = text[i] === ':' ? 0 : WEIGHT.D
    if (text[i] === ':') {
      i++
      while (i < text.length && text[i] !== ' ') {
        const c = text[i]!
        if (c === 'A' || c === 'B' || c === 'C') weight = Math.max(weight, WEIGHT[c])
        else if (c === ',') weight = Math.max(weight, WEIGHT.D)
        i++
      }
      weight = Math.max(weight, WEIGHT.D)
    }
    out.set(lexeme, Math.max(out.get(lexeme) ?? 0, weight))
  }
  return out
}

/** The strings of a sorted list that start with `prefix` (binary search). */
function withPrefix(all: string[], prefix: string): string[] {
  let lo = 0
  let hi = all.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (all[mid]! < prefix) lo = mid + 1
    else hi = mid
  }
  const out: string[] = []
  for (let i = lo; i < all.length && all[i]!.startsWith(prefix); i++) out.push(all[i]!)
  return out
}

const appendPosting = (map: Map<string, Posting>, key: string, doc: number, code: number): boolean => {
  let posting = map.get(key)
  const fresh = !posting
  if (!posting) map.set(key, (posting = { docs: ints(), weights: new Vec(new Uint8Array(4)) }))
  posting.docs.push(doc)
  posting.weights.push(code)
  posting.ranked = undefined
  return fresh
}

export class CatalogIndex {
  /** Per doc: the product id ('' once removed). */
  readonly ids: string[] = []
  /** Per doc: its JSON (see productJson): which of `chunks`, and where in it. */
  readonly jsonChunk = ints(1024)
  readonly jsonStart = ints(1024)
  readonly jsonLength = ints(1024)
  readonly chunks: Uint8Array[] = []
  /** 1 for a doc removed (its postings stay until the next rebuild). */
  readonly dead = new Vec(new Uint8Array(1024))
  /** Per doc: updated_at (ms), and where its words (search_text) start in `wordPool`, how many, how many are the name's. */
  readonly updatedAt = new Vec(new Float64Array(1024))
  readonly wordStart = ints(1024)
  readonly wordCount = ints(1024)
  readonly nameWords = ints(1024)
  readonly wordPool = ints(16_384)
  readonly docOf = new Map<string, number>()
  /** Per doc of a product with options: its option names and active variants (see IndexedVariant). */
  readonly variants = new Map<number, IndexedOptions>()
  /**
   * Per option name (lower-cased), the words of its values in any product: "red" is a colour's. A
   * query word of an option a product has that none of its variants holds is something it does not
   * sell (search.ts). Only grows: a value no longer sold leaves a word that matches nothing.
   */
  readonly optionValueWords = new Map<string, Set<string>>()
  live = 0
  /** Whether doc order is id order (true until an existing product is re-added at the end): ties then need no id comparison. */
  idOrdered = true
  readonly postings = new Map<string, Posting>()
  #sortedLexemes: string[] | null = null
  /**
   * The surface words of name (weight A), brand (B) and category path (C), unstemmed: a prefix or a
   * model number reaches the word as written ("titl" -> titli, whose stem is `tit`; "05712lmly",
   * which the stemmer would make `05712lmli`), beside the stemmed lexemes of `postings`.
   */
  readonly surface = new Map<string, Posting>()
  #sortedSurface: string[] | null = null
  /** The sum of the live docs' name lengths in words, for the mean length of BM25's length normalisation. */
  nameWordTotal = 0
  // Words (of search_text and category names) with their trigram ids and product counts.
  readonly words: string[] = []
  readonly wordId = new Map<string, number>()
  readonly wordTrigrams: number[][] = []
  readonly wordDocs: number[] = []
  readonly trigramId = new Map<string, number>()
  /** Query word -> its lexeme ('' for a stop word), from PostgreSQL's stemmer. */
  readonly stems = new Map<string, string>()
  categories: IndexedCategory[] = []
  categoryShape = ''
  /** The xmin (32-bit xid, as text) of the snapshot the index was last synced with. */
  syncedXmin = '0'
  #correctionMemo = new Map<string, string[]>()
  #vocabulary: Vocabulary | null = null

  readonly catalogId: string

  constructor(catalogId: string) {
    this.catalogId = catalogId
  }

  wordIdOf(word: string): number {
    let id = this.wordId.get(word)
    if (id === undefined) {
      id = this.words.length
      this.words.push(word)
      this.wordId.set(word, id)
      this.wordDocs.push(0)
      this.wordTrigrams.push(trigramsOfWord(word).map((t) => this.#trigramIdOf(t)).sort((a, b) => a - b))
      this.#vocabulary = null
    }
    return id
  }

  #trigramIdOf(trigram: string): number {
    let id = this.trigramId.get(trigram)
    if (id === undefined) {
      id = this.trigramId.size
      this.trigramId.set(trigram, id)
    }
    return id
  }

  /** Lexemes starting with `prefix` (binary search over the sorted lexemes). */
  lexemesWithPrefix(prefix: string): string[] {
    if (!this.#sortedLexemes) this.#sortedLexemes = [...this.postings.keys()].sort()
    return withPrefix(this.#sortedLexemes, prefix)
  }

  /** Surface words starting with `prefix`. */
  surfaceWithPrefix(prefix: string): string[] {
    if (!this.#sortedSurface) this.#sortedSurface = [...this.surface.keys()].sort()
    return withPrefix(this.#sortedSurface, prefix)
  }

  /** The mean name length in words of the live docs. */
  meanNameWords(): number {
    return this.live > 0 ? this.nameWordTotal / this.live : 1
  }

  /** Adds products (none of them in the index), their JSON in one new chunk. */
  addAll(rows: ProductRow[]) {
    if (rows.length === 0) return
    const json = rows.map(productJson)
    const chunk = Buffer.allocUnsafe(json.reduce((n, j) => n + Buffer.byteLength(j), 0))
    let offset = 0
    rows.forEach((row, i) => {
      const written = chunk.write(json[i]!, offset)
      this.jsonChunk.push(this.chunks.length)
      this.jsonStart.push(offset)
      this.jsonLength.push(written)
      offset += written
      this.#add(row)
    })
    this.chunks.push(chunk)
  }

  /** The product's JSON up to its score. */
  jsonOf(doc: number): Uint8Array {
    const start = this.jsonStart.data[doc]!
    return this.chunks[this.jsonChunk.data[doc]!]!.subarray(start, start + this.jsonLength.data[doc]!)
  }

  /**
   * Lays out every posting in one array sized from PostgreSQL's count of each lexeme, before a
   * build adds its products: growing thousands of arrays one doubling at a time left the process
   * ~50 MB larger than its data (buffers freed to the allocator and kept). A posting that outgrows
   * its place (a write between the count and the read) moves to an array of its own.
   */
  reservePostings(counts: { lexeme: string; n: number }[]) {
    const total = counts.reduce((n, c) => n + c.n, 0)
    const docs = new Int32Array(total)
    const weights = new Uint8Array(total)
    let at = 0
    for (const { lexeme, n } of counts) {
      this.postings.set(lexeme, { docs: new Vec(docs.subarray(at, at + n)), weights: new Vec(weights.subarray(at, at + n)) })
      at += n
    }
    this.#sortedLexemes = null
  }

  #add(row: ProductRow) {
    const doc = this.ids.length
    const surfaceWords = wordsOf(row.search_text)
    const words = surfaceWords.map((w) => this.wordIdOf(w))
    const nameWords = wordsOf(row.name)
    const last = this.#lastId()
    if (last !== null && row.id < last) this.idOrdered = false
    this.ids.push(row.id)
    this.dead.push(0)
    this.updatedAt.push(Number(row.updated_ms))
    this.wordStart.push(this.wordPool.length)
    this.wordCount.push(words.length)
    this.nameWords.push(nameWords.length)
    this.nameWordTotal += nameWords.length
    for (const w of words) this.wordPool.push(w)
    this.docOf.set(row.id, doc)
    if (row.variants?.length && row.options?.length) this.#addOptions(doc, { names: row.options.map((o) => o.name), variants: row.variants.map((v) => ({ id: v.id, values: v.values, price: Number(v.price) })) })
    this.live++
    for (const w of new Set(words)) this.wordDocs[w]!++
    for (const [lexeme, weight] of parseTsvector(row.vector ?? '')) {
      if (appendPosting(this.postings, lexeme, doc, codeOf(weight))) this.#sortedLexemes = null
    }
    // search_text is the name's words, then the brand's, then the category path's.
    const brandEnd = nameWords.length + wordsOf(row.brand).length
    const fieldOf = new Map<string, number>()
    surfaceWords.forEach((w, i) => {
      const code = i < nameWords.length ? 4 : i < brandEnd ? 3 : 2
      if ((fieldOf.get(w) ?? 0) < code) fieldOf.set(w, code)
    })
    for (const [w, code] of fieldOf) if (appendPosting(this.surface, w, doc, code)) this.#sortedSurface = null
    this.#vocabulary = null
    this.#correctionMemo.clear()
  }

  /** Keeps a product's options, its strings interned, and its values' words under their option's name. */
  #addOptions(doc: number, options: IndexedOptions) {
    const names = options.names.map((n) => this.#intern(n))
    this.variants.set(doc, { names, variants: options.variants.map((v) => ({ id: v.id, values: v.values.map((x) => this.#intern(x)), price: v.price })) })
    names.forEach((name, i) => {
      const key = name.toLowerCase()
      let words = this.optionValueWords.get(key)
      if (!words) this.optionValueWords.set(key, (words = new Set()))
      for (const v of options.variants) for (const w of this.valueWords(v.values[i] ?? '')) words.add(w)
    })
  }

  #interned = new Map<string, string>()
  #intern(value: string): string {
    const known = this.#interned.get(value)
    if (known !== undefined) return known
    this.#interned.set(value, value)
    return value
  }

  #valueWords = new Map<string, string[]>()
  /** The words of an option value (lower-cased), remembered per value. */
  valueWords(value: string): string[] {
    let words = this.#valueWords.get(value)
    if (!words) this.#valueWords.set(value, (words = wordsOf(value)))
    return words
  }

  /** Re-adds products' options (after a worker built the index: each string arrives as a copy of its own). */
  restoreOptions(entries: Iterable<[number, IndexedOptions]>) {
    for (const [doc, options] of entries) this.#addOptions(doc, options)
  }

  #lastId(): string | null {
    for (let i = this.ids.length - 1; i >= 0; i--) if (this.ids[i]) return this.ids[i]!
    return null
  }

  remove(id: string) {
    const doc = this.docOf.get(id)
    if (doc === undefined) return
    const start = this.wordStart.data[doc]!
    for (const w of new Set(this.wordPool.data.subarray(start, start + this.wordCount.data[doc]!))) this.wordDocs[w]!--
    this.nameWordTotal -= this.nameWords.data[doc]!
    this.ids[doc] = ''
    this.dead.data[doc] = 1
    this.docOf.delete(id)
    this.variants.delete(doc)
    this.live--
    this.#vocabulary = null
    this.#correctionMemo.clear()
  }

  /** Drops the spare capacity of the per-product arrays (after a build). */
  trim() {
    for (const vec of [this.dead, this.updatedAt, this.wordStart, this.wordCount, this.nameWords, this.wordPool, this.jsonChunk, this.jsonStart, this.jsonLength]) vec.trim()
  }

  /** The catalog's words and how many products use each: the typo corrector's dictionary. */
  vocabularyNow(): Vocabulary {
    if (!this.#vocabulary) {
      const words = this.words.filter((w, i) => this.wordDocs[i]! > 0 && w.length >= 2)
      this.#vocabulary = { words, frequency: new Map(words.map((w) => [w, this.wordDocs[this.wordId.get(w)!]!])) }
    }
    return this.#vocabulary
  }

  correctionsOf(token: string, correct: (token: string, vocabulary: Vocabulary) => string[]): string[] {
    let found = this.#correctionMemo.get(token)
    if (!found) {
      found = correct(token, this.vocabularyNow())
      if (this.#correctionMemo.size < 10_000) this.#correctionMemo.set(token, found)
    }
    return found
  }

  setCategories(rows: CategoryRow[]) {
    this.categories = rows
      .filter((c) => c.is_active)
      .map((c) => ({
        id: c.id,
        slug: c.slug,
        name: c.name,
        image: c.image,
        lexemes: [...parseTsvector(c.vector).keys()],
        words: wordsOf(c.name).map((w) => this.wordIdOf(w)),
      }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  }
}

/** What decides the products' search columns: a category's name and parent, per category. */
const shapeOf = (rows: CategoryRow[]) =>
  rows
    .map((c) => `${c.id}\u0000${c.name}\u0000${c.parent_id ?? ''}`)
    .sort()
    .join('\u0001')

const productColumns = sql`id, slug, name, brand, selling_price, images, category_id, is_active, search_text,
  search_vector::text as vector, (extract(epoch from updated_at) * 1000)::float8 as updated_ms,
  case when options <> '[]'::jsonb then options end as options,
  case when options <> '[]'::jsonb then (
    select json_agg(json_build_object('id', v.id, 'values', v.option_values, 'price', v.selling_price::text) order by v.position)
    from product_variants v where v.product_id = products.id and v.is_active) end as variants`

async function readCategories(db: Db, catalogId: string) {
  return queryRows<CategoryRow>(db, sql`
    select id, slug, name, image, parent_id, is_active, to_tsvector('english', name)::text as vector
    from categories where catalog_id = ${catalogId}`)
}

/**
 * The oldest transaction still running for this statement's snapshot (as a 32-bit xid): every
 * row a later sync must read was written by it or a newer one.
 */
async function snapshotXmin(db: Db): Promise<string> {
  const [row] = await queryRows<{ xmin: string }>(db, sql`select (pg_snapshot_xmin(pg_current_snapshot())::text::bigint % 4294967296)::text as xmin`)
  return row!.xmin
}

/** Products read per statement while building: bounds the memory a build needs beside the index. */
const BUILD_PAGE = 500

/** A whole index, built from the catalog's active products (in id order, a page at a time). */
export async function buildIndex(db: Db, catalogId: string): Promise<CatalogIndex> {
  const index = new CatalogIndex(catalogId)
  const xmin = await snapshotXmin(db)
  const categories = await readCategories(db, catalogId)
  index.reservePostings(
    await queryRows<{ lexeme: string; n: number }>(db, sql`
      select lexeme, count(*)::int as n from products, unnest(search_vector)
      where catalog_id = ${catalogId} and is_active group by lexeme`),
  )
  for (let after = ''; ; ) {
    const rows = await queryRows<ProductRow>(db, sql`
      select ${productColumns} from products
      where catalog_id = ${catalogId} and is_active and id > ${after} order by id limit ${BUILD_PAGE}`)
    index.addAll(rows)
    if (rows.length < BUILD_PAGE) break
    after = rows[rows.length - 1]!.id
  }
  index.trim()
  index.setCategories(categories)
  index.categoryShape = shapeOf(categories)
  index.syncedXmin = xmin
  await stemVocabulary(db, index, index.words)
  return index
}

/**
 * Brings the index in step with the database: applies the products changed since the last sync,
 * or answers a fresh index when a category's name or place changed or the change is large.
 */
export async function syncIndex(db: Db, index: CatalogIndex, rebuild: (db: Db, catalogId: string) => Promise<CatalogIndex> = buildIndex): Promise<CatalogIndex> {
  const xmin = await snapshotXmin(db)
  // Rows touched since the last sync (orders move stock too: those keep their updated_at).
  const [categories, touched] = await Promise.all([
    readCategories(db, index.catalogId),
    queryRows<{ id: string; is_active: boolean; updated_ms: number }>(db, sql`
      select id, is_active, (extract(epoch from updated_at) * 1000)::float8 as updated_ms from products
      where catalog_id = ${index.catalogId} and age(xmin) <= age(${index.syncedXmin}::xid)`),
  ])
  const changed = touched.filter((r) => {
    const doc = index.docOf.get(r.id)
    return doc !== undefined ? !r.is_active || index.updatedAt.data[doc] !== Number(r.updated_ms) : r.is_active
  })
  if (shapeOf(categories) !== index.categoryShape || changed.length > Math.max(1_000, index.live / 5)) {
    return rebuild(db, index.catalogId)
  }
  const ids = changed.map((r) => r.id)
  const rows = ids.length === 0 ? [] : await queryRows<ProductRow>(db, sql`
    select ${productColumns} from products where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`)
  for (const id of ids) index.remove(id)
  const before = index.words.length
  index.addAll(rows.filter((r) => r.is_active))
  const fresh = index.words.slice(before)
  index.setCategories(categories)
  index.syncedXmin = xmin
  await stemVocabulary(db, index, fresh)
  return index
}

/** PostgreSQL's English stems of words (a stop word stems to ''), remembered by the index. */
export async function stemVocabulary(db: Db, index: CatalogIndex, words: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const unknown: string[] = []
  for (const w of new Set(words)) {
    const known = index.stems.get(w)
    if (known === undefined) unknown.push(w)
    else out.set(w, known)
  }
  if (unknown.length === 0) return out
  const rows = await queryRows<{ word: string; lexeme: string | null }>(db, sql`
    select w as word, (ts_lexize('english_stem', w))[1] as lexeme
    from unnest(${`{${unknown.map((w) => `"${w}"`).join(',')}}`}::text[]) w`)
  // Queries bring words the catalog does not have: remember a bounded number of them.
  for (const r of rows) {
    out.set(r.word, r.lexeme ?? '')
    if (index.stems.size < index.words.length + 50_000) index.stems.set(r.word, r.lexeme ?? '')
  }
  return out
}

type Typed = Int32Array | Float64Array | Uint8Array
/** The per-product arrays of an index, by field name. */
const VEC_FIELDS = ['jsonChunk', 'jsonStart', 'jsonLength', 'dead', 'updatedAt', 'wordStart', 'wordCount', 'nameWords', 'wordPool'] as const

/** An index as a structured-cloneable message (see packIndex), for a build made in a worker thread. */
export interface PackedIndex {
  catalogId: string
  ids: string[]
  vecs: Record<(typeof VEC_FIELDS)[number], { data: Typed; length: number }>
  chunks: Uint8Array[]
  live: number
  idOrdered: boolean
  /** lexeme, its docs and weights (views, often of one shared array) and how many of each are used. */
  postings: [string, Int32Array, Uint8Array, number][]
  surface: [string, Int32Array, Uint8Array, number][]
  nameWordTotal: number
  words: string[]
  wordTrigrams: number[][]
  wordDocs: number[]
  trigramId: Map<string, number>
  stems: Map<string, string>
  categories: IndexedCategory[]
  categoryShape: string
  syncedXmin: string
  variants: Map<number, IndexedOptions>
}

/**
 * The index as a message, and the array buffers to transfer with it (moved, not copied). A buffer
 * Node's Buffer pool shares with other Buffers (a small JSON chunk) is copied instead.
 */
export function packIndex(index: CatalogIndex): { packed: PackedIndex; transfer: ArrayBuffer[] } {
  const vecs = Object.fromEntries(VEC_FIELDS.map((f) => [f, { data: index[f].data, length: index[f].length }])) as PackedIndex['vecs']
  const postings: PackedIndex['postings'] = [...index.postings].map(([lexeme, p]) => [lexeme, p.docs.data, p.weights.data, p.docs.length])
  const surface: PackedIndex['surface'] = [...index.surface].map(([word, p]) => [word, p.docs.data, p.weights.data, p.docs.length])
  const views: Typed[] = [...Object.values(vecs).map((v) => v.data), ...[...postings, ...surface].flatMap(([, docs, weights]) => [docs, weights]), ...index.chunks]
  const transfer = new Set<ArrayBuffer>()
  const shared = new Set<ArrayBuffer>()
  for (const view of views) {
    const owned = !Buffer.isBuffer(view) || view.byteLength === view.buffer.byteLength
    if (view.buffer instanceof ArrayBuffer) (owned ? transfer : shared).add(view.buffer)
  }
  for (const buffer of shared) transfer.delete(buffer)
  const packed: PackedIndex = {
    catalogId: index.catalogId,
    ids: index.ids,
    vecs,
    chunks: index.chunks,
    live: index.live,
    idOrdered: index.idOrdered,
    postings,
    surface,
    nameWordTotal: index.nameWordTotal,
    words: index.words,
    wordTrigrams: index.wordTrigrams,
    wordDocs: index.wordDocs,
    trigramId: index.trigramId,
    stems: index.stems,
    categories: index.categories,
    categoryShape: index.categoryShape,
    syncedXmin: index.syncedXmin,
    variants: index.variants,
  }
  return { packed, transfer: [...transfer] }
}

/** The index a packIndex message describes, ready to search and to sync. */
export function unpackIndex(p: PackedIndex): CatalogIndex {
  const index = new CatalogIndex(p.catalogId)
  for (const field of VEC_FIELDS) {
    const vec = index[field] as Vec<Typed>
    vec.data = p.vecs[field].data
    vec.length = p.vecs[field].length
  }
  const vec = <T extends Typed>(data: T, length: number) => Object.assign(new Vec(data), { length })
  Object.assign(index, { live: p.live, idOrdered: p.idOrdered, nameWordTotal: p.nameWordTotal, categories: p.categories, categoryShape: p.categoryShape, syncedXmin: p.syncedXmin })
  // Loops, not push(...xs): 100,000 arguments overflow the stack.
  p.ids.forEach((id, doc) => {
    index.ids.push(id)
    if (id) index.docOf.set(id, doc)
  })
  for (const chunk of p.chunks) index.chunks.push(chunk)
  for (const [lexeme, docs, weights, length] of p.postings) index.postings.set(lexeme, { docs: vec(docs, length), weights: vec(weights, length) })
  for (const [word, docs, weights, length] of p.surface) index.surface.set(word, { docs: vec(docs, length), weights: vec(weights, length) })
  p.words.forEach((word, id) => {
    index.words.push(word)
    index.wordId.set(word, id)
    index.wordTrigrams.push(p.wordTrigrams[id]!)
    index.wordDocs.push(p.wordDocs[id]!)
  })
  for (const [trigram, id] of p.trigramId) index.trigramId.set(trigram, id)
  for (const [word, stem] of p.stems) index.stems.set(word, stem)
  index.restoreOptions(p.variants)
  return index
}
