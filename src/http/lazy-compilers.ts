// Route validators and response serializers compiled on a route's first use instead of at start-up.
// Compiling all of them (Ajv for 172 routes' params, queries and bodies; fast-json-stringify for
// every declared response) took about 1.5 s of CPU at each `app.ready()` on the 2-core box
// (2026-11-28, a CPU profile of one test app: fast-json-stringify 0.63 s, Ajv 0.86 s): every server
// start, every CLI command and every test file paid it for routes it mostly never called. A route
// now pays its own compilation, a few milliseconds, once, on its first request. A schema Ajv or
// fast-json-stringify cannot compile still fails loudly: on that first request, and in the suite,
// whose fuzz and OpenAPI rows call every route (decision 0036).
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { FastifySchemaCompiler } from 'fastify'

type Validate = ReturnType<FastifySchemaCompiler<unknown>>

/**
 * A validator compiler whose functions compile on their first call. Each call's Ajv `errors` are
 * copied onto the function, where Fastify reads them, and its `schema` (the schema it enforces, as
 * Ajv's functions expose it; the mass-assignment row reads it) compiles it when read.
 */
export function lazyValidatorCompiler(compile: FastifySchemaCompiler<unknown>): FastifySchemaCompiler<unknown> {
  return (route) => {
    type Compiled = Validate & { errors?: unknown; schema?: unknown }
    let compiled: Compiled | null = null
    const compiledNow = (): Compiled => (compiled ??= compile(route))
    const validate = ((data: unknown) => {
      const result = compiledNow()(data)
      ;(validate as { errors?: unknown }).errors = compiledNow().errors
      return result
    }) as Validate
    Object.defineProperty(validate, 'schema', { get: () => compiledNow().schema })
    return validate
  }
}

/** Fastify's own serializer factory (fast-json-stringify), each route's serializer compiled on its first answer. */
export function lazySerializerFactory(): ReturnType<typeof SerializerSelector> {
  const factory = SerializerSelector()
  return (externalSchemas, options) => {
    const compileFor = factory(externalSchemas, options)
    return (route) => {
      let serialize: ((doc: unknown) => string) | null = null
      return (doc) => (serialize ??= compileFor(route))(doc)
    }
  }
}
