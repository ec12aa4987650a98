// The back office's move of a return along its machine (admin bearer, role SUPPORT or ADMIN): the
// return-settlement flow's route, in the "Admin: returns" tag beside the returns module's.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { adminOf, type Guards } from '../../http/guards.ts'
import { security } from '../../http/schemas.ts'
import { AppError } from '../../lib/errors.ts'
import { parseRupees } from '../../lib/money.ts'
import { AdminReturn, ReturnParams, ReturnStatusSchema } from '../../modules/returns/index.ts'
import type { ReturnMoves } from './desk.ts'

export const returnMoveAdminRoutes: FastifyPluginAsyncTypebox<{ moves: ReturnMoves; guards: Guards }> = async (app, { moves, guards }) => {
  app.post(
    '/admin/returns/:returnRequestId/status',
    {
      preValidation: guards.admin('SUPPORT'),
      schema: {
        operationId: 'adminUpdateReturnStatus',
        tags: ['Admin: returns'],
        security: security.admin,
        summary: 'Move a return along the machine; APPROVED may lower the amount (with a note); REFUND_PENDING starts the refund',
        params: ReturnParams,
        body: Type.Object({
          status: ReturnStatusSchema,
          note: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
          approvedAmount: Type.Optional(Type.Union([Type.String({ pattern: '^\\d{1,13}(\\.\\d{1,2})?$' }), Type.Number({ minimum: 0, maximum: 1e13 })], { 'x-message': 'must be an amount with at most two decimals' })),
        }),
        response: { 200: Envelope(AdminReturn), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { status, note, approvedAmount } = request.body
      const paise = approvedAmount === undefined ? undefined : parseRupees(approvedAmount)
      if (paise === null) throw new AppError('BAD_REQUEST', 'Validation failed', ['approvedAmount must be an amount with at most two decimals'])
      return ok(await moves.setStatus(adminOf(request).adminId, request.params.returnRequestId, { status, note, approvedAmount: paise }), 'Return request status changed')
    },
  )
}
