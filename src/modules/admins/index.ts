// Back-office users: created from the command line, log in with email and password (argon2id),
// and carry a role. ADMIN may do everything; SUPPORT and CATALOG only their own areas.
export { ADMIN_ROLES, type AdminRole } from './schema.sql.ts'
export { type AdminIdentity, AdminService, anyAdminExists, createAdmin, upsertAdminPassword } from './service.ts'
export { adminAuthRoutes, adminPeopleRoutes, failedLoginsPerAccount } from './routes.ts'
