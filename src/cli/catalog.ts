import { createWriteStream, readFileSync, statSync, writeFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { extname, resolve } from 'node:path'
import type { Config } from '../config.ts'
import type { Db } from '../db/client.ts'
import { AppError } from '../lib/errors.ts'
import type { CatalogImport, csvImportOptions, ExportFormat, ImportCheck, ProblemReport, ProductsCsv } from '../modules/catalog/index.ts'
import type { CliContext, Command } from './command.ts'
import { withRuntime } from './command.ts'
import { catalogOrDefault } from './lookups.ts'
import { type Progress, withProgress } from './progress.ts'

/** The GST rates in force today, which an import's `gstRateBps` must be one of (the tax module's data). */
async function gstRatesToday(db: Db): Promise<number[]> {
  const { gstRatesInForceAt } = await import('../modules/tax/index.ts')
  return [...(await gstRatesInForceAt(db, new Date()))]
}

interface ImportFile {
  input: CatalogImport
  /** A CSV file's import options: its lines name the rows (JSON: `products[i]`), a Shopify file's categories by name. */
  options?: ReturnType<typeof csvImportOptions>
  /** A CSV file as read (its header and cells), for its rejects file. */
  csv?: ProductsCsv
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
    const { csvImportOptions, readProductsCsv } = await import('../modules/catalog/index.ts')
    const csv = readProductsCsv(text)
    return { input: { products: csv.products }, options: csvImportOptions(csv), csv }
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

/** Writes the rows an import leaves out, in the file's own format (docs/catalog-import.md). */
async function writeRejects(path: string, file: ImportFile, check: ImportCheck): Promise<void> {
  const { rejectsCsv, rejectsJson } = await import('../modules/catalog/index.ts')
  const content = file.csv ? rejectsCsv(file.csv, check.invalidProducts) : `${JSON.stringify(rejectsJson(file.input, check), null, 2)}\n`
  try {
    writeFileSync(path, content)
  } catch (err) {
    throw new AppError('BAD_REQUEST', `Cannot write ${path}: ${(err as Error).message}; nothing was imported`)
  }
}

const rows = (counts: { categories: number; products: number }) => `${counts.categories} categories and ${counts.products} products`

/** A Shopify file's columns the catalog does not keep, as the output names them (none: nothing). */
const unusedText = (file: ImportFile) =>
  file.csv?.format === 'shopify' && file.csv.unusedColumns.length > 0 ? [`Shopify columns not imported (the catalog does not keep them): ${file.csv.unusedColumns.join(', ')}.`] : []
const unusedJson = (file: ImportFile) => (file.csv?.format === 'shopify' ? { unusedColumns: file.csv.unusedColumns } : {})

/** The problems of a check by kind, then the first 1,000 of them, as the text output prints them. */
function problemsText(report: ProblemReport): string[] {
  const { total, byKind, first } = report.problems
  if (total === 0) return ['No problems.']
  return [
    `${total} problems in ${rows(report.invalid)}, by kind:`,
    ...Object.entries(byKind).map(([kind, n]) => `  ${kind}: ${n}`),
    first.length < total ? `The first ${first.length} of them:` : 'Each of them:',
    ...first.map((message) => `  ${message}`),
  ]
}

/** Opens the database and runs `work` on the catalog of --catalog (default: the main one). */
function onCatalog<T>(config: Config, context: CliContext, given: string | undefined, progress: Progress, work: (db: Db, catalogId: string) => Promise<T>): Promise<T> {
  progress.step('Opening the database')
  return withRuntime(config, context, async (deps) => work(deps.database.db, await catalogOrDefault(deps.database.db, given)))
}

/** A file's size in bytes, 0 if it cannot be read (the command then reports the file itself). */
function fileSize(file: string): number {
  try {
    return statSync(file).size
  } catch {
    return 0
  }
}

export const catalogImport: Command = {
  summary: 'Import categories and products from a JSON or CSV file, or a Shopify product CSV (--dry-run: check it only)',
  positional: { name: 'FILE', description: "A .json file {categories, products}, a .csv of products (a row per variant), or Shopify's product CSV" },
  // Measured: 5,000 rows (0.3 MB) take as long either way, 30,000 rows (1.6 MB) 12 s optimised, 15 s not.
  long: (_values, [file]) => file !== undefined && fileSize(file) > 1_000_000,
  options: {
    catalog: { type: 'string', description: 'Catalog ID (default: the main catalog)' },
    category: { type: 'string', description: "The category of products that name none (a slug; in a Shopify file, a slug or a name), e.g. a Shopify file's rows with an empty Type" },
    'dry-run': { type: 'boolean', description: 'Check every row and print the problems by kind; write nothing. Exit 1 if there are problems' },
    'skip-invalid': { type: 'boolean', description: 'Import the valid rows and leave out the invalid ones (default: any problem and nothing is imported)' },
    rejects: { type: 'string', description: 'With --skip-invalid: the file the rows left out are written to, with their problems (CSV for a CSV, JSON for JSON)' },
  },
  notes: [
    'CSV columns (the first line names them, in any order; * required):',
    '  slug*, name*, brand (empty: none), sku*, categorySlug*, sellingPrice* and mrp* (rupees, e.g. 289.50),',
    '  stock, images (URLs separated by |), description, weightGrams, isActive (true or false),',
    '  hsnCode, gstRateBps (GST: HSN code, rate in basis points in force today; empty keeps the stored value)',
    'Variants: a row per variant, rows of one product following each other with its slug: option1Name, option1Value,',
    '  (option2…, option3…), variantSku, variantSellingPrice, variantMrp, variantStock, variantWeightGrams, variantBarcode, …',
    "A Shopify product CSV (a header naming Handle) is read as it is; the columns it does not use are named.",
    'Every problem is counted by kind; the first 1,000 are listed. Details: docs/catalog-import.md',
  ],
  usage(values, positionals) {
    if (values['dry-run'] && (values['skip-invalid'] || values.rejects !== undefined)) return '--dry-run writes nothing: leave out --skip-invalid and --rejects'
    if (values['skip-invalid'] && values.rejects === undefined) return 'Missing --rejects (the file --skip-invalid writes the rows it leaves out to)'
    if (values.rejects !== undefined && !values['skip-invalid']) return '--rejects goes with --skip-invalid'
    if (values.rejects !== undefined && positionals[0] !== undefined && resolve(values.rejects as string) === resolve(positionals[0])) return '--rejects must not be FILE itself'
    return undefined
  },
  async run(config, values, positionals, context) {
    const path = positionals[0]!
    const catalog = values.catalog as string | undefined
    const defaultCategory = values.category === undefined ? {} : { defaultCategory: values.category as string }
    const { checkCatalogImport, importCatalog, problemReport } = await import('../modules/catalog/index.ts')
    let read: ImportFile | undefined

    if (values['dry-run']) {
      const report = await withProgress(
        context,
        `Reading ${path}`,
        async (progress) => {
          const file = await readImportFile(path)
          read = file
          return onCatalog(config, context, catalog, progress, async (db, catalogId) => {
            progress.step('Checking')
            return problemReport(await checkCatalogImport(db, catalogId, file.input, file.options?.productLabel, await gstRatesToday(db), { ...file.options, ...defaultCategory }))
          })
        },
        (r, seconds) => `Checked ${rows(r.checked)} in ${seconds} s: ${r.problems.total} problems.`,
      )
      const text = [`Dry run, nothing was written. Checked ${rows(report.checked)}.`, ...unusedText(read!), ...problemsText(report)].join('\n')
      return { text, json: { dryRun: true, ...report, ...unusedJson(read!) }, exitCode: report.problems.total > 0 ? 1 : 0 }
    }

    const rejects = values.rejects as string | undefined
    const result = await withProgress(
      context,
      `Reading ${path}`,
      async (progress) => {
        const file = await readImportFile(path)
        read = file
        return onCatalog(config, context, catalog, progress, async (db, catalogId) => {
          progress.step('Checking')
          const { written, check } = await importCatalog(db, catalogId, file.input, {
            gstRatesInForce: await gstRatesToday(db),
            ...file.options,
            ...defaultCategory,
            invalidRows: rejects ? 'skip' : 'refuse',
            // The rejects file first: if it cannot be written, nothing is imported.
            onChecked: async (check) => {
              if (rejects) await writeRejects(rejects, file, check)
              progress.step('Importing')
            },
            onProgress: progress.update,
          })
          return { written, report: problemReport(check) }
        })
      },
      ({ written: w, report }, seconds) =>
        `Imported ${w.categories.created + w.categories.updated} categories and ${w.products.created + w.products.updated} products in ${seconds} s${rejects ? `; rejected ${report.invalid.categories + report.invalid.products} rows` : ''}.`,
    )
    const { written, report } = result
    const imported = `Imported: categories ${written.categories.created} created, ${written.categories.updated} updated; products ${written.products.created} created, ${written.products.updated} updated.`
    if (!rejects) return { text: [imported, ...unusedText(read!)].join('\n'), json: { ...written, ...unusedJson(read!) } }
    const text = [imported, ...unusedText(read!), `Rejected: ${rows(report.invalid)}, written to ${rejects} with their problems.`, ...problemsText(report)].join('\n')
    return { text, json: { ...written, ...unusedJson(read!), rejected: report.invalid, rejectsFile: rejects, problems: report.problems } }
  },
}

const FORMATS: ExportFormat[] = ['json', 'csv', 'shopify']

export const catalogExport: Command = {
  summary: "Export a catalog as a file the import reads back: JSON, its products CSV, or Shopify's product CSV",
  options: {
    catalog: { type: 'string', description: 'Catalog ID (default: the main catalog)' },
    format: { type: 'string', description: 'json (default: categories and products), csv (products, a row per variant) or shopify (Shopify\'s product CSV)' },
    output: { type: 'string', description: 'The file to write (default: stdout)' },
  },
  notes: ['Importing the file into an empty catalog (with the same categories, for csv and shopify) and exporting it again gives the same file. Details: docs/catalog-import.md'],
  usage(values) {
    if (values.format !== undefined && !FORMATS.includes(values.format as ExportFormat)) return `--format must be one of ${FORMATS.join(', ')}`
    return undefined
  },
  async run(config, values, _positionals, context) {
    const format = (values.format as ExportFormat | undefined) ?? 'json'
    const output = values.output as string | undefined
    const { exportCatalog, openCatalogExport } = await import('../modules/catalog/index.ts')
    const progress: Progress = { step: () => {}, update: () => {}, end: () => {} }
    if (output === undefined) {
      const { catalogId, file } = await onCatalog(config, context, values.catalog as string | undefined, progress, async (db, id) => ({ catalogId: id, file: await exportCatalog(db, id, format) }))
      return { text: file.replace(/\n$/, ''), json: { catalogId, format, content: file } }
    }
    // To a file: written a page of products at a time, never held whole.
    const { catalogId, bytes } = await onCatalog(config, context, values.catalog as string | undefined, progress, async (db, id) => {
      const pieces = await openCatalogExport(db, id, format)
      let written = 0
      const counted = async function* () {
        for await (const piece of pieces) {
          written += Buffer.byteLength(piece)
          yield piece
        }
      }
      const file = createWriteStream(output)
      let cannotWrite: Error | null = null
      file.on('error', (err) => (cannotWrite = err))
      try {
        await pipeline(Readable.from(counted()), file)
      } catch (err) {
        if (cannotWrite) throw new AppError('BAD_REQUEST', `Cannot write ${output}: ${(cannotWrite as Error).message}`)
        throw err
      }
      return { catalogId: id, bytes: written }
    })
    return { text: `Exported catalog ${catalogId} as ${format} to ${output} (${bytes} bytes).`, json: { catalogId, format, output, bytes } }
  },
}

export const benchData: Command = {
  summary: 'Create a synthetic catalog of N products (for benchmarks) and a partner whose key reads it',
  long: true,
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
