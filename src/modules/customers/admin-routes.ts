// /admin/customers (admin bearer, role SUPPORT or ADMIN): list and search customers, view one with
// its addresses, balances and recent orders, returns and tickets; block and unblock.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import { type Guards, partnerOf } from '../../http/guards.ts'
import type { CustomerAdminService } from './admin.ts'
import { PageQuery, security } from '../../http/schemas.ts'
import { Customer, CustomerDetail } from './schemas.ts'

export const customerAdminRoutes: FastifyPluginAsyncTypebox<{ admin: CustomerAdminService; guards: Guards }> = async (app, { admin, guards }) => {
  const common = { preValidation: guards.admin('SUPPORT') }
  const tags = ['Admin: customers']
  const sec = security.admin
  const Params = Type.Object({ userId: Type.String({ maxLength: 100 }) })

  app.get(
    '/admin/customers',
    {
      ...common,
      schema: {
        operationId: 'adminListCustomers',
        tags,
        security: sec,
        summary: "Customers, newest first: one partner's or every partner's, by mobile, email (exact) or name (partial)",
        querystring: Type.Object({
          ...PageQuery,
          partnerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          phone: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'A 10-digit Indian mobile; +91 or 0 prefixes are accepted' })),
          email: Type.Optional(Type.String({ minLength: 1, maxLength: 254 })),
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', 'x-message': 'must contain a visible character' })),
        }),
        response: { 200: PagedEnvelope(Customer), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, limit, partnerId, phone, email, name } = request.query
      const result = await admin.list({ partnerId, phone, email, name }, { page, limit })
      return paged(result.data, result.meta, 'Customers retrieved')
    },
  )

  app.get(
    '/admin/customers/:userId',
    { ...common, schema: { operationId: 'adminGetCustomer', tags, security: sec, summary: 'One customer: profile, addresses, Wallet Cash and points, recent orders, returns and tickets', params: Params, response: { 200: Envelope(CustomerDetail), ...errorResponses(401, 403, 404) } } },
    async (request) => ok(await admin.view(request.params.userId), 'Customer retrieved'),
  )

  app.post(
    '/admin/customers/:userId/block',
    {
      ...common,
      schema: {
        operationId: 'adminBlockCustomer',
        tags,
        security: sec,
        summary: "Block a customer: every request with its tokens, new tokens and refreshes are 403 until unblocked",
        params: Params,
        body: Type.Object({ reason: Type.String({ minLength: 3, maxLength: 500 }) }),
        response: { 200: Envelope(Customer), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ok(await admin.block(request.params.userId, request.body.reason.trim()), 'Customer blocked'),
  )

  // The partner's own server (x-partner-id + x-partner-secret): its customers only, read-only.
  const partner = { preValidation: guards.partner }
  const partnerTags = ['Partner server: customers']
  app.get(
    '/partner/customers',
    {
      ...partner,
      schema: {
        operationId: 'partnerListCustomers',
        tags: partnerTags,
        security: security.partner,
        summary: "The partner's customers, newest first, by mobile, email (exact) or name (partial)",
        querystring: Type.Object({
          ...PageQuery,
          phone: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'A 10-digit Indian mobile; +91 or 0 prefixes are accepted' })),
          email: Type.Optional(Type.String({ minLength: 1, maxLength: 254 })),
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', 'x-message': 'must contain a visible character' })),
        }),
        response: { 200: PagedEnvelope(Customer), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { page, limit, phone, email, name } = request.query
      const result = await admin.list({ partnerId: partnerOf(request).partnerId, phone, email, name }, { page, limit })
      return paged(result.data, result.meta, 'Customers retrieved')
    },
  )
  app.get(
    '/partner/customers/:userId',
    { ...partner, schema: { operationId: 'partnerGetCustomer', tags: partnerTags, security: security.partner, summary: 'One customer of the partner: profile, addresses, balances, recent orders, returns and tickets', params: Params, response: { 200: Envelope(CustomerDetail), ...errorResponses(401, 404) } } },
    async (request) => ok(await admin.view(request.params.userId, partnerOf(request)), 'Customer retrieved'),
  )

  app.post(
    '/admin/customers/:userId/unblock',
    { ...common, schema: { operationId: 'adminUnblockCustomer', tags, security: sec, summary: 'Unblock a customer: its sessions work again', params: Params, response: { 200: Envelope(Customer), ...errorResponses(401, 403, 404) } } },
    async (request) => ok(await admin.unblock(request.params.userId), 'Customer unblocked'),
  )
}
