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
 * `{built: false, reason}` or `{built: true, ms, jsBytes, jsGzipBytes}`.
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
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    entryNames: 'assets/[name]-[hash]',
    outdir: consoleOutDir,
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
  })
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'))
  const name = relative(consoleOutDir, js.path)
  const template = readFileSync(join(sourceDir, 'index.html'), 'utf8')
  const info = {
    sourceHash,
    builtAt: new Date().toISOString(),
    script: name,
    jsBytes: js.contents.length,
  }
  // Compressed copies beside the script, sent by @fastify/static (preCompressed) to a browser that
  // accepts them. Brotli at quality 9: 3 % larger than 11 for a fourteenth of the time (0.15 s, not 2 s).
  const gzip = gzipSync(js.contents, { level: 9 })
  const brotli = brotliCompressSync(js.contents, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })
  info.jsGzipBytes = gzip.length
  info.jsBrotliBytes = brotli.length
  info.ms = Date.now() - started
  const temporary = `${consoleOutDir}.${process.pid}.tmp`
  rmSync(temporary, { recursive: true, force: true })
  mkdirSync(join(temporary, 'assets'), { recursive: true })
  writeFileSync(join(temporary, name), js.contents)
  writeFileSync(join(temporary, `${name}.gz`), gzip)
  writeFileSync(join(temporary, `${name}.br`), brotli)
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
