// The app as a route plugin sees it (the TypeBox type provider): what a module's route file takes
// when its plugin registers its routes through several functions, one per resource, called in order.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

export type RouteApp = Parameters<FastifyPluginAsyncTypebox>[0]
