// `npm run build` (and `prestart`): bundles src/ with esbuild in a fraction of a second, so that
// `npm start` and the `commerce` command always run the current source as plain JavaScript.
// - The server: src/server.ts into dist/server.js (and the search index worker into
//   dist/index-worker.js). Running through tsx instead costs every process ~110 MB of resident
//   memory (decision 0012).
// - The command line: src/cli/main.ts into dist/cli/commerce.js, split into chunks
//   (dist/cli/chunks/) so that `commerce --help` loads no database driver, ORM or Fastify: they
//   are in the chunks its commands import when they run (decision 0017). bin/commerce.js rebuilds
//   it when src/ is newer (`buildCli` here).
// - The back-office console: console/ into dist/console/, only when its sources changed
//   (scripts/build-console.mjs, decision 0028).
// Packages stay in node_modules (not bundled). Every file is written beside its final name and
// renamed, so two builds or starts at once never load a half-written file; the CLI's entry is
// written last, after the chunks it imports.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { buildConsole } from './build-console.mjs'
import { packagesExternalExceptBundled } from './esbuild-packages.mjs'

const root = fileURLToPath(new URL('../', import.meta.url))
const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', plugins: [packagesExternalExceptBundled], sourcemap: 'linked', write: false, logLevel: 'warning' }

function writeAtomically(files) {
  for (const file of files) {
    mkdirSync(join(file.path, '..'), { recursive: true })
    const temporary = `${file.path}.${process.pid}.tmp`
    writeFileSync(temporary, file.contents)
    renameSync(temporary, file.path)
  }
}

export async function buildServer() {
  const result = await build({
    ...common,
    // The search index's worker thread (src/modules/catalog/index-worker.ts) is a module of its own,
    // found beside the bundle as dist/index-worker.js.
    entryPoints: [join(root, 'src/server.ts'), join(root, 'src/modules/catalog/index-worker.ts')],
    outdir: join(root, 'dist'),
    entryNames: '[name]',
  })
  writeAtomically(result.outputFiles)
}

/** Where bin/commerce.js finds the command line's bundle. */
export const cliEntry = join(root, 'dist/cli/commerce.js')
/** Chunks of an earlier build are removed once they are this old (a command of that build may still be loading them). */
const STALE_CHUNK_MS = 60 * 60 * 1000

export async function buildCli() {
  const outdir = join(root, 'dist/cli')
  const result = await build({
    ...common,
    entryPoints: { commerce: join(root, 'src/cli/main.ts') },
    outdir,
    splitting: true,
    // Named by content: a rebuild never rewrites a chunk that a running command may still import.
    chunkNames: 'chunks/[name]-[hash]',
  })
  const isEntry = (f) => f.path === cliEntry || f.path === `${cliEntry}.map`
  writeAtomically(result.outputFiles.filter((f) => !isEntry(f)))
  writeAtomically(result.outputFiles.filter(isEntry))
  const current = new Set(result.outputFiles.map((f) => f.path))
  const chunks = join(outdir, 'chunks')
  for (const name of readdirSync(chunks)) {
    const path = join(chunks, name)
    if (!current.has(path) && Date.now() - statSync(path).mtimeMs > STALE_CHUNK_MS) rmSync(path, { force: true })
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [, , consoleBuild] = await Promise.all([buildServer(), buildCli(), buildConsole()])
  if (consoleBuild.built) console.log(`console: built dist/console in ${consoleBuild.ms} ms (${Math.round(consoleBuild.jsGzipBytes / 1024)} KB of gzipped JavaScript)`)
}
