// The fulfilment flow (decision 0035): booking, cancelling, tracking and resolving an order's parcels
// (desk.ts), with its routes: carrier callbacks and the sandbox carrier's page (routes.ts), the back
// office's fulfilment (admin-routes.ts).
export { Fulfilment } from './desk.ts'
export { shippingRoutes } from './routes.ts'
export { shippingAdminRoutes } from './admin-routes.ts'
