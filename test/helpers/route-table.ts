// The route table Fastify builds: buildApp creates the Fastify instance itself and registers every
// route before it returns, so an onRoute hook added through extraRoutes would come too late, and
// printRoutes() is a tree meant for people. Fastify publishes each new instance on the
// `fastify.initialization` diagnostics channel (public API, made for instrumentation) before any
// plugin runs; subscribing there adds an onRoute hook that sees every route with its method and
// full URL. Used by the authorization matrix and the OpenAPI document's test.
import diagnostics from 'node:diagnostics_channel'
import type { FastifyInstance, RouteOptions } from 'fastify'

/** A route as Fastify registered it: one method, the full URL; hidden when its schema hides it from the document. */
export interface RegisteredRoute {
  method: string
  url: string
  hidden: boolean
}

/** Runs `build` (which creates the app) and answers what it built with every route it registered. */
export async function withRouteTable<T>(build: () => Promise<T>): Promise<{ built: T; routes: RegisteredRoute[] }> {
  const routes: RegisteredRoute[] = []
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance }
    fastify.addHook('onRoute', (route: RouteOptions) => {
      const hidden = (route.schema as { hide?: boolean } | undefined)?.hide === true
      for (const method of [route.method].flat()) routes.push({ method, url: route.url, hidden })
    })
  }
  diagnostics.subscribe('fastify.initialization', onInit)
  try {
    return { built: await build(), routes }
  } finally {
    diagnostics.unsubscribe('fastify.initialization', onInit)
  }
}
