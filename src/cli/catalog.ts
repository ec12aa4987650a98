import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { AppError } from '../lib/errors.ts'
import type { CatalogImport, ProductRowLabel } from '../modules/catalog/index.ts'
import type { Command } from './command.ts'
import { withRuntime } from './command.ts'
import { catalogOrDefault } from './lookups.ts'
import { withProgress } from './progress.ts'

interface ImportFile {
  input: CatalogImport
  /** How errors name a product: its line in a CSV file, `products[i]` in JSON. */
  productLabel?: ProductRowLabel
}

async function readImportFile(file: string): Promise<ImportFile> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new AppError('NOT_FOUND', `File ${file} not found`)
    throw new AppError('BAD_REQUEST', `Cannot read ${file}: ${(err as Error).message}`)
  }
  if (extname(file).toLowerCase() === '.csv') {
    const { readProductsCsv } = await import('../modules/catalog/index.ts')
    const csv = readProductsCsv(text)
    return { input: { products: csv.products }, productLabel: (i) => `line ${csv.lines[i]}` }
  }
  let input: unknown
  try {
    input = JSON.parse(text)
  } catch (err) {
    throw new AppError('BAD_REQUEST', `${file} is not valid JSON: ${(err as Error).message}`)
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new AppError('BAD_REQUEST', `${file} must hold a JSON object {categories, products}`)
  return { input: input as CatalogImport }
}

export const catalogImport: Command = {
  summary: 'Import categories and products from a JSON or CSV file, all or nothing',
  positional: { name: 'FILE', description: 'A .json file {categories, products} or a .csv of products (columns: docs/catalog-import.md)' },
  options: { catalog: { type: 'string', description: 'Catalog ID (default: the main catalog)' } },
  async run(config, values, positionals, context) {
    const file = positionals[0]!
    const { importCatalog } = await import('../modules/catalog/index.ts')
    const { input, productLabel } = await readImportFile(file)
    const report = await withProgress(
      context,
      'Opening the database',
      (progress) =>
        withRuntime(config, context, async (deps) => {
          const db = deps.database.db
          const catalogId = await catalogOrDefault(db, values.catalog as string | undefined)
          progress.step('Importing')
          return (await importCatalog(db, catalogId, input, { onProgress: progress.update, productLabel })).written
        }),
      (r, seconds) => `Imported ${r.categories.created + r.categories.updated} categories and ${r.products.created + r.products.updated} products in ${seconds} s.`,
    )
    const text = `Imported: categories ${report.categories.created} created, ${report.categories.updated} updated; products ${report.products.created} created, ${report.products.updated} updated.`
    return { text, json: report }
  },
}

export const benchData: Command = {
  summary: 'Create a synthetic catalog of N products (for benchmarks) and a partner whose key reads it',
  options: { products: { type: 'string', required: true, description: 'Number of products, e.g. 100000' } },
  async run(config, values, _positionals, context) {
    const count = Number(values.products)
    if (!Number.isInteger(count) || count < 1 || count > 5_000_000) throw new AppError('BAD_REQUEST', '--products must be a whole number from 1 to 5000000')
    const { createCatalog, importCatalog, syntheticCatalog } = await import('../modules/catalog/index.ts')
    const { createPartner } = await import('../modules/partners/index.ts')
    const started = Date.now()
    const result = await withProgress(
      context,
      'Opening the database',
      (progress) =>
        withRuntime(config, context, async (deps) => {
          const db = deps.database.db
          const catalog = await createCatalog(db, `Bench catalog (${count} products)`)
          progress.step('Generating')
          await importCatalog(db, catalog.id, syntheticCatalog(count), { onProgress: progress.update })
          const partner = await createPartner(db, { name: `Bench partner ${catalog.id}`, catalogId: catalog.id })
          return { catalogId: catalog.id, partnerId: partner.partner.id, partnerSecret: partner.secret, apiKey: partner.apiKey, products: count }
        }),
      (r, seconds) => `Generated ${r.products} products in ${seconds} s.`,
    )
    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    const text = [
      `Catalog ${result.catalogId} with ${count} products in ${seconds} s.`,
      `  Partner ID (x-partner-id): ${result.partnerId}`,
      `  Partner secret:            ${result.partnerSecret}`,
      `  API key (x-api-key):       ${result.apiKey}`,
    ].join('\n')
    return { text, json: { ...result, seconds: Number(seconds) } }
  },
}
