// The ledgers module: Wallet Cash and Reward Points, append-only ledgers of one table
// (ledger_entries). Checkout reads balances, orders and returns credit and debit them inside their
// own transactions, the back office adjusts them. What other modules may use is exported here.
export { creditLedger, debitLedger, ledgerBalances, ledgerPage, type LedgerWrite } from './ledger.ts'
export type { LedgerKind } from './schema.sql.ts'
export { LedgerAdminService } from './admin-service.ts'
export { ledgerAdminRoutes } from './admin-routes.ts'
