// The tax module: GST rate slabs (data with dates), the GST seller of each catalog, and the check of
// which products cannot be taxed yet (decision 0021). Other modules use only this file.
export { gstRatesInForceAt, gstSellerOf, indiaDay, TaxService } from './service.ts'
export { taxAdminRoutes } from './admin-routes.ts'
