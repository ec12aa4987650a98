// The security headers of every answer. @fastify/helmet sets them in an onRequest hook, so answers
// that never reach onRequest miss them: errors the router raises before hooks run (a path
// parameter over the length limit: 414, a malformed percent-encoding: 400) and requests Node's
// parser rejects before Fastify sees them (a URL or headers over 16 kB: 431). Those answers set
// SECURITY_HEADERS themselves: what helmet sets with the app's options, read from helmet once.
import helmet, { type HelmetOptions } from 'helmet'

/** The options the app registers @fastify/helmet with (src/app.ts). */
export const HELMET_OPTIONS = {
  contentSecurityPolicy: false,
  crossOriginResourcePolicy: { policy: 'cross-origin' },
} as const satisfies HelmetOptions

/** Runs helmet's middleware against a recorder: the headers it sets on every answer. */
function headersHelmetSets(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()]
    },
  }
  let failed: unknown = null
  helmet(options)({} as never, recorder as never, (err?: unknown) => {
    failed = err ?? null
  })
  if (failed) throw failed
  return Object.freeze(headers)
}

export const SECURITY_HEADERS = headersHelmetSets(HELMET_OPTIONS)
