// /admin/gst/registrations (role ADMIN): GST registrations, one per GSTIN with its own document
// series (list, create, get, update).
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { PageQuery } from '../../http/schemas.ts'
import { adminOnlyOf, sec, type TaxAdminDeps, tags } from './admin-route-shared.ts'
import { Registration, RegistrationInput, RegistrationParams, RegistrationPatch } from './schemas.ts'

export function registrationAdminRoutes(app: RouteApp, { tax, guards }: TaxAdminDeps): void {
  const adminOnly = adminOnlyOf(guards)

  app.get(
    '/admin/gst/registrations',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminListGstRegistrations',
        tags,
        security: sec,
        summary: 'GST registrations, by GSTIN',
        querystring: Type.Object({ ...PageQuery, search: Type.Optional(Type.String({ maxLength: 100, description: 'Part of the GSTIN, legal or trade name' })) }),
        response: { 200: PagedEnvelope(Registration), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, limit, search } = request.query
      const { data, meta } = await tax.listRegistrations(search, { page, limit })
      return paged(data, meta, 'GST registrations retrieved')
    },
  )

  app.post(
    '/admin/gst/registrations',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminCreateGstRegistration',
        tags,
        security: sec,
        summary: 'Register a GSTIN: its documents are numbered in its own series',
        description: 'The GSTIN is checked as for a seller; 409 when it is registered already (one GSTIN is one registration).',
        body: RegistrationInput,
        response: { 201: Envelope(Registration), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(ok(await tax.createRegistration(request.body), 'GST registration created', 201)),
  )

  app.get(
    '/admin/gst/registrations/:registrationId',
    { ...adminOnly, schema: { operationId: 'adminGetGstRegistration', tags, security: sec, summary: 'One GST registration, with the catalogs selling under it', params: RegistrationParams, response: { 200: Envelope(Registration), ...errorResponses(401, 403, 404) } } },
    async (request) => ok(await tax.getRegistration(request.params.registrationId), 'GST registration retrieved'),
  )

  app.patch(
    '/admin/gst/registrations/:registrationId',
    {
      ...adminOnly,
      schema: {
        operationId: 'adminUpdateGstRegistration',
        tags,
        security: sec,
        summary: 'Change names, address, series prefixes or filing frequency (never the GSTIN)',
        description: 'Issued documents keep the details they were issued with. A new prefix applies to later documents, and their serials go on; a prefix too long for the serials this financial year has reached is a 400.',
        params: RegistrationParams,
        body: RegistrationPatch,
        response: { 200: Envelope(Registration), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ok(await tax.updateRegistration(request.params.registrationId, request.body), 'GST registration updated'),
  )
}
