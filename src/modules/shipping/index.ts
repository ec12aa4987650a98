// The shipping module (decision 0024): carriers behind one interface (the sandbox, Shiprocket), the
// service that books parcels and applies tracking callbacks, its routes (carrier webhooks, the
// sandbox tracking page, the back office's fulfilment), labels and pick lists. The shipment rows
// and what they do to an order are the orders module's (src/modules/orders/shipments.ts).
export { type CourierRule, ShippingService } from './service.ts'
export { shippingRoutes } from './routes.ts'
export { shippingAdminRoutes } from './admin-routes.ts'
export { createCarriers } from './carriers/index.ts'
export type { Carrier } from './carriers/types.ts'
export type { SandboxCarrier } from './carriers/sandbox.ts'
export { CourierFields, ParcelFields } from './schemas.ts'
