// Every table, for drizzle-kit (drizzle.config.ts) and for the typed client (db/client.ts). Modules own
// their tables; this composition-level file is the one place outside a module that imports its
// schema.sql.ts (the lint rule allows it, decision 0016).
export * from './modules/admins/schema.sql.ts'
export * from './modules/auth/schema.sql.ts'
export * from './modules/catalog/schema.sql.ts'
export * from './modules/customers/schema.sql.ts'
export * from './modules/partners/schema.sql.ts'
export * from './modules/checkout/schema.sql.ts'
export * from './modules/ledgers/schema.sql.ts'
export * from './modules/events/schema.sql.ts'
export * from './modules/orders/schema.sql.ts'
export * from './modules/payments/schema.sql.ts'
export * from './modules/uploads/schema.sql.ts'
export * from './modules/support/schema.sql.ts'
export * from './modules/returns/schema.sql.ts'
export * from './modules/tax/schema.sql.ts'
export * from './modules/shipping/schema.sql.ts'
export * from './modules/audit/schema.sql.ts'
