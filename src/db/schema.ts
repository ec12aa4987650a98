// Every table, for drizzle-kit and for the typed client. Modules own their tables.
export * from '../modules/admins/schema.sql.ts'
export * from '../modules/auth/schema.sql.ts'
export * from '../modules/catalog/schema.sql.ts'
export * from '../modules/customers/schema.sql.ts'
export * from '../modules/partners/schema.sql.ts'
export * from '../modules/checkout/schema.sql.ts'
export * from '../modules/events/schema.sql.ts'
export * from '../modules/orders/schema.sql.ts'
