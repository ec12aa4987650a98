#!/usr/bin/env node
// The `commerce` command line: runs its bundle, dist/cli/commerce.js (decision 0017). The bundle is
// rebuilt first when it is missing or older than a file of src/ (about 0.2 s, once after a
// change), so the command never runs stale code; checking costs a few milliseconds.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const entry = join(root, 'dist/cli/commerce.js')

function newestSource(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs)
  }
  return newest
}

function isStale() {
  let built
  try {
    built = statSync(entry).mtimeMs
  } catch {
    return true
  }
  try {
    return newestSource(join(root, 'src')) > built
  } catch {
    return false // no src/ beside it: the bundle is all there is
  }
}

if (isStale()) {
  const { buildCli } = await import('../scripts/build.mjs')
  await buildCli()
}
await import(pathToFileURL(entry).href)
