// `npm run build` (and `prestart`): bundles src/server.ts into dist/server.js with esbuild in about a
// tenth of a second, so `npm start` always runs the current source as plain JavaScript. Running
// through tsx instead costs every process ~110 MB of resident memory (decision 0012). Packages stay
// in node_modules (not bundled). The file is written beside its final name and renamed, so two
// starts at once never load a half-written bundle.
import { renameSync, writeFileSync, mkdirSync } from 'node:fs'
import { build } from 'esbuild'

const root = new URL('../', import.meta.url)
const out = new URL('dist/server.js', root)
const result = await build({
  entryPoints: [new URL('src/server.ts', root).pathname],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  outfile: out.pathname,
  write: false,
  logLevel: 'warning',
})
mkdirSync(new URL('dist/', root), { recursive: true })
for (const file of result.outputFiles) {
  const temporary = `${file.path}.${process.pid}.tmp`
  writeFileSync(temporary, file.contents)
  renameSync(temporary, file.path)
}
