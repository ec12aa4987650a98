// Back office for the ledgers (admin bearer): Wallet Cash / Reward Points adjustments with a reason
// (SUPPORT or ADMIN). Listed under the checkout back office's tag, as before the module split.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { adminOf, type Guards } from '../../http/guards.ts'
import { security } from '../../http/schemas.ts'
import type { LedgerAdminService } from './admin-service.ts'
import { Balances, LedgerAdjustment } from './schemas.ts'

export const ledgerAdminRoutes: FastifyPluginAsyncTypebox<{ admin: LedgerAdminService; guards: Guards }> = async (app, { admin, guards }) => {
  const tags = ['Admin: checkout']
  const sec = security.admin

  app.post(
    '/admin/customers/:userId/ledger',
    {
      preValidation: guards.admin('SUPPORT'),
      schema: {
        operationId: 'adminAdjustCustomerBalance',
        tags,
        security: sec,
        summary: 'Adjust Wallet Cash (rupees) or Reward Points (whole points): positive credits, negative debits; never below zero',
        params: Type.Object({ userId: Type.String({ maxLength: 100 }) }),
        body: LedgerAdjustment,
        response: { 200: Envelope(Balances), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { kind, amount, reason, reference } = request.body
      return ok(await admin.adjustLedger(request.params.userId, { kind, amount, reason, reference: reference ?? `admin:${adminOf(request).adminId}` }), 'Balance adjusted')
    },
  )
}
