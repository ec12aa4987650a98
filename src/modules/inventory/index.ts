// The inventory module (decision 0043, step 5): a catalog's stock locations, the units each holds
// per variant, the append-only ledger of every move, and the locations each order's units come
// from. Orders take and give back units through takeUnitsForOrder and giveUnitsBack, in their own
// transactions, beside catalog's reserveStock and releaseStock.
export { InventoryAdminService } from './admin-service.ts'
export { inventoryAdminRoutes } from './admin-routes.ts'
export { giveUnitsBack, type HeldAt, locationOf, type OrderUnits, plannedSupplierStates, takeUnitsForOrder, unitsHeldForOrder } from './orders.ts'
export { nearness } from './allocation.ts'
