// The tax module: GST rate slabs (data with dates), the GST seller of each catalog, the check of
// which products cannot be taxed yet (decision 0021), and tax invoices and credit notes with the
// GST report (decision 0022). Other modules use only this file.
export { gstRatesInForceAt, gstRegistrationOf, gstSellerOf, indiaDay, sellerReturnAddressOf, TaxService } from './service.ts'
export { type CreditRequest, type InvoicedOrder, issueCreditNotes, issueInvoices, taxDocumentsOf } from './documents.ts'
export { TaxDocument } from './document.ts'
export { renderTaxDocumentsPdf } from './invoice-pdf.ts'
export { taxAdminRoutes } from './admin-routes.ts'
