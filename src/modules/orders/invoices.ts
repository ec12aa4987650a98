// An order's GST documents (decision 0022) as GET /orders/{id}/invoice answers them, for the customer,
// the back office and the partner's server alike: JSON (the documents as issued) or one PDF of them.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { Executor } from '../../db/client.ts'
import { errorResponses, ok } from '../../http/envelope.ts'
import { AppError } from '../../lib/errors.ts'
import { renderTaxDocumentsPdf, TaxDocument, taxDocumentsOf } from '../tax/index.ts'
import type { OrderRow } from './repo.ts'

export const OrderDocuments = Type.Object({
  invoices: Type.Array(TaxDocument, { description: 'Tax invoices: one per GST registration with taxable lines in the order (usually one)' }),
  billsOfSupply: Type.Array(TaxDocument, { description: 'Bills of supply: the nil-rated goods, one per GST registration that sold some' }),
  creditNotes: Type.Array(TaxDocument, { description: 'Cancellations and refunded returns after invoicing, oldest first' }),
})

export const InvoiceQuery = Type.Object({
  format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('pdf')], { description: 'json (the default) or pdf; `Accept: application/pdf` also asks for the PDF' })),
})

/** The schema part shared by the three routes. */
export const invoiceRouteSchema = {
  querystring: InvoiceQuery,
  description:
    'The tax invoice of the order (one per GST registration, issued when the order is confirmed for cash on delivery or paid), the bill of supply of its nil-rated goods, and their credit notes, as JSON or as one PDF (`?format=pdf`). 404 while there is none, with the reason.',
  produces: ['application/json', 'application/pdf'],
}

export const invoiceResponses = (...statuses: (400 | 401 | 403 | 404)[]) => ({
  200: {
    description: 'The documents',
    content: {
      'application/json': { schema: Type.Object({ statusCode: Type.Integer(), message: Type.String(), data: OrderDocuments }) },
      'application/pdf': { schema: Type.String({ format: 'binary' }) },
    },
  },
  ...errorResponses(...statuses),
})

/** The order's documents; 404 naming why there is no invoice (yet). */
export async function documentsOfOrder(db: Executor, order: OrderRow) {
  const { numbering, ...documents } = await taxDocumentsOf(db, order.id)
  if (documents.invoices.length > 0 || documents.billsOfSupply.length > 0) return documents
  const why = numbering
    ? 'its invoice is being numbered, just after the order was confirmed: ask again in a moment'
    : order.taxableValue === null
      ? 'its seller is not registered for GST, so no tax invoice is issued'
      : order.status === 'PENDING_PAYMENT'
        ? 'the invoice is issued once the order is paid'
        : order.status === 'CANCELLED'
          ? 'it was cancelled before it was paid'
          : 'no invoice was issued for it'
  throw new AppError('NOT_FOUND', `Order ${order.orderNumber} has no tax invoice: ${why}`)
}

/** JSON in the envelope, or the PDF when asked (`?format=pdf` or an Accept naming application/pdf first). */
export async function sendDocuments(request: FastifyRequest<{ Querystring: { format?: 'json' | 'pdf' } }>, reply: FastifyReply, order: OrderRow, documents: Awaited<ReturnType<typeof documentsOfOrder>>) {
  const format = request.query.format ?? (/^\s*application\/pdf/i.test(request.headers.accept ?? '') ? 'pdf' : 'json')
  if (format === 'json') return ok(documents, 'Invoice retrieved')
  const pdf = await renderTaxDocumentsPdf([...documents.invoices, ...documents.billsOfSupply, ...documents.creditNotes])
  return reply.type('application/pdf').header('content-disposition', `inline; filename="invoice-${order.orderNumber}.pdf"`).send(pdf)
}
