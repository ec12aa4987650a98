// The audit module: the back office's audit log (table audit_log, written by the database's trigger
// on the audited tables, decision 0033) and GET /admin/audit-log. What app.ts uses of it is here.
export { auditRoutes } from './routes.ts'
