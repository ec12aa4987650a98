// The placement flow (issue #40): POST /orders, as named steps across customers, checkout, catalog,
// ledgers, events, payments and orders in one transaction (placement.ts), with its route.
export { OrderPlacement, type PlacementSettings } from './placement.ts'
export { orderPlacementRoutes } from './routes.ts'
