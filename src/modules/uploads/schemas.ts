// Request and response schemas of the uploads module: they validate, type the handlers, serialize
// answers and make the OpenAPI document.
import { Type } from 'typebox'
import { CONTENT_TYPES, MAX_FILES_PER_REQUEST, MAX_FILE_BYTES } from './service.ts'

export const SlotsBody = Type.Object({
  files: Type.Array(
    Type.Object({
      fileName: Type.String({
        minLength: 1,
        maxLength: 255,
        // Letters (any script), digits, spaces, dots, dashes, underscores, brackets; no "..", no slashes, no control characters or emoji.
        pattern: '^(?!.*\\.\\.)[\\p{L}\\p{M}\\p{N} ._()\\-]+$',
        'x-message': 'must contain only letters, digits, spaces, dots, dashes, underscores and brackets',
      }),
      contentType: Type.Enum([...CONTENT_TYPES]),
      sizeBytes: Type.Integer({ minimum: 1, maximum: MAX_FILE_BYTES, description: 'Exact size of the file in bytes, at most 15 MB' }),
    }),
    { minItems: 1, maxItems: MAX_FILES_PER_REQUEST },
  ),
})
export const Slot = Type.Object({
  fileName: Type.String(),
  objectName: Type.String(),
  uploadUrl: Type.String(),
  publicUrl: Type.String(),
  method: Type.Literal('PUT'),
  headers: Type.Object({ 'Content-Type': Type.String() }, { additionalProperties: true }),
  expiresAt: Type.String({ format: 'date-time' }),
})
