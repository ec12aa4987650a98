// Conditional GETs (RFC 9110, 8.8.3 and 13.1.2): a 200 answer carries a weak ETag, a hash of its
// bytes (or the tag the route set, e.g. a cached answer's), and a request whose If-None-Match names
// it (weak comparison; a list of tags or `*`) gets 304 with no body. Only 200s: an error is never
// tagged nor answered 304. Each GET route of the scope that calls this is marked, so the OpenAPI
// document declares the 304, the ETag header and the If-None-Match parameter of exactly those
// operations (openapi.ts).
// Written here rather than with @fastify/etag, which tags every answer (errors included, so a
// matching If-None-Match turned a 401 or a 429 into a 304) and compares If-None-Match by equality
// (a list of tags never matched).
import type { FastifyInstance } from 'fastify'

/** The route config key that marks a route answering conditional GETs. */
export const CONDITIONAL_GET = 'conditionalGet'

/** The opaque part of an entity tag: weak comparison ignores W/. */
const opaque = (tag: string) => tag.trim().replace(/^W\//, '')

/** Whether If-None-Match names `tag` (or is `*`). */
export function noneMatchHits(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false
  const wanted = opaque(tag)
  return ifNoneMatch.split(',').some((candidate) => candidate.trim() === '*' || opaque(candidate) === wanted)
}

export function conditionalGets(app: FastifyInstance, hash: (payload: string | Buffer) => string): void {
  app.addHook('onRoute', (route) => {
    if (route.method === 'GET' || (Array.isArray(route.method) && route.method.includes('GET'))) route.config = { ...route.config, [CONDITIONAL_GET]: true } as typeof route.config
  })
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode !== 200 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return payload
    let tag = reply.getHeader('etag')
    if (typeof tag !== 'string') {
      tag = `W/"${hash(payload)}"`
      reply.header('etag', tag)
    }
    if (!noneMatchHits(request.headers['if-none-match'], tag)) return payload
    reply.code(304)
    return ''
  })
}
