// The health module: liveness and readiness probes. It owns no table.
export { healthRoutes } from './routes.ts'
