// /admin/partners (admin bearer, role ADMIN): partners, their secrets and their API keys.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import type { Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import type { PartnerAdminService } from './admin.ts'
import { Nullable, OptionalPageQuery, PageQuery, Time, security } from '../../http/schemas.ts'
import { ApiKey, EcoGstin, IssuedApiKey, Name, Origins, Partner } from './schemas.ts'

interface PartnerAdminDeps {
  admin: PartnerAdminService
  guards: Guards
}
const tags = ['Admin: partners']
const sec = security.admin
const PartnerParams = Type.Object({ partnerId: Type.String({ maxLength: 100 }) })

export const partnerAdminRoutes: FastifyPluginAsyncTypebox<{ admin: PartnerAdminService; guards: Guards }> = async (app, { admin, guards }) => {
  partnerAccountAdminRoutes(app, { admin, guards })
  apiKeyAdminRoutes(app, { admin, guards })
}

/** /admin/partners: create, list, view, update, deactivate, rotate the secret. */
export function partnerAccountAdminRoutes(app: RouteApp, { admin, guards }: PartnerAdminDeps): void {
  const common = { preValidation: guards.admin() }

  app.post(
    '/admin/partners',
    {
      ...common,
      schema: {
        operationId: 'adminCreatePartner',
        tags,
        security: sec,
        summary: 'Create a partner: its secret and first API key are answered once',
        body: Type.Object({ name: Name, catalogId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The catalog its first key reads (default: the main catalog)' })), returnUrlOrigins: Type.Optional(Origins) }),
        response: { 201: Envelope(Type.Object({ partner: Partner, secret: Type.String({ description: 'x-partner-secret: shown only now' }), apiKey: IssuedApiKey })), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { name, catalogId, returnUrlOrigins } = request.body
      reply.status(201)
      return ok(await admin.create({ name: name.trim(), catalogId, returnUrlOrigins }), 'Partner created', 201)
    },
  )

  app.get(
    '/admin/partners',
    {
      ...common,
      schema: {
        operationId: 'adminListPartners',
        tags,
        security: sec,
        summary: 'Partners, newest first; search by name (partial) or ID',
        querystring: Type.Object({
          ...PageQuery,
          search: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          isActive: Type.Optional(Type.Boolean()),
        }),
        response: { 200: PagedEnvelope(Partner), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, limit, search, isActive } = request.query
      const result = await admin.list({ search, isActive }, { page, limit })
      return paged(result.data, result.meta, 'Partners retrieved')
    },
  )

  app.get(
    '/admin/partners/:partnerId',
    { ...common, schema: { operationId: 'adminGetPartner', tags, security: sec, summary: 'One partner with its API keys', params: PartnerParams, response: { 200: Envelope(Type.Object({ ...Partner.properties, apiKeys: Type.Array(ApiKey) })), ...errorResponses(401, 403, 404) } } },
    async (request) => ok(await admin.detail(request.params.partnerId), 'Partner retrieved'),
  )

  app.patch(
    '/admin/partners/:partnerId',
    {
      ...common,
      schema: {
        operationId: 'adminUpdatePartner',
        tags,
        security: sec,
        summary: 'Rename, set return origins, record its GSTIN as an e-commerce operator, or (de)activate: a deactivated partner\'s keys, secret and customer tokens stop working',
        params: PartnerParams,
        body: Type.Object({ name: Type.Optional(Name), returnUrlOrigins: Type.Optional(Origins), isActive: Type.Optional(Type.Boolean()), ecoGstin: Type.Optional(EcoGstin) }),
        response: { 200: Envelope(Partner), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { name, returnUrlOrigins, isActive, ecoGstin } = request.body
      return ok(await admin.update(request.params.partnerId, { name: name?.trim(), returnUrlOrigins, isActive, ecoGstin }), 'Partner updated')
    },
  )

  app.post(
    '/admin/partners/:partnerId/deactivate',
    { ...common, schema: { operationId: 'adminDeactivatePartner', tags, security: sec, summary: 'Deactivate: its API keys, secret and customer tokens stop working (PATCH isActive true brings it back)', params: PartnerParams, response: { 200: Envelope(Partner), ...errorResponses(401, 403, 404) } } },
    async (request) => ok(await admin.update(request.params.partnerId, { isActive: false }), 'Partner deactivated'),
  )

  app.post(
    '/admin/partners/:partnerId/rotate-secret',
    {
      ...common,
      schema: {
        operationId: 'adminRotatePartnerSecret',
        tags,
        security: sec,
        summary: 'A new partner secret, shown once; the previous one keeps working until previousSecretExpiresAt (PARTNER_SECRET_OVERLAP_SECONDS, 24 h by default)',
        params: PartnerParams,
        response: { 200: Envelope(Type.Object({ partnerId: Type.String(), secret: Type.String(), previousSecretExpiresAt: Nullable(Time) })), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ok(await admin.rotateSecret(request.params.partnerId), 'Partner secret rotated'),
  )
}

/** /admin/partners/{partnerId}/api-keys: a partner's API keys (list, issue, revoke). */
export function apiKeyAdminRoutes(app: RouteApp, { admin, guards }: PartnerAdminDeps): void {
  const common = { preValidation: guards.admin() }

  app.get(
    '/admin/partners/:partnerId/api-keys',
    {
      ...common,
      schema: {
        operationId: 'adminListApiKeys',
        tags,
        security: sec,
        summary: "A partner's API keys, newest first (revoked ones too); whole, or a page when page or limit is given",
        params: PartnerParams,
        querystring: Type.Object(OptionalPageQuery),
        response: { 200: PagedEnvelope(ApiKey), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { page, limit } = request.query
      const { data, meta } = await admin.keys(request.params.partnerId, { page, limit })
      return paged(data, meta, 'API keys retrieved')
    },
  )

  app.post(
    '/admin/partners/:partnerId/api-keys',
    {
      ...common,
      schema: {
        operationId: 'adminCreateApiKey',
        tags,
        security: sec,
        summary: 'Issue an API key bound to one catalog (default: the catalog of its newest active key); the key is answered once',
        params: PartnerParams,
        body: Type.Object({ catalogId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), name: Type.Optional(Name) }),
        response: { 201: Envelope(IssuedApiKey), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { catalogId, name } = request.body
      reply.status(201)
      return ok(await admin.createKey(request.params.partnerId, { catalogId, name: name?.trim() }), 'API key created', 201)
    },
  )

  app.post(
    '/admin/partners/:partnerId/api-keys/:keyId/revoke',
    {
      ...common,
      schema: {
        operationId: 'adminRevokeApiKey',
        tags,
        security: sec,
        summary: 'Revoke an API key; revoking a revoked key is 409',
        params: Type.Object({ partnerId: Type.String({ maxLength: 100 }), keyId: Type.String({ maxLength: 100 }) }),
        response: { 200: Envelope(ApiKey), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => ok(await admin.revokeKey(request.params.partnerId, request.params.keyId), 'API key revoked'),
  )
}
