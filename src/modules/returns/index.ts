// The returns module: return requests, their machine and the refunds that settle them (tables of
// returns/schema.sql.ts). app.ts builds it; no other module uses it.
export { ReturnService } from './service.ts'
export { returnRoutes } from './routes.ts'
