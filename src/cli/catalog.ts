import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { AppError } from '../lib/errors.ts'
import { type CatalogImport, createCatalog, findDefaultCatalog, importCatalog, parseProductsCsv, syntheticCatalog } from '../modules/catalog/index.ts'
import { createPartner } from '../modules/partners/index.ts'
import type { Command } from './command.ts'
import { withRuntime } from './command.ts'
import { progressBar } from './progress.ts'

export const catalogImport: Command = {
  summary: 'Import categories and products from a JSON or CSV file, all or nothing',
  positional: { name: 'FILE', description: 'A .json file {categories, products} or a .csv of products' },
  options: { catalog: { type: 'string', description: 'Catalog ID (default: the main catalog)' } },
  async run(config, values, positionals) {
    const file = positionals[0]
    if (!file) throw new AppError('BAD_REQUEST', 'Missing FILE')
    const text = readFileSync(file, 'utf8')
    const input: CatalogImport = extname(file).toLowerCase() === '.csv' ? { products: parseProductsCsv(text) } : (JSON.parse(text) as CatalogImport)
    const report = await withRuntime(config, async (deps) => {
      const db = deps.database.db
      const catalogId = (values.catalog as string | undefined) ?? (await findDefaultCatalog(db))?.id
      if (!catalogId) throw new AppError('NOT_FOUND', 'No catalog exists yet: pass --catalog')
      return importCatalog(db, catalogId, input, progressBar('Importing'))
    })
    const text2 = `Imported: categories ${report.categories.created} created, ${report.categories.updated} updated; products ${report.products.created} created, ${report.products.updated} updated.`
    return { text: text2, json: report }
  },
}

export const benchData: Command = {
  summary: 'Create a synthetic catalog of N products (for benchmarks) and a partner whose key reads it',
  options: { products: { type: 'string', required: true, description: 'Number of products, e.g. 100000' } },
  async run(config, values) {
    const count = Number(values.products)
    if (!Number.isInteger(count) || count < 1 || count > 5_000_000) throw new AppError('BAD_REQUEST', '--products must be a whole number from 1 to 5000000')
    const started = Date.now()
    const result = await withRuntime(config, async (deps) => {
      const db = deps.database.db
      const catalog = await createCatalog(db, `Bench catalog (${count} products)`)
      await importCatalog(db, catalog.id, syntheticCatalog(count), progressBar('Generating'))
      const partner = await createPartner(db, { name: `Bench partner ${catalog.id}`, catalogId: catalog.id })
      return { catalogId: catalog.id, partnerId: partner.partner.id, partnerSecret: partner.secret, apiKey: partner.apiKey, products: count }
    })
    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    return { text: `Catalog ${result.catalogId} with ${count} products in ${seconds} s.\n  API key: ${result.apiKey}`, json: { ...result, seconds: Number(seconds) } }
  },
}
