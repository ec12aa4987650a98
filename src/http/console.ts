// The back-office console (console/, decision 0028): static files built into dist/console by
// `npm run build` / prestart (scripts/build-console.mjs), served at /admin. It calls the API at
// /api/v1/admin/... like any client, so /admin/* holds nothing but these files. Registered before
// the rate limiter, like /docs: loading the console's files never spends a caller's budget.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { AppError } from '../lib/errors.ts'
import { projectFile } from '../lib/paths.ts'

/** dist/console of the checkout this code runs from (src/http/ under tsx, dist/ once bundled). */
export const consoleDirectory = () => projectFile('dist/console')

/**
 * The console's own policy: its scripts and styles come from this origin only (MUI writes style
 * elements, hence 'unsafe-inline' for styles alone); images may be the storage's (S3, https) or
 * the service's public address (local uploads' URLs, which may name another host than the one the
 * browser opened, e.g. localhost and 127.0.0.1); an agent's reply images are PUT to the storage's
 * upload address (`uploadOrigin`: the service's public address, or the bucket's).
 */
export function consoleCsp(publicBaseUrl: string | null, uploadOrigin: string | null = null): string {
  const uploads = publicBaseUrl ? ` ${new URL(publicBaseUrl).origin}` : ''
  const puts = uploadOrigin ? ` ${uploadOrigin}` : ''
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: https:${uploads}`,
    `connect-src 'self'${puts}`,
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

export async function consoleRoutes(app: FastifyInstance, options: { root?: string; publicBaseUrl?: string; uploadOrigin?: string }) {
  const root = options.root ?? consoleDirectory()
  const csp = consoleCsp(options.publicBaseUrl ?? null, options.uploadOrigin ?? null)
  if (!existsSync(join(root, 'index.html'))) {
    const notBuilt = async () => {
      throw new AppError('UNAVAILABLE', 'The console is not built: run `npm run build` (it needs the dev dependencies: `npm ci`)')
    }
    app.get('/admin', { schema: { hide: true } }, notBuilt)
    app.get('/admin/*', { schema: { hide: true } }, notBuilt)
    return
  }
  // The page itself at /admin (and /admin/: the app ignores trailing slashes), read on each request
  // so that a rebuild while the server runs is served at once; its script is under /admin/assets/.
  app.get('/admin', { schema: { hide: true } }, async (_request, reply) => {
    const page = await readFile(join(root, 'index.html'))
    return reply.type('text/html; charset=utf-8').header('content-security-policy', csp).header('cache-control', 'no-cache').send(page)
  })
  await app.register(fastifyStatic, {
    root,
    prefix: '/admin/',
    decorateReply: false,
    index: false,
    // The build writes .br and .gz copies of the script (scripts/build-console.mjs).
    preCompressed: true,
    cacheControl: false,
    serveDotFiles: false,
    allowedPath: (path) => path !== '/build.json',
    setHeaders(reply, path) {
      reply.header('content-security-policy', csp)
      // Scripts are named by their content: kept for a year. The page is checked every time.
      reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache')
    },
  })
}
