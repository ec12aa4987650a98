// Request and response schemas of the health module: they validate, type the handlers, serialize
// answers and make the OpenAPI document.
import { Type } from 'typebox'

export const DependencyState = Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('disabled')])
export const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
  database: DependencyState,
  redis: DependencyState,
  uptime: Type.Number({ description: 'Seconds since the process started' }),
})
export const Health = Type.Object({ ...Readiness.properties, version: Type.String() })
