// The support module: tickets and their conversation (tables of support/schema.sql.ts). app.ts
// builds it; no other module uses it.
export { SupportService } from './service.ts'
export { supportRoutes } from './routes.ts'
