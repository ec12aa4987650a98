// The back-office console (console/, decision 0028): bundled by esbuild into dist/console/, which the
// service serves at /admin (src/http/console.ts). Part of `npm run build` and `prestart`.
// - Rebuilt only when its inputs changed: a SHA-256 of every file under console/, package-lock.json
//   (the framework's version) and this script, kept in dist/console/build.json. A start with
//   unchanged sources costs one hash of ~40 small files (a few milliseconds).
// - The framework (react-admin, React) is a devDependency: `npm ci` installs it. An install without
//   dev dependencies (`npm ci --omit=dev`) keeps a console built before, or starts without one
//   (the service then answers /admin with 503 saying how to build it).
// - Written to a temporary folder and renamed into place, so a server never serves half a build.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('../', import.meta.url))
const sourceDir = join(root, 'console')
export const consoleOutDir = join(root, 'dist/console')

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]))
    .sort()
}

/** The hash of everything the console's build reads. */
export function consoleSourceHash() {
  const hash = createHash('sha256')
  for (const file of [...filesUnder(sourceDir), join(root, 'package-lock.json'), fileURLToPath(import.meta.url)]) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0')
  }
  return hash.digest('hex')
}

function previousBuild() {
  try {
    return JSON.parse(readFileSync(join(consoleOutDir, 'build.json'), 'utf8'))
  } catch {
    return null
  }
}

/**
 * Builds the console unless dist/console was built from the same sources. Answers what it did:
 * `{built: false, reason}` or `{built: true, ms, jsBytes, jsGzipBytes, jsBrotliBytes, signInBrotliBytes}`
 * (every script's bytes summed; signInBrotliBytes: what the sign-in page loads).
 */
export async function buildConsole({ force = false } = {}) {
  const sourceHash = consoleSourceHash()
  const previous = previousBuild()
  if (!force && previous?.sourceHash === sourceHash && existsSync(join(consoleOutDir, 'index.html'))) return { built: false, reason: 'unchanged', ...previous }
  try {
    createRequire(join(root, 'package.json')).resolve('react-admin')
  } catch {
    const reason = 'react-admin is not installed (an install without dev dependencies?)'
    console.warn(`console: not built: ${reason}; ${previous ? 'serving the earlier build' : '/admin will answer 503'}`)
    return { built: false, reason }
  }
  const started = Date.now()
  const result = await build({
    entryPoints: { app: join(sourceDir, 'src/main.tsx') },
    bundle: true,
    minify: true,
    format: 'esm',
    // The sign-in page's script holds React and the form; the console (react-admin, MUI) is a chunk
    // loaded once signed in (console/src/main.tsx), so a cold sign-in loads a fraction of it.
    splitting: true,
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    entryNames: 'assets/[name]-[hash]',
    chunkNames: 'assets/chunk-[hash]',
    outdir: consoleOutDir,
    write: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  })
  const scripts = result.outputFiles.filter((f) => f.path.endsWith('.js'))
  const nameOf = (file) => relative(consoleOutDir, file.path)
  const entry = scripts.find((f) => result.metafile.outputs[relative(root, f.path)]?.entryPoint)
  if (!entry) throw new Error('console build: no entry script')
  // What the sign-in page loads: the entry and the chunks it imports statically.
  const firstLoad = new Set([relative(root, entry.path)])
  for (const path of firstLoad) for (const imported of result.metafile.outputs[path].imports) if (imported.kind === 'import-statement') firstLoad.add(imported.path)
  const template = readFileSync(join(sourceDir, 'index.html'), 'utf8')
  const name = nameOf(entry)
  const info = { sourceHash, builtAt: new Date().toISOString(), script: name, scripts: scripts.length, jsBytes: 0, jsGzipBytes: 0, jsBrotliBytes: 0, signInBrotliBytes: 0 }
  const temporary = `${consoleOutDir}.${process.pid}.tmp`
  rmSync(temporary, { recursive: true, force: true })
  mkdirSync(join(temporary, 'assets'), { recursive: true })
  for (const script of scripts) {
    // Compressed copies beside each script, sent by @fastify/static (preCompressed) to a browser that
    // accepts them. Brotli at quality 9: 3 % larger than 11 for a fourteenth of the time.
    const gzip = gzipSync(script.contents, { level: 9 })
    const brotli = brotliCompressSync(script.contents, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })
    info.jsBytes += script.contents.length
    info.jsGzipBytes += gzip.length
    info.jsBrotliBytes += brotli.length
    if (firstLoad.has(relative(root, script.path))) info.signInBrotliBytes += brotli.length
    writeFileSync(join(temporary, nameOf(script)), script.contents)
    writeFileSync(join(temporary, `${nameOf(script)}.gz`), gzip)
    writeFileSync(join(temporary, `${nameOf(script)}.br`), brotli)
  }
  info.ms = Date.now() - started
  writeFileSync(join(temporary, 'index.html'), template.replace('%SCRIPT%', `/admin/${name}`))
  writeFileSync(join(temporary, 'build.json'), `${JSON.stringify(info, null, 2)}\n`)
  const old = `${consoleOutDir}.${process.pid}.old`
  try {
    if (existsSync(consoleOutDir)) renameSync(consoleOutDir, old)
    renameSync(temporary, consoleOutDir)
  } catch (err) {
    // Two builds at once (two test files, two starts): the other one placed its build first. Same
    // sources, same build: keep it.
    rmSync(temporary, { recursive: true, force: true })
    if (previousBuild()?.sourceHash !== sourceHash) throw err
  } finally {
    rmSync(old, { recursive: true, force: true })
  }
  return { built: true, ...info }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outcome = await buildConsole({ force: process.argv.includes('--force') })
  console.log(JSON.stringify(outcome))
}
