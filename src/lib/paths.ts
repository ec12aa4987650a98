// Files the service reads at run time (migrations, the demo catalog, its own version), found from
// the project root. The root is the nearest folder above this module holding package.json, so the
// same code works from src/ (tsx, tests) and from the single bundled dist/server.js (`npm start`).
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

function findRoot(from: string): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`)
  }
}

export const projectRoot = findRoot(fileURLToPath(import.meta.url))
export const projectFile = (...parts: string[]) => join(projectRoot, ...parts)
