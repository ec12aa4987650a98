// `npm run build` (and `prestart`): bundles src/server.ts into dist/server.js (and the search index worker into dist/index-worker.js) with esbuild in about a
// tenth of a second, so `npm start` always runs the current source as plain JavaScript. Running
// through tsx instead costs every process ~110 MB of resident memory (decision 0012). Packages stay
// in node_modules (not bundled). The file is written beside its final name and renamed, so two
// starts at once never load a half-written bundle.
import { renameSync, writeFileSync, mkdirSync } from 'node:fs'
import { build } from 'esbuild'

const root = new URL('../', import.meta.url)
const result = await build({
  // The search index's worker thread (src/modules/catalog/index-worker.ts) is a module of its own,
  // found beside the bundle as dist/index-worker.js.
  entryPoints: [new URL('src/server.ts', root).pathname, new URL('src/modules/catalog/index-worker.ts', root).pathname],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  outdir: new URL('dist/', root).pathname,
  entryNames: '[name]',
  write: false,
  logLevel: 'warning',
})
mkdirSync(new URL('dist/', root), { recursive: true })
for (const file of result.outputFiles) {
  const temporary = `${file.path}.${process.pid}.tmp`
  writeFileSync(temporary, file.contents)
  renameSync(temporary, file.path)
}
