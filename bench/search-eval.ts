// Search relevance on the judged query set (bench/search-judgments.json) over the demo catalog.
// Prints MRR (rank of the first result judged 2 or 3) and nDCG@10 (graded), overall and per kind.
// Run: npm run search:eval   (embedded database in memory; takes ~10 s)
import { readFileSync } from 'node:fs'
import { openDatabase } from '../src/db/client.ts'
import { migrateDatabase } from '../src/db/migrate.ts'
import { createCatalog, importDemoCatalog } from '../src/modules/catalog/index.ts'
import { hitProduct, searchCatalog } from '../src/modules/catalog/search.ts'

interface Judgment {
  query: string
  kind: string
  relevant: Record<string, number>
}

const judgments = JSON.parse(readFileSync(new URL('./search-judgments.json', import.meta.url), 'utf8')) as Judgment[]
const verbose = process.argv.includes('--verbose')

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL ?? null, pgliteDir: null, poolSize: 2 })
await migrateDatabase(database)
const catalog = await createCatalog(database.db, `Search eval ${Date.now()}`)
await importDemoCatalog(database.db, catalog.id)

function dcg(grades: number[]): number {
  return grades.reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0)
}

const byKind = new Map<string, { rr: number[]; ndcg: number[] }>()
for (const j of judgments) {
  const found = await searchCatalog(database.db, { catalogId: catalog.id, q: j.query, limit: 10, products: true, categories: false })
  const slugs = found.products.map((p) => hitProduct(p).slug)
  const firstGood = slugs.findIndex((s) => (j.relevant[s] ?? 0) >= 2)
  const rr = firstGood === -1 ? 0 : 1 / (firstGood + 1)
  const ideal = dcg(Object.values(j.relevant).sort((a, b) => b - a).slice(0, 10))
  const ndcg = ideal === 0 ? 0 : dcg(slugs.map((s) => j.relevant[s] ?? 0)) / ideal
  const entry = byKind.get(j.kind) ?? { rr: [], ndcg: [] }
  entry.rr.push(rr)
  entry.ndcg.push(ndcg)
  byKind.set(j.kind, entry)
  if (verbose && rr < 1) {
    console.log(`${j.kind.padEnd(9)} ${j.query.padEnd(32)} rr=${rr.toFixed(2)} top: ${slugs.slice(0, 3).join(', ')}`)
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)
const all = [...byKind.values()]
console.log('\nkind       queries   MRR     nDCG@10')
for (const [kind, e] of [...byKind.entries()].sort()) {
  console.log(`${kind.padEnd(10)} ${String(e.rr.length).padStart(7)}   ${mean(e.rr).toFixed(3)}   ${mean(e.ndcg).toFixed(3)}`)
}
console.log(`${'overall'.padEnd(10)} ${String(judgments.length).padStart(7)}   ${mean(all.flatMap((e) => e.rr)).toFixed(3)}   ${mean(all.flatMap((e) => e.ndcg)).toFixed(3)}`)
await database.close()
