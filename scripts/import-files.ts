// Writes the files of a catalog import of N synthetic products (the bench's generator), to time
// `commerce catalog import` on a merchant-sized CSV (docs/benchmarks.md, "Catalog import"):
//
//   node --import tsx scripts/import-files.ts 100000 /tmp/import
//   -> /tmp/import/categories.json (the category tree) and /tmp/import/products.csv (N products)
//
// Import the categories first: a CSV holds products only.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stringify } from 'csv-stringify/sync'
import { PRODUCT_CSV_COLUMNS, syntheticCatalog } from '../src/modules/catalog/index.ts'
import type { ProductImportRow } from '../src/modules/catalog/import.ts'

const count = Number(process.argv[2])
const dir = process.argv[3]
if (!Number.isInteger(count) || count < 1 || !dir) {
  console.error('Usage: node --import tsx scripts/import-files.ts N DIR')
  process.exit(2)
}
const { categories = [], products = [] } = syntheticCatalog(count)
mkdirSync(dir, { recursive: true })
writeFileSync(join(dir, 'categories.json'), JSON.stringify({ categories }))
const cells = (p: ProductImportRow) =>
  PRODUCT_CSV_COLUMNS.map((column) => {
    const value = column === 'lengthCm' ? p.dimensionsCm?.length : column === 'breadthCm' ? p.dimensionsCm?.breadth : column === 'heightCm' ? p.dimensionsCm?.height : p[column]
    if (value === undefined) return ''
    return Array.isArray(value) ? value.join('|') : String(value)
  })
writeFileSync(join(dir, 'products.csv'), stringify([[...PRODUCT_CSV_COLUMNS], ...products.map(cells)]))
console.log(`${join(dir, 'categories.json')}: ${categories.length} categories; ${join(dir, 'products.csv')}: ${products.length} products`)
