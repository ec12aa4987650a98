// Upload slots for evidence images (customer token and x-partner-id), and, with the local storage
// driver, the signed PUT address and the public GET address of each file.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Readable } from 'node:stream'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { customerOf, type Guards } from '../../http/guards.ts'
import { CONTENT_TYPES, type UploadService } from './service.ts'
import { security } from '../../http/schemas.ts'
import { Slot, SlotsBody } from './schemas.ts'

export const uploadRoutes: FastifyPluginAsyncTypebox<{ uploads: UploadService; guards: Guards; readLimit: { max: number; timeWindow: number } }> = async (
  app,
  { uploads, guards, readLimit },
) => {
  for (const [path, purpose, operationId] of [
    ['/support/uploads/signed-urls', 'support', 'createSupportUploadUrls'],
    ['/returns/uploads/signed-urls', 'returns', 'createReturnUploadUrls'],
  ] as const) {
    app.post(
      path,
      {
        preValidation: guards.customerOfPartner,
        schema: {
          operationId,
          tags: ['Evidence uploads'],
          summary: `Signed upload addresses for ${purpose === 'support' ? 'support ticket' : 'return'} images (1-5 files, png/jpeg/webp/gif, up to 15 MB each)`,
          security: security.customer,
          body: SlotsBody,
          response: { 201: Envelope(Type.Array(Slot)), ...errorResponses(400, 401) },
        },
      },
      async (request, reply) => {
        reply.status(201)
        return ok(await uploads.issueSlots(customerOf(request), purpose, request.body.files), 'Upload URLs created', 201)
      },
    )
  }

  if (uploads.storage.driver !== 'local') return

  // The bytes of an upload: no parser reads them; the handler streams them to disk with its limits.
  await app.register(async (files) => {
    files.removeAllContentTypeParsers()
    files.addContentTypeParser('*', (_request, payload, done) => done(null, payload))

    files.put(
      '/uploads/*',
      {
        schema: {
          operationId: 'uploadFile',
          tags: ['Evidence uploads'],
          summary: 'The signed upload address (local storage driver): PUT the file bytes with the signed Content-Type',
          security: security.public,
          documentedBody: Object.fromEntries(CONTENT_TYPES.map((type) => [type, Type.String({ format: 'binary', description: 'The file bytes, with the Content-Type and length that were signed' })])),
          querystring: Type.Object({ expires: Type.Optional(Type.String()), size: Type.Optional(Type.String()), type: Type.Optional(Type.String()), signature: Type.Optional(Type.String()) }),
          response: { 201: Envelope(Type.Object({ objectName: Type.String(), size: Type.Integer(), contentType: Type.String() })), ...errorResponses(400, 403, 404, 409, 413) },
        },
      },
      async (request, reply) => {
        const objectName = (request.params as { '*': string })['*']
        const length = request.headers['content-length'] ? Number(request.headers['content-length']) : null
        const body = (request.body ?? request.raw) as Readable
        const stored = await uploads.receive(objectName, request.query as Record<string, string | undefined>, request.headers['content-type'], Number.isFinite(length) ? length : null, body)
        reply.status(201)
        return ok(stored, 'File uploaded', 201)
      },
    )
  })

  // Public and a database read when the file exists: limited per client address with a budget of
  // its own (UPLOAD_READ_RATE_LIMIT_MAX; a page of evidence loads a few images), and misses of
  // names never issued cost no query at all (UploadService.open).
  app.get(
    '/uploads/*',
    {
      config: { rateLimit: readLimit },
      schema: {
        operationId: 'getUploadedFile',
        tags: ['Evidence uploads'],
        summary: 'An uploaded file (its publicUrl, local storage driver)',
        security: security.public,
        documentedAnswer: [...CONTENT_TYPES],
        description: 'Public. Limited per client address to UPLOAD_READ_RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_MS (600 a minute by default), then 429 with retry-after.',
      },
    },
    async (request, reply) => {
      const { stream, contentType } = await uploads.open((request.params as { '*': string })['*'])
      reply.header('content-type', contentType).header('cache-control', 'private, max-age=86400, immutable').header('content-disposition', 'inline')
      return reply.send(stream)
    },
  )
}
